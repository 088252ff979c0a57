//! The failing run as a sequence of SSA actions (`v := e`, `assume(c)`).
//!
//! The recorded trace (`faultline_exec::Trace`) names every executed
//! statement instance, its branch outcome and the values it stored. This
//! module replays it *symbolically*, following the recorded path: each
//! stored cell gets a fresh SSA variable whose defining term is the
//! statement's expression over the variables it read (C semantics from
//! `faultline_smt::sym`), and each condition instance an `assume` of its taken
//! outcome. Addresses come from the run: an array index is evaluated on the
//! run's values (aliasing from the run). What the replay cannot express
//! symbolically (library calls such as `atoi` or `scanf`, pointers, reads
//! through pointers) is *opaque*: the cells it wrote take the run's concrete
//! values, which is what the weakest precondition sees at the start (the
//! inputs' values).
//!
//! Calls are replayed in place: the arguments define the callee's parameters
//! (owned by the calling instance), the callee's instances follow, and its
//! `return` defines a return variable read by the caller. Calls of
//! *designated-correct* functions are atomic: their instances are left out and
//! the cells they wrote, and their return value, take the run's values.

use faultline_exec::trace::{CtxId, Outcome, Scope, Target, Trace};
use faultline_exec::value::Value;
use faultline_ir::{
    Branch, Builtin, Cond, Expr, ExprKind, FuncId, IntKind, Layout, Place, PlaceKind, Program,
    Stmt, StmtId, SwitchCase, Type, Var, VarRef,
};
use faultline_smt::sym::{self, ITerm, IntSemantics, SFloat, SInt, SVal};
use std::collections::{BTreeSet, HashMap};
use z3::ast::{Ast, Bool, Dynamic};

pub type VarId = usize;
/// A step is a trace event: `StepId` indexes `Trace::events`.
pub type StepId = usize;

/// A memory cell of the run: an activation (`CtxId::ROOT` for globals), a
/// variable and a cell offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    pub act: CtxId,
    pub var: VarRef,
    pub cell: u64,
}

/// An SSA variable: one value a cell held.
#[derive(Clone, Debug)]
pub struct SsaVar {
    pub konst: Dynamic,
    /// Its defining term (`None`: free, e.g. an uninitialized local or an
    /// unknown argument).
    pub term: Option<Dynamic>,
    /// The variables the term mentions.
    pub mentions: Vec<VarId>,
    pub cell: Cell,
    /// The instance that defined it (`None`: the start state).
    pub owner: Option<StepId>,
    /// The value the run stored, when known.
    pub concrete: Option<i128>,
    /// An input: the value an input function (`atoi`, `scanf`, ...) produced.
    /// Substituting it is reaching the start, not a transformation.
    pub input: bool,
}

#[derive(Clone, Debug)]
pub enum ActionKind {
    /// `v := term(v)`.
    Def(VarId),
    /// `assume(c)`: the outcome the run took, over the variables listed.
    Assume(Bool, Vec<VarId>),
}

#[derive(Clone, Debug)]
pub struct Action {
    pub owner: StepId,
    pub kind: ActionKind,
}

/// What one trace event became.
#[derive(Clone, Debug)]
pub struct Step {
    pub stmt: StmtId,
    /// The function activation (the context without loop iterations).
    pub act: CtxId,
    /// Whether the instance is part of the model (not inside an atomic call).
    pub in_model: bool,
    /// The variables it read.
    pub reads: Vec<VarId>,
    /// The variables it defined.
    pub defs: Vec<VarId>,
    pub outcome: Option<Branch>,
    /// Index of its `assume` action (a condition whose outcome is modelled).
    pub assume: Option<usize>,
    /// An assertion instance: the asserted condition and what it mentions.
    pub check: Option<(Bool, Vec<VarId>)>,
    /// An output instance: its format (when a string literal) and its
    /// arguments' values.
    pub printed: Option<Printed>,
    /// Whether part of its semantics could not be modelled.
    pub opaque: bool,
    /// Number of actions once the instance (and its callees) finished.
    pub end_action: usize,
}

#[derive(Clone, Debug)]
pub struct Printed {
    pub format: Option<Vec<u8>>,
    pub args: Vec<(Option<SVal>, Vec<VarId>)>,
}

