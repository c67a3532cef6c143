//! `gisel llc -run-pass=none|legalizer` over a file's functions, read in
//! batches of whole documents: each function is read, checked, legalized,
//! verified and written on its own, on every core, and the outcomes are
//! then taken in file order exactly as a run of one function after another
//! takes them, so that what is printed does not depend on the number of
//! threads, and memory does not grow with the file. A large function's
//! text goes to the output a piece at a time when its turn comes, so that
//! memory does not grow with its text either.

use crate::input::Input;
use crate::legalize_cmd::ModuleLegalizer;
use crate::llc_args::{LlcArgs, Pass};
use crate::output::Sink;
use crate::verification::Verifier;
use gisel_core::llvm_ir::highest_atom_group;
use gisel_core::mir::{
    Batch, DocumentBatches, FunctionDoc, MachineFunction, MirDocuments, MirError, MirFile, MirPrintOptions,
    PIECE_BYTES, Target, parse_document, plain_function_names, read_mir_documents, write_function_in_pieces,
    write_function_with, write_ir_module,
};
use std::collections::{BTreeMap, HashSet};
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader};
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
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
    text: Text,
    remarks: Vec<String>,
    mismatches: Vec<String>,
    report: String,
}

/// A legalized function as it leaves its worker.
enum Text {
    /// Written.
    Written(String),
    /// To be written when its turn comes, straight to the output a piece at
    /// a time: a large function (whose whole text would be memory touched
    /// for nothing), or one whose location merges took fresh atom groups,
    /// whose numbers depend on the functions before it.
    Deferred(Box<MachineFunction>),
}

/// How many instructions make a function large enough to be written
/// straight to the output (see [`Text::Deferred`]): its text is then a
/// megabyte or more.
const DEFER_FROM_INSTRUCTIONS: usize = 1 << 15;

/// What is shared by the functions of one run.
struct Run<'a> {
    target: &'a Target,
    args: &'a LlcArgs,
    /// The file read, read again whole if fresh atom groups need numbers.
    input_path: &'a str,
    /// The legalizer, with `-run-pass=legalizer`.
    legalizer: Option<ModuleLegalizer<'a>>,
    verifier: Verifier,
}

impl Run<'_> {
    /// Checks `function` (as read) and, if `proceed` (no function failed
    /// before it and the legalizer could be built), legalizes (with
    /// `-run-pass=legalizer`), verifies and writes it.
    fn process(&self, function: Result<MachineFunction, String>, proceed: bool) -> Outcome {
        let mut function = match function.and_then(|f| self.verifier.check_input(&f).map(|()| f)) {
            Ok(function) => function,
            Err(error) => return Outcome::Rejected(error),
        };
        if !proceed {
            return Outcome::Skipped;
        }
        let (mut remarks, mut mismatches, mut report) = (Vec::new(), Vec::new(), String::new());
        if let Some(legalizer) = &self.legalizer {
            if let Err(error) = legalizer.legalize(&mut function, self.target, &mut remarks, &mut mismatches) {
                return Outcome::Failed(error);
            }
            if self.args.verify {
                self.verifier.report(&function, &mut report);
            }
        }
        let large = function.func.inst_capacity() >= DEFER_FROM_INSTRUCTIONS;
        let text = if large || function.func.fresh_atom_groups().count() > 0 {
            Text::Deferred(Box::new(function))
        } else {
            Text::Written(self.write(&function, None))
        };
        Outcome::Done(Done { text, remarks, mismatches, report })
    }

    /// The text of `function`, its fresh atom groups numbered from
    /// `first_fresh_atom_group`.
    fn write(&self, function: &MachineFunction, first_fresh_atom_group: Option<u64>) -> String {
        let mut text = String::new();
        write_function_with(function, self.target, self.print_options(first_fresh_atom_group), &mut text);
        text
    }

    /// How this run prints a function whose fresh atom groups are numbered
    /// from `first_fresh_atom_group`.
    fn print_options(&self, first_fresh_atom_group: Option<u64>) -> MirPrintOptions {
        MirPrintOptions { simplify: self.args.simplify_mir, first_fresh_atom_group }
    }

    /// Writes `function` to `sink` a piece at a time, as [`Run::write`]
    /// writes it.
    fn write_to(
        &self,
        function: &MachineFunction,
        first_fresh_atom_group: Option<u64>,
        sink: &mut Sink,
    ) -> Result<(), String> {
        let options = self.print_options(first_fresh_atom_group);
        // Room for a piece and the line that completes it.
        let piece = || String::with_capacity(2 * PIECE_BYTES);
        // After a failed write nothing more is sent: the run ends with it.
        let mut failure = Ok(());
        let mut text = piece();
        write_function_in_pieces(function, self.target, options, &mut text, &mut |text| {
            if failure.is_ok() {
                failure = sink.write(std::mem::replace(text, piece()));
            }
        });
        failure?;
        sink.write(text)
    }

    /// Processes the functions `docs` of one batch of the file, `documents`,
    /// and takes their outcomes in order into `merge`.
    fn batch(
        &self,
        documents: &MirDocuments<'_>,
        docs: Vec<FunctionDoc>,
        render: &(dyn Fn(MirError) -> String + Sync),
        merge: &mut Merge,
        sink: &mut Sink,
    ) -> Result<(), String> {
        if self.args.explain {
            let functions = docs.into_iter().map(|doc| documents.read_function(doc).map_err(render));
            for function in functions.collect::<Result<Vec<_>, _>>()? {
                let proceed = merge.failure.is_none();
                merge.take(self.process(Ok(function), proceed), sink, self)?;
            }
        } else {
            let proceed = merge.failure.is_none();
            process_in_parallel(self, documents, docs, render, proceed, &mut |outcome| {
                merge.take(outcome, sink, self)
            })?;
        }
        Ok(())
    }
}

