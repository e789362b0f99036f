//! Where the reference compiler's oracle is: the `cases` directory of
//! `/work/shared/oracle` (its README describes the layout).
//!
//! The path comes from the variable [`VARIABLE`]. The workspace's `.cargo/config.toml`
//! sets it to `../shared/oracle/cases` relative to the checkout, because the shared
//! directory (oracle and specs) lies beside the checkout: `<dir>/shared` next to
//! `<dir>/<checkout>`, as CI lays it out and as every worktree `/work/<name>` sits next to
//! `/work/shared`. Setting the variable in the environment overrides the file.

use std::path::PathBuf;

/// The environment variable that names the oracle's `cases` directory.
pub const VARIABLE: &str = "LOOPIR_ORACLE_CASES";

/// The oracle's `cases` directory.
///
/// # Panics
///
/// When the variable is unset or does not name a directory, with one message saying
/// where the path comes from and how to fix it: a test that reads the oracle cannot run
/// without it, and silently running on nothing would pass for the wrong reason.
pub fn cases() -> PathBuf {
    // At run time first (cargo sets `[env]` for the tests and benches it runs, and a
    // variable exported in the shell wins), else the value the crate was built with.
    let path = std::env::var_os(VARIABLE)
        .map(PathBuf::from)
        .or_else(|| option_env!("LOOPIR_ORACLE_CASES").map(PathBuf::from));
    match path {
        Some(dir) if dir.is_dir() => dir,
        found => panic!("{}", missing_message(found)),
    }
}

/// One case directory of the oracle, `cases()/<name>` (not checked to exist: a test
/// that names a case reads its files and reports the missing one).
pub fn case(name: &str) -> PathBuf {
    cases().join(name)
}

fn missing_message(found: Option<PathBuf>) -> String {
    let what = match found {
        Some(dir) => format!("the oracle is missing: `{}` is not a directory", dir.display()),
        None => format!("the oracle is missing: {VARIABLE} is not set"),
    };
    format!(
        "{what}. {VARIABLE} names the oracle's `cases` directory; the workspace's \
         .cargo/config.toml sets it to `../shared/oracle/cases` relative to the checkout, \
         because the shared directory (oracle and specs) lies beside the checkout \
         (`<dir>/shared` next to `<dir>/<checkout>`, as in CI and for worktrees at \
         /work/<name>). Put the shared directory there, or set {VARIABLE} to the oracle's \
         `cases` directory."
    )
}

/// Profile cases where the reference named one of the pass's variables `name$1` although
/// the name was free in the input: its name counter is process-wide and bucketed by a
/// 14-bit hash, so a name an earlier pass of the same process requested can share a bucket
/// with one of the profiling pass's names. That state is not in the oracle's env files;
/// tests either rename the listed variables in the output or seed their counters at 1
/// (`fresh_names.prefixes`).
pub const REFERENCE_COUNTER_COLLISIONS: &[(&str, &[&str])] = &[
    ("app_bgu.cpu", &["profiler_func_buffer_func_ids", "profiler_func_parents"]),
    ("app_interpolate.cpu", &["profiler_func_buffer_func_ids"]),
    ("app_interpolate.cuda", &["profiler_func_buffer_func_ids"]),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_says_where_the_path_comes_from() {
        let m = missing_message(Some(PathBuf::from("/nowhere/shared/oracle/cases")));
        assert!(m.contains("`/nowhere/shared/oracle/cases` is not a directory"), "{m}");
        assert!(m.contains(".cargo/config.toml") && m.contains("../shared/oracle/cases"), "{m}");
        assert!(m.contains("beside the checkout"), "{m}");
        assert!(missing_message(None).contains("LOOPIR_ORACLE_CASES is not set"));
    }

    #[test]
    fn the_oracle_is_found_in_this_checkout() {
        assert!(cases().is_dir());
    }
}
