//! Statements and control flow: blocks, loops with their iteration contexts,
//! calls of the program's functions and `main`.

use super::*;

impl<'e, 'p, 'h> Machine<'e, 'p, 'h> {
    pub(super) fn exec_block(&mut self, block: &'p Block) -> R<Flow> {
        self.exec_from(block, 0)
    }

    /// Runs `block` from statement `start`; a `goto` to a label of this
    /// block continues at the label, any other leaves the block.
    fn exec_from(&mut self, block: &'p [Stmt], start: usize) -> R<Flow> {
        let mut i = start;
        while let Some(s) = block.get(i) {
            i += 1;
            match self.exec(s)? {
                Flow::Normal => {}
                Flow::Goto(l) => match label_index(block, l) {
                    Some(at) => i = at,
                    None => return Ok(Flow::Goto(l)),
                },
                flow => return Ok(flow),
            }
        }
        Ok(Flow::Normal)
    }

    pub(super) fn cond(&mut self, c: &'p faultline_ir::Cond) -> R<bool> {
        self.begin(c.id)?;
        let v = self.eval(&c.expr)?;
        let t = value::truthy(v).map_err(|e| self.arith(e))?;
        let b = self.decide(c.id, if t { Branch::True } else { Branch::False });
        Ok(b == Branch::True)
    }

    /// The value hooks give scalar variable `v` at an inserted statement or
    /// a declaration (its current value unless they change it), stored.
    fn insert_value(&mut self, v: Var) -> R<()> {
        let obj = self.var_obj(v);
        let cur = self.mem.objects[obj as usize].cells[0];
        let loc = Loc::at(obj, 0);
        let new = self.produce(self.target_of(loc), cur);
        if new != cur {
            self.mem.objects[obj as usize].cells[0] = new;
            self.uses.get_mut().write(obj, 0, self.cur);
        }
        Ok(())
    }

    pub(super) fn exec(&mut self, s: &'p Stmt) -> R<Flow> {
        match s {
            Stmt::Expr { id, expr } => {
                self.begin(*id)?;
                if let ExprKind::Call { site, .. } = &expr.kind {
                    if self.tracking
                        && self.prog.call_sites[site.index()].prints_only
                        && self.watched(*id)
                    {
                        self.printing_call(expr)?;
                        return Ok(Flow::Normal);
                    }
                }
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
                    self.forget_punned(obj);
                }
                self.init_object(obj, ty, init)?;
                Ok(Flow::Normal)
            }
            Stmt::Declare { id, local } => {
                let obj = self.frames.last().expect("frame").locals[local.index()];
                for c in self.mem.objects[obj as usize].cells.iter_mut() {
                    *c = Value::Uninit;
                }
                self.forget_punned(obj);
                // A declaration computes nothing: it is an instance only when
                // hooks may make it initialize the local (a witness of a
                // relaxed declaration).
                if let (Some(id), true) = (id, self.hooks.is_some()) {
                    self.begin(*id)?;
                    self.insert_value(Var::Local(*local))?;
                }
                Ok(Flow::Normal)
            }
            Stmt::Insert { id, what } => {
                // Nothing unless hooks make the missing statement do something.
                if self.hooks.is_some() {
                    self.begin(*id)?;
                    match what {
                        Insertion::Output => self.emit(Stream::Stdout, &[])?,
                        Insertion::Assign(v) => self.insert_value(*v)?,
                    }
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
                let loop_id = cond.as_ref().map_or(StmtId::NO_CONDITION, |c| c.id);
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
                match self.exec_from(body, start)? {
                    Flow::Break => Ok(Flow::Normal),
                    flow => Ok(flow),
                }
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
                Ok(jump_flow(self.jump_to(Jump::Break)))
            }
            Stmt::Continue { id } => {
                self.begin(*id)?;
                Ok(jump_flow(self.jump_to(Jump::Continue)))
            }
            Stmt::Goto { id, label } => {
                self.begin(*id)?;
                Ok(Flow::Goto(*label))
            }
            Stmt::Label { .. } => Ok(Flow::Normal),
        }
    }

    /// Enters iteration `k` of a loop (for instance naming).
    pub(super) fn iteration(&mut self, loop_id: StmtId, outer: CtxId, k: u32) -> R<()> {
        self.tick()?;
        if self.tracking {
            let ctx = self.contexts.enter(outer, Scope::Iter(loop_id, k));
            self.frame().ctx = ctx;
        }
        Ok(())
    }

