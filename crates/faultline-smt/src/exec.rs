//! The symbolic executor: one failing test's run as a formula.
//!
//! Execution is *guarded*: every statement is executed under a Boolean guard
//! (the condition under which control reaches it); stores update memory cells
//! with `ite(guard, new, old)`; `return`, `break`, `continue`, `exit` and a
//! forward `goto` move their guard to the enclosing join point (a `goto`'s is
//! its label). Heap blocks are objects like variables (`exec/heap.rs`). Calls are inlined; loops are
//! unrolled and recursion unfolded up to [`Bounds`], and paths that would need
//! more iterations are excluded by a hard constraint (the unwinding
//! assumption).

mod calls;
mod control;
mod expr;
mod heap;
mod io;
mod library;
mod memory;
mod streams;
mod strings;

pub use crate::instances::{InstValue, RelaxedInstance, TestEncoding};
use crate::oracle::{self, OutArg, OutEvent, OutPiece, StrVal};
use crate::summary::{Summaries, Summary};
use crate::sym::{
    self, and2, ff, implies, is_false, not, or2, tt, Checked, IntSemantics, SFloat, SInt, SPtr,
    SVal, Target, Unsupported,
};
use crate::{AbVars, Sink};
use faultline_exec::layout::Resolved;
use faultline_exec::libc;
use faultline_exec::trace::{Contexts, CtxId, Scope};
use faultline_exec::TestCase;
use faultline_ir::{
    Block, Branch, Builtin, CmpOp, Cond, CtypeClass, Expr, ExprKind, FloatKind, FuncId, IntKind,
    Jump, LabelId, Layout, Place, PlaceKind, Program, Stmt, StmtId, StmtKind, Stream, Type, Var,
    VarRef,
};
use std::collections::HashMap;
use std::fmt;
use z3::ast::{Ast, Bool};

/// Which formula to build.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
#[cfg_attr(feature = "clap", derive(clap::ValueEnum))]
pub enum Encoding {
    /// All paths of the bounded program (BugAssist, CFaults).
    #[cfg_attr(
        feature = "clap",
        value(help = "All paths of the bounded program (BugAssist, CFaults)")
    )]
    Full,
    /// Only the failing run's path; conditions are hard.
    #[cfg_attr(
        feature = "clap",
        value(help = "Only each failing run's path; conditions are not relaxable")
    )]
    Trace,
    /// SNIPER's flow-sensitive formula: CFG skeleton hard, every computation,
    /// condition and output statement soft.
    #[cfg_attr(feature = "clap", value(help = "SNIPER's flow-sensitive formula"))]
    Flow,
}

/// How a condition instance is explored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Explore {
    /// Both outcomes, symbolically.
    Both,
    /// Only this outcome (the other is infeasible: a hard constraint).
    Only(Branch),
    /// These outcomes are explored; the others are unexplored black boxes
    /// whose effects are unconstrained (on-demand formulas; see
    /// [`crate::summary`]).
    Abstract(Vec<Branch>),
}

/// Decides how condition instances are explored (on-demand strategies).
pub trait BranchPolicy {
    fn explore(&mut self, stmt: StmtId, ctx: &[Scope]) -> Explore;
}

/// Follows the branch decisions of a recorded run (the `trace` encoding):
/// every condition instance of the run takes its recorded outcome; others
/// (never reached on that path) are explored both ways.
pub struct TracePolicy {
    decisions: HashMap<(StmtId, Vec<Scope>), Branch>,
}

impl TracePolicy {
    pub fn new(trace: &faultline_exec::Trace) -> TracePolicy {
        let decisions = trace
            .decisions()
            .map(|(i, b)| ((i.stmt, trace.contexts.chain(i.ctx)), b))
            .collect();
        TracePolicy { decisions }
    }
}

impl BranchPolicy for TracePolicy {
    fn explore(&mut self, stmt: StmtId, ctx: &[Scope]) -> Explore {
        match self.decisions.get(&(stmt, ctx.to_vec())) {
            Some(b) => Explore::Only(*b),
            None => Explore::Both,
        }
    }
}

/// Unwinding bounds.
#[derive(Clone, Debug)]
pub struct Bounds {
    /// Iterations per loop (keyed by the loop's condition statement).
    pub loops: HashMap<StmtId, u32>,
    /// Iterations for loops not listed.
    pub default_loop: u32,
    /// Maximum active calls of each function (recursion depth).
    pub depth: HashMap<FuncId, u32>,
    /// Depth for functions not listed.
    pub default_depth: u32,
}

