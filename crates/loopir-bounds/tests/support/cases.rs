//! Running both bounds passes on one case directory (`bounds.input.stmt`,
//! `bounds.env.json`, `bounds.expected.stmt`, `allocbounds.*.stmt`) and classifying the
//! result: shared by the oracle corpus tests and the Halide 21 cases.

#![allow(dead_code)] // each test uses the part it needs

use std::path::{Path, PathBuf};

use loopir::parse::parse_stmt_with_env;
use loopir_bounds::BoundsError;
use loopir_bounds::allocation_bounds::allocation_bounds_inference;
use loopir_bounds::compute_bounds::computation_bounds_inference;
use loopir_bounds::env::BoundsEnv;
use loopir_bounds::func_value_bounds::func_value_bounds_of_definitions;
use loopir_simplify::Ctx;

use super::compare;

/// How a pass's output compares with the expected text.
pub enum Outcome {
    /// Printed byte for byte.
    Exact,
    /// The same statements and definitions in the same places, each value equal.
    Equivalent(compare::Verdict),
    /// Something is missing, extra or different (with a description).
    Differs(String),
    /// The pass refused the input.
    Unsupported(String),
}

/// The case directories under `dir` that hold `file`, sorted.
pub fn case_dirs(dir: &Path, file: &str) -> Vec<PathBuf> {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    dirs.retain(|d| d.join(file).exists());
    dirs.sort();
    dirs
}

/// The name of a case directory.
pub fn case_name(dir: &Path) -> String {
    dir.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_owned()
}

fn read(dir: &Path, f: &str) -> Result<String, String> {
    std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{f}: {e}"))
}

fn env_of(dir: &Path) -> Result<BoundsEnv, String> {
    BoundsEnv::from_json(&read(dir, "bounds.env.json")?).map_err(|e| e.to_string())
}

/// Computation bounds inference on `bounds.input.stmt`, against `bounds.expected.stmt`.
pub fn compute_case(dir: &Path) -> Outcome {
    compute_case_inner(dir).unwrap_or_else(Outcome::Differs)
}

fn compute_case_inner(dir: &Path) -> Result<Outcome, String> {
    let env = env_of(dir)?;
    let penv = env.parse_env();
    let input = parse_stmt_with_env(&read(dir, "bounds.input.stmt")?, &penv).map_err(|e| e.to_string())?;
    let expected_text = read(dir, "bounds.expected.stmt")?;
    let expected = parse_stmt_with_env(&expected_text, &penv).map_err(|e| e.to_string())?;
    let ctx = Ctx::new();
    ctx.seed_t(env.fresh_names.t.unwrap_or(0));
    let out = match computation_bounds_inference(&ctx, &input, &env) {
        Ok(out) => out,
        Err(BoundsError::Unsupported(m)) => return Ok(Outcome::Unsupported(m)),
        Err(e) => return Ok(Outcome::Differs(format!("error: {e}"))),
    };
    let text = out.to_string();
    if let Some(dump) = dump_dir() {
        let _ = std::fs::write(dump.join(format!("{}.stmt", case_name(dir))), &text);
    }
    if text == expected_text {
        return Ok(Outcome::Exact);
    }
    let verdict = compare::compare(&Ctx::new(), &out, &expected);
    if verdict.differences.is_empty() {
        return Ok(Outcome::Equivalent(verdict));
    }
    let first_line = loopir_testkit::text::first_difference(&expected_text, &text);
    Ok(Outcome::Differs(format!("{}\n  first differing {first_line}", verdict.differences.join("\n  "))))
}

/// Where `LOOPIR_DUMP_DIR` asks for every output to be written (to compare two builds);
/// set but empty is the same as unset, rather than the current directory.
fn dump_dir() -> Option<PathBuf> {
    std::env::var_os("LOOPIR_DUMP_DIR").filter(|d| !d.is_empty()).map(PathBuf::from)
}

/// The Func value bounds the reference hands to allocation bounds inference: computed
/// once, before computation bounds inference, from the definitions (here the Provides of
/// `bounds.input.stmt`), with `t` names drawn just before that pass's counter.
fn value_bounds_of_definitions(
    dir: &Path,
    env: &BoundsEnv,
) -> Result<loopir_bounds::FuncValueBounds, String> {
    let defs =
        parse_stmt_with_env(&read(dir, "bounds.input.stmt")?, &env.parse_env()).map_err(|e| e.to_string())?;
    Ok(func_value_bounds_of_definitions(&defs, env))
}

/// Allocation bounds inference on `allocbounds.input.stmt`: Ok with its text and whether
/// it equals `allocbounds.expected.stmt`.
pub fn alloc_text(dir: &Path) -> Result<(String, String), String> {
    let env = env_of(dir)?;
    let input = parse_stmt_with_env(&read(dir, "allocbounds.input.stmt")?, &env.parse_env())
        .map_err(|e| e.to_string())?;
    let fb = value_bounds_of_definitions(dir, &env)?;
    let out = allocation_bounds_inference(&input, &env, &fb, 0).map_err(|e| format!("error: {e}"))?;
    let text = out.to_string();
    if let Some(dump) = dump_dir() {
        let _ = std::fs::write(dump.join(format!("{}.alloc.stmt", case_name(dir))), &text);
    }
    Ok((text, read(dir, "allocbounds.expected.stmt")?))
}

/// The statement lines that are not lets: these must match the reference exactly.
fn skeleton(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.trim_start().starts_with("let ")).collect()
}

/// Allocation bounds inference against `allocbounds.expected.stmt`: exact text, or the
/// same non-let statements and the same definitions (names, places, values equal).
pub fn alloc_case(dir: &Path) -> Outcome {
    alloc_case_inner(dir).unwrap_or_else(Outcome::Differs)
}

fn alloc_case_inner(dir: &Path) -> Result<Outcome, String> {
    let (text, expected_text) = alloc_text(dir)?;
    if text == expected_text {
        return Ok(Outcome::Exact);
    }
    let (ours, theirs) = (skeleton(&text), skeleton(&expected_text));
    if ours != theirs {
        let line = ours
            .iter()
            .zip(&theirs)
            .find(|(a, b)| a != b)
            .map(|(a, b)| format!("\n  got:      {a}\n  expected: {b}"))
            .unwrap_or_else(|| format!(" ({} vs {} lines)", ours.len(), theirs.len()));
        return Ok(Outcome::Differs(format!("statements differ{line}")));
    }
    let penv = env_of(dir)?.parse_env();
    let expected = parse_stmt_with_env(&expected_text, &penv).map_err(|e| e.to_string())?;
    // Both sides as read back from their text, so that block nesting is the parser's.
    let reread = parse_stmt_with_env(&text, &penv).map_err(|e| format!("output: {e}"))?;
    let verdict = compare::compare(&Ctx::new(), &reread, &expected);
    if verdict.differences.is_empty() {
        Ok(Outcome::Equivalent(verdict))
    } else {
        Ok(Outcome::Differs(verdict.differences.join("\n  ")))
    }
}
