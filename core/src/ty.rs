//! LLT, the low-level type of GlobalISel: scalars `sN`, pointers `pA`, and
//! fixed or scalable vectors of either.
//!
//! An [`Llt`] is a packed `u64`, so it is `Copy`, cheap to hash and compare,
//! and fits in a legality-cache key. Text follows LLVM's spelling exactly
//! (`s32`, `p0`, `<4 x s32>`, `<vscale x 2 x p0>`); on input the newer
//! spellings `iN`, `fN` and `bf16` are accepted and mean `sN` (LLVM 22 does
//! not distinguish integer from floating-point LLTs).

use crate::mir::decimal::push_decimal;
use std::fmt;
use std::str::FromStr;

/// A low-level type.
///
/// Bit layout of the packed value:
///
/// | bits    | field                                          |
/// |---------|------------------------------------------------|
/// | 0..24   | scalar or element size in bits                 |
/// | 24..40  | address space (pointer scalars and elements)   |
/// | 40..56  | element count (vectors; minimum for scalable)  |
/// | 56      | the scalar or element is a pointer             |
/// | 57      | the type is a vector                           |
/// | 58      | the vector is scalable                         |
/// | 59      | the type is valid (the all-zero value is not)  |
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Llt(u64);

const SIZE_BITS: u32 = 24;
const AS_SHIFT: u32 = 24;
const AS_BITS: u32 = 16;
const ELTS_SHIFT: u32 = 40;
const ELTS_BITS: u32 = 16;
const POINTER: u64 = 1 << 56;
const VECTOR: u64 = 1 << 57;
const SCALABLE: u64 = 1 << 58;
const VALID: u64 = 1 << 59;

/// The widest scalar an [`Llt`] can describe.
pub const MAX_SCALAR_BITS: u32 = (1 << SIZE_BITS) - 1;
/// The largest address space an [`Llt`] can describe.
pub const MAX_ADDRESS_SPACE: u32 = (1 << AS_BITS) - 1;
/// The largest element count an [`Llt`] vector can have.
pub const MAX_ELEMENTS: u32 = (1 << ELTS_BITS) - 1;

const fn mask(bits: u32) -> u64 {
    (1u64 << bits) - 1
}

impl Llt {
    /// The invalid type (LLVM's default-constructed `LLT()`).
    pub const INVALID: Llt = Llt(0);

    /// `sN`. Panics in const contexts and debug builds when `bits` is 0 or
    /// exceeds [`MAX_SCALAR_BITS`]; use [`Llt::try_scalar`] for untrusted sizes.
    pub const fn scalar(bits: u32) -> Llt {
        assert!(bits > 0 && bits <= MAX_SCALAR_BITS, "scalar size out of range");
        Llt(VALID | bits as u64)
    }

    /// `sN`, or `None` when `bits` is out of range.
    pub fn try_scalar(bits: u64) -> Option<Llt> {
        (bits > 0 && bits <= u64::from(MAX_SCALAR_BITS)).then_some(Llt(VALID | bits))
    }

    /// `pA` whose size in bits comes from the target's data layout.
    pub const fn pointer(address_space: u32, size_bits: u32) -> Llt {
        assert!(address_space <= MAX_ADDRESS_SPACE, "address space out of range");
        assert!(size_bits > 0 && size_bits <= MAX_SCALAR_BITS, "pointer size out of range");
        Llt(VALID | POINTER | ((address_space as u64) << AS_SHIFT) | size_bits as u64)
    }

    /// `<N x T>` for a scalar or pointer `T`. `N` must be at least 1 (LLVM
    /// spells `<1 x s32>` but a one-element vector is still a vector).
    pub const fn fixed_vector(count: u32, element: Llt) -> Llt {
        assert!(count > 0 && count <= MAX_ELEMENTS, "element count out of range");
        assert!(element.is_valid() && !element.is_vector(), "bad vector element");
        Llt(element.0 | VECTOR | ((count as u64) << ELTS_SHIFT))
    }

    /// `<vscale x N x T>`.
    pub const fn scalable_vector(min_count: u32, element: Llt) -> Llt {
        Llt(Llt::fixed_vector(min_count, element).0 | SCALABLE)
    }

    /// A vector of `count` elements, or the element itself when `count` is 1
    /// and the vector is fixed (LLVM's `LLT::scalarOrVector`).
    pub fn scalar_or_vector(count: u32, scalable: bool, element: Llt) -> Llt {
        match (count, scalable) {
            (1, false) => element,
            (_, false) => Llt::fixed_vector(count, element),
            (_, true) => Llt::scalable_vector(count, element),
        }
    }

