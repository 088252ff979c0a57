//! Statements and control flow: blocks, branches under the branch policy,
//! black boxes for unexplored code, loops unrolled to their bounds, `switch`.

use super::*;

impl<'a, 'b> SymExec<'a, 'b> {
    pub(super) fn exec_block(&mut self, b: &'a Block, g: Bool) -> R<Bool> {
        self.blocks.push((b, 0));
        let r = self.exec_stmts(b, g);
        self.blocks.pop();
        r
    }

    /// The statements of the innermost active block: a label adds the guards
    /// of the `goto`s waiting for it; where no path goes on, execution skips
    /// to the next label some `goto` waits for.
    fn exec_stmts(&mut self, b: &'a Block, mut g: Bool) -> R<Bool> {
        let mut j = 0;
        while j < b.len() {
            if let Stmt::Label { label } = &b[j] {
                if let Some(w) = self.labels.remove(label) {
                    g = or2(&g, &w);
                }
            }
            if is_false(&g) {
                match (j + 1..b.len()).find(|&k| self.awaited(&b[k])) {
                    Some(k) => {
                        j = k;
                        continue;
                    }
                    None => break,
                }
            }
            self.blocks.last_mut().expect("pushed").1 = j;
            g = self.exec(&b[j], g)?;
            j += 1;
        }
        Ok(g)
    }

    /// Whether `s` is a label a forward `goto` waits for.
    pub(super) fn awaited(&self, s: &Stmt) -> bool {
        matches!(s, Stmt::Label { label } if self.labels.contains_key(label))
    }

    /// A `goto` under `g`: a forward one moves its guard to its label (which
    /// is in an active block, after the statement being executed there, so
    /// the walk reaches it); a backward one is refused: its iterations would
    /// repeat statement instances the interpreter names alike (no scope of
    /// their own), so they could not be told apart.
    pub(super) fn jump(&mut self, label: LabelId, g: &Bool) -> R<()> {
        let at = self.blocks.iter().rev().find_map(|(b, cur)| {
            b.iter()
                .position(|s| matches!(s, Stmt::Label { label: l } if *l == label))
                .map(|k| k > *cur)
        });
        match at {
            Some(true) => {
                let w = self.labels.remove(&label).unwrap_or_else(ff);
                self.labels.insert(label, or2(&w, g));
                Ok(())
            }
            Some(false) => self.unsupported(
                "a backward goto (a loop written with goto) is not encoded: its iterations have no instances of their own",
            ),
            None => self.unsupported("a goto to a label outside the blocks being executed"),
        }
    }

