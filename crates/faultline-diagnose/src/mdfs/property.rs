//! The property P at the failure point, as the user states it (`--property`).
//!
//! The language: comparisons `a OP b` (`==`, `!=`, `<`, `<=`, `>`, `>=`) of
//! integer literals and variable names, combined by `&&`, `||`, `!` and
//! parentheses, with C's precedence (`!` binds tightest, then comparisons,
//! then `&&`, then `||`). A name denotes the value the failing run's *last*
//! assignment to that variable stored before the failure point (that
//! assignment must still be reached; see [`crate::mdfs`]).

use faultline_ir::CmpOp;
use std::fmt;

/// A term of a comparison.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Term {
    Int(i64),
    Var(String),
}

/// A property.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Prop {
    Cmp(CmpOp, Term, Term),
    And(Box<Prop>, Box<Prop>),
    Or(Box<Prop>, Box<Prop>),
    Not(Box<Prop>),
}

impl Prop {
    /// The variable names the property mentions, in order of first mention.
    pub fn vars(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        self.visit_vars(&mut |v| {
            if !out.iter().any(|o| o == v) {
                out.push(v.to_string());
            }
        });
        out
    }
    fn visit_vars(&self, f: &mut dyn FnMut(&str)) {
        match self {
            Prop::Cmp(_, a, b) => {
                for t in [a, b] {
                    if let Term::Var(v) = t {
                        f(v)
                    }
                }
            }
            Prop::And(a, b) | Prop::Or(a, b) => {
                a.visit_vars(f);
                b.visit_vars(f);
            }
            Prop::Not(a) => a.visit_vars(f),
        }
    }
}

fn op_str(op: CmpOp) -> &'static str {
    match op {
        CmpOp::Eq => "==",
        CmpOp::Ne => "!=",
        CmpOp::Lt => "<",
        CmpOp::Le => "<=",
        CmpOp::Gt => ">",
        CmpOp::Ge => ">=",
    }
}

impl fmt::Display for Term {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Term::Int(i) => write!(f, "{i}"),
            Term::Var(v) => f.write_str(v),
        }
    }
}

impl fmt::Display for Prop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Prop::Cmp(op, a, b) => write!(f, "{a} {} {b}", op_str(*op)),
            Prop::And(a, b) => write!(f, "({a} && {b})"),
            Prop::Or(a, b) => write!(f, "({a} || {b})"),
            Prop::Not(a) => write!(f, "!({a})"),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Int(i64),
    Ident(String),
    Op(&'static str),
    End,
}

struct Parser {
    toks: Vec<(Tok, usize)>,
    pos: usize,
}

/// Parses a property; errors name the column (1-based) and what is wrong.
pub fn parse(src: &str) -> Result<Prop, String> {
    let toks = lex(src)?;
    let mut p = Parser { toks, pos: 0 };
    let prop = p.or()?;
    match p.peek() {
        (Tok::End, _) => Ok(prop),
        (t, c) => Err(format!("unexpected {} at column {c}", describe(&t))),
    }
}

fn describe(t: &Tok) -> String {
    match t {
        Tok::Int(i) => format!("`{i}`"),
        Tok::Ident(s) => format!("`{s}`"),
        Tok::Op(o) => format!("`{o}`"),
        Tok::End => "end of the property".into(),
    }
}

fn lex(src: &str) -> Result<Vec<(Tok, usize)>, String> {
    let b = src.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        let col = i + 1;
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() {
            let s = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let v: i64 = src[s..i]
                .parse()
                .map_err(|_| format!("integer `{}` out of range at column {col}", &src[s..i]))?;
            out.push((Tok::Int(v), col));
        } else if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((Tok::Ident(src[s..i].to_string()), col));
        } else {
            let two = src.get(i..i + 2).unwrap_or("");
            let op: &'static str = match two {
                "==" => "==",
                "!=" => "!=",
                "<=" => "<=",
                ">=" => ">=",
                "&&" => "&&",
                "||" => "||",
                _ => match c {
                    b'<' => "<",
                    b'>' => ">",
                    b'!' => "!",
                    b'(' => "(",
                    b')' => ")",
                    b'-' => "-",
                    _ => {
                        let ch = src[i..].chars().next().unwrap_or('?');
                        return Err(format!("unexpected character `{ch}` at column {col}"));
                    }
                },
            };
            i += op.len();
            out.push((Tok::Op(op), col));
        }
    }
    out.push((Tok::End, src.len() + 1));
    Ok(out)
}

