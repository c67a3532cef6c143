//! Writing unsigned numbers in decimal without going through `fmt`, for the
//! writer's hottest paths (register ids, list entry ids).

/// Appends `n` in decimal to `out`.
pub(crate) fn push_decimal(out: &mut String, n: u64) {
    out.push_str(itoa::Buffer::new().format(n));
}

/// The number of decimal digits of `n`.
pub(crate) fn decimal_len(n: u64) -> usize {
    n.checked_ilog10().map_or(1, |log| log as usize + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_display() {
        for n in [0, 1, 9, 10, 99, 100, 12345, u64::from(u32::MAX), u64::MAX] {
            let mut out = String::from("x");
            push_decimal(&mut out, n);
            assert_eq!(out, format!("x{n}"));
            assert_eq!(decimal_len(n), n.to_string().len());
        }
    }
}
