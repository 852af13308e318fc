//! The fuzz targets' invariants. They live in one file shared with their proptest mirrors
//! (`crates/txc-core/tests/fuzz_mirrors.rs`), so the normal test suite checks exactly what the
//! fuzzer checks.

#[path = "../../crates/txc-core/tests/support/fuzz_invariants.rs"]
mod invariants;

pub use invariants::*;
