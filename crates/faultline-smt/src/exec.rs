//! The symbolic executor: one failing test's run as a formula.
//!
//! Execution is *guarded*: every statement is executed under a Boolean guard
//! (the condition under which control reaches it); stores update memory cells
//! with `ite(guard, new, old)`; `return`, `break`, `continue` and `exit` move
//! their guard to the enclosing join point. Calls are inlined; loops are
//! unrolled and recursion unfolded up to [`Bounds`], and paths that would need
//! more iterations are excluded by a hard constraint (the unwinding
//! assumption).

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
    Block, Branch, Builtin, CmpOp, Cond, Expr, ExprKind, FloatKind, FuncId, IntKind, Layout, Place,
    PlaceKind, Program, Stmt, StmtId, StmtKind, Stream, Type, Var, VarRef,
};
use std::collections::HashMap;
use std::fmt;
use z3::ast::{Ast, Bool, BV};

/// One way an input read can go: the guard that the read starts at a given
/// offset, the offset after it, the value returned and the items converted.
type ReadCase = (Bool, usize, i128, Vec<libc::Scanned>);

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

/// The value a relaxed statement instance produced in a model.
#[derive(Clone, Debug)]
pub enum InstValue {
    /// A stored or returned scalar: what the model chose, and what the
    /// statement computes in the model's state.
    Scalar { chosen: SVal, computed: SVal },
    /// A condition's outcome.
    Branch { chosen: Bool, computed: Bool },
    /// An output statement: the text it prints is the expected output between these positions.
    Output { start: BV, end: BV },
}

/// One instance of a relaxable statement in the formula.
#[derive(Clone, Debug)]
pub struct RelaxedInstance {
    pub stmt: StmtId,
    pub ctx: Vec<Scope>,
    /// When the instance is reached.
    pub guard: Bool,
    pub value: InstValue,
}

/// What [`encode_test`] built for one test.
#[derive(Debug, Default)]
pub struct TestEncoding {
    pub relaxed: Vec<RelaxedInstance>,
    /// Approximations made (for reports).
    pub notes: Vec<String>,
    /// Guards of unexplored (abstract) branches entered, with their condition
    /// instance (on-demand strategies expand these).
    pub abstract_entries: Vec<(StmtId, Vec<Scope>, Branch, Bool)>,
    /// Number of statement instances encoded.
    pub instances: usize,
}

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
    let mut ex = SymExec::new(prog, test, encoding, sem, bounds, policy, ab, solver);
    ex.run()?;
    Ok(ex.out)
}

// ----- state ------------------------------------------------------------------

#[derive(Clone, Debug)]
struct SCell {
    v: SVal,
    init: Bool,
}

