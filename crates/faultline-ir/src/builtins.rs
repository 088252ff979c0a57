//! The library functions faultline implements, defined once: name, C
//! signature, and the facts both semantics share (glibc's `<ctype.h>` table).
//! The front end lowers calls by [`Builtin::from_name`] and
//! [`Builtin::signature`]; the interpreter (`faultline-exec`) and the encoder
//! (`faultline-smt`) each implement the behaviour.

use crate::types::{IntKind, Type, CHAR, DOUBLE, INT, LONG, ULONG};

const UINT: Type = Type::Int(IntKind::UInt);

/// Library functions the interpreter and encoders implement themselves.
///
/// Adding one: a variant here, its entry in [`Builtin::ALL`], [`Builtin::name`]
/// and [`Builtin::signature`]; then its behaviour in the interpreter
/// (`faultline-exec`) and the encoder (`faultline-smt`), or a reason in
/// [`Builtin::encodable`]. The test `faultline-smt/tests/builtins.rs` runs every
/// builtin through the front end, the interpreter and the encoder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Builtin {
    /// `printf(fmt, ...)`: args `[fmt, ...]`.
    Printf,
    /// `fprintf(stream, fmt, ...)`: args `[stream, fmt, ...]`.
    Fprintf,
    Puts,
    Putchar,
    /// `scanf(fmt, ...)`: args `[fmt, pointers...]`.
    Scanf,
    Getchar,
    Atoi,
    Atol,
    Atof,
    Exit,
    Abs,
    Labs,
    Fabs,
    Sqrt,
    Pow,
    Floor,
    Ceil,
    Strlen,
    Strcmp,
    Strncmp,
    Strcpy,
    Strncpy,
    Strcat,
    /// `assert(e)`: args `[e, text]` where `text` is a string literal with the
    /// assertion's source text as written (used in the failure message).
    Assert,
    IsDigit,
    IsAlpha,
    IsAlnum,
    IsSpace,
    IsUpper,
    IsLower,
    ToUpper,
    ToLower,
    Fflush,
    // ----- heap -----
    /// `malloc(size)`: a heap block of `size` bytes, uninitialized.
    Malloc,
    /// `calloc(n, size)`: a heap block of `n * size` bytes, zeroed.
    Calloc,
    /// `realloc(p, size)`.
    Realloc,
    /// `free(p)`.
    Free,
    /// `strdup(s)`: a heap copy of the string `s`.
    Strdup,
    /// `__builtin_alloca(size)`: `size` bytes on the stack until the function
    /// returns; the storage of a variable-length array (`T a[n]` is lowered
    /// to a `T *` initialized with `(T *)__builtin_alloca(n * sizeof(T))`).
    Alloca,
    // ----- function pointers -----
    /// A call through a function pointer that points to no function of its
    /// type (null, or converted from another type): args `[pointer as void *]`.
    BadCall,
    /// `qsort(base, n, size, cmp)` as glibc sorts (its merge sort): args
    /// `[base, n, size, cmp, cells, elem_size]`, the last two added by the
    /// front end from `base`'s element type (cells and bytes per element).
    Qsort,
    /// `bsearch(key, base, n, size, cmp)`: args `[key, base, n, size, cmp,
    /// cells, elem_size]`.
    Bsearch,
    // ----- files, strings, math and the rest of the library (io-lib) -----
    /// `fopen(name, mode)`: a file of the test's working directory (reads), or
    /// the run's in-memory scratch files (writes); NULL when missing.
    Fopen,
    Fclose,
    /// `fgets(buf, n, stream)`.
    Fgets,
    Fgetc,
    Getc,
    /// `ungetc(c, stream)`.
    Ungetc,
    /// `fscanf(stream, fmt, ...)`: args `[stream, fmt, pointers...]`.
    Fscanf,
    /// `fputc(c, stream)`.
    Fputc,
    Putc,
    /// `fputs(s, stream)`.
    Fputs,
    Feof,
    Ferror,
    /// `gets(buf)`, as glibc still provides it.
    Gets,
    /// `sprintf(buf, fmt, ...)`: args `[buf, fmt, ...]`.
    Sprintf,
    /// `snprintf(buf, n, fmt, ...)`: args `[buf, n, fmt, ...]`.
    Snprintf,
    /// `sscanf(str, fmt, ...)`: args `[str, fmt, pointers...]`.
    Sscanf,
    Memcpy,
    Memmove,
    Memset,
    Memcmp,
    Strchr,
    Strrchr,
    Strstr,
    Strncat,
    Strtok,
    Strtol,
    Strtoul,
    Strtod,
    Log,
    Log10,
    Exp,
    Sin,
    Cos,
    Atan,
    Fmod,
    Round,
    /// glibc's `random` (TYPE_3 additive feedback generator), seed 1 by default.
    Rand,
    Srand,
    Abort,
}