    /// One of `parts` equal pieces of this type: a vector with a fraction of
    /// the lanes (a scalar for one lane), or a scalar a fraction as wide
    /// (LLVM's `LLT::divide`).
    pub fn divide(self, parts: u32) -> Llt {
        if self.is_vector() {
            Llt::scalar_or_vector(self.num_elements() / parts, false, self.element_type())
        } else {
            Llt::scalar((self.size_in_bits() / u64::from(parts)) as u32)
        }
    }

    /// The packed representation, for hashing into caches.
    pub const fn to_bits(self) -> u64 {
        self.0
    }

    /// True for every type but [`Llt::INVALID`].
    pub const fn is_valid(self) -> bool {
        self.0 & VALID != 0
    }

    /// True for `sN` (not for pointers, not for vectors).
    pub const fn is_scalar(self) -> bool {
        self.is_valid() && self.0 & (POINTER | VECTOR) == 0
    }

    /// True for a scalar pointer `pA`.
    pub const fn is_pointer(self) -> bool {
        self.is_valid() && self.0 & (POINTER | VECTOR) == POINTER
    }

    /// True for a vector of pointers.
    pub const fn is_pointer_vector(self) -> bool {
        self.0 & (POINTER | VECTOR) == (POINTER | VECTOR)
    }

    /// True for a pointer or a vector of pointers.
    pub const fn is_pointer_or_pointer_vector(self) -> bool {
        self.0 & POINTER != 0
    }

    /// True for fixed and scalable vectors.
    pub const fn is_vector(self) -> bool {
        self.0 & VECTOR != 0
    }

    /// True for fixed vectors only.
    pub const fn is_fixed_vector(self) -> bool {
        self.0 & (VECTOR | SCALABLE) == VECTOR
    }

    /// True for scalable vectors.
    pub const fn is_scalable(self) -> bool {
        self.0 & SCALABLE != 0
    }

    /// The element type of a vector, or the type itself.
    pub const fn scalar_type(self) -> Llt {
        Llt(self.0 & !(VECTOR | SCALABLE | (mask(ELTS_BITS) << ELTS_SHIFT)))
    }

    /// The element type of a vector, or the type itself (alias of
    /// [`Llt::scalar_type`] that reads better on vectors).
    pub const fn element_type(self) -> Llt {
        self.scalar_type()
    }

    /// Size of the scalar, pointer or element in bits.
    pub const fn scalar_size_in_bits(self) -> u32 {
        (self.0 & mask(SIZE_BITS)) as u32
    }

    /// Number of elements (the minimum for scalable vectors), 1 for scalars
    /// and pointers, 0 for the invalid type.
    pub const fn num_elements(self) -> u32 {
        if self.is_vector() {
            ((self.0 >> ELTS_SHIFT) & mask(ELTS_BITS)) as u32
        } else if self.is_valid() {
            1
        } else {
            0
        }
    }

    /// Total size in bits (the known minimum for scalable vectors).
    pub const fn size_in_bits(self) -> u64 {
        self.scalar_size_in_bits() as u64 * self.num_elements() as u64
    }

    /// Size in bytes, rounded up.
    pub const fn size_in_bytes(self) -> u64 {
        self.size_in_bits().div_ceil(8)
    }

    /// Address space of a pointer or pointer vector, 0 otherwise.
    pub const fn address_space(self) -> u32 {
        if self.is_pointer_or_pointer_vector() { ((self.0 >> AS_SHIFT) & mask(AS_BITS)) as u32 } else { 0 }
    }

    /// Same shape, element type replaced (`changeElementType`).
    pub fn change_element_type(self, element: Llt) -> Llt {
        if self.is_vector() {
            let count = self.num_elements();
            if self.is_scalable() {
                Llt::scalable_vector(count, element.scalar_type())
            } else {
                Llt::fixed_vector(count, element.scalar_type())
            }
        } else {
            element
        }
    }

    /// Same shape, element becomes a plain `sN` of `bits` (`changeElementSize`;
    /// pointer-ness is dropped).
    pub fn change_element_size(self, bits: u32) -> Llt {
        self.change_element_type(Llt::scalar(bits))
    }

    /// Same element type, `count` elements, keeping scalability
    /// (`changeElementCount`; a fixed count of 1 gives the element).
    pub fn change_element_count(self, count: u32, scalable: bool) -> Llt {
        Llt::scalar_or_vector(count, scalable, self.scalar_type())
    }

    /// True when the scalar or element size is a whole number of bytes.
    pub const fn is_byte_sized(self) -> bool {
        self.size_in_bits().is_multiple_of(8)
    }