/// The outcomes taken in file order, as a one-function-at-a-time run
/// takes them: a read or input error ends the run at once (even after a
/// legalizer failure), a legalizer failure only once every function is
/// read. Written functions go to the sink as they are taken.
#[derive(Default)]
struct Merge {
    failure: Option<String>,
    remarks: Vec<String>,
    mismatches: Vec<String>,
    report: String,
    /// LLVM's counter of atom groups, once a function needed it: one above
    /// the highest group of the whole file, then one more for each fresh
    /// group the functions before took.
    next_atom_group: Option<u64>,
}

impl Merge {
    fn take(&mut self, outcome: Outcome, sink: &mut Sink, run: &Run<'_>) -> Result<(), String> {
        match outcome {
            Outcome::Rejected(error) => return Err(error),
            _ if self.failure.is_some() => {}
            Outcome::Failed(error) => self.failure = Some(error),
            Outcome::Skipped => {}
            Outcome::Done(done) => {
                match done.text {
                    Text::Written(text) => sink.write(text)?,
                    Text::Deferred(function) => {
                        let count = function.func.fresh_atom_groups().count();
                        let first = if count > 0 { Some(self.take_atom_groups(run.input_path, count)?) } else { None };
                        run.write_to(&function, first, sink)?;
                    }
                }
                self.remarks.extend(done.remarks);
                self.mismatches.extend(done.mismatches);
                self.report.push_str(&done.report);
            }
        }
        Ok(())
    }

    /// The first of `count` fresh atom groups for the next function, from
    /// LLVM's counter (started from the whole file at `path`).
    fn take_atom_groups(&mut self, path: &str, count: u32) -> Result<u64, String> {
        let first = match self.next_atom_group {
            Some(next) => next,
            None => {
                let cannot = |e: io::Error| format!("gisel: cannot read '{path}' again: {e}");
                let mut highest = 0;
                for line in BufReader::new(File::open(path).map_err(cannot)?).split(b'\n') {
                    let line = line.map_err(cannot)?;
                    // Comments (YAML's and LLVM's) hold no locations.
                    let code = line.trim_ascii_start();
                    if !code.starts_with(b"#") && !code.starts_with(b";") {
                        highest = highest.max(highest_atom_group(&String::from_utf8_lossy(code)));
                    }
                }
                highest + 1
            }
        };
        self.next_atom_group = Some(first + u64::from(count));
        Ok(first)
    }

    /// Ends the run: after the remarks are printed, the output is kept
    /// unless a verifier report or a change of meaning
    /// (`--verify-semantics`) fails the run.
    fn finish(mut self, sink: Sink) -> Result<(), String> {
        if let Some(error) = self.failure {
            return Err(error);
        }
        for remark in self.remarks {
            eprintln!("{remark}");
        }
        self.report.extend(self.mismatches.iter().map(|m| format!("{m}\n")));
        if self.report.is_empty() { sink.commit() } else { Err(self.report) }
    }
}

