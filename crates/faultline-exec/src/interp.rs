//! The tree-walking interpreter over the IR.

mod addr;
mod builtins;
mod control;
mod expr;
mod heap;
mod io;
mod library;
mod memory;
mod sort;
mod stdio;
mod unions;

use crate::budget::{Budget, Exhausted};
use crate::layout::{GccLayout, Resolved};
use crate::libc;
use crate::memory::{Memory, Origin};
use crate::trace::{
    ChainCache, Contexts, Coverage, CtxId, Event, Instance, Outcome, Scope, Target, Trace, Write,
};
use crate::value::{self, ArithError, Ptr, Value};
use faultline_ir::{
    BinOp, Block, Branch, Builtin, CallSiteId, Expr, ExprKind, FuncId, Initializer, Insertion,
    Jump, Layout, Place, PlaceKind, Program, Stmt, StmtId, Stream, Type, UnOp, Var, VarRef,
};
use std::collections::HashMap;
use std::fmt;
use std::time::{Duration, Instant};

/// Resource limits of one run, like a real machine's: time, stack, output.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Limits {
    /// Statement executions and loop iterations before the run is ended
    /// (`None`: no count; for reproducible limits, independent of speed).
    pub max_steps: Option<u64>,
    /// Time the run may take (`None`: no limit).
    pub max_time: Option<Duration>,
    /// Bytes of stack the program's calls may use, each frame estimated as
    /// gcc -O0 lays it out ([`frame_size`]); 8 MiB is Linux's default.
    pub stack_size: u64,
    /// Bytes of stdout plus stderr before the run is ended.
    pub max_output: usize,
}

/// The default time limit of a run.
pub const DEFAULT_MAX_TIME: Duration = Duration::from_secs(10);

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_steps: None,
            max_time: Some(DEFAULT_MAX_TIME),
            stack_size: 8 << 20,
            max_output: 16 << 20,
        }
    }
}

/// What the process start leaves on the stack before `main`'s frame
/// (arguments, environment, the C library's startup frames): calibrated on
/// gcc -O0 binaries under an 8 MiB stack.
const STACK_AT_MAIN: u64 = 8 << 10;

/// Estimated stack frame of function `f` as gcc -O0 lays it out on x86-64:
/// return address and saved frame pointer, then every parameter and local in
/// its own slot (aligned to its type, arrays of 16 bytes or more to 16), the
/// whole rounded up to 16 bytes.
pub fn frame_size(prog: &Program, f: &faultline_ir::Function) -> u64 {
    let mut size = 0u64;
    for l in &f.locals {
        let bytes = prog.size_of(&l.ty);
        let align = if matches!(l.ty, Type::Array(..)) && bytes >= 16 {
            16
        } else {
            prog.align_of(&l.ty)
        };
        size = size.div_ceil(align) * align + bytes;
    }
    16 + size.div_ceil(16) * 16
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
    /// Called when a `break` or `continue` instance jumps; returns where
    /// control goes instead (a relaxed jump statement, see [`Jump`]).
    fn jump(&mut self, site: &Site, computed: Jump) -> Jump {
        let _ = site;
        computed
    }
    /// Called for the `k`-th value a statement instance produces (a store it
    /// makes itself, or the value it returns); returns the value to use.
    fn value(&mut self, site: &Site, k: u32, computed: Value) -> Value {
        let _ = (site, k);
        computed
    }
    /// Called with argument `i` (its position) of a call whose arguments are
    /// relaxable ([`faultline_ir::CallSiteInfo::relax_args`]), for each
    /// arithmetic argument in order, after every argument is evaluated and
    /// before the call; returns the value to pass instead. The values of a
    /// statement instance's arguments and stores come in the order the
    /// encoder relaxes them.
    fn argument(&mut self, site: &Site, i: u32, computed: Value) -> Value {
        let _ = (site, i);
        computed
    }
    /// Called with the text an output statement instance writes to stdout
    /// (for a statement that is a prints-only call,
    /// [`faultline_ir::CallSiteInfo::prints_only`], everything the call
    /// writes, once it returns); returns the text to write instead.
    fn output(&mut self, site: &Site, computed: Vec<u8>) -> Vec<u8> {
        let _ = site;
        computed
    }
    /// Called with the arguments and result of a libm function the encoder
    /// has no exact encoding for (`log`, `log10`, `exp`, `sin`, `cos`,
    /// `atan`): the encoder's observed values.
    fn library_result(&mut self, f: Builtin, args: &[f64], result: f64) {
        let _ = (f, args, result);
    }
    /// Called after each write to stdout, with everything written so far;
    /// returning `false` ends the run there with [`Termination::Stopped`]
    /// (a hook that knows the output a run must print stops one whose
    /// output can no longer be it).
    fn keeps_printing(&mut self, stdout: &[u8]) -> bool {
        let _ = stdout;
        true
    }
    /// Called before each statement instance; returning `true` ends the run
    /// there with [`Termination::Stopped`].
    fn stop_before(&mut self, site: &Site) -> bool {
        let _ = site;
        false
    }
    /// Whether the hook reads or steers the instances of statement `stmt`:
    /// the other statements' instances are not shown to it. Building a
    /// site's context costs the depth of calls and loops around it, on every
    /// instance; a hook that watches a few statements keeps a deep run
    /// linear.
    fn watches(&self, stmt: StmtId) -> bool {
        let _ = stmt;
        true
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
    TimeLimit,
    InvalidShift,
    StackOverflow,
    OutputLimit,
    WriteToReadonly,
    Overflow,
    Unsupported,
    Invalid,
    // heap
    UseAfterFree,
    DoubleFree,
    InvalidFree,
    HeapLimit,
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
            ErrorKind::TimeLimit => "time-limit",
            ErrorKind::InvalidShift => "invalid-shift",
            ErrorKind::StackOverflow => "stack-overflow",
            ErrorKind::OutputLimit => "output-limit",
            ErrorKind::WriteToReadonly => "write-to-readonly",
            ErrorKind::Overflow => "overflow",
            ErrorKind::Unsupported => "unsupported",
            ErrorKind::Invalid => "invalid",
            // heap
            ErrorKind::UseAfterFree => "use-after-free",
            ErrorKind::DoubleFree => "double-free",
            ErrorKind::InvalidFree => "invalid-free",
            ErrorKind::HeapLimit => "heap-limit",
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
    /// Ended because the thread's [`Budget`] (the job's, not the run's) ran out.
    OutOfBudget(Exhausted),
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
    /// The most stack the run's calls used at once (bytes, estimated as
    /// `Limits::stack_size` counts it).
    pub peak_stack: u64,
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
            Termination::RuntimeError(_) | Termination::Stopped | Termination::OutOfBudget(_) => {
                139
            }
        }
    }
}

