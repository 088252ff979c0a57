//! Type checking and lowering of the syntax tree to faultline's IR.

mod builtins;
mod calls;
mod consts;
mod decl_ty;
mod expr;
mod indirect;
mod init;
mod insert;
mod offsetof;
mod stmt;
mod types;

use std::collections::{HashMap, HashSet};
use std::rc::Rc;

use faultline_ir::visit::{for_each_stmt_mut, stmt_exprs_mut, walk_expr_mut, VisitorMut};
use faultline_ir::*;

use crate::ast;
use crate::source::{err, Files, PResult, Span};

pub(crate) use decl_ty::{DeclTy, FuncTy};

/// An ordinary identifier's meaning.
#[derive(Clone, Debug)]
pub(crate) enum Sym {
    Var {
        var: Var,
        ty: Type,
    },
    /// A function declaration (or definition) visible here.
    Func {
        ty: Rc<FuncTy>,
    },
    EnumConst(i64),
    Typedef {
        ty: DeclTy,
        is_const: bool,
    },
}

#[derive(Clone, Copy, Debug)]
pub(crate) enum Tag {
    Struct(StructId),
    Enum { defined: bool },
}

#[derive(Default)]
pub(crate) struct Scope {
    syms: HashMap<Rc<str>, Sym>,
    tags: HashMap<Rc<str>, Tag>,
}

pub(crate) struct SwitchCtx {
    ty: Type,
    cases: Vec<SwitchCase>,
    default: Option<usize>,
    /// How many if/loop bodies deep inside the switch body we are.
    nest: u32,
    seen: HashSet<i64>,
}

pub(crate) struct FnCtx {
    id: FuncId,
    name: Rc<str>,
    ret: Type,
    locals: Vec<Local>,
    local_const: Vec<bool>,
    cur_stmt: Option<StmtId>,
    /// Enclosing loops (`true`) and switches (`false`).
    breakables: Vec<bool>,
    switches: Vec<SwitchCtx>,
    /// A hidden local holding the argument of a classifier without a `Builtin` (`isprint`, ...).
    ctype_tmp: Option<LocalId>,
    /// The function's labels by name, with where each is defined.
    labels: HashMap<Rc<str>, (LabelId, Option<Span>)>,
    /// Every `goto`: its statement, label name and span.
    gotos: Vec<(StmtId, Rc<str>, Span)>,
    /// Variable-length arrays: the `T *` local standing for each, with its
    /// length's hidden local and its element type.
    vlas: HashMap<LocalId, (LocalId, Type)>,
}

/// A call of a function whose parameter types were unknown at the call
/// (no prototype in scope, defined later): its arguments are converted once
/// the definition has been lowered.
struct Fixup {
    site: CallSiteId,
    func: FuncId,
    name: Rc<str>,
    args: Vec<(Expr, Span)>,
    span: Span,
}

pub(crate) struct Lowerer<'f> {
    files: &'f Files,
    structs: Vec<StructDef>,
    struct_complete: Vec<bool>,
    struct_depth: Vec<u32>,
    globals: Vec<Global>,
    global_const: Vec<bool>,
    /// File-scope globals by name, with whether they have been given an initializer.
    global_by_name: HashMap<Rc<str>, GlobalId>,
    global_has_init: Vec<bool>,
    /// The statements of file-scope initializers (see `Global::init_stmt`).
    file_inits: Vec<StmtId>,
    /// Globals declared with an array type of unknown size (`extern int a[];`).
    global_unsized: Vec<bool>,
    global_names: HashSet<String>,
    functions: Vec<Function>,
    func_ids: HashMap<Rc<str>, FuncId>,
    func_sigs: Vec<Option<Rc<FuncTy>>>,
    strings: Vec<Vec<u8>>,
    stmts: Vec<StmtInfo>,
    call_sites: Vec<CallSiteInfo>,
    scopes: Vec<Scope>,
    fctx: Option<FnCtx>,
    fixups: Vec<Fixup>,
    /// Functions called through an implicit (C89) declaration, with the first call.
    implicit_uses: HashMap<Rc<str>, Span>,
    /// Inside `sizeof` or a constant expression: nothing is registered.
    uneval: u32,
    /// Lowering a static initializer: values must be constants.
    static_init: bool,
    main_file_span: Span,
    /// Declarations of arithmetic locals without an initializer (see `insert`).
    declared: insert::Declared,
}

