//! The `.mir` reader and writer: the YAML container is parsed with a YAML
//! crate, the machine-function body language by hand, and the writer prints
//! exactly what `llc` 22 prints.

mod error;

pub use error::MirError;
