//! C front end: preprocess, parse, check and lower C to faultline's IR.
//!
//! ```text
//! bytes ──lex──▶ pp-tokens ──pp──▶ tokens ──parse──▶ AST ──lower──▶ faultline_ir::Program
//! ```
//!
//! * [`lex`]: bytes to preprocessing tokens, each with its exact source span.
//! * [`pp`]: a token-based preprocessor (`#include` of user files and of the
//!   built-in standard headers in [`headers`], object- and function-like
//!   macros with `#` and `##`, conditional inclusion). Tokens produced by a
//!   macro expansion carry the span of the whole invocation.
//! * [`parse`]: recursive descent to the syntax tree of [`ast`].
//! * `lower`: name resolution, type checking, and lowering to the IR, where
//!   every implicit conversion becomes an explicit `Cast`.
//!
//! # Statements and their text
//!
//! A `StmtId` is allocated, in source order, for every expression statement,
//! declaration with an initializer, `return`, `break`, `continue`, and the
//! condition of every `if`, `while`, `for`, `do` and `switch` (for a `for`:
//! its init, its condition, its step, then its body). `StmtInfo::text` is the
//! statement's original source text (macro names unexpanded) from its first
//! to its last token, comments removed and whitespace collapsed; for a
//! condition it is the controlling expression (`x >= 0`). A declaration with
//! a single declarator has the whole declaration as its text (`int x = 5;`);
//! in a declaration with several declarators, each initialized declarator is
//! its own statement, with the declarator and its initializer as text
//! (`int a = 1, b = 2;` gives `a = 1` and `b = 2`). A `for` statement's
//! expression init and step have their expression as text (`i = 0`, `i++`).
//!
//! # Lowering choices
//!
//! * A `Cast` node is emitted only when the types differ.
//! * Nested blocks are flattened into the enclosing IR block; each
//!   declaration gets its own `LocalId`, so scoping is fully resolved.
//! * `case` labels may appear anywhere in the switch body except inside the
//!   body of an `if`, loop or nested statement other than a plain block.
//! * Static locals become globals named `function.variable`.
//! * Global initializers are folded to constants (integer and floating
//!   arithmetic), or kept as address constants (`&g`, `&a[2]`, `"str"`).
//! * Calls of functions without a visible prototype (C89 implicit
//!   declarations, `f()` declarations) convert their arguments to the types
//!   of the definition's parameters.
//! * Library functions are recognized by name whether or not their header
//!   was included, unless the program defines a function of that name.
//!   Arguments of fixed parameters are converted to the C parameter types
//!   (`sqrt(int)` gets `(double)`), variadic arguments get the default
//!   argument promotions. `isprint`, `isgraph`, `ispunct`, `isxdigit`,
//!   `iscntrl` and `isblank` have no IR builtin: they are lowered to range
//!   tests yielding glibc's mask values (`c` is evaluated once, through a
//!   hidden local named `$ctype` when it has side effects).
//! * `assert(e)` (when `NDEBUG` is not defined) is `Builtin::Assert` with
//!   the arguments `[e, "text of e as written"]`.
//! * A null pointer constant converted to, or compared with, a pointer is
//!   `Cast(Int 0)` to that pointer type; `p++` on a pointer is
//!   `PtrAdd(Old, 1L)` and `p--` is `PtrAdd(Old, -1L)`.
//!
//! # What is accepted
//!
//! C89/C99 as written in small programs: implicit `int`, K&R definitions
//! and `f()` declarations, implicit declarations of functions defined later
//! in the file; all integer types (LP64), `float`, `double`, `_Bool`,
//! `typedef`, `enum`, structs (by value, nested, arrays of structs),
//! fixed-size arrays of any dimension (sizes from initializers, brace
//! elision, `[i] =` and `.f =` designators, string initializers), pointers
//! (to scalars, arrays, structs and functions: calls through pointers are
//! lowered to direct calls, see `lower/indirect.rs`), variable-length arrays
//! in block scope, `const`/`volatile`/`register`/`static`/`extern`/`auto`,
//! `sizeof`, every C operator, every statement (`goto` to a label of its
//! block or an enclosing one).
//! The built-in headers are `stdio.h`, `stdlib.h`, `string.h`, `strings.h`,
//! `math.h`, `ctype.h`, `assert.h`, `stdbool.h`, `limits.h`, `float.h`,
//! `stddef.h`, `stdint.h`, `inttypes.h` and `iso646.h`.
//!
//! # What is refused
//!
//! Every refusal is an [`Error`] whose message starts with `unsupported: `
//! and names the construct: `goto` into a nested block, bit-fields (also in
//! unions), more than one initializer for a union, a designator of a member
//! of an anonymous struct or union,
//! calls through pointers to unprototyped, variadic or struct-returning
//! functions, variadic function definitions, variable-length arrays with a
//! variable inner dimension, zero-length arrays, flexible array members, `long double`, complex types,
//! compound literals, statement expressions, `_Generic`, `_Atomic`,
//! `typeof`, inline assembly, casts between pointers and integers other
//! than the null constant, member access on a struct that is not an lvalue
//! (`f().x`), `case` labels inside an `if`/loop body of a switch, and
//! library functions faultline does not implement (`rand`, `fopen`, ...:
//! `unsupported: library function 'fopen'`). Other headers
//! are `unsupported header <name.h>`; unknown functions are
//! `call to undeclared function 'name'`.
//!
//! # Robustness
//!
//! No input makes the front end panic or overflow its stack: expressions,
//! statements, declarators and initializers nested deeper than
//! [`parse::MAX_DEPTH`] are errors, macro expansion and `#include` depth are
//! bounded, and compilation runs on a thread with a large stack.