/// Input of one execution.
#[derive(Clone, Debug, Default)]
pub struct Input<'a> {
    /// `argv[1..]`.
    pub args: &'a [String],
    pub stdin: &'a [u8],
    /// The directory `fopen` reads files from (`None`: the current directory).
    /// Files the program writes never reach the disk (see `interp/stdio.rs`).
    pub workdir: Option<&'a std::path::Path>,
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
    Budget(Exhausted),
}

/// Boxed: a result of the interpreter stays the size of a value (the hot
/// path returns values, not stops).
type R<T> = Result<T, Box<Stop>>;

/// A program prepared for execution: its initial memory image (globals and
/// string literals) is built once and copied into every run.
pub struct Executable<'p> {
    prog: &'p Program,
    image: Memory,
    globals: Vec<u32>,
    strings: Vec<u32>,
    argv0: String,
    layout: GccLayout,
    /// Each function's estimated stack frame in bytes ([`frame_size`]).
    frames: Vec<u64>,
}

/// The program's `argv[0]`, as a shell runs gcc's binary of it:
/// `./NAME` for `NAME.c`.
pub fn argv0_of(prog: &Program) -> String {
    prog.files
        .first()
        .map(|f| {
            let stem = std::path::Path::new(&f.name)
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned());
            format!("./{}", stem.unwrap_or_else(|| "a.out".into()))
        })
        .unwrap_or_else(|| "./a.out".into())
}

