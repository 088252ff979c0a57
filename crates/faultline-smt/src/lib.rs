//! Encodings of programs and runs as Z3 formulas