/// The C signature of a library function.
#[derive(Clone, Debug, PartialEq)]
pub struct Signature {
    pub ret: Type,
    /// The C types of the fixed parameters.
    pub params: Vec<Type>,
    /// Whether further arguments follow (after the default argument promotions).
    pub variadic: bool,
}

impl Builtin {
    /// Every builtin, in declaration order.
    pub const ALL: [Builtin; 81] = [
        Builtin::Printf,
        Builtin::Fprintf,
        Builtin::Puts,
        Builtin::Putchar,
        Builtin::Scanf,
        Builtin::Getchar,
        Builtin::Atoi,
        Builtin::Atol,
        Builtin::Atof,
        Builtin::Exit,
        Builtin::Abs,
        Builtin::Labs,
        Builtin::Fabs,
        Builtin::Sqrt,
        Builtin::Pow,
        Builtin::Floor,
        Builtin::Ceil,
        Builtin::Strlen,
        Builtin::Strcmp,
        Builtin::Strncmp,
        Builtin::Strcpy,
        Builtin::Strncpy,
        Builtin::Strcat,
        Builtin::Assert,
        Builtin::IsDigit,
        Builtin::IsAlpha,
        Builtin::IsAlnum,
        Builtin::IsSpace,
        Builtin::IsUpper,
        Builtin::IsLower,
        Builtin::ToUpper,
        Builtin::ToLower,
        Builtin::Fflush,
        // heap
        Builtin::Malloc,
        Builtin::Calloc,
        Builtin::Realloc,
        Builtin::Free,
        Builtin::Strdup,
        Builtin::Alloca,
        Builtin::BadCall,
        Builtin::Qsort,
        Builtin::Bsearch,
        // io-lib
        Builtin::Fopen,
        Builtin::Fclose,
        Builtin::Fgets,
        Builtin::Fgetc,
        Builtin::Getc,
        Builtin::Ungetc,
        Builtin::Fscanf,
        Builtin::Fputc,
        Builtin::Putc,
        Builtin::Fputs,
        Builtin::Feof,
        Builtin::Ferror,
        Builtin::Gets,
        Builtin::Sprintf,
        Builtin::Snprintf,
        Builtin::Sscanf,
        Builtin::Memcpy,
        Builtin::Memmove,
        Builtin::Memset,
        Builtin::Memcmp,
        Builtin::Strchr,
        Builtin::Strrchr,
        Builtin::Strstr,
        Builtin::Strncat,
        Builtin::Strtok,
        Builtin::Strtol,
        Builtin::Strtoul,
        Builtin::Strtod,
        Builtin::Log,
        Builtin::Log10,
        Builtin::Exp,
        Builtin::Sin,
        Builtin::Cos,
        Builtin::Atan,
        Builtin::Fmod,
        Builtin::Round,
        Builtin::Rand,
        Builtin::Srand,
        Builtin::Abort,
    ];

