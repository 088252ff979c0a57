//! The tree-walking interpreter over the IR.

use crate::layout::{GccLayout, Resolved};
use crate::libc;
use crate::memory::{Memory, Origin};
use crate::trace::{
    Contexts, Coverage, CtxId, Event, Instance, Outcome, Scope, Target, Trace, Write,
};
use crate::value::{self, ArithError, Ptr, Value};
use faultline_ir::{
    BinOp, Block, Branch, Builtin, CallSiteId, Expr, ExprKind, FuncId, Initializer, Layout, Place,
    PlaceKind, Program, Stmt, StmtId, Stream, Type, UnOp, Var, VarRef,
};
use std::collections::HashMap;
use std::fmt;

/// Resource limits of one run.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Statement executions (and loop iterations) before the run is ended as non-terminating.
    pub max_steps: u64,
    /// Nested calls before the run is ended as a stack overflow.
    pub max_depth: usize,
    /// Bytes of stdout plus stderr before the run is ended.
    pub max_output: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: 10_000_000,
            max_depth: 5_000,
            max_output: 16 << 20,
        }
    }
}

/// A statement instance as hooks see it: its name and its context chain.
#[derive(Clone, Copy, Debug)]
pub struct Site<'a> {
    pub inst: Instance,
    pub ctx: &'a [Scope],
}

/// Lets a caller observe and steer a run: force branch outcomes (execution
/// hijacking) and substitute what statements produce (angelic values).
pub trait Hooks {
    /// Called after a condition instance is evaluated; returns the outcome to follow.
    fn branch(&mut self, site: &Site, computed: Branch) -> Branch {
        let _ = site;
        computed
    }
    /// Called for the `k`-th value a statement instance produces (a store it
    /// makes itself, or the value it returns); returns the value to use.
    fn value(&mut self, site: &Site, k: u32, computed: Value) -> Value {
        let _ = (site, k);
        computed
    }
    /// Called with the text an output statement instance writes to stdout;
    /// returns the text to write instead.
    fn output(&mut self, site: &Site, computed: Vec<u8>) -> Vec<u8> {
        let _ = site;
        computed
    }
    /// Called before each statement instance; returning `true` ends the run
    /// there with [`Termination::Stopped`].
    fn stop_before(&mut self, site: &Site) -> bool {
        let _ = site;
        false
    }
    /// Whether a statement is relaxed: replaced by an unknown well-defined
    /// one, so its own faults are waived (an invalid store is dropped, an
    /// invalid read or operation yields 0), as in the formulas.
    fn relaxed(&self, stmt: StmtId) -> bool {
        let _ = stmt;
        false
    }
}

/// What ended a run with a runtime error.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorKind {
    DivisionByZero,
    OutOfBounds,
    NullDereference,
    DanglingPointer,
    UninitializedRead,
    StepLimit,
    InvalidShift,
    StackOverflow,
    OutputLimit,
    WriteToReadonly,
    Overflow,
    Unsupported,
    Invalid,
}

impl ErrorKind {
    pub fn name(self) -> &'static str {
        match self {
            ErrorKind::DivisionByZero => "division-by-zero",
            ErrorKind::OutOfBounds => "out-of-bounds",
            ErrorKind::NullDereference => "null-dereference",
            ErrorKind::DanglingPointer => "dangling-pointer",
            ErrorKind::UninitializedRead => "uninitialized-read",
            ErrorKind::StepLimit => "step-limit",
            ErrorKind::InvalidShift => "invalid-shift",
            ErrorKind::StackOverflow => "stack-overflow",
            ErrorKind::OutputLimit => "output-limit",
            ErrorKind::WriteToReadonly => "write-to-readonly",
            ErrorKind::Overflow => "overflow",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Invalid => "invalid",
        }
    }
}

/// A runtime error, naming the statement that raised it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuntimeError {
    pub kind: ErrorKind,
    pub stmt: Option<StmtId>,
    pub message: String,
}

impl RuntimeError {
    /// `file:line: message` (and the statement's text) for people.
    pub fn describe(&self, prog: &Program) -> String {
        match self.stmt {
            Some(s) => format!(
                "{}: {} (in `{}`)",
                prog.stmt_pos(s),
                self.message,
                prog.stmt(s).text
            ),
            None => self.message.clone(),
        }
    }
}

impl fmt::Display for RuntimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// How a run ended.
#[derive(Clone, Debug, PartialEq)]
pub enum Termination {
    /// Normal exit (return from `main` or `exit`), with the status the parent sees (0..=255).
    Exit(i32),
    /// A failed `assert` (the process aborts: status 134 in a shell).
    AssertFailed {
        stmt: StmtId,
        message: String,
    },
    RuntimeError(RuntimeError),
    /// Ended by [`Hooks::stop_before`].
    Stopped,
}

/// The observable result of one execution.
#[derive(Clone, Debug)]
pub struct Execution {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub termination: Termination,
    pub trace: Option<Trace>,
    pub coverage: Coverage,
    pub steps: u64,
    /// Undefined behaviour the run went through without stopping (reads just
    /// outside a global array, resolved as gcc lays out globals).
    pub warnings: Vec<String>,
    /// Statements whose signed arithmetic overflowed (wrapped, as gcc -O0 does).
    pub overflows: Vec<StmtId>,
}

impl Execution {
    /// The exit status a shell would report (134 for an abort; runtime errors
    /// are reported as 139, like a crash).
    pub fn exit_status(&self) -> i32 {
        match self.termination {
            Termination::Exit(s) => s,
            Termination::AssertFailed { .. } => 134,
            Termination::RuntimeError(_) | Termination::Stopped => 139,
        }
    }
}

/// Input of one execution.
#[derive(Clone, Debug, Default)]
pub struct Input<'a> {
    /// `argv[1..]`.
    pub args: &'a [String],
    pub stdin: &'a [u8],
}

/// Options of one execution.
#[derive(Default)]
pub struct ExecOptions<'h> {
    pub record_trace: bool,
    pub limits: Limits,
    pub hooks: Option<&'h mut dyn Hooks>,
}

/// Why an execution stopped early (internal control flow).
enum Stop {
    Exit(i32),
    Assert(StmtId, String),
    Error(RuntimeError),
    Hooked,
}

type R<T> = Result<T, Stop>;

/// A program prepared for execution: its initial memory image (globals and
/// string literals) is built once and copied into every run.
pub struct Executable<'p> {
    prog: &'p Program,
    image: Memory,
    globals: Vec<u32>,
    strings: Vec<u32>,
    argv0: String,
    layout: GccLayout,
}

impl<'p> Executable<'p> {
    pub fn new(prog: &'p Program) -> Result<Executable<'p>, RuntimeError> {
        let mut mem = Memory::default();
        let strings = prog
            .strings
            .iter()
            .map(|s| {
                let mut cells: Vec<Value> = s.iter().map(|&b| Value::Int(b as i8 as i64)).collect();
                cells.push(Value::Int(0));
                let id = mem.alloc(0, Value::Int(0), Origin::StrLit, true);
                mem.objects[id as usize].cells = cells;
                id
            })
            .collect();
        let globals: Vec<u32> = prog
            .globals
            .iter()
            .enumerate()
            .map(|(i, g)| {
                let n = prog.cells(&g.ty) as usize;
                let mut types = Vec::with_capacity(n);
                prog.cell_types(&g.ty, &mut types);
                let id = mem.alloc(
                    0,
                    Value::Int(0),
                    Origin::Var(VarRef::Global(faultline_ir::GlobalId(i as u32))),
                    false,
                );
                mem.objects[id as usize].cells = types.iter().map(zero_of).collect();
                id
            })
            .collect();
        let argv0 = prog
            .files
            .first()
            .map(|f| {
                let stem = std::path::Path::new(&f.name)
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned());
                format!("./{}", stem.unwrap_or_else(|| "a.out".into()))
            })
            .unwrap_or_else(|| "./a.out".into());
        let mut exe = Executable {
            prog,
            image: mem,
            globals,
            strings,
            argv0,
            layout: GccLayout::new(prog),
        };
        // Evaluate the static initializers once.
        let mut m = Machine::new(&exe, Input::default(), ExecOptions::default());
        for (i, g) in prog.globals.iter().enumerate() {
            let obj = m.globals[i];
            if let Err(stop) = m.init_object(obj, &g.ty, &g.init) {
                return Err(match stop {
                    Stop::Error(e) => e,
                    _ => RuntimeError {
                        kind: ErrorKind::Invalid,
                        stmt: None,
                        message: format!("invalid initializer of global '{}'", g.name),
                    },
                });
            }
        }
        exe.image = m.mem;
        Ok(exe)
    }