impl Parser {
    fn peek(&self) -> (Tok, usize) {
        self.toks[self.pos].clone()
    }
    fn eat(&mut self, op: &str) -> bool {
        if self.toks[self.pos].0
            == Tok::Op(match op {
                "&&" => "&&",
                "||" => "||",
                "!" => "!",
                "(" => "(",
                ")" => ")",
                _ => "-",
            })
        {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn or(&mut self) -> Result<Prop, String> {
        let mut l = self.and()?;
        while self.eat("||") {
            let r = self.and()?;
            l = Prop::Or(Box::new(l), Box::new(r));
        }
        Ok(l)
    }
    fn and(&mut self) -> Result<Prop, String> {
        let mut l = self.unary()?;
        while self.eat("&&") {
            let r = self.unary()?;
            l = Prop::And(Box::new(l), Box::new(r));
        }
        Ok(l)
    }
    fn unary(&mut self) -> Result<Prop, String> {
        if self.eat("!") {
            return Ok(Prop::Not(Box::new(self.unary()?)));
        }
        // A parenthesized property (a parenthesized term is not supported).
        if self.eat("(") {
            let p = self.or()?;
            if !self.eat(")") {
                let (t, c) = self.peek();
                return Err(format!(
                    "expected `)` at column {c}, found {}",
                    describe(&t)
                ));
            }
            return Ok(p);
        }
        let a = self.term()?;
        let (t, c) = self.peek();
        let op = match t {
            Tok::Op("==") => CmpOp::Eq,
            Tok::Op("!=") => CmpOp::Ne,
            Tok::Op("<") => CmpOp::Lt,
            Tok::Op("<=") => CmpOp::Le,
            Tok::Op(">") => CmpOp::Gt,
            Tok::Op(">=") => CmpOp::Ge,
            t => {
                return Err(format!(
                    "expected a comparison operator at column {c}, found {}",
                    describe(&t)
                ))
            }
        };
        self.pos += 1;
        let b = self.term()?;
        Ok(Prop::Cmp(op, a, b))
    }
    fn term(&mut self) -> Result<Term, String> {
        let neg = self.eat("-");
        let (t, c) = self.peek();
        let r = match t {
            Tok::Int(i) => Term::Int(if neg { -i } else { i }),
            Tok::Ident(s) if !neg => Term::Var(s),
            t => {
                return Err(format!(
                    "expected a number or a variable at column {c}, found {}",
                    describe(&t)
                ))
            }
        };
        self.pos += 1;
        Ok(r)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_with_precedence() {
        let p = parse("m == 2 || !(x > z) && y != -1").unwrap();
        assert_eq!(p.to_string(), "(m == 2 || (!(x > z) && y != -1))");
        assert_eq!(p.vars(), vec!["m", "x", "z", "y"]);
    }

    #[test]
    fn errors_name_the_column() {
        assert_eq!(
            parse("m = 2").unwrap_err(),
            "unexpected character `=` at column 3"
        );
        assert_eq!(
            parse("m == ").unwrap_err(),
            "expected a number or a variable at column 6, found end of the property"
        );
        assert_eq!(
            parse("(m == 2").unwrap_err(),
            "expected `)` at column 8, found end of the property"
        );
        assert_eq!(
            parse("m 2").unwrap_err(),
            "expected a comparison operator at column 3, found `2`"
        );
        assert_eq!(parse("m == 2 x").unwrap_err(), "unexpected `x` at column 8");
    }
}