/// The run's symbolic model.
pub struct Model {
    pub steps: Vec<Step>,
    pub vars: Vec<SsaVar>,
    pub actions: Vec<Action>,
    /// Per activation, the instance that called it (`None` for `main`).
    pub callers: HashMap<CtxId, StepId>,
}

impl Model {
    /// Replays `trace` of a run of `prog`; calls of `atomic` functions are atomic.
    pub fn build(prog: &Program, trace: &Trace, atomic: &BTreeSet<FuncId>) -> Model {
        let mut nodes = HashMap::new();
        for f in &prog.functions {
            index_block(&f.body, &mut nodes);
        }
        let mut r = Replay {
            prog,
            trace,
            atomic,
            nodes,
            model: Model {
                steps: vec![
                    Step {
                        stmt: StmtId(0),
                        act: CtxId::ROOT,
                        in_model: false,
                        reads: Vec::new(),
                        defs: Vec::new(),
                        outcome: None,
                        assume: None,
                        check: None,
                        printed: None,
                        opaque: false,
                        end_action: 0,
                    };
                    trace.events.len()
                ],
                vars: Vec::new(),
                actions: Vec::new(),
                callers: HashMap::new(),
            },
            cur: HashMap::new(),
            rets: HashMap::new(),
            cursor: 0,
        };
        while r.cursor < trace.events.len() {
            r.step(r.cursor);
        }
        r.model
    }

    /// The activation of a context: the context without its loop iterations.
    pub fn activation(trace: &Trace, mut c: CtxId) -> CtxId {
        while c != CtxId::ROOT {
            let ctx = trace.contexts.list[c.0 as usize];
            match ctx.scope {
                Scope::Iter(..) => c = ctx.parent,
                Scope::Call(_) => return c,
            }
        }
        CtxId::ROOT
    }

    /// The variable as an [`SVal`] of type `ty`, when its sort allows.
    pub fn sval(&self, v: VarId, ty: &Type) -> Option<SVal> {
        to_sval(&self.vars[v].konst, ty)
    }
}

fn to_sval(d: &Dynamic, ty: &Type) -> Option<SVal> {
    match ty {
        Type::Int(k) => Some(SVal::Int(SInt {
            kind: *k,
            t: ITerm::Bv(d.as_bv()?),
        })),
        Type::Float(k) => Some(SVal::Float(SFloat {
            kind: *k,
            t: d.as_float()?,
        })),
        _ => None,
    }
}

fn to_dynamic(v: &SVal) -> Option<Dynamic> {
    match v {
        SVal::Int(i) => Some(match &i.t {
            ITerm::Bv(b) => Dynamic::from_ast(b),
            ITerm::Math(m) => Dynamic::from_ast(m),
        }),
        SVal::Float(f) => Some(Dynamic::from_ast(&f.t)),
        _ => None,
    }
}

/// The IR node of a statement id.
#[derive(Clone, Copy)]
enum Node<'p> {
    Stmt(&'p Stmt),
    Cond(&'p Cond, Option<&'p [SwitchCase]>),
}

fn index_block<'p>(b: &'p [Stmt], out: &mut HashMap<StmtId, Node<'p>>) {
    for s in b {
        match s {
            Stmt::Expr { id, .. }
            | Stmt::Init { id, .. }
            | Stmt::Return { id, .. }
            | Stmt::Break { id }
            | Stmt::Continue { id }
            | Stmt::Goto { id, .. } => {
                out.insert(*id, Node::Stmt(s));
            }
            Stmt::Declare { .. } | Stmt::Insert { .. } | Stmt::Label { .. } => {}
            Stmt::If { cond, then, els } => {
                out.insert(cond.id, Node::Cond(cond, None));
                index_block(then, out);
                index_block(els, out);
            }
            Stmt::While { cond, body, step } => {
                if let Some(c) = cond {
                    out.insert(c.id, Node::Cond(c, None));
                }
                index_block(body, out);
                if let Some(st) = step {
                    index_block(std::slice::from_ref(st.as_ref()), out);
                }
            }
            Stmt::DoWhile { body, cond } => {
                out.insert(cond.id, Node::Cond(cond, None));
                index_block(body, out);
            }
            Stmt::Switch {
                cond, body, cases, ..
            } => {
                out.insert(cond.id, Node::Cond(cond, Some(cases)));
                index_block(body, out);
            }
        }
    }
}