/// How much of the file is read at a time: whole documents of at least
/// this many bytes, so that memory is bounded by the batch (and the
/// largest function), not the file.
const BATCH_BYTES: usize = 1 << 20;

/// `gisel llc -run-pass=none|legalizer`: reads the file in batches of
/// whole documents, and checks, legalizes (with `legalizer`) and writes
/// each function on every core; each function's memory is reused by the
/// next. What is printed is what reading the whole file first prints:
/// every YAML header is read before any body (as llc does), a body that
/// cannot be read is reported even after an earlier function failed, and
/// with `--explain` every body of a batch is read before the batch's first
/// step is reported.
///
/// The file is read once where it can be: later headers are read ahead
/// (a second read) only for `--explain`, whose steps are printed as they
/// come, and when a file without an IR module has a function whose name is
/// not plainly written (the IR module llc makes up names them all, first).
/// Otherwise an error found on the way is reported only after the later
/// headers are read, so that a header error after it still comes first.
pub fn run_llc(args: &LlcArgs, pass: Pass) -> Result<(), String> {
    let input = Input::open(args.input()?)?;
    let open = || DocumentBatches::open(&input.path, BATCH_BYTES).map_err(|e| cannot_read(&input, &e));
    let mut batches = open()?.peekable();
    let first = batches.next().transpose().map_err(|e| cannot_read(&input, &e))?;
    let first = first.unwrap_or(Batch { text: String::new(), offset: 0 });
    let features = args.features.as_deref().unwrap_or("");
    let mut documents = read_mir_documents(&first.text, &input.name, args.triple.as_deref(), features)
        .map_err(|e| render(&input, e, 0))?;
    // The IR module llc makes up names the CPU, as it names the features.
    documents.target.cpu = args.cpu.clone();
    let first_names = Names::of(&documents.functions);
    let mut names = first_names.clone();
    let single_batch = batches.peek().is_none();
    let ahead = if single_batch {
        Ahead::Read
    } else if args.explain {
        read_later_headers(&documents, open()?.skip(1), &input, &mut names)?;
        Ahead::Read
    } else if documents.ir_module.is_some() {
        Ahead::Nothing
    } else if names.scan_later(open()?.skip(1), &input)? {
        Ahead::Names
    } else {
        read_later_headers(&documents, open()?.skip(1), &input, &mut names)?;
        Ahead::Read
    };
    let mut sink = Sink::create(args.output.as_deref().unwrap_or("-"), &input.path)?;
    let mut prologue = String::new();
    let listed: Vec<&str> = names.in_order.iter().map(String::as_str).collect();
    write_ir_module(documents.ir_module.as_deref(), &documents.file_name, &documents.target, &listed, &mut prologue);
    sink.write(prologue)?;
    let (legalizer, failure) = match pass {
        Pass::None => (None, None),
        Pass::Legalizer => match ModuleLegalizer::new(&documents.target, &documents.module, args) {
            Ok(legalizer) => (Some(legalizer), None),
            Err(error) => (None, Some(error)),
        },
    };
    let mut merge = Merge { failure, ..Merge::default() };
    let target = documents.target.clone();
    let run = Run { target: &target, args, input_path: &input.path, legalizer, verifier: Verifier::new(&target) };
    let docs = std::mem::take(&mut documents.functions);
    // With one batch there is nothing to prepare: no thread is started.
    let overlap = cores() > 1;
    let (mut streamed, mut next) = process_then_prepare(overlap && !single_batch, &mut batches, || {
        run.batch(&documents, docs, &|e| render(&input, e, 0), &mut merge, &mut sink)
    });
    while streamed.is_ok()
        && let Some(prepared) = next.take()
    {
        let prepared = match prepared {
            Ok(prepared) => prepared,
            Err(error) => {
                streamed = Err(cannot_read(&input, &error));
                break;
            }
        };
        let offset = prepared.batch.offset;
        let render = |e| render(&input, e, offset);
        let mut more = match prepared.file {
            Ok(file) => documents.with_more(&prepared.batch.text, file),
            Err(error) => {
                streamed = Err(render(error));
                break;
            }
        };
        if ahead == Ahead::Nothing
            && let Err(error) = names.define_all(&more.functions)
        {
            streamed = Err(render(error));
            break;
        }
        let docs = std::mem::take(&mut more.functions);
        (streamed, next) =
            process_then_prepare(overlap, &mut batches, || run.batch(&more, docs, &render, &mut merge, &mut sink));
    }
    if let Err(error) = streamed {
        if ahead != Ahead::Read {
            // A header error further on comes first, as every header is
            // read before any body.
            read_later_headers(&documents, open()?.skip(1), &input, &mut first_names.clone())?;
        }
        return Err(error);
    }
    merge.finish(sink)
}