    /// The C name of the function.
    pub fn name(self) -> &'static str {
        match self {
            Builtin::Printf => "printf",
            Builtin::Fprintf => "fprintf",
            Builtin::Puts => "puts",
            Builtin::Putchar => "putchar",
            Builtin::Scanf => "scanf",
            Builtin::Getchar => "getchar",
            Builtin::Atoi => "atoi",
            Builtin::Atol => "atol",
            Builtin::Atof => "atof",
            Builtin::Exit => "exit",
            Builtin::Abs => "abs",
            Builtin::Labs => "labs",
            Builtin::Fabs => "fabs",
            Builtin::Sqrt => "sqrt",
            Builtin::Pow => "pow",
            Builtin::Floor => "floor",
            Builtin::Ceil => "ceil",
            Builtin::Strlen => "strlen",
            Builtin::Strcmp => "strcmp",
            Builtin::Strncmp => "strncmp",
            Builtin::Strcpy => "strcpy",
            Builtin::Strncpy => "strncpy",
            Builtin::Strcat => "strcat",
            Builtin::Assert => "assert",
            Builtin::IsDigit => "isdigit",
            Builtin::IsAlpha => "isalpha",
            Builtin::IsAlnum => "isalnum",
            Builtin::IsSpace => "isspace",
            Builtin::IsUpper => "isupper",
            Builtin::IsLower => "islower",
            Builtin::ToUpper => "toupper",
            Builtin::ToLower => "tolower",
            Builtin::Fflush => "fflush",
            // heap
            Builtin::Malloc => "malloc",
            Builtin::Calloc => "calloc",
            Builtin::Realloc => "realloc",
            Builtin::Free => "free",
            Builtin::Alloca => "__builtin_alloca",
            Builtin::BadCall => "__faultline_bad_call",
            Builtin::Qsort => "qsort",
            Builtin::Bsearch => "bsearch",
            Builtin::Strdup => "strdup",
            // io-lib
            Builtin::Fopen => "fopen",
            Builtin::Fclose => "fclose",
            Builtin::Fgets => "fgets",
            Builtin::Fgetc => "fgetc",
            Builtin::Getc => "getc",
            Builtin::Ungetc => "ungetc",
            Builtin::Fscanf => "fscanf",
            Builtin::Fputc => "fputc",
            Builtin::Putc => "putc",
            Builtin::Fputs => "fputs",
            Builtin::Feof => "feof",
            Builtin::Ferror => "ferror",
            Builtin::Gets => "gets",
            Builtin::Sprintf => "sprintf",
            Builtin::Snprintf => "snprintf",
            Builtin::Sscanf => "sscanf",
            Builtin::Memcpy => "memcpy",
            Builtin::Memmove => "memmove",
            Builtin::Memset => "memset",
            Builtin::Memcmp => "memcmp",
            Builtin::Strchr => "strchr",
            Builtin::Strrchr => "strrchr",
            Builtin::Strstr => "strstr",
            Builtin::Strncat => "strncat",
            Builtin::Strtok => "strtok",
            Builtin::Strtol => "strtol",
            Builtin::Strtoul => "strtoul",
            Builtin::Strtod => "strtod",
            Builtin::Log => "log",
            Builtin::Log10 => "log10",
            Builtin::Exp => "exp",
            Builtin::Sin => "sin",
            Builtin::Cos => "cos",
            Builtin::Atan => "atan",
            Builtin::Fmod => "fmod",
            Builtin::Round => "round",
            Builtin::Rand => "rand",
            Builtin::Srand => "srand",
            Builtin::Abort => "abort",
        }
    }

    /// The builtin called `name` in C.
    pub fn from_name(name: &str) -> Option<Builtin> {
        Builtin::ALL.into_iter().find(|b| b.name() == name)
    }

    /// The C signature. `assert` is a macro: the front end accepts any scalar
    /// operand and passes the assertion's source text as a second argument
    /// (see [`Builtin::Assert`]).
    pub fn signature(self) -> Signature {
        use Builtin::*;
        let charp = || Type::ptr_to(CHAR);
        let voidp = || Type::ptr_to(Type::Void);
        let cmp = || {
            Type::ptr_to(Type::Func(Box::new(crate::types::FuncSig {
                ret: INT,
                params: Some(vec![voidp(), voidp()]),
                variadic: false,
            })))
        };
        let (ret, params, variadic) = match self {
            Printf => (INT, vec![charp()], true),
            Fprintf => (INT, vec![Type::Stream, charp()], true),
            Puts => (INT, vec![charp()], false),
            Putchar => (INT, vec![INT], false),
            Scanf => (INT, vec![charp()], true),
            Getchar => (INT, vec![], false),
            Atoi => (INT, vec![charp()], false),
            Atol => (LONG, vec![charp()], false),
            Atof => (DOUBLE, vec![charp()], false),
            Exit => (Type::Void, vec![INT], false),
            Abs => (INT, vec![INT], false),
            Labs => (LONG, vec![LONG], false),
            Fabs => (DOUBLE, vec![DOUBLE], false),
            Sqrt => (DOUBLE, vec![DOUBLE], false),
            Pow => (DOUBLE, vec![DOUBLE, DOUBLE], false),
            Floor => (DOUBLE, vec![DOUBLE], false),
            Ceil => (DOUBLE, vec![DOUBLE], false),
            Strlen => (ULONG, vec![charp()], false),
            Strcmp => (INT, vec![charp(), charp()], false),
            Strncmp => (INT, vec![charp(), charp(), ULONG], false),
            Strcpy => (charp(), vec![charp(), charp()], false),
            Strncpy => (charp(), vec![charp(), charp(), ULONG], false),
            Strcat => (charp(), vec![charp(), charp()], false),
            Assert => (Type::Void, vec![INT], false),
            IsDigit | IsAlpha | IsAlnum | IsSpace | IsUpper | IsLower | ToUpper | ToLower => {
                (INT, vec![INT], false)
            }
            Fflush => (INT, vec![Type::Stream], false),
            // heap
            Malloc => (voidp(), vec![ULONG], false),
            Calloc => (voidp(), vec![ULONG, ULONG], false),
            Realloc => (voidp(), vec![voidp(), ULONG], false),
            Free => (Type::Void, vec![voidp()], false),
            Strdup => (charp(), vec![charp()], false),
            Alloca => (voidp(), vec![ULONG], false),
            BadCall => (Type::Void, vec![voidp()], false),
            Qsort => (Type::Void, vec![voidp(), ULONG, ULONG, cmp()], false),
            Bsearch => (voidp(), vec![voidp(), voidp(), ULONG, ULONG, cmp()], false),
            // io-lib
            Fopen => (Type::Stream, vec![charp(), charp()], false),
            Fclose | Fgetc | Getc | Feof | Ferror => (INT, vec![Type::Stream], false),
            Fgets => (charp(), vec![charp(), INT, Type::Stream], false),
            Ungetc | Fputc | Putc => (INT, vec![INT, Type::Stream], false),
            Fscanf => (INT, vec![Type::Stream, charp()], true),
            Fputs => (INT, vec![charp(), Type::Stream], false),
            Gets => (charp(), vec![charp()], false),
            Sprintf | Sscanf => (INT, vec![charp(), charp()], true),
            Snprintf => (INT, vec![charp(), ULONG, charp()], true),
            Memcpy | Memmove => (voidp(), vec![voidp(), voidp(), ULONG], false),
            Memset => (voidp(), vec![voidp(), INT, ULONG], false),
            Memcmp => (INT, vec![voidp(), voidp(), ULONG], false),
            Strchr | Strrchr => (charp(), vec![charp(), INT], false),
            Strstr | Strtok => (charp(), vec![charp(), charp()], false),
            Strncat => (charp(), vec![charp(), charp(), ULONG], false),
            Strtol => (LONG, vec![charp(), Type::ptr_to(charp()), INT], false),
            Strtoul => (ULONG, vec![charp(), Type::ptr_to(charp()), INT], false),
            Strtod => (DOUBLE, vec![charp(), Type::ptr_to(charp())], false),
            Log | Log10 | Exp | Sin | Cos | Atan | Round => (DOUBLE, vec![DOUBLE], false),
            Fmod => (DOUBLE, vec![DOUBLE, DOUBLE], false),
            Rand => (INT, vec![], false),
            Srand => (Type::Void, vec![UINT], false),
            Abort => (Type::Void, vec![], false),
        };
        Signature {
            ret,
            params,
            variadic,
        }
    }

    /// Whether the builtin writes to stdout/stderr.
    pub fn is_output(self) -> bool {
        matches!(
            self,
            Builtin::Printf
                | Builtin::Fprintf
                | Builtin::Puts
                | Builtin::Putchar
                // io-lib
                | Builtin::Fputc
                | Builtin::Putc
                | Builtin::Fputs
        )
    }

    /// Whether the builtin's result is the test's input (`atoi`/`atol`/`atof`
    /// of `argv`, `getchar`, `scanf`): a hard fact of the test, never a
    /// statement to suspect.
    pub fn is_input(self) -> bool {
        matches!(
            self,
            Builtin::Atoi
                | Builtin::Atol
                | Builtin::Atof
                | Builtin::Getchar
                | Builtin::Scanf
                // io-lib
                | Builtin::Fgets
                | Builtin::Fgetc
                | Builtin::Getc
                | Builtin::Gets
                | Builtin::Fscanf
        )
    }

    /// Whether the builtin writes through its `i`-th argument (a pointer),
    /// for the defs of the statement calling it.
    pub fn writes_arg(self, i: usize) -> bool {
        use Builtin::*;
        match self {
            Strcpy | Strncpy | Strcat => i == 0,
            Scanf => i > 0,
            // io-lib
            Fgets | Gets | Sprintf | Snprintf | Memcpy | Memmove | Memset | Strncat | Strtok => {
                i == 0
            }
            Fscanf | Sscanf => i > 1,
            Strtol | Strtoul | Strtod => i == 1,
            _ => false,
        }
    }

    /// Whether the encoder implements the builtin; if not, why (the encoder
    /// then reports it as unsupported). Every builtin the encoder does not
    /// implement must say so here (checked by `faultline-smt/tests/builtins.rs`).
    pub fn encodable(self) -> Result<(), &'static str> {
        use Builtin::*;
        match self {
            Builtin::Qsort | Builtin::Bsearch => Err(
                "qsort and bsearch (calls of a comparator from the library) are not encoded yet",
            ),
            // io-lib (issue 13 encodes them)
            Sprintf | Snprintf => Err("sprintf and snprintf are not encoded yet"),
            Strncat | Strtok => Err("strncat and strtok are not encoded yet"),
            _ => Ok(()),
        }
    }

    /// The character class a classifier (`isdigit`, ...) tests, or the class
    /// a case conversion maps from (`toupper`: lower case, `tolower`: upper case).
    pub fn ctype_class(self) -> Option<&'static CtypeClass> {
        let name = match self {
            Builtin::IsDigit => "isdigit",
            Builtin::IsAlpha => "isalpha",
            Builtin::IsAlnum => "isalnum",
            Builtin::IsSpace => "isspace",
            Builtin::IsUpper | Builtin::ToLower => "isupper",
            Builtin::IsLower | Builtin::ToUpper => "islower",
            _ => return None,
        };
        CtypeClass::by_name(name)
    }
}