struct Replay<'p, 't> {
    prog: &'p Program,
    trace: &'t Trace,
    atomic: &'t BTreeSet<FuncId>,
    nodes: HashMap<StmtId, Node<'p>>,
    model: Model,
    /// The current SSA variable of each cell.
    cur: HashMap<Cell, VarId>,
    /// Return variables of finished activations, until the caller reads them.
    rets: HashMap<CtxId, VarId>,
    cursor: usize,
}

/// The instance being replayed.
struct Cur {
    step: StepId,
    act: CtxId,
    func: FuncId,
    reads: Vec<VarId>,
    consumed: Vec<bool>,
    olds: Vec<Option<(Cell, Type)>>,
    opaque: bool,
    /// Whether the instance called an input function.
    input: bool,
}

impl<'p, 't> Replay<'p, 't> {
    fn func_of(&self, act: CtxId) -> FuncId {
        if act == CtxId::ROOT {
            return self.prog.main;
        }
        match self.trace.contexts.list[act.0 as usize].scope {
            Scope::Call(site) => self.prog.call_sites[site.index()].func,
            Scope::Iter(..) => self.prog.main,
        }
    }

    fn within(&self, mut c: CtxId, anc: CtxId) -> bool {
        loop {
            if c == anc {
                return true;
            }
            if c == CtxId::ROOT {
                return false;
            }
            c = self.trace.contexts.list[c.0 as usize].parent;
        }
    }

    fn cell_type(&self, c: &Cell) -> Option<Type> {
        let ty = match c.var {
            VarRef::Global(g) => &self.prog.globals[g.index()].ty,
            VarRef::Local(f, l) => &self.prog.func(f).locals[l.index()].ty,
            VarRef::Indirect => return None,
        };
        let mut cells = Vec::new();
        self.prog.cell_types(ty, &mut cells);
        cells.get(c.cell as usize).cloned()
    }

    fn new_var(&mut self, cell: Cell, ty: &Type, owner: Option<StepId>) -> VarId {
        let id = self.model.vars.len();
        let konst = match ty {
            Type::Int(k) => Dynamic::from_ast(&z3::ast::BV::new_const(format!("v{id}"), k.bits())),
            Type::Float(k) => Dynamic::from_ast(&match k {
                faultline_ir::FloatKind::Float => {
                    z3::ast::Float::new_const_float32(format!("v{id}"))
                }
                faultline_ir::FloatKind::Double => {
                    z3::ast::Float::new_const_double(format!("v{id}"))
                }
            }),
            _ => Dynamic::from_ast(&z3::ast::BV::new_const(format!("p{id}"), 64)),
        };
        self.model.vars.push(SsaVar {
            konst,
            term: None,
            mentions: Vec::new(),
            cell,
            owner,
            concrete: None,
            input: false,
        });
        id
    }

    /// Defines `cell` by `cur`'s instance with `value` (or, when opaque, the
    /// value the run stored there).
    fn define(&mut self, cur: &mut Cur, cell: Cell, ty: &Type, value: Option<(SVal, Vec<VarId>)>) {
        let concrete = self.take_write(cur, &cell);
        let v = self.new_var(cell, ty, Some(cur.step));
        let modelled = value.as_ref().and_then(|(s, m)| Some((to_dynamic(s)?, m)));
        let opaque_value = modelled.is_none();
        let (term, mentions) = match modelled {
            Some((t, m)) => (Some(t), m.clone()),
            None => (const_term(ty, concrete.as_ref()), Vec::new()),
        };
        let var = &mut self.model.vars[v];
        var.input = cur.input && opaque_value;
        var.concrete = concrete.as_ref().and_then(value_int);
        if let (Some(t), true) = (&term, var.concrete.is_none()) {
            var.concrete = SVal_const(t);
        }
        var.term = term;
        var.mentions = mentions;
        self.cur.insert(cell, v);
        self.model.steps[cur.step].defs.push(v);
        self.model.actions.push(Action {
            owner: cur.step,
            kind: ActionKind::Def(v),
        });
    }