    pub fn program(&self) -> &'p Program {
        self.prog
    }

    /// Runs `main` on the given input.
    pub fn run(&self, input: Input<'_>, options: ExecOptions<'_>) -> Execution {
        let mut m = Machine::new(self, input, options);
        let result = m.run_main();
        let termination = match result {
            Ok(status) | Err(Stop::Exit(status)) => Termination::Exit(status & 0xff),
            Err(Stop::Assert(stmt, message)) => Termination::AssertFailed { stmt, message },
            Err(Stop::Error(e)) => Termination::RuntimeError(e),
            Err(Stop::Hooked) => Termination::Stopped,
        };
        Execution {
            stdout: m.out,
            stderr: m.err,
            termination,
            trace: m.trace.map(|mut t| {
                t.contexts = std::mem::take(&mut m.contexts);
                t
            }),
            coverage: {
                let mut cov = m.cov;
                let u = m.uses.into_inner();
                cov.used = u.used;
                cov.wrote = u.wrote;
                cov
            },
            steps: m.steps,
            warnings: m.warnings,
            overflows: m.overflows,
        }
    }
}

/// Whether values of types `a` and `b` are stored alike (same width,
/// signedness and kind), so that one may be accessed as the other.
fn same_repr(a: &Type, b: &Type) -> bool {
    match (a, b) {
        (Type::Int(x), Type::Int(y)) => {
            x.bits() == y.bits()
                && x.signed() == y.signed()
                && (*x == faultline_ir::IntKind::Bool) == (*y == faultline_ir::IntKind::Bool)
        }
        (Type::Ptr(_), Type::Ptr(_)) => true,
        _ => a == b,
    }
}

/// Whether an object of type `obj` holds, `off` cells from its start, an
/// object of type `t` (itself, an element, a member, or their first parts).
fn holds(prog: &Program, obj: &Type, off: u64, t: &Type) -> bool {
    if off == 0 && same_repr(obj, t) {
        return true;
    }
    match obj {
        Type::Array(e, n) => {
            let c = prog.cells(e).max(1);
            off / c < *n && holds(prog, e, off % c, t)
        }
        Type::Struct(s) => prog.struct_def(*s).fields.iter().any(|f| {
            off >= f.cell_offset
                && off < f.cell_offset + prog.cells(&f.ty)
                && holds(prog, &f.ty, off - f.cell_offset, t)
        }),
        _ => false,
    }
}

fn zero_of(t: &Type) -> Value {
    match t {
        Type::Float(_) => Value::Float(0.0),
        Type::Ptr(_) | Type::Stream => Value::Ptr(Ptr::NULL),
        _ => Value::Int(0),
    }
}

/// Which statement last wrote each cell, to tell whether what a statement
/// computed was used (read afterwards): the *use* spectrum of clause weighting.
#[derive(Default)]
struct Uses {
    writers: Vec<Vec<u32>>,
    used: Vec<u32>,
    wrote: Vec<u32>,
}

impl Uses {
    fn reset(&mut self, obj: u32) {
        if let Some(w) = self.writers.get_mut(obj as usize) {
            w.clear();
        }
    }
    fn write(&mut self, obj: u32, off: usize, stmt: Option<StmtId>) {
        let o = obj as usize;
        if self.writers.len() <= o {
            self.writers.resize_with(o + 1, Vec::new);
        }
        let w = &mut self.writers[o];
        if w.len() <= off {
            w.resize(off + 1, u32::MAX);
        }
        w[off] = stmt.map_or(u32::MAX, |s| s.0);
        if let Some(s) = stmt {
            self.wrote[s.index()] = 1;
        }
    }
    fn read(&mut self, obj: u32, off: usize) {
        if let Some(&s) = self.writers.get(obj as usize).and_then(|w| w.get(off)) {
            if s != u32::MAX {
                self.used[s as usize] = 1;
            }
        }
    }
}

/// A location in memory: an object and a cell offset.
#[derive(Clone, Copy, Debug)]
struct Loc {
    obj: u32,
    off: usize,
    /// Set when the place lies outside its global array: reads are resolved
    /// against gcc's layout of globals (see [`crate::layout`]), writes fail.
    emu: Option<Emu>,
    /// An invalid place of a relaxed statement: reads give 0, writes are dropped.
    void: bool,
}

/// An out-of-bounds place inside a global: its address in gcc's layout and
/// the offending index.
#[derive(Clone, Copy, Debug)]
struct Emu {
    addr: u64,
    index: i64,
    len: u64,
}

impl Loc {
    fn at(obj: u32, off: usize) -> Loc {
        Loc {
            obj,
            off,
            emu: None,
            void: false,
        }
    }
    const VOID: Loc = Loc {
        obj: 0,
        off: 0,
        emu: None,
        void: true,
    };
}

struct Frame {
    func: FuncId,
    locals: Vec<u32>,
    /// The current context (changes as loops iterate).
    ctx: CtxId,
    /// Executions so far of each statement in this activation (when tracking).
    occ: HashMap<StmtId, u32>,
    /// The statement instance being executed in this frame.
    inst: Instance,
    /// Index of its trace event.
    event: Option<usize>,
    /// Values produced so far by this instance (for [`Hooks::value`]).
    produced: u32,
}

enum Flow {
    Normal,
    Break,
    Continue,
    Return(Ret),
}

enum Ret {
    Void,
    Scalar(Value),
    Agg(Vec<Value>),
}

struct Machine<'e, 'p, 'h> {
    prog: &'p Program,
    mem: Memory,
    globals: &'e [u32],
    strings: &'e [u32],
    argv0: &'e str,
    frames: Vec<Frame>,
    out: Vec<u8>,
    err: Vec<u8>,
    input: libc::Input,
    args: Vec<String>,
    steps: u64,
    limits: Limits,
    /// The statement being executed (for error messages).
    cur: Option<StmtId>,
    trace: Option<Trace>,
    /// Whether instances are tracked (trace or hooks).
    tracking: bool,
    contexts: Contexts,
    cov: Coverage,
    hooks: Option<&'h mut dyn Hooks>,
    /// Places of the enclosing assignments, for `ExprKind::Old`.
    old: Vec<Loc>,
    exe_layout: &'e GccLayout,
    uses: std::cell::RefCell<Uses>,
    /// Undefined behaviour the run survived (emulated out-of-bounds reads).
    warnings: Vec<String>,
    overflows: Vec<StmtId>,
}

impl<'e, 'p, 'h> Machine<'e, 'p, 'h> {
    fn new(exe: &'e Executable<'p>, input: Input<'_>, options: ExecOptions<'h>) -> Self {
        let tracking = options.record_trace || options.hooks.is_some();
        Machine {
            prog: exe.prog,
            mem: exe.image.clone(),
            globals: &exe.globals,
            strings: &exe.strings,
            argv0: &exe.argv0,
            frames: Vec::new(),
            out: Vec::new(),
            err: Vec::new(),
            input: libc::Input::new(input.stdin.to_vec()),
            args: input.args.to_vec(),
            steps: 0,
            limits: options.limits,
            cur: None,
            trace: options.record_trace.then(Trace::default),
            tracking,
            contexts: Contexts::new(),
            cov: Coverage::new(exe.prog.stmts.len()),
            hooks: options.hooks,
            old: Vec::new(),
            exe_layout: &exe.layout,
            uses: std::cell::RefCell::new(Uses {
                writers: Vec::new(),
                used: vec![0; exe.prog.stmts.len()],
                wrote: vec![0; exe.prog.stmts.len()],
            }),
            warnings: Vec::new(),
            overflows: Vec::new(),
        }
    }

    // ----- errors -------------------------------------------------------

    fn error(&self, kind: ErrorKind, message: impl Into<String>) -> Stop {
        Stop::Error(RuntimeError {
            kind,
            stmt: self.cur,
            message: message.into(),
        })
    }

    fn arith(&self, e: ArithError) -> Stop {
        let kind = match e {
            ArithError::DivByZero => ErrorKind::DivisionByZero,
            ArithError::DivOverflow => ErrorKind::Overflow,
            ArithError::InvalidShift(_) => ErrorKind::InvalidShift,
            ArithError::Uninit => ErrorKind::UninitializedRead,
            ArithError::Invalid(_) => ErrorKind::Invalid,
        };
        self.error(kind, e.to_string())
    }

    fn object_name(&self, obj: u32) -> String {
        match self.mem.objects[obj as usize].origin {
            Origin::Var(VarRef::Global(g)) => format!("'{}'", self.prog.globals[g.index()].name),
            Origin::Var(VarRef::Local(f, l)) => {
                format!("'{}'", self.prog.func(f).locals[l.index()].name)
            }
            Origin::Var(VarRef::Indirect) => "an object".into(),
            Origin::StrLit => "a string literal".into(),
            Origin::Arg => "a command-line argument".into(),
        }
    }

    // ----- statements and instances --------------------------------------

    /// Whether the current statement's faults are waived (it is relaxed).
    fn waived(&self) -> bool {
        match (&self.hooks, self.cur) {
            (Some(h), Some(s)) => h.relaxed(s),
            _ => false,
        }
    }

    /// Maps an arithmetic fault to a runtime error, or to 0 in a relaxed statement.
    fn arith_or_zero(&self, r: Result<Value, ArithError>, ty: &Type) -> R<Value> {
        match r {
            Ok(v) => Ok(v),
            Err(_) if self.waived() => Ok(zero_of(ty)),
            Err(e) => Err(self.arith(e)),
        }
    }

