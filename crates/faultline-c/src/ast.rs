//! The syntax tree produced by the parser. Types are still syntax
//! (specifiers and declarators); names are resolved during lowering.

use std::rc::Rc;

use faultline_ir::{FloatKind, IntKind};

use crate::source::Span;

#[derive(Clone, Debug)]
pub struct Ident {
    pub name: Rc<str>,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    Typedef,
    Extern,
    Static,
    Auto,
    Register,
}

#[derive(Clone, Debug)]
pub enum BaseType {
    Void,
    Int(IntKind),
    Float(FloatKind),
    Struct(Rc<StructSpec>),
    Enum(Rc<EnumSpec>),
    Typedef(Ident),
    /// `FILE` (the built-in `__faultline_FILE`).
    File,
}

#[derive(Clone, Debug)]
pub struct DeclSpecs {
    pub storage: Option<Storage>,
    pub base: BaseType,
    pub is_const: bool,
    /// No type specifier was written (C89 implicit `int`).
    pub implicit_int: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct StructSpec {
    /// `union` rather than `struct`.
    pub union: bool,
    pub tag: Option<Ident>,
    /// `None` for a reference or forward declaration (`struct S`).
    pub fields: Option<Vec<FieldDecl>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct FieldDecl {
    pub specs: DeclSpecs,
    pub declarators: Vec<Declarator>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct EnumSpec {
    pub tag: Option<Ident>,
    pub items: Option<Vec<(Ident, Option<Expr>)>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum DeclaratorKind {
    /// The declared name (`None` in abstract declarators).
    Name(Option<Ident>),
    Ptr {
        is_const: bool,
        inner: Box<Declarator>,
    },
    Array {
        inner: Box<Declarator>,
        size: Option<Box<Expr>>,
    },
    Func {
        inner: Box<Declarator>,
        params: ParamList,
    },
}

#[derive(Clone, Debug)]
pub struct Declarator {
    pub kind: DeclaratorKind,
    pub span: Span,
}

impl Declarator {
    pub fn name(&self) -> Option<&Ident> {
        match &self.kind {
            DeclaratorKind::Name(n) => n.as_ref(),
            DeclaratorKind::Ptr { inner, .. }
            | DeclaratorKind::Array { inner, .. }
            | DeclaratorKind::Func { inner, .. } => inner.name(),
        }
    }

    /// The parameter list when this declarator declares a function (the
    /// derivation nearest the name is a function).
    pub fn func_params(&self) -> Option<&ParamList> {
        let mut d = self;
        let mut last_func = None;
        loop {
            match &d.kind {
                DeclaratorKind::Name(_) => return last_func,
                DeclaratorKind::Func { inner, params } => {
                    last_func = Some(params);
                    d = inner;
                }
                DeclaratorKind::Ptr { inner, .. } | DeclaratorKind::Array { inner, .. } => {
                    last_func = None;
                    d = inner;
                }
            }
        }
    }
}

#[derive(Clone, Debug)]
pub enum ParamList {
    /// `(...)` with declared parameters (`(void)` is an empty prototype).
    Prototype {
        params: Vec<ParamDecl>,
        variadic: bool,
    },
    /// `()`: no parameter information.
    Empty,
    /// K&R identifier list `(a, b)`.
    Names(Vec<Ident>),
}

#[derive(Clone, Debug)]
pub struct ParamDecl {
    pub specs: DeclSpecs,
    pub decl: Declarator,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct TypeName {
    pub specs: DeclSpecs,
    pub decl: Declarator,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Declaration {
    pub specs: DeclSpecs,
    pub items: Vec<InitDeclarator>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct InitDeclarator {
    pub decl: Declarator,
    pub init: Option<Initializer>,
    /// From the declarator to the end of the initializer.
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Initializer {
    Expr(Expr),
    List(Vec<InitElem>, Span),
}

impl Initializer {
    pub fn span(&self) -> Span {
        match self {
            Initializer::Expr(e) => e.span,
            Initializer::List(_, s) => *s,
        }
    }
}

#[derive(Clone, Debug)]
pub struct InitElem {
    pub designators: Vec<Designator>,
    pub init: Initializer,
}

#[derive(Clone, Debug)]
pub enum Designator {
    Field(Ident),
    Index(Expr),
}

#[derive(Clone, Debug)]
pub struct FuncDef {
    pub specs: DeclSpecs,
    pub decl: Declarator,
    /// K&R parameter declarations.
    pub kr_decls: Vec<Declaration>,
    pub body: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Item {
    Decl(Declaration),
    Func(FuncDef),
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum CaseLabel {
    Case(Expr),
    Default(Span),
}

#[derive(Clone, Debug)]
pub enum ForInit {
    Expr(Expr),
    Decl(Declaration),
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Expr(Expr),
    Decl(Declaration),
    Block(Vec<Stmt>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For(Option<ForInit>, Option<Expr>, Option<Expr>, Box<Stmt>),
    Switch(Expr, Box<Stmt>),
    /// `case`/`default` labels and the statement they label.
    Labeled(Vec<CaseLabel>, Box<Stmt>),
    /// `name: stmt`.
    Label(Ident, Box<Stmt>),
    Goto(Ident),
    Break,
    Continue,
    Return(Option<Expr>),
    Empty,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    BitNot,
    Not,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogOr,
}

impl BinOp {
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Lt => "<",
            BinOp::Gt => ">",
            BinOp::Le => "<=",
            BinOp::Ge => ">=",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::BitAnd => "&",
            BinOp::BitXor => "^",
            BinOp::BitOr => "|",
            BinOp::LogAnd => "&&",
            BinOp::LogOr => "||",
        }
    }
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
    /// Height of the tree (bounded by the parser).
    pub depth: u32,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Ident(Rc<str>),
    Int(u64, IntKind),
    Float(f64, FloatKind),
    /// A character constant (type `int`).
    Char(i64),
    /// Adjacent string literals, concatenated.
    Str(Vec<u8>),
    Unary(UnOp, Box<Expr>),
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `a = b` (`None`) or `a op= b`.
    Assign(Option<BinOp>, Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    Comma(Box<Expr>, Box<Expr>),
    Call(Box<Expr>, Vec<Expr>),
    Index(Box<Expr>, Box<Expr>),
    Member(Box<Expr>, Ident, bool),
    Cast(Box<TypeName>, Box<Expr>),
    SizeofType(Box<TypeName>),
    SizeofExpr(Box<Expr>),
    /// `offsetof(type, designator)` (`__builtin_offsetof`).
    Offsetof(Box<TypeName>, Vec<OffsetofPart>),
}

/// A step of `offsetof`'s member designator: `.member` or `[index]`.
#[derive(Clone, Debug)]
pub enum OffsetofPart {
    Member(Ident),
    Index(Expr),
}

impl ExprKind {
    /// The height of a node with these children.
    pub fn depth(&self) -> u32 {
        let d = |e: &Expr| e.depth;
        1 + match self {
            ExprKind::Ident(_)
            | ExprKind::Int(..)
            | ExprKind::Float(..)
            | ExprKind::Char(_)
            | ExprKind::Str(_) => 0,
            ExprKind::SizeofType(_) => 0,
            ExprKind::Offsetof(_, parts) => parts
                .iter()
                .map(|p| match p {
                    OffsetofPart::Index(e) => d(e),
                    OffsetofPart::Member(_) => 0,
                })
                .max()
                .unwrap_or(0),
            ExprKind::Unary(_, e)
            | ExprKind::Member(e, ..)
            | ExprKind::Cast(_, e)
            | ExprKind::SizeofExpr(e) => d(e),
            ExprKind::Binary(_, a, b)
            | ExprKind::Assign(_, a, b)
            | ExprKind::Comma(a, b)
            | ExprKind::Index(a, b) => d(a).max(d(b)),
            ExprKind::Cond(a, b, c) => d(a).max(d(b)).max(d(c)),
            ExprKind::Call(f, args) => args.iter().map(d).max().unwrap_or(0).max(d(f)),
        }
    }
}
