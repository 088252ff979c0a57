//! Declarations: specifiers, struct and enum specifiers, declarators,
//! parameter lists, type names and initializers.

use super::*;

impl<'a> Parser<'a> {
    pub(super) fn skip_attribute(&mut self) -> PResult<()> {
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

    pub(super) fn parse_decl_specs(&mut self) -> PResult<Option<DeclSpecs>> {
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
                "struct" | "union" | "enum" | "__faultline_FILE" => {
                    if base.is_some() || n.iter().any(|&c| c > 0) {
                        return err(t.span, "invalid combination of type specifiers");
                    }
                    base = Some(match word {
                        "struct" | "union" => BaseType::Struct(Rc::new(self.parse_struct_spec()?)),
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
            None => basic_type(n, total, span)?,
        };
        Ok(Some(DeclSpecs {
            storage,
            base,
            is_const,
            implicit_int,
            span,
        }))
    }

    pub(super) fn parse_struct_spec(&mut self) -> PResult<StructSpec> {
        let kw = self.bump();
        let union = &*kw.text == "union";
        let kw_name = if union { "union" } else { "struct" };
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
                    return self.fail(format!(
                        "expected type specifier in {kw_name} member declaration"
                    ));
                };
                if specs.storage.is_some() {
                    return err(
                        specs.span,
                        format!("storage class specified for {kw_name} member"),
                    );
                }
                let mut declarators = Vec::new();
                if self.is(";") {
                    // An anonymous struct or union member (C11): its members
                    // are members of the enclosing one.
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
            return self.fail(format!("expected '{{' or identifier after '{kw_name}'"));
        }
        self.leave();
        Ok(StructSpec {
            union,
            tag,
            fields,
            span: kw.span.to(self.prev_span()),
        })
    }

    pub(super) fn parse_enum_spec(&mut self) -> PResult<EnumSpec> {
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

    pub(super) fn paren_starts_declarator(&self, mode: Mode) -> bool {
        let t = self.peek_at(1);
        if t.is("*") || t.is("(") || t.is("[") {
            return true;
        }
        if t.kind == Kind::Ident && !is_keyword(&t.text) && !self.is_typedef(&t.text) {
            return mode != Mode::Abstract;
        }
        false
    }

    pub(super) fn parse_declarator(&mut self, mode: Mode) -> PResult<Declarator> {
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
    pub(super) fn parse_params(&mut self) -> PResult<ParamList> {
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

    pub(super) fn parse_type_name(&mut self) -> PResult<TypeName> {
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

    pub(super) fn parse_initializer(&mut self) -> PResult<Initializer> {
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
}

/// The type named by counts of the basic type specifiers (in the order
/// void, _Bool, char, short, int, long, float, double, signed, unsigned;
/// `total` is their sum), e.g. `unsigned long int`.
fn basic_type(n: [u32; 10], total: u32, span: Span) -> PResult<BaseType> {
    let [void, boolean, ch, short, int, long, float, double, signed, unsigned] = n;
    let bad = || err(span, "invalid combination of type specifiers");
    if signed + unsigned > 1 {
        return bad();
    }
    let sign = signed + unsigned;
    let u = unsigned == 1;
    use IntKind::*;
    let ty = if void == 1 && total == 1 {
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
    };
    Ok(ty)
}