    /// The value the current instance stored into `cell`, marking the write consumed.
    fn take_write(&self, cur: &mut Cur, cell: &Cell) -> Option<Value> {
        let ev = &self.trace.events[cur.step];
        for (i, w) in ev.writes.iter().enumerate() {
            if cur.consumed[i] {
                continue;
            }
            let hit = match (w.target, cell.var) {
                (Target::Var { var, cell: c }, v) => var == v && c as u64 == cell.cell,
                (Target::Return, VarRef::Indirect) => cell.cell == u64::MAX,
                _ => false,
            };
            if hit {
                cur.consumed[i] = true;
                return Some(w.value);
            }
        }
        None
    }

    /// The activation holding a local of function `f`, from `act` outwards.
    fn act_of_local(&self, mut act: CtxId, f: FuncId) -> CtxId {
        loop {
            if self.func_of(act) == f || act == CtxId::ROOT {
                return act;
            }
            let parent = self.trace.contexts.list[act.0 as usize].parent;
            act = Model::activation(self.trace, parent);
        }
    }

    fn read(&mut self, cur: &mut Cur, cell: Cell, ty: &Type) -> Option<SVal> {
        let v = match self.cur.get(&cell) {
            Some(&v) => v,
            None => {
                let v = self.new_var(cell, ty, None);
                // The start state: globals hold their static initial values.
                if let VarRef::Global(g) = cell.var {
                    let init = self.prog.globals[g.index()]
                        .init
                        .items
                        .iter()
                        .find(|i| i.cell == cell.cell)
                        .map(|i| &i.value);
                    let val = match init {
                        None => Some(0),
                        Some(e) => match e.kind {
                            ExprKind::Int(x) => e.ty.int_kind().map(|k| k.value(x)),
                            _ => None,
                        },
                    };
                    if let (Some(x), Type::Int(k)) = (val, ty) {
                        let c = SInt::constant(IntSemantics::BitVector, *k, x);
                        self.model.vars[v].term = to_dynamic(&SVal::Int(c));
                        self.model.vars[v].concrete = Some(x);
                    }
                }
                self.cur.insert(cell, v);
                v
            }
        };
        cur.reads.push(v);
        let s = self.model.sval(v, ty);
        if s.is_none() {
            cur.opaque = true;
        }
        s
    }

    fn step(&mut self, i: StepId) {
        self.cursor = i + 1;
        let ev = &self.trace.events[i];
        let act = Model::activation(self.trace, ev.inst.ctx);
        let func = self.func_of(act);
        let mut cur = Cur {
            step: i,
            act,
            func,
            reads: Vec::new(),
            consumed: vec![false; ev.writes.len()],
            olds: Vec::new(),
            opaque: false,
            input: false,
        };
        self.model.steps[i].stmt = ev.inst.stmt;
        self.model.steps[i].act = act;
        self.model.steps[i].in_model = true;
        if let Outcome::Branch(b) = ev.outcome {
            self.model.steps[i].outcome = Some(b);
        }
        match self.nodes.get(&ev.inst.stmt).copied() {
            Some(Node::Stmt(Stmt::Expr { expr, .. })) => {
                self.eval(&mut cur, expr);
            }
            Some(Node::Stmt(Stmt::Init { local, init, .. })) => {
                let lty = self.prog.func(func).locals[local.index()].ty.clone();
                let mut cells = Vec::new();
                self.prog.cell_types(&lty, &mut cells);
                for item in &init.items {
                    let start = cur.reads.len();
                    let v = self.eval(&mut cur, &item.value);
                    let m = cur.reads[start..].to_vec();
                    let cell = Cell {
                        act,
                        var: VarRef::Local(func, *local),
                        cell: item.cell,
                    };
                    let ty = cells.get(item.cell as usize).cloned().unwrap_or(Type::Void);
                    self.define(&mut cur, cell, &ty, v.map(|v| (v, m)));
                }
            }
            Some(Node::Stmt(Stmt::Return { value: Some(e), .. })) => {
                let start = cur.reads.len();
                let v = self.eval(&mut cur, e);
                let m = cur.reads[start..].to_vec();
                let cell = Cell {
                    act,
                    var: VarRef::Indirect,
                    cell: u64::MAX,
                };
                let ty = e.ty.clone();
                self.define(&mut cur, cell, &ty, v.map(|v| (v, m)));
                let var = *self.cur.get(&cell).expect("just defined");
                self.rets.insert(act, var);
            }
            Some(Node::Cond(c, cases)) => {
                let v = self.eval(&mut cur, &c.expr);
                let b = self.model.steps[i].outcome;
                let assume = match (v, b) {
                    (Some(v), Some(b)) => assume_of(&v, b, cases),
                    _ => None,
                };
                match assume {
                    Some(a) => {
                        self.model.steps[i].assume = Some(self.model.actions.len());
                        self.model.actions.push(Action {
                            owner: i,
                            kind: ActionKind::Assume(a, dedup(&cur.reads)),
                        });
                    }
                    None => cur.opaque = true,
                }
            }
            _ => {}
        }
        // Stores the replay did not model (through pointers, by library
        // calls) take the run's values.
        let writes = self.trace.events[i].writes.clone();
        for (k, w) in writes.iter().enumerate() {
            if cur.consumed[k] {
                continue;
            }
            if let Target::Var { var, cell } = w.target {
                let cell = Cell {
                    act: match var {
                        VarRef::Local(f, _) => self.act_of_local(act, f),
                        _ => CtxId::ROOT,
                    },
                    var,
                    cell: cell as u64,
                };
                if let Some(ty) = self.cell_type(&cell) {
                    cur.opaque = true;
                    self.define(&mut cur, cell, &ty, None);
                }
            }
        }
        let end = self.model.actions.len();
        let st = &mut self.model.steps[i];
        st.end_action = end;
        st.reads = dedup(&cur.reads);
        st.opaque |= cur.opaque;
    }

