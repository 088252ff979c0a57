//! The single definition of the library functions (`faultline_ir::builtins`):
//! names, signatures and glibc's `<ctype.h>` table.

use faultline_ir::builtins::CTYPE_CLASSES;
use faultline_ir::{Builtin, CtypeClass, Type, CHAR, INT};
use std::collections::BTreeSet;

#[test]
fn names_are_unique_and_round_trip() {
    let names: BTreeSet<&str> = Builtin::ALL.iter().map(|b| b.name()).collect();
    assert_eq!(names.len(), Builtin::ALL.len());
    for b in Builtin::ALL {
        assert_eq!(Builtin::from_name(b.name()), Some(b));
    }
    assert_eq!(Builtin::from_name("setjmp"), None);
    assert_eq!(
        Builtin::from_name("isprint"),
        None,
        "lowered to range tests"
    );
}

#[test]
fn signatures() {
    let sig = Builtin::Fprintf.signature();
    assert_eq!(sig.params, [Type::Stream, Type::ptr_to(CHAR)]);
    assert!(sig.variadic);
    assert_eq!(sig.ret, INT);
    let sig = Builtin::Strncpy.signature();
    assert_eq!(sig.ret, Type::ptr_to(CHAR));
    assert_eq!(sig.params.len(), 3);
    assert!(!sig.variadic);
    assert!(Builtin::Getchar.signature().params.is_empty());
    let sig = Builtin::Fgets.signature();
    assert_eq!(sig.params, [Type::ptr_to(CHAR), INT, Type::Stream]);
    assert_eq!(sig.ret, Type::ptr_to(CHAR));
    assert_eq!(Builtin::Fopen.signature().ret, Type::Stream);
    let sig = Builtin::Memcpy.signature();
    assert_eq!(sig.ret, Type::ptr_to(Type::Void));
    assert_eq!(sig.params[1], Type::ptr_to(Type::Void));
    // What the analysis takes as written through pointer arguments.
    assert!(Builtin::Fgets.writes_arg(0) && !Builtin::Fgets.writes_arg(2));
    assert!(Builtin::Sscanf.writes_arg(2) && !Builtin::Sscanf.writes_arg(0));
    assert!(Builtin::Strtol.writes_arg(1) && !Builtin::Strtol.writes_arg(0));
    for b in Builtin::ALL {
        assert_eq!(
            b.signature().variadic,
            matches!(
                b,
                Builtin::Printf
                    | Builtin::Fprintf
                    | Builtin::Scanf
                    | Builtin::Fscanf
                    | Builtin::Sprintf
                    | Builtin::Snprintf
                    | Builtin::Sscanf
            ),
            "{}",
            b.name()
        );
    }
}

/// glibc's classification in the C locale, written independently of the table.
fn glibc(name: &str, c: u8) -> bool {
    match name {
        "isupper" => c.is_ascii_uppercase(),
        "islower" => c.is_ascii_lowercase(),
        "isalpha" => c.is_ascii_alphabetic(),
        "isdigit" => c.is_ascii_digit(),
        "isspace" => matches!(c, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c),
        "isalnum" => c.is_ascii_alphanumeric(),
        "isprint" => (32..127).contains(&c),
        "isgraph" => c.is_ascii_graphic(),
        "ispunct" => c.is_ascii_punctuation(),
        "isxdigit" => c.is_ascii_hexdigit(),
        "iscntrl" => c.is_ascii_control(),
        "isblank" => c == b' ' || c == b'\t',
        _ => panic!("unknown class {name}"),
    }
}

#[test]
fn ctype_table_is_glibcs() {
    let masks: Vec<(&str, i64)> = CTYPE_CLASSES.iter().map(|c| (c.name, c.mask)).collect();
    assert_eq!(
        masks,
        [
            ("isupper", 256),
            ("islower", 512),
            ("isalpha", 1024),
            ("isdigit", 2048),
            ("isspace", 8192),
            ("isalnum", 8),
            ("isprint", 16384),
            ("isgraph", 32768),
            ("ispunct", 4),
            ("isxdigit", 4096),
            ("iscntrl", 2),
            ("isblank", 1),
        ]
    );
    for class in CTYPE_CLASSES {
        for c in 0..=255u8 {
            assert_eq!(
                class.contains(c as i64),
                glibc(class.name, c),
                "{}({c})",
                class.name
            );
            let expected = if glibc(class.name, c) { class.mask } else { 0 };
            assert_eq!(class.classify(c as i64), expected);
        }
        // EOF and values outside `unsigned char` belong to no class.
        for c in [-1, -128, 256, 1000] {
            assert!(!class.contains(c), "{}({c})", class.name);
        }
    }
}

#[test]
fn ctype_builtins_name_their_class() {
    for b in Builtin::ALL {
        let class = b.ctype_class();
        match b {
            Builtin::ToUpper => assert_eq!(class, CtypeClass::by_name("islower")),
            Builtin::ToLower => assert_eq!(class, CtypeClass::by_name("isupper")),
            _ if b.name().starts_with("is") => {
                assert_eq!(class.map(|c| c.name), Some(b.name()))
            }
            _ => assert_eq!(class, None, "{}", b.name()),
        }
    }
}
