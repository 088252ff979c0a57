//! Angelic values read from a model of a test's formula.

use crate::result::{Angelic, AngelicValue};
use crate::session::Session;
use faultline_exec::trace::Scope;
use faultline_ir::StmtId;
use faultline_smt::sym::SVal;
use faultline_smt::{InstValue, TestEncoding};
use std::collections::{BTreeSet, HashMap};
use z3::Model;

fn fmt_sval(v: &SVal, m: &Model) -> String {
    match v {
        SVal::Int(i) => i.eval(m).map_or_else(|| "?".into(), |x| x.to_string()),
        SVal::Float(f) => f.eval(m).map_or_else(|| "?".into(), |x| format!("{x}")),
        SVal::Ptr(_) => "a pointer".into(),
    }
}

/// The jump a model chose for a relaxed `break` or `continue`.
pub fn model_jump(m: &Model, leave: &z3::ast::Bool, next: &z3::ast::Bool) -> faultline_ir::Jump {
    let b = |x: &z3::ast::Bool| m.eval(x, true).and_then(|b| b.as_bool()).unwrap_or(false);
    faultline_smt::instances::jump_of(b(leave), b(next))
}

/// The computed value of a declaration without an initializer.
pub const UNINITIALIZED: &str = "uninitialized";

/// Reads the angelic values of `d`'s statements from a model of test `t`'s formula.
pub fn angelic_values(
    session: &Session,
    t: usize,
    enc: &TestEncoding,
    m: &Model,
    d: &BTreeSet<StmtId>,
) -> Vec<Angelic> {
    let expected = &session.formula_test(t).expected_stdout;
    let mut out: Vec<Angelic> = Vec::new();
    let mut texts: HashMap<(StmtId, Vec<Scope>), usize> = HashMap::new();
    for inst in &enc.relaxed {
        if !d.contains(&inst.stmt) {
            continue;
        }
        if m.eval(&inst.guard, true).and_then(|b| b.as_bool()) != Some(true) {
            continue;
        }
        let value = match &inst.value {
            InstValue::Scalar { chosen, computed } => AngelicValue::Value {
                needed: fmt_sval(chosen, m),
                // A declaration without an initializer computes nothing.
                computed: match session.prog.stmt(inst.stmt).kind {
                    faultline_ir::StmtKind::Declare => UNINITIALIZED.to_string(),
                    _ => fmt_sval(computed, m),
                },
            },
            InstValue::Argument {
                index,
                chosen,
                computed,
            } => AngelicValue::Argument {
                index: *index,
                needed: fmt_sval(chosen, m),
                computed: fmt_sval(computed, m),
            },
            InstValue::Branch { chosen, computed } => AngelicValue::Branch {
                needed: m
                    .eval(chosen, true)
                    .and_then(|b| b.as_bool())
                    .unwrap_or(false),
                computed: m
                    .eval(computed, true)
                    .and_then(|b| b.as_bool())
                    .unwrap_or(false),
            },
            InstValue::Jump {
                leave,
                next,
                computed,
            } => AngelicValue::Jump {
                needed: model_jump(m, leave, next),
                computed: *computed,
            },
            InstValue::Output { start, end } => {
                let s = m
                    .eval(start, true)
                    .and_then(|v| v.as_i64())
                    .unwrap_or(0)
                    .max(0) as usize;
                let e = m
                    .eval(end, true)
                    .and_then(|v| v.as_i64())
                    .unwrap_or(0)
                    .max(0) as usize;
                let text = expected
                    .get(s.min(expected.len())..e.min(expected.len()).max(s.min(expected.len())))
                    .unwrap_or(&[]);
                AngelicValue::Output {
                    text: String::from_utf8_lossy(text).into_owned(),
                }
            }
        };
        // A prints-only call's instance has a relaxed instance per event it
        // prints, in order: one text.
        let key = (inst.stmt, inst.ctx.clone());
        if let AngelicValue::Output { text } = &value {
            if let Some(&i) = texts.get(&key) {
                if let AngelicValue::Output { text: whole } = &mut out[i].value {
                    whole.push_str(text);
                }
                continue;
            }
            texts.insert(key, out.len());
        }
        out.push(Angelic {
            test: t,
            stmt: inst.stmt,
            ctx: inst.ctx.clone(),
            value,
        });
    }
    out
}
