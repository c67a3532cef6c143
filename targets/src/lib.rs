//! gisel-targets: target legality rules written with the
//! [`legalizer!`](gisel_macros::legalizer) macro, one module per target.
//!
//! ```
//! use gisel_core::legality::check;
//! let info = gisel_targets::toy::toy();
//! assert!(check::check_all(&info).is_clean());
//! ```

pub mod toy;
