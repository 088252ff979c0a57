//! The preprocessor: directives, conditional inclusion and macro expansion
//! over tokens (Prosser's algorithm with hide sets).
//!
//! Tokens produced by a macro expansion take the span of the whole macro
//! invocation (from the macro's name to the closing parenthesis of its
//! arguments), so that a statement's source text can be cut from the
//! original file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use crate::headers::builtin_header;
use crate::lex::{lex, HideSet, Kind, Token};
use crate::literal::{parse_char, parse_number, Number};
use crate::source::{diag, err, Files, PResult, Span};

const MAX_EXPANSIONS: usize = 500_000;
const MAX_TOKENS: usize = 4_000_000;
const MAX_INCLUDE_DEPTH: usize = 200;
const MAX_ARG_DEPTH: u32 = 100;

struct Macro {
    /// `None` for object-like macros.
    params: Option<Vec<Rc<str>>>,
    variadic: bool,
    body: Vec<Token>,
}

struct CondFrame {
    span: Span,
    /// Whether one of the groups of this conditional has been taken.
    taken: bool,
    seen_else: bool,
}

pub struct Preprocessor<'f> {
    files: &'f mut Files,
    macros: HashMap<Rc<str>, Rc<Macro>>,
    conds: Vec<CondFrame>,
    /// For each open `#include`, the conditional depth when it started.
    includes: Vec<usize>,
    builtin_files: HashMap<String, u32>,
    user_files: HashMap<PathBuf, u32>,
    expansions: usize,
}

/// Checks that `bytes` are UTF-8; otherwise returns the 1-based line and
/// column of the first invalid byte.
pub fn utf8_error_pos(bytes: &[u8]) -> Option<(u32, u32)> {
    match std::str::from_utf8(bytes) {
        Ok(_) => None,
        Err(e) => {
            let off = e.valid_up_to();
            let before = &bytes[..off];
            let line = 1 + before.iter().filter(|&&b| b == b'\n').count() as u32;
            let line_start = before
                .iter()
                .rposition(|&b| b == b'\n')
                .map(|p| p + 1)
                .unwrap_or(0);
            Some((line, (off - line_start) as u32 + 1))
        }
    }
}

/// Preprocesses file `main` of `files` (which must already hold its text).
/// The result ends with a [`Kind::End`] token.
pub fn preprocess(files: &mut Files, main: u32) -> PResult<Vec<Token>> {
    let mut pp = Preprocessor {
        files,
        macros: HashMap::new(),
        conds: Vec::new(),
        includes: Vec::new(),
        builtin_files: HashMap::new(),
        user_files: HashMap::new(),
        expansions: 0,
    };
    pp.predefine();
    pp.run(main)
}

fn push_rev(stack: &mut Vec<Token>, toks: Vec<Token>) {
    stack.extend(toks.into_iter().rev());
}

fn take_line(stack: &mut Vec<Token>) -> Vec<Token> {
    let mut line = Vec::new();
    while let Some(t) = stack.last() {
        if t.bol || t.kind == Kind::End {
            break;
        }
        line.push(stack.pop().expect("checked"));
    }
    line
}

fn hs_contains(h: &HideSet, name: &str) -> bool {
    h.as_ref().is_some_and(|v| v.iter().any(|n| &**n == name))
}

fn hs_add(h: &HideSet, name: &Rc<str>) -> HideSet {
    let mut v: Vec<Rc<str>> = h.as_ref().map(|v| v.to_vec()).unwrap_or_default();
    if !v.iter().any(|n| n == name) {
        v.push(name.clone());
    }
    Some(Rc::new(v))
}

fn hs_union(a: &HideSet, b: &HideSet) -> HideSet {
    match (a, b) {
        (None, x) | (x, None) => x.clone(),
        (Some(x), Some(y)) => {
            let mut v = x.to_vec();
            for n in y.iter() {
                if !v.contains(n) {
                    v.push(n.clone());
                }
            }
            Some(Rc::new(v))
        }
    }
}

fn hs_intersect(a: &HideSet, b: &HideSet) -> HideSet {
    match (a, b) {
        (Some(x), Some(y)) => {
            let v: Vec<Rc<str>> = x.iter().filter(|n| y.contains(n)).cloned().collect();
            if v.is_empty() {
                None
            } else {
                Some(Rc::new(v))
            }
        }
        _ => None,
    }
}