    pub(super) fn while_loop(
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
                r @ (Flow::Return(_) | Flow::Goto(_)) => return Ok(r),
                Flow::Normal | Flow::Continue => {}
            }
            if let Some(st) = step {
                self.exec(st)?;
            }
        }
    }

    pub(super) fn do_loop(
        &mut self,
        body: &'p Block,
        cond: &'p faultline_ir::Cond,
        outer: CtxId,
    ) -> R<Flow> {
        let mut k = 0u32;
        loop {
            self.iteration(cond.id, outer, k)?;
            k = k.wrapping_add(1);
            match self.exec_block(body)? {
                Flow::Break => return Ok(Flow::Normal),
                r @ (Flow::Return(_) | Flow::Goto(_)) => return Ok(r),
                Flow::Normal | Flow::Continue => {}
            }
            if !self.cond(cond)? {
                return Ok(Flow::Normal);
            }
        }
    }

    /// Stores an initializer into an object (zeroing is the caller's business).
    pub(super) fn init_object(&mut self, obj: u32, ty: &Type, init: &'p Initializer) -> R<()> {
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

    /// The written initializers of globals ran before `main` (into the
    /// executable's image): each counts as executed once, and a relaxed one
    /// takes the values the hooks give its arithmetic cells, in order.
    fn global_inits(&mut self) {
        let prog = self.prog;
        for (i, g) in prog.globals.iter().enumerate() {
            let Some(id) = g.init_stmt else { continue };
            self.cov.stmts[id.index()] += 1;
            if !self.tracking || !self.hooks.as_ref().is_some_and(|h| h.relaxed(id)) {
                continue;
            }
            let obj = self.globals[i] as usize;
            let inst = Instance {
                stmt: id,
                ctx: CtxId::ROOT,
                occ: 0,
            };
            let mut k = 0;
            for item in &g.init.items {
                let mut types = Vec::new();
                prog.cell_types(&item.value.ty, &mut types);
                for (j, t) in types.iter().enumerate() {
                    if !t.is_arithmetic() {
                        continue;
                    }
                    let cell = item.cell as usize + j;
                    let v = self.mem.objects[obj].cells[cell];
                    if let Some(h) = self.hooks.as_mut() {
                        let nv = h.value(&Site { inst, ctx: &[] }, k, v);
                        self.mem.objects[obj].cells[cell] = nv;
                    }
                    k += 1;
                }
            }
        }
    }

    pub(super) fn run_main(&mut self) -> R<i32> {
        self.global_inits();
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

    pub(super) fn call(
        &mut self,
        fid: FuncId,
        args: Vec<Vec<Value>>,
        site: Option<CallSiteId>,
    ) -> R<Ret> {
        let frame = self.frame_sizes[fid.index()];
        if self.stack + frame > self.limits.stack_size {
            return Err(self.stack_overflow(format!(
                "needs more than the {} stack (each frame estimated as gcc -O0 lays it out)",
                bytes(self.limits.stack_size)
            )));
        }
        if super::stack_address() < self.native_floor {
            return Err(self.stack_overflow(
                "exhausts faultline's own stack (run faultline in a thread with a larger stack)"
                    .into(),
            ));
        }
        self.stack += frame;
        self.peak_stack = self.peak_stack.max(self.stack);
        let r = self.call_frame(fid, args, site);
        self.stack -= frame;
        r
    }

    fn stack_overflow(&self, why: String) -> Box<Stop> {
        self.error(
            ErrorKind::StackOverflow,
            format!("stack overflow: call depth {} {why}", self.frames.len() + 1),
        )
    }

    fn call_frame(
        &mut self,
        fid: FuncId,
        args: Vec<Vec<Value>>,
        site: Option<CallSiteId>,
    ) -> R<Ret> {
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
            allocas: Vec::new(),
        });
        let r = self.exec_block(&f.body);
        let frame = self.frames.pop().expect("pushed above");
        for obj in frame.locals {
            self.mem.release(obj);
        }
        self.release_allocas(&frame.allocas);
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

    /// The arguments of call `site`: when its arguments are relaxable, the
    /// hooks may change each arithmetic one ([`super::Hooks::argument`]).
    pub(super) fn eval_args(&mut self, args: &'p [Expr], site: CallSiteId) -> R<Vec<Vec<Value>>> {
        let mut out = Vec::with_capacity(args.len());
        for a in args {
            if a.ty.is_scalar() {
                out.push(vec![self.eval(a)?]);
            } else {
                out.push(self.eval_agg(a)?);
            }
        }
        if self.prog.call_sites[site.index()].relax_args {
            for (i, (a, v)) in args.iter().zip(&mut out).enumerate() {
                if a.ty.is_arithmetic() {
                    v[0] = self.argument(i as u32, v[0]);
                }
            }
        }
        Ok(out)
    }
}

/// A size for people: `8 MiB`, `512 KiB`, `100 bytes`.
fn bytes(n: u64) -> String {
    if n >= 1 << 20 && n & ((1 << 20) - 1) == 0 {
        format!("{} MiB", n >> 20)
    } else if n >= 1 << 10 && n & ((1 << 10) - 1) == 0 {
        format!("{} KiB", n >> 10)
    } else {
        format!("{n} bytes")
    }
}

/// The index of the statement after label `l` in `block`, if it is there.
fn label_index(block: &[Stmt], l: faultline_ir::LabelId) -> Option<usize> {
    block
        .iter()
        .position(|s| matches!(s, Stmt::Label { label } if *label == l))
        .map(|i| i + 1)
}

/// The control flow of a jump.
fn jump_flow(j: Jump) -> Flow {
    match j {
        Jump::Break => Flow::Break,
        Jump::Continue => Flow::Continue,
        Jump::Stay => Flow::Normal,
    }
}
