//! Writing unsigned numbers in decimal without going through `fmt`, for the
//! writer's hottest paths (register ids, list entry ids).

/// Appends `n` in decimal to `out`. A number below 1,000, as most printed
/// are (register ids, type sizes), has its digits pushed one by one, inline:
/// cheaper than formatting it in a buffer and copying that.
#[inline]
pub(crate) fn push_decimal(out: &mut String, n: u64) {
    if n >= 1000 {
        push_long_decimal(out, n);
        return;
    }
    let digit = |d: u64| char::from(b'0' + (d % 10) as u8);
    if n >= 100 {
        out.push(digit(n / 100));
    }
    if n >= 10 {
        out.push(digit(n / 10));
    }
    out.push(digit(n));
}

/// Appends `n` in decimal to `out` through a buffer.
fn push_long_decimal(out: &mut String, n: u64) {
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
