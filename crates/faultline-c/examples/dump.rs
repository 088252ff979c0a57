//! Prints the IR of a C file: `cargo run -p faultline-c --example dump -- FILE.c`.

fn main() {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: dump FILE.c");
        std::process::exit(2);
    };
    match faultline_c::compile_file(std::path::Path::new(&path)) {
        Ok(p) => {
            print!("{}", faultline_ir::pretty::program(&p));
            println!();
            for (i, s) in p.stmts.iter().enumerate() {
                println!("s{i} {}:{} {:?} {}", s.loc.line, s.loc.col, s.kind, s.text);
            }
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