impl<'p> Executable<'p> {
    /// Runs with `argv[0]` set to `argv0` instead of the program's own (a
    /// reference program run in place of the program under test).
    pub fn with_argv0(mut self, argv0: String) -> Executable<'p> {
        self.argv0 = argv0;
        self
    }

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
        let argv0 = argv0_of(prog);
        let mut exe = Executable {
            prog,
            image: mem,
            globals,
            strings,
            argv0,
            layout: GccLayout::new(prog),
            frames: prog.functions.iter().map(|f| frame_size(prog, f)).collect(),
        };
        // Evaluate the static initializers once.
        let mut m = Machine::new(&exe, Input::default(), ExecOptions::default());
        for (i, g) in prog.globals.iter().enumerate() {
            let obj = m.globals[i];
            if let Err(stop) = m.init_object(obj, &g.ty, &g.init) {
                return Err(match *stop {
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
        let termination = match result.map_err(|s| *s) {
            Ok(status) | Err(Stop::Exit(status)) => Termination::Exit(status & 0xff),
            Err(Stop::Assert(stmt, message)) => {
                // abort() does not flush stdout: what glibc's buffer held is lost.
                let keep = stdio::stdout_written_at_abort(m.out.len(), m.lib.stdout_flushed);
                m.out.truncate(keep);
                Termination::AssertFailed { stmt, message }
            }
            Err(Stop::Error(e)) => Termination::RuntimeError(e),
            Err(Stop::Hooked) => Termination::Stopped,
            Err(Stop::Budget(e)) => Termination::OutOfBudget(e),
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
            peak_stack: m.peak_stack,
            warnings: m.warnings,
            overflows: m.overflows,
        }
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
    /// Variable-length arrays (`alloca` blocks) of this activation, freed at its return.
    /// Each with the statement that allocated it: executing that statement
    /// again (a loop) ends the previous array's lifetime.
    allocas: Vec<(Option<StmtId>, u32)>,
}

enum Flow {
    Normal,
    Break,
    Continue,
    Return(Ret),
    /// A `goto` looking for its label in the enclosing blocks.
    Goto(faultline_ir::LabelId),
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
    /// `limits.max_steps`, or no limit.
    max_steps: u64,
    /// When the run's time is up.
    deadline: Option<Instant>,
    /// The job's budget (the thread's current one).
    budget: Option<Budget>,
    /// Estimated stack in use (bytes), as gcc -O0 lays out frames.
    stack: u64,
    /// The most `stack` has been.
    peak_stack: u64,
    /// Estimated frame size of each function.
    frame_sizes: &'e [u64],
    /// Below this address faultline's own stack is nearly exhausted.
    native_floor: usize,
    /// The statement being executed (for error messages).
    cur: Option<StmtId>,
    trace: Option<Trace>,
    /// Whether instances are tracked (trace or hooks).
    tracking: bool,
    /// Prints-only calls of watched statements under way
    /// ([`Machine::printing_call`]): what they print is shown to the hooks
    /// when they return, not before.
    capturing: u32,
    contexts: Contexts,
    /// The chain of the last context shown to the hooks.
    chain: ChainCache,
    cov: Coverage,
    hooks: Option<&'h mut dyn Hooks>,
    /// Places of the enclosing assignments, for `ExprKind::Old`.
    old: Vec<Loc>,
    exe_layout: &'e GccLayout,
    uses: std::cell::RefCell<Uses>,
    /// Undefined behaviour the run survived (emulated out-of-bounds reads).
    warnings: Vec<String>,
    overflows: Vec<StmtId>,
    /// Bytes of live heap blocks.
    heap_bytes: u64,
    /// Open files, scratch files, and the library's hidden state.
    lib: stdio::LibState,
    /// The program has unions (stores keep their members consistent).
    has_unions: bool,
    /// Each union's cells: type, byte offset and size (`interp/unions.rs`).
    union_cells: HashMap<faultline_ir::StructId, unions::UnionCells>,
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
            max_steps: options.limits.max_steps.unwrap_or(u64::MAX),
            deadline: options.limits.max_time.map(|t| Instant::now() + t),
            budget: Budget::current().filter(Budget::is_limited),
            stack: STACK_AT_MAIN,
            peak_stack: STACK_AT_MAIN,
            frame_sizes: &exe.frames,
            native_floor: native_stack_floor(),
            cur: None,
            trace: options.record_trace.then(Trace::default),
            tracking,
            capturing: 0,
            contexts: Contexts::new(),
            chain: ChainCache::default(),
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
            heap_bytes: 0,
            lib: stdio::LibState::new(input.workdir),
            has_unions: exe.prog.structs.iter().any(|s| s.union),
            union_cells: HashMap::new(),
        }
    }

    // ----- errors -------------------------------------------------------

    #[cold]
    fn error(&self, kind: ErrorKind, message: impl Into<String>) -> Box<Stop> {
        Box::new(Stop::Error(RuntimeError {
            kind,
            stmt: self.cur,
            message: message.into(),
        }))
    }

    #[cold]
    fn arith(&self, e: ArithError) -> Box<Stop> {
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
            Origin::Heap => self.heap_name(obj),
        }
    }

    // ----- statements and instances --------------------------------------

    /// Whether a hook watches statement `stmt` ([`Hooks::watches`]).
    fn watched(&self, stmt: StmtId) -> bool {
        self.hooks.as_ref().is_some_and(|h| h.watches(stmt))
    }

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

    /// Counts a step (a statement instance or a loop iteration) against the
    /// step limit; every 2^14 steps, checks the time limit and the job's budget.
    #[inline]
    pub(super) fn tick(&mut self) -> R<()> {
        self.steps += 1;
        if self.steps > self.max_steps || self.steps & 0x3fff == 0 {
            return self.check_limits();
        }
        Ok(())
    }

    #[cold]
    fn check_limits(&mut self) -> R<()> {
        if self.steps > self.max_steps {
            return Err(self.error(
                ErrorKind::StepLimit,
                format!(
                    "the run reached the step limit of {} statements and loop iterations (--max-steps raises it)",
                    self.max_steps
                ),
            ));
        }
        if let Some(e) = self.budget.as_ref().and_then(Budget::check) {
            return Err(Box::new(Stop::Budget(e)));
        }
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            let secs = self.limits.max_time.unwrap_or_default().as_secs_f64();
            return Err(self.error(
                ErrorKind::TimeLimit,
                format!(
                    "the run reached the time limit of {secs} s after {} statements and loop iterations (--max-time raises it)",
                    self.steps
                ),
            ));
        }
        Ok(())
    }

    /// Enters a statement instance: step budget, coverage, trace, hooks.
    fn begin(&mut self, id: StmtId) -> R<()> {
        self.cur = Some(id);
        self.tick()?;
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
            if self.watched(id) {
                let chain = self.chain.chain(&self.contexts, ctx);
                let stop = self
                    .hooks
                    .as_mut()
                    .is_some_and(|h| h.stop_before(&Site { inst, ctx: chain }));
                if stop {
                    return Err(Box::new(Stop::Hooked));
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
            if self.watched(inst.stmt) {
                let chain = self.chain.chain(&self.contexts, inst.ctx);
                if let Some(h) = self.hooks.as_mut() {
                    b = h.branch(&Site { inst, ctx: chain }, computed);
                }
            }
            if let (Some(t), Some(ev)) = (self.trace.as_mut(), event) {
                t.events[ev].outcome = Outcome::Branch(b);
            }
        }
        *self.cov.branches.entry((id, b)).or_insert(0) += 1;
        b
    }

    /// Where the current `break` or `continue` instance jumps (hooks may change it).
    fn jump_to(&mut self, computed: Jump) -> Jump {
        if !self.tracking || self.hooks.is_none() {
            return computed;
        }
        let inst = self.frames.last().expect("frame").inst;
        if !self.watched(inst.stmt) {
            return computed;
        }
        let chain = self.chain.chain(&self.contexts, inst.ctx);
        match self.hooks.as_mut() {
            Some(h) => h.jump(&Site { inst, ctx: chain }, computed),
            None => computed,
        }
    }

    /// The `i`-th argument of a call with relaxable arguments (hooks may change it).
    fn argument(&mut self, i: u32, v: Value) -> Value {
        if !self.tracking || self.hooks.is_none() {
            return v;
        }
        let inst = self.frames.last().expect("frame").inst;
        if !self.watched(inst.stmt) {
            return v;
        }
        let chain = self.chain.chain(&self.contexts, inst.ctx);
        match self.hooks.as_mut() {
            Some(h) => h.argument(&Site { inst, ctx: chain }, i, v),
            None => v,
        }
    }

    /// A value produced by the current statement instance (a store or a return).
    fn produce(&mut self, target: Target, v: Value) -> Value {
        if !self.tracking {
            return v;
        }
        let f = self.frames.last_mut().expect("frame");
        let (inst, event, k) = (f.inst, f.event, f.produced);
        f.produced += 1;
        let v = if self.watched(inst.stmt) {
            let chain = self.chain.chain(&self.contexts, inst.ctx);
            match self.hooks.as_mut() {
                Some(h) => h.value(&Site { inst, ctx: chain }, k, v),
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

    // ----- calls ----------------------------------------------------------

    // ----- memory ---------------------------------------------------------

    // ----- expressions ------------------------------------------------------

    // ----- library ----------------------------------------------------------
}

/// How much of faultline's own stack a run leaves unused: a program recursing
/// deeper than the thread running it can afford ends with a stack overflow
/// rather than crashing faultline.
const NATIVE_STACK_MARGIN: usize = 1 << 20;

/// The address below which the current thread's stack is nearly exhausted
/// (0 when unknown).
fn native_stack_floor() -> usize {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: `pthread_getattr_np` fills `attr` for the calling thread,
        // which is destroyed after reading the stack's bounds from it.
        unsafe {
            let mut attr: ::libc::pthread_attr_t = std::mem::zeroed();
            if ::libc::pthread_getattr_np(::libc::pthread_self(), &mut attr) != 0 {
                return 0;
            }
            let mut addr: *mut ::libc::c_void = std::ptr::null_mut();
            let mut size: ::libc::size_t = 0;
            let ok = ::libc::pthread_attr_getstack(&attr, &mut addr, &mut size) == 0;
            ::libc::pthread_attr_destroy(&mut attr);
            if ok {
                return (addr as usize).saturating_add(NATIVE_STACK_MARGIN);
            }
        }
    }
    0
}

/// An address on the current stack (its depth).
#[inline(always)]
fn stack_address() -> usize {
    let marker = 0u8;
    std::ptr::addr_of!(marker) as usize
}
