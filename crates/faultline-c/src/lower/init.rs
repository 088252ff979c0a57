//! Initializers: brace lists (with brace elision and designators), string
//! initializers of char arrays, and constant static initializers.

use faultline_ir::*;

use super::consts;
use super::decl_ty::{DeclTy, MAX_CELLS};
use super::expr::{int_const, is_char_array_elem};
use super::Lowerer;
use crate::ast::{self, Designator, InitElem};
use crate::source::{err, PResult, Span};

struct Cursor<'a> {
    elems: &'a [InitElem],
    pos: usize,
    /// The lowered value of the element at `pos`, when it was looked at.
    cached: Option<(usize, Expr)>,
}

impl Lowerer<'_> {
    /// Lowers the initializer of an object declared with type `ty`. Returns
    /// the complete type (arrays of unknown size get their length), the
    /// items, and whether unlisted cells are zero-filled.
    pub(crate) fn initializer(
        &mut self,
        ty: &DeclTy,
        init: &ast::Initializer,
    ) -> PResult<(Type, Vec<InitItem>, bool)> {
        let mut out = Vec::new();
        match ty {
            DeclTy::Obj(t) => {
                let zero = self.init_object(t, 0, init, &mut out)?;
                Ok((t.clone(), out, zero))
            }
            DeclTy::IncompleteArray(elem) => {
                let span = init.span();
                let n = match init {
                    ast::Initializer::Expr(e) => {
                        match (&e.kind, is_char_array_elem(elem)) {
                            (ast::ExprKind::Str(b), true) => b.len() as u64 + 1,
                            _ => return err(
                                span,
                                "array initializer must be an initializer list or string literal",
                            ),
                        }
                    }
                    ast::Initializer::List(elems, _) => {
                        match (elems.as_slice(), is_char_array_elem(elem)) {
                            ([one], true)
                                if one.designators.is_empty() && is_str_init(&one.init) =>
                            {
                                let ast::Initializer::Expr(e) = &one.init else {
                                    unreachable!("checked")
                                };
                                let ast::ExprKind::Str(b) = &e.kind else {
                                    unreachable!("checked")
                                };
                                b.len() as u64 + 1
                            }
                            _ => {
                                let mut cur = Cursor {
                                    elems,
                                    pos: 0,
                                    cached: None,
                                };
                                let mut scratch = Vec::new();
                                // Count the elements by filling into a scratch list.
                                let saved =
                                    (self.call_sites.len(), self.strings.len(), self.fixups.len());
                                self.uneval += 1;
                                let r =
                                    self.fill_array(elem, None, 0, &mut cur, &mut scratch, true);
                                self.uneval -= 1;
                                self.call_sites.truncate(saved.0);
                                self.strings.truncate(saved.1);
                                self.fixups.truncate(saved.2);
                                let n = r?;
                                if n == 0 {
                                    return err(span, "unsupported: zero-length arrays");
                                }
                                n
                            }
                        }
                    }
                };
                let t = Type::Array(Box::new(elem.clone()), n);
                if self
                    .cells(elem)
                    .checked_mul(n)
                    .is_none_or(|c| c > MAX_CELLS)
                {
                    return err(span, "array is too large");
                }
                let zero = self.init_object(&t, 0, init, &mut out)?;
                Ok((t, out, zero))
            }
            _ => err(init.span(), "invalid initializer"),
        }
    }

    fn push_item(
        &mut self,
        out: &mut Vec<InitItem>,
        cell: u64,
        value: Expr,
        span: Span,
    ) -> PResult<()> {
        let value = if self.static_init && self.uneval == 0 {
            if let Some(c) = consts::eval(&value) {
                consts::constant(c, &value.ty).unwrap_or(value)
            } else if consts::is_address_const(&value) {
                value
            } else {
                return err(span, "initializer element is not a compile-time constant");
            }
        } else {
            value
        };
        out.push(InitItem { cell, value });
        Ok(())
    }

    fn string_init(
        &mut self,
        elem: &Type,
        n: Option<u64>,
        cell: u64,
        bytes: &[u8],
        out: &mut Vec<InitItem>,
        span: Span,
    ) -> PResult<()> {
        let k = elem.int_kind().unwrap_or(IntKind::Char);
        let len = bytes.len() as u64;
        let count = match n {
            Some(n) => {
                if len > n {
                    return err(span, "initializer-string for char array is too long");
                }
                (len + 1).min(n)
            }
            None => len + 1,
        };
        for i in 0..count {
            let b = if i < len { bytes[i as usize] } else { 0 };
            self.push_item(out, cell + i, int_const(b as i128, k), span)?;
        }
        Ok(())
    }

    /// Initializes the object of type `ty` at `cell` from `init`.
    fn init_object(
        &mut self,
        ty: &Type,
        cell: u64,
        init: &ast::Initializer,
        out: &mut Vec<InitItem>,
    ) -> PResult<bool> {
        match init {
            ast::Initializer::Expr(e) => {
                if let Type::Array(elem, n) = ty {
                    if let (ast::ExprKind::Str(b), true) = (&e.kind, is_char_array_elem(elem)) {
                        self.string_init(elem, Some(*n), cell, b, out, e.span)?;
                        return Ok(true);
                    }
                    return err(
                        e.span,
                        "array initializer must be an initializer list or string literal",
                    );
                }
                let v = self.rv(e)?;
                let v = self.convert_assign(v, ty, e.span)?;
                self.push_item(out, cell, v, e.span)?;
                Ok(false)
            }
            ast::Initializer::List(elems, span) => {
                if ty.is_scalar() {
                    match elems.as_slice() {
                        [] => {
                            let z = zero_of(ty);
                            self.push_item(out, cell, z, *span)?;
                        }
                        [first, rest @ ..] => {
                            if !first.designators.is_empty() {
                                return err(*span, "designator in initializer for scalar type");
                            }
                            self.init_object(ty, cell, &first.init, out)?;
                            if !rest.is_empty() {
                                return err(
                                    rest[0].init.span(),
                                    "excess elements in scalar initializer",
                                );
                            }
                        }
                    }
                    return Ok(true);
                }
                if let Type::Array(elem, n) = ty {
                    if let [one] = elems.as_slice() {
                        if one.designators.is_empty()
                            && is_char_array_elem(elem)
                            && is_str_init(&one.init)
                        {
                            let ast::Initializer::Expr(e) = &one.init else {
                                unreachable!("checked")
                            };
                            let ast::ExprKind::Str(b) = &e.kind else {
                                unreachable!("checked")
                            };
                            self.string_init(elem, Some(*n), cell, b, out, e.span)?;
                            return Ok(true);
                        }
                    }
                }
                let mut cur = Cursor {
                    elems,
                    pos: 0,
                    cached: None,
                };
                self.fill_aggregate(ty, cell, &mut cur, out, true)?;
                if let Some(extra) = elems.get(cur.pos) {
                    let what = match ty {
                        Type::Array(..) => "array",
                        Type::Struct(s) if self.structs[s.0 as usize].union => "union",
                        _ => "struct",
                    };
                    return err(
                        extra.init.span(),
                        format!("excess elements in {what} initializer"),
                    );
                }
                Ok(true)
            }
        }
    }

    fn fill_aggregate(
        &mut self,
        ty: &Type,
        cell: u64,
        cur: &mut Cursor,
        out: &mut Vec<InitItem>,
        braced: bool,
    ) -> PResult<u64> {
        match ty {
            Type::Array(elem, n) => self.fill_array(elem, Some(*n), cell, cur, out, braced),
            Type::Struct(id) => {
                self.fill_struct(*id, cell, cur, out, braced)?;
                Ok(0)
            }
            _ => Ok(0),
        }
    }

    /// Fills array elements from the cursor; returns the number of elements
    /// reached (for arrays of unknown size).
    fn fill_array(
        &mut self,
        elem: &Type,
        n: Option<u64>,
        cell: u64,
        cur: &mut Cursor,
        out: &mut Vec<InitItem>,
        braced: bool,
    ) -> PResult<u64> {
        let ecells = self.cells(elem);
        let mut i: u64 = 0;
        let mut max: u64 = 0;
        while let Some(el) = cur.elems.get(cur.pos) {
            if let Some(d) = el.designators.first() {
                if !braced {
                    break;
                }
                let Designator::Index(e) = d else {
                    return err(
                        el.init.span(),
                        "field designator cannot initialize a non-struct type",
                    );
                };
                if el.designators.len() > 1 {
                    return err(e.span, "unsupported: nested designators");
                }
                let k = self.const_int(e, "expression is not an integer constant expression")?;
                if k < 0 || n.is_some_and(|n| k >= n as i128) || k > MAX_CELLS as i128 {
                    return err(e.span, "array index in initializer exceeds array bounds");
                }
                i = k as u64;
                cur.pos += 1;
                cur.cached = None;
                let at = cell.saturating_add(i.saturating_mul(ecells));
                self.init_object(elem, at, &el.init, out)?;
                i += 1;
                max = max.max(i);
                continue;
            }
            if n.is_some_and(|n| i >= n) {
                break;
            }
            if n.is_none() && i > MAX_CELLS {
                return err(el.init.span(), "array is too large");
            }
            let at = cell.saturating_add(i.saturating_mul(ecells));
            self.fill_sub(elem, at, cur, out)?;
            i += 1;
            max = max.max(i);
        }
        Ok(max)
    }

    fn fill_struct(
        &mut self,
        id: StructId,
        cell: u64,
        cur: &mut Cursor,
        out: &mut Vec<InitItem>,
        braced: bool,
    ) -> PResult<()> {
        let fields = self.structs[id.0 as usize].fields.clone();
        // A union's initializer initializes one member: the first, or the designated one.
        let union = self.structs[id.0 as usize].union;
        let mut f = 0;
        let mut done = false;
        while let Some(el) = cur.elems.get(cur.pos) {
            if union && done {
                if braced && !el.designators.is_empty() {
                    return err(
                        el.init.span(),
                        "unsupported: more than one initializer for a union",
                    );
                }
                break;
            }
            done = true;
            if let Some(d) = el.designators.first() {
                if !braced {
                    break;
                }
                let Designator::Field(name) = d else {
                    return err(
                        el.init.span(),
                        "array designator cannot initialize a non-array type",
                    );
                };
                if el.designators.len() > 1 {
                    return err(name.span, "unsupported: nested designators");
                }
                let Some(idx) = fields
                    .iter()
                    .position(|x| !x.name.is_empty() && *x.name == *name.name)
                else {
                    if self.member_path(id, &name.name).is_some() {
                        return err(
                            name.span,
                            "unsupported: designator of a member of an anonymous struct or union",
                        );
                    }
                    return err(
                        name.span,
                        format!(
                            "field designator '{}' does not refer to any field in type '{}'",
                            name.name,
                            self.type_str(&Type::Struct(id))
                        ),
                    );
                };
                cur.pos += 1;
                cur.cached = None;
                self.init_object(
                    &fields[idx].ty,
                    cell + fields[idx].cell_offset,
                    &el.init,
                    out,
                )?;
                f = idx + 1;
                continue;
            }
            let Some(field) = fields.get(f) else { break };
            self.fill_sub(&field.ty, cell + field.cell_offset, cur, out)?;
            f += 1;
        }
        Ok(())
    }

    /// Initializes one sub-object from the element(s) at the cursor.
    fn fill_sub(
        &mut self,
        ty: &Type,
        cell: u64,
        cur: &mut Cursor,
        out: &mut Vec<InitItem>,
    ) -> PResult<()> {
        let Some(el) = cur.elems.get(cur.pos) else {
            return Ok(());
        };
        match &el.init {
            ast::Initializer::List(..) => {
                cur.pos += 1;
                cur.cached = None;
                self.init_object(ty, cell, &el.init, out)?;
            }
            ast::Initializer::Expr(e) => {
                if ty.is_scalar() {
                    let v = self.cursor_value(cur, e)?;
                    cur.pos += 1;
                    cur.cached = None;
                    let v = self.convert_assign(v, ty, e.span)?;
                    self.push_item(out, cell, v, e.span)?;
                } else if let (Type::Array(elem, n), ast::ExprKind::Str(b)) = (ty, &e.kind) {
                    if is_char_array_elem(elem) {
                        cur.pos += 1;
                        cur.cached = None;
                        self.string_init(elem, Some(*n), cell, b, out, e.span)?;
                    } else {
                        self.fill_aggregate(ty, cell, cur, out, false)?;
                    }
                } else if let Type::Struct(_) = ty {
                    let v = self.cursor_value(cur, e)?;
                    if v.ty == *ty {
                        cur.pos += 1;
                        cur.cached = None;
                        self.push_item(out, cell, v, e.span)?;
                    } else {
                        cur.cached = Some((cur.pos, v));
                        self.fill_aggregate(ty, cell, cur, out, false)?;
                    }
                } else {
                    self.fill_aggregate(ty, cell, cur, out, false)?;
                }
            }
        }
        Ok(())
    }

    /// The lowered value of the expression element at the cursor (lowered once).
    fn cursor_value(&mut self, cur: &mut Cursor, e: &ast::Expr) -> PResult<Expr> {
        if let Some((pos, v)) = cur.cached.take() {
            if pos == cur.pos {
                return Ok(v);
            }
        }
        let v = self.rv(e)?;
        if v.ty == Type::Void {
            return err(e.span, "void value not ignored as it ought to be");
        }
        Ok(v)
    }
}

fn is_str_init(i: &ast::Initializer) -> bool {
    matches!(i, ast::Initializer::Expr(e) if matches!(e.kind, ast::ExprKind::Str(_)))
}

fn zero_of(ty: &Type) -> Expr {
    match ty {
        Type::Float(_) => Expr {
            kind: ExprKind::Float(0.0),
            ty: ty.clone(),
        },
        Type::Int(k) => int_const(0, *k),
        _ => Expr {
            kind: ExprKind::Cast(Box::new(int_const(0, IntKind::Int))),
            ty: ty.clone(),
        },
    }
}
