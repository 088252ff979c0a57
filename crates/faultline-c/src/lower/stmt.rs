//! Statements and declarations.

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use faultline_ir::*;

use super::decl_ty::DeclTy;
use super::expr::promote;
use super::{Lowerer, SwitchCtx, Sym};
use crate::ast::{self, CaseLabel, Storage};
use crate::source::{err, PResult, Span};

impl Lowerer<'_> {
    fn fctx_mut(&mut self) -> &mut super::FnCtx {
        self.fctx.as_mut().expect("inside a function")
    }

    /// A condition statement.
    fn cond(&mut self, e: &ast::Expr, kind: StmtKind) -> PResult<Cond> {
        let id = self.new_stmt(e.span, kind);
        let expr = self.scalar(e)?;
        Ok(Cond { id, expr })
    }

    /// The body of an `if`, loop or `switch`: its own scope and block.
    fn sub_block(&mut self, s: &ast::Stmt) -> PResult<Block> {
        if let Some(sw) = self.fctx_mut().switches.last_mut() {
            sw.nest += 1;
        }
        self.push_scope();
        let mut b = Vec::new();
        self.stmt(s, &mut b)?;
        self.pop_scope();
        if let Some(sw) = self.fctx_mut().switches.last_mut() {
            sw.nest -= 1;
        }
        Ok(b)
    }

    fn loop_body(&mut self, s: &ast::Stmt) -> PResult<Block> {
        self.fctx_mut().breakables.push(true);
        let b = self.sub_block(s)?;
        self.fctx_mut().breakables.pop();
        Ok(b)
    }

    pub(crate) fn stmt(&mut self, s: &ast::Stmt, out: &mut Block) -> PResult<()> {
        match &s.kind {
            ast::StmtKind::Expr(e) => {
                let id = self.new_stmt(s.span, StmtKind::Expr);
                let expr = self.rv(e)?;
                out.push(Stmt::Expr { id, expr });
            }
            ast::StmtKind::Decl(d) => self.local_decl(d, out)?,
            ast::StmtKind::Block(items) => {
                self.push_scope();
                for it in items {
                    self.stmt(it, out)?;
                }
                self.pop_scope();
            }
            ast::StmtKind::If(c, t, e) => {
                let cond = self.cond(c, StmtKind::IfCond)?;
                let then = self.sub_block(t)?;
                let els = match e {
                    Some(e) => self.sub_block(e)?,
                    None => Vec::new(),
                };
                out.push(Stmt::If { cond, then, els });
            }
            ast::StmtKind::While(c, body) => {
                let cond = self.cond(c, StmtKind::LoopCond)?;
                let body = self.loop_body(body)?;
                out.push(Stmt::While {
                    cond: Some(cond),
                    body,
                    step: None,
                });
            }
            ast::StmtKind::DoWhile(body, c) => {
                let body = self.loop_body(body)?;
                let cond = self.cond(c, StmtKind::DoWhileCond)?;
                out.push(Stmt::DoWhile { body, cond });
            }
            ast::StmtKind::For(init, c, step, body) => {
                self.push_scope();
                match init {
                    Some(ast::ForInit::Expr(e)) => {
                        let id = self.new_stmt(e.span, StmtKind::Expr);
                        let expr = self.rv(e)?;
                        out.push(Stmt::Expr { id, expr });
                    }
                    Some(ast::ForInit::Decl(d)) => self.local_decl(d, out)?,
                    None => {}
                }
                let cond = match c {
                    Some(c) => Some(self.cond(c, StmtKind::LoopCond)?),
                    None => None,
                };
                let step = match step {
                    Some(e) => {
                        let id = self.new_stmt(e.span, StmtKind::Expr);
                        let expr = self.rv(e)?;
                        Some(Box::new(Stmt::Expr { id, expr }))
                    }
                    None => None,
                };
                let body = self.loop_body(body)?;
                self.pop_scope();
                out.push(Stmt::While { cond, body, step });
            }
            ast::StmtKind::Switch(c, body) => {
                let id = self.new_stmt(c.span, StmtKind::SwitchCond);
                let e = self.rv(c)?;
                if !e.ty.is_integer() {
                    return err(
                        c.span,
                        format!(
                            "statement requires expression of integer type ('{}' invalid)",
                            self.type_str(&e.ty)
                        ),
                    );
                }
                let e = promote(e);
                let f = self.fctx_mut();
                f.switches.push(SwitchCtx {
                    ty: e.ty.clone(),
                    cases: Vec::new(),
                    default: None,
                    nest: 0,
                    seen: HashSet::new(),
                });
                f.breakables.push(false);
                self.push_scope();
                let mut b = Vec::new();
                self.stmt(body, &mut b)?;
                self.pop_scope();
                let f = self.fctx_mut();
                f.breakables.pop();
                let sw = f.switches.pop().expect("pushed above");
                out.push(Stmt::Switch {
                    cond: Cond { id, expr: e },
                    body: b,
                    cases: sw.cases,
                    default: sw.default,
                });
            }
            ast::StmtKind::Labeled(labels, st) => {
                for label in labels {
                    self.case_label(label, out.len())?;
                }
                self.stmt(st, out)?;
            }
            ast::StmtKind::Label(name, st) => {
                let label = self.label_id(&name.name);
                let f = self.fctx_mut();
                let entry = f.labels.get_mut(&name.name).expect("just named");
                if entry.1.is_some() {
                    return err(name.span, format!("redefinition of label '{}'", name.name));
                }
                entry.1 = Some(name.span);
                out.push(Stmt::Label { label });
                self.stmt(st, out)?;
            }
            ast::StmtKind::Goto(name) => {
                let label = self.label_id(&name.name);
                let id = self.new_stmt(s.span, StmtKind::Goto);
                self.fctx_mut()
                    .gotos
                    .push((id, name.name.clone(), name.span));
                out.push(Stmt::Goto { id, label });
            }
            ast::StmtKind::Break => {
                if self.fctx_mut().breakables.is_empty() {
                    return err(s.span, "'break' statement not in loop or switch statement");
                }
                let id = self.new_stmt(s.span, StmtKind::Break);
                out.push(Stmt::Break { id });
            }
            ast::StmtKind::Continue => {
                if !self.fctx_mut().breakables.contains(&true) {
                    return err(s.span, "'continue' statement not in loop statement");
                }
                let id = self.new_stmt(s.span, StmtKind::Continue);
                out.push(Stmt::Continue { id });
            }
            ast::StmtKind::Return(e) => {
                let id = self.new_stmt(s.span, StmtKind::Return);
                let ret = self.fctx_mut().ret.clone();
                let value = match e {
                    None => None,
                    Some(e) => {
                        let v = self.rv(e)?;
                        if ret == Type::Void {
                            let name = self.fctx_mut().name.clone();
                            return err(
                                e.span,
                                format!("void function '{name}' should not return a value"),
                            );
                        }
                        Some(self.convert_assign(v, &ret, e.span)?)
                    }
                };
                out.push(Stmt::Return { id, value });
            }
            ast::StmtKind::Empty => {}
        }
        Ok(())
    }

    /// The size of a variable-length array declared by `decl` (`T name[e]`
    /// with `e` not a constant), if it declares one.
    fn vla_size<'d>(&mut self, decl: &'d ast::Declarator) -> Option<&'d ast::Expr> {
        let mut d = decl;
        loop {
            match &d.kind {
                ast::DeclaratorKind::Array {
                    inner,
                    size: Some(size),
                } if matches!(inner.kind, ast::DeclaratorKind::Name(Some(_))) => {
                    let constant = self.const_int(size, "").is_ok();
                    return (!constant).then_some(&**size);
                }
                // `T a[n][3]`: the dimension next to the name may vary.
                ast::DeclaratorKind::Array { inner, .. } => d = inner,
                _ => return None,
            }
        }
    }

    /// `T a[n];`: `a` is a local `T *` initialized with
    /// `(a.len = n, (T *)__builtin_alloca(a.len * sizeof(T)))`, and the hidden
    /// local `a.len` gives `sizeof a` (see [`Lowerer::vla_sizeof`]).
    fn vla_decl(
        &mut self,
        base: DeclTy,
        bconst: bool,
        decl: &ast::Declarator,
        size: &ast::Expr,
        span: Span,
        out: &mut Block,
    ) -> PResult<()> {
        let r = self.resolve_declarator(base, bconst, &without_vla_dim(decl))?;
        let Some(name) = r.name.clone() else {
            return err(decl.span, "expected identifier");
        };
        let DeclTy::Obj(elem) = r.ty else {
            return err(
                name.span,
                "unsupported: variable-length array of this element type",
            );
        };
        self.check_complete(&elem, name.span)?;
        let n = self.scalar(size)?;
        if !n.ty.is_integer() {
            return err(size.span, "size of array has non-integer type");
        }
        let id = self.new_stmt(span, StmtKind::Init);
        let len_name = ast::Ident {
            name: format!("{}.len", name.name).into(),
            span: name.span,
        };
        let len = self.new_local(&len_name, ULONG, false, false)?;
        let ptr_ty = Type::ptr_to(elem.clone());
        let ptr = self.new_local(&name, ptr_ty.clone(), false, false)?;
        self.fctx_mut().vlas.insert(ptr, (len, elem.clone()));
        let set_len = super::expr::assign_local(len, super::expr::cast(n, &ULONG));
        let bytes = Expr {
            kind: ExprKind::Binary(
                BinOp::Mul,
                Box::new(super::expr::load_local(len, &ULONG)),
                Box::new(super::expr::int_const(
                    self.size_of(&elem) as i128,
                    IntKind::ULong,
                )),
            ),
            ty: ULONG,
        };
        let alloc = Expr {
            kind: ExprKind::Builtin {
                func: Builtin::Alloca,
                args: vec![bytes],
            },
            ty: Type::ptr_to(Type::Void),
        };
        let value = Expr {
            kind: ExprKind::Comma(
                Box::new(set_len),
                Box::new(super::expr::cast(alloc, &ptr_ty)),
            ),
            ty: ptr_ty,
        };
        out.push(Stmt::Init {
            id,
            local: ptr,
            init: Initializer {
                items: vec![InitItem { cell: 0, value }],
            },
            zero_fill: false,
        });
        Ok(())
    }

    /// The id of the label called `name` (numbered at its first mention).
    fn label_id(&mut self, name: &Rc<str>) -> LabelId {
        let f = self.fctx_mut();
        let n = f.labels.len() as u32;
        f.labels.entry(name.clone()).or_insert((LabelId(n), None)).0
    }

    fn case_label(&mut self, label: &CaseLabel, target: usize) -> PResult<()> {
        let (span, is_case) = match label {
            CaseLabel::Case(e) => (e.span, true),
            CaseLabel::Default(s) => (*s, false),
        };
        let (nest, ty) = match self.fctx_mut().switches.last() {
            None => {
                let kw = if is_case { "case" } else { "default" };
                return err(span, format!("'{kw}' statement not in switch statement"));
            }
            Some(sw) => (sw.nest, sw.ty.clone()),
        };
        if nest > 0 {
            return err(
                span,
                "unsupported: case label nested inside a block of a switch",
            );
        }
        match label {
            CaseLabel::Case(e) => {
                let v = self.const_int(e, "case label does not reduce to an integer constant")?;
                let k = ty.int_kind().unwrap_or(IntKind::Int);
                let value = k.wrap(v);
                let sw = self.fctx_mut().switches.last_mut().expect("checked");
                if !sw.seen.insert(value) {
                    return err(e.span, format!("duplicate case value '{}'", k.value(value)));
                }
                sw.cases.push(SwitchCase { value, target });
            }
            CaseLabel::Default(s) => {
                let sw = self.fctx_mut().switches.last_mut().expect("checked");
                if sw.default.is_some() {
                    return err(*s, "multiple default labels in one switch");
                }
                sw.default = Some(target);
            }
        }
        Ok(())
    }

    /// Declarations with no declarator: `struct S { ... };`, `struct S;`, `enum E { ... };`.
    fn tag_only_decl(&mut self, d: &ast::Declaration) -> PResult<()> {
        let forward = matches!(&d.specs.base, ast::BaseType::Struct(s) if s.fields.is_none());
        self.base_type(&d.specs, forward)?;
        Ok(())
    }

    fn local_decl(&mut self, d: &ast::Declaration, out: &mut Block) -> PResult<()> {
        if d.items.is_empty() {
            return self.tag_only_decl(d);
        }
        let (base, bconst) = self.base_type(&d.specs, false)?;
        let single = d.items.len() == 1;
        for item in &d.items {
            if d.specs.storage.is_none() || d.specs.storage == Some(Storage::Auto) {
                if let Some(size) = self.vla_size(&item.decl) {
                    if item.init.is_some() {
                        return err(item.span, "variable-sized object may not be initialized");
                    }
                    let span = if single { d.span } else { item.span };
                    self.vla_decl(base.clone(), bconst, &item.decl, size, span, out)?;
                    continue;
                }
            }
            let r = self.resolve_declarator(base.clone(), bconst, &item.decl)?;
            let Some(name) = r.name.clone() else {
                return err(item.decl.span, "expected identifier");
            };
            if d.specs.storage == Some(Storage::Typedef) {
                if item.init.is_some() {
                    return err(item.span, format!("typedef '{}' is initialized", name.name));
                }
                self.name_anonymous_struct(&r.ty, &name.name);
                self.declare(
                    &name,
                    Sym::Typedef {
                        ty: r.ty,
                        is_const: r.is_const,
                    },
                )?;
                continue;
            }
            if let DeclTy::Func(f) = &r.ty {
                if item.init.is_some() {
                    return err(
                        item.span,
                        format!("illegal initializer for function '{}'", name.name),
                    );
                }
                self.declare(&name, Sym::Func { ty: f.clone() })?;
                continue;
            }
            if r.ty == DeclTy::File {
                return err(name.span, "unsupported: FILE objects");
            }
            match d.specs.storage {
                Some(Storage::Extern) => {
                    if item.init.is_some() {
                        return err(
                            item.span,
                            format!("'extern' variable '{}' has an initializer", name.name),
                        );
                    }
                    let (gid, ty) = self.file_global(&name, name.span, r.ty, r.is_const, None)?;
                    self.declare(
                        &name,
                        Sym::Var {
                            var: Var::Global(gid),
                            ty,
                        },
                    )?;
                }
                Some(Storage::Static) => {
                    let fname = self.fctx_mut().name.clone();
                    let gname = self.unique_global_name(format!("{fname}.{}", name.name));
                    let (ty, init) = self.static_object(&name, r.ty, item.init.as_ref())?;
                    let span = if single { d.span } else { item.span };
                    let init_stmt = item
                        .init
                        .is_some()
                        .then(|| self.new_stmt(span, StmtKind::Init));
                    let gid = GlobalId(self.globals.len() as u32);
                    self.globals.push(Global {
                        name: gname,
                        ty: ty.clone(),
                        init,
                        init_stmt,
                        loc: self.files.loc(name.span),
                    });
                    self.global_const.push(r.is_const);
                    self.global_has_init.push(true);
                    self.global_unsized.push(false);
                    self.declare(
                        &name,
                        Sym::Var {
                            var: Var::Global(gid),
                            ty,
                        },
                    )?;
                }
                _ => {
                    let span = if single { d.span } else { item.span };
                    match (&r.ty, &item.init) {
                        (DeclTy::Obj(t), None) => {
                            self.check_complete(t, name.span)?;
                            let id = self.new_local(&name, t.clone(), r.is_const, false)?;
                            if t.is_arithmetic() {
                                let f = self.fctx_mut().id;
                                let at = (self.files.loc(span), self.files.text(span));
                                self.declared.insert((f, id), at);
                            }
                            out.push(Stmt::Declare {
                                id: None,
                                local: id,
                            });
                        }
                        (DeclTy::Obj(t), Some(init)) => {
                            self.check_complete(t, name.span)?;
                            let local = self.new_local(&name, t.clone(), r.is_const, false)?;
                            let id = self.new_stmt(span, StmtKind::Init);
                            let (_, items, zero_fill) = self.initializer(&r.ty, init)?;
                            out.push(Stmt::Init {
                                id,
                                local,
                                init: Initializer { items },
                                zero_fill,
                            });
                        }
                        (DeclTy::IncompleteArray(_), Some(init)) => {
                            let id = self.new_stmt(span, StmtKind::Init);
                            let (t, items, zero_fill) = self.initializer(&r.ty, init)?;
                            let local = self.new_local(&name, t, r.is_const, false)?;
                            out.push(Stmt::Init {
                                id,
                                local,
                                init: Initializer { items },
                                zero_fill,
                            });
                        }
                        (DeclTy::IncompleteArray(_), None) => {
                            return err(
                                name.span,
                                format!(
                                    "definition of variable '{}' with array type needs an explicit size or an initializer",
                                    name.name
                                ),
                            );
                        }
                        _ => return err(name.span, "invalid declaration"),
                    }
                }
            }
        }
        Ok(())
    }

    /// The type and static initializer of a static-storage object.
    fn static_object(
        &mut self,
        name: &ast::Ident,
        ty: DeclTy,
        init: Option<&ast::Initializer>,
    ) -> PResult<(Type, Initializer)> {
        match (ty, init) {
            (DeclTy::Obj(t), None) => {
                self.check_complete(&t, name.span)?;
                Ok((t, Initializer::default()))
            }
            (ty @ (DeclTy::Obj(_) | DeclTy::IncompleteArray(_)), Some(init)) => {
                if let DeclTy::Obj(t) = &ty {
                    self.check_complete(t, name.span)?;
                }
                let saved = self.static_init;
                self.static_init = true;
                let r = self.initializer(&ty, init);
                self.static_init = saved;
                let (t, items, _) = r?;
                Ok((t, Initializer { items }))
            }
            (DeclTy::IncompleteArray(_), None) => err(
                name.span,
                format!("definition of variable '{}' with array type needs an explicit size or an initializer", name.name),
            ),
            _ => err(name.span, "invalid declaration"),
        }
    }

    /// Finds or creates the file-scope global `name` (for `extern` and
    /// file-scope declarations), merging compatible declarations.
    fn file_global(
        &mut self,
        name: &ast::Ident,
        span: Span,
        ty: DeclTy,
        is_const: bool,
        init: Option<&ast::Initializer>,
    ) -> PResult<(GlobalId, Type)> {
        let existing = self.global_by_name.get(&name.name).copied();
        let (elem_unsized, declared) = match &ty {
            DeclTy::Obj(t) => (false, t.clone()),
            DeclTy::IncompleteArray(e) => (true, Type::Array(Box::new(e.clone()), 0)),
            _ => return err(name.span, "invalid declaration"),
        };
        let gid = match existing {
            Some(g) => {
                let old = self.globals[g.index()].ty.clone();
                let compatible = old == declared
                    || match (&old, &declared) {
                        (Type::Array(a, _), Type::Array(b, _)) => {
                            a == b && (self.global_unsized[g.index()] || elem_unsized)
                        }
                        _ => false,
                    };
                if !compatible {
                    return err(
                        name.span,
                        format!("redefinition of '{}' with a different type", name.name),
                    );
                }
                if !elem_unsized && self.global_unsized[g.index()] {
                    self.globals[g.index()].ty = declared.clone();
                    self.global_unsized[g.index()] = false;
                }
                g
            }
            None => {
                if let DeclTy::Obj(t) = &ty {
                    if init.is_none() {
                        self.check_complete(t, name.span)?;
                    }
                }
                let gname = self.unique_global_name(name.name.to_string());
                let g = GlobalId(self.globals.len() as u32);
                self.globals.push(Global {
                    name: gname,
                    ty: declared,
                    init: Initializer::default(),
                    init_stmt: None,
                    loc: self.files.loc(name.span),
                });
                self.global_const.push(is_const);
                self.global_has_init.push(false);
                self.global_unsized.push(elem_unsized);
                self.global_by_name.insert(name.name.clone(), g);
                g
            }
        };
        if let Some(init) = init {
            if self.global_has_init[gid.index()] {
                return err(name.span, format!("redefinition of '{}'", name.name));
            }
            let (t, items) = self.static_object(name, ty, Some(init))?;
            let id = self.new_stmt(span, StmtKind::Init);
            self.file_inits.push(id);
            let g = &mut self.globals[gid.index()];
            g.ty = t;
            g.init = items;
            g.init_stmt = Some(id);
            g.loc = self.files.loc(name.span);
            self.global_has_init[gid.index()] = true;
            self.global_unsized[gid.index()] = false;
        }
        let t = self.globals[gid.index()].ty.clone();
        Ok((gid, t))
    }

    pub(crate) fn global_decl(&mut self, d: &ast::Declaration) -> PResult<()> {
        if d.items.is_empty() {
            return self.tag_only_decl(d);
        }
        if matches!(d.specs.storage, Some(Storage::Auto | Storage::Register)) {
            return err(
                d.specs.span,
                "illegal storage class on file-scoped variable",
            );
        }
        let (base, bconst) = self.base_type(&d.specs, false)?;
        for item in &d.items {
            let r = self.resolve_declarator(base.clone(), bconst, &item.decl)?;
            let Some(name) = r.name.clone() else {
                return err(item.decl.span, "expected identifier");
            };
            if d.specs.storage == Some(Storage::Typedef) {
                if item.init.is_some() {
                    return err(item.span, format!("typedef '{}' is initialized", name.name));
                }
                self.name_anonymous_struct(&r.ty, &name.name);
                self.declare(
                    &name,
                    Sym::Typedef {
                        ty: r.ty,
                        is_const: r.is_const,
                    },
                )?;
                continue;
            }
            if let DeclTy::Func(f) = &r.ty {
                if item.init.is_some() {
                    return err(
                        item.span,
                        format!("illegal initializer for function '{}'", name.name),
                    );
                }
                match self.scopes[0].syms.get(&name.name) {
                    Some(Sym::Func { ty: old }) => {
                        if !super::decl_ty::compatible_funcs(old, f) {
                            return err(
                                name.span,
                                format!("conflicting types for '{}'", name.name),
                            );
                        }
                        // Keep the declaration with a prototype.
                        if old.params.is_some() {
                            continue;
                        }
                    }
                    Some(_) => {
                        return err(
                            name.span,
                            format!(
                                "redefinition of '{}' as different kind of symbol",
                                name.name
                            ),
                        )
                    }
                    None => {}
                }
                if let Some(&fid) = self.func_ids.get(&name.name) {
                    if self.implicit_uses.contains_key(&name.name) && f.ret != INT {
                        return err(name.span, format!("conflicting types for '{}'", name.name));
                    }
                    if let Some(sig) = &self.func_sigs[fid.index()] {
                        if !super::decl_ty::compatible_funcs(sig, f) {
                            return err(
                                name.span,
                                format!("conflicting types for '{}'", name.name),
                            );
                        }
                        continue;
                    }
                }
                self.scopes[0]
                    .syms
                    .insert(name.name.clone(), Sym::Func { ty: f.clone() });
                continue;
            }
            if r.ty == DeclTy::File {
                return err(name.span, "unsupported: FILE objects");
            }
            match self.scopes[0].syms.get(&name.name) {
                None | Some(Sym::Var { .. }) => {}
                Some(_) => {
                    return err(
                        name.span,
                        format!(
                            "redefinition of '{}' as different kind of symbol",
                            name.name
                        ),
                    )
                }
            }
            if self.func_ids.contains_key(&name.name) {
                return err(
                    name.span,
                    format!(
                        "redefinition of '{}' as different kind of symbol",
                        name.name
                    ),
                );
            }
            let span = if d.items.len() == 1 {
                d.span
            } else {
                item.span
            };
            let (gid, ty) = self.file_global(&name, span, r.ty, r.is_const, item.init.as_ref())?;
            self.scopes[0].syms.insert(
                name.name.clone(),
                Sym::Var {
                    var: Var::Global(gid),
                    ty,
                },
            );
        }
        Ok(())
    }
}