/// What is known of the batches after the first before their bodies are
/// read.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ahead {
    /// Every header (there is one batch, or they were read ahead).
    Read,
    /// The functions' names, each written plainly and defined once.
    Names,
    /// Nothing: names are checked as the batches come.
    Nothing,
}

/// The functions' names, in file order and as a set (a name defined twice
/// is an error).
#[derive(Clone, Default)]
struct Names {
    in_order: Vec<String>,
    defined: HashSet<String>,
}

impl Names {
    fn of(functions: &[FunctionDoc]) -> Names {
        let in_order: Vec<String> = functions.iter().map(|f| f.header.name.clone()).collect();
        Names { defined: in_order.iter().cloned().collect(), in_order }
    }

    /// Adds the names of `functions`; the first defined before is an
    /// error located in its batch.
    fn define_all(&mut self, functions: &[FunctionDoc]) -> Result<(), MirError> {
        for doc in functions {
            let name = &doc.header.name;
            if !self.defined.insert(name.clone()) {
                let message = format!("redefinition of machine function '{name}'");
                return Err(MirError::new(message, doc.header.name_span.clone()));
            }
            self.in_order.push(name.clone());
        }
        Ok(())
    }

    /// Adds the names of the functions of the `later` batches when each is
    /// written plainly and none is defined twice; false, leaving the names
    /// unchanged, when reading the headers must tell.
    fn scan_later(&mut self, later: impl Iterator<Item = io::Result<Batch>>, input: &Input) -> Result<bool, String> {
        let mut found = Vec::new();
        let mut defined = self.defined.clone();
        for batch in later {
            let batch = batch.map_err(|e| cannot_read(input, &e))?;
            let Some(names) = plain_function_names(&batch.text) else { return Ok(false) };
            for name in names {
                if !defined.insert(name.to_owned()) {
                    return Ok(false);
                }
                found.push(name.to_owned());
            }
        }
        self.in_order.extend(found);
        self.defined = defined;
        Ok(true)
    }
}

/// Reads the YAML headers of the batches after the first (`later`) before
/// any body, as llc does, adding the functions' names to `names`; a name
/// defined twice is an error, as within one batch.
fn read_later_headers(
    documents: &MirDocuments<'_>,
    later: impl Iterator<Item = io::Result<Batch>>,
    input: &Input,
    names: &mut Names,
) -> Result<(), String> {
    for batch in later {
        let batch = batch.map_err(|e| cannot_read(input, &e))?;
        let more = documents.read_more(&batch.text).map_err(|e| render(input, e, batch.offset))?;
        names.define_all(&more.functions).map_err(|e| render(input, e, batch.offset))?;
    }
    Ok(())
}

/// Renders `error`, whose span is relative to a batch starting at byte
/// `offset` of `input`, with its place in the whole file (read
/// again: errors end the run).
fn render(input: &Input, mut error: MirError, offset: usize) -> String {
    error.span = error.span.start + offset..error.span.end + offset;
    match fs::read_to_string(&input.path) {
        Ok(source) => error.render(&input.name, &source),
        Err(_) => format!("{}: error: {error}\n", input.name),
    }
}

fn cannot_read(input: &Input, error: &io::Error) -> String {
    format!("gisel: cannot read '{}': {error}", input.name)
}

/// A later batch of the file, split into documents with their headers
/// read (or the error doing so met).
struct Prepared {
    batch: Batch,
    file: Result<MirFile, MirError>,
}

