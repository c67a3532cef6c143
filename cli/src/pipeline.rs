//! `gisel llc -run-pass=legalizer` over a file's functions: each function
//! is read, checked, legalized, verified and written on its own, on every
//! core, and the outcomes are then taken in file order exactly as a run of
//! one function after another takes them, so that what is printed does not
//! depend on the number of threads.

use crate::legalize_cmd::ModuleLegalizer;
use crate::llc_args::LlcArgs;
use crate::verification::Verifier;
use gisel_core::mir::{FunctionDoc, MachineFunction, MirDocuments, MirError, write_function};
use std::num::NonZeroUsize;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::thread;

/// What became of one function.
enum Outcome {
    /// Its body could not be read or is not valid machine IR: the run ends
    /// with this error when it gets to the function.
    Rejected(String),
    /// The legalizer failed on it: later functions are still read and
    /// checked, but nothing more is legalized or printed.
    Failed(String),
    /// Read and checked only, because an earlier function failed.
    Skipped,
    /// Legalized and written.
    Done(Done),
}

/// A legalized function: its text and what it adds to the run's messages.
struct Done {
    text: String,
    remarks: Vec<String>,
    mismatches: Vec<String>,
    report: String,
}

/// What is shared by the functions of one run.
struct Run<'a> {
    documents: &'a MirDocuments<'a>,
    args: &'a LlcArgs,
    legalizer: Option<ModuleLegalizer<'a>>,
    verifier: Verifier,
}

impl Run<'_> {
    /// Checks `function` (as read) and, unless `legalize` is false,
    /// legalizes, verifies and writes it.
    fn process(&self, function: Result<MachineFunction, String>, legalize: bool) -> Outcome {
        let mut function = match function.and_then(|f| self.verifier.check_input(&f).map(|()| f)) {
            Ok(function) => function,
            Err(error) => return Outcome::Rejected(error),
        };
        let Some(legalizer) = self.legalizer.as_ref().filter(|_| legalize) else { return Outcome::Skipped };
        let target = &self.documents.target;
        let (mut remarks, mut mismatches, mut report) = (Vec::new(), Vec::new(), String::new());
        if let Err(error) = legalizer.legalize(&mut function, target, &mut remarks, &mut mismatches) {
            return Outcome::Failed(error);
        }
        if self.args.verify {
            self.verifier.report(&function, &mut report);
        }
        let mut text = String::new();
        write_function(&function, target, &mut text);
        Outcome::Done(Done { text, remarks, mismatches, report })
    }
}

/// The outcomes taken in file order, as a one-function-at-a-time run
/// takes them: a read or input error ends the run at once (even after a
/// legalizer failure), a legalizer failure only once every function is read.
struct Merge {
    failure: Option<String>,
    pieces: Vec<String>,
    remarks: Vec<String>,
    mismatches: Vec<String>,
    report: String,
}

impl Merge {
    fn take(&mut self, outcome: Outcome) -> Result<(), String> {
        match outcome {
            Outcome::Rejected(error) => return Err(error),
            _ if self.failure.is_some() => {}
            Outcome::Failed(error) => self.failure = Some(error),
            Outcome::Skipped => {}
            Outcome::Done(done) => {
                self.pieces.push(done.text);
                self.remarks.extend(done.remarks);
                self.mismatches.extend(done.mismatches);
                self.report.push_str(&done.report);
            }
        }
        Ok(())
    }

    /// The output's pieces, after the remarks are printed; a verifier
    /// report or a change of meaning (`--verify-semantics`) fails the run.
    fn finish(mut self) -> Result<Vec<String>, String> {
        if let Some(error) = self.failure {
            return Err(error);
        }
        for remark in self.remarks {
            eprintln!("{remark}");
        }
        self.report.extend(self.mismatches.iter().map(|m| format!("{m}\n")));
        if self.report.is_empty() { Ok(self.pieces) } else { Err(self.report) }
    }
}

/// Legalizes the functions `docs` of `documents` and returns the output
/// as pieces to print in order, `prologue` first. `render` places a read
/// error in the file. With `--explain`, which reports each step as it
/// happens, every body is read first and the functions are legalized one
/// after another; otherwise they are spread over the cores.
pub fn legalize_documents(
    documents: &MirDocuments<'_>,
    docs: Vec<FunctionDoc>,
    args: &LlcArgs,
    prologue: String,
    render: &(dyn Fn(MirError) -> String + Sync),
) -> Result<Vec<String>, String> {
    let (legalizer, failure) = match ModuleLegalizer::new(&documents.target, &documents.module, args) {
        Ok(legalizer) => (Some(legalizer), None),
        Err(error) => (None, Some(error)),
    };
    let mut merge =
        Merge { failure, pieces: vec![prologue], remarks: Vec::new(), mismatches: Vec::new(), report: String::new() };
    let run = Run { documents, args, legalizer, verifier: Verifier::new(&documents.target) };
    if args.explain {
        let functions = docs.into_iter().map(|doc| documents.read_function(doc).map_err(render));
        for function in functions.collect::<Result<Vec<_>, _>>()? {
            let legalize = merge.failure.is_none();
            merge.take(run.process(Ok(function), legalize))?;
        }
    } else {
        for outcome in process_in_parallel(&run, docs, render) {
            merge.take(outcome)?;
        }
    }
    merge.finish()
}

/// Every document's outcome, in file order, computed on as many threads
/// as there are cores. A function after one that failed is only read and
/// checked, as it would be one function at a time.
fn process_in_parallel(
    run: &Run<'_>,
    docs: Vec<FunctionDoc>,
    render: &(dyn Fn(MirError) -> String + Sync),
) -> Vec<Outcome> {
    let count = docs.len();
    let threads = thread::available_parallelism().map_or(1, NonZeroUsize::get).min(count).max(1);
    let queue = Mutex::new(docs.into_iter().enumerate());
    // The first function known to have failed: later ones are not legalized.
    let first_failure = AtomicUsize::new(usize::MAX);
    // The lock is held only to take the next document. A poisoned lock
    // means another worker panicked; the scope re-raises that panic, so
    // this worker just stops.
    let next = || queue.lock().ok().and_then(|mut q| q.next());
    let work = || {
        let mut done = Vec::new();
        while let Some((index, doc)) = next() {
            let function = run.documents.read_function(doc).map_err(render);
            let outcome = run.process(function, index < first_failure.load(Ordering::Relaxed));
            if matches!(outcome, Outcome::Rejected(_) | Outcome::Failed(_)) {
                first_failure.fetch_min(index, Ordering::Relaxed);
            }
            done.push((index, outcome));
        }
        done
    };
    let mut outcomes: Vec<Option<Outcome>> = (0..count).map(|_| None).collect();
    thread::scope(|scope| {
        let workers: Vec<_> = (0..threads).map(|_| scope.spawn(work)).collect();
        for worker in workers {
            let done = worker.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            for (index, outcome) in done {
                outcomes[index] = Some(outcome);
            }
        }
    });
    // Every index was taken by exactly one worker.
    outcomes.into_iter().flatten().collect()
}