impl Default for Bounds {
    fn default() -> Self {
        Bounds {
            loops: HashMap::new(),
            default_loop: 2,
            depth: HashMap::new(),
            default_depth: 1,
        }
    }
}

/// Why a test cannot be encoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EncodeError {
    pub stmt: Option<StmtId>,
    pub message: String,
}

impl EncodeError {
    pub fn describe(&self, prog: &Program) -> String {
        match self.stmt {
            Some(s) => format!(
                "{}: cannot encode `{}`: {}",
                prog.stmt_pos(s),
                prog.stmt(s).text,
                self.message
            ),
            None => format!("cannot encode: {}", self.message),
        }
    }
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

type R<T> = Result<T, EncodeError>;

/// Encodes one failing test: asserts its formula into `solver`, sharing `ab`.
#[allow(clippy::too_many_arguments)]
pub fn encode_test<'a>(
    prog: &'a Program,
    test: &'a TestCase,
    encoding: Encoding,
    sem: IntSemantics,
    bounds: &'a Bounds,
    policy: Option<&mut dyn BranchPolicy>,
    ab: &'a mut AbVars,
    solver: &'a Sink<'a>,
) -> R<TestEncoding> {
    // What liftings learned of earlier encodings' terms would keep those
    // terms alive (gigabytes over a Siemens program's focused formulas).
    crate::lift::forget_values();
    let mut ex = SymExec::new(prog, test, encoding, sem, bounds, policy, ab, solver);
    let r = ex.run();
    ex.flush();
    crate::lift::forget_values();
    r?;
    Ok(std::mem::take(&mut ex.out))
}

impl Drop for SymExec<'_, '_> {
    /// An encoding that a limit stopped (unwinding from a [`crate::limits::tick`])
    /// leaves its state's terms to be released after the result
    /// ([`crate::limits::release_later`]): releasing a large program's
    /// memory cells and outputs took seconds past the time limit (Siemens
    /// `tot_info`'s joint formula).
    fn drop(&mut self) {
        if crate::limits::stopped_by_limit() {
            crate::limits::release_later((
                std::mem::take(&mut self.objs),
                std::mem::take(&mut self.frames),
                std::mem::take(&mut self.loops),
                std::mem::take(&mut self.outputs),
                std::mem::take(&mut self.old),
                std::mem::take(&mut self.stmts),
                std::mem::take(&mut self.out),
            ));
        }
    }
}

// ----- state ------------------------------------------------------------------

#[derive(Clone, Debug)]
struct SCell {
    v: SVal,
    init: Bool,
}

struct SObj {
    cells: Vec<SCell>,
    /// Whether the object exists (a local of an active call).
    live: bool,
    /// On which paths it is alive: a heap block until freed (see `heap`).
    alive: Bool,
    readonly: bool,
    /// A heap block or variable-length array.
    heap: Option<Box<heap::Heap>>,
}

/// One alternative of an lvalue: object `obj` at cell offset `off`, when `g`.
#[derive(Clone, Debug)]
struct LAlt {
    g: Bool,
    obj: u32,
    off: SInt,
    /// The byte address in gcc's layout of globals, for a place just outside
    /// a global array (see `faultline_exec::layout`): reads resolve against
    /// the layout, writes are undefined behaviour.
    emu: Option<u64>,
}

#[derive(Clone, Debug)]
struct LPlace {
    alts: Vec<LAlt>,
}

/// A stream the program reads: its bytes (hard facts of the test), its
/// position (a `long` term over the offsets it can take, listed in `starts`)
/// and its end-of-file indicator.
struct Reader {
    data: Vec<u8>,
    pos: SInt,
    starts: std::collections::BTreeSet<usize>,
    eof: Bool,
}

impl Reader {
    fn new(sem: IntSemantics, data: Vec<u8>) -> Reader {
        Reader {
            data,
            pos: SInt::constant(sem, IntKind::Long, 0),
            starts: std::iter::once(0).collect(),
            eof: ff(),
        }
    }
}

