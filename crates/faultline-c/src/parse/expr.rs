//! Expressions, by precedence climbing over the binary operators.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn mk(&self, kind: ExprKind, span: Span) -> PResult<Expr> {
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

    pub(super) fn parse_assign(&mut self) -> PResult<Expr> {
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

    pub(super) fn parse_cond(&mut self) -> PResult<Expr> {
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

    pub(super) fn binop(t: &Token) -> Option<(BinOp, u32)> {
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

    pub(super) fn parse_binary(&mut self, min: u32) -> PResult<Expr> {
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

    pub(super) fn parse_cast(&mut self) -> PResult<Expr> {
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

    pub(super) fn parse_unary(&mut self) -> PResult<Expr> {
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
        if t.is_ident("__builtin_offsetof") {
            return self.parse_offsetof(start);
        }
        if t.is_ident("_Alignof") || t.is_ident("__alignof__") {
            return self.fail("unsupported: _Alignof");
        }
        let e = self.parse_primary()?;
        self.parse_postfix(e)
    }

    /// `__builtin_offsetof(type, member [.member | [index]]...)`.
    fn parse_offsetof(&mut self, start: Span) -> PResult<Expr> {
        self.bump();
        self.expect("(", "expected '(' after offsetof")?;
        let tn = self.parse_type_name()?;
        self.expect(",", "expected ',' in offsetof")?;
        let mut parts = vec![OffsetofPart::Member(self.ident("expected a member name")?)];
        loop {
            if self.eat(".") {
                parts.push(OffsetofPart::Member(self.ident("expected a member name")?));
            } else if self.eat("[") {
                let i = self.parse_expr()?;
                self.expect("]", "expected ']'")?;
                parts.push(OffsetofPart::Index(i));
            } else {
                break;
            }
        }
        self.expect(")", "expected ')' after offsetof")?;
        let span = start.to(self.prev_span());
        self.mk(ExprKind::Offsetof(Box::new(tn), parts), span)
    }

    pub(super) fn parse_postfix(&mut self, mut e: Expr) -> PResult<Expr> {
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

    pub(super) fn parse_primary(&mut self) -> PResult<Expr> {
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