    /// Records that the current statement overflowed a signed type (undefined
    /// behaviour that gcc -O0 wraps around; formulas exclude it).
    fn note_overflow(&mut self) {
        if let Some(s) = self.cur {
            if !self.overflows.contains(&s) {
                self.overflows.push(s);
            }
        }
    }

    fn frame(&mut self) -> &mut Frame {
        self.frames
            .last_mut()
            .expect("a frame is active while executing statements")
    }

    /// Enters a statement instance: step budget, coverage, trace, hooks.
    fn begin(&mut self, id: StmtId) -> R<()> {
        self.cur = Some(id);
        self.steps += 1;
        if self.steps > self.limits.max_steps {
            return Err(self.error(
                ErrorKind::StepLimit,
                format!(
                    "step limit of {} exceeded (non-terminating loop?)",
                    self.limits.max_steps
                ),
            ));
        }
        self.cov.stmts[id.index()] += 1;
        if self.tracking {
            let f = self
                .frames
                .last_mut()
                .expect("a frame is active while executing statements");
            let ctx = f.ctx;
            let occ = {
                let c = f.occ.entry(id).or_insert(0);
                *c += 1;
                *c - 1
            };
            let inst = Instance { stmt: id, ctx, occ };
            let event = self.trace.as_mut().map(|t| {
                t.events.push(Event {
                    inst,
                    outcome: Outcome::None,
                    writes: Vec::new(),
                });
                t.events.len() - 1
            });
            if self.hooks.is_some() {
                let chain = self.contexts.chain(ctx);
                let stop = self
                    .hooks
                    .as_mut()
                    .is_some_and(|h| h.stop_before(&Site { inst, ctx: &chain }));
                if stop {
                    return Err(Stop::Hooked);
                }
            }
            let f = self.frame();
            f.inst = inst;
            f.event = event;
            f.produced = 0;
        }
        Ok(())
    }

    /// Records a condition's outcome and lets the hooks override it.
    fn decide(&mut self, id: StmtId, computed: Branch) -> Branch {
        let mut b = computed;
        if self.tracking {
            let f = self.frames.last().expect("frame");
            let (inst, event) = (f.inst, f.event);
            if self.hooks.is_some() {
                let chain = self.contexts.chain(inst.ctx);
                if let Some(h) = self.hooks.as_mut() {
                    b = h.branch(&Site { inst, ctx: &chain }, computed);
                }
            }
            if let (Some(t), Some(ev)) = (self.trace.as_mut(), event) {
                t.events[ev].outcome = Outcome::Branch(b);
            }
        }
        *self.cov.branches.entry((id, b)).or_insert(0) += 1;
        b
    }

    /// A value produced by the current statement instance (a store or a return).
    fn produce(&mut self, target: Target, v: Value) -> Value {
        if !self.tracking {
            return v;
        }
        let f = self.frames.last_mut().expect("frame");
        let (inst, event, k) = (f.inst, f.event, f.produced);
        f.produced += 1;
        let v = if self.hooks.is_some() {
            let chain = self.contexts.chain(inst.ctx);
            match self.hooks.as_mut() {
                Some(h) => h.value(&Site { inst, ctx: &chain }, k, v),
                None => v,
            }
        } else {
            v
        };
        if let (Some(t), Some(ev)) = (self.trace.as_mut(), event) {
            t.events[ev].writes.push(Write { target, value: v });
        }
        v
    }

    fn exec_block(&mut self, block: &'p Block) -> R<Flow> {
        for s in block {
            match self.exec(s)? {
                Flow::Normal => {}
                flow => return Ok(flow),
            }
        }
        Ok(Flow::Normal)
    }

    fn tick(&mut self) -> R<()> {
        self.steps += 1;
        if self.steps > self.limits.max_steps {
            return Err(self.error(
                ErrorKind::StepLimit,
                format!(
                    "step limit of {} exceeded (non-terminating loop?)",
                    self.limits.max_steps
                ),
            ));
        }
        Ok(())
    }

    fn cond(&mut self, c: &'p faultline_ir::Cond) -> R<bool> {
        self.begin(c.id)?;
        let v = self.eval(&c.expr)?;
        let t = value::truthy(v).map_err(|e| self.arith(e))?;
        let b = self.decide(c.id, if t { Branch::True } else { Branch::False });
        Ok(b == Branch::True)
    }

    fn exec(&mut self, s: &'p Stmt) -> R<Flow> {
        match s {
            Stmt::Expr { id, expr } => {
                self.begin(*id)?;
                if expr.ty.is_scalar() || expr.ty == Type::Void {
                    self.eval(expr)?;
                } else {
                    self.eval_agg(expr)?;
                }
                Ok(Flow::Normal)
            }
            Stmt::Init {
                id,
                local,
                init,
                zero_fill,
            } => {
                self.begin(*id)?;
                let obj = self.frames.last().expect("frame").locals[local.index()];
                let ty = &self
                    .prog
                    .func(self.frames.last().expect("frame").func)
                    .locals[local.index()]
                .ty;
                if *zero_fill {
                    let mut types = Vec::new();
                    self.prog.cell_types(ty, &mut types);
                    let cells: Vec<Value> = types.iter().map(zero_of).collect();
                    self.mem.objects[obj as usize].cells = cells;
                }
                self.init_object(obj, ty, init)?;
                Ok(Flow::Normal)
            }
            Stmt::Declare { local } => {
                let obj = self.frames.last().expect("frame").locals[local.index()];
                for c in self.mem.objects[obj as usize].cells.iter_mut() {
                    *c = Value::Uninit;
                }
                Ok(Flow::Normal)
            }
            Stmt::If { cond, then, els } => {
                if self.cond(cond)? {
                    self.exec_block(then)
                } else {
                    self.exec_block(els)
                }
            }
            Stmt::While { cond, body, step } => {
                let loop_id = cond.as_ref().map_or(StmtId(u32::MAX), |c| c.id);
                let outer = self.frames.last().expect("frame").ctx;
                let r = self.while_loop(cond.as_ref(), body, step.as_deref(), loop_id, outer);
                self.frame().ctx = outer;
                r
            }
            Stmt::DoWhile { body, cond } => {
                let outer = self.frames.last().expect("frame").ctx;
                let r = self.do_loop(body, cond, outer);
                self.frame().ctx = outer;
                r
            }
            Stmt::Switch {
                cond,
                body,
                cases,
                default,
            } => {
                self.begin(cond.id)?;
                let v = self.eval(&cond.expr)?;
                let k = match (v, &cond.expr.ty) {
                    (Value::Int(i), Type::Int(_)) => i,
                    (Value::Uninit, _) => return Err(self.arith(ArithError::Uninit)),
                    _ => {
                        return Err(self.error(ErrorKind::Invalid, "switch on a non-integer value"))
                    }
                };
                let computed = match cases.iter().position(|c| c.value == k) {
                    Some(i) => Branch::Case(i as u32),
                    None => Branch::Default,
                };
                let start = match self.decide(cond.id, computed) {
                    Branch::Case(i) => cases.get(i as usize).map(|c| c.target),
                    _ => *default,
                };
                let Some(start) = start else {
                    return Ok(Flow::Normal);
                };
                for s in &body[start..] {
                    match self.exec(s)? {
                        Flow::Normal => {}
                        Flow::Break => return Ok(Flow::Normal),
                        flow => return Ok(flow),
                    }
                }
                Ok(Flow::Normal)
            }
            Stmt::Return { id, value } => {
                self.begin(*id)?;
                let r = match value {
                    None => Ret::Void,
                    Some(e) if e.ty.is_scalar() => {
                        let v = self.eval(e)?;
                        Ret::Scalar(self.produce(Target::Return, v))
                    }
                    Some(e) => Ret::Agg(self.eval_agg(e)?),
                };
                Ok(Flow::Return(r))
            }
            Stmt::Break { id } => {
                self.begin(*id)?;
                Ok(Flow::Break)
            }
            Stmt::Continue { id } => {
                self.begin(*id)?;
                Ok(Flow::Continue)
            }
        }
    }

    /// Enters iteration `k` of a loop (for instance naming).
    fn iteration(&mut self, loop_id: StmtId, outer: CtxId, k: u32) -> R<()> {
        self.tick()?;
        if self.tracking {
            let ctx = self.contexts.enter(outer, Scope::Iter(loop_id, k));
            self.frame().ctx = ctx;
        }
        Ok(())
    }

    fn while_loop(
        &mut self,
        cond: Option<&'p faultline_ir::Cond>,
        body: &'p Block,
        step: Option<&'p Stmt>,
        loop_id: StmtId,
        outer: CtxId,
    ) -> R<Flow> {
        let mut k = 0u32;
        loop {
            self.iteration(loop_id, outer, k)?;
            k = k.wrapping_add(1);
            if let Some(c) = cond {
                if !self.cond(c)? {
                    return Ok(Flow::Normal);
                }
            }
            match self.exec_block(body)? {
                Flow::Break => return Ok(Flow::Normal),
                r @ Flow::Return(_) => return Ok(r),
                Flow::Normal | Flow::Continue => {}
            }
            if let Some(st) = step {
                self.exec(st)?;
            }
        }
    }