    fn place(&mut self, cur: &mut Cur, p: &Place) -> Option<Cell> {
        // A union's members overlap in bytes: what the run read there is opaque.
        let union_member = matches!(&p.kind, PlaceKind::Field(b, _)
            if matches!(b.ty, Type::Struct(s) if self.prog.struct_def(s).union));
        if union_member || self.prog.has_union(&p.ty) {
            cur.opaque = true;
            return None;
        }
        match &p.kind {
            PlaceKind::Var(Var::Global(g)) => Some(Cell {
                act: CtxId::ROOT,
                var: VarRef::Global(*g),
                cell: 0,
            }),
            PlaceKind::Var(Var::Local(l)) => Some(Cell {
                act: cur.act,
                var: VarRef::Local(cur.func, *l),
                cell: 0,
            }),
            PlaceKind::Index(base, idx) => {
                let b = self.place(cur, base);
                let start = cur.reads.len();
                let i = self.eval(cur, idx);
                let m = cur.reads[start..].to_vec();
                let i = self.concrete(i.as_ref()?, &m)?;
                let elem = match &base.ty {
                    Type::Array(e, n) if i >= 0 && (i as u64) < *n => e,
                    _ => {
                        cur.opaque = true;
                        return None;
                    }
                };
                let mut b = b?;
                b.cell += i as u64 * self.prog.cells(elem);
                Some(b)
            }
            PlaceKind::Field(base, n) => {
                let mut b = self.place(cur, base)?;
                if let Type::Struct(s) = &base.ty {
                    b.cell += self
                        .prog
                        .struct_def(*s)
                        .fields
                        .get(*n as usize)?
                        .cell_offset;
                    Some(b)
                } else {
                    None
                }
            }
            PlaceKind::Deref(e) => {
                self.eval(cur, e);
                cur.opaque = true;
                None
            }
        }
    }

    /// The run's value of a term over variables with known values.
    fn concrete(&self, v: &SVal, mentions: &[VarId]) -> Option<i128> {
        let SVal::Int(i) = v else { return None };
        if let Some(c) = i.as_const() {
            return Some(c);
        }
        let d = to_dynamic(v)?;
        let mut subst = Vec::new();
        for &m in mentions {
            let var = &self.model.vars[m];
            let ty = Type::Int(IntKind::Long);
            let _ = ty;
            let bits = var.konst.as_bv()?.get_size();
            let c = z3::ast::BV::from_u64(var.concrete? as u64, bits);
            subst.push((var.konst.clone(), Dynamic::from_ast(&c)));
        }
        let pairs: Vec<(&Dynamic, &Dynamic)> = subst.iter().map(|(a, b)| (a, b)).collect();
        let s = d.substitute(&pairs).simplify();
        let r = to_sval(&s, &Type::Int(i.kind))?;
        match r {
            SVal::Int(x) => x.as_const(),
            _ => None,
        }
    }

