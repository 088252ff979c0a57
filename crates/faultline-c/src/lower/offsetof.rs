//! `offsetof(type, designator)` (`<stddef.h>`, `__builtin_offsetof`).

use faultline_ir::*;

use super::decl_ty::DeclTy;
use super::expr::{int_const, unreachable_type};
use super::Lowerer;
use crate::ast;
use crate::source::{err, PResult, Span};

impl Lowerer<'_> {
    /// `offsetof(type, designator)`: the byte offset, as gcc lays the type
    /// out, of the designated member (through anonymous members, and array
    /// elements with constant indices), a `size_t` constant.
    pub(super) fn offsetof(
        &mut self,
        tn: &ast::TypeName,
        parts: &[ast::OffsetofPart],
        span: Span,
    ) -> PResult<Expr> {
        let mut t = match self.type_name_ty(tn)? {
            DeclTy::Obj(t) => t,
            _ => {
                return err(
                    span,
                    "offsetof of a type that is not a complete object type",
                )
            }
        };
        let mut offset: i128 = 0;
        for part in parts {
            match part {
                ast::OffsetofPart::Member(m) => {
                    let Type::Struct(sid) = t else {
                        let msg = format!(
                            "offsetof: '{}' is not a structure or union",
                            self.type_str(&t)
                        );
                        return err(m.span, msg);
                    };
                    if !self.struct_complete[sid.0 as usize] {
                        let msg = format!("offsetof of incomplete type '{}'", self.type_str(&t));
                        return err(m.span, msg);
                    }
                    let Some(path) = self.member_path(sid, &m.name) else {
                        let msg =
                            format!("no member named '{}' in '{}'", m.name, self.type_str(&t));
                        return err(m.span, msg);
                    };
                    for i in path {
                        let Type::Struct(s) = t else {
                            unreachable_type()
                        };
                        let f = &self.structs[s.0 as usize].fields[i as usize];
                        offset += f.byte_offset as i128;
                        t = f.ty.clone();
                    }
                }
                ast::OffsetofPart::Index(e) => {
                    let Type::Array(elem, _) = t else {
                        let msg = format!("offsetof: '{}' is not an array", self.type_str(&t));
                        return err(e.span, msg);
                    };
                    let k = self.const_int(e, "offsetof needs a constant index")?;
                    offset += k * self.size_of(&elem) as i128;
                    t = *elem;
                }
            }
        }
        Ok(int_const(offset, IntKind::ULong))
    }
}
