//! The types declarations give names: objects, incomplete arrays, functions
//! with their (possibly unprototyped) signatures. Plain data, shared by the
//! lowering's modules (resolution is in `types.rs`).

use std::rc::Rc;

use faultline_ir::Type;

use crate::ast;
use crate::source::Span;

/// Maximum number of cells of one object.
pub const MAX_CELLS: u64 = 1 << 32;

/// The type a declarator gives its name.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum DeclTy {
    Obj(Type),
    /// An array of unknown length with this element type.
    IncompleteArray(Type),
    Func(Rc<FuncTy>),
    /// `FILE` itself (only `FILE *` can be used).
    File,
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct ParamInfo {
    pub name: Option<ast::Ident>,
    pub ty: Type,
    pub is_const: bool,
    pub span: Span,
}

impl PartialEq for ast::Ident {
    fn eq(&self, other: &Self) -> bool {
        self.name == other.name
    }
}

#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FuncTy {
    pub ret: Type,
    /// `None` when declared without a prototype (`f()` or K&R).
    pub params: Option<Vec<ParamInfo>>,
    pub variadic: bool,
    /// The identifier list of a K&R definition.
    pub kr_names: Option<Vec<ast::Ident>>,
}

/// Whether two declarations of one function agree.
pub(crate) fn compatible_funcs(a: &FuncTy, b: &FuncTy) -> bool {
    if a.ret != b.ret {
        return false;
    }
    match (&a.params, &b.params) {
        (Some(x), Some(y)) => {
            a.variadic == b.variadic
                && x.len() == y.len()
                && x.iter().zip(y).all(|(p, q)| p.ty == q.ty)
        }
        _ => true,
    }
}