fn join_tokens(toks: &[Token]) -> String {
    let mut s = String::new();
    for (i, t) in toks.iter().enumerate() {
        if i > 0 && t.space {
            s.push(' ');
        }
        s.push_str(&t.text);
    }
    s
}

impl Preprocessor<'_> {
    fn predefine(&mut self) {
        let defs = [
            ("__STDC__", "1"),
            ("__STDC_VERSION__", "201710L"),
            ("__STDC_HOSTED__", "1"),
            ("__x86_64__", "1"),
            ("__LP64__", "1"),
            ("__linux__", "1"),
            ("__unix__", "1"),
            ("__CHAR_BIT__", "8"),
            ("__SIZEOF_INT__", "4"),
            ("__SIZEOF_LONG__", "8"),
            ("__SIZEOF_POINTER__", "8"),
            ("__faultline__", "1"),
        ];
        for (name, value) in defs {
            let mut body = lex(0, value.as_bytes()).unwrap_or_default();
            body.retain(|t| t.kind != Kind::End);
            for t in &mut body {
                t.bol = false;
            }
            self.macros.insert(
                name.into(),
                Rc::new(Macro {
                    params: None,
                    variadic: false,
                    body,
                }),
            );
        }
    }

    fn lex_file(&mut self, id: u32) -> PResult<Vec<Token>> {
        let text = self.files.entries[id as usize].text.clone();
        lex(id, text.as_bytes())
    }

    fn run(&mut self, main: u32) -> PResult<Vec<Token>> {
        let toks = self.lex_file(main)?;
        let mut stack = Vec::new();
        push_rev(&mut stack, toks);
        let mut out = Vec::new();
        while let Some(tok) = stack.pop() {
            if tok.kind == Kind::End {
                if let Some(depth) = self.includes.pop() {
                    if self.conds.len() > depth {
                        let span = self.conds.last().map(|c| c.span).unwrap_or(tok.span);
                        return err(span, "unterminated conditional directive");
                    }
                    continue;
                }
                if let Some(c) = self.conds.last() {
                    return err(c.span, "unterminated conditional directive");
                }
                out.push(tok);
                break;
            }
            if tok.bol && tok.is("#") && tok.hide.is_none() {
                self.directive(tok, &mut stack)?;
                continue;
            }
            if tok.kind == Kind::Ident {
                if let Some(rep) = self.expand(&tok, &mut stack, 0)? {
                    push_rev(&mut stack, rep);
                    if stack.len() > MAX_TOKENS {
                        return err(tok.span, "macro expansion is too large");
                    }
                    continue;
                }
            }
            out.push(tok);
            if out.len() > MAX_TOKENS {
                return err(out[out.len() - 1].span, "program is too large");
            }
        }
        Ok(out)
    }

    // ----- macro expansion -----

    /// Expands the macro invocation starting with `tok` (whose arguments, if
    /// any, are taken from `stack`); `None` when `tok` is not one.
    fn expand(
        &mut self,
        tok: &Token,
        stack: &mut Vec<Token>,
        depth: u32,
    ) -> PResult<Option<Vec<Token>>> {
        if hs_contains(&tok.hide, &tok.text) {
            return Ok(None);
        }
        let Some(m) = self.macros.get(&tok.text).cloned() else {
            let special = match &*tok.text {
                "__LINE__" => Some((Kind::Number, tok.span.line.to_string())),
                "__FILE__" => {
                    let name = self
                        .files
                        .name(tok.span.file)
                        .replace('\\', "\\\\")
                        .replace('"', "\\\"");
                    Some((Kind::Str, format!("\"{name}\"")))
                }
                _ => None,
            };
            return Ok(special.map(|(kind, text)| {
                vec![Token {
                    kind,
                    text: text.into(),
                    span: tok.span,
                    bol: false,
                    space: tok.space,
                    hide: None,
                }]
            }));
        };
        self.expansions += 1;
        if self.expansions > MAX_EXPANSIONS {
            return err(tok.span, "too many macro expansions");
        }
        let (body, span, hs) = match &m.params {
            None => {
                let body = self.subst(&m, &[], depth)?;
                (body, tok.span, hs_add(&tok.hide, &tok.text))
            }
            Some(params) => {
                if !stack.last().is_some_and(|t| t.is("(")) {
                    return Ok(None);
                }
                stack.pop();
                let n = params.len();
                let mut args: Vec<Vec<Token>> = vec![Vec::new()];
                let mut level = 0u32;
                let rparen = loop {
                    let Some(mut t) = stack.pop() else {
                        return err(
                            tok.span,
                            format!("unterminated argument list invoking macro '{}'", tok.text),
                        );
                    };
                    if t.kind == Kind::End {
                        return err(
                            tok.span,
                            format!("unterminated argument list invoking macro '{}'", tok.text),
                        );
                    }
                    if t.is("(") {
                        level += 1;
                    } else if t.is(")") {
                        if level == 0 {
                            break t;
                        }
                        level -= 1;
                    } else if t.is(",") && level == 0 && !(m.variadic && args.len() == n + 1) {
                        args.push(Vec::new());
                        continue;
                    }
                    if t.bol {
                        t.bol = false;
                        t.space = true;
                    }
                    args.last_mut().expect("non-empty").push(t);
                };
                let given = if n == 0 && !m.variadic && args.len() == 1 && args[0].is_empty() {
                    0
                } else {
                    args.len()
                };
                if m.variadic {
                    if given < n {
                        return err(
                            tok.span,
                            format!(
                                "macro '{}' requires {} arguments, but only {} given",
                                tok.text, n, given
                            ),
                        );
                    }
                    while args.len() < n + 1 {
                        args.push(Vec::new());
                    }
                } else if given < n {
                    return err(
                        tok.span,
                        format!(
                            "macro '{}' requires {} arguments, but only {} given",
                            tok.text, n, given
                        ),
                    );
                } else if given > n {
                    return err(
                        tok.span,
                        format!(
                            "macro '{}' passed {} arguments, but takes just {}",
                            tok.text, given, n
                        ),
                    );
                }
                let body = self.subst(&m, &args, depth)?;
                let hs = hs_add(&hs_intersect(&tok.hide, &rparen.hide), &tok.text);
                (body, tok.span.to(rparen.span), hs)
            }
        };
        let mut out = body;
        for (i, t) in out.iter_mut().enumerate() {
            t.span = span;
            t.bol = false;
            t.hide = hs_union(&t.hide, &hs);
            if i == 0 {
                t.space = tok.space;
            }
        }
        Ok(Some(out))
    }

    fn param_index(m: &Macro, t: &Token) -> Option<usize> {
        let params = m.params.as_ref()?;
        if t.kind != Kind::Ident {
            return None;
        }
        if let Some(i) = params.iter().position(|p| *p == t.text) {
            return Some(i);
        }
        if m.variadic && &*t.text == "__VA_ARGS__" {
            return Some(params.len());
        }
        None
    }

    fn subst(&mut self, m: &Macro, args: &[Vec<Token>], depth: u32) -> PResult<Vec<Token>> {
        let body = &m.body;
        let mut expanded: Vec<Option<Vec<Token>>> = vec![None; args.len()];
        let mut out: Vec<Token> = Vec::new();
        let mut i = 0;
        while i < body.len() {
            let t = &body[i];
            if m.params.is_some() && t.is("#") {
                if let Some(p) = body.get(i + 1).and_then(|n| Self::param_index(m, n)) {
                    out.push(stringize(&args[p], t));
                    i += 2;
                    continue;
                }
            }
            if t.is("##") {
                let Some(rhs) = body.get(i + 1) else { break };
                if let Some(p) = Self::param_index(m, rhs) {
                    let arg = &args[p];
                    if let Some(first) = arg.first() {
                        match out.pop() {
                            Some(last) => out.push(paste(&last, first)?),
                            None => out.push(first.clone()),
                        }
                        out.extend(arg[1..].iter().cloned());
                    }
                    i += 2;
                    continue;
                }
                match out.pop() {
                    Some(last) => out.push(paste(&last, rhs)?),
                    None => out.push(rhs.clone()),
                }
                i += 2;
                continue;
            }
            if let Some(p) = Self::param_index(m, t) {
                if body.get(i + 1).is_some_and(|n| n.is("##")) {
                    let arg = &args[p];
                    if arg.is_empty() {
                        if let Some(rhs) = body.get(i + 2) {
                            match Self::param_index(m, rhs) {
                                Some(p2) => out.extend(args[p2].iter().cloned()),
                                None => out.push(rhs.clone()),
                            }
                        }
                        i += 3;
                        continue;
                    }
                    out.extend(arg.iter().cloned());
                    i += 1;
                    continue;
                }
                if expanded[p].is_none() {
                    expanded[p] = Some(self.expand_list(args[p].clone(), depth + 1)?);
                }
                let exp = expanded[p].as_ref().expect("just set");
                let start = out.len();
                out.extend(exp.iter().cloned());
                if let Some(first) = out.get_mut(start) {
                    first.space = t.space;
                }
                i += 1;
                continue;
            }
            out.push(t.clone());
            i += 1;
        }
        Ok(out)
    }

    /// Fully macro-expands a token list (no directives).
    fn expand_list(&mut self, toks: Vec<Token>, depth: u32) -> PResult<Vec<Token>> {
        if depth > MAX_ARG_DEPTH {
            let span = toks.first().map(|t| t.span).unwrap_or_default();
            return err(span, "macro arguments nested too deeply");
        }
        let mut stack = Vec::new();
        push_rev(&mut stack, toks);
        let mut out = Vec::new();
        while let Some(t) = stack.pop() {
            if t.kind == Kind::Ident {
                if let Some(rep) = self.expand(&t, &mut stack, depth)? {
                    push_rev(&mut stack, rep);
                    if stack.len() > MAX_TOKENS {
                        return err(t.span, "macro expansion is too large");
                    }
                    continue;
                }
            }
            out.push(t);
            if out.len() > MAX_TOKENS {
                return err(out[out.len() - 1].span, "macro expansion is too large");
            }
        }
        Ok(out)
    }

    // ----- directives -----

    fn directive(&mut self, hash: Token, stack: &mut Vec<Token>) -> PResult<()> {
        let line = take_line(stack);
        let Some(name) = line.first() else {
            return Ok(());
        };
        if name.kind == Kind::Number {
            return Ok(()); // a line marker such as `# 1 "file.c"`
        }
        if name.kind != Kind::Ident {
            return err(name.span, "invalid preprocessing directive");
        }
        let rest = &line[1..];
        match &*name.text {
            "define" => self.define(name, rest),
            "undef" => {
                let n = self.macro_name(name, rest)?;
                self.macros.remove(&n);
                Ok(())
            }
            "include" => self.include(&hash, name, rest, stack),
            "if" => {
                let v = self.eval_if(rest, name.span)?;
                self.push_cond(hash.span, v, stack)
            }
            "ifdef" | "ifndef" => {
                let n = self.macro_name(name, rest)?;
                let defined = self.is_defined(&n);
                self.push_cond(hash.span, defined == (&*name.text == "ifdef"), stack)
            }
            "elif" | "else" | "endif" => {
                let base = self.includes.last().copied().unwrap_or(0);
                if self.conds.len() <= base {
                    return err(name.span, format!("#{} without #if", name.text));
                }
                let frame = self.conds.last_mut().expect("checked");
                match &*name.text {
                    "endif" => {
                        self.conds.pop();
                        Ok(())
                    }
                    "else" => {
                        if frame.seen_else {
                            return err(name.span, "#else after #else");
                        }
                        frame.seen_else = true;
                        self.skip_group(stack)
                    }
                    _ => {
                        if frame.seen_else {
                            return err(name.span, "#elif after #else");
                        }
                        self.skip_group(stack)
                    }
                }
            }
            "error" => err(
                hash.span.to(line[line.len() - 1].span),
                format!("#error {}", join_tokens(rest)),
            ),
            "warning" | "pragma" | "line" | "ident" | "sccs" | "assert" | "unassert" => Ok(()),
            "include_next" | "import" => err(name.span, format!("unsupported: #{}", name.text)),
            other => err(
                name.span,
                format!("invalid preprocessing directive #{other}"),
            ),
        }
    }

    fn is_defined(&self, name: &str) -> bool {
        self.macros.contains_key(name) || name == "__LINE__" || name == "__FILE__"
    }

    fn macro_name(&self, directive: &Token, rest: &[Token]) -> PResult<Rc<str>> {
        let Some(n) = rest.first() else {
            return err(directive.span, "macro name missing");
        };
        if n.kind != Kind::Ident {
            return err(n.span, "macro name must be an identifier");
        }
        Ok(n.text.clone())
    }

    fn define(&mut self, directive: &Token, rest: &[Token]) -> PResult<()> {
        let name = self.macro_name(directive, rest)?;
        let n = &rest[0];
        if &*name == "defined" {
            return err(n.span, "'defined' cannot be used as a macro name");
        }
        let mut i = 1;
        let mut params = None;
        let mut variadic = false;
        if rest.get(1).is_some_and(|t| t.is("(") && !t.space) {
            i = 2;
            let mut ps: Vec<Rc<str>> = Vec::new();
            if rest.get(i).is_some_and(|t| t.is(")")) {
                i += 1;
            } else {
                loop {
                    let Some(t) = rest.get(i) else {
                        return err(n.span, "missing ')' in macro parameter list");
                    };
                    if t.is("...") {
                        variadic = true;
                        i += 1;
                        if !rest.get(i).is_some_and(|t| t.is(")")) {
                            return err(t.span, "missing ')' in macro parameter list");
                        }
                        i += 1;
                        break;
                    }
                    if t.kind != Kind::Ident {
                        return err(t.span, "invalid macro parameter name");
                    }
                    if ps.contains(&t.text) {
                        return err(
                            t.span,
                            format!("duplicate macro parameter name '{}'", t.text),
                        );
                    }
                    ps.push(t.text.clone());
                    i += 1;
                    match rest.get(i) {
                        Some(x) if x.is(",") => i += 1,
                        Some(x) if x.is(")") => {
                            i += 1;
                            break;
                        }
                        Some(x) if x.is("...") => {
                            return err(x.span, "unsupported: named variadic macro parameters");
                        }
                        Some(x) => {
                            return err(x.span, "expected ',' or ')' in macro parameter list")
                        }
                        None => return err(t.span, "missing ')' in macro parameter list"),
                    }
                }
            }
            params = Some(ps);
        }
        let body: Vec<Token> = rest[i..].to_vec();
        if let Some(t) = body
            .first()
            .filter(|t| t.is("##"))
            .or_else(|| body.last().filter(|t| t.is("##")))
        {
            return err(
                t.span,
                "'##' cannot appear at either end of a macro expansion",
            );
        }
        let m = Macro {
            params,
            variadic,
            body,
        };
        if m.params.is_some() {
            for (k, t) in m.body.iter().enumerate() {
                if t.is("#")
                    && m.body
                        .get(k + 1)
                        .is_none_or(|n| Self::param_index(&m, n).is_none())
                {
                    return err(t.span, "'#' is not followed by a macro parameter");
                }
            }
        }
        self.macros.insert(name, Rc::new(m));
        Ok(())
    }

    fn push_cond(&mut self, span: Span, taken: bool, stack: &mut Vec<Token>) -> PResult<()> {
        self.conds.push(CondFrame {
            span,
            taken,
            seen_else: false,
        });
        if !taken {
            self.skip_group(stack)?;
        }
        Ok(())
    }

    /// Skips tokens until the group of the innermost conditional that should
    /// be taken next (or its `#endif`).
    fn skip_group(&mut self, stack: &mut Vec<Token>) -> PResult<()> {
        let mut depth = 0u32;
        let frame_span = self.conds.last().map(|c| c.span).unwrap_or_default();
        loop {
            let Some(t) = stack.pop() else {
                return err(frame_span, "unterminated conditional directive");
            };
            if t.kind == Kind::End {
                stack.push(t);
                return err(frame_span, "unterminated conditional directive");
            }
            if !(t.bol && t.is("#")) {
                continue;
            }
            let line = take_line(stack);
            let Some(n) = line.first() else { continue };
            match &*n.text {
                "if" | "ifdef" | "ifndef" => depth += 1,
                "endif" => {
                    if depth == 0 {
                        self.conds.pop();
                        return Ok(());
                    }
                    depth -= 1;
                }
                "elif" if depth == 0 => {
                    let (seen_else, taken) = {
                        let f = self.conds.last().expect("inside a conditional");
                        (f.seen_else, f.taken)
                    };
                    if seen_else {
                        return err(n.span, "#elif after #else");
                    }
                    if !taken && self.eval_if(&line[1..], n.span)? {
                        self.conds.last_mut().expect("inside a conditional").taken = true;
                        return Ok(());
                    }
                }
                "else" if depth == 0 => {
                    let f = self.conds.last_mut().expect("inside a conditional");
                    if f.seen_else {
                        return err(n.span, "#else after #else");
                    }
                    f.seen_else = true;
                    if !f.taken {
                        f.taken = true;
                        return Ok(());
                    }
                }
                _ => {}
            }
        }
    }

    fn include(
        &mut self,
        hash: &Token,
        directive: &Token,
        rest: &[Token],
        stack: &mut Vec<Token>,
    ) -> PResult<()> {
        let expanded;
        let mut rest = rest;
        if rest.first().is_some_and(|t| t.kind == Kind::Ident) {
            expanded = self.expand_list(rest.to_vec(), 0)?;
            rest = &expanded;
        }
        let bad = || {
            diag(
                directive.span,
                "#include expects \"FILENAME\" or <FILENAME>",
            )
        };
        let first = rest.first().ok_or_else(bad)?;
        let (name, angled) =
            if first.kind == Kind::Str && first.text.starts_with('"') && first.text.len() >= 2 {
                (first.text[1..first.text.len() - 1].to_string(), false)
            } else if first.is("<") {
                let mut s = String::new();
                let mut closed = false;
                for t in &rest[1..] {
                    if t.is(">") {
                        closed = true;
                        break;
                    }
                    if t.space && !s.is_empty() {
                        s.push(' ');
                    }
                    s.push_str(&t.text);
                }
                if !closed {
                    return Err(bad());
                }
                (s, true)
            } else {
                return Err(bad());
            };
        if self.includes.len() >= MAX_INCLUDE_DEPTH {
            return err(hash.span, "#include nested too deeply");
        }
        let id = if angled {
            match self.builtin_file(&name) {
                Some(id) => id,
                None => return err(first.span, format!("unsupported header <{name}>")),
            }
        } else {
            match self.user_file(hash.span.file, &name, first.span)? {
                Some(id) => id,
                None => match self.builtin_file(&name) {
                    Some(id) => id,
                    None => return err(first.span, format!("'{name}' file not found")),
                },
            }
        };
        let toks = self.lex_file(id)?;
        push_rev(stack, toks);
        self.includes.push(self.conds.len());
        Ok(())
    }

    fn builtin_file(&mut self, name: &str) -> Option<u32> {
        if let Some(&id) = self.builtin_files.get(name) {
            return Some(id);
        }
        let text = builtin_header(name)?;
        let id = self
            .files
            .add(format!("<{name}>"), None, text.to_string(), false);
        self.builtin_files.insert(name.to_string(), id);
        Some(id)
    }

    /// Reads `name` relative to the directory of file `from`; `None` when it does not exist.
    fn user_file(&mut self, from: u32, name: &str, span: Span) -> PResult<Option<u32>> {
        let dir: PathBuf = match self
            .files
            .entries
            .get(from as usize)
            .and_then(|e| e.path.as_ref())
        {
            Some(p) => p.parent().map(Path::to_path_buf).unwrap_or_default(),
            None => return Ok(None),
        };
        let path = if Path::new(name).is_absolute() {
            PathBuf::from(name)
        } else {
            dir.join(name)
        };
        if let Some(&id) = self.user_files.get(&path) {
            return Ok(Some(id));
        }
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return err(span, format!("cannot read file '{name}': {e}")),
        };
        let display = path.to_string_lossy().into_owned();
        if let Some((line, col)) = utf8_error_pos(&bytes) {
            let id = self.files.add(display, Some(path), String::new(), true);
            let at = Span {
                file: id,
                lo: 0,
                hi: 0,
                line,
                col,
                end_line: line,
                end_col: col,
            };
            return err(at, "file is not valid UTF-8");
        }
        let text = String::from_utf8(bytes).unwrap_or_default();
        let id = self.files.add(display, Some(path.clone()), text, true);
        self.user_files.insert(path, id);
        Ok(Some(id))
    }

    // ----- #if expressions -----

    fn eval_if(&mut self, toks: &[Token], span: Span) -> PResult<bool> {
        let mut v: Vec<Token> = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            if t.is_ident("defined") {
                let (name, next) = if toks.get(i + 1).is_some_and(|x| x.is("(")) {
                    if !toks.get(i + 3).is_some_and(|x| x.is(")")) {
                        return err(t.span, "missing ')' after 'defined'");
                    }
                    (toks.get(i + 2), i + 4)
                } else {
                    (toks.get(i + 1), i + 2)
                };
                let Some(name) = name.filter(|n| n.kind == Kind::Ident) else {
                    return err(t.span, "macro name must be an identifier");
                };
                let val = if self.is_defined(&name.text) {
                    "1"
                } else {
                    "0"
                };
                v.push(Token {
                    kind: Kind::Number,
                    text: val.into(),
                    ..t.clone()
                });
                i = next;
                continue;
            }
            v.push(t.clone());
            i += 1;
        }
        let expanded = self.expand_list(v, 0)?;
        if expanded.is_empty() {
            return err(span, "#if with no expression");
        }
        let mut p = IfParser {
            toks: &expanded,
            pos: 0,
            end: span,
            depth: 0,
        };
        let val = p.cond(true)?;
        if let Some(t) = expanded.get(p.pos) {
            return err(
                t.span,
                format!(
                    "token '{}' is not valid in preprocessor expressions",
                    t.text
                ),
            );
        }
        Ok(val.v != 0)
    }
}

