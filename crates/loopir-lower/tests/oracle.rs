//! Storage flattening against the reference's oracle: every case's
//! `stages/NN.storage_flattening.stmt` is the reference's output for the stage file just
//! before it. The pass runs on that file with the case's bounds env (images inferred from
//! the IR, the fresh-name counter read from the reference's first new `t<N>`, neither of
//! which the bounds env carries) and must print the reference's text byte for byte, and
//! its output must reprint unchanged through the parser.

use std::path::{Path, PathBuf};

use loopir_bounds::env::BoundsEnv;
use loopir_lower::{FlattenEnv, infer_images, storage_flattening};

fn cases_dir() -> PathBuf {
    PathBuf::from(env!("LOOPIR_ORACLE_CASES"))
}

/// The stage file of storage flattening and the one before it.
fn stage_files(case: &Path) -> Option<(PathBuf, PathBuf)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(case.join("stages")).ok()?.flatten().map(|e| e.path()).collect();
    files.sort();
    let k = files.iter().position(|p| p.to_string_lossy().ends_with(".storage_flattening.stmt"))?;
    Some((files.get(k.checked_sub(1)?)?.clone(), files[k].clone()))
}

/// The `t<N>` numbers of a text.
fn t_numbers(text: &str) -> std::collections::BTreeSet<u64> {
    let bytes = text.as_bytes();
    let mut out = std::collections::BTreeSet::new();
    for (i, _) in text.match_indices('t') {
        let boundary = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b'.');
        let digits: String = text[i + 1..].chars().take_while(char::is_ascii_digit).collect();
        let after = bytes.get(i + 1 + digits.len()).copied();
        let ends = !after.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_');
        if boundary && !digits.is_empty() && ends {
            if let Ok(n) = digits.parse() {
                out.insert(n);
            }
        }
    }
    out
}

/// Runs the pass on one case: (output, expected).
pub fn run_case(case: &Path) -> Result<(String, String), String> {
    let (before, after) = stage_files(case).ok_or("no storage flattening stage")?;
    let input = std::fs::read_to_string(&before).map_err(|e| e.to_string())?;
    let expected = std::fs::read_to_string(&after).map_err(|e| e.to_string())?;
    let bounds_env = BoundsEnv::from_json(&std::fs::read_to_string(case.join("bounds.env.json")).map_err(|e| e.to_string())?)
        .map_err(|e| e.to_string())?;
    let mut env = FlattenEnv::from_bounds_env(&bounds_env).map_err(|e| e.to_string())?;
    let stmt = loopir::parse_stmt_with_env(&input, &env.parse_env()).map_err(|e| format!("parse: {e}"))?;
    env.images = infer_images(&stmt, &env);
    let before_t = t_numbers(&input);
    let first_new = t_numbers(&expected).into_iter().find(|n| !before_t.contains(n)).unwrap_or(0);
    let ctx = loopir_simplify::Ctx::new();
    ctx.seed_t(first_new);
    let out = storage_flattening(&ctx, &stmt, &env).map_err(|e| format!("pass: {e}"))?;
    Ok((out.to_string(), expected))
}

fn first_difference(expected: &str, actual: &str) -> String {
    for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
        if e != a {
            return format!("line {}:\n  expected: {e}\n  actual:   {a}", i + 1);
        }
    }
    format!("expected {} lines, got {}", expected.lines().count(), actual.lines().count())
}

#[test]
fn every_case_matches_the_reference() {
    let dir = cases_dir();
    assert!(dir.is_dir(), "the oracle corpus is missing: expected {}", dir.display());
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir).expect("readable").flatten().map(|e| e.path()).collect();
    cases.sort();
    let mut exact = Vec::new();
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        match run_case(case) {
            Ok((out, expected)) if out == expected => exact.push(name),
            Ok((out, expected)) => failures.push(format!("{name}: {}", first_difference(&expected, &out))),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    println!("exact: {}/{}", exact.len(), cases.len());
    for f in &failures {
        println!("{f}");
    }
    assert!(failures.is_empty(), "{} of {} cases differ", failures.len(), cases.len());
}