pub mod ast;
pub mod headers;
pub mod lex;
pub mod literal;
mod lower;
pub mod parse;
pub mod pp;
pub mod source;

use std::fmt;
use std::path::{Path, PathBuf};

use faultline_ir::Program;

use source::{Diag, Files};

/// A compile error with its position. `line` and `col` are 1-based; both are
/// 0 when the error has no position (an unreadable file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Error {
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: error: {}", self.file, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: error: {}",
                self.file, self.line, self.col, self.message
            )
        }
    }
}

impl std::error::Error for Error {}

/// Compiles the C file at `path`. `#include "..."` is resolved relative to
/// the including file.
pub fn compile_file(path: &Path) -> Result<Program, Error> {
    let name = path.to_string_lossy().into_owned();
    let bytes = std::fs::read(path).map_err(|e| Error {
        file: name.clone(),
        line: 0,
        col: 0,
        message: format!("cannot read file: {e}"),
    })?;
    compile_bytes(name, Some(path.to_path_buf()), bytes)
}

/// Compiles `text` as the contents of a file called `name` (used in
/// locations and as `Program::files[0].name`; `#include "..."` is resolved
/// relative to its directory).
pub fn compile_source(name: &str, text: &str) -> Result<Program, Error> {
    compile_bytes(
        name.to_string(),
        Some(PathBuf::from(name)),
        text.as_bytes().to_vec(),
    )
}

/// Compiles raw bytes (which need not be UTF-8: invalid input is reported).
pub fn compile_bytes_named(name: &str, bytes: &[u8]) -> Result<Program, Error> {
    compile_bytes(name.to_string(), Some(PathBuf::from(name)), bytes.to_vec())
}

const STACK_SIZE: usize = 256 << 20;

fn compile_bytes(name: String, path: Option<PathBuf>, bytes: Vec<u8>) -> Result<Program, Error> {
    // Run on a thread with a large stack: the parser and lowering recurse
    // (to bounded depths) and debug builds use big frames.
    let n = name.clone();
    let worker = std::thread::Builder::new()
        .name("faultline-c".into())
        .stack_size(STACK_SIZE)
        .spawn(move || compile_inner(name, path, bytes));
    match worker {
        Ok(h) => h.join().unwrap_or_else(|_| {
            Err(Error {
                file: n,
                line: 0,
                col: 0,
                message: "internal error in the C front end".into(),
            })
        }),
        Err(_) => Err(Error {
            file: n,
            line: 0,
            col: 0,
            message: "cannot start the C front end".into(),
        }),
    }
}

fn compile_inner(name: String, path: Option<PathBuf>, bytes: Vec<u8>) -> Result<Program, Error> {
    let mut files = Files::default();
    if let Some((line, col)) = pp::utf8_error_pos(&bytes) {
        return Err(Error {
            file: name,
            line,
            col,
            message: "file is not valid UTF-8".into(),
        });
    }
    let text = String::from_utf8(bytes).unwrap_or_default();
    let main = files.add(name, path, text, true);
    let result = pp::preprocess(&mut files, main)
        .and_then(|toks| parse::parse(&toks))
        .and_then(|items| lower::lower(&files, &items, main));
    result.map_err(|d| to_error(&files, d))
}

fn to_error(files: &Files, d: Diag) -> Error {
    Error {
        file: files.name(d.span.file).to_string(),
        line: d.span.line.max(1),
        col: d.span.col.max(1),
        message: d.msg,
    }
}