fn stringize(arg: &[Token], hash: &Token) -> Token {
    let mut s = String::from("\"");
    for (k, t) in arg.iter().enumerate() {
        if k > 0 && t.space {
            s.push(' ');
        }
        if t.kind == Kind::Str || t.kind == Kind::Char {
            for ch in t.text.chars() {
                if ch == '"' || ch == '\\' {
                    s.push('\\');
                }
                s.push(ch);
            }
        } else {
            s.push_str(&t.text);
        }
    }
    s.push('"');
    Token {
        kind: Kind::Str,
        text: s.into(),
        span: hash.span,
        bol: false,
        space: hash.space,
        hide: None,
    }
}

fn paste(a: &Token, b: &Token) -> PResult<Token> {
    let text = format!("{}{}", a.text, b.text);
    let toks = lex(a.span.file, text.as_bytes()).unwrap_or_default();
    if toks.len() == 2 && *toks[0].text == *text && toks[0].kind != Kind::Other {
        Ok(Token {
            kind: toks[0].kind,
            text: text.into(),
            span: a.span,
            bol: false,
            space: a.space,
            hide: a.hide.clone(),
        })
    } else {
        err(
            a.span,
            format!("pasting formed '{text}', an invalid preprocessing token"),
        )
    }
}

#[derive(Clone, Copy)]
struct PVal {
    v: i128,
    unsigned: bool,
}