impl Layout for Lowerer<'_> {
    fn struct_def(&self, id: StructId) -> &StructDef {
        &self.structs[id.0 as usize]
    }
}

/// Lowers a parsed translation unit.
pub(crate) fn lower(files: &Files, items: &[ast::Item], main_file: u32) -> PResult<Program> {
    let main_file_span = Span {
        file: main_file,
        lo: 0,
        hi: 0,
        line: 1,
        col: 1,
        end_line: 1,
        end_col: 1,
    };
    let mut l = Lowerer {
        files,
        structs: Vec::new(),
        struct_complete: Vec::new(),
        struct_depth: Vec::new(),
        globals: Vec::new(),
        global_const: Vec::new(),
        global_by_name: HashMap::new(),
        global_has_init: Vec::new(),
        file_inits: Vec::new(),
        global_unsized: Vec::new(),
        global_names: HashSet::new(),
        functions: Vec::new(),
        func_ids: HashMap::new(),
        func_sigs: Vec::new(),
        strings: Vec::new(),
        stmts: Vec::new(),
        call_sites: Vec::new(),
        scopes: vec![Scope::default()],
        fctx: None,
        fixups: Vec::new(),
        implicit_uses: HashMap::new(),
        uneval: 0,
        static_init: false,
        main_file_span,
        declared: HashMap::new(),
    };
    // Every function defined anywhere in the file can be called from anywhere.
    for item in items {
        if let ast::Item::Func(f) = item {
            let Some(name) = f.decl.name() else { continue };
            if l.func_ids.contains_key(&name.name) {
                return err(name.span, format!("redefinition of '{}'", name.name));
            }
            let id = FuncId(l.functions.len() as u32);
            l.func_ids.insert(name.name.clone(), id);
            l.functions.push(Function {
                name: name.name.to_string(),
                ret: Type::Void,
                params: Vec::new(),
                locals: Vec::new(),
                body: Vec::new(),
                loc: files.loc(name.span),
            });
            l.func_sigs.push(None);
        }
    }
    for item in items {
        match item {
            ast::Item::Decl(d) => l.global_decl(d)?,
            ast::Item::Func(f) => l.function(f)?,
        }
    }
    l.apply_fixups()?;
    let Some(&main) = l.func_ids.get("main") else {
        return err(l.main_file_span, "no 'main' function defined");
    };
    for (i, unsized_) in l.global_unsized.iter().enumerate() {
        if *unsized_ {
            // A tentative definition `T a[];` defines a one-element array.
            if let Type::Array(_, n) = &mut l.globals[i].ty {
                *n = 1;
            }
        }
    }
    let file_inits = std::mem::take(&mut l.file_inits);
    let mut program = Program {
        files: files
            .entries
            .iter()
            .filter(|e| e.program_id.is_some())
            .map(|e| SourceFile {
                name: e.name.clone(),
                text: e.text.clone(),
            })
            .collect(),
        structs: l.structs,
        globals: l.globals,
        functions: l.functions,
        strings: l.strings,
        stmts: l.stmts,
        call_sites: l.call_sites,
        main,
    };
    // A file-scope initializer runs before `main`, as if at its start.
    for id in file_inits {
        program.stmts[id.index()].func = main;
    }
    indirect::resolve(&mut program);
    analysis::compute(&mut program);
    insert::add(&mut program, &l.declared);
    analysis::compute(&mut program);
    Ok(program)
}

impl<'f> Lowerer<'f> {
    // ----- scopes -----

    fn push_scope(&mut self) {
        self.scopes.push(Scope::default());
    }

    fn pop_scope(&mut self) {
        if self.scopes.len() > 1 {
            self.scopes.pop();
        }
    }

    fn lookup(&self, name: &str) -> Option<&Sym> {
        self.scopes.iter().rev().find_map(|s| s.syms.get(name))
    }

