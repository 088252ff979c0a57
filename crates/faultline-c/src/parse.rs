//! A recursive-descent parser for C (C89/C99 with the common extensions of
//! small programs). It tracks typedef names by scope so that declarations
//! and expressions can be told apart.

mod decl;
mod expr;
mod stmt;

use std::collections::HashMap;
use std::rc::Rc;

use faultline_ir::{FloatKind, IntKind};

use crate::ast::*;
use crate::lex::{Kind, Token};
use crate::literal::{parse_char, parse_number, parse_string, Number};
use crate::source::{err, PResult, Span};

/// Maximum recursion depth of the parser, and maximum height of an expression tree.
pub const MAX_DEPTH: u32 = 256;

const KEYWORDS: &[&str] = &[
    "auto",
    "break",
    "case",
    "char",
    "const",
    "continue",
    "default",
    "do",
    "double",
    "else",
    "enum",
    "extern",
    "float",
    "for",
    "goto",
    "if",
    "inline",
    "int",
    "long",
    "register",
    "restrict",
    "return",
    "short",
    "signed",
    "sizeof",
    "static",
    "struct",
    "switch",
    "typedef",
    "union",
    "unsigned",
    "void",
    "volatile",
    "while",
    "_Bool",
    "_Complex",
    "_Imaginary",
    "_Alignas",
    "_Alignof",
    "_Atomic",
    "_Generic",
    "_Noreturn",
    "_Static_assert",
    "_Thread_local",
    "__faultline_FILE",
    "asm",
    "__asm__",
    "__asm",
    "__attribute__",
    "__extension__",
    "__inline",
    "__inline__",
    "__restrict",
    "__restrict__",
    "__const",
    "__volatile__",
    "__volatile",
    "__signed__",
    "__signed",
    "typeof",
    "__typeof__",
    "__typeof",
    "__alignof__",
];

const TYPE_WORDS: &[&str] = &[
    "void",
    "char",
    "short",
    "int",
    "long",
    "float",
    "double",
    "signed",
    "unsigned",
    "_Bool",
    "_Complex",
    "_Imaginary",
    "struct",
    "union",
    "enum",
    "const",
    "volatile",
    "restrict",
    "__restrict",
    "__restrict__",
    "__const",
    "__volatile__",
    "__volatile",
    "__signed__",
    "__signed",
    "__faultline_FILE",
    "_Atomic",
    "typeof",
    "__typeof__",
    "__typeof",
    "_Alignas",
];

const DECL_WORDS: &[&str] = &[
    "typedef",
    "extern",
    "static",
    "auto",
    "register",
    "inline",
    "__inline",
    "__inline__",
    "_Noreturn",
    "__attribute__",
    "__extension__",
    "_Thread_local",
    "_Static_assert",
];

pub fn is_keyword(s: &str) -> bool {
    KEYWORDS.contains(&s)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Named,
    Abstract,
    Either,
}

pub struct Parser<'a> {
    toks: &'a [Token],
    pos: usize,
    scopes: Vec<HashMap<Rc<str>, bool>>,
    depth: u32,
}

fn stray_msg(t: &Token) -> String {
    if t.text.starts_with('\'') {
        "missing terminating ' character".into()
    } else if t.text.starts_with('"') {
        "missing terminating '\"' character".into()
    } else {
        format!("stray '{}' in program", t.text)
    }
}

/// Parses a preprocessed token list (ending with a [`Kind::End`] token).
pub fn parse(toks: &[Token]) -> PResult<Vec<Item>> {
    let mut p = Parser {
        toks,
        pos: 0,
        scopes: vec![HashMap::new()],
        depth: 0,
    };
    let mut items = Vec::new();
    while p.peek().kind != Kind::End {
        if p.eat(";") {
            continue;
        }
        items.push(p.parse_external()?);
    }
    Ok(items)
}

impl<'a> Parser<'a> {
    // ----- token helpers -----

