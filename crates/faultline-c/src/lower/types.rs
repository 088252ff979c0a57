//! Resolution of declaration specifiers and declarators to types; struct
//! and enum definitions and their layout.

use std::rc::Rc;

use faultline_ir::*;

use super::decl_ty::{DeclTy, FuncTy, ParamInfo, MAX_CELLS};
use super::{Lowerer, Sym, Tag};
use crate::ast::{self, BaseType, DeclaratorKind, ParamList};
use crate::source::{err, PResult, Span};

const MAX_TYPE_DEPTH: usize = 200;

pub(crate) struct Resolved {
    pub name: Option<ast::Ident>,
    pub ty: DeclTy,
    pub is_const: bool,
}

fn type_depth(t: &Type) -> usize {
    let mut d = 0;
    let mut t = t;
    loop {
        match t {
            Type::Ptr(i) | Type::Array(i, _) => {
                d += 1;
                t = i;
            }
            _ => return d,
        }
    }
}

impl Lowerer<'_> {
    /// The type named by declaration specifiers, and whether it is `const`.
    /// `forward` is set for a declaration without declarators (`struct S;`).
    pub(crate) fn base_type(
        &mut self,
        specs: &ast::DeclSpecs,
        forward: bool,
    ) -> PResult<(DeclTy, bool)> {
        let ty = match &specs.base {
            BaseType::Void => DeclTy::Obj(Type::Void),
            BaseType::Int(k) => DeclTy::Obj(Type::Int(*k)),
            BaseType::Float(k) => DeclTy::Obj(Type::Float(*k)),
            BaseType::Struct(s) => DeclTy::Obj(Type::Struct(self.struct_spec(s, forward)?)),
            BaseType::Enum(e) => {
                self.enum_spec(e)?;
                DeclTy::Obj(INT)
            }
            BaseType::File => DeclTy::File,
            BaseType::Typedef(id) => match self.lookup(&id.name) {
                Some(Sym::Typedef { ty, is_const }) => {
                    let c = *is_const;
                    return Ok((ty.clone(), c || specs.is_const));
                }
                _ => return err(id.span, format!("unknown type name '{}'", id.name)),
            },
        };
        Ok((ty, specs.is_const))
    }

    fn check_type_depth(&self, t: &Type, span: Span) -> PResult<()> {
        if type_depth(t) > MAX_TYPE_DEPTH {
            return err(span, "type nested too deeply");
        }
        Ok(())
    }

    /// Applies a declarator to a base type.
    pub(crate) fn resolve_declarator(
        &mut self,
        base: DeclTy,
        base_const: bool,
        d: &ast::Declarator,
    ) -> PResult<Resolved> {
        let mut ty = base;
        let mut is_const = base_const;
        let mut cur = d;
        loop {
            match &cur.kind {
                DeclaratorKind::Name(n) => {
                    return Ok(Resolved {
                        name: n.clone(),
                        ty,
                        is_const,
                    })
                }
                DeclaratorKind::Ptr {
                    is_const: pc,
                    inner,
                } => {
                    ty = match ty {
                        DeclTy::Obj(t) => {
                            let p = Type::ptr_to(t);
                            self.check_type_depth(&p, cur.span)?;
                            DeclTy::Obj(p)
                        }
                        DeclTy::File => DeclTy::Obj(Type::Stream),
                        DeclTy::IncompleteArray(_) => {
                            return err(cur.span, "unsupported: pointers to arrays of unknown size")
                        }
                        DeclTy::Func(f) => {
                            DeclTy::Obj(Type::ptr_to(Type::Func(Box::new(func_sig(&f)))))
                        }
                    };
                    is_const = *pc;
                    cur = inner;
                }
                DeclaratorKind::Array { inner, size } => {
                    let elem = match ty {
                        DeclTy::Obj(t) => t,
                        DeclTy::IncompleteArray(_) => {
                            return err(cur.span, "array has incomplete element type")
                        }
                        DeclTy::Func(_) => {
                            return err(cur.span, "declaration of an array of functions")
                        }
                        DeclTy::File => return err(cur.span, "unsupported: FILE objects"),
                    };
                    if elem == Type::Void {
                        return err(cur.span, "array has incomplete element type 'void'");
                    }
                    if let Type::Struct(s) = elem {
                        if !self.struct_complete[s.0 as usize] {
                            return err(
                                cur.span,
                                format!(
                                    "array has incomplete element type '{}'",
                                    self.type_str(&elem)
                                ),
                            );
                        }
                    }
                    ty = match size {
                        None => DeclTy::IncompleteArray(elem),
                        Some(e) => {
                            let n = self.array_size(e)?;
                            let t = Type::Array(Box::new(elem), n);
                            self.check_cells(&t, cur.span)?;
                            self.check_type_depth(&t, cur.span)?;
                            DeclTy::Obj(t)
                        }
                    };
                    cur = inner;
                }
                DeclaratorKind::Func { inner, params } => {
                    let ret = match ty {
                        DeclTy::Obj(Type::Array(..)) | DeclTy::IncompleteArray(_) => {
                            return err(cur.span, "function cannot return array type")
                        }
                        DeclTy::Obj(t) => t,
                        DeclTy::Func(_) => {
                            return err(cur.span, "function cannot return function type")
                        }
                        DeclTy::File => return err(cur.span, "unsupported: FILE objects"),
                    };
                    ty = DeclTy::Func(Rc::new(self.func_ty(ret, params)?));
                    is_const = false;
                    cur = inner;
                }
            }
        }
    }

    fn check_cells(&self, t: &Type, span: Span) -> PResult<()> {
        // Computed without overflow: element cells are already bounded.
        if let Type::Array(e, n) = t {
            let ec = self.cells(e);
            if ec.checked_mul(*n).is_none_or(|c| c > MAX_CELLS) {
                return err(span, "array is too large");
            }
        }
        Ok(())
    }

    fn array_size(&mut self, e: &ast::Expr) -> PResult<u64> {
        let msg = if self.fctx.is_some() {
            "unsupported: variable-length arrays"
        } else {
            "array size is not an integer constant expression"
        };
        let v = self.const_int(e, msg)?;
        if v < 0 {
            return err(e.span, "array has negative size");
        }
        if v == 0 {
            return err(e.span, "unsupported: zero-length arrays");
        }
        if v > MAX_CELLS as i128 {
            return err(e.span, "array is too large");
        }
        Ok(v as u64)
    }

    /// The type of a parameter declared with `t` (arrays become pointers).
    pub(crate) fn param_type(&self, t: DeclTy, span: Span) -> PResult<Type> {
        match t {
            DeclTy::Obj(Type::Array(e, _)) => Ok(Type::Ptr(e)),
            DeclTy::IncompleteArray(e) => Ok(Type::ptr_to(e)),
            DeclTy::Obj(Type::Void) => err(span, "parameter has incomplete type 'void'"),
            DeclTy::Obj(t) => Ok(t),
            // A parameter of function type is a pointer to it.
            DeclTy::Func(f) => Ok(Type::ptr_to(Type::Func(Box::new(func_sig(&f))))),
            DeclTy::File => err(span, "unsupported: FILE objects"),
        }
    }

    fn func_ty(&mut self, ret: Type, params: &ParamList) -> PResult<FuncTy> {
        Ok(match params {
            ParamList::Empty => FuncTy {
                ret,
                params: None,
                variadic: false,
                kr_names: None,
            },
            ParamList::Names(ns) => FuncTy {
                ret,
                params: None,
                variadic: false,
                kr_names: Some(ns.clone()),
            },
            ParamList::Prototype { params, variadic } => {
                let mut ps = Vec::new();
                for p in params {
                    if matches!(p.specs.storage, Some(s) if s != ast::Storage::Register) {
                        return err(
                            p.specs.span,
                            "invalid storage class specifier in function declarator",
                        );
                    }
                    let (base, c) = self.base_type(&p.specs, false)?;
                    let r = self.resolve_declarator(base, c, &p.decl)?;
                    let ty = self.param_type(r.ty, p.span)?;
                    ps.push(ParamInfo {
                        name: r.name,
                        ty,
                        is_const: r.is_const,
                        span: p.span,
                    });
                }
                FuncTy {
                    ret,
                    params: Some(ps),
                    variadic: *variadic,
                    kr_names: None,
                }
            }
        })
    }

    /// Resolves a type name (in a cast or `sizeof`).
    pub(crate) fn type_name_ty(&mut self, tn: &ast::TypeName) -> PResult<DeclTy> {
        let (base, c) = self.base_type(&tn.specs, false)?;
        Ok(self.resolve_declarator(base, c, &tn.decl)?.ty)
    }

    pub(crate) fn is_complete(&self, t: &Type) -> bool {
        match t {
            Type::Void => false,
            Type::Struct(s) => self.struct_complete[s.0 as usize],
            Type::Array(e, _) => self.is_complete(e),
            _ => true,
        }
    }

    /// Objects must have complete types.
    pub(crate) fn check_complete(&self, t: &Type, span: Span) -> PResult<()> {
        if !self.is_complete(t) {
            return err(
                span,
                format!("variable has incomplete type '{}'", self.type_str(t)),
            );
        }
        Ok(())
    }

    pub(crate) fn check_complete_or_void(&self, t: &Type, span: Span, what: &str) -> PResult<()> {
        if *t != Type::Void && !self.is_complete(t) {
            return err(
                span,
                format!("{what} incomplete type '{}'", self.type_str(t)),
            );
        }
        Ok(())
    }

    fn new_struct(&mut self, name: String, union: bool) -> StructId {
        let id = StructId(self.structs.len() as u32);
        self.structs.push(StructDef {
            name,
            union,
            fields: Vec::new(),
            cells: 0,
            size: 0,
            align: 1,
        });
        self.struct_complete.push(false);
        self.struct_depth.push(1);
        id
    }

    /// Names an anonymous struct after the typedef that names it.
    pub(crate) fn name_anonymous_struct(&mut self, t: &DeclTy, name: &str) {
        if let DeclTy::Obj(Type::Struct(s)) = t {
            let def = &mut self.structs[s.0 as usize];
            if def.name == "(anonymous)" {
                def.name = name.to_string();
            }
        }
    }

    fn struct_spec(&mut self, spec: &ast::StructSpec, forward: bool) -> PResult<StructId> {
        let kw = if spec.union { "union" } else { "struct" };
        let Some(fields) = &spec.fields else {
            let tag = spec
                .tag
                .as_ref()
                .expect("the parser requires a tag or a body");
            if !forward {
                match self.lookup_tag(&tag.name) {
                    Some(Tag::Struct(id)) if self.structs[id.0 as usize].union == spec.union => {
                        return Ok(id)
                    }
                    Some(Tag::Struct(_) | Tag::Enum { .. }) => {
                        return err(
                            tag.span,
                            format!(
                            "use of '{}' with tag type that does not match previous declaration",
                            tag.name
                        ),
                        )
                    }
                    None => {}
                }
            } else if let Some(Tag::Struct(id)) = self.current_scope().tags.get(&tag.name).copied()
            {
                if self.structs[id.0 as usize].union != spec.union {
                    return err(tag.span, mismatched_tag(&tag.name));
                }
                return Ok(id);
            }
            let id = self.new_struct(tag.name.to_string(), spec.union);
            self.current_scope()
                .tags
                .insert(tag.name.clone(), Tag::Struct(id));
            return Ok(id);
        };
        let id = match &spec.tag {
            Some(tag) => match self.current_scope().tags.get(&tag.name).copied() {
                Some(Tag::Struct(id)) if self.structs[id.0 as usize].union != spec.union => {
                    return err(tag.span, mismatched_tag(&tag.name))
                }
                Some(Tag::Struct(id)) if !self.struct_complete[id.0 as usize] => id,
                Some(Tag::Struct(_)) => {
                    return err(tag.span, format!("redefinition of '{} {}'", kw, tag.name))
                }
                Some(Tag::Enum { .. }) => {
                    return err(
                        tag.span,
                        format!(
                            "use of '{}' with tag type that does not match previous declaration",
                            tag.name
                        ),
                    )
                }
                None => {
                    let id = self.new_struct(tag.name.to_string(), spec.union);
                    self.current_scope()
                        .tags
                        .insert(tag.name.clone(), Tag::Struct(id));
                    id
                }
            },
            None => self.new_struct("(anonymous)".to_string(), spec.union),
        };
        let Members {
            out,
            cells,
            size,
            align,
            depth,
        } = self.struct_members(spec.union, fields)?;
        if out.is_empty() {
            return err(spec.span, format!("unsupported: {kw}s without members"));
        }
        if cells > MAX_CELLS {
            return err(spec.span, format!("{kw} is too large"));
        }
        if depth > MAX_TYPE_DEPTH as u32 {
            return err(spec.span, format!("{kw}s nested too deeply"));
        }
        let size = size.div_ceil(align) * align;
        let def = &mut self.structs[id.0 as usize];
        def.fields = out;
        def.cells = cells;
        def.size = size;
        def.align = align;
        self.struct_complete[id.0 as usize] = true;
        self.struct_depth[id.0 as usize] = depth;
        Ok(id)
    }

    /// Lays out the members of a struct or union definition.
    fn struct_members(&mut self, union: bool, fields: &[ast::FieldDecl]) -> PResult<Members> {
        let mut m = Members {
            out: Vec::new(),
            cells: 0,
            size: 0,
            align: 1,
            depth: 1,
        };
        for fd in fields {
            let (base, c) = self.base_type(&fd.specs, false)?;
            if let (BaseType::Struct(anon), DeclTy::Obj(ty @ Type::Struct(sid)), true) =
                (&fd.specs.base, &base, fd.declarators.is_empty())
            {
                if anon.tag.is_none() {
                    // An anonymous member: a field without a name, whose
                    // members are found by `member_path`.
                    for name in self.member_names(*sid) {
                        if m.out.iter().any(|f| self.field_names(f).contains(&name)) {
                            return err(fd.span, format!("duplicate member '{name}'"));
                        }
                    }
                    self.add_member(&mut m, union, String::new(), ty.clone());
                    continue;
                }
            }
            for d in &fd.declarators {
                let r = self.resolve_declarator(base.clone(), c, d)?;
                let Some(name) = r.name else { continue };
                let ty = match r.ty {
                    DeclTy::Obj(t) => t,
                    DeclTy::IncompleteArray(_) => {
                        return err(d.span, "unsupported: flexible array members")
                    }
                    DeclTy::Func(_) => {
                        return err(
                            d.span,
                            format!("field '{}' declared as a function", name.name),
                        )
                    }
                    DeclTy::File => return err(d.span, "unsupported: FILE objects"),
                };
                if !self.is_complete(&ty) {
                    return err(
                        d.span,
                        format!("field has incomplete type '{}'", self.type_str(&ty)),
                    );
                }
                if m.out
                    .iter()
                    .any(|f| self.field_names(f).iter().any(|n| **n == *name.name))
                {
                    return err(name.span, format!("duplicate member '{}'", name.name));
                }
                self.add_member(&mut m, union, name.name.to_string(), ty);
            }
        }
        Ok(m)
    }

    /// Appends a member: in a struct at the next offset of its alignment, in
    /// a union at byte 0; each has its own cells.
    fn add_member(&self, m: &mut Members, union: bool, name: String, ty: Type) {
        let mut elem = &ty;
        while let Type::Array(e, _) = elem {
            elem = e;
        }
        if let Type::Struct(s) = elem {
            m.depth = m.depth.max(self.struct_depth[s.0 as usize] + 1);
        }
        let a = self.align_of(&ty);
        let offset = if union { 0 } else { m.size.div_ceil(a) * a };
        let cell_offset = m.cells;
        m.cells = m.cells.saturating_add(self.cells(&ty));
        m.size = m.size.max(offset.saturating_add(self.size_of(&ty)));
        m.align = m.align.max(a);
        m.out.push(Field {
            name,
            ty,
            cell_offset,
            byte_offset: offset,
        });
    }

    /// `union` for a union type, `struct` otherwise (for messages).
    pub(crate) fn tag_kw(&self, t: &Type) -> &'static str {
        match t {
            Type::Struct(s) if self.structs[s.0 as usize].union => "union",
            _ => "struct",
        }
    }

    /// The names a field brings into its struct: its own, or those of an
    /// anonymous struct or union member.
    fn field_names(&self, f: &Field) -> Vec<String> {
        match (&f.ty, f.name.is_empty()) {
            (Type::Struct(s), true) => self.member_names(*s),
            _ => vec![f.name.clone()],
        }
    }

    /// The member names of a struct or union, those of its anonymous members included.
    fn member_names(&self, sid: StructId) -> Vec<String> {
        self.structs[sid.0 as usize]
            .fields
            .iter()
            .flat_map(|f| self.field_names(f))
            .collect()
    }

    /// The field indices leading to member `name` of struct or union `sid`,
    /// through anonymous members (`None`: no such member).
    pub(crate) fn member_path(&self, sid: StructId, name: &str) -> Option<Vec<u32>> {
        let def = &self.structs[sid.0 as usize];
        if let Some(i) = def
            .fields
            .iter()
            .position(|f| !f.name.is_empty() && *f.name == *name)
        {
            return Some(vec![i as u32]);
        }
        def.fields
            .iter()
            .enumerate()
            .find_map(|(i, f)| match &f.ty {
                Type::Struct(s) if f.name.is_empty() => {
                    let mut p = self.member_path(*s, name)?;
                    p.insert(0, i as u32);
                    Some(p)
                }
                _ => None,
            })
    }

    fn enum_spec(&mut self, spec: &ast::EnumSpec) -> PResult<()> {
        let Some(items) = &spec.items else {
            let tag = spec
                .tag
                .as_ref()
                .expect("the parser requires a tag or a body");
            match self.lookup_tag(&tag.name) {
                Some(Tag::Enum { .. }) => {}
                Some(Tag::Struct(_)) => {
                    return err(
                        tag.span,
                        format!(
                            "use of '{}' with tag type that does not match previous declaration",
                            tag.name
                        ),
                    )
                }
                None => {
                    self.current_scope()
                        .tags
                        .insert(tag.name.clone(), Tag::Enum { defined: false });
                }
            }
            return Ok(());
        };
        if let Some(tag) = &spec.tag {
            match self.current_scope().tags.get(&tag.name).copied() {
                Some(Tag::Enum { defined: true }) => {
                    return err(tag.span, format!("redefinition of 'enum {}'", tag.name))
                }
                Some(Tag::Struct(_)) => {
                    return err(
                        tag.span,
                        format!(
                            "use of '{}' with tag type that does not match previous declaration",
                            tag.name
                        ),
                    )
                }
                _ => {}
            }
            self.current_scope()
                .tags
                .insert(tag.name.clone(), Tag::Enum { defined: true });
        }
        let mut next: i128 = 0;
        for (name, value) in items {
            let v = match value {
                Some(e) => self.const_int(e, "expression is not an integer constant expression")?,
                None => next,
            };
            if v < i32::MIN as i128 || v > i32::MAX as i128 {
                return err(name.span, "enumerator value is not representable in 'int'");
            }
            self.declare(name, Sym::EnumConst(v as i64))?;
            next = v + 1;
        }
        Ok(())
    }
}

/// The members of a struct or union being defined, with its layout so far.
struct Members {
    out: Vec<Field>,
    cells: u64,
    size: u64,
    align: u64,
    depth: u32,
}

/// The error for a tag used with the other of `struct` and `union`.
fn mismatched_tag(name: &str) -> String {
    format!("use of '{name}' with tag type that does not match previous declaration")
}

/// The IR signature of a declared function type.
pub(crate) fn func_sig(f: &FuncTy) -> FuncSig {
    FuncSig {
        ret: f.ret.clone(),
        params: f
            .params
            .as_ref()
            .map(|ps| ps.iter().map(|p| p.ty.clone()).collect()),
        variadic: f.variadic,
    }
}