/// A file the program opened with `fopen` (one per `fopen` instance).
struct SFile {
    name: String,
    /// Its reader, when open for reading.
    reader: Option<usize>,
    /// Whether it is open for writing (what it is written is not observed).
    write: bool,
    /// When it has been closed.
    closed: Bool,
}

struct Frame {
    func: FuncId,
    locals: Vec<u32>,
    ctx: CtxId,
    ret_guard: Bool,
    ret: Option<Vec<SCell>>,
    /// Its variable-length arrays, by declaring statement.
    allocas: Vec<(Option<StmtId>, u32)>,
}

struct LoopCtx {
    brk: Bool,
    cont: Bool,
    /// A `switch` (which `break` leaves but `continue` passes through).
    is_switch: bool,
}

/// Per-statement bookkeeping while its instance is being encoded.
struct StmtScope {
    id: StmtId,
    relaxable: bool,
    checks: Vec<Bool>,
}

struct SymExec<'a, 'b> {
    prog: &'a Program,
    test: &'a TestCase,
    encoding: Encoding,
    sem: IntSemantics,
    bounds: &'a Bounds,
    policy: Option<&'b mut dyn BranchPolicy>,
    ab: &'a mut AbVars,
    solver: &'a Sink<'a>,
    /// The program has unions: a test whose run accesses one is refused
    /// (their members overlap in bytes, which cells do not model).
    has_unions: bool,
    objs: Vec<SObj>,
    globals: Vec<u32>,
    strings: Vec<u32>,
    /// Per function, the object its address points to (no cells: calling
    /// through a pointer compares it with these, reading through it is out
    /// of bounds).
    funcs: Vec<u32>,
    frames: Vec<Frame>,
    loops: Vec<LoopCtx>,
    /// The current function's blocks being executed, innermost last, with
    /// the index of the statement being executed in each (to tell a forward
    /// `goto` from a backward one).
    blocks: Vec<(&'a [Stmt], usize)>,
    /// The guards of forward `goto`s of the current function waiting for
    /// their label.
    labels: std::collections::BTreeMap<LabelId, Bool>,
    contexts: Contexts,
    stmts: Vec<StmtScope>,
    old: Vec<(LPlace, Type)>,
    outputs: Vec<OutEvent>,
    /// The relaxable prints-only calls under way
    /// ([`faultline_ir::CallSiteInfo::prints_only`], [`OutEvent::within`]),
    /// outermost first: each statement with its instance's context and
    /// guard.
    printing: Vec<(StmtId, Vec<Scope>, Bool)>,
    /// The streams the program reads: stdin first, then the files it opens
    /// for reading (see `exec/streams.rs`).
    readers: Vec<Reader>,
    /// The files the program opened (`Stream::File(k)` is `files[k]`).
    files: Vec<SFile>,
    /// Error indicators (`ferror`) set so far, by stream.
    stream_errors: std::collections::BTreeMap<Stream, Bool>,
    /// `fflush` of stdout: the number of output events before it, and its guard.
    flushes: Vec<(usize, Bool)>,
    /// `rand`'s possible states (seed, values drawn) and the index of the current one.
    rand_states: Vec<(u32, usize)>,
    rand_at: SInt,
    /// The (argument, result) pairs of libm functions without an exact
    /// encoding, observed in the test's run (collected when first needed).
    observed: Option<Vec<(Builtin, f64, f64)>>,
    /// Exit status so far.
    status: SInt,
    out: TestEncoding,
    fresh: u32,
    layout: faultline_exec::layout::GccLayout,
    summaries: Summaries,
    /// The type of the scalar being read (for emulated reads).
    emu_ty: Option<Type>,
    /// The fresh integers of relaxed statement instances (`full`, `trace`:
    /// the computed value is the alternative when nothing is relaxed).
    relaxed_vars: heap::Relaxed,
    /// The values of the integer terms enumerated so far (offsets and
    /// sizes: [`heap::term_values`]).
    term_values: std::cell::RefCell<heap::Found>,
    /// Hard constraints not yet asserted: asserted together at the end of
    /// the encoding ([`SymExec::flush`]), so that the solver's
    /// simplification of asserted formulas visits their shared terms once
    /// (asserted one by one, each is simplified on its own, and a loop's
    /// conditions over a growing term cost the square of its length).
    pending: std::cell::RefCell<Vec<Bool>>,
    /// What the guards of the latest reads say ([`crate::guards`]), by the
    /// guards' ids, oldest first: consecutive reads are mostly under a few
    /// guards.
    facts: Vec<(u32, std::rc::Rc<crate::guards::Facts>)>,
}

fn err(stmt: Option<StmtId>, e: Unsupported) -> EncodeError {
    EncodeError { stmt, message: e.0 }
}

impl<'a, 'b> SymExec<'a, 'b> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        prog: &'a Program,
        test: &'a TestCase,
        encoding: Encoding,
        sem: IntSemantics,
        bounds: &'a Bounds,
        policy: Option<&'b mut dyn BranchPolicy>,
        ab: &'a mut AbVars,
        solver: &'a Sink<'a>,
    ) -> Self {
        SymExec {
            has_unions: prog.structs.iter().any(|s| s.union),
            prog,
            test,
            encoding,
            sem,
            bounds,
            policy,
            ab,
            solver,
            objs: Vec::new(),
            globals: Vec::new(),
            strings: Vec::new(),
            funcs: Vec::new(),
            frames: Vec::new(),
            loops: Vec::new(),
            blocks: Vec::new(),
            labels: Default::default(),
            contexts: Contexts::new(),
            stmts: Vec::new(),
            old: Vec::new(),
            outputs: Vec::new(),
            printing: Vec::new(),
            readers: vec![Reader::new(sem, test.stdin.clone())],
            files: Vec::new(),
            stream_errors: Default::default(),
            flushes: Vec::new(),
            rand_states: vec![(1, 0)],
            rand_at: SInt::constant(sem, IntKind::Long, 0),
            observed: None,
            status: SInt::constant(sem, IntKind::Int, 0),
            out: TestEncoding::default(),
            fresh: 0,
            layout: faultline_exec::layout::GccLayout::new(prog),
            summaries: Summaries::new(prog),
            emu_ty: None,
            relaxed_vars: Default::default(),
            term_values: Default::default(),
            pending: Default::default(),
            facts: Vec::new(),
        }
    }

    fn cur(&self) -> Option<StmtId> {
        self.stmts.last().map(|s| s.id)
    }

    fn unsupported<T>(&self, msg: impl Into<String>) -> R<T> {
        Err(EncodeError {
            stmt: self.cur(),
            message: msg.into(),
        })
    }

    fn lift<T>(&self, r: Result<T, Unsupported>) -> R<T> {
        r.map_err(|e| err(self.cur(), e))
    }

    fn hard(&self, b: Bool) {
        if !sym::is_true(&b) {
            self.pending.borrow_mut().push(b);
        }
    }

    /// Asserts the pending hard constraints, as one conjunction.
    fn flush(&self) {
        let pending = std::mem::take(&mut *self.pending.borrow_mut());
        match pending.len() {
            0 => {}
            1 => self.solver.assert(&pending[0]),
            _ => self.solver.assert(&Bool::and(&pending)),
        }
    }

    /// Records a safety condition of the current statement, under guard `g`.
    fn check(&mut self, g: &Bool, cond: Bool) {
        let c = implies(g, &cond);
        if sym::is_true(&c) {
            return;
        }
        match self.stmts.last_mut() {
            Some(s) => s.checks.push(c),
            None => self.hard(c),
        }
    }

    fn name(&mut self, what: &str) -> String {
        self.fresh += 1;
        format!("{}_t{}_{}", what, self.test.name, self.fresh)
    }

    fn ctx(&self) -> CtxId {
        self.frames.last().map_or(CtxId::ROOT, |f| f.ctx)
    }

    fn set_ctx(&mut self, c: CtxId) {
        if let Some(f) = self.frames.last_mut() {
            f.ctx = c;
        }
    }

    // ----- statements ---------------------------------------------------------

    fn begin(&mut self, id: StmtId) {
        crate::limits::tick();
        let kind = self.prog.stmt(id).kind;
        let relaxable = match kind {
            // A jump changes the path: not in `trace`, whose path is the run's.
            StmtKind::Break | StmtKind::Continue => self.encoding != Encoding::Trace,
            StmtKind::Goto => false,
            k if k.is_condition() => self.encoding != Encoding::Trace,
            _ => true,
        } && self.ab.allows(id);
        self.out.instances += 1;
        self.stmts.push(StmtScope {
            id,
            relaxable,
            checks: Vec::new(),
        });
    }

    /// The relaxation variable of the current statement, if it is relaxable.
    fn cur_ab(&mut self) -> Option<Bool> {
        let s = self.stmts.last()?;
        if !s.relaxable {
            return None;
        }
        let id = s.id;
        Some(self.ab.get(id))
    }

    /// An output event of the current statement under `guard`, relaxed
    /// by `ab` (the statement's [`SymExec::cur_ab`]), within the
    /// prints-only calls under way.
    fn out_event(&mut self, guard: Bool, ab: Option<Bool>, pieces: Vec<OutPiece>) -> OutEvent {
        OutEvent {
            guard,
            stmt: self.cur().unwrap_or(StmtId(u32::MAX)),
            ctx: self.contexts.chain(self.ctx()),
            ab,
            within: self.printing.clone(),
            pieces,
            black_box: false,
        }
    }

    fn end(&mut self) {
        let Some(s) = self.stmts.pop() else { return };
        if s.checks.is_empty() {
            return;
        }
        let all = Bool::and(&s.checks.iter().collect::<Vec<_>>());
        if s.relaxable {
            let ab = self.ab.get(s.id);
            self.hard(implies(&not(&ab), &all));
        } else {
            self.hard(all);
        }
    }

    fn relax_scalar(&mut self, v: SVal, ty: &Type, g: &Bool) -> R<SVal> {
        self.relax_value(v, ty, g, None)
    }

    /// [`Self::relax_scalar`] of a stored or returned value (`arg: None`), or
    /// of argument `arg` of a call with relaxable arguments.
    fn relax_value(&mut self, v: SVal, ty: &Type, g: &Bool, arg: Option<u32>) -> R<SVal> {
        let Some(ab) = self.cur_ab() else {
            return Ok(v);
        };
        if !ty.is_arithmetic() {
            return Ok(v);
        }
        let id = self.cur().expect("a statement is active");
        let name = self.name(&format!("v{}", id.0));
        let (f, range) = self.lift(SVal::fresh(self.sem, ty, &name))?;
        self.hard(range);
        // In `flow` the fresh value is the instance's value itself (equal to
        // the computed one only by a constraint), not an alternative to it.
        if let (SVal::Int(i), false) = (&f, self.encoding == Encoding::Flow) {
            self.relaxed_vars.insert(i.dynamic());
        }
        let chosen = match self.encoding {
            Encoding::Flow => {
                self.hard(implies(&and2(g, &not(&ab)), &f.eq(&v)));
                f
            }
            _ => SVal::ite(&ab, &f, &v),
        };
        let ctx = self.contexts.chain(self.ctx());
        self.out.relaxed.push(RelaxedInstance {
            stmt: id,
            ctx,
            guard: g.clone(),
            value: match arg {
                None => InstValue::Scalar {
                    chosen: chosen.clone(),
                    computed: v,
                },
                Some(index) => InstValue::Argument {
                    index,
                    chosen: chosen.clone(),
                    computed: v,
                },
            },
        });
        Ok(chosen)
    }

    fn relax_cond(&mut self, c: Bool, g: &Bool) -> Bool {
        let Some(ab) = self.cur_ab() else { return c };
        let id = self.cur().expect("a statement is active");
        let name = self.name(&format!("c{}", id.0));
        let f = Bool::fresh_const(&name);
        let chosen = match self.encoding {
            Encoding::Flow => {
                self.hard(implies(&and2(g, &not(&ab)), &f.eq(&c)));
                f
            }
            _ => sym::ite_bool(&ab, &f, &c),
        };
        let ctx = self.contexts.chain(self.ctx());
        self.out.relaxed.push(RelaxedInstance {
            stmt: id,
            ctx,
            guard: g.clone(),
            value: InstValue::Branch {
                chosen: chosen.clone(),
                computed: c,
            },
        });
        chosen
    }

    /// The jump of the current `break` or `continue` (its own, `computed`,
    /// unless relaxed) as `(leave, next)` (see [`InstValue::Jump`]); going on
    /// with the next iteration is a choice only inside a loop.
    fn relax_jump(&mut self, computed: Jump, g: &Bool) -> (Bool, Bool) {
        let (l, n) = crate::instances::jump_bits(computed);
        let (cl, cn) = (Bool::from_bool(l), Bool::from_bool(n));
        let Some(ab) = self.cur_ab() else {
            return (cl, cn);
        };
        let id = self.cur().expect("a statement is active");
        let fl = Bool::fresh_const(&self.name(&format!("jl{}", id.0)));
        let fnx = if self.loops.iter().any(|l| !l.is_switch) {
            Bool::fresh_const(&self.name(&format!("jn{}", id.0)))
        } else {
            ff()
        };
        let (leave, next) = match self.encoding {
            Encoding::Flow => {
                let own = and2(&fl.eq(&cl), &fnx.eq(&cn));
                self.hard(implies(&and2(g, &not(&ab)), &own));
                (fl, fnx)
            }
            _ => (sym::ite_bool(&ab, &fl, &cl), sym::ite_bool(&ab, &fnx, &cn)),
        };
        let ctx = self.contexts.chain(self.ctx());
        self.out.relaxed.push(RelaxedInstance {
            stmt: id,
            ctx,
            guard: g.clone(),
            value: InstValue::Jump {
                leave: leave.clone(),
                next: next.clone(),
                computed,
            },
        });
        (leave, next)
    }

    fn run(&mut self) -> R<()> {
        self.init_memory()?;
        let prog = self.prog;
        let main = prog.main;
        let mut args = Vec::new();
        if prog.func(main).params.len() == 2 {
            let argc = self.test.args.len() + 1;
            let all: Vec<String> = std::iter::once("./prog".to_string())
                .chain(self.test.args.iter().cloned())
                .collect();
            let mut ptrs = Vec::new();
            for a in &all {
                let cells = a
                    .bytes()
                    .chain(std::iter::once(0))
                    .map(|b| SCell {
                        v: SVal::Int(SInt::constant(self.sem, IntKind::Char, b as i8 as i128)),
                        init: tt(),
                    })
                    .collect();
                let id = self.alloc(cells, false);
                ptrs.push(self.ptr_to(id, 0));
            }
            ptrs.push(SCell {
                v: SVal::Ptr(SPtr::single(Target::Null)),
                init: tt(),
            });
            let argv = self.alloc(ptrs, false);
            args.push(vec![SCell {
                v: SVal::Int(SInt::constant(self.sem, IntKind::Int, argc as i128)),
                init: tt(),
            }]);
            args.push(vec![self.ptr_to(argv, 0)]);
        } else if !prog.func(main).params.is_empty() {
            return self.unsupported("main must take no parameters or (argc, argv)");
        }
        let g = tt();
        let (ret, normal) = self.call(main, args, &g, None)?;
        // Falling off the end of main returns 0.
        let main_status = match ret.and_then(|r| r.into_iter().next()) {
            Some(SCell {
                v: SVal::Int(i), ..
            }) => i.convert(IntKind::Int),
            _ => SInt::constant(self.sem, IntKind::Int, 0),
        };
        self.status = SInt::ite(&normal, &main_status, &self.status.clone());
        self.oracle()
    }

    // ----- calls ----------------------------------------------------------------

    // ----- memory -------------------------------------------------------------------

    // ----- expressions ----------------------------------------------------------------

    // ----- library ----------------------------------------------------------------------

    // ----- the oracle -------------------------------------------------------------------
}

/// Whether an expression is (a conversion of) a read of the test's input:
/// `atoi`/`atol`/`atof` (of `argv`), `getchar`, `scanf`. Storing such a value
/// is not relaxed: the input is a hard fact of the test.
fn is_input(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Cast(a) => is_input(a),
        ExprKind::Builtin { func, .. } => func.is_input(),
        _ => false,
    }
}

/// Makes a read value fit the expected scalar type (cells written through a
/// differently typed pointer keep their own representation).
fn coerce(v: SVal, ty: &Type, sem: IntSemantics) -> SVal {
    match (&v, ty) {
        (SVal::Int(i), Type::Int(k)) if i.kind != *k => SVal::Int(i.convert(*k)),
        (SVal::Int(_), Type::Int(_))
        | (SVal::Float(_), Type::Float(_))
        | (SVal::Ptr(_), Type::Ptr(_) | Type::Stream) => match (&v, ty) {
            (SVal::Float(f), Type::Float(k)) if f.kind != *k => SVal::Float(f.convert(*k)),
            _ => v,
        },
        // A cell of another shape: only reachable under a false condition.
        _ if ty.is_scalar() => SVal::zero(sem, ty),
        _ => v,
    }
}