    fn fresh(&mut self, ty: &Type) -> Option<SVal> {
        SVal::fresh(IntSemantics::BitVector, ty, "free")
            .ok()
            .map(|(v, _)| v)
    }

    fn eval(&mut self, cur: &mut Cur, e: &Expr) -> Option<SVal> {
        let bv = IntSemantics::BitVector;
        match &e.kind {
            ExprKind::Int(v) => Some(SVal::Int(SInt::constant(bv, e.ty.int_kind()?, *v as i128))),
            ExprKind::Float(f) => match &e.ty {
                Type::Float(k) => Some(SVal::Float(SFloat {
                    kind: *k,
                    t: sym::fp_const(*k, *f),
                })),
                _ => None,
            },
            ExprKind::Load(p) => {
                let c = self.place(cur, p);
                match c {
                    Some(c) if e.ty.is_arithmetic() => self.read(cur, c, &p.ty),
                    _ => {
                        cur.opaque = true;
                        None
                    }
                }
            }
            ExprKind::Unary(op, a) => {
                let v = self.eval(cur, a)?;
                sym::unary(*op, &e.ty, &a.ty, &v).ok().map(|c| c.v)
            }
            ExprKind::Binary(op, a, b) => {
                let x = self.eval(cur, a);
                let y = self.eval(cur, b);
                sym::binary(*op, &e.ty, &x?, &y?).ok().map(|c| c.v)
            }
            ExprKind::Cmp(op, a, b) => {
                let x = self.eval(cur, a);
                let y = self.eval(cur, b);
                sym::compare(*op, &x?, &y?).ok().map(|c| c.v.0)
            }
            ExprKind::And(a, b) | ExprKind::Or(a, b) => {
                let x = self.eval(cur, a);
                let y = match self.eval(cur, b) {
                    Some(y) => Some(y),
                    None => self.fresh(&b.ty),
                };
                let (x, y) = (x?.truthy(), y?.truthy());
                let r = if matches!(e.kind, ExprKind::And(..)) {
                    Bool::and(&[&x, &y])
                } else {
                    Bool::or(&[&x, &y])
                };
                let one = SInt::constant(bv, IntKind::Int, 1);
                let zero = SInt::constant(bv, IntKind::Int, 0);
                Some(SVal::Int(SInt::ite(&r, &one, &zero)))
            }
            ExprKind::Cond(c, a, b) => {
                let c = self.eval(cur, c);
                let x = self.eval(cur, a).or_else(|| self.fresh(&e.ty));
                let y = self.eval(cur, b).or_else(|| self.fresh(&e.ty));
                Some(SVal::ite(&c?.truthy(), &x?, &y?))
            }
            ExprKind::Cast(a) => {
                let v = self.eval(cur, a)?;
                if !(a.ty.is_arithmetic() && e.ty.is_arithmetic()) {
                    cur.opaque = true;
                    return None;
                }
                sym::convert(&v, &a.ty, &e.ty).ok().map(|c| c.v)
            }
            ExprKind::Assign { place, value, post } => {
                let cell = self.place(cur, place);
                cur.olds.push(cell.map(|c| (c, place.ty.clone())));
                let start = cur.reads.len();
                let v = self.eval(cur, value);
                let m = cur.reads[start..].to_vec();
                cur.olds.pop();
                let cell = cell?;
                let old = if *post {
                    self.read(cur, cell, &place.ty)
                } else {
                    None
                };
                if !place.ty.is_arithmetic() {
                    cur.opaque = true;
                }
                self.define(cur, cell, &place.ty, v.clone().map(|v| (v, m)));
                if *post {
                    old
                } else {
                    v
                }
            }
            ExprKind::Old => {
                let (c, ty) = cur.olds.last().cloned().flatten()?;
                self.read(cur, c, &ty)
            }
            ExprKind::Call { func, args, site } => self.call(cur, *func, args, *site, &e.ty),
            ExprKind::Builtin { func, args } => self.eval_builtin(cur, e, *func, args),
            ExprKind::Str(_)
            | ExprKind::Stream(_)
            | ExprKind::AddrOf(_)
            | ExprKind::PtrAdd(..)
            | ExprKind::PtrDiff(..) => {
                if let ExprKind::PtrAdd(a, b) | ExprKind::PtrDiff(a, b) = &e.kind {
                    self.eval(cur, a);
                    self.eval(cur, b);
                }
                if let ExprKind::AddrOf(p) = &e.kind {
                    self.place(cur, p);
                }
                cur.opaque = true;
                None
            }
            #[allow(unreachable_patterns)]
            _ => {
                cur.opaque = true;
                None
            }
        }
    }

