//! faultline's intermediate representation of a C program.
//!
//! The IR is structured (if/while/switch with break/continue/return; `goto`
//! jumps only to a label in its own block or an enclosing one),
//! fully typed, and names every variable by an id. The front end
//! (`faultline-c`) makes every implicit C conversion explicit: the operands of a
//! [`ExprKind::Binary`] or [`ExprKind::Cmp`] already have the operation's type,
//! assignments already convert to the target type, and arguments already have
//! their parameters' types. Consumers (the interpreter, the encoders) therefore
//! never reason about C's conversion rules; they only apply the operation of
//! the node's type.
//!
//! A *statement* is what faultline reports and relaxes: an expression
//! statement, a declaration with an initializer, a `return`, `break` or
//! `continue`, and the condition of an `if`, loop or `switch`. Each has a
//! [`StmtId`] indexing [`Program::stmts`], which holds its source location and
//! text, its kind, and the facts later methods need (defs, uses, control
//! dependences).

pub mod analysis;
pub mod builtins;
pub mod calls;
pub mod pretty;
pub mod types;
pub mod visit;

pub use builtins::{Builtin, CtypeClass, Signature};
pub use types::*;

use std::fmt;

macro_rules! id_type {
    ($(#[$m:meta])* $name:ident) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(
    /// A statement of the source program (see the crate docs).
    StmtId
);
id_type!(
    /// A function, indexing [`Program::functions`].
    FuncId
);
id_type!(
    /// A global variable (including function-scope `static`s), indexing [`Program::globals`].
    GlobalId
);
id_type!(
    /// A local variable or parameter, indexing [`Function::locals`] of its function.
    LocalId
);
id_type!(
    /// A string literal, indexing [`Program::strings`].
    StrId
);
id_type!(
    /// A source file, indexing [`Program::files`].
    FileId
);
id_type!(
    /// A label of a function (for `goto`), numbered within the function.
    LabelId
);
id_type!(
    /// A call site (one `f(...)` in the source), indexing [`Program::call_sites`].
    CallSiteId
);

impl StmtId {
    /// The name of a loop without a condition (`for (;;)`), which has no
    /// condition statement to name it.
    pub const NO_CONDITION: StmtId = StmtId(u32::MAX);
}

impl fmt::Display for StmtId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "s{}", self.0)
    }
}

/// A source range. Lines and columns are 1-based; `end_col` is exclusive
/// (one past the last character, on `end_line`). Columns count bytes.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Loc {
    pub file: FileId,
    pub line: u32,
    pub col: u32,
    pub end_line: u32,
    pub end_col: u32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// The path as the user gave it (used in every message and report).
    pub name: String,
    pub text: String,
}

/// A variable: a global or a local of the function being executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Var {
    Global(GlobalId),
    Local(LocalId),
}

/// A variable qualified by its function, for program-wide facts (defs/uses).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum VarRef {
    Global(GlobalId),
    Local(FuncId, LocalId),
    /// Memory reached through a pointer (the analysis does not resolve it).
    Indirect,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Program {
    pub files: Vec<SourceFile>,
    pub structs: Vec<StructDef>,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
    /// String literal contents, without the terminating NUL (the object has one more cell).
    pub strings: Vec<Vec<u8>>,
    pub stmts: Vec<StmtInfo>,
    pub call_sites: Vec<CallSiteInfo>,
    pub main: FuncId,
}

impl Layout for Program {
    fn struct_def(&self, id: StructId) -> &StructDef {
        &self.structs[id.0 as usize]
    }
}

