//! Runs one program directly (no shell) with a timeout, capturing its output.

use std::io::Read;
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// `ETXTBSY` on Linux.
const TEXT_FILE_BUSY: i32 = 26;

/// What a finished (or killed) program left behind.
#[derive(Clone, Debug, Default)]
pub struct Output {
    /// Exit code; `None` when killed by a signal.
    pub status: Option<i32>,
    /// Standard output, lossily decoded.
    pub stdout: String,
    /// Standard error, lossily decoded.
    pub stderr: String,
    /// It ran past the timeout and was killed.
    pub timed_out: bool,
}

fn drain(mut pipe: impl Read + Send + 'static) -> thread::JoinHandle<Vec<u8>> {
    thread::spawn(move || {
        let mut buf = Vec::new();
        // A read error leaves what was read so far: the exit status tells the rest.
        let _ = pipe.read_to_end(&mut buf);
        buf
    })
}

/// Runs `argv` with no standard input; kills it after `timeout`.
pub(crate) fn run(argv: &[String], timeout: Duration) -> Result<Output, String> {
    let (program, args) = argv.split_first().ok_or("empty command")?;
    let spawn =
        || Command::new(program).args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn();
    // A program written a moment ago can be briefly "text file busy" while
    // another thread's fork still holds it open for writing: retry a little.
    let mut attempt = 0;
    let mut child = loop {
        match spawn() {
            Err(e) if e.raw_os_error() == Some(TEXT_FILE_BUSY) && attempt < 20 => {
                attempt += 1;
                thread::sleep(Duration::from_millis(10));
            }
            result => break result.map_err(|e| format!("{program}: {e}"))?,
        }
    };
    let stdout = child.stdout.take().map(drain);
    let stderr = child.stderr.take().map(drain);
    let deadline = Instant::now() + timeout;
    let mut timed_out = false;
    let status = loop {
        match child.try_wait().map_err(|e| e.to_string())? {
            Some(status) => break status,
            None if Instant::now() >= deadline => {
                timed_out = true;
                // Kill can fail only if it already exited; wait reaps it either way.
                let _ = child.kill();
                break child.wait().map_err(|e| e.to_string())?;
            }
            None => thread::sleep(Duration::from_millis(5)),
        }
    };
    let text = |h: Option<thread::JoinHandle<Vec<u8>>>| {
        h.and_then(|h| h.join().ok()).map(|b| String::from_utf8_lossy(&b).into_owned()).unwrap_or_default()
    };
    Ok(Output { status: status.code(), stdout: text(stdout), stderr: text(stderr), timed_out })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn captures_output_and_status() {
        let out = run(&argv(&["sh", "-c", "echo out; echo err >&2; exit 3"]), Duration::from_secs(10)).expect("runs");
        assert_eq!((out.status, out.stdout.as_str(), out.stderr.as_str()), (Some(3), "out\n", "err\n"));
        assert!(!out.timed_out);
    }

    #[test]
    fn kills_on_timeout_and_reports_missing_programs() {
        let out = run(&argv(&["sleep", "5"]), Duration::from_millis(100)).expect("runs");
        assert!(out.timed_out);
        assert!(run(&argv(&["/nonexistent/program"]), Duration::from_secs(1)).is_err());
        assert!(run(&[], Duration::from_secs(1)).is_err());
    }
}
