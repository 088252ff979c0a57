//! A readable rendering of the IR, for debugging and snapshot tests.
