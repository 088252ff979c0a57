//! Interpreter, test suites, oracles, traces and coverage
