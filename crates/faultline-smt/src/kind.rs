//! Kinds of Z3 operations, read without undefined behaviour.
//!
//! The z3-sys bindings' `DeclKind` is the enum of a later Z3 than the
//! Debian library linked (4.8.12). That library numbers its last two kinds,
//! `Z3_OP_INTERNAL` and `Z3_OP_UNINTERPRETED` (every constant the encoder
//! declares), with values the enum lacks, and reading them as the enum (as
//! `FuncDecl::kind` does) is undefined behaviour (formatting one crashed).
//! Here the kind is read as a number and those two are told apart first;
//! every other number of the library is one of the enum's.

use std::sync::OnceLock;
use z3::ast::{Ast, Dynamic};
use z3_sys::{DeclKind, Z3_context, Z3_func_decl};

extern "C" {
    /// `Z3_get_decl_kind` with its result as a number.
    #[link_name = "Z3_get_decl_kind"]
    fn decl_kind_number(c: Z3_context, d: Z3_func_decl) -> u32;
}

/// The number the linked library gives an uninterpreted constant's kind
/// (measured once on a constant of `ctx`).
fn uninterpreted_number(ctx: Z3_context) -> u32 {
    static NUMBER: OnceLock<u32> = OnceLock::new();
    *NUMBER.get_or_init(|| {
        // SAFETY: terms of `ctx` used at once, before the next API call
        // could release them.
        unsafe {
            let name = c"faultline!kind";
            let sym = z3_sys::Z3_mk_string_symbol(ctx, name.as_ptr());
            let sort = z3_sys::Z3_mk_bool_sort(ctx);
            let (Some(sym), Some(sort)) = (sym, sort) else {
                return DeclKind::Uninterpreted as u32;
            };
            z3_sys::Z3_mk_const(ctx, sym, sort)
                .and_then(|c| z3_sys::Z3_to_app(ctx, c))
                .and_then(|a| z3_sys::Z3_get_app_decl(ctx, a))
                .map_or(DeclKind::Uninterpreted as u32, |d| decl_kind_number(ctx, d))
        }
    })
}

/// The kind of declaration `d`; `None` for an uninterpreted symbol or an
/// internal operation.
///
/// # Safety
/// `d` must be a live declaration of `ctx`.
pub(crate) unsafe fn of_decl(ctx: Z3_context, d: Z3_func_decl) -> Option<DeclKind> {
    // SAFETY: as the caller promises.
    from_number(ctx, unsafe { decl_kind_number(ctx, d) })
}

/// The kind numbered `n` by the library; `None` for an uninterpreted
/// symbol or an internal operation.
fn from_number(ctx: Z3_context, n: u32) -> Option<DeclKind> {
    let uninterpreted = uninterpreted_number(ctx);
    if n == uninterpreted || n + 1 == uninterpreted {
        return None;
    }
    // SAFETY: every other number the library gives is one of the enum's
    // (`repr(u32)`).
    Some(unsafe { std::mem::transmute::<u32, DeclKind>(n) })
}

/// The number of term `e`'s operation's kind, with `e`'s context; `None`
/// when `e` is not an application.
fn number(e: &Dynamic) -> Option<(Z3_context, u32)> {
    if !e.is_app() {
        return None;
    }
    let ctx = e.get_ctx().get_z3_context();
    // SAFETY: `e` is a live application of its context.
    unsafe {
        let app = z3_sys::Z3_to_app(ctx, e.get_z3_ast())?;
        let d = z3_sys::Z3_get_app_decl(ctx, app)?;
        Some((ctx, decl_kind_number(ctx, d)))
    }
}

/// The kind of term `e`'s operation; `None` when `e` is not an
/// application, or is one of an uninterpreted symbol or internal operation.
pub(crate) fn of(e: &Dynamic) -> Option<DeclKind> {
    number(e).and_then(|(ctx, n)| from_number(ctx, n))
}

/// Whether `e` is an uninterpreted constant or function application.
pub(crate) fn uninterpreted(e: &Dynamic) -> bool {
    number(e).is_some_and(|(ctx, n)| n == uninterpreted_number(ctx))
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::Real;

    #[test]
    fn constants_are_uninterpreted_and_operations_keep_their_kind() {
        let x = Dynamic::from_ast(&Real::new_const("x"));
        let y = Dynamic::from_ast(&Real::new_const("y"));
        assert_eq!(of(&x), None);
        assert!(uninterpreted(&x));
        let product =
            Dynamic::from_ast(&Real::mul(&[&x.as_real().unwrap(), &y.as_real().unwrap()]));
        assert_eq!(of(&product), Some(DeclKind::Mul));
        assert!(!uninterpreted(&product));
        let half = Dynamic::from_ast(&Real::from_rational_str("1", "2").unwrap());
        assert_eq!(of(&half), Some(DeclKind::Anum));
        // Formatting the kind read through the bindings' enum crashed on a
        // constant; these are formatted safely.
        assert_eq!(format!("{:?}", of(&x)), "None");
    }
}
