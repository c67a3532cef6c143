//! `syn::parse::Parse` for the syntax tree of `ast.rs`. Parsing checks the
//! grammar only; names and types are resolved later.

use proc_macro2::{Delimiter, TokenTree};
use syn::parse::{Parse, ParseStream};
use syn::{Expr, Ident, LitBool, LitInt, Path, Token, braced, bracketed, parenthesized};

use crate::ast::{AngleType, Arg, Call, Else, IfStmt, Input, Let, ListLit, ListStmt, OptionItem, RuleStmt, Stmt, join};
use crate::ctxt::SpanRange;

impl Parse for Input {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(syn::Attribute::parse_outer)?;
        let vis = input.parse()?;
        let sig: syn::Signature = input.parse()?;
        if matches!(sig.output, syn::ReturnType::Default) {
            return Err(syn::Error::new_spanned(
                &sig,
                "the function must return the LegalizerInfo: `-> LegalizerInfo`",
            ));
        }
        let content;
        braced!(content in input);
        let body = parse_stmts(&content, true)?;
        if !input.is_empty() {
            return Err(input.error("expected one function per `legalizer!`"));
        }
        Ok(Input { attrs, vis, sig, body })
    }
}

fn parse_stmts(input: ParseStream, top: bool) -> syn::Result<Vec<Stmt>> {
    let mut stmts = Vec::new();
    while !input.is_empty() {
        stmts.push(parse_stmt(input, top)?);
    }
    Ok(stmts)
}

fn parse_stmt(input: ParseStream, top: bool) -> syn::Result<Stmt> {
    if input.peek(Token![let]) {
        input.parse::<Token![let]>()?;
        let name: Ident = input.parse()?;
        input.parse::<Token![=]>()?;
        if input.peek(syn::token::Bracket) {
            let list = parse_list(input)?;
            input.parse::<Token![;]>()?;
            return Ok(Stmt::List(ListStmt { name, list }));
        }
        let value = input.parse()?;
        input.parse::<Token![;]>()?;
        return Ok(Stmt::Let(Let { name, value }));
    }
    if input.peek(Token![if]) {
        return parse_if(input).map(Stmt::If);
    }
    if input.peek(Ident) && input.peek2(Token![=]) && !input.peek2(Token![=>]) {
        let key: Ident = input.parse()?;
        if !top {
            return Err(syn::Error::new(
                key.span(),
                "options (`key = value;`) belong at the top of the body, not in an `if`",
            ));
        }
        input.parse::<Token![=]>()?;
        let value = input.parse()?;
        input.parse::<Token![;]>()?;
        return Ok(Stmt::Option(OptionItem { key, value }));
    }
    parse_rules(input).map(Stmt::Rules)
}

fn parse_if(input: ParseStream) -> syn::Result<IfStmt> {
    input.parse::<Token![if]>()?;
    let cond = Expr::parse_without_eager_brace(input)?;
    let content;
    braced!(content in input);
    let then = parse_stmts(&content, false)?;
    let otherwise = if input.peek(Token![else]) {
        input.parse::<Token![else]>()?;
        if input.peek(Token![if]) {
            Some(Box::new(Else::If(parse_if(input)?)))
        } else {
            let content;
            braced!(content in input);
            Some(Box::new(Else::Block(parse_stmts(&content, false)?)))
        }
    } else {
        None
    };
    Ok(IfStmt { cond, then, otherwise })
}

fn parse_rules(input: ParseStream) -> syn::Result<RuleStmt> {
    let first = input.span();
    let mut opcodes = vec![input.parse::<Ident>().map_err(|e| {
        syn::Error::new(
            e.span(),
            "expected a rule (`G_ADD => legal_for(s32);`), `let`, `if` or an option (`key = value;`)",
        )
    })?];
    while input.peek(Token![|]) {
        input.parse::<Token![|]>()?;
        opcodes.push(input.parse()?);
    }
    let arrow: Token![=>] = input.parse()?;
    let mut calls = Vec::new();
    if !input.peek(Token![;]) {
        calls.push(parse_call(input, true)?);
        while input.peek(Token![.]) {
            input.parse::<Token![.]>()?;
            calls.push(parse_call(input, true)?);
        }
    }
    let semi: Token![;] = input.parse()?;
    Ok(RuleStmt { opcodes, arrow: arrow.spans[0], calls, range: SpanRange { start: first, end: semi.span } })
}