    fn peek(&self) -> &'a Token {
        let toks: &'a [Token] = self.toks;
        &toks[self.pos.min(toks.len() - 1)]
    }
    fn peek_at(&self, k: usize) -> &'a Token {
        let toks: &'a [Token] = self.toks;
        &toks[(self.pos + k).min(toks.len() - 1)]
    }
    fn bump(&mut self) -> &'a Token {
        let t = self.peek();
        if t.kind != Kind::End {
            self.pos += 1;
        }
        t
    }
    fn is(&self, p: &str) -> bool {
        self.peek().is(p)
    }
    fn is_kw(&self, k: &str) -> bool {
        self.peek().is_ident(k)
    }
    fn eat(&mut self, p: &str) -> bool {
        if self.is(p) {
            self.bump();
            true
        } else {
            false
        }
    }
    fn prev_span(&self) -> Span {
        if self.pos == 0 {
            self.peek().span
        } else {
            self.toks[self.pos - 1].span
        }
    }
    fn fail<T>(&self, msg: impl Into<String>) -> PResult<T> {
        let t = self.peek();
        if t.kind == Kind::Other {
            return err(t.span, stray_msg(t));
        }
        err(t.span, msg)
    }
    fn fail_after<T>(&self, msg: impl Into<String>) -> PResult<T> {
        let t = self.peek();
        if t.kind == Kind::Other {
            return err(t.span, stray_msg(t));
        }
        let span = if self.pos == 0 {
            t.span
        } else {
            self.prev_span().after()
        };
        err(span, msg)
    }
    fn expect(&mut self, p: &str, msg: &str) -> PResult<&'a Token> {
        if self.is(p) {
            Ok(self.bump())
        } else {
            self.fail(msg)
        }
    }
    fn expect_after(&mut self, p: &str, msg: &str) -> PResult<&'a Token> {
        if self.is(p) {
            Ok(self.bump())
        } else {
            self.fail_after(msg)
        }
    }
    fn enter(&mut self, what: &str) -> PResult<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return err(self.peek().span, format!("{what} nested too deeply"));
        }
        Ok(())
    }
    fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }
    fn ident(&mut self, msg: &str) -> PResult<Ident> {
        let t = self.peek();
        if t.kind == Kind::Ident && !is_keyword(&t.text) {
            self.bump();
            Ok(Ident {
                name: t.text.clone(),
                span: t.span,
            })
        } else {
            self.fail(msg)
        }
    }

    // ----- scopes (typedef names) -----

    fn push_scope(&mut self) {
        self.scopes.push(HashMap::new());
    }
    fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }
    fn declare(&mut self, name: &Rc<str>, is_typedef: bool) {
        if let Some(s) = self.scopes.last_mut() {
            s.insert(name.clone(), is_typedef);
        }
    }
    fn is_typedef(&self, name: &str) -> bool {
        for s in self.scopes.iter().rev() {
            if let Some(&t) = s.get(name) {
                return t;
            }
        }
        false
    }
    fn is_type_start(&self, t: &Token) -> bool {
        t.kind == Kind::Ident
            && (TYPE_WORDS.contains(&&*t.text)
                || (!is_keyword(&t.text) && self.is_typedef(&t.text)))
    }
    fn is_decl_start(&self, t: &Token) -> bool {
        self.is_type_start(t) || (t.kind == Kind::Ident && DECL_WORDS.contains(&&*t.text))
    }

    // ----- declarations -----

    fn parse_external(&mut self) -> PResult<Item> {
        let start = self.peek().span;
        if self.is_kw("asm") || self.is_kw("__asm__") || self.is_kw("__asm") {
            return self.fail("unsupported: inline assembly");
        }
        let specs = match self.parse_decl_specs()? {
            Some(s) => s,
            None => {
                let t = self.peek();
                if t.kind == Kind::Ident && !is_keyword(&t.text) {
                    DeclSpecs {
                        storage: None,
                        base: BaseType::Int(IntKind::Int),
                        is_const: false,
                        implicit_int: true,
                        span: Span {
                            hi: start.lo,
                            end_line: start.line,
                            end_col: start.col,
                            ..start
                        },
                    }
                } else {
                    return self.fail("expected external declaration");
                }
            }
        };
        if self.eat(";") {
            return Ok(Item::Decl(Declaration {
                specs,
                items: Vec::new(),
                span: start.to(self.prev_span()),
            }));
        }
        let decl = self.parse_declarator(Mode::Named)?;
        if let Some(params) = decl.func_params() {
            let kr = matches!(params, ParamList::Names(_) | ParamList::Empty);
            if self.is("{") || (kr && self.is_decl_start(self.peek())) {
                return self.parse_function_def(specs, decl, start);
            }
        }
        Ok(Item::Decl(self.parse_declaration_rest(
            specs,
            Some(decl),
            start,
        )?))
    }

    fn parse_function_def(
        &mut self,
        specs: DeclSpecs,
        decl: Declarator,
        start: Span,
    ) -> PResult<Item> {
        if specs.storage == Some(Storage::Typedef) {
            return err(decl.span, "function definition declared 'typedef'");
        }
        if let Some(n) = decl.name() {
            self.declare(&n.name.clone(), false);
        }
        self.push_scope();
        match decl.func_params() {
            Some(ParamList::Prototype { params, .. }) => {
                for p in params {
                    if let Some(n) = p.decl.name() {
                        self.declare(&n.name.clone(), false);
                    }
                }
            }
            Some(ParamList::Names(names)) => {
                for n in names {
                    self.declare(&n.name.clone(), false);
                }
            }
            _ => {}
        }
        let mut kr_decls = Vec::new();
        while !self.is("{") {
            let dstart = self.peek().span;
            let Some(s) = self.parse_decl_specs()? else {
                return self.fail("expected function body after function declarator");
            };
            kr_decls.push(self.parse_declaration_rest(s, None, dstart)?);
        }
        let body = self.parse_block_items()?;
        self.pop_scope();
        Ok(Item::Func(FuncDef {
            specs,
            decl,
            kr_decls,
            body,
            span: start.to(self.prev_span()),
        }))
    }

    fn parse_declaration_rest(
        &mut self,
        specs: DeclSpecs,
        first: Option<Declarator>,
        start: Span,
    ) -> PResult<Declaration> {
        let mut items = Vec::new();
        if first.is_none() && self.eat(";") {
            return Ok(Declaration {
                specs,
                items,
                span: start.to(self.prev_span()),
            });
        }
        let mut first = first;
        loop {
            let decl = match first.take() {
                Some(d) => d,
                None => self.parse_declarator(Mode::Named)?,
            };
            if let Some(n) = decl.name() {
                self.declare(&n.name.clone(), specs.storage == Some(Storage::Typedef));
            }
            while self.is_kw("__attribute__") {
                self.skip_attribute()?;
            }
            if self.is_kw("asm") || self.is_kw("__asm__") || self.is_kw("__asm") {
                return self.fail("unsupported: inline assembly");
            }
            let init = if self.eat("=") {
                Some(self.parse_initializer()?)
            } else {
                None
            };
            let span = match &init {
                Some(i) => decl.span.to(i.span()),
                None => decl.span,
            };
            items.push(InitDeclarator { decl, init, span });
            if self.eat(",") {
                continue;
            }
            self.expect_after(";", "expected ';' after declaration")?;
            break;
        }
        Ok(Declaration {
            specs,
            items,
            span: start.to(self.prev_span()),
        })
    }

    // ----- statements -----

    // ----- expressions -----
}
