//! The guide's pages agree with the code: every page is in the summary,
//! every Rust block is either a doc test of this crate or an include of a
//! file that `cargo test` builds, the `legalizer!` reference covers every
//! method, predicate and mutation the macro accepts with a compiled
//! example, and the compile-error page covers every trybuild case with its
//! message.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

fn docs() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Every page of the book, by file name.
fn pages() -> BTreeMap<String, String> {
    let mut pages = BTreeMap::new();
    for entry in fs::read_dir(docs().join("src")).expect("docs/src exists") {
        let path = entry.expect("readable entry").path();
        if path.extension().is_some_and(|e| e == "md") {
            let name = path.file_name().and_then(|n| n.to_str()).expect("UTF-8 name").to_owned();
            pages.insert(name, read(&path));
        }
    }
    pages
}

/// A fenced code block: its info string and its lines.
struct Block {
    info: String,
    lines: Vec<String>,
}

fn blocks(page: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for line in page.lines() {
        match (line.strip_prefix("```"), open.take()) {
            (Some(info), None) => open = Some(Block { info: info.to_owned(), lines: Vec::new() }),
            (Some(_), Some(block)) => blocks.push(block),
            (None, Some(mut block)) => {
                block.lines.push(line.to_owned());
                open = Some(block);
            }
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "a code block is not closed");
    blocks
}

fn is_rust(block: &Block) -> bool {
    block.info.is_empty() || block.info.split(',').next() == Some("rust")
}

/// The Rust source of a block as rustdoc compiles it (hidden `# ` lines
/// shown).
fn source_lines(block: &Block) -> Vec<String> {
    block
        .lines
        .iter()
        .map(|l| if l == "#" { String::new() } else { l.strip_prefix("# ").unwrap_or(l).to_owned() })
        .collect()
}

/// The pages `guide.rs` makes doc tests of.
fn doc_tested_pages() -> Vec<String> {
    let guide = read(&docs().join("guide.rs"));
    guide
        .lines()
        .filter_map(|l| l.strip_prefix("#[doc = include_str!(\"src/"))
        .filter_map(|rest| rest.split('"').next())
        .map(str::to_owned)
        .collect()
}

#[test]
fn summary_lists_every_page() {
    let pages = pages();
    let summary = &pages["SUMMARY.md"];
    for name in pages.keys().filter(|n| *n != "SUMMARY.md") {
        assert!(summary.contains(&format!("]({name})")), "SUMMARY.md does not list {name}");
    }
}

#[test]
fn every_rust_block_is_compiled() {
    let tested = doc_tested_pages();
    for (name, page) in pages() {
        for block in blocks(&page) {
            let includes: Vec<&String> = block.lines.iter().filter(|l| l.starts_with("{{#include ")).collect();
            for include in &includes {
                check_include(&name, include);
            }
            if !is_rust(&block) {
                continue;
            }
            if tested.contains(&name) {
                assert!(includes.is_empty(), "{name}: a doc-tested page cannot include files in Rust blocks");
            } else {
                // Pages that are not doc tests show files that `cargo test`
                // builds: the tutorial crate and the trybuild cases.
                assert_eq!(block.lines.len(), 1, "{name}: a Rust block here must be one include:\n{:?}", block.lines);
                assert_eq!(includes.len(), 1, "{name}: a Rust block here must be one include");
            }
        }
    }
}

/// `{{#include path}}` or `{{#include path:anchor}}` names a file (and an
/// anchor in it) that exists.
fn check_include(page: &str, line: &str) {
    let target = line.trim_start_matches("{{#include ").trim_end_matches("}}");
    let (path, anchor) = match target.split_once(':') {
        Some((path, anchor)) => (path, Some(anchor)),
        None => (target, None),
    };
    let file = docs().join("src").join(path);
    let text = read(&file);
    if let Some(anchor) = anchor {
        assert!(text.contains(&format!("ANCHOR: {anchor}\n")), "{page}: no anchor {anchor} in {path}");
        assert!(text.contains(&format!("ANCHOR_END: {anchor}\n")), "{page}: anchor {anchor} in {path} is not closed");
    }
}

/// The names listed in one `pub static NAME: &[...] = &[ ... ];` of the
/// macro crate's signature table.
fn names_in(sigs: &str, table: &str) -> Vec<String> {
    let start = sigs.find(&format!("pub static {table}:")).unwrap_or_else(|| panic!("no table {table}"));
    let body = &sigs[start..];
    let body = &body[..body.find("\n];").expect("the table ends")];
    let mut names = Vec::new();
    for line in body.lines().skip(1) {
        let quoted = line.split('"').nth(1);
        if let Some(name) =
            quoted.filter(|_| line.contains("m(\"") || line.contains("f(\"") || line.contains("name: \""))
        {
            names.push(name.to_owned());
        }
    }
    assert!(!names.is_empty(), "no names found in {table}");
    names
}

/// The part of `page` from the heading `## {title}` to the next `## `.
fn section<'a>(page: &'a str, title: &str) -> &'a str {
    let start = page.find(&format!("\n## {title}\n")).unwrap_or_else(|| panic!("no section {title}"));
    let rest = &page[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    &rest[..end]
}

#[test]
fn dsl_reference_has_a_compiled_example_for_every_name() {
    let sigs = read(&docs().join("../macros/src/sigs.rs"));
    let page = &pages()["dsl.md"];
    for (table, title) in [("METHODS", "Rule methods"), ("PREDICATES", "Predicates"), ("MUTATIONS", "Mutations")] {
        let section = section(page, title);
        let compiled: Vec<String> =
            blocks(section).iter().filter(|b| is_rust(b)).flat_map(source_lines).map(|l| l.trim().to_owned()).collect();
        for name in names_in(&sigs, table) {
            let row = section
                .lines()
                .find(|l| l.starts_with(&format!("| `{name}(")))
                .unwrap_or_else(|| panic!("dsl.md, {title}: no entry for `{name}`"));
            let example = row.trim_end_matches(" |").rsplit(" | ").next().expect("an example cell");
            let example = example.trim_matches('`');
            assert!(
                example.contains(&format!("{name}(")),
                "dsl.md: the example of `{name}` does not use it: {example}"
            );
            assert!(
                compiled.iter().any(|l| l == example),
                "dsl.md: the example of `{name}` is not in a compiled block: {example}"
            );
        }
    }
}

#[test]
fn compile_error_page_covers_every_trybuild_case() {
    let ui = docs().join("../macros/tests/ui");
    let page = &pages()["compile-errors.md"];
    let mut cases: Vec<String> = fs::read_dir(&ui)
        .expect("macros/tests/ui exists")
        .map(|e| e.expect("readable entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .map(|p| p.file_stem().and_then(|s| s.to_str()).expect("UTF-8 name").to_owned())
        .collect();
    cases.sort();
    assert!(page.contains(&format!("There are {} classes.", cases.len())), "compile-errors.md: wrong count");
    for case in cases {
        let section = section(page, &format!("`{case}`"));
        let stderr = read(&ui.join(format!("{case}.stderr")));
        let first = stderr.lines().find(|l| l.starts_with("error: ")).expect("an error line");
        assert!(section.contains(&format!("\n> {first}\n")), "compile-errors.md, {case}: the message is not `{first}`");
        for file in [format!("{case}.rs"), format!("{case}.stderr")] {
            let include = format!("{{{{#include ../../macros/tests/ui/{file}}}}}");
            assert!(section.contains(&include), "compile-errors.md, {case}: no {include}");
        }
    }
}