impl PVal {
    fn int(v: i128) -> PVal {
        PVal { v, unsigned: false }
    }
    fn norm(v: i128, unsigned: bool) -> PVal {
        let v = if unsigned {
            v as u64 as i128
        } else {
            v as i64 as i128
        };
        PVal { v, unsigned }
    }
}

struct IfParser<'a> {
    toks: &'a [Token],
    pos: usize,
    end: Span,
    depth: u32,
}

impl IfParser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.pos)
    }
    fn eat(&mut self, p: &str) -> bool {
        if self.peek().is_some_and(|t| t.is(p)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn here(&self) -> Span {
        self.peek().map(|t| t.span).unwrap_or(self.end)
    }

    fn cond(&mut self, live: bool) -> PResult<PVal> {
        self.depth += 1;
        if self.depth > 200 {
            return err(self.here(), "#if expression nested too deeply");
        }
        let c = self.binary(0, live)?;
        let r = if self.eat("?") {
            let a = self.cond(live && c.v != 0)?;
            if !self.eat(":") {
                return err(self.here(), "expected ':' in preprocessor expression");
            }
            let b = self.cond(live && c.v == 0)?;
            let u = a.unsigned || b.unsigned;
            PVal::norm(if c.v != 0 { a.v } else { b.v }, u)
        } else {
            c
        };
        self.depth -= 1;
        Ok(r)
    }

    fn prec(t: &Token) -> Option<u8> {
        if t.kind != Kind::Punct {
            return None;
        }
        Some(match &*t.text {
            "||" => 1,
            "&&" => 2,
            "|" => 3,
            "^" => 4,
            "&" => 5,
            "==" | "!=" => 6,
            "<" | ">" | "<=" | ">=" => 7,
            "<<" | ">>" => 8,
            "+" | "-" => 9,
            "*" | "/" | "%" => 10,
            _ => return None,
        })
    }

    fn binary(&mut self, min: u8, live: bool) -> PResult<PVal> {
        let mut lhs = self.unary(live)?;
        while let Some(t) = self.peek() {
            let Some(p) = Self::prec(t) else { break };
            if p < min {
                break;
            }
            let op = t.text.clone();
            let span = t.span;
            self.pos += 1;
            let rlive = match &*op {
                "&&" => live && lhs.v != 0,
                "||" => live && lhs.v == 0,
                _ => live,
            };
            let rhs = self.binary(p + 1, rlive)?;
            lhs = apply(&op, lhs, rhs, live, span)?;
        }
        Ok(lhs)
    }

    fn unary(&mut self, live: bool) -> PResult<PVal> {
        self.depth += 1;
        if self.depth > 200 {
            return err(self.here(), "#if expression nested too deeply");
        }
        let r = self.unary_inner(live);
        self.depth -= 1;
        r
    }

    fn unary_inner(&mut self, live: bool) -> PResult<PVal> {
        let Some(t) = self.peek().cloned() else {
            return err(self.end, "expected value in preprocessor expression");
        };
        self.pos += 1;
        match t.kind {
            Kind::Punct => match &*t.text {
                "(" => {
                    let v = self.cond(live)?;
                    if !self.eat(")") {
                        return err(self.here(), "expected ')' in preprocessor expression");
                    }
                    Ok(v)
                }
                "+" => self.unary(live),
                "-" => {
                    let v = self.unary(live)?;
                    Ok(PVal::norm(v.v.wrapping_neg(), v.unsigned))
                }
                "~" => {
                    let v = self.unary(live)?;
                    Ok(PVal::norm(!v.v, v.unsigned))
                }
                "!" => {
                    let v = self.unary(live)?;
                    Ok(PVal::int((v.v == 0) as i128))
                }
                _ => err(
                    t.span,
                    format!(
                        "token '{}' is not valid in preprocessor expressions",
                        t.text
                    ),
                ),
            },
            Kind::Number => match parse_number(&t.text) {
                Ok(Number::Int(v, k)) => Ok(PVal::norm(v as i128, !k.signed())),
                Ok(Number::Float(..)) => {
                    err(t.span, "floating constant in preprocessor expression")
                }
                Err(m) => err(t.span, m),
            },
            Kind::Char => parse_char(&t.text)
                .map(|v| PVal::int(v as i128))
                .map_err(|m| diag(t.span, m)),
            Kind::Ident => Ok(PVal::int(0)),
            _ => err(
                t.span,
                format!(
                    "token '{}' is not valid in preprocessor expressions",
                    t.text
                ),
            ),
        }
    }
}

fn apply(op: &str, a: PVal, b: PVal, live: bool, span: Span) -> PResult<PVal> {
    let u = a.unsigned || b.unsigned;
    let (x, y) = (a.v, b.v);
    let as_u = |v: i128| v as u64;
    let as_s = |v: i128| v as i64;
    Ok(match op {
        "||" => PVal::int((x != 0 || y != 0) as i128),
        "&&" => PVal::int((x != 0 && y != 0) as i128),
        "|" => PVal::norm(x | y, u),
        "^" => PVal::norm(x ^ y, u),
        "&" => PVal::norm(x & y, u),
        "==" => PVal::int((PVal::norm(x, u).v == PVal::norm(y, u).v) as i128),
        "!=" => PVal::int((PVal::norm(x, u).v != PVal::norm(y, u).v) as i128),
        "<" | ">" | "<=" | ">=" => {
            let (x, y) = (PVal::norm(x, u).v, PVal::norm(y, u).v);
            let r = match op {
                "<" => x < y,
                ">" => x > y,
                "<=" => x <= y,
                _ => x >= y,
            };
            PVal::int(r as i128)
        }
        "<<" => PVal::norm(((as_u(x)) << (y as u64 & 63)) as i128, a.unsigned),
        ">>" => {
            if a.unsigned {
                PVal::norm((as_u(x) >> (y as u64 & 63)) as i128, true)
            } else {
                PVal::norm((as_s(x) >> (y as u64 & 63)) as i128, false)
            }
        }
        "+" => PVal::norm(x.wrapping_add(y), u),
        "-" => PVal::norm(x.wrapping_sub(y), u),
        "*" => PVal::norm(x.wrapping_mul(y), u),
        "/" | "%" => {
            if y == 0 {
                if live {
                    return err(span, "division by zero in preprocessor expression");
                }
                return Ok(PVal::int(0));
            }
            if u {
                let (x, y) = (as_u(x), as_u(y));
                PVal::norm(if op == "/" { x / y } else { x % y } as i128, true)
            } else {
                let (x, y) = (as_s(x), as_s(y));
                PVal::norm(
                    if op == "/" {
                        x.wrapping_div(y)
                    } else {
                        x.wrapping_rem(y)
                    } as i128,
                    false,
                )
            }
        }
        _ => {
            return err(
                span,
                format!("token '{op}' is not valid in preprocessor expressions"),
            )
        }
    })
}
