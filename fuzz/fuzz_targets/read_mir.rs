//! Any byte string either fails to read or round-trips through the writer.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        gisel_core::mir::check_round_trip(text, "aarch64").unwrap_or_else(|e| panic!("{e}"));
    }
});