    /// Parses LLVM's spelling with pointers of `pointer_bits(address_space)`
    /// bits, as the target's data layout says.
    pub fn parse_with(text: &str, pointer_bits: impl Fn(u32) -> u32) -> Result<Llt, LltError> {
        parse::parse(text, &pointer_bits)
    }
}

/// Why a type literal was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LltError {
    /// The text is not any LLT spelling.
    #[error("expected a type such as 's32', 'p0' or '<4 x s32>', found '{0}'")]
    Malformed(String),
    /// A scalar of zero bits or wider than the model allows.
    #[error("scalar size {0} is out of range (1..={MAX_SCALAR_BITS})")]
    ScalarSize(u64),
    /// An address space above [`MAX_ADDRESS_SPACE`].
    #[error("address space {0} is out of range (0..={MAX_ADDRESS_SPACE})")]
    AddressSpace(u64),
    /// A vector of zero elements or more than the model allows.
    #[error("vector element count {0} is out of range (1..={MAX_ELEMENTS})")]
    ElementCount(u64),
}

mod parse {
    use super::{Llt, LltError, MAX_ADDRESS_SPACE, MAX_ELEMENTS};

    pub(super) fn parse(text: &str, pointer_bits: &dyn Fn(u32) -> u32) -> Result<Llt, LltError> {
        // The commonest spelling, a scalar of up to four digits (`s64`),
        // read directly; it means what the general path below makes of it.
        if let [b's', digits @ ..] = text.as_bytes()
            && (1..=4).contains(&digits.len())
            && digits.iter().all(u8::is_ascii_digit)
        {
            let bits = digits.iter().fold(0u64, |n, d| n * 10 + u64::from(d - b'0'));
            return Llt::try_scalar(bits).ok_or(LltError::ScalarSize(bits));
        }
        let malformed = || LltError::Malformed(text.to_owned());
        let trimmed = text.trim();
        let Some(inner) = trimmed.strip_prefix('<') else {
            return element(trimmed, pointer_bits).ok_or_else(malformed)?;
        };
        let inner = inner.strip_suffix('>').ok_or_else(malformed)?;
        let mut words = inner.split_whitespace();
        let mut first = words.next().ok_or_else(malformed)?;
        let scalable = first == "vscale";
        if scalable {
            (words.next() == Some("x")).then_some(()).ok_or_else(malformed)?;
            first = words.next().ok_or_else(malformed)?;
        }
        let count = number(first).ok_or_else(malformed)?;
        (words.next() == Some("x")).then_some(()).ok_or_else(malformed)?;
        let elt = element(words.next().ok_or_else(malformed)?, pointer_bits).ok_or_else(malformed)??;
        if words.next().is_some() {
            return Err(malformed());
        }
        if count == 0 || count > u64::from(MAX_ELEMENTS) {
            return Err(LltError::ElementCount(count));
        }
        let count = count as u32;
        Ok(if scalable { Llt::scalable_vector(count, elt) } else { Llt::fixed_vector(count, elt) })
    }

    /// Parses `sN`, `iN`, `fN`, `bf16` or `pA`; `None` when it is none of them.
    fn element(word: &str, pointer_bits: &dyn Fn(u32) -> u32) -> Option<Result<Llt, LltError>> {
        if word == "bf16" {
            return Some(Ok(Llt::scalar(16)));
        }
        let (kind, digits) = word.split_at_checked(1)?;
        let value = number(digits)?;
        Some(match kind {
            "s" | "i" | "f" => Llt::try_scalar(value).ok_or(LltError::ScalarSize(value)),
            "p" if value <= u64::from(MAX_ADDRESS_SPACE) => {
                let space = value as u32;
                let bits = pointer_bits(space);
                Llt::try_scalar(u64::from(bits))
                    .map(|_| Llt::pointer(space, bits))
                    .ok_or(LltError::ScalarSize(u64::from(bits)))
            }
            "p" => Err(LltError::AddressSpace(value)),
            _ => return None,
        })
    }

    fn number(digits: &str) -> Option<u64> {
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse().ok()
    }
}

impl FromStr for Llt {
    type Err = LltError;

    /// Parses LLVM's spelling; pointers are 64 bits in every address space.
    fn from_str(text: &str) -> Result<Llt, LltError> {
        Llt::parse_with(text, |_| 64)
    }
}

impl fmt::Display for Llt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::new();
        self.push_to(&mut text);
        f.write_str(&text)
    }
}

