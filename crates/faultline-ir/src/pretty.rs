//! A readable rendering of the IR, for debugging and snapshot tests.
//!
//! Every implicit conversion of the source is visible as a cast `(type)e`;
//! integer constants of a type other than `int` carry a suffix (`5:long`,
//! `1:uint`); binary operations are parenthesized when nested. Statements are
//! prefixed with their id (`s3:`). Locals whose names are ambiguous within
//! their function (shadowing, or a global of the same name) are written
//! `name#id`. `Assign` is written `place = value`, or `place =post value` for
//! `x++`/`x--`; `Old` is written `old`; library calls are written `$name(...)`.

use std::fmt::Write;

use crate::*;

/// Renders a whole program.
pub fn program(p: &Program) -> String {
    let mut out = String::new();
    for s in &p.structs {
        let fields: Vec<String> = s
            .fields
            .iter()
            .map(|f| format!("{}: {} @{}", f.name, p.type_name(&f.ty), f.cell_offset))
            .collect();
        let _ = writeln!(
            out,
            "struct {} {{ {} }} cells={} size={}",
            s.name,
            fields.join(", "),
            s.cells,
            s.size
        );
    }
    for g in &p.globals {
        let _ = write!(out, "global {}: {}", g.name, p.type_name(&g.ty));
        if !g.init.items.is_empty() {
            let _ = write!(out, " = {}", init_items(p, None, &g.init));
        }
        out.push('\n');
    }
    for i in 0..p.functions.len() {
        out.push('\n');
        out.push_str(&function(p, FuncId(i as u32)));
    }
    out
}

/// Renders one function.
pub fn function(p: &Program, id: FuncId) -> String {
    let f = p.func(id);
    let pr = Printer { p, func: Some(id) };
    let params: Vec<String> = f
        .params
        .iter()
        .map(|l| format!("{}: {}", pr.local(*l), p.type_name(&f.locals[l.index()].ty)))
        .collect();
    let mut out = format!(
        "fn {}({}) -> {} {{\n",
        f.name,
        params.join(", "),
        p.type_name(&f.ret)
    );
    for (i, l) in f.locals.iter().enumerate() {
        if !l.is_param {
            let _ = writeln!(
                out,
                "  local {}: {}",
                pr.local(LocalId(i as u32)),
                p.type_name(&l.ty)
            );
        }
    }
    pr.block(&f.body, 1, &mut out);
    out.push_str("}\n");
    out
}

/// Renders an expression of function `func`.
pub fn expr(p: &Program, func: FuncId, e: &Expr) -> String {
    Printer {
        p,
        func: Some(func),
    }
    .expr(e, true)
}

fn init_items(p: &Program, func: Option<FuncId>, init: &Initializer) -> String {
    let pr = Printer { p, func };
    let items: Vec<String> = init
        .items
        .iter()
        .map(|it| format!("{}: {}", it.cell, pr.expr(&it.value, true)))
        .collect();
    format!("{{{}}}", items.join(", "))
}

struct Printer<'a> {
    p: &'a Program,
    func: Option<FuncId>,
}

fn escape(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            b'\r' => s.push_str("\\r"),
            b'\\' => s.push_str("\\\\"),
            b'"' => s.push_str("\\\""),
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\x{b:02x}");
            }
        }
    }
    s.push('"');
    s
}

fn int_suffix(k: IntKind) -> &'static str {
    match k {
        IntKind::Bool => ":bool",
        IntKind::Char => ":char",
        IntKind::SChar => ":schar",
        IntKind::UChar => ":uchar",
        IntKind::Short => ":short",
        IntKind::UShort => ":ushort",
        IntKind::Int => "",
        IntKind::UInt => ":uint",
        IntKind::Long => ":long",
        IntKind::ULong => ":ulong",
        IntKind::LongLong => ":llong",
        IntKind::ULongLong => ":ullong",
    }
}