    /// A library call: assertions and outputs are recorded on the step, `abs`
    /// is modelled, input functions start values, the rest is opaque.
    fn eval_builtin(
        &mut self,
        cur: &mut Cur,
        e: &Expr,
        func: Builtin,
        args: &[Expr],
    ) -> Option<SVal> {
        let bv = IntSemantics::BitVector;
        let mut vals = Vec::new();
        for a in args {
            let start = cur.reads.len();
            let v = self.eval(cur, a);
            vals.push((v, cur.reads[start..].to_vec()));
        }
        match func {
            Builtin::Assert => {
                let (v, m) = vals.first()?.clone();
                if let Some(v) = v {
                    self.model.steps[cur.step].check = Some((v.truthy(), dedup(&m)));
                }
                Some(SVal::Int(SInt::constant(bv, IntKind::Int, 0)))
            }
            Builtin::Printf | Builtin::Fprintf => {
                let skip = usize::from(func == Builtin::Fprintf);
                let format = match args.get(skip).map(|a| &a.kind) {
                    Some(ExprKind::Str(s)) => Some(self.prog.strings[s.index()].clone()),
                    _ => None,
                };
                self.model.steps[cur.step].printed = Some(Printed {
                    format,
                    args: vals.into_iter().skip(skip + 1).collect(),
                });
                None
            }
            Builtin::Abs | Builtin::Labs => {
                let (v, _) = vals.first()?.clone();
                let v = v?;
                let SVal::Int(i) = &v else { return None };
                let zero = SVal::Int(SInt::constant(bv, i.kind, 0));
                let (_, neg) = sym::compare(faultline_ir::CmpOp::Lt, &v, &zero).ok()?.v;
                let n = sym::unary(faultline_ir::UnOp::Neg, &e.ty, &e.ty, &v)
                    .ok()?
                    .v;
                Some(SVal::ite(&neg, &n, &v))
            }
            f if f.is_input() => {
                cur.opaque = true;
                cur.input = true;
                None
            }
            _ => {
                cur.opaque = true;
                None
            }
        }
    }

