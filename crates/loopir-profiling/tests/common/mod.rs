//! Helpers shared by this crate's integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The oracle's `cases` directory: `$LOOPIR_ORACLE_CASES` if set, else the first
/// `shared/oracle/cases` found walking up from this crate (the shared directory sits next
/// to the checkout, `<repo>/../shared`, whether the checkout is the main one or a
/// worktree nested one level deeper).
pub fn oracle_cases() -> PathBuf {
    PathBuf::from(env!("LOOPIR_ORACLE_CASES"))
}

/// The fixtures directory of this pass (`<repo>/fixtures/profiling`).
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/profiling")
}