    fn lookup_tag(&self, name: &str) -> Option<Tag> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.tags.get(name).copied())
    }

    fn current_scope(&mut self) -> &mut Scope {
        self.scopes.last_mut().expect("at least the file scope")
    }

    /// Declares `name` in the current scope; redeclaring an object or
    /// constant in the same scope is an error.
    fn declare(&mut self, name: &ast::Ident, sym: Sym) -> PResult<()> {
        let scope = self.current_scope();
        if let Some(old) = scope.syms.get(&name.name) {
            let ok = match (old, &sym) {
                (Sym::Typedef { ty: a, .. }, Sym::Typedef { ty: b, .. }) => a == b,
                (Sym::Func { .. }, Sym::Func { .. }) => true,
                _ => false,
            };
            if !ok {
                return err(name.span, format!("redefinition of '{}'", name.name));
            }
        }
        scope.syms.insert(name.name.clone(), sym);
        Ok(())
    }

    fn type_str(&self, t: &Type) -> String {
        self.type_name(t)
    }

    // ----- statements and call sites -----

    fn new_stmt(&mut self, span: Span, kind: StmtKind) -> StmtId {
        let id = StmtId(self.stmts.len() as u32);
        let func = self.fctx.as_ref().map(|f| f.id).unwrap_or(FuncId(0));
        self.stmts.push(StmtInfo {
            loc: self.files.loc(span),
            text: self.files.text(span),
            kind,
            func,
            defs: Vec::new(),
            uses: Vec::new(),
            calls: Vec::new(),
            control: Vec::new(),
        });
        if let Some(f) = self.fctx.as_mut() {
            f.cur_stmt = Some(id);
        }
        id
    }

    fn new_call_site(&mut self, func: FuncId, span: Span) -> PResult<CallSiteId> {
        let stmt = match self.fctx.as_ref().and_then(|f| f.cur_stmt) {
            Some(s) if !self.static_init => s,
            _ if self.uneval > 0 => StmtId(0),
            _ => return err(span, "initializer element is not a compile-time constant"),
        };
        let id = CallSiteId(self.call_sites.len() as u32);
        self.call_sites.push(CallSiteInfo {
            stmt,
            func,
            relax_args: false,
            prints_only: false,
        });
        Ok(id)
    }

    /// Runs `f` in an unevaluated context (`sizeof`, constant expressions):
    /// call sites, strings and fixups it creates are dropped.
    fn unevaluated<T>(&mut self, f: impl FnOnce(&mut Self) -> PResult<T>) -> PResult<T> {
        let saved = (self.call_sites.len(), self.strings.len(), self.fixups.len());
        self.uneval += 1;
        let r = f(self);
        self.uneval -= 1;
        self.call_sites.truncate(saved.0);
        self.strings.truncate(saved.1);
        self.fixups.truncate(saved.2);
        r
    }

    // ----- functions -----

    fn function(&mut self, def: &ast::FuncDef) -> PResult<()> {
        let (base, bconst) = self.base_type(&def.specs, false)?;
        let r = self.resolve_declarator(base, bconst, &def.decl)?;
        let Some(name) = r.name.clone() else {
            return err(def.decl.span, "expected a function name");
        };
        let DeclTy::Func(fty) = r.ty else {
            return err(name.span, "expected a function declarator");
        };
        let fid = self.func_ids[&name.name];
        if fty.variadic {
            return err(name.span, "unsupported: variadic functions");
        }
        // The parameters, with names.
        let mut params: Vec<(ast::Ident, Type, bool)> = Vec::new();
        match (&fty.params, &fty.kr_names) {
            (Some(ps), _) => {
                for p in ps {
                    let Some(n) = p.name.clone() else {
                        return err(p.span, "parameter name omitted");
                    };
                    params.push((n, p.ty.clone(), p.is_const));
                }
            }
            (None, Some(names)) => {
                let mut types: HashMap<Rc<str>, (Type, bool)> = HashMap::new();
                for d in &def.kr_decls {
                    let (base, bconst) = self.base_type(&d.specs, false)?;
                    for item in &d.items {
                        let pr = self.resolve_declarator(base.clone(), bconst, &item.decl)?;
                        let Some(pn) = pr.name.clone() else { continue };
                        if !names.iter().any(|n| n.name == pn.name) {
                            return err(
                                pn.span,
                                format!(
                                    "declaration for parameter '{}' but no such parameter",
                                    pn.name
                                ),
                            );
                        }
                        if item.init.is_some() {
                            return err(
                                item.span,
                                format!("parameter '{}' is initialized", pn.name),
                            );
                        }
                        let ty = self.param_type(pr.ty, pn.span)?;
                        types.insert(pn.name.clone(), (ty, pr.is_const));
                    }
                }
                for n in names {
                    let (ty, c) = types.get(&n.name).cloned().unwrap_or((INT, false));
                    params.push((n.clone(), ty, c));
                }
            }
            (None, None) => {
                if !def.kr_decls.is_empty() {
                    return err(
                        def.kr_decls[0].span,
                        "declaration for parameter but no such parameter",
                    );
                }
            }
        }
        let ret = fty.ret.clone();
        self.check_complete_or_void(&ret, name.span, "function returns")?;
        for (n, t, _) in &params {
            self.check_complete(t, n.span)?;
        }
        let sig = Rc::new(FuncTy {
            ret: ret.clone(),
            params: Some(
                params
                    .iter()
                    .map(|(n, t, c)| decl_ty::ParamInfo {
                        name: Some(n.clone()),
                        ty: t.clone(),
                        is_const: *c,
                        span: n.span,
                    })
                    .collect(),
            ),
            variadic: false,
            // Kept for a K&R definition: its calls are not checked by a prototype.
            kr_names: if fty.params.is_none() {
                fty.kr_names.clone()
            } else {
                None
            },
        });
        // Compatibility with earlier declarations and implicit uses.
        if let Some(Sym::Func { ty: old }) = self.scopes[0].syms.get(&name.name) {
            if !decl_ty::compatible_funcs(old, &sig) {
                return err(name.span, format!("conflicting types for '{}'", name.name));
            }
        }
        if self.implicit_uses.contains_key(&name.name) && ret != INT {
            return err(name.span, format!("conflicting types for '{}'", name.name));
        }
        if &*name.name == "main" {
            self.check_main(&sig, name.span)?;
        }
        let file_scope_sym = self.scopes[0].syms.get(&name.name).cloned();
        match file_scope_sym {
            None | Some(Sym::Func { .. }) => {
                self.scopes[0]
                    .syms
                    .insert(name.name.clone(), Sym::Func { ty: sig.clone() });
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
        }
        self.func_sigs[fid.index()] = Some(sig);

        self.fctx = Some(FnCtx {
            id: fid,
            name: name.name.clone(),
            ret: ret.clone(),
            locals: Vec::new(),
            local_const: Vec::new(),
            cur_stmt: None,
            breakables: Vec::new(),
            switches: Vec::new(),
            ctype_tmp: None,
            labels: HashMap::new(),
            gotos: Vec::new(),
            vlas: HashMap::new(),
        });
        self.push_scope();
        let mut param_ids = Vec::new();
        for (n, t, c) in &params {
            let id = self.new_local(n, t.clone(), *c, true)?;
            param_ids.push(id);
        }
        let mut body = Vec::new();
        for s in &def.body {
            self.stmt(s, &mut body)?;
        }
        self.pop_scope();
        let ctx = self.fctx.take().expect("inside a function");
        stmt::check_gotos(&body, &ctx.labels, &ctx.gotos)?;
        let f = &mut self.functions[fid.index()];
        f.ret = ret;
        f.params = param_ids;
        f.locals = ctx.locals;
        f.body = body;
        Ok(())
    }

    fn check_main(&self, sig: &FuncTy, span: Span) -> PResult<()> {
        let ok_ret = sig.ret == INT || sig.ret == Type::Void;
        let ps = sig.params.as_deref().unwrap_or(&[]);
        let ok_params = match ps {
            [] => true,
            [a, b] => a.ty.is_integer() && b.ty == Type::ptr_to(Type::ptr_to(CHAR)),
            _ => false,
        };
        if !ok_ret || !ok_params {
            return err(
                span,
                "unsupported: 'main' must be declared as 'int main(void)' or 'int main(int argc, char *argv[])'",
            );
        }
        Ok(())
    }

    fn new_local(
        &mut self,
        name: &ast::Ident,
        ty: Type,
        is_const: bool,
        is_param: bool,
    ) -> PResult<LocalId> {
        let loc = self.files.loc(name.span);
        let f = self.fctx.as_mut().expect("inside a function");
        let id = LocalId(f.locals.len() as u32);
        f.locals.push(Local {
            name: name.name.to_string(),
            ty: ty.clone(),
            loc,
            is_param,
        });
        f.local_const.push(is_const);
        self.declare(
            name,
            Sym::Var {
                var: Var::Local(id),
                ty,
            },
        )?;
        Ok(id)
    }

    /// A fresh global name (static locals are named `function.variable`).
    fn unique_global_name(&mut self, base: String) -> String {
        let mut name = base.clone();
        let mut k = 2;
        while self.global_names.contains(&name) {
            name = format!("{base}.{k}");
            k += 1;
        }
        self.global_names.insert(name.clone());
        name
    }

    // ----- fixups -----

    fn apply_fixups(&mut self) -> PResult<()> {
        if self.fixups.is_empty() {
            return Ok(());
        }
        let fixups = std::mem::take(&mut self.fixups);
        let mut done: HashMap<CallSiteId, Vec<Expr>> = HashMap::new();
        for fx in fixups {
            let Some(sig) = self.func_sigs[fx.func.index()].clone() else {
                return err(
                    fx.span,
                    format!("function '{}' is declared but never defined", fx.name),
                );
            };
            let params: Vec<Type> = sig
                .params
                .as_deref()
                .unwrap_or(&[])
                .iter()
                .map(|p| p.ty.clone())
                .collect();
            let args = if sig.kr_names.is_some() {
                self.convert_kr_args(fx.func, &fx.name, &params, fx.args, fx.span)?
            } else {
                self.convert_args(&fx.name, &params, fx.args, fx.span)?
            };
            done.insert(fx.site, args);
        }
        let mut functions = std::mem::take(&mut self.functions);
        let mut patch = Patch { done: &mut done };
        for f in &mut functions {
            for_each_stmt_mut(&mut f.body, &mut |s| {
                stmt_exprs_mut(s, |e| patch.visit_expr_mut(e))
            });
        }
        self.functions = functions;
        Ok(())
    }
}

