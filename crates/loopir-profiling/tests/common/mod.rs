//! Helpers shared by this crate's integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

/// The oracle's `cases` directory: `$LOOPIR_ORACLE_CASES` if set, else the first
/// `shared/oracle/cases` found walking up from this crate (the shared directory sits next
/// to the checkout, `<repo>/../shared`, whether the checkout is the main one or a
/// worktree nested one level deeper).
pub fn oracle_cases() -> PathBuf {
    if let Some(dir) = std::env::var_os("LOOPIR_ORACLE_CASES") {
        return PathBuf::from(dir);
    }
    let start = Path::new(env!("CARGO_MANIFEST_DIR"));
    for dir in start.ancestors() {
        let candidate = dir.join("shared/oracle/cases");
        if candidate.is_dir() {
            return candidate;
        }
    }
    panic!("the oracle corpus is missing: no shared/oracle/cases above {}", start.display());
}

/// The fixtures directory of this pass (`<repo>/fixtures/profiling`).
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/profiling")
}