    pub(super) fn exec(&mut self, s: &'a Stmt, g: Bool) -> R<Bool> {
        match s {
            Stmt::Expr { id, expr } => {
                self.begin(*id);
                let mut g2 = g.clone();
                let printing = match &expr.kind {
                    ExprKind::Call { site, .. }
                        if self.prog.call_sites[site.index()].prints_only =>
                    {
                        self.cur_ab()
                    }
                    _ => None,
                };
                let r = match printing {
                    Some(ab) => self.skippable_call(*id, expr, &ab, &mut g2),
                    None => self.eval_for_effects(expr, &mut g2),
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
            Stmt::Goto { id, label } => {
                self.begin(*id);
                let r = self.jump(*label, &g);
                self.end();
                r?;
                Ok(ff())
            }
            Stmt::Label { .. } => Ok(g),
            Stmt::Declare { id, local } => {
                let obj = self.frames.last().expect("frame").locals[local.index()];
                for c in self.objs[obj as usize].cells.iter_mut() {
                    c.init = sym::ite_bool(&g, &ff(), &c.init);
                }
                if let Some(id) = id {
                    self.inserted_value(*id, Var::Local(*local), &g)?;
                }
                Ok(g)
            }
            Stmt::Insert { id, what } => {
                match what {
                    faultline_ir::Insertion::Output => self.inserted_output(*id, &g),
                    faultline_ir::Insertion::Assign(v) => self.inserted_value(*id, *v, &g)?,
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
                let loop_id = cond.as_ref().map_or(StmtId::NO_CONDITION, |c| c.id);
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
            Stmt::Break { id } => self.jump_stmt(*id, Jump::Break, g),
            Stmt::Continue { id } => self.jump_stmt(*id, Jump::Continue, g),
        }
    }

    /// Whether statement `id`, which computes nothing unrelaxed (a
    /// declaration, an insertion), is a candidate of this formula: not in
    /// `trace`, which relaxes the run's own instances, and the interpreter
    /// records none of these.
    fn inserted_candidate(&self, id: StmtId) -> bool {
        self.encoding != Encoding::Trace && self.ab.allows(id)
    }

    /// A declaration of scalar variable `v` or an update insertion of it,
    /// under `g`: unrelaxed it leaves `v` as it is (a declaration has
    /// already made it uninitialized), relaxed `v` gets any value.
    fn inserted_value(&mut self, id: StmtId, v: Var, g: &Bool) -> R<()> {
        if !self.inserted_candidate(id) {
            return Ok(());
        }
        self.begin(id);
        let obj = self.var_obj(v);
        let ty = self
            .prog
            .var_type(self.frames.last().expect("frame").func, v)
            .clone();
        let old = self.objs[obj as usize].cells[0].clone();
        let r = self.relax_scalar(old.v.clone(), &ty, g);
        let ab = self.cur_ab();
        self.end();
        let chosen = r?;
        let init = match ab {
            Some(ab) => or2(&old.init, &ab),
            None => old.init.clone(),
        };
        let cell = &mut self.objs[obj as usize].cells[0];
        cell.v = SVal::ite(g, &chosen, &old.v);
        cell.init = sym::ite_bool(g, &init, &old.init);
        Ok(())
    }

    /// Statement `id`, a prints-only call `expr`
    /// ([`faultline_ir::CallSiteInfo::prints_only`]) relaxed by `ab`, under
    /// `g`: relaxed, the instance may be skipped (a fresh choice), and then
    /// prints nothing; nothing else changes, since the call only prints.
    fn skippable_call(&mut self, id: StmtId, expr: &'a Expr, ab: &Bool, g: &mut Bool) -> R<()> {
        let skipped = and2(ab, &Bool::fresh_const("skip"));
        let ctx = self.contexts.chain(self.ctx());
        self.printing.push((id, ctx, g.clone()));
        let mut called = and2(g, &not(&skipped));
        let r = self.eval_for_effects(expr, &mut called);
        self.printing.pop();
        r?;
        *g = or2(&called, &and2(g, &skipped));
        Ok(())
    }

    /// An output insertion under `g`: relaxed, it prints any text.
    fn inserted_output(&mut self, id: StmtId, g: &Bool) {
        if !self.inserted_candidate(id) {
            return;
        }
        self.begin(id);
        if let Some(ab) = self.cur_ab() {
            let ev = self.out_event(g.clone(), Some(ab), Vec::new());
            self.outputs.push(ev);
        }
        self.end();
    }

    /// A `break` or `continue` under `g`: its jump (or, relaxed, the one
    /// the solver chooses) adds to the guard of leaving the innermost loop or
    /// `switch`, or of the next iteration of the innermost loop; returns the
    /// guard of going on with the next statement.
    fn jump_stmt(&mut self, id: StmtId, computed: Jump, g: Bool) -> R<Bool> {
        self.begin(id);
        let (leave, next) = self.relax_jump(computed, &g);
        self.end();
        let brk = and2(&g, &leave);
        let on = and2(&g, &not(&leave));
        let cont = and2(&on, &next);
        if !is_false(&brk) {
            let l = self
                .loops
                .last_mut()
                .expect("break inside a loop or switch");
            l.brk = or2(&l.brk, &brk);
        }
        if !is_false(&cont) {
            let l = self
                .loops
                .iter_mut()
                .rev()
                .find(|l| !l.is_switch)
                .expect("continue inside a loop");
            l.cont = or2(&l.cont, &cont);
        }
        Ok(and2(&on, &not(&next)))
    }

    /// Evaluates a condition; returns the guards of its true and false
    /// branches, and the outcome left as a black box, if any.
    pub(super) fn branch(
        &mut self,
        c: &'a Cond,
        g: &Bool,
        is_loop: bool,
    ) -> R<(Bool, Bool, Option<Branch>)> {
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
    pub(super) fn havoc(&mut self, summary: &Summary, g: &Bool) -> R<Bool> {
        if is_false(g) {
            return Ok(ff());
        }
        if let Some(why) = summary.refused {
            return self.unsupported(format!("unexplored code: {why}"));
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
                    objs.extend(
                        (0..self.objs.len() as u32)
                            .filter(|&o| self.objs[o as usize].heap.is_some()),
                    );
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
        if summary.frees {
            // Any heap block may be freed in the box.
            for o in 0..self.objs.len() {
                if self.objs[o].heap.as_deref().is_some_and(|h| !h.is_stack()) {
                    let keep = Bool::fresh_const("box_keeps");
                    let a = self.objs[o].alive.clone();
                    self.objs[o].alive = and2(&a, &or2(&not(g), &keep));
                }
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
                within: Vec::new(),
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
        for label in summary.gotos_out() {
            let j = Bool::fresh_const("box_jumps");
            let gj = and2(&fall, &j);
            self.jump(label, &gj)?;
            fall = and2(&fall, &not(&j));
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
    pub(super) fn loop_box(
        &mut self,
        body: &'a Block,
        step: Option<&'a Stmt>,
        g: &Bool,
    ) -> R<Bool> {
        let mut s = self.summaries.block(self.prog, body);
        if let Some(st) = step {
            let t = self.summaries.block(self.prog, std::slice::from_ref(st));
            s.defs.extend(t.defs);
            s.outputs |= t.outputs;
            s.inputs |= t.inputs;
            s.exits |= t.exits;
            s.returns |= t.returns;
            s.frees |= t.frees;
            s.gotos.extend(t.gotos);
            s.labels.extend(t.labels);
        }
        s.breaks = false;
        s.continues = false;
        self.havoc(&s, g)
    }

    /// Executes a block, or havocs it when it is a black box.
    pub(super) fn exec_or_havoc(&mut self, b: &'a Block, g: Bool, black_box: bool) -> R<Bool> {
        if black_box {
            let s = self.summaries.block(self.prog, b);
            self.havoc(&s, &g)
        } else {
            self.exec_block(b, g)
        }
    }

    pub(super) fn while_loop(
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

    pub(super) fn do_loop(
        &mut self,
        body: &'a Block,
        cond: &'a Cond,
        outer: CtxId,
        g: Bool,
    ) -> R<Bool> {
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

    pub(super) fn loop_bound(&self, id: StmtId) -> u32 {
        *self
            .bounds
            .loops
            .get(&id)
            .unwrap_or(&self.bounds.default_loop)
    }

    pub(super) fn unwinding_assumption(&mut self, g: &Bool, loop_id: StmtId) {
        if is_false(g) {
            return;
        }
        self.hard(not(g));
        let note = format!("{} is unrolled to its bound", self.prog.loop_name(loop_id));
        if !self.out.notes.contains(&note) {
            self.out.notes.push(note);
        }
    }

    pub(super) fn switch(
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
        let only = matches!(explore, Explore::Only(_));
        if let Explore::Only(b) = &explore {
            // The recorded case alone is entered (as a branch's other side
            // is not encoded at all): its entry takes the switch's guard.
            let target = match b {
                Branch::Case(i) => cases.get(*i as usize).map(|c| c.target),
                _ => None,
            };
            let at = target.unwrap_or_else(|| default.unwrap_or(body.len()));
            entries[at] = g2.clone();
        }
        for (i, (c, m)) in cases.iter().zip(&matches).enumerate() {
            if only {
                break;
            }
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
        if only {
            // Entered above.
        } else if explored(Branch::Default) {
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
        self.blocks.push((body, 0));
        for (j, s) in body.iter().enumerate() {
            cur = or2(&cur, &entries[j]);
            if let Stmt::Label { label } = s {
                if let Some(w) = self.labels.remove(label) {
                    cur = or2(&cur, &w);
                }
            }
            if is_false(&cur) {
                continue;
            }
            self.blocks.last_mut().expect("pushed").1 = j;
            match self.exec(s, cur.clone()) {
                Ok(next) => cur = next,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.blocks.pop();
        let l = self.loops.pop().expect("pushed");
        result?;
        // `continue` inside a switch belongs to the enclosing loop.
        Ok(or2(
            &or2(&or2(&cur, &entries[body.len()]), &l.brk),
            &box_fall,
        ))
    }
}