struct SObj {
    cells: Vec<SCell>,
    live: bool,
    readonly: bool,
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

struct Frame {
    func: FuncId,
    locals: Vec<u32>,
    ctx: CtxId,
    ret_guard: Bool,
    ret: Option<Vec<SCell>>,
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
    objs: Vec<SObj>,
    globals: Vec<u32>,
    strings: Vec<u32>,
    frames: Vec<Frame>,
    loops: Vec<LoopCtx>,
    contexts: Contexts,
    stmts: Vec<StmtScope>,
    old: Vec<(LPlace, Type)>,
    outputs: Vec<OutEvent>,
    /// The input position (a `long`), and the offsets it can take.
    in_pos: SInt,
    in_starts: std::collections::BTreeSet<usize>,
    /// Exit status so far.
    status: SInt,
    out: TestEncoding,
    fresh: u32,
    layout: faultline_exec::layout::GccLayout,
    summaries: Summaries,
    /// The type of the scalar being read (for emulated reads).
    emu_ty: Option<Type>,
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
            frames: Vec::new(),
            loops: Vec::new(),
            contexts: Contexts::new(),
            stmts: Vec::new(),
            old: Vec::new(),
            outputs: Vec::new(),
            in_pos: SInt::constant(sem, IntKind::Long, 0),
            in_starts: std::iter::once(0).collect(),
            status: SInt::constant(sem, IntKind::Int, 0),
            out: TestEncoding::default(),
            fresh: 0,
            layout: faultline_exec::layout::GccLayout::new(prog),
            summaries: Summaries::new(prog),
            emu_ty: None,
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
            self.solver.assert(&b);
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
        let kind = self.prog.stmt(id).kind;
        let relaxable = match kind {
            StmtKind::Break | StmtKind::Continue => false,
            k if k.is_condition() => self.encoding != Encoding::Trace,
            _ => true,
        };
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
            value: InstValue::Scalar {
                chosen: chosen.clone(),
                computed: v,
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

    fn ptr_to(&self, obj: u32, off: i128) -> SCell {
        SCell {
            v: SVal::Ptr(SPtr::single(Target::Obj {
                obj,
                off: SInt::constant(self.sem, IntKind::Long, off),
            })),
            init: tt(),
        }
    }

    fn alloc(&mut self, cells: Vec<SCell>, readonly: bool) -> u32 {
        self.objs.push(SObj {
            cells,
            live: true,
            readonly,
        });
        (self.objs.len() - 1) as u32
    }

    fn zero_cells(&self, ty: &Type, init: bool) -> Vec<SCell> {
        let mut types = Vec::new();
        self.prog.cell_types(ty, &mut types);
        types
            .iter()
            .map(|t| SCell {
                v: SVal::zero(self.sem, t),
                init: Bool::from_bool(init),
            })
            .collect()
    }

    fn init_memory(&mut self) -> R<()> {
        let prog = self.prog;
        for s in &prog.strings {
            let cells = s
                .iter()
                .chain(std::iter::once(&0u8))
                .map(|&b| SCell {
                    v: SVal::Int(SInt::constant(self.sem, IntKind::Char, b as i8 as i128)),
                    init: tt(),
                })
                .collect();
            let id = self.alloc(cells, true);
            self.strings.push(id);
        }
        for g in &prog.globals {
            let cells = self.zero_cells(&g.ty, true);
            let id = self.alloc(cells, false);
            self.globals.push(id);
        }
        for (i, g) in prog.globals.iter().enumerate() {
            let obj = self.globals[i];
            let mut guard = tt();
            for item in &g.init.items {
                self.init_item(obj, item.cell, &item.value, &mut guard)?;
            }
        }
        Ok(())
    }

    fn init_item(&mut self, obj: u32, cell: u64, value: &'a Expr, g: &mut Bool) -> R<()> {
        let lp = LPlace {
            alts: vec![LAlt {
                g: tt(),
                obj,
                off: SInt::constant(self.sem, IntKind::Long, cell as i128),
                emu: None,
            }],
        };
        if value.ty.is_scalar() {
            let v = self.eval(value, g)?;
            let v = if is_input(value) {
                v
            } else {
                self.relax_scalar(v, &value.ty, g)?
            };
            self.store(&lp, &value.ty, SCell { v, init: tt() }, g);
        } else {
            let cells = self.eval_agg(value, g)?;
            let cells = self.relax_agg(cells, &value.ty, g)?;
            self.store_agg(&lp, &cells, g);
        }
        Ok(())
    }

    fn exec_block(&mut self, b: &'a Block, mut g: Bool) -> R<Bool> {
        for s in b {
            if is_false(&g) {
                break;
            }
            g = self.exec(s, g)?;
        }
        Ok(g)
    }

    fn exec(&mut self, s: &'a Stmt, g: Bool) -> R<Bool> {
        match s {
            Stmt::Expr { id, expr } => {
                self.begin(*id);
                let mut g2 = g.clone();
                let r = if expr.ty.is_scalar() || expr.ty == Type::Void {
                    self.eval(expr, &mut g2).map(|_| ())
                } else {
                    self.eval_agg(expr, &mut g2).map(|_| ())
                };
                self.end();
                r?;
                Ok(g2)
            }
            Stmt::Init {
                id,
                local,
                init,
                zero_fill,
            } => {
                self.begin(*id);
                let obj = self.frames.last().expect("frame").locals[local.index()];
                let ty = &self
                    .prog
                    .func(self.frames.last().expect("frame").func)
                    .locals[local.index()]
                .ty;
                let mut g2 = g.clone();
                if *zero_fill {
                    let zero = self.zero_cells(ty, true);
                    let lp = LPlace {
                        alts: vec![LAlt {
                            g: tt(),
                            obj,
                            off: SInt::constant(self.sem, IntKind::Long, 0),
                            emu: None,
                        }],
                    };
                    self.store_agg(&lp, &zero, &g2);
                }
                let mut r = Ok(());
                for item in &init.items {
                    r = self.init_item(obj, item.cell, &item.value, &mut g2);
                    if r.is_err() {
                        break;
                    }
                }
                self.end();
                r?;
                Ok(g2)
            }
            Stmt::Declare { local } => {
                let obj = self.frames.last().expect("frame").locals[local.index()];
                for c in self.objs[obj as usize].cells.iter_mut() {
                    c.init = sym::ite_bool(&g, &ff(), &c.init);
                }
                Ok(g)
            }
            Stmt::If { cond, then, els } => {
                let (gt, ge, boxed) = self.branch(cond, &g, false)?;
                let ft = self.exec_or_havoc(then, gt, boxed == Some(Branch::True))?;
                let fe = self.exec_or_havoc(els, ge, boxed == Some(Branch::False))?;
                Ok(or2(&ft, &fe))
            }
            Stmt::While { cond, body, step } => {
                let loop_id = cond.as_ref().map_or(StmtId(u32::MAX), |c| c.id);
                let outer = self.ctx();
                let r = self.while_loop(cond.as_ref(), body, step.as_deref(), loop_id, outer, g);
                self.set_ctx(outer);
                r
            }
            Stmt::DoWhile { body, cond } => {
                let outer = self.ctx();
                let r = self.do_loop(body, cond, outer, g);
                self.set_ctx(outer);
                r
            }
            Stmt::Switch {
                cond,
                body,
                cases,
                default,
            } => self.switch(cond, body, cases, *default, g),
            Stmt::Return { id, value } => {
                self.begin(*id);
                let mut g2 = g.clone();
                let r = match value {
                    None => Ok(None),
                    Some(e) if e.ty.is_scalar() => self.eval(e, &mut g2).and_then(|v| {
                        let v = self.relax_scalar(v, &e.ty, &g2)?;
                        Ok(Some(vec![SCell { v, init: tt() }]))
                    }),
                    Some(e) => self
                        .eval_agg(e, &mut g2)
                        .and_then(|c| self.relax_agg(c, &e.ty, &g2))
                        .map(Some),
                };
                self.end();
                let cells = r?;
                let f = self.frames.last_mut().expect("frame");
                f.ret = match (f.ret.take(), cells) {
                    (None, c) => c,
                    (Some(old), Some(new)) => Some(
                        new.iter()
                            .zip(&old)
                            .map(|(n, o)| SCell {
                                v: SVal::ite(&g2, &n.v, &o.v),
                                init: sym::ite_bool(&g2, &n.init, &o.init),
                            })
                            .collect(),
                    ),
                    (Some(old), None) => Some(old),
                };
                f.ret_guard = or2(&f.ret_guard, &g2);
                Ok(ff())
            }
            Stmt::Break { id } => {
                self.begin(*id);
                self.end();
                let l = self
                    .loops
                    .last_mut()
                    .expect("break inside a loop or switch");
                l.brk = or2(&l.brk, &g);
                Ok(ff())
            }
            Stmt::Continue { id } => {
                self.begin(*id);
                self.end();
                let l = self
                    .loops
                    .iter_mut()
                    .rev()
                    .find(|l| !l.is_switch)
                    .expect("continue inside a loop");
                l.cont = or2(&l.cont, &g);
                Ok(ff())
            }
        }
    }

    /// Evaluates a condition; returns the guards of its true and false
    /// branches, and the guard of paths that leave it otherwise (an exit inside
    /// the condition's calls never reaches either branch).
    /// Evaluates a condition; returns the guards of its true and false
    /// branches, and the outcome left as a black box, if any.
    fn branch(&mut self, c: &'a Cond, g: &Bool, is_loop: bool) -> R<(Bool, Bool, Option<Branch>)> {
        self.begin(c.id);
        let mut g2 = g.clone();
        let r = self.eval(&c.expr, &mut g2);
        let v = match r {
            Ok(v) => v,
            Err(e) => {
                self.end();
                return Err(e);
            }
        };
        let computed = v.truthy();
        let ctx = self.ctx();
        let explore = match self.policy.as_mut() {
            Some(p) => {
                let chain = self.contexts.chain(ctx);
                p.explore(c.id, &chain)
            }
            None => Explore::Both,
        };
        let cv = self.relax_cond(computed, &g2);
        let (gt, ge) = (and2(&g2, &cv), and2(&g2, &not(&cv)));
        let result = match explore {
            Explore::Both => (gt, ge, None),
            Explore::Only(b) => {
                let want = b == Branch::True;
                self.hard(implies(&g2, &if want { cv } else { not(&cv) }));
                if want {
                    (g2.clone(), ff(), None)
                } else {
                    (ff(), g2.clone(), None)
                }
            }
            Explore::Abstract(seen) => {
                let t = seen.contains(&Branch::True);
                let f = seen.contains(&Branch::False);
                match (t, f) {
                    (true, true) => (gt, ge, None),
                    // Leaving a loop is never a black box: the code after it is
                    // reached by the run that left it later.
                    (true, false) if is_loop => (gt, ge, None),
                    (true, false) => {
                        self.out.abstract_entries.push((
                            c.id,
                            self.contexts.chain(ctx),
                            Branch::False,
                            ge.clone(),
                        ));
                        (gt, ge, Some(Branch::False))
                    }
                    (false, true) => {
                        self.out.abstract_entries.push((
                            c.id,
                            self.contexts.chain(ctx),
                            Branch::True,
                            gt.clone(),
                        ));
                        (gt, ge, Some(Branch::True))
                    }
                    (false, false) => (gt, ge, None),
                }
            }
        };
        self.end();
        Ok(result)
    }

    /// A black box: the code `summary` describes runs under `g` and does
    /// anything it could do. Returns the guard of falling through it.
    fn havoc(&mut self, summary: &Summary, g: &Bool) -> R<Bool> {
        if is_false(g) {
            return Ok(ff());
        }
        self.out.instances += 1;
        // Written variables take fresh values.
        let mut objs: Vec<u32> = Vec::new();
        for d in &summary.defs {
            match d {
                VarRef::Global(gl) => objs.push(self.globals[gl.index()]),
                VarRef::Local(f, l) => {
                    if let Some(fr) = self.frames.last() {
                        if fr.func == *f {
                            objs.push(fr.locals[l.index()]);
                        }
                    }
                }
                VarRef::Indirect => {
                    objs.extend(self.globals.iter().copied());
                    for fr in &self.frames {
                        objs.extend(fr.locals.iter().copied());
                    }
                }
            }
        }
        objs.sort_unstable();
        objs.dedup();
        for obj in objs {
            if !self.objs[obj as usize].live || self.objs[obj as usize].readonly {
                continue;
            }
            let n = self.objs[obj as usize].cells.len();
            for j in 0..n {
                let old = self.objs[obj as usize].cells[j].clone();
                let fresh = match &old.v {
                    SVal::Int(i) => {
                        let name = self.name("havoc");
                        let (v, range) = SInt::fresh(self.sem, i.kind, &name);
                        self.hard(range);
                        SVal::Int(v)
                    }
                    SVal::Float(x) => {
                        let name = self.name("havoc");
                        self.lift(SVal::fresh(self.sem, &Type::Float(x.kind), &name))?
                            .0
                    }
                    // Pointers keep their targets (a documented approximation).
                    other => other.clone(),
                };
                self.objs[obj as usize].cells[j] = SCell {
                    v: SVal::ite(g, &fresh, &old.v),
                    init: sym::ite_bool(g, &tt(), &old.init),
                };
            }
        }
        if summary.outputs {
            let stmt = self.cur().unwrap_or(StmtId(u32::MAX));
            let ctx = self.contexts.chain(self.ctx());
            self.outputs.push(OutEvent {
                guard: g.clone(),
                stmt,
                ctx,
                ab: Some(tt()),
                pieces: Vec::new(),
                black_box: true,
            });
        }
        if summary.inputs {
            self.input_havoc(g);
        }
        let mut fall = g.clone();
        if summary.exits {
            let e = Bool::fresh_const("box_exits");
            let ge = and2(&fall, &e);
            let name = self.name("status");
            let (st, r) = SInt::fresh(self.sem, IntKind::Int, &name);
            self.hard(r);
            self.status = SInt::ite(&ge, &st, &self.status.clone());
            fall = and2(&fall, &not(&e));
        }
        if summary.returns && !self.frames.is_empty() {
            let r = Bool::fresh_const("box_returns");
            let gr = and2(&fall, &r);
            let f = self.frames.last().expect("frame").func;
            let ret_ty = self.prog.func(f).ret.clone();
            let cells = if ret_ty == Type::Void {
                None
            } else {
                let mut types = Vec::new();
                self.prog.cell_types(&ret_ty, &mut types);
                let mut cells = Vec::new();
                for t in &types {
                    let name = self.name("ret");
                    let v = match SVal::fresh(self.sem, t, &name) {
                        Ok((v, range)) => {
                            self.hard(range);
                            v
                        }
                        Err(_) => SVal::zero(self.sem, t),
                    };
                    cells.push(SCell { v, init: tt() });
                }
                Some(cells)
            };
            let fr = self.frames.last_mut().expect("frame");
            fr.ret = match (fr.ret.take(), cells) {
                (None, c) => c,
                (Some(old), Some(new)) => Some(
                    new.iter()
                        .zip(&old)
                        .map(|(n, o)| SCell {
                            v: SVal::ite(&gr, &n.v, &o.v),
                            init: sym::ite_bool(&gr, &n.init, &o.init),
                        })
                        .collect(),
                ),
                (Some(old), None) => Some(old),
            };
            fr.ret_guard = or2(&fr.ret_guard, &gr);
            fall = and2(&fall, &not(&r));
        }
        if summary.breaks && !self.loops.is_empty() {
            let b = Bool::fresh_const("box_breaks");
            let gb = and2(&fall, &b);
            let l = self.loops.last_mut().expect("loop");
            l.brk = or2(&l.brk, &gb);
            fall = and2(&fall, &not(&b));
        }
        if summary.continues {
            if let Some(l) = self.loops.iter_mut().rev().find(|l| !l.is_switch) {
                let c = Bool::fresh_const("box_continues");
                let gc = and2(&fall, &c);
                l.cont = or2(&l.cont, &gc);
                fall = and2(&fall, &not(&c));
            }
        }
        Ok(fall)
    }

    /// The remaining iterations of a loop as one black box (its `break`s and
    /// `continue`s stay inside it); returns the guard of leaving the loop.
    fn loop_box(&mut self, body: &'a Block, step: Option<&'a Stmt>, g: &Bool) -> R<Bool> {
        let mut s = self.summaries.block(self.prog, body);
        if let Some(st) = step {
            let t = self.summaries.block(self.prog, std::slice::from_ref(st));
            s.defs.extend(t.defs);
            s.outputs |= t.outputs;
            s.inputs |= t.inputs;
            s.exits |= t.exits;
            s.returns |= t.returns;
        }
        s.breaks = false;
        s.continues = false;
        self.havoc(&s, g)
    }

    /// Executes a block, or havocs it when it is a black box.
    fn exec_or_havoc(&mut self, b: &'a Block, g: Bool, black_box: bool) -> R<Bool> {
        if black_box {
            let s = self.summaries.block(self.prog, b);
            self.havoc(&s, &g)
        } else {
            self.exec_block(b, g)
        }
    }

    fn while_loop(
        &mut self,
        cond: Option<&'a Cond>,
        body: &'a Block,
        step: Option<&'a Stmt>,
        loop_id: StmtId,
        outer: CtxId,
        g: Bool,
    ) -> R<Bool> {
        let bound = self.loop_bound(loop_id);
        let mut gi = g;
        let mut exit_g = ff();
        for k in 0..bound {
            if is_false(&gi) {
                return Ok(exit_g);
            }
            let ctx = self.contexts.enter(outer, Scope::Iter(loop_id, k));
            self.set_ctx(ctx);
            let gb = match cond {
                Some(c) => {
                    let (gt, ge, boxed) = self.branch(c, &gi, true)?;
                    exit_g = or2(&exit_g, &ge);
                    if boxed == Some(Branch::True) {
                        // No run entered the body here: the rest of the loop is a black box.
                        let fall = self.loop_box(body, step, &gt)?;
                        exit_g = or2(&exit_g, &fall);
                        return Ok(exit_g);
                    }
                    gt
                }
                None => gi.clone(),
            };
            self.loops.push(LoopCtx {
                brk: ff(),
                cont: ff(),
                is_switch: false,
            });
            let ft = self.exec_block(body, gb);
            let l = self.loops.pop().expect("pushed");
            let ft = ft?;
            exit_g = or2(&exit_g, &l.brk);
            let mut gs = or2(&ft, &l.cont);
            if let Some(st) = step {
                if !is_false(&gs) {
                    gs = self.exec(st, gs)?;
                }
            }
            gi = gs;
        }
        self.unwinding_assumption(&gi, loop_id);
        Ok(exit_g)
    }

    fn do_loop(&mut self, body: &'a Block, cond: &'a Cond, outer: CtxId, g: Bool) -> R<Bool> {
        let bound = self.loop_bound(cond.id);
        let mut gi = g;
        let mut exit_g = ff();
        for k in 0..bound {
            if is_false(&gi) {
                return Ok(exit_g);
            }
            let ctx = self.contexts.enter(outer, Scope::Iter(cond.id, k));
            self.set_ctx(ctx);
            self.loops.push(LoopCtx {
                brk: ff(),
                cont: ff(),
                is_switch: false,
            });
            let ft = self.exec_block(body, gi.clone());
            let l = self.loops.pop().expect("pushed");
            let ft = ft?;
            exit_g = or2(&exit_g, &l.brk);
            let gc = or2(&ft, &l.cont);
            if is_false(&gc) {
                return Ok(exit_g);
            }
            let (gt, ge, boxed) = self.branch(cond, &gc, true)?;
            exit_g = or2(&exit_g, &ge);
            if boxed == Some(Branch::True) {
                let fall = self.loop_box(body, None, &gt)?;
                exit_g = or2(&exit_g, &fall);
                return Ok(exit_g);
            }
            gi = gt;
        }
        self.unwinding_assumption(&gi, cond.id);
        Ok(exit_g)
    }

    fn loop_bound(&self, id: StmtId) -> u32 {
        *self
            .bounds
            .loops
            .get(&id)
            .unwrap_or(&self.bounds.default_loop)
    }

    fn unwinding_assumption(&mut self, g: &Bool, loop_id: StmtId) {
        if is_false(g) {
            return;
        }
        self.hard(not(g));
        let note = if loop_id.0 == u32::MAX {
            "a `for (;;)` loop is unrolled to its bound".to_string()
        } else {
            format!(
                "the loop at {} is unrolled to its bound",
                self.prog.stmt_pos(loop_id)
            )
        };
        if !self.out.notes.contains(&note) {
            self.out.notes.push(note);
        }
    }

    fn switch(
        &mut self,
        cond: &'a Cond,
        body: &'a Block,
        cases: &'a [faultline_ir::SwitchCase],
        default: Option<usize>,
        g: Bool,
    ) -> R<Bool> {
        self.begin(cond.id);
        let mut g2 = g.clone();
        let v = match self.eval(&cond.expr, &mut g2) {
            Ok(v) => v,
            Err(e) => {
                self.end();
                return Err(e);
            }
        };
        let v = match self.relax_scalar(v, &cond.expr.ty, &g2) {
            Ok(v) => v,
            Err(e) => {
                self.end();
                return Err(e);
            }
        };
        let vi = match v.as_int() {
            Ok(i) => i.clone(),
            Err(e) => {
                self.end();
                return Err(err(Some(cond.id), e));
            }
        };
        let matches: Vec<Bool> = cases
            .iter()
            .map(|c| vi.eq_const(vi.kind.value(c.value)))
            .collect();
        let any = matches.iter().fold(ff(), |a, m| or2(&a, m));
        let ctx = self.ctx();
        let explore = match self.policy.as_mut() {
            Some(p) => {
                let chain = self.contexts.chain(ctx);
                p.explore(cond.id, &chain)
            }
            None => Explore::Both,
        };
        if let Explore::Only(b) = &explore {
            let want = match b {
                Branch::Case(i) => matches.get(*i as usize).cloned().unwrap_or_else(ff),
                _ => not(&any),
            };
            self.hard(implies(&g2, &want));
        }
        self.end();
        let explored = |b: Branch| match &explore {
            Explore::Abstract(seen) => seen.contains(&b),
            _ => true,
        };
        let mut boxed = ff();
        let mut entries = vec![ff(); body.len() + 1];
        for (i, (c, m)) in cases.iter().zip(&matches).enumerate() {
            let gm = and2(&g2, m);
            if explored(Branch::Case(i as u32)) {
                entries[c.target] = or2(&entries[c.target], &gm);
            } else if !is_false(&gm) {
                self.out.abstract_entries.push((
                    cond.id,
                    self.contexts.chain(ctx),
                    Branch::Case(i as u32),
                    gm.clone(),
                ));
                boxed = or2(&boxed, &gm);
            }
        }
        let no_match = and2(&g2, &not(&any));
        if explored(Branch::Default) {
            match default {
                Some(d) => entries[d] = or2(&entries[d], &no_match),
                None => entries[body.len()] = or2(&entries[body.len()], &no_match),
            }
        } else if !is_false(&no_match) {
            self.out.abstract_entries.push((
                cond.id,
                self.contexts.chain(ctx),
                Branch::Default,
                no_match.clone(),
            ));
            boxed = or2(&boxed, &no_match);
        }
        // Unexplored cases: the switch body from there on is a black box.
        let box_fall = if is_false(&boxed) {
            ff()
        } else {
            let mut sm = self.summaries.block(self.prog, body);
            sm.breaks = false;
            self.havoc(&sm, &boxed)?
        };
        self.loops.push(LoopCtx {
            brk: ff(),
            cont: ff(),
            is_switch: true,
        });
        let mut cur = ff();
        let mut result = Ok(());
        for (j, s) in body.iter().enumerate() {
            cur = or2(&cur, &entries[j]);
            if is_false(&cur) {
                continue;
            }
            match self.exec(s, cur.clone()) {
                Ok(next) => cur = next,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        let l = self.loops.pop().expect("pushed");
        result?;
        // `continue` inside a switch belongs to the enclosing loop.
        Ok(or2(
            &or2(&or2(&cur, &entries[body.len()]), &l.brk),
            &box_fall,
        ))
    }

    // ----- calls ----------------------------------------------------------------

    /// Inlines a call under guard `g`; returns the result cells and the guard
    /// under which the call returns normally.
    fn call(
        &mut self,
        fid: FuncId,
        args: Vec<Vec<SCell>>,
        g: &Bool,
        site: Option<faultline_ir::CallSiteId>,
    ) -> R<(Option<Vec<SCell>>, Bool)> {
        let prog = self.prog;
        let f = prog.func(fid);
        let depth = self.frames.iter().filter(|fr| fr.func == fid).count() as u32;
        let limit = *self
            .bounds
            .depth
            .get(&fid)
            .unwrap_or(&self.bounds.default_depth);
        if depth >= limit.max(1) {
            // Recursion bound: this call is assumed not to happen.
            self.hard(not(g));
            let note = format!(
                "recursion of '{}' is unfolded to depth {}",
                f.name,
                limit.max(1)
            );
            if !self.out.notes.contains(&note) {
                self.out.notes.push(note);
            }
            let ret = if f.ret == Type::Void {
                None
            } else {
                Some(self.zero_cells(&f.ret, true))
            };
            return Ok((ret, ff()));
        }
        let ctx = match site {
            Some(s) => self.contexts.enter(self.ctx(), Scope::Call(s)),
            None => CtxId::ROOT,
        };
        let mut locals = Vec::with_capacity(f.locals.len());
        for l in &f.locals {
            let cells = self.zero_cells(&l.ty, false);
            locals.push(self.alloc(cells, false));
        }
        for (p, a) in f.params.iter().zip(args) {
            let obj = locals[p.index()];
            for (c, v) in self.objs[obj as usize].cells.iter_mut().zip(a) {
                *c = v;
            }
        }
        self.frames.push(Frame {
            func: fid,
            locals,
            ctx,
            ret_guard: ff(),
            ret: None,
        });
        let saved_stmts = std::mem::take(&mut self.stmts);
        let saved_loops = std::mem::take(&mut self.loops);
        let saved_old = std::mem::take(&mut self.old);
        let r = self.exec_block(&f.body, g.clone());
        self.stmts = saved_stmts;
        self.loops = saved_loops;
        self.old = saved_old;
        let frame = self.frames.pop().expect("pushed");
        for obj in &frame.locals {
            self.objs[*obj as usize].live = false;
        }
        let fell = r?;
        let normal = or2(&frame.ret_guard, &fell);
        let ret = if f.ret == Type::Void {
            None
        } else {
            match frame.ret {
                Some(cells) if is_false(&fell) => Some(cells),
                Some(cells) => {
                    // Falling off the end of a non-void function: the value is indeterminate.
                    let undef: Vec<SCell> = self.zero_cells(&f.ret, false);
                    Some(
                        cells
                            .iter()
                            .zip(&undef)
                            .map(|(c, u)| SCell {
                                v: SVal::ite(&fell, &u.v, &c.v),
                                init: sym::ite_bool(&fell, &u.init, &c.init),
                            })
                            .collect(),
                    )
                }
                None => Some(self.zero_cells(&f.ret, false)),
            }
        };
        Ok((ret, normal))
    }

    // ----- memory -------------------------------------------------------------------

    fn var_obj(&self, v: Var) -> u32 {
        match v {
            Var::Global(g) => self.globals[g.index()],
            Var::Local(l) => self.frames.last().expect("frame").locals[l.index()],
        }
    }

    fn long(&self, v: i128) -> SInt {
        SInt::constant(self.sem, IntKind::Long, v)
    }

    fn add_off(&self, a: &SInt, b: &SInt) -> SInt {
        match (a.as_const(), b.as_const()) {
            (Some(x), Some(y)) => self.long(x + y),
            _ => sym::binary(
                faultline_ir::BinOp::Add,
                &faultline_ir::LONG,
                &SVal::Int(a.clone()),
                &SVal::Int(b.clone()),
            )
            .ok()
            .and_then(|c| match c.v {
                SVal::Int(i) => Some(i),
                _ => None,
            })
            .expect("long addition"),
        }
    }

    fn mul_off(&self, a: &SInt, n: u64) -> SInt {
        if n == 1 {
            return a.clone();
        }
        match a.as_const() {
            Some(x) => self.long(x * n as i128),
            None => sym::binary(
                faultline_ir::BinOp::Mul,
                &faultline_ir::LONG,
                &SVal::Int(a.clone()),
                &SVal::Int(self.long(n as i128)),
            )
            .ok()
            .and_then(|c| match c.v {
                SVal::Int(i) => Some(i),
                _ => None,
            })
            .expect("long multiplication"),
        }
    }

    fn in_range(&self, off: &SInt, lo: i128, hi: i128) -> Bool {
        match off.as_const() {
            Some(x) => Bool::from_bool(x >= lo && x <= hi),
            None => {
                let (ge, le) = (
                    sym::compare(
                        faultline_ir::CmpOp::Ge,
                        &SVal::Int(off.clone()),
                        &SVal::Int(self.long(lo)),
                    ),
                    sym::compare(
                        faultline_ir::CmpOp::Le,
                        &SVal::Int(off.clone()),
                        &SVal::Int(self.long(hi)),
                    ),
                );
                match (ge, le) {
                    (Ok(a), Ok(b)) => and2(&a.v.1, &b.v.1),
                    _ => ff(),
                }
            }
        }
    }

    fn place(&mut self, p: &'a Place, g: &mut Bool) -> R<LPlace> {
        match &p.kind {
            PlaceKind::Var(v) => Ok(LPlace {
                alts: vec![LAlt {
                    g: tt(),
                    obj: self.var_obj(*v),
                    off: self.long(0),
                    emu: None,
                }],
            }),
            PlaceKind::Index(base, idx) => {
                let b = self.place(base, g)?;
                let i = self.eval(idx, g)?;
                let i = self.lift(i.as_int().cloned())?.convert(IntKind::Long);
                let (elem, n) = match &base.ty {
                    Type::Array(e, n) => (e, *n),
                    _ => return self.unsupported("indexing a non-array"),
                };
                let esize = self.prog.size_of(elem) as i128;
                // An index outside a global array, taking one of a few known
                // values: those reads resolve as gcc lays out globals.
                if let ([a], Some(values)) = (b.alts.as_slice(), i.leaves(16)) {
                    let base_addr = a.emu.or_else(|| self.global_cell_addr(a));
                    let outside: Vec<i128> = values
                        .iter()
                        .copied()
                        .filter(|k| a.emu.is_some() || *k < 0 || *k >= n as i128)
                        .collect();
                    if let (Some(base), false) = (base_addr, outside.is_empty()) {
                        let mut alts = Vec::new();
                        let mut ok = ff();
                        for k in &outside {
                            let at = and2(&a.g, &i.eq_const(*k));
                            ok = or2(&ok, &at);
                            alts.push(LAlt {
                                g: at,
                                obj: a.obj,
                                off: a.off.clone(),
                                emu: Some((base as i128 + k * esize) as u64),
                            });
                        }
                        if a.emu.is_none() {
                            let inside = self.in_range(&i, 0, n as i128 - 1);
                            if !is_false(&inside) {
                                let scaled = self.mul_off(&i, self.prog.cells(elem));
                                ok = or2(&ok, &inside);
                                alts.push(LAlt {
                                    g: and2(&a.g, &inside),
                                    obj: a.obj,
                                    off: self.add_off(&a.off, &scaled),
                                    emu: None,
                                });
                            }
                        }
                        self.check(&g.clone(), ok);
                        return Ok(LPlace { alts });
                    }
                }
                let ok = self.in_range(&i, 0, n as i128 - 1);
                self.check(&g.clone(), ok);
                let scaled = self.mul_off(&i, self.prog.cells(elem));
                Ok(LPlace {
                    alts: b
                        .alts
                        .into_iter()
                        .map(|a| LAlt {
                            off: self.add_off(&a.off, &scaled),
                            ..a
                        })
                        .collect(),
                })
            }
            PlaceKind::Field(base, n) => {
                let b = self.place(base, g)?;
                let Type::Struct(s) = &base.ty else {
                    return self.unsupported("member of a non-struct");
                };
                let f = &self.prog.struct_def(*s).fields[*n as usize];
                let d = self.long(f.cell_offset as i128);
                let bytes = f.byte_offset;
                Ok(LPlace {
                    alts: b
                        .alts
                        .into_iter()
                        .map(|a| LAlt {
                            off: self.add_off(&a.off, &d),
                            emu: a.emu.map(|addr| addr + bytes),
                            ..a
                        })
                        .collect(),
                })
            }
            PlaceKind::Deref(e) => {
                let v = self.eval(e, g)?;
                let SVal::Ptr(ptr) = v else {
                    return self.unsupported("dereference of a non-pointer");
                };
                let n = self.prog.cells(&p.ty).max(1) as i128;
                let mut alts = Vec::new();
                let mut valid = ff();
                for (ga, t) in ptr.alts {
                    match t {
                        Target::Null => {}
                        Target::Obj { obj, off } => {
                            let o = &self.objs[obj as usize];
                            if !o.live {
                                continue;
                            }
                            let len = o.cells.len() as i128;
                            let ok = self.in_range(&off, 0, len - n);
                            valid = or2(&valid, &and2(&ga, &ok));
                            alts.push(LAlt {
                                g: ga,
                                obj,
                                off,
                                emu: None,
                            });
                        }
                    }
                }
                self.check(&g.clone(), valid);
                Ok(LPlace { alts })
            }
        }
    }

    /// The cells of `obj` that offset `off` may denote for an access of `n` cells.
    fn candidates(&self, obj: u32, off: &SInt, n: usize) -> Vec<(usize, Bool)> {
        let len = self.objs[obj as usize].cells.len();
        if len < n {
            return Vec::new();
        }
        match off.as_const() {
            Some(k) if k >= 0 && (k as usize) + n <= len => vec![(k as usize, tt())],
            Some(_) => Vec::new(),
            None => (0..=len - n)
                .map(|j| (j, off.eq_const(j as i128)))
                .collect(),
        }
    }

    /// The address in gcc's layout of a place's cell, if the object is a global
    /// and the offset constant.
    fn global_cell_addr(&self, a: &LAlt) -> Option<u64> {
        let g = self.globals.iter().position(|&o| o == a.obj)?;
        let off = a.off.as_const()?;
        self.layout.cell_addr(g, usize::try_from(off).ok()?)
    }

    /// Reads a scalar just outside a global array, as gcc's binary would.
    fn read_emulated(&mut self, addr: u64, ty: &Type, g: &Bool) -> R<SCell> {
        let size = self.prog.size_of(ty);
        match self.layout.resolve(addr, size) {
            Resolved::Cell { global, cell } => {
                let obj = self.globals[global];
                Ok(self.objs[obj as usize].cells[cell].clone())
            }
            Resolved::Zero => Ok(SCell {
                v: SVal::zero(self.sem, ty),
                init: tt(),
            }),
            Resolved::Unmapped => {
                self.check(g, ff());
                Ok(SCell {
                    v: SVal::zero(self.sem, ty),
                    init: tt(),
                })
            }
            Resolved::Bytes => self.unsupported("an out-of-bounds read straddling several globals"),
        }
    }

    /// Reads `n` consecutive cells.
    fn read(&mut self, lp: &LPlace, n: usize, g: &Bool) -> R<Vec<SCell>> {
        let mut acc: Option<Vec<SCell>> = None;
        for alt in &lp.alts {
            if let Some(addr) = alt.emu {
                if n != 1 {
                    return self.unsupported("an out-of-bounds read of a struct");
                }
                let ty = self.emu_ty.clone().unwrap_or(faultline_ir::INT);
                let gg = and2(g, &alt.g);
                let c = self.read_emulated(addr, &ty, &gg)?;
                acc = Some(match acc {
                    None => vec![c],
                    Some(prev) => vec![SCell {
                        v: SVal::ite(&alt.g, &c.v, &prev[0].v),
                        init: sym::ite_bool(&alt.g, &c.init, &prev[0].init),
                    }],
                });
                continue;
            }
            for (j, at) in self.candidates(alt.obj, &alt.off, n) {
                let cond = and2(&alt.g, &at);
                let mut cells: Vec<SCell> = self.objs[alt.obj as usize].cells[j..j + n].to_vec();
                // A computed offset may denote cells of other types (where it
                // cannot actually point): give every candidate the read's type.
                if let (1, Some(ty)) = (n, &self.emu_ty) {
                    cells[0].v = coerce(cells[0].v.clone(), ty, self.sem);
                }
                acc = Some(match acc {
                    None => cells,
                    Some(prev) => cells
                        .iter()
                        .zip(&prev)
                        .map(|(c, p)| SCell {
                            v: SVal::ite(&cond, &c.v, &p.v),
                            init: sym::ite_bool(&cond, &c.init, &p.init),
                        })
                        .collect(),
                });
            }
        }
        match acc {
            Some(cells) => Ok(cells),
            None => {
                // No valid cell: the access is undefined; the check already excludes it.
                self.check(g, ff());
                Ok((0..n)
                    .map(|_| SCell {
                        v: SVal::Int(SInt::constant(self.sem, IntKind::Int, 0)),
                        init: tt(),
                    })
                    .collect())
            }
        }
    }

    fn read_scalar(&mut self, lp: &LPlace, ty: &Type, g: &Bool) -> R<SVal> {
        self.emu_ty = Some(ty.clone());
        let cells = self.read(lp, 1, g);
        self.emu_ty = None;
        let cells = cells?;
        let c = cells.into_iter().next().expect("one cell");
        self.check(g, c.init.clone());
        Ok(coerce(c.v, ty, self.sem))
    }

    fn store(&mut self, lp: &LPlace, ty: &Type, cell: SCell, g: &Bool) {
        let _ = ty;
        self.store_agg(lp, &[cell], g);
    }

    fn store_agg(&mut self, lp: &LPlace, cells: &[SCell], g: &Bool) {
        let n = cells.len();
        for alt in &lp.alts {
            if alt.emu.is_some() {
                // Writing outside an array: undefined behaviour.
                self.check(&and2(g, &alt.g), ff());
                continue;
            }
            if self.objs[alt.obj as usize].readonly {
                self.check(&and2(g, &alt.g), ff());
                continue;
            }
            for (j, at) in self.candidates(alt.obj, &alt.off, n) {
                let cond = and2(&and2(g, &alt.g), &at);
                if is_false(&cond) {
                    continue;
                }
                let obj = &mut self.objs[alt.obj as usize];
                for (i, c) in cells.iter().enumerate() {
                    let old = &obj.cells[j + i];
                    obj.cells[j + i] = SCell {
                        v: SVal::ite(&cond, &c.v, &old.v),
                        init: sym::ite_bool(&cond, &c.init, &old.init),
                    };
                }
            }
        }
    }

    fn relax_agg(&mut self, cells: Vec<SCell>, ty: &Type, g: &Bool) -> R<Vec<SCell>> {
        let mut types = Vec::new();
        self.prog.cell_types(ty, &mut types);
        let mut out = Vec::with_capacity(cells.len());
        for (c, t) in cells.into_iter().zip(types) {
            let v = self.relax_scalar(c.v, &t, g)?;
            out.push(SCell { v, init: c.init });
        }
        Ok(out)
    }

    // ----- expressions ----------------------------------------------------------------

    fn eval(&mut self, e: &'a Expr, g: &mut Bool) -> R<SVal> {
        let sem = self.sem;
        match &e.kind {
            ExprKind::Int(v) => {
                let k = e.ty.int_kind().unwrap_or(IntKind::Int);
                Ok(SVal::Int(SInt::constant(sem, k, k.value(*v))))
            }
            ExprKind::Float(v) => match &e.ty {
                Type::Float(k) => Ok(SVal::Float(SFloat {
                    kind: *k,
                    t: sym::fp_const(*k, *v),
                })),
                _ => self.unsupported("floating constant of a non-floating type"),
            },
            ExprKind::Str(s) => {
                let obj = self.strings[s.index()];
                Ok(self.ptr_to(obj, 0).v)
            }
            ExprKind::Stream(s) => Ok(SVal::Stream(*s)),
            ExprKind::Load(p) => {
                let lp = self.place(p, g)?;
                self.read_scalar(&lp, &p.ty, g)
            }
            ExprKind::AddrOf(p) => {
                let lp = self.place(p, g)?;
                if lp.alts.iter().any(|a| a.emu.is_some()) {
                    return self.unsupported("the address of an element outside its array");
                }
                Ok(SVal::Ptr(SPtr {
                    alts: lp
                        .alts
                        .into_iter()
                        .map(|a| {
                            (
                                a.g,
                                Target::Obj {
                                    obj: a.obj,
                                    off: a.off,
                                },
                            )
                        })
                        .collect(),
                }))
            }
            ExprKind::Unary(op, a) => {
                let v = self.eval(a, g)?;
                let c = self.lift(sym::unary(*op, &e.ty, &a.ty, &v))?;
                Ok(self.checked(c, g))
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.eval(a, g)?;
                let y = self.eval(b, g)?;
                let c = self.lift(sym::binary(*op, &e.ty, &x, &y))?;
                Ok(self.checked(c, g))
            }
            ExprKind::Cmp(op, a, b) => {
                let x = self.eval(a, g)?;
                let y = self.eval(b, g)?;
                let c = self.lift(sym::compare(*op, &x, &y))?;
                for s in &c.safe {
                    self.check(&g.clone(), s.clone());
                }
                Ok(c.v.0)
            }
            ExprKind::PtrAdd(p, n) => {
                let pv = self.eval(p, g)?;
                let nv = self.eval(n, g)?;
                let ni = self.lift(nv.as_int().cloned())?.convert(IntKind::Long);
                let SVal::Ptr(ptr) = pv else {
                    return self.unsupported("pointer arithmetic on a non-pointer");
                };
                let step = p.ty.pointee().map_or(1, |t| self.prog.cells(t).max(1));
                let scaled = self.mul_off(&ni, step);
                let mut alts = Vec::new();
                let mut ok = ff();
                for (ga, t) in ptr.alts {
                    match t {
                        Target::Null => {
                            ok = or2(&ok, &and2(&ga, &scaled.eq_const(0)));
                            alts.push((ga, Target::Null));
                        }
                        Target::Obj { obj, off } => {
                            let len = self.objs[obj as usize].cells.len() as i128;
                            let noff = self.add_off(&off, &scaled);
                            ok = or2(&ok, &and2(&ga, &self.in_range(&noff, 0, len)));
                            alts.push((ga, Target::Obj { obj, off: noff }));
                        }
                    }
                }
                self.check(&g.clone(), ok);
                Ok(SVal::Ptr(SPtr { alts }))
            }
            ExprKind::PtrDiff(a, b) => {
                let x = self.eval(a, g)?;
                let y = self.eval(b, g)?;
                let (SVal::Ptr(p), SVal::Ptr(q)) = (x, y) else {
                    return self.unsupported("pointer difference of non-pointers");
                };
                let step = a.ty.pointee().map_or(1, |t| self.prog.cells(t).max(1)) as i128;
                let mut result = self.long(0);
                let mut ok = ff();
                for (g1, t1) in &p.alts {
                    for (g2, t2) in &q.alts {
                        if let (
                            Target::Obj { obj: o1, off: f1 },
                            Target::Obj { obj: o2, off: f2 },
                        ) = (t1, t2)
                        {
                            if o1 == o2 {
                                let gg = and2(g1, g2);
                                let d = self.lift(sym::binary(
                                    faultline_ir::BinOp::Sub,
                                    &faultline_ir::LONG,
                                    &SVal::Int(f1.clone()),
                                    &SVal::Int(f2.clone()),
                                ))?;
                                let SVal::Int(d) = d.v else { continue };
                                let q = if step == 1 {
                                    d
                                } else {
                                    match self
                                        .lift(sym::binary(
                                            faultline_ir::BinOp::Div,
                                            &faultline_ir::LONG,
                                            &SVal::Int(d),
                                            &SVal::Int(self.long(step)),
                                        ))?
                                        .v
                                    {
                                        SVal::Int(i) => i,
                                        _ => continue,
                                    }
                                };
                                result = SInt::ite(&gg, &q, &result);
                                ok = or2(&ok, &gg);
                            }
                        }
                    }
                }
                self.check(&g.clone(), ok);
                Ok(SVal::Int(result))
            }
            ExprKind::And(a, b) | ExprKind::Or(a, b) => {
                let is_and = matches!(e.kind, ExprKind::And(..));
                let x = self.eval(a, g)?;
                let xt = x.truthy();
                let take_b = if is_and { xt.clone() } else { not(&xt) };
                let mut gb = and2(g, &take_b);
                let yt = if is_false(&gb) {
                    ff()
                } else {
                    let y = self.eval(b, &mut gb)?;
                    y.truthy()
                };
                // Paths that skip `b`, plus those that evaluate it and go on.
                *g = or2(&and2(g, &not(&take_b)), &gb);
                let r = if is_and {
                    and2(&xt, &yt)
                } else {
                    or2(&xt, &yt)
                };
                Ok(SVal::Int(SInt::ite(
                    &r,
                    &SInt::constant(sem, IntKind::Int, 1),
                    &SInt::constant(sem, IntKind::Int, 0),
                )))
            }
            ExprKind::Cond(c, a, b) => {
                let cv = self.eval(c, g)?.truthy();
                let mut ga = and2(g, &cv);
                let mut gb = and2(g, &not(&cv));
                let x = if is_false(&ga) {
                    None
                } else {
                    Some(self.eval(a, &mut ga)?)
                };
                let y = if is_false(&gb) {
                    None
                } else {
                    Some(self.eval(b, &mut gb)?)
                };
                *g = or2(&ga, &gb);
                Ok(match (x, y) {
                    (Some(x), Some(y)) => SVal::ite(&cv, &x, &y),
                    (Some(x), None) => x,
                    (None, Some(y)) => y,
                    (None, None) => SVal::zero(sem, &e.ty),
                })
            }
            ExprKind::Cast(a) => {
                if e.ty == Type::Void {
                    if a.ty.is_scalar() || a.ty == Type::Void {
                        self.eval(a, g)?;
                    } else {
                        self.eval_agg(a, g)?;
                    }
                    return Ok(SVal::Int(SInt::constant(sem, IntKind::Int, 0)));
                }
                let v = self.eval(a, g)?;
                let c = self.lift(sym::convert(&v, &a.ty, &e.ty))?;
                Ok(self.checked(c, g))
            }
            ExprKind::Assign { place, value, post } => {
                let lp = self.place(place, g)?;
                let old = if *post {
                    Some(self.read_scalar(&lp, &place.ty, g)?)
                } else {
                    None
                };
                self.old.push((lp.clone(), place.ty.clone()));
                let v = self.eval(value, g);
                self.old.pop();
                let v = v?;
                let v = if is_input(value) {
                    v
                } else {
                    self.relax_scalar(v, &place.ty, g)?
                };
                self.store(
                    &lp,
                    &place.ty,
                    SCell {
                        v: v.clone(),
                        init: tt(),
                    },
                    g,
                );
                Ok(old.unwrap_or(v))
            }
            ExprKind::Old => {
                let Some((lp, ty)) = self.old.last().cloned() else {
                    return self.unsupported("Old outside an assignment");
                };
                self.read_scalar(&lp, &ty, g)
            }
            ExprKind::Call { func, args, site } => {
                let a = self.eval_args(args, g)?;
                let (ret, normal) = self.call(*func, a, g, Some(*site))?;
                *g = normal;
                match ret.and_then(|r| r.into_iter().next()) {
                    Some(c) => {
                        self.check(&g.clone(), c.init.clone());
                        Ok(coerce(c.v, &e.ty, sem))
                    }
                    None => Ok(SVal::Int(SInt::constant(sem, IntKind::Int, 0))),
                }
            }
            ExprKind::Builtin { func, args } => self.builtin(*func, args, &e.ty, g),
            ExprKind::Comma(a, b) => {
                if a.ty.is_scalar() || a.ty == Type::Void {
                    self.eval(a, g)?;
                } else {
                    self.eval_agg(a, g)?;
                }
                self.eval(b, g)
            }
        }
    }

    fn checked(&mut self, c: Checked<SVal>, g: &Bool) -> SVal {
        for s in c.safe {
            self.check(g, s);
        }
        c.v
    }

    fn eval_args(&mut self, args: &'a [Expr], g: &mut Bool) -> R<Vec<Vec<SCell>>> {
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            if a.ty.is_scalar() {
                let v = self.eval(a, g)?;
                out.push(vec![SCell { v, init: tt() }]);
            } else {
                out.push(self.eval_agg(a, g)?);
            }
        }
        Ok(out)
    }

    fn eval_agg(&mut self, e: &'a Expr, g: &mut Bool) -> R<Vec<SCell>> {
        match &e.kind {
            ExprKind::Load(p) => {
                let lp = self.place(p, g)?;
                let n = self.prog.cells(&p.ty) as usize;
                self.read(&lp, n, g)
            }
            ExprKind::Assign { place, value, .. } => {
                let lp = self.place(place, g)?;
                let cells = self.eval_agg(value, g)?;
                let cells = self.relax_agg(cells, &place.ty, g)?;
                self.store_agg(&lp, &cells, g);
                Ok(cells)
            }
            ExprKind::Call { func, args, site } => {
                let a = self.eval_args(args, g)?;
                let (ret, normal) = self.call(*func, a, g, Some(*site))?;
                *g = normal;
                Ok(ret.unwrap_or_default())
            }
            ExprKind::Cond(c, a, b) => {
                let cv = self.eval(c, g)?.truthy();
                let mut ga = and2(g, &cv);
                let mut gb = and2(g, &not(&cv));
                let x = self.eval_agg(a, &mut ga)?;
                let y = self.eval_agg(b, &mut gb)?;
                *g = or2(&ga, &gb);
                Ok(x.iter()
                    .zip(&y)
                    .map(|(p, q)| SCell {
                        v: SVal::ite(&cv, &p.v, &q.v),
                        init: sym::ite_bool(&cv, &p.init, &q.init),
                    })
                    .collect())
            }
            ExprKind::Comma(a, b) => {
                if a.ty.is_scalar() || a.ty == Type::Void {
                    self.eval(a, g)?;
                } else {
                    self.eval_agg(a, g)?;
                }
                self.eval_agg(b, g)
            }
            _ => self.unsupported("struct-valued expression"),
        }
    }

    // ----- library ----------------------------------------------------------------------

    fn int_of(&self, v: &SVal) -> R<SInt> {
        self.lift(v.as_int().cloned())
    }

    /// The strings a pointer may designate: for each target (with its
    /// guard), the cells from the pointer to the end of the object. Targets
    /// must have constant offsets; a null or out-of-range target is excluded
    /// by a safety check.
    fn string_alts(&mut self, v: &SVal, g: &Bool) -> R<Vec<StringAlt>> {
        let SVal::Ptr(p) = v else {
            return self.unsupported("string argument is not a pointer");
        };
        let mut out = Vec::new();
        let mut valid = ff();
        for (ga, t) in &p.alts {
            if is_false(ga) {
                continue;
            }
            if let Target::Obj { obj, off } = t {
                if !self.objs[*obj as usize].live {
                    continue;
                }
                match off.as_const() {
                    Some(k) if k >= 0 && (k as usize) < self.objs[*obj as usize].cells.len() => {
                        valid = or2(&valid, ga);
                        let cells = self.objs[*obj as usize].cells[k as usize..].to_vec();
                        out.push((ga.clone(), *obj, k as usize, cells));
                    }
                    Some(_) => {}
                    None => return self.unsupported("string argument at a computed offset"),
                }
            }
        }
        self.check(g, valid);
        Ok(out)
    }

    /// Like [`Self::string_alts`], for arguments that must designate one object.
    fn string_cells(&mut self, v: &SVal, g: &Bool) -> R<(u32, usize, Vec<SCell>)> {
        let mut alts = self.string_alts(v, g)?;
        match alts.len() {
            0 => Ok((0, 0, Vec::new())),
            1 => {
                let (_, obj, off, cells) = alts.remove(0);
                Ok((obj, off, cells))
            }
            _ => self.unsupported("a string argument that may point to several objects here"),
        }
    }

    /// Computes a value per string alternative and merges them by guard.
    fn per_string(
        &mut self,
        v: &SVal,
        g: &Bool,
        mut f: impl FnMut(&mut Self, &[SCell]) -> R<SVal>,
    ) -> R<SVal> {
        let alts = self.string_alts(v, g)?;
        let mut acc: Option<SVal> = None;
        for (ga, _, _, cells) in alts.iter().rev() {
            let x = f(self, cells)?;
            acc = Some(match acc {
                None => x,
                Some(prev) => SVal::ite(ga, &x, &prev),
            });
        }
        Ok(acc.unwrap_or_else(|| SVal::Int(SInt::constant(self.sem, IntKind::Int, 0))))
    }

    /// A string's bytes when all of them (up to the NUL) are constants.
    fn const_string(cells: &[SCell]) -> Option<Vec<u8>> {
        let mut out = Vec::new();
        for c in cells {
            let SVal::Int(i) = &c.v else { return None };
            if !sym::is_true(&c.init) {
                return None;
            }
            let b = i.as_const()?;
            if b == 0 {
                return Some(out);
            }
            out.push(b as u8);
        }
        None
    }

    /// The symbolic length of a string (its first NUL), with the condition that one exists.
    fn strlen_sym(&self, cells: &[SCell]) -> (SInt, Bool) {
        let mut len = self.long(0);
        let mut found = ff();
        for (j, c) in cells.iter().enumerate().rev() {
            let is_nul = match &c.v {
                SVal::Int(i) => i.eq_const(0),
                _ => ff(),
            };
            len = SInt::ite(&is_nul, &self.long(j as i128), &len);
            found = or2(&found, &is_nul);
        }
        (len, found)
    }

    fn builtin(&mut self, f: Builtin, args: &'a [Expr], ty: &Type, g: &mut Bool) -> R<SVal> {
        let sem = self.sem;
        let int = |v: i128| SVal::Int(SInt::constant(sem, IntKind::Int, v));
        match f {
            Builtin::Printf | Builtin::Fprintf | Builtin::Puts | Builtin::Putchar => {
                let (stream, rest) = if f == Builtin::Fprintf {
                    let s = self.eval(&args[0], g)?;
                    match s {
                        SVal::Stream(s) => (s, &args[1..]),
                        _ => return self.unsupported("fprintf to a computed stream"),
                    }
                } else {
                    (Stream::Stdout, args)
                };
                let pieces = match f {
                    Builtin::Printf | Builtin::Fprintf => self.printf_pieces(rest, g)?,
                    Builtin::Puts => {
                        let v = self.eval(&rest[0], g)?;
                        let strs = self.string_vals(&v, g, None)?;
                        vec![OutPiece::Str(strs), OutPiece::Lit(b"\n".to_vec())]
                    }
                    _ => {
                        let v = self.eval(&rest[0], g)?;
                        let c = self.int_of(&v)?;
                        vec![OutPiece::Char(c)]
                    }
                };
                if stream == Stream::Stdout {
                    let ab = self.cur_ab();
                    let stmt = self.cur().expect("statement");
                    let ctx = self.contexts.chain(self.ctx());
                    self.outputs.push(OutEvent {
                        guard: g.clone(),
                        stmt,
                        ctx,
                        ab,
                        pieces,
                        black_box: false,
                    });
                }
                // The value printf returns is not modelled: any count.
                let name = self.name("printed");
                let (v, r) = SInt::fresh(sem, IntKind::Int, &name);
                self.hard(r);
                Ok(SVal::Int(v))
            }
            Builtin::Scanf | Builtin::Getchar => {
                let (fmt, targets) = if f == Builtin::Scanf {
                    let v = self.eval(&args[0], g)?;
                    let (_, _, cells) = self.string_cells(&v, g)?;
                    let Some(fmt) = Self::const_string(&cells) else {
                        return self.unsupported("scanf with a computed format");
                    };
                    let mut t = Vec::new();
                    for a in &args[1..] {
                        let p = self.eval(a, g)?;
                        t.push((p, a.ty.pointee().cloned().unwrap_or(Type::Void)));
                    }
                    (Some(fmt), t)
                } else {
                    (None, Vec::new())
                };
                self.input_read(fmt, targets, g)
            }
            Builtin::Atoi | Builtin::Atol | Builtin::Atof => {
                let v = self.eval(&args[0], g)?;
                self.per_string(&v, g, |this, cells| {
                    let Some(s) = Self::const_string(cells) else {
                        return this.unsupported(format!(
                            "{} of a string computed by the program",
                            f.name()
                        ));
                    };
                    Ok(match f {
                        Builtin::Atoi => int(libc::atoi(&s) as i128),
                        Builtin::Atol => {
                            SVal::Int(SInt::constant(sem, IntKind::Long, libc::atol(&s) as i128))
                        }
                        _ => SVal::Float(SFloat {
                            kind: FloatKind::Double,
                            t: sym::fp_const(FloatKind::Double, libc::atof(&s)),
                        }),
                    })
                })
            }
            Builtin::Exit => {
                let v = self.eval(&args[0], g)?;
                let v = self.relax_scalar(v, &args[0].ty, g)?;
                let s = self.int_of(&v)?.convert(IntKind::Int);
                self.status = SInt::ite(g, &s, &self.status.clone());
                *g = ff();
                Ok(int(0))
            }
            Builtin::Abs | Builtin::Labs => {
                let v = self.eval(&args[0], g)?;
                let x = self.int_of(&v)?;
                let neg = self.lift(sym::unary(faultline_ir::UnOp::Neg, ty, ty, &v))?;
                let nv = self.checked_if(neg, g, &x)?;
                let is_neg = self
                    .lift(sym::compare(
                        faultline_ir::CmpOp::Lt,
                        &v,
                        &SVal::Int(SInt::constant(sem, x.kind, 0)),
                    ))?
                    .v
                    .1;
                Ok(SVal::ite(&is_neg, &nv, &v))
            }
            Builtin::Fabs | Builtin::Sqrt | Builtin::Floor | Builtin::Ceil => {
                let v = self.eval(&args[0], g)?;
                let SVal::Float(x) = v else {
                    return self.unsupported("math function of a non-floating value");
                };
                let t = match f {
                    Builtin::Fabs => sym::fp_abs(&x.t),
                    Builtin::Sqrt => x.t.sqrt(),
                    Builtin::Floor => x.t.round_to_integral_with_rounding_mode(
                        &z3::ast::RoundingMode::round_towards_negative(),
                    ),
                    _ => x.t.round_to_integral_with_rounding_mode(
                        &z3::ast::RoundingMode::round_towards_positive(),
                    ),
                };
                Ok(SVal::Float(SFloat { kind: x.kind, t }))
            }
            Builtin::Pow => {
                let x = self.eval(&args[0], g)?;
                let y = self.eval(&args[1], g)?;
                match (&x, &y) {
                    (SVal::Float(a), SVal::Float(b)) => {
                        let (ca, cb) = (a.t.simplify(), b.t.simplify());
                        let (ca, cb) = (ca.as_f64(), cb.as_f64());
                        if ca.is_finite()
                            && cb.is_finite()
                            && a.t.simplify().is_const()
                            && b.t.simplify().is_const()
                        {
                            Ok(SVal::Float(SFloat {
                                kind: FloatKind::Double,
                                t: sym::fp_const(FloatKind::Double, ca.powf(cb)),
                            }))
                        } else {
                            self.unsupported("pow of values computed by the program")
                        }
                    }
                    _ => self.unsupported("pow of non-floating values"),
                }
            }
            Builtin::Strlen => {
                let v = self.eval(&args[0], g)?;
                let gg = g.clone();
                self.per_string(&v, g, |this, cells| {
                    let (len, found) = this.strlen_sym(cells);
                    this.check(&gg, found);
                    Ok(SVal::Int(len.convert(IntKind::ULong)))
                })
            }
            Builtin::Strcmp | Builtin::Strncmp => {
                let a = self.eval(&args[0], g)?;
                let b = self.eval(&args[1], g)?;
                let limit = if f == Builtin::Strncmp {
                    let n = self.eval(&args[2], g)?;
                    match self.int_of(&n)?.as_const() {
                        Some(n) => Some(n as usize),
                        None => return self.unsupported("strncmp with a computed length"),
                    }
                } else {
                    None
                };
                let b_alts = self.string_alts(&b, g)?;
                self.per_string(&a, g, |this, ca| {
                    let mut acc: Option<SInt> = None;
                    for (gb, _, _, cb) in b_alts.iter().rev() {
                        let x = this.strcmp_sym(ca, cb, limit);
                        acc = Some(match acc {
                            None => x,
                            Some(prev) => SInt::ite(gb, &x, &prev),
                        });
                    }
                    Ok(SVal::Int(acc.unwrap_or_else(|| {
                        SInt::constant(this.sem, IntKind::Int, 0)
                    })))
                })
            }
            Builtin::Strcpy | Builtin::Strcat | Builtin::Strncpy => {
                let d = self.eval(&args[0], g)?;
                let s = self.eval(&args[1], g)?;
                let (_, _, src) = self.string_cells(&s, g)?;
                let Some(bytes) = Self::const_string(&src) else {
                    return self
                        .unsupported(format!("{} of a string computed by the program", f.name()));
                };
                let (obj, off, dst) = self.string_cells(&d, g)?;
                let mut data = bytes.clone();
                let start = match f {
                    Builtin::Strcat => match Self::const_string(&dst) {
                        Some(cur) => cur.len(),
                        None => {
                            return self.unsupported("strcat onto a string computed by the program")
                        }
                    },
                    _ => 0,
                };
                if f == Builtin::Strncpy {
                    let n = self.eval(&args[2], g)?;
                    let Some(n) = self.int_of(&n)?.as_const() else {
                        return self.unsupported("strncpy with a computed length");
                    };
                    data.truncate(n as usize);
                    data.resize(n as usize, 0);
                } else {
                    data.push(0);
                }
                if start + data.len() > dst.len() {
                    self.check(&g.clone(), ff());
                    return Ok(d);
                }
                let cells: Vec<SCell> = data
                    .iter()
                    .map(|&b| SCell {
                        v: SVal::Int(SInt::constant(sem, IntKind::Char, b as i8 as i128)),
                        init: tt(),
                    })
                    .collect();
                let lp = LPlace {
                    alts: vec![LAlt {
                        g: tt(),
                        obj,
                        off: self.long((off + start) as i128),
                        emu: None,
                    }],
                };
                self.store_agg(&lp, &cells, g);
                Ok(d)
            }
            Builtin::Assert => {
                let v = self.eval(&args[0], g)?;
                // Assertions are the specification: always hard.
                self.hard(implies(g, &v.truthy()));
                Ok(int(0))
            }
            Builtin::IsDigit
            | Builtin::IsAlpha
            | Builtin::IsAlnum
            | Builtin::IsSpace
            | Builtin::IsUpper
            | Builtin::IsLower
            | Builtin::ToUpper
            | Builtin::ToLower => {
                let v = self.eval(&args[0], g)?;
                let c = self.int_of(&v)?.convert(IntKind::Int);
                Ok(SVal::Int(self.ctype_sym(f, &c)))
            }
            Builtin::Fflush => {
                if let Some(a) = args.first() {
                    self.eval(a, g)?;
                }
                Ok(int(0))
            }
        }
    }

    fn checked_if(&mut self, c: Checked<SVal>, g: &Bool, x: &SInt) -> R<SVal> {
        let is_neg = match &c.v {
            SVal::Int(_) => {
                let zero = SInt::constant(self.sem, x.kind, 0);
                self.lift(sym::compare(
                    faultline_ir::CmpOp::Lt,
                    &SVal::Int(x.clone()),
                    &SVal::Int(zero),
                ))?
                .v
                .1
            }
            _ => tt(),
        };
        let gg = and2(g, &is_neg);
        Ok(self.checked(c, &gg))
    }

    fn in_char_range(&self, c: &SInt, lo: u8, hi: u8) -> Bool {
        let ge = sym::compare(
            faultline_ir::CmpOp::Ge,
            &SVal::Int(c.clone()),
            &SVal::Int(SInt::constant(self.sem, IntKind::Int, lo as i128)),
        );
        let le = sym::compare(
            faultline_ir::CmpOp::Le,
            &SVal::Int(c.clone()),
            &SVal::Int(SInt::constant(self.sem, IntKind::Int, hi as i128)),
        );
        match (ge, le) {
            (Ok(a), Ok(b)) => and2(&a.v.1, &b.v.1),
            _ => ff(),
        }
    }

    fn ctype_sym(&self, f: Builtin, c: &SInt) -> SInt {
        let sem = self.sem;
        let k = |v: i128| SInt::constant(sem, IntKind::Int, v);
        let upper = self.in_char_range(c, b'A', b'Z');
        let lower = self.in_char_range(c, b'a', b'z');
        let digit = self.in_char_range(c, b'0', b'9');
        let space = [b' ', b'\t', b'\n', b'\r', 0x0b, 0x0c]
            .iter()
            .fold(ff(), |acc, &s| or2(&acc, &c.eq_const(s as i128)));
        let bit = |cond: Bool, v: i128| SInt::ite(&cond, &k(v), &k(0));
        let add = |x: &SInt, d: i128| match sym::binary(
            faultline_ir::BinOp::Add,
            &faultline_ir::INT,
            &SVal::Int(x.clone()),
            &SVal::Int(k(d)),
        ) {
            Ok(Checked {
                v: SVal::Int(i), ..
            }) => i,
            _ => x.clone(),
        };
        match f {
            Builtin::IsUpper => bit(upper, 256),
            Builtin::IsLower => bit(lower, 512),
            Builtin::IsAlpha => bit(or2(&upper, &lower), 1024),
            Builtin::IsDigit => bit(digit, 2048),
            Builtin::IsSpace => bit(space, 8192),
            Builtin::IsAlnum => bit(or2(&or2(&upper, &lower), &digit), 8),
            Builtin::ToUpper => SInt::ite(&lower, &add(c, -32), c),
            _ => SInt::ite(&upper, &add(c, 32), c),
        }
    }

    fn strcmp_sym(&self, a: &[SCell], b: &[SCell], limit: Option<usize>) -> SInt {
        // Compare byte by byte: the result is the difference at the first
        // position where they differ or where `a` ends.
        let sem = self.sem;
        let n = a.len().min(b.len()).min(limit.unwrap_or(usize::MAX));
        let mut result = SInt::constant(sem, IntKind::Int, 0);
        for j in (0..n).rev() {
            let (SVal::Int(x), SVal::Int(y)) = (&a[j].v, &b[j].v) else {
                continue;
            };
            let ux = x.convert(IntKind::UChar).convert(IntKind::Int);
            let uy = y.convert(IntKind::UChar).convert(IntKind::Int);
            let diff = match sym::binary(
                faultline_ir::BinOp::Sub,
                &faultline_ir::INT,
                &SVal::Int(ux.clone()),
                &SVal::Int(uy),
            ) {
                Ok(Checked {
                    v: SVal::Int(d), ..
                }) => d,
                _ => continue,
            };
            let differ = not(&x.eq(y));
            let end = ux.eq_const(0);
            // At j: if differ → diff; else if end → 0; else → result of j+1.
            result = SInt::ite(
                &differ,
                &diff,
                &SInt::ite(&end, &SInt::constant(sem, IntKind::Int, 0), &result),
            );
        }
        result
    }

    /// The pieces of a printf-family call's output.
    fn printf_pieces(&mut self, args: &'a [Expr], g: &mut Bool) -> R<Vec<OutPiece>> {
        let fv = self.eval(&args[0], g)?;
        let (_, _, cells) = self.string_cells(&fv, g)?;
        let Some(fmt) = Self::const_string(&cells) else {
            return self.unsupported("printf with a computed format");
        };
        let pieces = match libc::parse_format(&fmt) {
            Ok(p) => p,
            Err(e) => return self.unsupported(format!("printf format: {e}")),
        };
        let mut rest = args[1..].iter();
        let mut out = Vec::new();
        for p in pieces {
            match p {
                libc::Piece::Literal(b) => out.push(OutPiece::Lit(b)),
                libc::Piece::Conv(spec) => {
                    let mut star = |this: &mut Self, g: &mut Bool| -> R<Option<i64>> {
                        let Some(a) = rest.next() else {
                            return this.unsupported("printf: too few arguments");
                        };
                        let v = this.eval(a, g)?;
                        match this.int_of(&v)?.as_const() {
                            Some(n) => Ok(Some(n as i64)),
                            None => {
                                this.unsupported("printf with a computed `*` width or precision")
                            }
                        }
                    };
                    let width = match spec.width {
                        Some(libc::Width::Star) => star(self, g)?,
                        Some(libc::Width::Fixed(n)) => Some(n as i64),
                        None => None,
                    };
                    let precision = match spec.precision {
                        Some(libc::Precision::Star) => star(self, g)?,
                        Some(libc::Precision::Fixed(n)) => Some(n as i64),
                        None => None,
                    };
                    let Some(a) = rest.next() else {
                        return self.unsupported("printf: too few arguments");
                    };
                    let v = self.eval(a, g)?;
                    let arg = match (spec.conv, &v) {
                        (b's', SVal::Ptr(_)) => OutArg::Str(self.string_vals(&v, g, None)?),
                        (_, SVal::Int(i)) => OutArg::Int(i.clone()),
                        (_, SVal::Float(x)) => OutArg::Float(x.clone()),
                        _ => {
                            return self.unsupported(format!(
                                "printf %{} of this argument",
                                spec.conv as char
                            ))
                        }
                    };
                    out.push(OutPiece::Conv {
                        spec,
                        width,
                        precision,
                        arg,
                    });
                }
            }
        }
        Ok(out)
    }

    /// A string's output piece: literal if constant, else its symbolic characters.
    fn string_val(&mut self, cells: &[SCell], g: &Bool) -> R<StrVal> {
        if let Some(b) = Self::const_string(cells) {
            return Ok(StrVal::Const(b));
        }
        let (_, found) = self.strlen_sym(cells);
        self.check(g, found);
        let chars = cells
            .iter()
            .map(|c| match &c.v {
                SVal::Int(i) => Ok(i.clone()),
                _ => Err(EncodeError {
                    stmt: self.cur(),
                    message: "string of non-characters".into(),
                }),
            })
            .collect::<R<Vec<SInt>>>()?;
        Ok(StrVal::Sym(chars))
    }

    /// The strings a pointer may designate, for printing (at most `precision` characters).
    fn string_vals(
        &mut self,
        v: &SVal,
        g: &Bool,
        precision: Option<i64>,
    ) -> R<Vec<(Bool, StrVal)>> {
        let alts = self.string_alts(v, g)?;
        let mut out = Vec::new();
        for (ga, _, _, cells) in alts {
            let cells = match precision {
                Some(n) if n >= 0 && (n as usize) < cells.len() => {
                    let mut c = cells[..n as usize].to_vec();
                    c.push(SCell {
                        v: SVal::Int(SInt::constant(self.sem, IntKind::Char, 0)),
                        init: tt(),
                    });
                    c
                }
                _ => cells,
            };
            let gg = and2(g, &ga);
            out.push((ga, self.string_val(&cells, &gg)?));
        }
        Ok(out)
    }

    /// A read from stdin (scanf with a constant format, or getchar).
    /// A read from stdin (scanf with a constant format, or getchar), under
    /// guard `g`. The input position is a term over the offsets it can have
    /// (usually one); the read is simulated from each with faultline's
    /// glibc-exact scanf, and the return value, the stored values and the new
    /// position are if-then-else terms over those offsets.
    fn input_read(
        &mut self,
        fmt: Option<Vec<u8>>,
        targets: Vec<(SVal, Type)>,
        g: &mut Bool,
    ) -> R<SVal> {
        let sem = self.sem;
        let stdin = &self.test.stdin;
        let format = match &fmt {
            Some(f) => match libc::parse_scanf_format(f) {
                Ok(f) => Some(f),
                Err(e) => return self.unsupported(format!("scanf format: {e}")),
            },
            None => None,
        };
        let starts: Vec<usize> = self.in_starts.iter().copied().collect();
        // Simulate the read from every possible offset.
        let mut cases: Vec<ReadCase> = Vec::new();
        for &o in &starts {
            let at = self.in_pos.eq_const(o as i128);
            let mut input = libc::Input::new(stdin.to_vec());
            input.pos = o;
            let (ret, items) = match &format {
                Some(f) => {
                    let out = libc::scanf::run_format(f, &mut input);
                    (out.ret as i128, out.items)
                }
                None => (input.getc().map_or(-1, |b| b as i128), Vec::new()),
            };
            cases.push((at, input.pos.min(stdin.len()), ret, items));
        }
        let pick =
            |this: &Self, kind: IntKind, f: &dyn Fn(&ReadCase) -> Option<i128>, default: &SInt| {
                let mut acc = default.clone();
                for c in cases.iter().rev() {
                    if let Some(v) = f(c) {
                        acc = SInt::ite(&c.0, &SInt::constant(this.sem, kind, v), &acc);
                    }
                }
                acc
            };
        let long_zero = SInt::constant(sem, IntKind::Long, 0);
        let new_pos = pick(self, IntKind::Long, &|c| Some(c.1 as i128), &long_zero);
        let ret = pick(
            self,
            IntKind::Int,
            &|c| Some(c.2),
            &SInt::constant(sem, IntKind::Int, -1),
        );
        for (i, (ptr, pointee)) in targets.iter().enumerate() {
            let assigned = cases.iter().fold(ff(), |acc, c| {
                or2(&acc, &and2(&c.0, &Bool::from_bool(c.3.len() > i)))
            });
            let gi = and2(g, &assigned);
            if is_false(&gi) {
                continue;
            }
            // What conversion fills target i (the same in every case).
            let kind = cases.iter().find_map(|c| c.3.get(i)).map(|it| match it {
                libc::Scanned::Int { .. } => 0,
                libc::Scanned::Float { .. } => 1,
                _ => 2,
            });
            match (kind, pointee) {
                (None, _) => {}
                (Some(0), Type::Int(k)) => {
                    let v = pick(
                        self,
                        *k,
                        &|c| match c.3.get(i) {
                            Some(libc::Scanned::Int { value, .. }) => Some(*value),
                            _ => None,
                        },
                        &SInt::constant(sem, *k, 0),
                    );
                    let lp = self.ptr_place(ptr, pointee, &gi)?;
                    self.store(
                        &lp,
                        pointee,
                        SCell {
                            v: SVal::Int(v),
                            init: tt(),
                        },
                        &gi,
                    );
                }
                (Some(1), Type::Float(k)) => {
                    let mut acc = SFloat {
                        kind: *k,
                        t: sym::fp_const(*k, 0.0),
                    };
                    for c in cases.iter().rev() {
                        if let Some(libc::Scanned::Float { value, .. }) = c.3.get(i) {
                            acc = SFloat::ite(
                                &c.0,
                                &SFloat {
                                    kind: *k,
                                    t: sym::fp_const(*k, *value),
                                },
                                &acc,
                            );
                        }
                    }
                    let lp = self.ptr_place(ptr, pointee, &gi)?;
                    self.store(
                        &lp,
                        pointee,
                        SCell {
                            v: SVal::Float(acc),
                            init: tt(),
                        },
                        &gi,
                    );
                }
                (Some(0 | 1), _) => return self.unsupported("scanf into a target of another type"),
                _ => {
                    // %s / %c into a character array: the bytes read (and a NUL
                    // for %s), per case.
                    let lp = self.ptr_place(ptr, &Type::Int(IntKind::Char), &gi)?;
                    let (obj, start) = match lp.alts.as_slice() {
                        [a] => match a.off.as_const() {
                            Some(k) => (a.obj, k as usize),
                            None => {
                                return self.unsupported(
                                    "scanf into a character array at a computed offset",
                                )
                            }
                        },
                        _ => {
                            return self.unsupported(
                                "scanf into a character array through an ambiguous pointer",
                            )
                        }
                    };
                    let avail = self.objs[obj as usize].cells.len().saturating_sub(start);
                    for c in &cases {
                        let bytes: Vec<u8> = match c.3.get(i) {
                            Some(libc::Scanned::Str(b)) => {
                                b.iter().copied().chain(std::iter::once(0)).collect()
                            }
                            Some(libc::Scanned::Chars(b)) => b.clone(),
                            _ => continue,
                        };
                        let gc = and2(&gi, &c.0);
                        if bytes.len() > avail {
                            // Overflows the array: undefined behaviour.
                            self.check(&gc, ff());
                            continue;
                        }
                        let cells: Vec<SCell> = bytes
                            .iter()
                            .map(|&b| SCell {
                                v: SVal::Int(SInt::constant(sem, IntKind::Char, b as i8 as i128)),
                                init: tt(),
                            })
                            .collect();
                        let at = LPlace {
                            alts: vec![LAlt {
                                g: tt(),
                                obj,
                                off: self.long(start as i128),
                                emu: None,
                            }],
                        };
                        self.store_agg(&at, &cells, &gc);
                    }
                }
            }
        }
        let next = match SInt::ite(g, &new_pos, &self.in_pos).as_const() {
            Some(k) => SInt::constant(sem, IntKind::Long, k),
            None => SInt::ite(g, &new_pos, &self.in_pos),
        };
        self.in_pos = next;
        if !is_false(g) {
            self.in_starts.extend(cases.iter().map(|c| c.1));
        }
        Ok(SVal::Int(ret))
    }

    /// A black box may consume any part of the remaining input.
    fn input_havoc(&mut self, g: &Bool) {
        let name = self.name("inpos");
        let (fresh, _) = SInt::fresh(self.sem, IntKind::Long, &name);
        let len = self.test.stdin.len() as i128;
        let lo = self.in_starts.iter().copied().min().unwrap_or(0);
        let ge = sym::compare(
            CmpOp::Ge,
            &SVal::Int(fresh.clone()),
            &SVal::Int(self.in_pos.clone()),
        );
        let le = sym::compare(
            CmpOp::Le,
            &SVal::Int(fresh.clone()),
            &SVal::Int(self.long(len)),
        );
        if let (Ok(a), Ok(b)) = (ge, le) {
            self.hard(implies(g, &and2(&a.v.1, &b.v.1)));
        }
        self.in_pos = SInt::ite(g, &fresh, &self.in_pos.clone());
        self.in_starts.extend(lo..=len as usize);
    }

    fn ptr_place(&mut self, ptr: &SVal, pointee: &Type, g: &Bool) -> R<LPlace> {
        let SVal::Ptr(p) = ptr else {
            return self.unsupported("scanf target is not a pointer");
        };
        let n = self.prog.cells(pointee).max(1) as i128;
        let mut alts = Vec::new();
        let mut valid = ff();
        for (ga, t) in &p.alts {
            if let Target::Obj { obj, off } = t {
                if !self.objs[*obj as usize].live {
                    continue;
                }
                let len = self.objs[*obj as usize].cells.len() as i128;
                valid = or2(&valid, &and2(ga, &self.in_range(off, 0, len - n)));
                alts.push(LAlt {
                    g: ga.clone(),
                    obj: *obj,
                    off: off.clone(),
                    emu: None,
                });
            }
        }
        self.check(g, valid);
        Ok(LPlace { alts })
    }

    // ----- the oracle -------------------------------------------------------------------

    fn oracle(&mut self) -> R<()> {
        let expected = &self.test.expected_stdout;
        oracle::encode_outputs(
            self.solver,
            &self.outputs,
            expected,
            self.sem,
            &mut self.out,
        )
        .map_err(|e| EncodeError {
            stmt: e.0,
            message: e.1,
        })?;

        if let Some(status) = self.test.expected_status {
            let s = self.status.convert(IntKind::UChar);
            self.hard(s.eq_const(status as i128 & 0xff));
        }
        Ok(())
    }
}

/// Whether an expression is (a conversion of) a read of the test's input:
/// `atoi`/`atol`/`atof` (of `argv`), `getchar`, `scanf`. Storing such a value
/// is not relaxed: the input is a hard fact of the test.
fn is_input(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Cast(a) => is_input(a),
        ExprKind::Builtin { func, .. } => {
            matches!(
                func,
                Builtin::Atoi | Builtin::Atol | Builtin::Atof | Builtin::Getchar | Builtin::Scanf
            )
        }
        _ => false,
    }
}

/// A string a pointer may designate: guard, object, offset, cells from there.
type StringAlt = (Bool, u32, usize, Vec<SCell>);

/// Makes a read value fit the expected scalar type (cells written through a
/// differently typed pointer keep their own representation).
fn coerce(v: SVal, ty: &Type, sem: IntSemantics) -> SVal {
    match (&v, ty) {
        (SVal::Int(i), Type::Int(k)) if i.kind != *k => SVal::Int(i.convert(*k)),
        (SVal::Int(_), Type::Int(_))
        | (SVal::Float(_), Type::Float(_))
        | (SVal::Ptr(_), Type::Ptr(_)) => match (&v, ty) {
            (SVal::Float(f), Type::Float(k)) if f.kind != *k => SVal::Float(f.convert(*k)),
            _ => v,
        },
        (SVal::Stream(_), _) => v,
        // A cell of another shape: only reachable under a false condition.
        _ if ty.is_scalar() => SVal::zero(sem, ty),
        _ => v,
    }
}
