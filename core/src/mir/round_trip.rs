//! The reader/writer contract the fuzzer and the tests check: any input
//! either fails with an error or reads into a module whose printed form
//! reads back, and printing is stable. llc numbers fixed stack objects in
//! reverse order of creation, so every print reverses them; stability is
//! therefore checked over two round trips.

use super::{read_mir, write_mir};

/// Reads `source` for `triple`; when that succeeds, prints it, reads the
/// print back and prints again. Returns a description of the first broken
/// promise: the print does not read back, or reading it changes it.
pub fn check_round_trip(source: &str, triple: &str) -> Result<(), String> {
    let Ok(module) = read_mir(source, "input.mir", Some(triple), "") else {
        return Ok(());
    };
    let printed = write_mir(&module);
    let reread = read_mir(&printed, "input.mir", Some(triple), "")
        .map_err(|e| format!("printed form does not read back: {}\n{printed}", e.render("printed.mir", &printed)))?;
    let twice = write_mir(&reread);
    let again = read_mir(&twice, "input.mir", Some(triple), "")
        .map_err(|e| format!("second print does not read back: {}\n{twice}", e.render("printed.mir", &twice)))?;
    let thrice = write_mir(&again);
    if thrice != printed {
        return Err(format!("printing is not stable:\n--- first\n{printed}\n--- third\n{thrice}"));
    }
    Ok(())
}