impl Parse for Call {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        parse_call(input, false)
    }
}

/// `name(args)`; a builder call in a rule chain may start its arguments
/// with a gate, `if cond,`.
fn parse_call(input: ParseStream, gated: bool) -> syn::Result<Call> {
    let name: Ident = input.parse()?;
    let content;
    let paren = parenthesized!(content in input);
    let gate = if gated { parse_gate(&content)? } else { None };
    let args = parse_args(&content)?;
    let text = format!("{name}({})", join(&args));
    let range = SpanRange { start: name.span(), end: paren.span.close() };
    Ok(Call { name, args, paren: paren.span.join(), range, text, gate })
}

/// `if cond,` at the start of a call's or a list's arguments.
fn parse_gate(input: ParseStream) -> syn::Result<Option<Box<Expr>>> {
    if !input.peek(Token![if]) {
        return Ok(None);
    }
    input.parse::<Token![if]>()?;
    let cond: Expr = input.parse()?;
    input.parse::<Token![,]>()?;
    Ok(Some(Box::new(cond)))
}

/// `[if cond, a, b]`, the gate optional.
fn parse_list(input: ParseStream) -> syn::Result<ListLit> {
    let content;
    let bracket = bracketed!(content in input);
    let range = SpanRange { start: bracket.span.open(), end: bracket.span.close() };
    let gate = parse_gate(&content)?;
    Ok(ListLit { gate, items: parse_args(&content)?, range })
}

fn parse_args(input: ParseStream) -> syn::Result<Vec<Arg>> {
    let mut args = Vec::new();
    while !input.is_empty() {
        args.push(input.parse()?);
        if input.is_empty() {
            break;
        }
        input.parse::<Token![,]>()?;
    }
    Ok(args)
}

impl Parse for Arg {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        if input.peek(Token![|]) || input.peek(Token![||]) || input.peek(Token![move]) {
            return Ok(Arg::Closure(Box::new(input.parse()?)));
        }
        if input.peek(syn::token::Brace) {
            return Ok(Arg::Block(Box::new(input.parse()?)));
        }
        if input.peek(syn::token::Paren) {
            let content;
            let paren = parenthesized!(content in input);
            let range = SpanRange { start: paren.span.open(), end: paren.span.close() };
            return Ok(Arg::Tuple(parse_args(&content)?, range));
        }
        if input.peek(syn::token::Bracket) {
            return parse_list(input).map(Arg::List);
        }
        if input.peek(Token![<]) {
            return parse_angle(input).map(Arg::Angle);
        }
        if input.peek(LitInt) {
            return Ok(Arg::Int(input.parse()?));
        }
        if input.peek(LitBool) {
            return Ok(Arg::Bool(input.parse()?));
        }
        if input.peek(Ident) && input.peek2(syn::token::Paren) {
            return Ok(Arg::Call(input.parse()?));
        }
        let path_start = input.peek(Token![::])
            || input.peek(Token![crate])
            || input.peek(Token![self])
            || input.peek(Token![super])
            || (input.peek(Ident) && input.peek2(Token![::]));
        if path_start {
            return Ok(Arg::Path(input.call(Path::parse_mod_style)?));
        }
        if input.peek(Ident) {
            return Ok(Arg::Ident(input.parse()?));
        }
        Err(input
            .error("expected a type (`s32`, `<4 x s32>`), an index, a tuple, a list, a call, a closure or `{ expr }`"))
    }
}

/// `<4 x s32>` / `<vscale x 2 x s64>`: the tokens up to the matching `>`,
/// normalized to LLVM's spelling (checked later by gisel-core's parser).
fn parse_angle(input: ParseStream) -> syn::Result<AngleType> {
    let open: Token![<] = input.parse()?;
    let mut words = Vec::new();
    let end = input.step(|cursor| {
        let mut rest = *cursor;
        while let Some((tt, next)) = rest.token_tree() {
            match &tt {
                TokenTree::Punct(p) if p.as_char() == '>' => return Ok((p.span(), next)),
                TokenTree::Group(g) if g.delimiter() != Delimiter::None => {
                    return Err(syn::Error::new(tt.span(), "unexpected group in a vector type"));
                }
                _ => words.push(tt.to_string()),
            }
            rest = next;
        }
        Err(cursor.error("unclosed vector type: expected `>`"))
    })?;
    Ok(AngleType { text: format!("<{}>", words.join(" ")), range: SpanRange { start: open.span, end } })
}
