//! Union definitions as the IR holds them: every member at byte 0 with its
//! own cells, gcc's size and alignment, anonymous members as unnamed fields.

use faultline_ir::{Layout, Type};

fn structs(src: &str) -> faultline_ir::Program {
    faultline_c::compile_source("t.c", src).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn members_share_byte_zero_and_have_their_own_cells() {
    let p = structs(
        "union U { char c[9]; double d; int i; };\nunion U g;\nint main(void) { return 0; }\n",
    );
    let d = &p.structs[0];
    assert!(d.union);
    let layout: Vec<(&str, u64, u64)> = d
        .fields
        .iter()
        .map(|f| (f.name.as_str(), f.cell_offset, f.byte_offset))
        .collect();
    assert_eq!(layout, vec![("c", 0, 0), ("d", 9, 0), ("i", 10, 0)]);
    assert_eq!((d.cells, d.size, d.align), (11, 16, 8));
    let u = Type::Struct(faultline_ir::StructId(0));
    assert_eq!(p.type_name(&u), "union U");
    assert!(p.has_union(&Type::Array(Box::new(u.clone()), 2)));
    assert_eq!(p.cell_byte_offset(&u, 9), Some(0));
    assert_eq!(p.cell_byte_offset(&u, 3), Some(3));
}

#[test]
fn anonymous_members_are_unnamed_fields() {
    let p = structs(
        "struct S { char k; union { struct { int w, h; }; long raw; }; int id; };\n\
         int main(void) { struct S s; s.h = 1; return s.h; }\n",
    );
    let s = p.structs.iter().find(|d| d.name == "S").expect("S");
    assert!(!s.union);
    let layout: Vec<(&str, u64, u64)> = s
        .fields
        .iter()
        .map(|f| (f.name.as_str(), f.cell_offset, f.byte_offset))
        .collect();
    assert_eq!(layout, vec![("k", 0, 0), ("", 1, 8), ("id", 4, 16)]);
    assert_eq!((s.size, s.align), (24, 8));
    let text = faultline_ir::pretty::program(&p);
    assert!(text.contains("s.h = 1"), "{text}");
}
