//! A recursive-descent parser for C (C89/C99 with the common extensions of
//! small programs). It tracks typedef names by scope so that declarations
//! and expressions can be told apart.

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

    fn skip_attribute(&mut self) -> PResult<()> {
        self.bump();
        self.expect("(", "expected '(' after '__attribute__'")?;
        let mut level = 1u32;
        while level > 0 {
            let t = self.bump();
            if t.kind == Kind::End {
                return err(t.span, "expected ')'");
            }
            if t.is("(") {
                level += 1;
            } else if t.is(")") {
                level -= 1;
            }
        }
        Ok(())
    }

    fn parse_decl_specs(&mut self) -> PResult<Option<DeclSpecs>> {
        let start = self.peek().span;
        let mut storage = None;
        let mut is_const = false;
        let mut base: Option<BaseType> = None;
        let mut any = false;
        // void, _Bool, char, short, int, long, float, double, signed, unsigned
        let mut n = [0u32; 10];
        loop {
            let t = self.peek();
            if t.kind != Kind::Ident {
                break;
            }
            let word = &*t.text;
            let counted = match word {
                "void" => Some(0),
                "_Bool" => Some(1),
                "char" => Some(2),
                "short" => Some(3),
                "int" => Some(4),
                "long" => Some(5),
                "float" => Some(6),
                "double" => Some(7),
                "signed" | "__signed__" | "__signed" => Some(8),
                "unsigned" => Some(9),
                _ => None,
            };
            if let Some(i) = counted {
                if base.is_some() {
                    return err(t.span, "invalid combination of type specifiers");
                }
                n[i] += 1;
                self.bump();
                any = true;
                continue;
            }
            match word {
                "typedef" | "extern" | "static" | "auto" | "register" => {
                    if storage.is_some() {
                        return err(t.span, "multiple storage classes in declaration specifiers");
                    }
                    storage = Some(match word {
                        "typedef" => Storage::Typedef,
                        "extern" => Storage::Extern,
                        "static" => Storage::Static,
                        "auto" => Storage::Auto,
                        _ => Storage::Register,
                    });
                    self.bump();
                }
                "const" | "__const" => {
                    is_const = true;
                    self.bump();
                }
                "volatile" | "__volatile" | "__volatile__" | "restrict" | "__restrict"
                | "__restrict__" | "inline" | "__inline" | "__inline__" | "_Noreturn"
                | "__extension__" => {
                    self.bump();
                }
                "__attribute__" => self.skip_attribute()?,
                "_Thread_local" => return err(t.span, "unsupported: _Thread_local"),
                "_Atomic" => return err(t.span, "unsupported: _Atomic"),
                "_Alignas" => return err(t.span, "unsupported: _Alignas"),
                "_Static_assert" => return err(t.span, "unsupported: _Static_assert"),
                "_Complex" | "_Imaginary" => return err(t.span, "unsupported: complex types"),
                "typeof" | "__typeof__" | "__typeof" => return err(t.span, "unsupported: typeof"),
                "union" => return err(t.span, "unsupported: union types"),
                "struct" | "enum" | "__faultline_FILE" => {
                    if base.is_some() || n.iter().any(|&c| c > 0) {
                        return err(t.span, "invalid combination of type specifiers");
                    }
                    base = Some(match word {
                        "struct" => BaseType::Struct(Rc::new(self.parse_struct_spec()?)),
                        "enum" => BaseType::Enum(Rc::new(self.parse_enum_spec()?)),
                        _ => {
                            self.bump();
                            BaseType::File
                        }
                    });
                }
                name if base.is_none()
                    && n.iter().all(|&c| c == 0)
                    && !is_keyword(name)
                    && self.is_typedef(name) =>
                {
                    base = Some(BaseType::Typedef(Ident {
                        name: t.text.clone(),
                        span: t.span,
                    }));
                    self.bump();
                }
                _ => break,
            }
            any = true;
        }
        if !any {
            return Ok(None);
        }
        let span = start.to(self.prev_span());
        let total: u32 = n.iter().sum();
        let mut implicit_int = false;
        let base = match base {
            Some(b) => b,
            None if total == 0 => {
                implicit_int = true;
                BaseType::Int(IntKind::Int)
            }
            None => {
                let [void, boolean, ch, short, int, long, float, double, signed, unsigned] = n;
                let bad = || err(span, "invalid combination of type specifiers");
                if signed + unsigned > 1 {
                    return bad();
                }
                let sign = signed + unsigned;
                let u = unsigned == 1;
                use IntKind::*;
                if void == 1 && total == 1 {
                    BaseType::Void
                } else if boolean == 1 && total == 1 {
                    BaseType::Int(Bool)
                } else if float == 1 && total == 1 {
                    BaseType::Float(FloatKind::Float)
                } else if double == 1 && total == 1 {
                    BaseType::Float(FloatKind::Double)
                } else if double == 1 && long == 1 && total == 2 {
                    return err(span, "unsupported: long double");
                } else if ch == 1 && total == 1 + sign {
                    BaseType::Int(if u {
                        UChar
                    } else if signed == 1 {
                        SChar
                    } else {
                        Char
                    })
                } else if short == 1 && int <= 1 && total == 1 + int + sign {
                    BaseType::Int(if u { UShort } else { Short })
                } else if long == 1 && int <= 1 && total == 1 + int + sign {
                    BaseType::Int(if u { ULong } else { Long })
                } else if long == 2 && int <= 1 && total == 2 + int + sign {
                    BaseType::Int(if u { ULongLong } else { LongLong })
                } else if (int == 1 && total == 1 + sign) || total == sign {
                    BaseType::Int(if u { UInt } else { Int })
                } else {
                    return bad();
                }
            }
        };
        Ok(Some(DeclSpecs {
            storage,
            base,
            is_const,
            implicit_int,
            span,
        }))
    }

    fn parse_struct_spec(&mut self) -> PResult<StructSpec> {
        let kw = self.bump();
        self.enter("struct definitions")?;
        while self.is_kw("__attribute__") {
            self.skip_attribute()?;
        }
        let tag = if self.peek().kind == Kind::Ident && !is_keyword(&self.peek().text) {
            Some(self.ident("expected identifier")?)
        } else {
            None
        };
        let mut fields = None;
        if self.is("{") {
            self.bump();
            let mut fs = Vec::new();
            while !self.is("}") {
                if self.peek().kind == Kind::End {
                    return self.fail("expected '}'");
                }
                let fstart = self.peek().span;
                let Some(specs) = self.parse_decl_specs()? else {
                    return self.fail("expected type specifier in struct member declaration");
                };
                if specs.storage.is_some() {
                    return err(specs.span, "storage class specified for struct member");
                }
                let mut declarators = Vec::new();
                if self.is(";") {
                    if let BaseType::Struct(s) = &specs.base {
                        if s.tag.is_none() {
                            return err(specs.span, "unsupported: anonymous struct members");
                        }
                    }
                } else {
                    loop {
                        let d = self.parse_declarator(Mode::Named)?;
                        if self.is(":") {
                            return self.fail("unsupported: bit-fields");
                        }
                        declarators.push(d);
                        if !self.eat(",") {
                            break;
                        }
                    }
                }
                self.expect_after(";", "expected ';' at end of declaration list")?;
                fs.push(FieldDecl {
                    specs,
                    declarators,
                    span: fstart.to(self.prev_span()),
                });
            }
            self.bump();
            fields = Some(fs);
        } else if tag.is_none() {
            return self.fail("expected '{' or identifier after 'struct'");
        }
        self.leave();
        Ok(StructSpec {
            tag,
            fields,
            span: kw.span.to(self.prev_span()),
        })
    }

    fn parse_enum_spec(&mut self) -> PResult<EnumSpec> {
        let kw = self.bump();
        let tag = if self.peek().kind == Kind::Ident && !is_keyword(&self.peek().text) {
            Some(self.ident("expected identifier")?)
        } else {
            None
        };
        let mut items = None;
        if self.eat("{") {
            let mut its = Vec::new();
            while !self.is("}") {
                let name = self.ident("expected identifier in enumerator list")?;
                let value = if self.eat("=") {
                    Some(self.parse_cond()?)
                } else {
                    None
                };
                self.declare(&name.name.clone(), false);
                its.push((name, value));
                if !self.eat(",") {
                    break;
                }
            }
            self.expect("}", "expected '}'")?;
            items = Some(its);
        } else if tag.is_none() {
            return self.fail("expected '{' or identifier after 'enum'");
        }
        Ok(EnumSpec {
            tag,
            items,
            span: kw.span.to(self.prev_span()),
        })
    }

    fn paren_starts_declarator(&self, mode: Mode) -> bool {
        let t = self.peek_at(1);
        if t.is("*") || t.is("(") || t.is("[") {
            return true;
        }
        if t.kind == Kind::Ident && !is_keyword(&t.text) && !self.is_typedef(&t.text) {
            return mode != Mode::Abstract;
        }
        false
    }

    fn parse_declarator(&mut self, mode: Mode) -> PResult<Declarator> {
        self.enter("declarators")?;
        let start = self.peek().span;
        if self.eat("*") {
            let mut is_const = false;
            loop {
                let t = self.peek();
                if t.kind != Kind::Ident {
                    break;
                }
                match &*t.text {
                    "const" | "__const" => is_const = true,
                    "volatile" | "__volatile" | "__volatile__" | "restrict" | "__restrict"
                    | "__restrict__" => {}
                    "__attribute__" => {
                        self.skip_attribute()?;
                        continue;
                    }
                    "_Atomic" => return err(t.span, "unsupported: _Atomic"),
                    _ => break,
                }
                self.bump();
            }
            let inner = self.parse_declarator(mode)?;
            self.leave();
            let span = start.to(self.prev_span());
            return Ok(Declarator {
                kind: DeclaratorKind::Ptr {
                    is_const,
                    inner: Box::new(inner),
                },
                span,
            });
        }
        let t = self.peek();
        let mut d = if t.kind == Kind::Ident
            && !is_keyword(&t.text)
            && mode != Mode::Abstract
            && !(mode == Mode::Either && self.is_typedef(&t.text))
        {
            self.bump();
            Declarator {
                kind: DeclaratorKind::Name(Some(Ident {
                    name: t.text.clone(),
                    span: t.span,
                })),
                span: t.span,
            }
        } else if self.is("(") && self.paren_starts_declarator(mode) {
            self.bump();
            let inner = self.parse_declarator(mode)?;
            self.expect(")", "expected ')'")?;
            Declarator {
                span: start.to(self.prev_span()),
                ..inner
            }
        } else {
            if mode == Mode::Named {
                return self.fail("expected identifier or '('");
            }
            let at = self.prev_span().after();
            Declarator {
                kind: DeclaratorKind::Name(None),
                span: at,
            }
        };
        let mut suffixes = 0;
        loop {
            suffixes += 1;
            if suffixes > MAX_DEPTH {
                return self.fail("declarators nested too deeply");
            }
            if self.eat("[") {
                while self.is_kw("static")
                    || self.is_kw("const")
                    || self.is_kw("restrict")
                    || self.is_kw("volatile")
                {
                    self.bump();
                }
                let size = if self.is("]") {
                    None
                } else if self.is("*") && self.peek_at(1).is("]") {
                    return self.fail("unsupported: variable-length arrays");
                } else {
                    Some(Box::new(self.parse_assign()?))
                };
                self.expect("]", "expected ']'")?;
                let span = d.span.to(self.prev_span());
                d = Declarator {
                    kind: DeclaratorKind::Array {
                        inner: Box::new(d),
                        size,
                    },
                    span,
                };
            } else if self.eat("(") {
                let params = self.parse_params()?;
                let span = d.span.to(self.prev_span());
                d = Declarator {
                    kind: DeclaratorKind::Func {
                        inner: Box::new(d),
                        params,
                    },
                    span,
                };
            } else {
                break;
            }
        }
        while self.is_kw("__attribute__") {
            self.skip_attribute()?;
        }
        self.leave();
        Ok(d)
    }

    /// Parses a parameter list after its `(`, through the `)`.
    fn parse_params(&mut self) -> PResult<ParamList> {
        if self.eat(")") {
            return Ok(ParamList::Empty);
        }
        if self.is_kw("void") && self.peek_at(1).is(")") {
            self.bump();
            self.bump();
            return Ok(ParamList::Prototype {
                params: Vec::new(),
                variadic: false,
            });
        }
        let t = self.peek();
        if t.kind == Kind::Ident && !is_keyword(&t.text) && !self.is_typedef(&t.text) {
            let mut names = Vec::new();
            loop {
                names.push(self.ident("expected identifier")?);
                if !self.eat(",") {
                    break;
                }
            }
            self.expect(")", "expected ')'")?;
            return Ok(ParamList::Names(names));
        }
        let mut params = Vec::new();
        let mut variadic = false;
        loop {
            if self.eat("...") {
                variadic = true;
                self.expect(")", "expected ')'")?;
                break;
            }
            let start = self.peek().span;
            let Some(specs) = self.parse_decl_specs()? else {
                return self.fail("expected parameter declarator");
            };
            let decl = self.parse_declarator(Mode::Either)?;
            params.push(ParamDecl {
                specs,
                decl,
                span: start.to(self.prev_span()),
            });
            if self.eat(",") {
                continue;
            }
            self.expect(")", "expected ')'")?;
            break;
        }
        Ok(ParamList::Prototype { params, variadic })
    }

    fn parse_type_name(&mut self) -> PResult<TypeName> {
        let start = self.peek().span;
        let Some(specs) = self.parse_decl_specs()? else {
            return self.fail("expected type name");
        };
        if specs.storage.is_some() {
            return err(specs.span, "storage class specified in a type name");
        }
        let decl = self.parse_declarator(Mode::Abstract)?;
        Ok(TypeName {
            specs,
            decl,
            span: start.to(self.prev_span()),
        })
    }

    fn parse_initializer(&mut self) -> PResult<Initializer> {
        self.enter("initializers")?;
        let r = if self.is("{") {
            let open = self.bump().span;
            let mut elems = Vec::new();
            while !self.is("}") {
                let mut designators = Vec::new();
                loop {
                    if self.eat(".") {
                        designators.push(Designator::Field(
                            self.ident("expected a field designator")?,
                        ));
                    } else if self.eat("[") {
                        let e = self.parse_cond()?;
                        if self.is("...") {
                            return self.fail("unsupported: array range designators");
                        }
                        self.expect("]", "expected ']'")?;
                        designators.push(Designator::Index(e));
                    } else {
                        break;
                    }
                }
                if !designators.is_empty() {
                    self.expect("=", "expected '=' after designator")?;
                }
                let init = self.parse_initializer()?;
                elems.push(InitElem { designators, init });
                if !self.eat(",") {
                    break;
                }
            }
            self.expect("}", "expected '}' at end of initializer list")?;
            Initializer::List(elems, open.to(self.prev_span()))
        } else {
            Initializer::Expr(self.parse_assign()?)
        };
        self.leave();
        Ok(r)
    }

    // ----- statements -----

    /// Parses `{ items }` (the caller manages the scope).
    fn parse_block_items(&mut self) -> PResult<Vec<Stmt>> {
        let open = self.expect("{", "expected '{'")?;
        let mut items = Vec::new();
        while !self.is("}") {
            if self.peek().kind == Kind::End {
                let _ = open;
                return self.fail("expected '}'");
            }
            items.push(self.parse_block_item()?);
        }
        self.bump();
        Ok(items)
    }

    fn parse_block_item(&mut self) -> PResult<Stmt> {
        let t = self.peek();
        if self.is_decl_start(t) && !self.peek_at(1).is(":") {
            let start = t.span;
            let specs = match self.parse_decl_specs()? {
                Some(s) => s,
                None => return self.fail("expected declaration"),
            };
            let d = self.parse_declaration_rest(specs, None, start)?;
            let span = d.span;
            return Ok(Stmt {
                kind: StmtKind::Decl(d),
                span,
            });
        }
        self.parse_statement()
    }

    fn parse_paren_cond(&mut self, kw: &str) -> PResult<Expr> {
        self.expect("(", &format!("expected '(' after '{kw}'"))?;
        let e = self.parse_expr()?;
        self.expect(")", "expected ')'")?;
        Ok(e)
    }

    fn parse_statement(&mut self) -> PResult<Stmt> {
        self.enter("statements")?;
        let t = self.peek();
        let start = t.span;
        let kind = if t.is("{") {
            self.push_scope();
            let items = self.parse_block_items()?;
            self.pop_scope();
            StmtKind::Block(items)
        } else if t.is(";") {
            self.bump();
            StmtKind::Empty
        } else if t.kind == Kind::Ident && is_keyword(&t.text) && !self.is_decl_start(t) {
            match &*t.text {
                "if" => {
                    self.bump();
                    let c = self.parse_paren_cond("if")?;
                    let then = self.parse_statement()?;
                    let els = if self.is_kw("else") {
                        self.bump();
                        Some(Box::new(self.parse_statement()?))
                    } else {
                        None
                    };
                    StmtKind::If(c, Box::new(then), els)
                }
                "while" => {
                    self.bump();
                    let c = self.parse_paren_cond("while")?;
                    StmtKind::While(c, Box::new(self.parse_statement()?))
                }
                "do" => {
                    self.bump();
                    let body = self.parse_statement()?;
                    if !self.is_kw("while") {
                        return self.fail("expected 'while' in do/while loop");
                    }
                    self.bump();
                    let c = self.parse_paren_cond("while")?;
                    self.expect_after(";", "expected ';' after do/while statement")?;
                    StmtKind::DoWhile(Box::new(body), c)
                }
                "for" => {
                    self.bump();
                    self.expect("(", "expected '(' after 'for'")?;
                    self.push_scope();
                    let init = if self.eat(";") {
                        None
                    } else if self.is_decl_start(self.peek()) {
                        let dstart = self.peek().span;
                        let specs = match self.parse_decl_specs()? {
                            Some(s) => s,
                            None => return self.fail("expected declaration"),
                        };
                        Some(ForInit::Decl(
                            self.parse_declaration_rest(specs, None, dstart)?,
                        ))
                    } else {
                        let e = self.parse_expr()?;
                        self.expect_after(";", "expected ';' in 'for' statement specifier")?;
                        Some(ForInit::Expr(e))
                    };
                    let cond = if self.is(";") {
                        None
                    } else {
                        Some(self.parse_expr()?)
                    };
                    self.expect_after(";", "expected ';' in 'for' statement specifier")?;
                    let step = if self.is(")") {
                        None
                    } else {
                        Some(self.parse_expr()?)
                    };
                    self.expect(")", "expected ')'")?;
                    let body = self.parse_statement()?;
                    self.pop_scope();
                    StmtKind::For(init, cond, step, Box::new(body))
                }
                "switch" => {
                    self.bump();
                    let c = self.parse_paren_cond("switch")?;
                    StmtKind::Switch(c, Box::new(self.parse_statement()?))
                }
                "case" | "default" => {
                    let mut labels = Vec::new();
                    loop {
                        if self.is_kw("case") {
                            self.bump();
                            let e = self.parse_cond()?;
                            if self.is("...") {
                                return self.fail("unsupported: case ranges");
                            }
                            self.expect(":", "expected ':' after 'case'")?;
                            labels.push(CaseLabel::Case(e));
                        } else if self.is_kw("default") {
                            let d = self.bump().span;
                            self.expect(":", "expected ':' after 'default'")?;
                            labels.push(CaseLabel::Default(d));
                        } else {
                            break;
                        }
                    }
                    let stmt = if self.is("}") {
                        Stmt {
                            kind: StmtKind::Empty,
                            span: self.prev_span().after(),
                        }
                    } else {
                        self.parse_block_item()?
                    };
                    StmtKind::Labeled(labels, Box::new(stmt))
                }
                "break" => {
                    self.bump();
                    self.expect_after(";", "expected ';' after break statement")?;
                    StmtKind::Break
                }
                "continue" => {
                    self.bump();
                    self.expect_after(";", "expected ';' after continue statement")?;
                    StmtKind::Continue
                }
                "return" => {
                    self.bump();
                    let e = if self.is(";") {
                        None
                    } else {
                        Some(self.parse_expr()?)
                    };
                    self.expect_after(";", "expected ';' after return statement")?;
                    StmtKind::Return(e)
                }
                "goto" => return self.fail("unsupported: goto statement"),
                "asm" | "__asm__" | "__asm" => return self.fail("unsupported: inline assembly"),
                _ => {
                    let e = self.parse_expr()?;
                    self.expect_after(";", "expected ';' after expression")?;
                    StmtKind::Expr(e)
                }
            }
        } else if t.kind == Kind::Ident && !is_keyword(&t.text) && self.peek_at(1).is(":") {
            return self.fail("unsupported: labeled statement");
        } else if self.is_decl_start(t) {
            let specs = match self.parse_decl_specs()? {
                Some(s) => s,
                None => return self.fail("expected declaration"),
            };
            StmtKind::Decl(self.parse_declaration_rest(specs, None, start)?)
        } else {
            let e = self.parse_expr()?;
            self.expect_after(";", "expected ';' after expression")?;
            StmtKind::Expr(e)
        };
        self.leave();
        Ok(Stmt {
            kind,
            span: start.to(self.prev_span()),
        })
    }

    // ----- expressions -----

    fn mk(&self, kind: ExprKind, span: Span) -> PResult<Expr> {
        let depth = kind.depth();
        if depth > MAX_DEPTH {
            return err(span, "expression nested too deeply");
        }
        Ok(Expr { kind, span, depth })
    }

    pub fn parse_expr(&mut self) -> PResult<Expr> {
        let mut e = self.parse_assign()?;
        while self.eat(",") {
            let b = self.parse_assign()?;
            let span = e.span.to(b.span);
            e = self.mk(ExprKind::Comma(Box::new(e), Box::new(b)), span)?;
        }
        Ok(e)
    }

    fn parse_assign(&mut self) -> PResult<Expr> {
        self.enter("expression")?;
        let lhs = self.parse_cond()?;
        let t = self.peek();
        let op = if t.kind == Kind::Punct {
            match &*t.text {
                "=" => Some(None),
                "*=" => Some(Some(BinOp::Mul)),
                "/=" => Some(Some(BinOp::Div)),
                "%=" => Some(Some(BinOp::Rem)),
                "+=" => Some(Some(BinOp::Add)),
                "-=" => Some(Some(BinOp::Sub)),
                "<<=" => Some(Some(BinOp::Shl)),
                ">>=" => Some(Some(BinOp::Shr)),
                "&=" => Some(Some(BinOp::BitAnd)),
                "^=" => Some(Some(BinOp::BitXor)),
                "|=" => Some(Some(BinOp::BitOr)),
                _ => None,
            }
        } else {
            None
        };
        let r = match op {
            Some(op) => {
                self.bump();
                let rhs = self.parse_assign()?;
                let span = lhs.span.to(rhs.span);
                self.mk(ExprKind::Assign(op, Box::new(lhs), Box::new(rhs)), span)?
            }
            None => lhs,
        };
        self.leave();
        Ok(r)
    }

    fn parse_cond(&mut self) -> PResult<Expr> {
        let c = self.parse_binary(1)?;
        if !self.eat("?") {
            return Ok(c);
        }
        let a = self.parse_expr()?;
        self.expect(":", "expected ':'")?;
        let b = self.parse_cond()?;
        let span = c.span.to(b.span);
        self.mk(ExprKind::Cond(Box::new(c), Box::new(a), Box::new(b)), span)
    }

    fn binop(t: &Token) -> Option<(BinOp, u32)> {
        if t.kind != Kind::Punct {
            return None;
        }
        Some(match &*t.text {
            "||" => (BinOp::LogOr, 1),
            "&&" => (BinOp::LogAnd, 2),
            "|" => (BinOp::BitOr, 3),
            "^" => (BinOp::BitXor, 4),
            "&" => (BinOp::BitAnd, 5),
            "==" => (BinOp::Eq, 6),
            "!=" => (BinOp::Ne, 6),
            "<" => (BinOp::Lt, 7),
            ">" => (BinOp::Gt, 7),
            "<=" => (BinOp::Le, 7),
            ">=" => (BinOp::Ge, 7),
            "<<" => (BinOp::Shl, 8),
            ">>" => (BinOp::Shr, 8),
            "+" => (BinOp::Add, 9),
            "-" => (BinOp::Sub, 9),
            "*" => (BinOp::Mul, 10),
            "/" => (BinOp::Div, 10),
            "%" => (BinOp::Rem, 10),
            _ => return None,
        })
    }

    fn parse_binary(&mut self, min: u32) -> PResult<Expr> {
        let mut lhs = self.parse_cast()?;
        while let Some((op, prec)) = Self::binop(self.peek()) {
            if prec < min {
                break;
            }
            self.bump();
            let rhs = self.parse_binary(prec + 1)?;
            let span = lhs.span.to(rhs.span);
            lhs = self.mk(ExprKind::Binary(op, Box::new(lhs), Box::new(rhs)), span)?;
        }
        Ok(lhs)
    }

    fn parse_cast(&mut self) -> PResult<Expr> {
        self.enter("expression")?;
        let r = if self.is("(") && self.is_type_start(self.peek_at(1)) {
            let open = self.bump().span;
            let tn = self.parse_type_name()?;
            self.expect(")", "expected ')'")?;
            if self.is("{") {
                return self.fail("unsupported: compound literals");
            }
            let e = self.parse_cast()?;
            let span = open.to(e.span);
            self.mk(ExprKind::Cast(Box::new(tn), Box::new(e)), span)?
        } else {
            self.parse_unary()?
        };
        self.leave();
        Ok(r)
    }

    fn parse_unary(&mut self) -> PResult<Expr> {
        let t = self.peek();
        let start = t.span;
        if t.kind == Kind::Punct {
            let op = match &*t.text {
                "++" => Some((UnOp::PreInc, false)),
                "--" => Some((UnOp::PreDec, false)),
                "&" => Some((UnOp::AddrOf, true)),
                "*" => Some((UnOp::Deref, true)),
                "+" => Some((UnOp::Plus, true)),
                "-" => Some((UnOp::Neg, true)),
                "~" => Some((UnOp::BitNot, true)),
                "!" => Some((UnOp::Not, true)),
                _ => None,
            };
            if let Some((op, cast)) = op {
                self.bump();
                self.enter("expression")?;
                let e = if cast {
                    self.parse_cast()?
                } else {
                    self.parse_unary()?
                };
                self.leave();
                let span = start.to(e.span);
                return self.mk(ExprKind::Unary(op, Box::new(e)), span);
            }
        }
        if t.is_ident("sizeof") {
            self.bump();
            if self.is("(") && self.is_type_start(self.peek_at(1)) {
                self.bump();
                let tn = self.parse_type_name()?;
                self.expect(")", "expected ')'")?;
                if self.is("{") {
                    return self.fail("unsupported: compound literals");
                }
                let span = start.to(self.prev_span());
                return self.mk(ExprKind::SizeofType(Box::new(tn)), span);
            }
            self.enter("expression")?;
            let e = self.parse_unary()?;
            self.leave();
            let span = start.to(e.span);
            return self.mk(ExprKind::SizeofExpr(Box::new(e)), span);
        }
        if t.is_ident("_Alignof") || t.is_ident("__alignof__") {
            return self.fail("unsupported: _Alignof");
        }
        let e = self.parse_primary()?;
        self.parse_postfix(e)
    }

    fn parse_postfix(&mut self, mut e: Expr) -> PResult<Expr> {
        loop {
            if self.eat("[") {
                let i = self.parse_expr()?;
                self.expect("]", "expected ']'")?;
                let span = e.span.to(self.prev_span());
                e = self.mk(ExprKind::Index(Box::new(e), Box::new(i)), span)?;
            } else if self.eat("(") {
                let mut args = Vec::new();
                if !self.is(")") {
                    loop {
                        args.push(self.parse_assign()?);
                        if !self.eat(",") {
                            break;
                        }
                    }
                }
                self.expect(")", "expected ')'")?;
                let span = e.span.to(self.prev_span());
                e = self.mk(ExprKind::Call(Box::new(e), args), span)?;
            } else if self.is(".") || self.is("->") {
                let arrow = self.bump().is("->");
                let name = self.ident("expected identifier")?;
                let span = e.span.to(name.span);
                e = self.mk(ExprKind::Member(Box::new(e), name, arrow), span)?;
            } else if self.is("++") || self.is("--") {
                let op = if self.bump().is("++") {
                    UnOp::PostInc
                } else {
                    UnOp::PostDec
                };
                let span = e.span.to(self.prev_span());
                e = self.mk(ExprKind::Unary(op, Box::new(e)), span)?;
            } else {
                return Ok(e);
            }
        }
    }

    fn parse_primary(&mut self) -> PResult<Expr> {
        let t = self.peek();
        match t.kind {
            Kind::Ident => {
                if is_keyword(&t.text) {
                    if &*t.text == "_Generic" {
                        return self.fail("unsupported: _Generic");
                    }
                    return self.fail("expected expression");
                }
                self.bump();
                self.mk(ExprKind::Ident(t.text.clone()), t.span)
            }
            Kind::Number => {
                self.bump();
                match parse_number(&t.text) {
                    Ok(Number::Int(v, k)) => self.mk(ExprKind::Int(v, k), t.span),
                    Ok(Number::Float(v, k)) => self.mk(ExprKind::Float(v, k), t.span),
                    Err(m) => err(t.span, m),
                }
            }
            Kind::Char => {
                self.bump();
                match parse_char(&t.text) {
                    Ok(v) => self.mk(ExprKind::Char(v), t.span),
                    Err(m) => err(t.span, m),
                }
            }
            Kind::Str => {
                let mut bytes = Vec::new();
                let mut span = t.span;
                while self.peek().kind == Kind::Str {
                    let s = self.bump();
                    bytes
                        .extend(parse_string(&s.text).map_err(|m| crate::source::diag(s.span, m))?);
                    span = span.to(s.span);
                }
                self.mk(ExprKind::Str(bytes), span)
            }
            Kind::Punct if t.is("(") => {
                self.bump();
                if self.is("{") {
                    return self.fail("unsupported: statement expressions");
                }
                let mut e = self.parse_expr()?;
                self.expect(")", "expected ')'")?;
                e.span = t.span.to(self.prev_span());
                Ok(e)
            }
            _ => self.fail("expected expression"),
        }
    }
}