    fn do_loop(&mut self, body: &'p Block, cond: &'p faultline_ir::Cond, outer: CtxId) -> R<Flow> {
        let mut k = 0u32;
        loop {
            self.iteration(cond.id, outer, k)?;
            k = k.wrapping_add(1);
            match self.exec_block(body)? {
                Flow::Break => return Ok(Flow::Normal),
                r @ Flow::Return(_) => return Ok(r),
                Flow::Normal | Flow::Continue => {}
            }
            if !self.cond(cond)? {
                return Ok(Flow::Normal);
            }
        }
    }

    /// Stores an initializer into an object (zeroing is the caller's business).
    fn init_object(&mut self, obj: u32, ty: &Type, init: &'p Initializer) -> R<()> {
        let _ = ty;
        for item in &init.items {
            let loc = Loc::at(obj, item.cell as usize);
            if item.value.ty.is_scalar() {
                let v = self.eval(&item.value)?;
                self.store(loc, v, true)?;
            } else {
                let cells = self.eval_agg(&item.value)?;
                self.store_agg(loc, &cells)?;
            }
        }
        Ok(())
    }

    // ----- calls ----------------------------------------------------------

    fn run_main(&mut self) -> R<i32> {
        let prog = self.prog;
        let main = prog.func(prog.main);
        let mut args = Vec::new();
        if !main.params.is_empty() {
            if main.params.len() != 2 {
                return Err(self.error(
                    ErrorKind::Unsupported,
                    "main must take no parameters or (argc, argv)",
                ));
            }
            let argc = self.args.len() + 1;
            let mut ptrs = Vec::with_capacity(argc + 1);
            let all: Vec<String> = std::iter::once(self.argv0.to_string())
                .chain(self.args.iter().cloned())
                .collect();
            for a in &all {
                let mut cells: Vec<Value> = a.bytes().map(|b| Value::Int(b as i8 as i64)).collect();
                cells.push(Value::Int(0));
                let id = self.mem.alloc(0, Value::Int(0), Origin::Arg, false);
                self.mem.objects[id as usize].cells = cells;
                ptrs.push(Value::Ptr(self.mem.ptr_to(id, 0)));
            }
            ptrs.push(Value::Ptr(Ptr::NULL));
            let id = self.mem.alloc(0, Value::Int(0), Origin::Arg, false);
            self.mem.objects[id as usize].cells = ptrs;
            args.push(vec![Value::Int(argc as i64)]);
            args.push(vec![Value::Ptr(self.mem.ptr_to(id, 0))]);
        }
        match self.call(prog.main, args, None)? {
            Ret::Scalar(Value::Int(v)) => Ok(v as i32),
            // Falling off the end of main returns 0 (C99 5.1.2.2.3).
            _ => Ok(0),
        }
    }

    fn call(&mut self, fid: FuncId, args: Vec<Vec<Value>>, site: Option<CallSiteId>) -> R<Ret> {
        if self.frames.len() >= self.limits.max_depth {
            return Err(self.error(
                ErrorKind::StackOverflow,
                format!(
                    "call depth limit of {} exceeded (unbounded recursion?)",
                    self.limits.max_depth
                ),
            ));
        }
        let prog = self.prog;
        let f = prog.func(fid);
        let ctx = match site {
            Some(site) if self.tracking => {
                let parent = self.frames.last().map_or(CtxId::ROOT, |f| f.ctx);
                self.contexts.enter(parent, Scope::Call(site))
            }
            _ => CtxId::ROOT,
        };
        let mut locals = Vec::with_capacity(f.locals.len());
        for (i, l) in f.locals.iter().enumerate() {
            let n = prog.cells(&l.ty) as usize;
            let origin = Origin::Var(VarRef::Local(fid, faultline_ir::LocalId(i as u32)));
            let obj = self.mem.alloc(n, Value::Uninit, origin, false);
            self.uses.get_mut().reset(obj);
            locals.push(obj);
        }
        for (p, a) in f.params.iter().zip(args) {
            let obj = locals[p.index()];
            let cells = &mut self.mem.objects[obj as usize].cells;
            for (c, v) in cells.iter_mut().zip(a) {
                *c = v;
            }
        }
        let saved_cur = self.cur;
        self.frames.push(Frame {
            func: fid,
            locals,
            ctx,
            occ: HashMap::new(),
            inst: Instance {
                stmt: StmtId(0),
                ctx,
                occ: 0,
            },
            event: None,
            produced: 0,
        });
        let r = self.exec_block(&f.body);
        let frame = self.frames.pop().expect("pushed above");
        for obj in frame.locals {
            self.mem.release(obj);
        }
        self.cur = saved_cur;
        match r? {
            Flow::Return(ret) => Ok(ret),
            _ => Ok(if f.ret == Type::Void {
                Ret::Void
            } else if f.ret.is_scalar() {
                Ret::Scalar(Value::Uninit)
            } else {
                Ret::Agg(vec![Value::Uninit; prog.cells(&f.ret) as usize])
            }),
        }
    }