impl Lowerer<'_> {
    /// Converts the arguments of a call of `func`, defined without a
    /// prototype (K&R). C does not check such calls: an argument of a type
    /// that does not convert to its parameter's is undefined only if the
    /// parameter is used. So for a scalar parameter the body never mentions
    /// (print_tokens2 passes a `FILE *` where `unget_error` declares an unused
    /// `FILE **`) the argument is evaluated for its effects and the
    /// parameter receives zero; any other mismatch is the error it is with a
    /// prototype.
    fn convert_kr_args(
        &self,
        func: FuncId,
        name: &str,
        params: &[Type],
        args: Vec<(Expr, Span)>,
        span: Span,
    ) -> PResult<Vec<Expr>> {
        if args.len() != params.len() {
            return self.convert_args(name, params, args, span);
        }
        let f = &self.functions[func.index()];
        let mut out = Vec::with_capacity(args.len());
        for (i, ((a, s), p)) in args.into_iter().zip(params).enumerate() {
            let unused = f.params.get(i).is_some_and(|&id| !uses_local(&f.body, id));
            match self.convert_assign(a.clone(), p, s) {
                Ok(e) => out.push(e),
                Err(_) if unused && (p.is_pointer() || p.is_arithmetic()) => {
                    let zero = expr::cast(
                        Expr {
                            kind: ExprKind::Int(0),
                            ty: INT,
                        },
                        p,
                    );
                    out.push(Expr {
                        kind: ExprKind::Comma(Box::new(a), Box::new(zero)),
                        ty: p.clone(),
                    });
                }
                Err(e) => return Err(e),
            }
        }
        Ok(out)
    }
}

/// Whether a statement of `body` mentions the local `id`.
fn uses_local(body: &[Stmt], id: LocalId) -> bool {
    struct Finds(LocalId, bool);
    impl<'a> faultline_ir::visit::Visitor<'a> for Finds {
        fn visit_place(&mut self, p: &'a Place) {
            if p.kind == PlaceKind::Var(Var::Local(self.0)) {
                self.1 = true;
            }
            faultline_ir::visit::walk_place(self, p);
        }
    }
    let mut v = Finds(id, false);
    faultline_ir::visit::for_each_stmt(body, &mut |s| {
        faultline_ir::visit::stmt_exprs(s, |e| faultline_ir::visit::Visitor::visit_expr(&mut v, e))
    });
    v.1
}

/// Replaces the arguments of the call sites in `done` with their converted ones.
struct Patch<'d> {
    done: &'d mut HashMap<CallSiteId, Vec<Expr>>,
}

impl VisitorMut for Patch<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let ExprKind::Call { args, site, .. } = &mut e.kind {
            if let Some(new) = self.done.remove(site) {
                *args = new;
            }
        }
        walk_expr_mut(self, e);
    }
}