impl Program {
    pub fn stmt(&self, id: StmtId) -> &StmtInfo {
        &self.stmts[id.index()]
    }
    pub fn func(&self, id: FuncId) -> &Function {
        &self.functions[id.index()]
    }
    pub fn file_name(&self, id: FileId) -> &str {
        &self.files[id.index()].name
    }
    /// `file:line` of a statement.
    pub fn stmt_pos(&self, id: StmtId) -> String {
        let s = self.stmt(id);
        format!("{}:{}", self.file_name(s.loc.file), s.loc.line)
    }
    /// A loop for people, by its condition statement's id (what traces and
    /// bounds key loops by): "the loop at file:line", or "a `for (;;)` loop"
    /// for [`StmtId::NO_CONDITION`].
    pub fn loop_name(&self, id: StmtId) -> String {
        if id == StmtId::NO_CONDITION {
            "a `for (;;)` loop".to_string()
        } else {
            format!("the loop at {}", self.stmt_pos(id))
        }
    }
    pub fn var_name(&self, func: FuncId, v: Var) -> &str {
        match v {
            Var::Global(g) => &self.globals[g.index()].name,
            Var::Local(l) => &self.func(func).locals[l.index()].name,
        }
    }
    pub fn var_type(&self, func: FuncId, v: Var) -> &Type {
        match v {
            Var::Global(g) => &self.globals[g.index()].ty,
            Var::Local(l) => &self.func(func).locals[l.index()].ty,
        }
    }
    /// What insertion statement `id` would do, if it is one ([`Stmt::Insert`]).
    pub fn insertion(&self, id: StmtId) -> Option<Insertion> {
        if self.stmt(id).kind != StmtKind::Insert {
            return None;
        }
        let mut found = None;
        visit::for_each_stmt(&self.func(self.stmt(id).func).body, &mut |s| {
            if let Stmt::Insert { id: i, what } = s {
                if *i == id {
                    found = Some(*what);
                }
            }
        });
        found
    }
    pub fn func_by_name(&self, name: &str) -> Option<FuncId> {
        self.functions
            .iter()
            .position(|f| f.name == name)
            .map(|i| FuncId(i as u32))
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Global {
    pub name: String,
    pub ty: Type,
    /// Static initializer; cells it does not list are zero (C's static initialization).
    pub init: Initializer,
    /// The statement of its written initializer (`int top = 0;`, a
    /// [`StmtKind::Init`] at the declaration), which runs once before `main`
    /// and is a candidate like any statement; `None` without one.
    pub init_stmt: Option<StmtId>,
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub name: String,
    pub ret: Type,
    /// The parameters, in order (each also a local).
    pub params: Vec<LocalId>,
    pub locals: Vec<Local>,
    pub body: Block,
    /// The location of the function's name in its definition.
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Local {
    pub name: String,
    pub ty: Type,
    pub loc: Loc,
    pub is_param: bool,
}

/// A list of `(cell, value)` pairs. `value` is a scalar expression, or a
/// struct-typed expression whose cells start at `cell`. For globals the
/// values are constant expressions (integer/floating constants, casts of them,
/// string literals, addresses of globals).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Initializer {
    pub items: Vec<InitItem>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct InitItem {
    pub cell: u64,
    pub value: Expr,
}

pub type Block = Vec<Stmt>;

/// A condition statement: the controlling expression of an `if`, loop or `switch`.
#[derive(Clone, Debug, PartialEq)]
pub struct Cond {
    pub id: StmtId,
    /// A scalar expression (tested against zero), or the integer scrutinee of a `switch`.
    pub expr: Expr,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// An expression statement (`x = e;`, `f(a);`, `printf(...);`, `i++;`).
    Expr {
        id: StmtId,
        expr: Expr,
    },
    /// A local declaration with an initializer. With `zero_fill` (brace or
    /// string initializers), the cells `init` does not list are set to zero;
    /// otherwise `init` covers the whole object.
    Init {
        id: StmtId,
        local: LocalId,
        init: Initializer,
        zero_fill: bool,
    },
    /// A local declared without an initializer: its cells become
    /// uninitialized. A local of arithmetic type has a statement id
    /// ([`StmtKind::Declare`]): relaxed, the declaration initializes it (a
    /// missing initialization); other locals have none.
    Declare {
        id: Option<StmtId>,
        local: LocalId,
    },
    /// A statement a programmer may have left out at this point (see
    /// [`Insertion`]): nothing in the source, and nothing when executed; a
    /// candidate like any statement, relaxed, it does what the missing
    /// statement would have done.
    Insert {
        id: StmtId,
        what: Insertion,
    },
    If {
        cond: Cond,
        then: Block,
        els: Block,
    },
    /// `while (cond) body` and `for (...; cond; step) body` (the `for`'s init
    /// statements precede the loop in the enclosing block). `cond` is `None`
    /// for `for (;;)`. `step` runs after the body and on `continue`.
    While {
        cond: Option<Cond>,
        body: Block,
        step: Option<Box<Stmt>>,
    },
    DoWhile {
        body: Block,
        cond: Cond,
    },
    /// `switch`: execution starts at the body index of the matching case (or
    /// `default`, or skips the body) and falls through until `break`.
    Switch {
        cond: Cond,
        body: Block,
        cases: Vec<SwitchCase>,
        default: Option<usize>,
    },
    Return {
        id: StmtId,
        value: Option<Expr>,
    },
    Break {
        id: StmtId,
    },
    Continue {
        id: StmtId,
    },
    /// `goto label;`: execution continues at the [`Stmt::Label`] of the
    /// same label, which the front end guarantees is in this statement's
    /// block or an enclosing one of the same function (leaving loops and
    /// switches on the way, never entering one).
    Goto {
        id: StmtId,
        label: LabelId,
    },
    /// The position of a label (not a statement of its own: no id).
    Label {
        label: LabelId,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct SwitchCase {
    /// The case label's value, converted to the scrutinee's (promoted) type.
    pub value: i64,
    /// Index into the switch body where this case starts.
    pub target: usize,
}

impl Stmt {
    /// The statement's id (a condition's id for if/loops/switch); `None`
    /// for labels, `for (;;)` and declarations of non-arithmetic locals.
    pub fn id(&self) -> Option<StmtId> {
        match self {
            Stmt::Declare { id, .. } => *id,
            Stmt::Expr { id, .. }
            | Stmt::Insert { id, .. }
            | Stmt::Init { id, .. }
            | Stmt::Return { id, .. }
            | Stmt::Break { id }
            | Stmt::Continue { id }
            | Stmt::Goto { id, .. } => Some(*id),
            Stmt::If { cond, .. } | Stmt::DoWhile { cond, .. } | Stmt::Switch { cond, .. } => {
                Some(cond.id)
            }
            Stmt::While { cond, .. } => cond.as_ref().map(|c| c.id),
            Stmt::Label { .. } => None,
        }
    }
}

/// What an inserted statement ([`Stmt::Insert`]) would do: the omissions
/// faultline can name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Insertion {
    /// Print some text on stdout (a missing `printf("\n")`, a missing print
    /// of a computed value). Unrelaxed it prints nothing.
    Output,
    /// Assign the variable (a scalar of arithmetic type) a new value (a
    /// missing `count++`, a missing update). Unrelaxed it keeps its value.
    Assign(Var),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
}

impl Expr {
    /// The element type a memory function (`memcpy`, `memset`, ...) works in
    /// when given this pointer argument: the pointee of its type before its
    /// conversion to `void *` (memory holds typed cells), `char` for a
    /// `void *` without one. The interpreter and the encoder both use it.
    pub fn mem_elem(&self) -> Type {
        let inner = match &self.kind {
            ExprKind::Cast(inner) => &inner.ty,
            _ => &self.ty,
        };
        match inner.pointee() {
            Some(Type::Void) | None => CHAR,
            Some(t) => t.clone(),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    /// Arithmetic negation in the expression's type.
    Neg,
    /// `~`, on an integer type.
    BitNot,
    /// `!`: operand any scalar, result `int` 0 or 1.
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinOp {
    Add,
    Sub,
    Mul,
    /// Truncating division (integers) or IEEE division.
    Div,
    /// Remainder with the sign of the dividend (integers only).
    Rem,
    /// Shifts: the left operand has the expression's (promoted) type, the right
    /// operand its own promoted integer type.
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

/// Which standard stream a `stdin`/`stdout`/`stderr` expression denotes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Stream {
    Stdin,
    Stdout,
    Stderr,
    /// A file the program opened with `fopen` (a run-time value only: the
    /// interpreter's handle; never in the IR).
    File(u32),
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    /// Integer constant, already wrapped to the expression's type (see [`IntKind::wrap`]).
    Int(i64),
    /// Floating constant, already rounded to the expression's type.
    Float(f64),
    /// A string literal: a pointer (type `char *`) to the first character of a
    /// static, read-only array holding the bytes and a NUL.
    Str(StrId),
    /// `stdin`, `stdout`, `stderr` (type [`Type::Stream`]).
    Stream(Stream),
    /// The current value of a place: a scalar, or a whole struct (struct copy).
    Load(Box<Place>),
    /// `&place`. Array-to-pointer decay is `AddrOf(Index(array, 0))`.
    AddrOf(Box<Place>),
    Unary(UnOp, Box<Expr>),
    /// Arithmetic/bitwise operation in the expression's type (both operands
    /// already have it, except a shift's right operand).
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// Comparison of two operands of the same type (arithmetic, or pointers);
    /// the result is an `int` 0 or 1.
    Cmp(CmpOp, Box<Expr>, Box<Expr>),
    /// `pointer + integer` (the integer is a `long`, in elements of the pointee;
    /// `p - i` is `PtrAdd(p, -i)`). The type is the pointer type.
    PtrAdd(Box<Expr>, Box<Expr>),
    /// `p - q` for pointers into one object, in elements; type `long`.
    PtrDiff(Box<Expr>, Box<Expr>),
    /// Short-circuit `&&`: scalar operands tested against zero, result `int`.
    And(Box<Expr>, Box<Expr>),
    /// Short-circuit `||`.
    Or(Box<Expr>, Box<Expr>),
    /// `c ? a : b` (c a scalar; a, b already of the expression's type).
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// Conversion of the operand to the expression's type (integer/floating
    /// conversions, to `_Bool`, between pointer types, integer constant 0 to
    /// pointer, `(void)e`).
    Cast(Box<Expr>),
    /// Assignment: evaluates `place` once, then `value` (which may refer to the
    /// place's previous value through [`ExprKind::Old`]), stores it (already
    /// converted to the place's type) and yields the stored value, or the old
    /// value when `post` (`x++`, `x--`). Compound assignment `x op= e` is
    /// `Assign { x, Cast(Binary(op, Cast(Old), e)) }`.
    Assign {
        place: Box<Place>,
        value: Box<Expr>,
        post: bool,
    },
    /// The previous value of the innermost enclosing `Assign`'s place.
    Old,
    /// A call of a function defined in the program; `args` already have the
    /// parameters' types.
    Call {
        func: FuncId,
        args: Vec<Expr>,
        site: CallSiteId,
    },
    /// A function as a value: a pointer to it (type `Ptr(Func(..))`). Calls
    /// through function pointers are lowered to comparisons with the
    /// functions whose address the program takes, each branch a direct
    /// [`ExprKind::Call`].
    FuncAddr(FuncId),
    /// A call of a library function (arguments after the default argument
    /// promotions for variadic ones).
    Builtin {
        func: Builtin,
        args: Vec<Expr>,
    },
    /// `a, b`: evaluates `a`, yields `b`.
    Comma(Box<Expr>, Box<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
pub struct Place {
    pub kind: PlaceKind,
    pub ty: Type,
}

#[derive(Clone, Debug, PartialEq)]
pub enum PlaceKind {
    Var(Var),
    /// `*p`: the object `p` points to (type: the pointee).
    Deref(Box<Expr>),
    /// `a[i]` on an array-typed place, bounds-checked against the array's
    /// length (the index is a `long`). Subscripting a pointer is `Deref(PtrAdd(p, i))`.
    Index(Box<Place>, Box<Expr>),
    /// The n-th field of a struct-typed place.
    Field(Box<Place>, u32),
}

/// What kind of statement a [`StmtId`] names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StmtKind {
    /// An expression statement.
    Expr,
    /// A declaration with an initializer.
    Init,
    /// A declaration of an arithmetic local without an initializer.
    Declare,
    /// A statement that is not in the source: what may be missing at a point
    /// ([`Stmt::Insert`]).
    Insert,
    Return,
    Break,
    Continue,
    /// `goto label;`.
    Goto,
    /// The condition of an `if`.
    IfCond,
    /// The condition of a `while` or `for`.
    LoopCond,
    /// The condition of a `do ... while`.
    DoWhileCond,
    /// The scrutinee of a `switch`.
    SwitchCond,
}

impl StmtKind {
    /// Whether the statement is written in the source and executed as such
    /// (not a declaration without an initializer or an insertion, which do
    /// something only when relaxed).
    pub fn is_written(self) -> bool {
        !matches!(self, StmtKind::Declare | StmtKind::Insert)
    }

    pub fn is_condition(self) -> bool {
        matches!(
            self,
            StmtKind::IfCond | StmtKind::LoopCond | StmtKind::DoWhileCond | StmtKind::SwitchCond
        )
    }
}

/// Where control goes from a `break` or `continue` statement: what a relaxed
/// one may choose instead of its own jump (the other jump, or none).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum Jump {
    /// Leave the innermost loop or `switch`.
    Break,
    /// Go on with the next iteration of the innermost loop.
    Continue,
    /// No jump: go on with the next statement.
    Stay,
}

impl Jump {
    /// For people: `break`, `continue`, `no jump`.
    pub fn name(self) -> &'static str {
        match self {
            Jump::Break => "break",
            Jump::Continue => "continue",
            Jump::Stay => "no jump",
        }
    }
}

/// An outcome of a condition statement.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Branch {
    True,
    False,
    /// The i-th case of a switch (index into `Switch::cases`).
    Case(u32),
    /// A switch's `default`, or no case matched.
    Default,
}

#[derive(Clone, Debug, PartialEq)]
pub struct StmtInfo {
    pub loc: Loc,
    /// The statement's source text as written (before macro expansion), on one
    /// line with runs of whitespace collapsed. For conditions, the condition
    /// expression (e.g. `x >= 0`).
    pub text: String,
    pub kind: StmtKind,
    pub func: FuncId,
    /// Variables the statement itself may write (not counting callees).
    pub defs: Vec<VarRef>,
    /// Variables the statement itself may read (not counting callees).
    pub uses: Vec<VarRef>,
    /// Functions the statement calls directly.
    pub calls: Vec<FuncId>,
    /// The condition statements this statement is control-dependent on, with
    /// the outcome that leads to it (intra-procedural, from post-dominators).
    pub control: Vec<(StmtId, Branch)>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct CallSiteInfo {
    pub stmt: StmtId,
    pub func: FuncId,
    /// Whether a relaxed `stmt` gives this call's arithmetic arguments fresh
    /// values (set by [`analysis::compute`], see [`calls`]).
    pub relax_args: bool,
    /// Whether the call is its statement's whole expression (its value
    /// unused, its arguments without effect, none relaxable) and the callee
    /// only prints to stdout: relaxed, `stmt` makes what the call prints
    /// free, as a relaxed output statement's text (set by
    /// [`analysis::compute`], see [`calls`]).
    pub prints_only: bool,
}