    fn eval_args(&mut self, args: &'p [Expr]) -> R<Vec<Vec<Value>>> {
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            if a.ty.is_scalar() {
                out.push(vec![self.eval(a)?]);
            } else {
                out.push(self.eval_agg(a)?);
            }
        }
        Ok(out)
    }

    // ----- memory ---------------------------------------------------------

    fn var_obj(&self, v: Var) -> u32 {
        match v {
            Var::Global(g) => self.globals[g.index()],
            Var::Local(l) => self.frames.last().expect("frame").locals[l.index()],
        }
    }

    fn place(&mut self, p: &'p Place) -> R<Loc> {
        match &p.kind {
            PlaceKind::Var(v) => Ok(Loc::at(self.var_obj(*v), 0)),
            PlaceKind::Deref(e) => {
                let v = self.eval(e)?;
                self.deref(v, &p.ty)
            }
            PlaceKind::Index(base, idx) => {
                let b = self.place(base)?;
                if b.void {
                    self.eval(idx)?;
                    return Ok(b);
                }
                let i = match self.eval(idx)? {
                    Value::Int(i) => i,
                    Value::Uninit => return Err(self.arith(ArithError::Uninit)),
                    _ => {
                        return Err(self.error(ErrorKind::Invalid, "array index is not an integer"))
                    }
                };
                let (elem, n) = match &base.ty {
                    Type::Array(e, n) => (e, *n),
                    _ => return Err(self.error(ErrorKind::Invalid, "indexing a non-array")),
                };
                let esize = self.prog.size_of(elem) as i64;
                if let Some(e) = b.emu {
                    let addr = (e.addr as i64 + i * esize) as u64;
                    return Ok(Loc {
                        emu: Some(Emu { addr, ..e }),
                        ..b
                    });
                }
                if i < 0 || i as u64 >= n {
                    let global = match self.mem.objects[b.obj as usize].origin {
                        Origin::Var(VarRef::Global(g)) => Some(g.index()),
                        _ => None,
                    };
                    let base = global.and_then(|g| self.exe_layout.cell_addr(g, b.off));
                    let (Some(g), Some(base)) = (global, base) else {
                        if self.waived() {
                            return Ok(Loc::VOID);
                        }
                        return Err(self.error(
                            ErrorKind::OutOfBounds,
                            format!(
                                "index {i} is out of bounds for {} of {n} elements",
                                self.object_name(b.obj)
                            ),
                        ));
                    };
                    let _ = g;
                    let addr = (base as i64 + i * esize) as u64;
                    return Ok(Loc {
                        emu: Some(Emu {
                            addr,
                            index: i,
                            len: n,
                        }),
                        ..b
                    });
                }
                Ok(Loc::at(
                    b.obj,
                    b.off + i as usize * self.prog.cells(elem) as usize,
                ))
            }
            PlaceKind::Field(base, n) => {
                let b = self.place(base)?;
                let Type::Struct(s) = &base.ty else {
                    return Err(self.error(ErrorKind::Invalid, "member access on a non-struct"));
                };
                let f = &self.prog.struct_def(*s).fields[*n as usize];
                if b.void {
                    return Ok(b);
                }
                if let Some(e) = b.emu {
                    return Ok(Loc {
                        emu: Some(Emu {
                            addr: e.addr + f.byte_offset,
                            ..e
                        }),
                        ..b
                    });
                }
                Ok(Loc::at(b.obj, b.off + f.cell_offset as usize))
            }
        }
    }

    /// Checks a pointer conversion to `to` (`(T *) p`, or `void *` to `T *`):
    /// memory holds typed values, not bytes, so the object `p` points into
    /// must hold a `T` (or an object starting with one) where `p` points.
    /// Reinterpreting an object as another type (an `int` through a
    /// `char *`) is refused rather than computed wrongly.
    fn check_ptr_cast(&self, v: Value, to: &Type) -> R<()> {
        let (Value::Ptr(p), Some(t)) = (v, to.pointee()) else {
            return Ok(());
        };
        if *t == Type::Void || p.is_null() {
            return Ok(());
        }
        let o = &self.mem.objects[p.obj as usize];
        let len = o.cells.len() as i64;
        // Dangling and one-past-the-end pointers are caught when dereferenced.
        if !o.live || o.gen != p.gen || p.off < 0 || p.off >= len {
            return Ok(());
        }
        let off = p.off as u64;
        let ok = match o.origin {
            Origin::Var(VarRef::Global(g)) => {
                holds(self.prog, &self.prog.globals[g.index()].ty, off, t)
            }
            Origin::Var(VarRef::Local(f, l)) => {
                holds(self.prog, &self.prog.func(f).locals[l.index()].ty, off, t)
            }
            Origin::Var(VarRef::Indirect) => true,
            // Strings are `char` cells; `argv` is an array of `char *`.
            Origin::StrLit | Origin::Arg => match o.cells[p.off as usize] {
                Value::Ptr(_) => t.is_pointer(),
                _ => same_repr(t, &faultline_ir::CHAR),
            },
        };
        if ok || self.waived() {
            return Ok(());
        }
        Err(self.error(
            ErrorKind::Unsupported,
            format!(
                "unsupported: access to {} through a pointer to {} (memory holds typed values, not bytes)",
                self.object_name(p.obj),
                self.prog.type_name(t)
            ),
        ))
    }

    /// Checks that a pointer may be dereferenced as an object of type `ty`.
    fn deref(&self, v: Value, ty: &Type) -> R<Loc> {
        match self.deref_checked(v, ty) {
            Err(_) if self.waived() => Ok(Loc::VOID),
            r => r,
        }
    }

    fn deref_checked(&self, v: Value, ty: &Type) -> R<Loc> {
        let p = match v {
            Value::Ptr(p) => p,
            Value::Uninit => return Err(self.arith(ArithError::Uninit)),
            _ => return Err(self.error(ErrorKind::Invalid, "dereferencing a non-pointer")),
        };
        if p.is_null() {
            return Err(self.error(ErrorKind::NullDereference, "null pointer dereference"));
        }
        let o = &self.mem.objects[p.obj as usize];
        if !o.live || o.gen != p.gen {
            return Err(self.error(
                ErrorKind::DanglingPointer,
                "dereference of a dangling pointer (its object's lifetime has ended)",
            ));
        }
        let n = self.prog.cells(ty).max(1) as i64;
        if p.off < 0 || p.off + n > o.cells.len() as i64 {
            return Err(self.error(
                ErrorKind::OutOfBounds,
                format!(
                    "pointer dereference out of bounds of {} (cell {} of {})",
                    self.object_name(p.obj),
                    p.off,
                    o.cells.len()
                ),
            ));
        }
        Ok(Loc::at(p.obj, p.off as usize))
    }

    fn oob(&self, loc: Loc, write: bool) -> Stop {
        let e = loc.emu.expect("an out-of-bounds place");
        self.error(
            ErrorKind::OutOfBounds,
            format!(
                "index {} is out of bounds for {} of {} elements{}",
                e.index,
                self.object_name(loc.obj),
                e.len,
                if write {
                    ""
                } else {
                    " (outside the memory gcc maps for globals)"
                }
            ),
        )
    }

    /// Reads a scalar of type `ty` outside a global array, as the gcc binary would.
    fn load_emulated(&mut self, loc: Loc, ty: &Type) -> R<Value> {
        let e = loc.emu.expect("an out-of-bounds place");
        let size = self.prog.size_of(ty);
        let layout = self.exe_layout;
        let v = match layout.resolve(e.addr, size) {
            Resolved::Unmapped => return Err(self.oob(loc, false)),
            Resolved::Cell { global, cell } => {
                let v = self.mem.objects[self.globals[global] as usize].cells[cell];
                match (v, ty) {
                    (Value::Int(_), Type::Int(_)) | (Value::Float(_), Type::Float(_)) => v,
                    _ => self.bytes_value(e.addr, size, ty)?,
                }
            }
            Resolved::Zero => zero_of(ty),
            Resolved::Bytes => self.bytes_value(e.addr, size, ty)?,
        };
        if let Some(s) = self.cur {
            let note = format!(
                "{}: index {} is out of bounds for {} of {} elements; the read was resolved as gcc lays out globals",
                self.prog.stmt_pos(s),
                e.index,
                self.object_name(loc.obj),
                e.len
            );
            if !self.warnings.contains(&note) {
                self.warnings.push(note);
            }
        }
        Ok(v)
    }

    /// Assembles a scalar from the bytes of the globals at `addr` (little-endian).
    fn bytes_value(&self, addr: u64, size: u64, ty: &Type) -> R<Value> {
        let mut bytes = vec![0u8; size as usize];
        for c in self.exe_layout.overlapping(addr, size) {
            let v = self.mem.objects[self.globals[c.global] as usize].cells[c.cell];
            let raw: u64 = match v {
                Value::Int(i) => i as u64,
                Value::Float(x) if c.size == 4 => (x as f32).to_bits() as u64,
                Value::Float(x) => x.to_bits(),
                _ => {
                    return Err(self.error(
                        ErrorKind::Unsupported,
                        "out-of-bounds read overlapping a pointer is not supported",
                    ))
                }
            };
            for k in 0..c.size {
                let a = c.addr + k;
                if a >= addr && a < addr + size {
                    bytes[(a - addr) as usize] = (raw >> (8 * k)) as u8;
                }
            }
        }
        let mut raw = 0u64;
        for (k, b) in bytes.iter().enumerate() {
            raw |= (*b as u64) << (8 * k);
        }
        Ok(match ty {
            Type::Int(k) => Value::Int(k.wrap(raw as i128)),
            Type::Float(faultline_ir::FloatKind::Float) => {
                Value::Float(f32::from_bits(raw as u32) as f64)
            }
            Type::Float(_) => Value::Float(f64::from_bits(raw)),
            _ => {
                return Err(self.error(
                    ErrorKind::Unsupported,
                    "out-of-bounds read of a pointer is not supported",
                ))
            }
        })
    }

    fn load_typed(&mut self, loc: Loc, ty: &Type) -> R<Value> {
        if loc.void {
            return Ok(zero_of(ty));
        }
        if loc.emu.is_some() {
            return self.load_emulated(loc, ty);
        }
        self.load(loc)
    }

    fn load(&self, loc: Loc) -> R<Value> {
        if loc.void {
            return Ok(Value::Int(0));
        }
        if loc.emu.is_some() {
            return Err(self.oob(loc, false));
        }
        let v = self.mem.objects[loc.obj as usize].cells[loc.off];
        self.uses.borrow_mut().read(loc.obj, loc.off);
        if v == Value::Uninit && self.waived() {
            return Ok(Value::Int(0));
        }
        if v == Value::Uninit {
            return Err(self.error(
                ErrorKind::UninitializedRead,
                format!("read of uninitialized {}", self.object_name(loc.obj)),
            ));
        }
        Ok(v)
    }

    fn target_of(&self, loc: Loc) -> Target {
        match self.mem.objects[loc.obj as usize].origin {
            Origin::Var(var) => Target::Var {
                var,
                cell: loc.off as u32,
            },
            _ => Target::Other {
                cell: loc.off as u32,
            },
        }
    }

    /// Stores a scalar. `produced`: the value is produced by the current
    /// statement (trace and hooks see it).
    fn store(&mut self, loc: Loc, v: Value, produced: bool) -> R<Value> {
        if loc.void || (loc.emu.is_some() && self.waived()) {
            return Ok(v);
        }
        if loc.emu.is_some() {
            return Err(self.oob(loc, true));
        }
        let o = &self.mem.objects[loc.obj as usize];
        if o.readonly {
            return Err(self.error(ErrorKind::WriteToReadonly, "write to a string literal"));
        }
        let v = if produced {
            self.produce(self.target_of(loc), v)
        } else {
            v
        };
        self.mem.objects[loc.obj as usize].cells[loc.off] = v;
        self.uses.get_mut().write(loc.obj, loc.off, self.cur);
        Ok(v)
    }

    fn store_agg(&mut self, loc: Loc, cells: &[Value]) -> R<()> {
        if loc.void || (loc.emu.is_some() && self.waived()) {
            return Ok(());
        }
        if loc.emu.is_some() {
            return Err(self.oob(loc, true));
        }
        if self.mem.objects[loc.obj as usize].readonly {
            return Err(self.error(ErrorKind::WriteToReadonly, "write to a string literal"));
        }
        for (i, v) in cells.iter().enumerate() {
            let v = self.produce(self.target_of(Loc::at(loc.obj, loc.off + i)), *v);
            self.mem.objects[loc.obj as usize].cells[loc.off + i] = v;
            self.uses.get_mut().write(loc.obj, loc.off + i, self.cur);
        }
        Ok(())
    }

    fn ptr_add(&self, p: Value, n: i64, pointee: &Type) -> R<Value> {
        match p {
            Value::Ptr(p) if p.is_null() && n == 0 => Ok(Value::Ptr(p)),
            Value::Ptr(p) if p.is_null() => {
                Err(self.error(ErrorKind::NullDereference, "arithmetic on a null pointer"))
            }
            Value::Ptr(p) => {
                let step = self.prog.cells(pointee).max(1) as i64;
                let off = p.off + n * step;
                let len = self.mem.objects[p.obj as usize].cells.len() as i64;
                if off < 0 || off > len {
                    return Err(self.error(
                        ErrorKind::OutOfBounds,
                        format!(
                            "pointer arithmetic leaves the bounds of {}",
                            self.object_name(p.obj)
                        ),
                    ));
                }
                Ok(Value::Ptr(Ptr { off, ..p }))
            }
            Value::Uninit => Err(self.arith(ArithError::Uninit)),
            _ => Err(self.error(ErrorKind::Invalid, "pointer arithmetic on a non-pointer")),
        }
    }

    // ----- expressions ------------------------------------------------------

    fn eval(&mut self, e: &'p Expr) -> R<Value> {
        match &e.kind {
            ExprKind::Int(v) => Ok(Value::Int(*v)),
            ExprKind::Float(v) => Ok(Value::Float(*v)),
            ExprKind::Str(s) => Ok(Value::Ptr(self.mem.ptr_to(self.strings[s.index()], 0))),
            ExprKind::Stream(s) => Ok(Value::Stream(*s)),
            ExprKind::Load(p) => {
                let loc = self.place(p)?;
                self.load_typed(loc, &p.ty)
            }
            ExprKind::AddrOf(p) => {
                let loc = self.place(p)?;
                if loc.void {
                    return Ok(Value::Ptr(Ptr::NULL));
                }
                if loc.emu.is_some() {
                    return Err(self.oob(loc, false));
                }
                Ok(Value::Ptr(self.mem.ptr_to(loc.obj, loc.off as i64)))
            }
            ExprKind::Unary(op, a) => {
                let v = self.eval(a)?;
                let ty = if *op == UnOp::Not { &a.ty } else { &e.ty };
                self.arith_or_zero(value::unary(*op, ty, v), &e.ty)
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                if let (Type::Int(k), Value::Int(xi), Value::Int(yi)) = (&e.ty, x, y) {
                    if k.signed() && matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul) {
                        let (p, q) = (xi as i128, yi as i128);
                        let exact = match op {
                            BinOp::Add => p + q,
                            BinOp::Sub => p - q,
                            _ => p * q,
                        };
                        if exact < k.min() || exact > k.max() {
                            self.note_overflow();
                        }
                    }
                }
                self.arith_or_zero(value::binary(*op, &e.ty, &b.ty, x, y), &e.ty)
            }
            ExprKind::Cmp(op, a, b) => {
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                self.arith_or_zero(value::compare(*op, &a.ty, x, y), &e.ty)
            }
            ExprKind::PtrAdd(p, n) => {
                let pv = self.eval(p)?;
                let nv = match self.eval(n)? {
                    Value::Int(i) => i,
                    Value::Uninit => return Err(self.arith(ArithError::Uninit)),
                    _ => {
                        return Err(
                            self.error(ErrorKind::Invalid, "pointer offset is not an integer")
                        )
                    }
                };
                let pointee = p.ty.pointee().cloned().unwrap_or(Type::Void);
                self.ptr_add(pv, nv, &pointee)
            }
            ExprKind::PtrDiff(a, b) => {
                let (x, y) = (self.eval(a)?, self.eval(b)?);
                match (x, y) {
                    (Value::Ptr(p), Value::Ptr(q)) if p.obj == q.obj && p.gen == q.gen => {
                        let step = a.ty.pointee().map_or(1, |t| self.prog.cells(t).max(1)) as i64;
                        Ok(Value::Int((p.off - q.off) / step))
                    }
                    (Value::Uninit, _) | (_, Value::Uninit) => Err(self.arith(ArithError::Uninit)),
                    _ => Err(self.error(
                        ErrorKind::Invalid,
                        "subtraction of pointers into different objects",
                    )),
                }
            }
            ExprKind::And(a, b) => {
                let x = self.eval(a)?;
                if !value::truthy(x).map_err(|err| self.arith(err))? {
                    return Ok(Value::Int(0));
                }
                let y = self.eval(b)?;
                Ok(Value::Int(
                    value::truthy(y).map_err(|err| self.arith(err))? as i64
                ))
            }
            ExprKind::Or(a, b) => {
                let x = self.eval(a)?;
                if value::truthy(x).map_err(|err| self.arith(err))? {
                    return Ok(Value::Int(1));
                }
                let y = self.eval(b)?;
                Ok(Value::Int(
                    value::truthy(y).map_err(|err| self.arith(err))? as i64
                ))
            }
            ExprKind::Cond(c, a, b) => {
                let cv = self.eval(c)?;
                if value::truthy(cv).map_err(|err| self.arith(err))? {
                    self.eval(a)
                } else {
                    self.eval(b)
                }
            }
            ExprKind::Cast(a) => {
                if e.ty == Type::Void {
                    if a.ty.is_scalar() || a.ty == Type::Void {
                        self.eval(a)?;
                    } else {
                        self.eval_agg(a)?;
                    }
                    return Ok(Value::Int(0));
                }
                let v = self.eval(a)?;
                if a.ty.is_pointer() && e.ty.is_pointer() {
                    self.check_ptr_cast(v, &e.ty)?;
                }
                self.arith_or_zero(value::convert(v, &a.ty, &e.ty), &e.ty)
            }
            ExprKind::Assign {
                place,
                value: rhs,
                post,
            } => {
                let loc = self.place(place)?;
                let old = if *post { Some(self.load(loc)?) } else { None };
                self.old.push(loc);
                let v = self.eval(rhs);
                self.old.pop();
                let stored = self.store(loc, v?, true)?;
                Ok(old.unwrap_or(stored))
            }
            ExprKind::Old => {
                let loc = *self
                    .old
                    .last()
                    .ok_or_else(|| self.error(ErrorKind::Invalid, "Old outside an assignment"))?;
                self.load(loc)
            }
            ExprKind::Call { func, args, site } => {
                let a = self.eval_args(args)?;
                match self.call(*func, a, Some(*site))? {
                    Ret::Scalar(v) => Ok(v),
                    Ret::Void => Ok(Value::Int(0)),
                    Ret::Agg(_) => {
                        Err(self.error(ErrorKind::Invalid, "struct value used as a scalar"))
                    }
                }
            }
            ExprKind::Builtin { func, args } => self.builtin(*func, args),
            ExprKind::Comma(a, b) => {
                if a.ty.is_scalar() || a.ty == Type::Void {
                    self.eval(a)?;
                } else {
                    self.eval_agg(a)?;
                }
                self.eval(b)
            }
        }
    }

    /// Evaluates a struct-typed expression to its cells.
    fn eval_agg(&mut self, e: &'p Expr) -> R<Vec<Value>> {
        match &e.kind {
            ExprKind::Load(p) => {
                let loc = self.place(p)?;
                let n = self.prog.cells(&p.ty) as usize;
                if loc.void {
                    let mut types = Vec::new();
                    self.prog.cell_types(&p.ty, &mut types);
                    return Ok(types.iter().map(zero_of).collect());
                }
                if loc.emu.is_some() {
                    return Err(self.oob(loc, false));
                }
                let o = &self.mem.objects[loc.obj as usize];
                if loc.off + n > o.cells.len() {
                    return Err(self.error(ErrorKind::OutOfBounds, "struct read out of bounds"));
                }
                for i in 0..n {
                    self.uses.borrow_mut().read(loc.obj, loc.off + i);
                }
                Ok(o.cells[loc.off..loc.off + n].to_vec())
            }
            ExprKind::Assign {
                place, value: rhs, ..
            } => {
                let loc = self.place(place)?;
                let cells = self.eval_agg(rhs)?;
                self.store_agg(loc, &cells)?;
                Ok(cells)
            }
            ExprKind::Call { func, args, site } => {
                let a = self.eval_args(args)?;
                match self.call(*func, a, Some(*site))? {
                    Ret::Agg(cells) => Ok(cells),
                    _ => Err(self.error(ErrorKind::Invalid, "function did not return a struct")),
                }
            }
            ExprKind::Cond(c, a, b) => {
                let cv = self.eval(c)?;
                if value::truthy(cv).map_err(|err| self.arith(err))? {
                    self.eval_agg(a)
                } else {
                    self.eval_agg(b)
                }
            }
            ExprKind::Comma(a, b) => {
                if a.ty.is_scalar() || a.ty == Type::Void {
                    self.eval(a)?;
                } else {
                    self.eval_agg(a)?;
                }
                self.eval_agg(b)
            }
            _ => Err(self.error(ErrorKind::Invalid, "unsupported struct-valued expression")),
        }
    }

    // ----- library ----------------------------------------------------------

    fn int_arg(&mut self, e: &'p Expr) -> R<i64> {
        match self.eval(e)? {
            Value::Int(i) => Ok(i),
            Value::Uninit => Err(self.arith(ArithError::Uninit)),
            v => Err(self.error(
                ErrorKind::Invalid,
                format!("expected an integer argument, found {v}"),
            )),
        }
    }

    fn float_arg(&mut self, e: &'p Expr) -> R<f64> {
        match self.eval(e)? {
            Value::Float(x) => Ok(x),
            Value::Int(i) => Ok(i as f64),
            Value::Uninit => Err(self.arith(ArithError::Uninit)),
            v => Err(self.error(
                ErrorKind::Invalid,
                format!("expected a floating argument, found {v}"),
            )),
        }
    }

    fn ptr_arg(&mut self, e: &'p Expr) -> R<Ptr> {
        match self.eval(e)? {
            Value::Ptr(p) => Ok(p),
            Value::Uninit => Err(self.arith(ArithError::Uninit)),
            v => Err(self.error(
                ErrorKind::Invalid,
                format!("expected a pointer argument, found {v}"),
            )),
        }
    }

    /// Checks that `p` points into a live object and returns (object, offset).
    fn check_ptr(&self, p: Ptr) -> R<(u32, usize)> {
        self.deref(Value::Ptr(p), &faultline_ir::CHAR)
            .map(|l| (l.obj, l.off))
    }

    /// Reads the NUL-terminated string at `p`.
    fn read_cstr(&self, p: Ptr) -> R<Vec<u8>> {
        let (obj, off) = self.check_ptr(p)?;
        let cells = &self.mem.objects[obj as usize].cells;
        let mut out = Vec::new();
        for (i, c) in cells[off..].iter().enumerate() {
            self.uses.borrow_mut().read(obj, off + i);
            match c {
                Value::Int(0) => return Ok(out),
                Value::Int(b) => out.push(*b as u8),
                Value::Uninit => {
                    return Err(self.error(
                        ErrorKind::UninitializedRead,
                        format!(
                            "read of uninitialized characters of {}",
                            self.object_name(obj)
                        ),
                    ))
                }
                _ => {
                    return Err(
                        self.error(ErrorKind::Invalid, "string contains a non-character cell")
                    )
                }
            }
        }
        Err(self.error(
            ErrorKind::OutOfBounds,
            format!("string in {} is not NUL-terminated", self.object_name(obj)),
        ))
    }

    /// Writes bytes (as `char` cells) at `p`, bounds-checked.
    fn write_bytes(&mut self, p: Ptr, bytes: &[u8]) -> R<()> {
        let (obj, off) = self.check_ptr(p)?;
        let o = &self.mem.objects[obj as usize];
        if o.readonly {
            return Err(self.error(ErrorKind::WriteToReadonly, "write to a string literal"));
        }
        if off + bytes.len() > o.cells.len() {
            return Err(self.error(
                ErrorKind::OutOfBounds,
                format!(
                    "writing {} bytes overflows {} ({} cells from the pointer)",
                    bytes.len(),
                    self.object_name(obj),
                    o.cells.len() - off
                ),
            ));
        }
        for (i, b) in bytes.iter().enumerate() {
            let v = self.produce(
                self.target_of(Loc::at(obj, off + i)),
                Value::Int(*b as i8 as i64),
            );
            self.mem.objects[obj as usize].cells[off + i] = v;
            self.uses.get_mut().write(obj, off + i, self.cur);
        }
        Ok(())
    }

    fn emit(&mut self, stream: Stream, bytes: &[u8]) -> R<()> {
        match stream {
            Stream::Stdout if self.hooks.is_some() && !self.frames.is_empty() => {
                let inst = self.frames.last().expect("frame").inst;
                let chain = self.contexts.chain(inst.ctx);
                let text = match self.hooks.as_mut() {
                    Some(h) => h.output(&Site { inst, ctx: &chain }, bytes.to_vec()),
                    None => bytes.to_vec(),
                };
                self.out.extend_from_slice(&text);
            }
            Stream::Stdout => self.out.extend_from_slice(bytes),
            Stream::Stderr => self.err.extend_from_slice(bytes),
            Stream::Stdin => return Err(self.error(ErrorKind::Invalid, "output to stdin")),
        }
        if self.out.len() + self.err.len() > self.limits.max_output {
            return Err(self.error(
                ErrorKind::OutputLimit,
                format!("output limit of {} bytes exceeded", self.limits.max_output),
            ));
        }
        Ok(())
    }

    fn builtin(&mut self, f: Builtin, args: &'p [Expr]) -> R<Value> {
        match f {
            Builtin::Printf | Builtin::Fprintf => {
                let (stream, rest) = if f == Builtin::Fprintf {
                    let s = match self.eval(&args[0])? {
                        Value::Stream(s) => s,
                        _ => {
                            return Err(self.error(
                                ErrorKind::Invalid,
                                "fprintf to something other than a stream",
                            ))
                        }
                    };
                    (s, &args[1..])
                } else {
                    (Stream::Stdout, args)
                };
                let fmt_ptr = self.ptr_arg(&rest[0])?;
                let fmt = self.read_cstr(fmt_ptr)?;
                let bytes = self.printf(&fmt, &rest[1..])?;
                self.emit(stream, &bytes)?;
                Ok(Value::Int(bytes.len() as i64))
            }
            Builtin::Puts => {
                let p = self.ptr_arg(&args[0])?;
                let mut s = self.read_cstr(p)?;
                s.push(b'\n');
                self.emit(Stream::Stdout, &s)?;
                Ok(Value::Int(s.len() as i64))
            }
            Builtin::Putchar => {
                let c = self.int_arg(&args[0])? as u8;
                self.emit(Stream::Stdout, &[c])?;
                Ok(Value::Int(c as i64))
            }
            Builtin::Getchar => Ok(Value::Int(self.input.getc().map_or(-1, |b| b as i64))),
            Builtin::Scanf => self.scanf(args),
            Builtin::Atoi | Builtin::Atol | Builtin::Atof => {
                let p = self.ptr_arg(&args[0])?;
                let s = self.read_cstr(p)?;
                Ok(match f {
                    Builtin::Atoi => Value::Int(libc::strconv::atoi(&s) as i64),
                    Builtin::Atol => Value::Int(libc::strconv::atol(&s)),
                    _ => Value::Float(libc::strconv::atof(&s)),
                })
            }
            Builtin::Exit => {
                let s = self.int_arg(&args[0])?;
                Err(Stop::Exit((s & 0xff) as i32))
            }
            Builtin::Abs => Ok(Value::Int(
                faultline_ir::IntKind::Int.wrap((self.int_arg(&args[0])? as i128).abs()),
            )),
            Builtin::Labs => Ok(Value::Int(
                faultline_ir::IntKind::Long.wrap((self.int_arg(&args[0])? as i128).abs()),
            )),
            Builtin::Fabs => Ok(Value::Float(self.float_arg(&args[0])?.abs())),
            Builtin::Sqrt => Ok(Value::Float(self.float_arg(&args[0])?.sqrt())),
            Builtin::Floor => Ok(Value::Float(self.float_arg(&args[0])?.floor())),
            Builtin::Ceil => Ok(Value::Float(self.float_arg(&args[0])?.ceil())),
            Builtin::Pow => {
                let x = self.float_arg(&args[0])?;
                let y = self.float_arg(&args[1])?;
                Ok(Value::Float(x.powf(y)))
            }
            Builtin::Strlen => {
                let p = self.ptr_arg(&args[0])?;
                Ok(Value::Int(self.read_cstr(p)?.len() as i64))
            }
            Builtin::Strcmp | Builtin::Strncmp => {
                let p = self.ptr_arg(&args[0])?;
                let q = self.ptr_arg(&args[1])?;
                let n = if f == Builtin::Strncmp {
                    Some(self.int_arg(&args[2])? as u64 as usize)
                } else {
                    None
                };
                let a = self.read_cstr_upto(p, n)?;
                let b = self.read_cstr_upto(q, n)?;
                Ok(Value::Int(strcmp(&a, &b, n)))
            }
            Builtin::Strcpy | Builtin::Strcat => {
                let d = self.ptr_arg(&args[0])?;
                let s = self.ptr_arg(&args[1])?;
                let mut src = self.read_cstr(s)?;
                src.push(0);
                let at = if f == Builtin::Strcat {
                    let cur = self.read_cstr(d)?.len() as i64;
                    Ptr {
                        off: d.off + cur,
                        ..d
                    }
                } else {
                    d
                };
                self.write_bytes(at, &src)?;
                Ok(Value::Ptr(d))
            }
            Builtin::Strncpy => {
                let d = self.ptr_arg(&args[0])?;
                let s = self.ptr_arg(&args[1])?;
                let n = self.int_arg(&args[2])? as u64 as usize;
                let mut src = self.read_cstr_upto(s, Some(n))?;
                src.resize(n, 0);
                self.write_bytes(d, &src)?;
                Ok(Value::Ptr(d))
            }
            Builtin::Assert => {
                let v = self.eval(&args[0])?;
                if value::truthy(v).map_err(|e| self.arith(e))? {
                    return Ok(Value::Int(0));
                }
                let text = match &args.get(1).map(|a| &a.kind) {
                    Some(ExprKind::Str(s)) => {
                        String::from_utf8_lossy(&self.prog.strings[s.index()]).into_owned()
                    }
                    _ => String::new(),
                };
                let stmt = self.cur.unwrap_or(StmtId(0));
                let info = self.prog.stmt(stmt);
                let func = &self.prog.func(info.func).name;
                let msg = format!(
                    "{}: {}:{}: {}: Assertion `{}' failed.",
                    self.argv0.trim_start_matches("./"),
                    self.prog.file_name(info.loc.file),
                    info.loc.line,
                    func,
                    text
                );
                self.err.extend_from_slice(msg.as_bytes());
                self.err.push(b'\n');
                Err(Stop::Assert(stmt, msg))
            }
            Builtin::IsDigit
            | Builtin::IsAlpha
            | Builtin::IsAlnum
            | Builtin::IsSpace
            | Builtin::IsUpper
            | Builtin::IsLower
            | Builtin::ToUpper
            | Builtin::ToLower => {
                let c = self.int_arg(&args[0])?;
                Ok(Value::Int(ctype(f, c)))
            }
            Builtin::Fflush => {
                if let Some(a) = args.first() {
                    self.eval(a)?;
                }
                Ok(Value::Int(0))
            }
        }
    }

    fn read_cstr_upto(&self, p: Ptr, n: Option<usize>) -> R<Vec<u8>> {
        let Some(n) = n else { return self.read_cstr(p) };
        let (obj, off) = self.check_ptr(p)?;
        let cells = &self.mem.objects[obj as usize].cells;
        let mut out = Vec::new();
        for c in cells[off..].iter().take(n) {
            match c {
                Value::Int(0) => return Ok(out),
                Value::Int(b) => out.push(*b as u8),
                _ => {
                    return Err(self.error(
                        ErrorKind::UninitializedRead,
                        "read of uninitialized characters",
                    ))
                }
            }
        }
        if out.len() < n {
            return Err(self.error(ErrorKind::OutOfBounds, "string is not NUL-terminated"));
        }
        Ok(out)
    }

    fn printf(&mut self, fmt: &[u8], args: &'p [Expr]) -> R<Vec<u8>> {
        let pieces =
            libc::parse_format(fmt).map_err(|e| self.error(ErrorKind::Invalid, e.to_string()))?;
        let mut out = Vec::new();
        let mut next = args.iter();
        let mut take = |m: &mut Self| -> R<&'p Expr> {
            next.next().ok_or_else(|| {
                m.error(
                    ErrorKind::Invalid,
                    "printf: too few arguments for the format",
                )
            })
        };
        for piece in &pieces {
            let spec = match piece {
                libc::Piece::Literal(bytes) => {
                    out.extend_from_slice(bytes);
                    continue;
                }
                libc::Piece::Conv(spec) => spec,
            };
            let width = match spec.width {
                Some(libc::Width::Star) => {
                    let a = take(self)?;
                    Some(self.int_arg(a)?)
                }
                Some(libc::Width::Fixed(n)) => Some(n as i64),
                None => None,
            };
            let precision = match spec.precision {
                Some(libc::Precision::Star) => {
                    let a = take(self)?;
                    Some(self.int_arg(a)?)
                }
                Some(libc::Precision::Fixed(n)) => Some(n as i64),
                None => None,
            };
            let e = take(self)?;
            let v = self.eval(e)?;
            let strbuf;
            let arg = match (spec.conv, v, &e.ty) {
                (b's', Value::Ptr(p), _) => {
                    let s = match precision {
                        Some(n) if n >= 0 => self.read_cstr_upto_lenient(p, n as usize)?,
                        _ => self.read_cstr(p)?,
                    };
                    strbuf = s;
                    libc::Arg::Str(&strbuf)
                }
                (b'p', Value::Ptr(p), _) => libc::Arg::Ptr(if p.is_null() {
                    0
                } else {
                    0x1000 * (p.obj as u64 + 1) + p.off as u64 * 4
                }),
                (b'd' | b'i' | b'c' | b'u' | b'x' | b'X' | b'o', Value::Int(i), Type::Int(k)) => {
                    if k.signed() {
                        libc::Arg::Int(i)
                    } else {
                        libc::Arg::UInt(i as u64 & mask(k.bits()))
                    }
                }
                (b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A', Value::Float(x), _) => {
                    libc::Arg::Double(x)
                }
                (_, Value::Uninit, _) => return Err(self.arith(ArithError::Uninit)),
                (c, v, t) => {
                    return Err(self.error(
                        ErrorKind::Invalid,
                        format!(
                            "printf: %{} given an argument of type {} ({v})",
                            c as char,
                            self.prog.type_name(t)
                        ),
                    ))
                }
            };
            libc::render(spec, width, precision, arg, &mut out);
        }
        Ok(out)
    }

    /// Reads at most `n` bytes of a string (printf `%.Ns` need not be NUL-terminated).
    fn read_cstr_upto_lenient(&self, p: Ptr, n: usize) -> R<Vec<u8>> {
        let (obj, off) = self.check_ptr(p)?;
        let cells = &self.mem.objects[obj as usize].cells;
        let mut out = Vec::new();
        for c in cells[off..].iter().take(n) {
            match c {
                Value::Int(0) => break,
                Value::Int(b) => out.push(*b as u8),
                _ => {
                    return Err(self.error(
                        ErrorKind::UninitializedRead,
                        "read of uninitialized characters",
                    ))
                }
            }
        }
        Ok(out)
    }

    fn scanf(&mut self, args: &'p [Expr]) -> R<Value> {
        let fmt_ptr = self.ptr_arg(&args[0])?;
        let fmt = self.read_cstr(fmt_ptr)?;
        let outcome = libc::scanf::scanf(&fmt, &mut self.input)
            .map_err(|e| self.error(ErrorKind::Invalid, e.to_string()))?;
        let targets = &args[1..];
        for (i, item) in outcome.items.iter().enumerate() {
            let Some(target) = targets.get(i) else {
                return Err(self.error(
                    ErrorKind::Invalid,
                    "scanf: too few arguments for the format",
                ));
            };
            let p = self.ptr_arg(target)?;
            let pointee = target.ty.pointee().cloned().unwrap_or(Type::Void);
            match item {
                libc::scanf::Scanned::Int { value, .. } => {
                    let Type::Int(k) = pointee else {
                        return Err(self.error(
                            ErrorKind::Invalid,
                            "scanf: integer conversion needs an integer pointer",
                        ));
                    };
                    let loc = self.deref(Value::Ptr(p), &pointee)?;
                    self.store(loc, Value::Int(k.wrap(*value)), true)?;
                }
                libc::scanf::Scanned::Float { value, .. } => {
                    let Type::Float(k) = pointee else {
                        return Err(self.error(
                            ErrorKind::Invalid,
                            "scanf: %f/%lf needs a float/double pointer",
                        ));
                    };
                    let loc = self.deref(Value::Ptr(p), &pointee)?;
                    self.store(loc, Value::Float(value::round_to(k, *value)), true)?;
                }
                libc::scanf::Scanned::Chars(bytes) => self.write_bytes(p, bytes)?,
                libc::scanf::Scanned::Str(bytes) => {
                    let mut b = bytes.clone();
                    b.push(0);
                    self.write_bytes(p, &b)?;
                }
            }
        }
        Ok(Value::Int(outcome.ret as i64))
    }
}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// glibc's x86-64 `strcmp`/`strncmp` return the difference of the first
/// differing bytes (as unsigned char).
fn strcmp(a: &[u8], b: &[u8], n: Option<usize>) -> i64 {
    let limit = n.unwrap_or(usize::MAX);
    let mut i = 0;
    while i < limit {
        let x = a.get(i).copied().unwrap_or(0);
        let y = b.get(i).copied().unwrap_or(0);
        if x != y {
            return x as i64 - y as i64;
        }
        if x == 0 {
            return 0;
        }
        i += 1;
    }
    0
}

/// glibc's `<ctype.h>` in the C locale: the classification macros return the
/// bit of the `__ctype_b` table they test (e.g. `isdigit` gives 2048).
fn ctype(f: Builtin, c: i64) -> i64 {
    if !(0..=255).contains(&c) {
        return match f {
            Builtin::ToUpper | Builtin::ToLower => c,
            _ => 0,
        };
    }
    let b = c as u8;
    match f {
        Builtin::IsUpper => (b.is_ascii_uppercase() as i64) << 8,
        Builtin::IsLower => (b.is_ascii_lowercase() as i64) << 9,
        Builtin::IsAlpha => (b.is_ascii_alphabetic() as i64) << 10,
        Builtin::IsDigit => (b.is_ascii_digit() as i64) << 11,
        Builtin::IsSpace => (matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) as i64) << 13,
        Builtin::IsAlnum => (b.is_ascii_alphanumeric() as i64) << 3,
        Builtin::ToUpper => b.to_ascii_uppercase() as i64,
        Builtin::ToLower => b.to_ascii_lowercase() as i64,
        _ => 0,
    }
}