/// A `<ctype.h>` class in glibc's C locale: the classifier's name, the bit of
/// glibc's `__ctype_b` table it returns for members (e.g. `isdigit('0')` is
/// 2048), and its members as inclusive character ranges. The one copy of these
/// facts: the interpreter tests membership with [`CtypeClass::contains`], the
/// encoder and the front end (for the classifiers without a [`Builtin`])
/// build range tests from [`CtypeClass::ranges`], in this order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CtypeClass {
    pub name: &'static str,
    pub mask: i64,
    pub ranges: &'static [(u8, u8)],
}

/// Every `<ctype.h>` classifier faultline knows.
pub const CTYPE_CLASSES: &[CtypeClass] = &[
    CtypeClass {
        name: "isupper",
        mask: 256,
        ranges: &[(b'A', b'Z')],
    },
    CtypeClass {
        name: "islower",
        mask: 512,
        ranges: &[(b'a', b'z')],
    },
    CtypeClass {
        name: "isalpha",
        mask: 1024,
        ranges: &[(b'A', b'Z'), (b'a', b'z')],
    },
    CtypeClass {
        name: "isdigit",
        mask: 2048,
        ranges: &[(b'0', b'9')],
    },
    CtypeClass {
        name: "isspace",
        mask: 8192,
        ranges: &[
            (b' ', b' '),
            (b'\t', b'\t'),
            (b'\n', b'\n'),
            (b'\r', b'\r'),
            (0x0b, 0x0b),
            (0x0c, 0x0c),
        ],
    },
    CtypeClass {
        name: "isalnum",
        mask: 8,
        ranges: &[(b'A', b'Z'), (b'a', b'z'), (b'0', b'9')],
    },
    CtypeClass {
        name: "isprint",
        mask: 16384,
        ranges: &[(32, 126)],
    },
    CtypeClass {
        name: "isgraph",
        mask: 32768,
        ranges: &[(33, 126)],
    },
    CtypeClass {
        name: "ispunct",
        mask: 4,
        ranges: &[(33, 47), (58, 64), (91, 96), (123, 126)],
    },
    CtypeClass {
        name: "isxdigit",
        mask: 4096,
        ranges: &[(48, 57), (65, 70), (97, 102)],
    },
    CtypeClass {
        name: "iscntrl",
        mask: 2,
        ranges: &[(0, 31), (127, 127)],
    },
    CtypeClass {
        name: "isblank",
        mask: 1,
        ranges: &[(9, 9), (32, 32)],
    },
];

impl CtypeClass {
    /// The class tested by the classifier called `name`.
    pub fn by_name(name: &str) -> Option<&'static CtypeClass> {
        CTYPE_CLASSES.iter().find(|c| c.name == name)
    }

    /// Whether the `int` argument `c` is a member (values outside
    /// `0..=255` belong to no class).
    pub fn contains(&self, c: i64) -> bool {
        self.ranges
            .iter()
            .any(|&(lo, hi)| (lo as i64..=hi as i64).contains(&c))
    }

    /// What the classifier returns for `c`: the mask for members, else 0.
    pub fn classify(&self, c: i64) -> i64 {
        if self.contains(c) {
            self.mask
        } else {
            0
        }
    }
}
