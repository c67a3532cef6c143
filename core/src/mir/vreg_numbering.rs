//! Comparing printed bodies up to the numbering of virtual registers.

/// `text` with every numbered virtual register (`%7`) renumbered in order
/// of first appearance, as `compare.py` normalises bodies; named registers
/// (`%ptr`) are kept.
pub fn renumber_vregs(text: &str) -> String {
    let mut seen: Vec<&str> = Vec::new();
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..=at]);
        rest = &rest[at + 1..];
        let len = rest.bytes().take_while(u8::is_ascii_digit).count();
        if len == 0 {
            continue;
        }
        let digits = &rest[..len];
        let index = seen.iter().position(|d| *d == digits).unwrap_or_else(|| {
            seen.push(digits);
            seen.len() - 1
        });
        out.push_str(&index.to_string());
        rest = &rest[len..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::renumber_vregs;

    #[test]
    fn renumbers_in_order_of_appearance_and_keeps_names() {
        assert_eq!(renumber_vregs("%7 = G_ADD %3, %7\n%ptr = COPY %12"), "%0 = G_ADD %1, %0\n%ptr = COPY %2");
    }
}
