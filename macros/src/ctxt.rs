//! The error collector (after serde_derive's `Ctxt`): every stage reports
//! into one context, and the macro emits all errors together so a user sees
//! every malformed rule at once, not the first only.

use std::cell::RefCell;
use std::fmt::Display;

use proc_macro2::{Punct, Spacing, Span, TokenStream, TokenTree};

/// A source range: first and last token. rustc underlines from `start` to
/// `end` when an error carries both (`syn::Error::new_spanned`).
#[derive(Clone, Copy)]
pub struct SpanRange {
    /// First token.
    pub start: Span,
    /// Last token.
    pub end: Span,
}

impl SpanRange {
    /// A range of one token.
    pub fn one(span: Span) -> SpanRange {
        SpanRange { start: span, end: span }
    }

    /// From the first and last token of a node.
    pub fn of(tokens: &impl quote::ToTokens) -> SpanRange {
        let stream = tokens.to_token_stream();
        let mut iter = stream.into_iter();
        let start = iter.next().map_or_else(Span::call_site, |t| t.span());
        let end = iter.last().map_or(start, |t| t.span());
        SpanRange { start, end }
    }

    /// From `self.start` to `other.end`.
    pub fn to(self, other: SpanRange) -> SpanRange {
        SpanRange { start: self.start, end: other.end }
    }

    /// An error underlining the whole range.
    pub fn error(self, message: impl Display) -> syn::Error {
        let mut tokens = TokenStream::new();
        for span in [self.start, self.end] {
            let mut punct = Punct::new('.', Spacing::Alone);
            punct.set_span(span);
            tokens.extend([TokenTree::Punct(punct)]);
        }
        syn::Error::new_spanned(tokens, message)
    }

    /// `line:column` of the start, for messages that name another place.
    pub fn location(self) -> String {
        if proc_macro::is_available() {
            let span = self.start.unwrap();
            format!("{}:{}", span.line(), span.column())
        } else {
            "?".to_owned()
        }
    }
}

/// Collects errors; must be consumed with [`Ctxt::check`] (dropping it
/// unchecked is a bug in the macro and panics, as serde's does).
#[derive(Default)]
pub struct Ctxt {
    errors: RefCell<Option<Vec<syn::Error>>>,
}

impl Ctxt {
    /// An empty context.
    pub fn new() -> Ctxt {
        Ctxt { errors: RefCell::new(Some(Vec::new())) }
    }

    /// Records an error.
    pub fn syn_error(&self, error: syn::Error) {
        self.errors.borrow_mut().as_mut().expect("Ctxt used after check").push(error);
    }

    /// Records `message` underlining `range`.
    pub fn error(&self, range: SpanRange, message: impl Display) {
        self.syn_error(range.error(message));
    }

    /// Records `message` at one span.
    pub fn error_at(&self, span: Span, message: impl Display) {
        self.syn_error(syn::Error::new(span, message));
    }

    /// Records an error at `here` and a note at `there`: the two places
    /// one finding is about ("this rule is shadowed by that one").
    pub fn error_with_note(&self, here: SpanRange, message: impl Display, there: SpanRange, note: impl Display) {
        let mut error = here.error(message);
        error.combine(there.error(note));
        self.syn_error(error);
    }

    /// True when some error was recorded.
    pub fn has_errors(&self) -> bool {
        self.errors.borrow().as_ref().is_some_and(|e| !e.is_empty())
    }

    /// All errors joined into one, or `Ok` when there were none.
    pub fn check(self) -> Result<(), syn::Error> {
        let errors = self.errors.borrow_mut().take().expect("Ctxt checked twice");
        let mut iter = errors.into_iter();
        let Some(mut first) = iter.next() else {
            return Ok(());
        };
        for error in iter {
            first.combine(error);
        }
        Err(first)
    }
}

impl Drop for Ctxt {
    fn drop(&mut self) {
        if !std::thread::panicking() && self.errors.borrow().is_some() {
            panic!("forgot to check for errors");
        }
    }
}