    fn call(
        &mut self,
        cur: &mut Cur,
        func: FuncId,
        args: &[Expr],
        site: faultline_ir::CallSiteId,
        ret_ty: &Type,
    ) -> Option<SVal> {
        let mut vals = Vec::new();
        for a in args {
            let start = cur.reads.len();
            let v = self.eval(cur, a);
            vals.push((v, cur.reads[start..].to_vec(), a.ty.clone()));
        }
        let mut chain = self
            .trace
            .contexts
            .chain(self.trace.events[cur.step].inst.ctx);
        chain.push(Scope::Call(site));
        let callee = self.trace.contexts.find(&chain);
        let entered = callee.is_some_and(|c| {
            self.cursor < self.trace.events.len()
                && self.within(self.trace.events[self.cursor].inst.ctx, c)
        });
        let Some(callee) = callee.filter(|_| entered) else {
            // Not executed (a short-circuited operand): unknown.
            return self.fresh(ret_ty);
        };
        self.model.callers.insert(callee, cur.step);
        if self.atomic.contains(&func) {
            let mut ret = None;
            while self.cursor < self.trace.events.len()
                && self.within(self.trace.events[self.cursor].inst.ctx, callee)
            {
                let i = self.cursor;
                self.cursor += 1;
                let ev = &self.trace.events[i];
                let act = Model::activation(self.trace, ev.inst.ctx);
                self.model.steps[i].stmt = ev.inst.stmt;
                self.model.steps[i].act = act;
                for w in ev.writes.clone() {
                    match w.target {
                        Target::Return if act == callee => ret = Some(w.value),
                        Target::Var { var, cell } => {
                            let c = Cell {
                                act: match var {
                                    VarRef::Local(f, _) => self.act_of_local(act, f),
                                    _ => CtxId::ROOT,
                                },
                                var,
                                cell: cell as u64,
                            };
                            // Only effects outside the call matter.
                            if self.within(c.act, callee) && c.act != CtxId::ROOT {
                                continue;
                            }
                            if let Some(ty) = self.cell_type(&c) {
                                let v = self.new_var(c, &ty, Some(cur.step));
                                let var = &mut self.model.vars[v];
                                var.term = const_term(&ty, Some(&w.value));
                                var.concrete = value_int(&w.value);
                                self.cur.insert(c, v);
                                self.model.steps[cur.step].defs.push(v);
                                self.model.actions.push(Action {
                                    owner: cur.step,
                                    kind: ActionKind::Def(v),
                                });
                            }
                        }
                        _ => {}
                    }
                }
            }
            let d = const_term(ret_ty, ret.as_ref())?;
            return to_sval(&d, ret_ty);
        }
        let f = self.prog.func(func);
        for (k, p) in f.params.iter().enumerate() {
            let cell = Cell {
                act: callee,
                var: VarRef::Local(func, *p),
                cell: 0,
            };
            let pty = f.locals[p.index()].ty.clone();
            match vals.get(k) {
                Some((Some(v), m, _)) if pty.is_arithmetic() => {
                    self.define(cur, cell, &pty, Some((v.clone(), m.clone())));
                }
                _ => {
                    let v = self.new_var(cell, &pty, Some(cur.step));
                    self.cur.insert(cell, v);
                }
            }
        }
        while self.cursor < self.trace.events.len()
            && self.within(self.trace.events[self.cursor].inst.ctx, callee)
        {
            self.step(self.cursor);
        }
        let var = self.rets.remove(&callee)?;
        cur.reads.push(var);
        self.model.sval(var, ret_ty)
    }
}

#[allow(non_snake_case)]
fn SVal_const(t: &Dynamic) -> Option<i128> {
    let b = t.as_bv()?;
    let u = b.as_u64()?;
    let bits = b.get_size();
    let v = if bits < 64 && u >> (bits - 1) & 1 == 1 {
        u as i128 - (1i128 << bits)
    } else if bits == 64 {
        u as i64 as i128
    } else {
        u as i128
    };
    Some(v)
}

fn value_int(v: &Value) -> Option<i128> {
    match v {
        Value::Int(i) => Some(*i as i128),
        _ => None,
    }
}

fn const_term(ty: &Type, v: Option<&Value>) -> Option<Dynamic> {
    match (ty, v?) {
        (Type::Int(k), Value::Int(i)) => to_dynamic(&SVal::Int(SInt::constant(
            IntSemantics::BitVector,
            *k,
            k.value(*i),
        ))),
        (Type::Float(k), Value::Float(f)) => Some(Dynamic::from_ast(&sym::fp_const(*k, *f))),
        _ => None,
    }
}

fn assume_of(v: &SVal, b: Branch, cases: Option<&[SwitchCase]>) -> Option<Bool> {
    match (b, cases) {
        (Branch::True, None) => Some(v.truthy()),
        (Branch::False, None) => Some(v.truthy().not()),
        (Branch::Case(k), Some(cs)) => {
            let SVal::Int(i) = v else { return None };
            Some(i.eq_const(cs.get(k as usize)?.value as i128))
        }
        (Branch::Default, Some(cs)) => {
            let SVal::Int(i) = v else { return None };
            let ne: Vec<Bool> = cs
                .iter()
                .map(|c| i.eq_const(c.value as i128).not())
                .collect();
            let refs: Vec<&Bool> = ne.iter().collect();
            Some(Bool::and(&refs))
        }
        _ => None,
    }
}

fn dedup(v: &[VarId]) -> Vec<VarId> {
    let s: BTreeSet<VarId> = v.iter().copied().collect();
    s.into_iter().collect()
}
