//! Checks that a corpus test's unrelaxed formula accepts the interpreter's run
//! (a debugging aid: `cargo run --example agree -- tests/programs/NAME TEST`).
use faultline_diagnose::bounds::Needs;
use faultline_exec::{ExecOptions, Executable, Input, TestCase};
use faultline_smt::{encode_test, AbVars, Encoding, IntSemantics, Sink};

fn main() {
    let a: Vec<String> = std::env::args().collect();
    if a.len() < 3 {
        eprintln!("usage: agree DIR TEST");
        std::process::exit(2);
    }
    let dir = std::path::Path::new(&a[1]);
    let name = &a[2];
    let prog = faultline_c::compile_file(&dir.join("prog.c")).expect("compiles");
    let stdin = std::fs::read(dir.join(format!("{name}.in"))).expect("input");
    let args: Vec<String> = std::fs::read_to_string(dir.join(format!("{name}.args")))
        .map(|s| s.split_whitespace().map(String::from).collect())
        .unwrap_or_default();
    let exe = Executable::new(&prog).expect("starts");
    let run = exe.run(
        Input {
            args: &args,
            stdin: &stdin,
            workdir: None,
        },
        ExecOptions {
            record_trace: true,
            ..Default::default()
        },
    );
    let needs = Needs::of_trace(&prog, run.trace.as_ref().expect("trace"));
    let bounds = needs.bounds(None);
    let test = TestCase {
        name: name.clone(),
        args,
        stdin,
        expected_stdout: run.stdout.clone(),
        expected_status: Some(run.exit_status()),
        workdir: None,
    };
    let solver = z3::Solver::new();
    let mut ab = AbVars::new();
    let enc = match encode_test(
        &prog,
        &test,
        Encoding::Full,
        IntSemantics::BitVector,
        &bounds,
        None,
        &mut ab,
        &Sink::new(&solver),
    ) {
        Ok(e) => e,
        Err(e) => {
            println!("cannot encode: {}", e.describe(&prog));
            return;
        }
    };
    let all: Vec<z3::ast::Bool> = ab.stmts().map(|(_, b)| b.not()).collect();
    let r = solver.check_assumptions(&all);
    println!("{r:?} ({} instances)", enc.instances);
    if r == z3::SatResult::Unsat {
        for (s, _) in ab.stmts() {
            let one: Vec<z3::ast::Bool> = ab
                .stmts()
                .map(|(t, c)| if t == s { c.clone() } else { c.not() })
                .collect();
            if solver.check_assumptions(&one) == z3::SatResult::Sat {
                println!(
                    "relaxing {} `{}` makes it satisfiable",
                    prog.stmt_pos(s),
                    prog.stmt(s).text
                );
            }
        }
    }
}
