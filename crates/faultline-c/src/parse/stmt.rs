//! Statements and blocks.

use super::*;

impl<'a> Parser<'a> {
    /// Parses `{ items }` (the caller manages the scope).
    pub(super) fn parse_block_items(&mut self) -> PResult<Vec<Stmt>> {
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

    pub(super) fn parse_block_item(&mut self) -> PResult<Stmt> {
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

    pub(super) fn parse_paren_cond(&mut self, kw: &str) -> PResult<Expr> {
        self.expect("(", &format!("expected '(' after '{kw}'"))?;
        let e = self.parse_expr()?;
        self.expect(")", "expected ')'")?;
        Ok(e)
    }

    pub(super) fn parse_statement(&mut self) -> PResult<Stmt> {
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
                "for" => self.parse_for()?,
                "switch" => {
                    self.bump();
                    let c = self.parse_paren_cond("switch")?;
                    StmtKind::Switch(c, Box::new(self.parse_statement()?))
                }
                "case" | "default" => self.parse_labeled()?,
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
                "goto" => {
                    self.bump();
                    let label = self.ident("expected identifier after 'goto'")?;
                    self.expect_after(";", "expected ';' after goto statement")?;
                    StmtKind::Goto(label)
                }
                "asm" | "__asm__" | "__asm" => return self.fail("unsupported: inline assembly"),
                _ => {
                    let e = self.parse_expr()?;
                    self.expect_after(";", "expected ';' after expression")?;
                    StmtKind::Expr(e)
                }
            }
        } else if t.kind == Kind::Ident && !is_keyword(&t.text) && self.peek_at(1).is(":") {
            let label = self.ident("expected label")?;
            self.bump();
            let inner = if self.is("}") {
                // A label at the end of a block (C23; gcc accepts it).
                Stmt {
                    kind: StmtKind::Empty,
                    span: self.prev_span(),
                }
            } else {
                self.parse_statement()?
            };
            StmtKind::Label(label, Box::new(inner))
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

    /// `for (init; cond; step) body`, the keyword being next; the init's
    /// declarations are scoped to the loop.
    fn parse_for(&mut self) -> PResult<StmtKind> {
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
        Ok(StmtKind::For(init, cond, step, Box::new(body)))
    }

    /// One or more `case`/`default` labels and the statement they label.
    fn parse_labeled(&mut self) -> PResult<StmtKind> {
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
        Ok(StmtKind::Labeled(labels, Box::new(stmt)))
    }
}