/// Runs `process` (the current batch's functions) and reads and splits the
/// next batch of `batches`. With `overlap` the next batch is prepared on a
/// thread of its own while `process` runs, so that no core waits for it
/// between batches; otherwise only once `process` has succeeded.
fn process_then_prepare<I>(
    overlap: bool,
    batches: &mut I,
    process: impl FnOnce() -> Result<(), String>,
) -> (Result<(), String>, Option<io::Result<Prepared>>)
where
    I: Iterator<Item = io::Result<Batch>> + Send,
{
    let mut prepare = || {
        batches.next().map(|batch| {
            batch.map(|batch| {
                let file = parse_document(&batch.text);
                Prepared { batch, file }
            })
        })
    };
    if !overlap {
        let processed = process();
        let next = if processed.is_ok() { prepare() } else { None };
        return (processed, next);
    }
    thread::scope(|scope| {
        let preparing = scope.spawn(prepare);
        let processed = process();
        let next = preparing.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        (processed, next)
    })
}

/// How many threads the functions are processed on: one per core, asked
/// of the system once (it reads the cgroup's CPU quota files).
fn cores() -> usize {
    static CORES: OnceLock<usize> = OnceLock::new();
    *CORES.get_or_init(|| thread::available_parallelism().map_or(1, NonZeroUsize::get))
}

/// Computes every document's outcome on as many threads as there are
/// cores and hands each to `deliver` in file order as soon as those before
/// it are delivered, so that a function's text is written (and its memory
/// used again) while later ones are still being legalized. A function
/// after one that failed (or every one, unless `proceed`) is only read and
/// checked, as it would be one function at a time. The first error
/// `deliver` returns ends the run.
fn process_in_parallel(
    run: &Run<'_>,
    documents: &MirDocuments<'_>,
    docs: Vec<FunctionDoc>,
    render: &(dyn Fn(MirError) -> String + Sync),
    proceed: bool,
    deliver: &mut (dyn FnMut(Outcome) -> Result<(), String> + Send),
) -> Result<(), String> {
    let count = docs.len();
    let threads = cores().min(count).max(1);
    let queue = Mutex::new(docs.into_iter().enumerate());
    // The first function known to have failed: later ones are not legalized.
    let first_failure = AtomicUsize::new(usize::MAX);
    let delivery = Mutex::new(Delivery { next: 0, waiting: BTreeMap::new(), deliver, error: None });
    // The locks are held only to take the next document or to deliver. A
    // poisoned lock means another worker panicked; the scope re-raises
    // that panic, so this worker just stops.
    let next = || {
        let stopped = delivery.lock().map_or(true, |d| d.error.is_some());
        if stopped { None } else { queue.lock().ok().and_then(|mut q| q.next()) }
    };
    let work = || {
        while let Some((index, doc)) = next() {
            let function = documents.read_function(doc).map_err(render);
            let outcome = run.process(function, proceed && index < first_failure.load(Ordering::Relaxed));
            if matches!(outcome, Outcome::Rejected(_) | Outcome::Failed(_)) {
                first_failure.fetch_min(index, Ordering::Relaxed);
            }
            let Ok(mut delivery) = delivery.lock() else { return };
            delivery.take(index, outcome);
        }
    };
    // This thread is one of the workers: on one core nothing is spawned,
    // and the memory this thread has already touched is used again.
    thread::scope(|scope| {
        let helpers: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        work();
        for helper in helpers {
            helper.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        }
    });
    let delivery = delivery.into_inner().unwrap_or_else(std::sync::PoisonError::into_inner);
    match delivery.error {
        Some(error) => Err(error),
        None => Ok(()),
    }
}

/// The outcomes computed but not yet delivered, and where delivery stands.
struct Delivery<'d> {
    /// The index of the next outcome to deliver.
    next: usize,
    /// Outcomes computed ahead of `next`.
    waiting: BTreeMap<usize, Outcome>,
    deliver: &'d mut (dyn FnMut(Outcome) -> Result<(), String> + Send),
    /// The first error delivery returned: nothing more is delivered.
    error: Option<String>,
}

impl Delivery<'_> {
    /// Takes the outcome of document `index` and delivers every outcome
    /// that is now next in file order.
    fn take(&mut self, index: usize, outcome: Outcome) {
        self.waiting.insert(index, outcome);
        while self.error.is_none()
            && let Some(outcome) = self.waiting.remove(&self.next)
        {
            self.next += 1;
            if let Err(error) = (self.deliver)(outcome) {
                self.error = Some(error);
            }
        }
    }
}