/// Checks a function's `goto`s: each label is defined, and in the block of
/// its `goto` or an enclosing one (jumping into a block, a loop or a
/// `switch` is not supported).
pub(super) fn check_gotos(
    body: &Block,
    labels: &HashMap<Rc<str>, (LabelId, Option<Span>)>,
    gotos: &[(StmtId, Rc<str>, Span)],
) -> PResult<()> {
    for (_, name, span) in gotos {
        if labels.get(name).is_none_or(|l| l.1.is_none()) {
            return err(*span, format!("use of undeclared label '{name}'"));
        }
    }
    let mut into = None;
    goto_targets(body, &mut Vec::new(), &mut into);
    if let Some(id) = into {
        let (_, name, span) = gotos
            .iter()
            .find(|g| g.0 == id)
            .expect("every goto is listed");
        return err(
            *span,
            format!("unsupported: goto into a nested block (label '{name}' is not in an enclosing block)"),
        );
    }
    Ok(())
}

/// Finds a `goto` whose label is not in an enclosing block (`open`).
fn goto_targets<'a>(b: &'a [Stmt], open: &mut Vec<&'a [Stmt]>, bad: &mut Option<StmtId>) {
    open.push(b);
    for s in b {
        match s {
            Stmt::Goto { id, label } => {
                let found = open.iter().any(|b| {
                    b.iter()
                        .any(|s| matches!(s, Stmt::Label { label: l } if l == label))
                });
                if !found && bad.is_none() {
                    *bad = Some(*id);
                }
            }
            Stmt::If { then, els, .. } => {
                goto_targets(then, open, bad);
                goto_targets(els, open, bad);
            }
            Stmt::While { body, .. } | Stmt::DoWhile { body, .. } | Stmt::Switch { body, .. } => {
                goto_targets(body, open, bad)
            }
            _ => {}
        }
    }
    open.pop();
}

/// `decl` without its variable dimension (the one next to the name): the
/// declarator of a variable-length array's element.
fn without_vla_dim(decl: &ast::Declarator) -> ast::Declarator {
    match &decl.kind {
        ast::DeclaratorKind::Array { inner, .. }
            if matches!(inner.kind, ast::DeclaratorKind::Name(Some(_))) =>
        {
            (**inner).clone()
        }
        ast::DeclaratorKind::Array { inner, size } => ast::Declarator {
            kind: ast::DeclaratorKind::Array {
                inner: Box::new(without_vla_dim(inner)),
                size: size.clone(),
            },
            span: decl.span,
        },
        _ => decl.clone(),
    }
}