impl Llt {
    /// Appends the type as `.mir` writes it (`s32`, `p0`, `<4 x s16>`,
    /// `<vscale x 2 x p0>`, `invalid`), the text [`Display`](fmt::Display)
    /// gives, without the formatting machinery: the writer prints a type on
    /// most lines.
    pub fn push_to(self, out: &mut String) {
        if !self.is_valid() {
            out.push_str("invalid");
            return;
        }
        if self.is_vector() {
            out.push('<');
            if self.is_scalable() {
                out.push_str("vscale x ");
            }
            push_decimal(out, u64::from(self.num_elements()));
            out.push_str(" x ");
        }
        let element = self.scalar_type();
        if element.is_pointer() {
            out.push('p');
            push_decimal(out, u64::from(element.address_space()));
        } else {
            out.push('s');
            push_decimal(out, u64::from(element.scalar_size_in_bits()));
        }
        if self.is_vector() {
            out.push('>');
        }
    }
}

impl fmt::Debug for Llt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Raw packing, for lock-free caches that store types in atomic words.
impl Llt {
    /// The type whose [`Llt::to_bits`] is `bits`. Only values produced by
    /// `to_bits` are meaningful; anything else gives an unspecified (but
    /// memory-safe) type.
    pub const fn from_bits(bits: u64) -> Llt {
        Llt(bits)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn t(s: &str) -> Llt {
        s.parse().unwrap()
    }

    #[test]
    fn scalars_pointers_vectors_round_trip() {
        for text in ["s1", "s32", "s128", "p0", "p270", "<4 x s32>", "<2 x p0>", "<vscale x 4 x s32>", "<1 x s64>"] {
            assert_eq!(t(text).to_string(), text);
        }
    }

    #[test]
    fn divide_splits_lanes_or_bits() {
        assert_eq!(t("<8 x s16>").divide(2), t("<4 x s16>"));
        assert_eq!(t("<2 x s64>").divide(2), t("s64"));
        assert_eq!(t("s128").divide(4), t("s32"));
    }

    #[test]
    fn newer_spellings_mean_scalars() {
        assert_eq!(t("i32"), Llt::scalar(32));
        assert_eq!(t("f64"), Llt::scalar(64));
        assert_eq!(t("bf16"), Llt::scalar(16));
        assert_eq!(t("<4 x i16>"), Llt::fixed_vector(4, Llt::scalar(16)));
    }

    #[test]
    fn shape_queries() {
        let v = t("<4 x s32>");
        assert!(v.is_vector() && v.is_fixed_vector() && !v.is_scalar());
        assert_eq!(v.size_in_bits(), 128);
        assert_eq!(v.scalar_type(), Llt::scalar(32));
        assert_eq!(v.change_element_size(16), t("<4 x s16>"));
        assert_eq!(v.change_element_count(1, false), Llt::scalar(32));
        let p = Llt::pointer(0, 32);
        assert!(p.is_pointer() && !p.is_scalar());
        assert_eq!(p.size_in_bits(), 32);
        assert_eq!(t("<2 x p0>").scalar_type(), Llt::pointer(0, 64));
        assert!(t("<vscale x 2 x s64>").is_scalable());
    }

    #[test]
    fn pointer_size_comes_from_the_data_layout() {
        let p = Llt::parse_with("p0", |_| 32).unwrap();
        assert_eq!(p.size_in_bits(), 32);
        assert_ne!(p, t("p0"));
    }

    #[test]
    fn malformed_types_are_errors() {
        for bad in [
            "s0",
            "s",
            "p",
            "x32",
            "<0 x s32>",
            "<4 s32>",
            "<4 x s32",
            "<vscale 4 x s32>",
            "s99999999",
            "<4 x <2 x s32>>",
        ] {
            assert!(bad.parse::<Llt>().is_err(), "{bad} should be rejected");
        }
    }

    proptest! {
        #[test]
        fn display_then_parse_is_identity(bits in 1u32..5000, count in 1u32..300, space in 0u32..300, kind in 0u8..5) {
            let ty = match kind {
                0 => Llt::scalar(bits),
                1 => Llt::pointer(space, 64),
                2 => Llt::fixed_vector(count, Llt::scalar(bits)),
                3 => Llt::scalable_vector(count, Llt::scalar(bits)),
                _ => Llt::fixed_vector(count, Llt::pointer(space, 64)),
            };
            prop_assert_eq!(ty.to_string().parse::<Llt>().unwrap(), ty);
        }
    }

    #[test]
    fn bits_round_trip() {
        for ty in [Llt::INVALID, t("s1"), t("<vscale x 4 x p3>"), t("<2 x s64>")] {
            assert_eq!(Llt::from_bits(ty.to_bits()), ty);
        }
    }
}