impl Printer<'_> {
    fn local(&self, l: LocalId) -> String {
        let Some(fid) = self.func else {
            return format!("local#{}", l.0);
        };
        let f = self.p.func(fid);
        let Some(local) = f.locals.get(l.index()) else {
            return format!("local#{}", l.0);
        };
        let clash = f.locals.iter().filter(|x| x.name == local.name).count() > 1
            || self.p.globals.iter().any(|g| g.name == local.name);
        if clash {
            format!("{}#{}", local.name, l.0)
        } else {
            local.name.clone()
        }
    }

    fn var(&self, v: Var) -> String {
        self.place(&Place {
            kind: PlaceKind::Var(v),
            ty: Type::Void,
        })
    }

    fn place(&self, pl: &Place) -> String {
        match &pl.kind {
            PlaceKind::Var(Var::Global(g)) => self
                .p
                .globals
                .get(g.index())
                .map(|g| g.name.clone())
                .unwrap_or_else(|| format!("global#{}", g.0)),
            PlaceKind::Var(Var::Local(l)) => self.local(*l),
            PlaceKind::Deref(e) => format!("*{}", self.expr(e, false)),
            PlaceKind::Index(b, i) => format!("{}[{}]", self.place_atom(b), self.expr(i, true)),
            PlaceKind::Field(b, n) => {
                let name = match &b.ty {
                    Type::Struct(s) => self
                        .p
                        .structs
                        .get(s.0 as usize)
                        .and_then(|d| d.fields.get(*n as usize))
                        .map(|f| f.name.clone())
                        .unwrap_or_else(|| format!("#{n}")),
                    _ => format!("#{n}"),
                };
                if name.is_empty() {
                    // An anonymous member: its members are named through it.
                    return self.place_atom(b);
                }
                format!("{}.{}", self.place_atom(b), name)
            }
        }
    }

    fn place_atom(&self, pl: &Place) -> String {
        match pl.kind {
            PlaceKind::Deref(_) => format!("({})", self.place(pl)),
            _ => self.place(pl),
        }
    }

    fn args(&self, args: &[Expr]) -> String {
        args.iter()
            .map(|a| self.expr(a, true))
            .collect::<Vec<_>>()
            .join(", ")
    }

    fn expr(&self, e: &Expr, top: bool) -> String {
        let wrap = |s: String| if top { s } else { format!("({s})") };
        match &e.kind {
            ExprKind::Int(v) => match e.ty {
                Type::Int(k) => format!("{}{}", k.value(*v), int_suffix(k)),
                _ => format!("{v}"),
            },
            ExprKind::Float(f) => match e.ty {
                Type::Float(FloatKind::Float) => format!("{f:?}f"),
                _ => format!("{f:?}"),
            },
            ExprKind::FuncAddr(f) => match self.p.functions.get(f.index()) {
                Some(func) => format!("&{}", func.name),
                None => format!("&fn#{}", f.0),
            },
            ExprKind::Str(id) => match self.p.strings.get(id.index()) {
                Some(b) => escape(b),
                None => format!("str#{}", id.0),
            },
            ExprKind::Stream(s) => match s {
                Stream::Stdin => "stdin".into(),
                Stream::Stdout => "stdout".into(),
                Stream::Stderr => "stderr".into(),
                Stream::File(n) => format!("<file {n}>"),
            },
            ExprKind::Load(pl) => self.place(pl),
            ExprKind::AddrOf(pl) => format!("&{}", self.place_atom(pl)),
            ExprKind::Unary(op, a) => {
                let o = match op {
                    UnOp::Neg => "-",
                    UnOp::BitNot => "~",
                    UnOp::Not => "!",
                };
                format!("{o}{}", self.expr(a, false))
            }
            ExprKind::Binary(op, a, b) => {
                let o = match op {
                    BinOp::Add => "+",
                    BinOp::Sub => "-",
                    BinOp::Mul => "*",
                    BinOp::Div => "/",
                    BinOp::Rem => "%",
                    BinOp::Shl => "<<",
                    BinOp::Shr => ">>",
                    BinOp::BitAnd => "&",
                    BinOp::BitOr => "|",
                    BinOp::BitXor => "^",
                };
                wrap(format!(
                    "{} {o} {}",
                    self.expr(a, false),
                    self.expr(b, false)
                ))
            }
            ExprKind::Cmp(op, a, b) => {
                let o = match op {
                    CmpOp::Eq => "==",
                    CmpOp::Ne => "!=",
                    CmpOp::Lt => "<",
                    CmpOp::Le => "<=",
                    CmpOp::Gt => ">",
                    CmpOp::Ge => ">=",
                };
                wrap(format!(
                    "{} {o} {}",
                    self.expr(a, false),
                    self.expr(b, false)
                ))
            }
            ExprKind::PtrAdd(a, b) => wrap(format!(
                "{} +ptr {}",
                self.expr(a, false),
                self.expr(b, false)
            )),
            ExprKind::PtrDiff(a, b) => wrap(format!(
                "{} -ptr {}",
                self.expr(a, false),
                self.expr(b, false)
            )),
            ExprKind::And(a, b) => wrap(format!(
                "{} && {}",
                self.expr(a, false),
                self.expr(b, false)
            )),
            ExprKind::Or(a, b) => wrap(format!(
                "{} || {}",
                self.expr(a, false),
                self.expr(b, false)
            )),
            ExprKind::Cond(c, a, b) => wrap(format!(
                "{} ? {} : {}",
                self.expr(c, false),
                self.expr(a, false),
                self.expr(b, false)
            )),
            ExprKind::Cast(a) => format!("({}){}", self.p.type_name(&e.ty), self.expr(a, false)),
            ExprKind::Assign { place, value, post } => {
                let op = if *post { "=post" } else { "=" };
                let comma = matches!(value.kind, ExprKind::Comma(..) | ExprKind::Assign { .. });
                wrap(format!(
                    "{} {op} {}",
                    self.place(place),
                    self.expr(value, !comma)
                ))
            }
            ExprKind::Old => "old".into(),
            ExprKind::Call { func, args, .. } => {
                let name = self
                    .p
                    .functions
                    .get(func.index())
                    .map(|f| f.name.as_str())
                    .unwrap_or("?");
                format!("{name}({})", self.args(args))
            }
            ExprKind::Builtin { func, args } => format!("${}({})", func.name(), self.args(args)),
            ExprKind::Comma(a, b) => {
                wrap(format!("{}, {}", self.expr(a, false), self.expr(b, false)))
            }
        }
    }

    fn block(&self, b: &Block, depth: usize, out: &mut String) {
        for s in b {
            self.stmt(s, depth, out);
        }
    }

    fn stmt(&self, s: &Stmt, depth: usize, out: &mut String) {
        let ind = "  ".repeat(depth);
        match s {
            Stmt::Expr { id, expr } => {
                let _ = writeln!(out, "{ind}{id}: {};", self.expr(expr, true));
            }
            Stmt::Init {
                id,
                local,
                init,
                zero_fill,
            } => {
                let l = self.local(*local);
                if let ([item], false) = (init.items.as_slice(), zero_fill) {
                    if item.cell == 0 {
                        let _ = writeln!(
                            out,
                            "{ind}{id}: init {l} = {};",
                            self.expr(&item.value, true)
                        );
                        return;
                    }
                }
                let z = if *zero_fill { " zero_fill" } else { "" };
                let _ = writeln!(
                    out,
                    "{ind}{id}: init {l} = {}{z};",
                    init_items(self.p, self.func, init)
                );
            }
            Stmt::Declare { id: None, local } => {
                let _ = writeln!(out, "{ind}declare {};", self.local(*local));
            }
            Stmt::Declare {
                id: Some(id),
                local,
            } => {
                let _ = writeln!(out, "{ind}{id}: declare {};", self.local(*local));
            }
            Stmt::Insert { id, what } => {
                let what = match what {
                    crate::Insertion::Output => "output".to_string(),
                    crate::Insertion::Assign(v) => format!("assign {}", self.var(*v)),
                };
                let _ = writeln!(out, "{ind}{id}: insert {what};");
            }
            Stmt::If { cond, then, els } => {
                let _ = writeln!(
                    out,
                    "{ind}{}: if ({}) {{",
                    cond.id,
                    self.expr(&cond.expr, true)
                );
                self.block(then, depth + 1, out);
                if !els.is_empty() {
                    let _ = writeln!(out, "{ind}}} else {{");
                    self.block(els, depth + 1, out);
                }
                let _ = writeln!(out, "{ind}}}");
            }
            Stmt::While { cond, body, step } => {
                match cond {
                    Some(c) => {
                        let _ = writeln!(
                            out,
                            "{ind}{}: while ({}) {{",
                            c.id,
                            self.expr(&c.expr, true)
                        );
                    }
                    None => {
                        let _ = writeln!(out, "{ind}while (forever) {{");
                    }
                }
                self.block(body, depth + 1, out);
                match step {
                    Some(st) => {
                        let _ = writeln!(out, "{ind}}} step {{");
                        self.stmt(st, depth + 1, out);
                        let _ = writeln!(out, "{ind}}}");
                    }
                    None => {
                        let _ = writeln!(out, "{ind}}}");
                    }
                }
            }
            Stmt::DoWhile { body, cond } => {
                let _ = writeln!(out, "{ind}do {{");
                self.block(body, depth + 1, out);
                let _ = writeln!(
                    out,
                    "{ind}}} {}: while ({});",
                    cond.id,
                    self.expr(&cond.expr, true)
                );
            }
            Stmt::Switch {
                cond,
                body,
                cases,
                default,
            } => {
                let _ = writeln!(
                    out,
                    "{ind}{}: switch ({}) {{",
                    cond.id,
                    self.expr(&cond.expr, true)
                );
                for i in 0..=body.len() {
                    for c in cases.iter().filter(|c| c.target == i) {
                        let _ = writeln!(out, "{ind}case {}:", c.value);
                    }
                    if *default == Some(i) {
                        let _ = writeln!(out, "{ind}default:");
                    }
                    if let Some(st) = body.get(i) {
                        self.stmt(st, depth + 1, out);
                    }
                }
                let _ = writeln!(out, "{ind}}}");
            }
            Stmt::Return { id, value } => match value {
                Some(v) => {
                    let _ = writeln!(out, "{ind}{id}: return {};", self.expr(v, true));
                }
                None => {
                    let _ = writeln!(out, "{ind}{id}: return;");
                }
            },
            Stmt::Break { id } => {
                let _ = writeln!(out, "{ind}{id}: break;");
            }
            Stmt::Continue { id } => {
                let _ = writeln!(out, "{ind}{id}: continue;");
            }
            Stmt::Goto { id, label } => {
                let _ = writeln!(out, "{ind}{id}: goto L{};", label.0);
            }
            Stmt::Label { label } => {
                let _ = writeln!(out, "{ind}L{}:", label.0);
            }
        }
    }
}
