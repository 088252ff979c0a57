//! Expressions: scalar and aggregate values.

use super::*;

impl<'e, 'p, 'h> Machine<'e, 'p, 'h> {
    pub(super) fn eval(&mut self, e: &'p Expr) -> R<Value> {
        match &e.kind {
            ExprKind::Int(v) => Ok(Value::Int(*v)),
            ExprKind::Float(v) => Ok(Value::Float(*v)),
            ExprKind::Str(s) => Ok(Value::Ptr(self.mem.ptr_to(self.strings[s.index()], 0))),
            ExprKind::Stream(s) => Ok(Value::Stream(*s)),
            ExprKind::FuncAddr(f) => Ok(Value::Func(*f)),
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
            ExprKind::Binary(op, a, b) => self.binary(e, *op, a, b),
            ExprKind::Cmp(op, a, b) => {
                let x = self.eval(a)?;
                let y = self.eval(b)?;
                let (x, y) = self.union_ptr_operands(x, y);
                self.arith_or_zero(value::compare(*op, &a.ty, x, y), &e.ty)
            }
            ExprKind::PtrAdd(p, n) => self.eval_ptr_add(p, n),
            ExprKind::PtrDiff(a, b) => self.ptr_diff(a, b),
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
                let mut v = self.eval(a)?;
                if a.ty.is_pointer() && e.ty.is_pointer() {
                    v = self.union_retarget(v, &e.ty);
                    self.check_ptr_cast(v, &e.ty)?;
                }
                // Pointer <-> integer: synthetic addresses (interp/addr.rs).
                match (&a.ty, &e.ty, v) {
                    (Type::Ptr(_), Type::Int(k), Value::Ptr(p))
                        if *k != faultline_ir::IntKind::Bool =>
                    {
                        let addr = self.ptr_to_addr(p)?;
                        return Ok(Value::Int(k.wrap(addr as i128)));
                    }
                    (Type::Int(_), Type::Ptr(_), Value::Int(i)) if i != 0 => {
                        let p = self.addr_to_ptr(i)?;
                        let v = self.union_retarget(Value::Ptr(p), &e.ty);
                        self.check_ptr_cast(v, &e.ty)?;
                        return Ok(v);
                    }
                    _ => {}
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
                let a = self.eval_args(args, *site)?;
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
    pub(super) fn eval_agg(&mut self, e: &'p Expr) -> R<Vec<Value>> {
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
                let a = self.eval_args(args, *site)?;
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

    pub(super) fn int_arg(&mut self, e: &'p Expr) -> R<i64> {
        match self.eval(e)? {
            Value::Int(i) => Ok(i),
            Value::Uninit => Err(self.arith(ArithError::Uninit)),
            v => Err(self.error(
                ErrorKind::Invalid,
                format!("expected an integer argument, found {v}"),
            )),
        }
    }

    pub(super) fn float_arg(&mut self, e: &'p Expr) -> R<f64> {
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

    pub(super) fn ptr_arg(&mut self, e: &'p Expr) -> R<Ptr> {
        match self.eval(e)? {
            Value::Ptr(p) => Ok(p),
            Value::Uninit => Err(self.arith(ArithError::Uninit)),
            v => Err(self.error(
                ErrorKind::Invalid,
                format!("expected a pointer argument, found {v}"),
            )),
        }
    }

    /// An arithmetic operation; signed overflow wraps (as gcc -O0 does) and is noted.
    fn binary(&mut self, e: &'p Expr, op: BinOp, a: &'p Expr, b: &'p Expr) -> R<Value> {
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
        self.arith_or_zero(value::binary(op, &e.ty, &b.ty, x, y), &e.ty)
    }

    /// `p + n`.
    fn eval_ptr_add(&mut self, p: &'p Expr, n: &'p Expr) -> R<Value> {
        let pv = self.eval(p)?;
        let nv = match self.eval(n)? {
            Value::Int(i) => i,
            Value::Uninit => return Err(self.arith(ArithError::Uninit)),
            _ => return Err(self.error(ErrorKind::Invalid, "pointer offset is not an integer")),
        };
        let pointee = p.ty.pointee().cloned().unwrap_or(Type::Void);
        self.ptr_add(pv, nv, &pointee)
    }

    /// `p - q` in elements, for pointers into one object. In an object of
    /// structs (or unions) cells are not all of one size, so the distance is
    /// taken in gcc's bytes (`(char *)&a[2] - (char *)a` is 2 × sizeof a[0]).
    fn ptr_diff(&mut self, a: &'p Expr, b: &'p Expr) -> R<Value> {
        let (x, y) = (self.eval(a)?, self.eval(b)?);
        match (x, y) {
            (Value::Ptr(p), Value::Ptr(q)) if p.obj == q.obj && p.gen == q.gen => {
                let pointee = a.ty.pointee().cloned().unwrap_or(faultline_ir::CHAR);
                let uniform = match self.object_type(p.obj) {
                    Some(Type::Array(e, _)) => e.is_scalar(),
                    Some(t) => t.is_scalar(),
                    None => true,
                };
                if !uniform {
                    if let (Ok(bx), Ok(by)) = (self.ptr_to_addr(p), self.ptr_to_addr(q)) {
                        let size = self.prog.size_of(&pointee).max(1) as i64;
                        return Ok(Value::Int((bx - by) / size));
                    }
                }
                let step = self.prog.cells(&pointee).max(1) as i64;
                Ok(Value::Int((p.off - q.off) / step))
            }
            (Value::Uninit, _) | (_, Value::Uninit) => Err(self.arith(ArithError::Uninit)),
            _ => Err(self.error(
                ErrorKind::Invalid,
                "subtraction of pointers into different objects",
            )),
        }
    }
}
