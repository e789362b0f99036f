//! Allocation bounds inference against the oracle corpus (spec §4.6 P15–P17): every case
//! with `allocbounds.input.stmt` is run; the cases whose ends need only the linear
//! simplifier rules (and the two ShiftInwards cases) must match the reference byte for
//! byte; every other case must have the same statements and the same definitions in the
//! same places, each value equal to the reference's (structurally, proved, or on random
//! assignments of its free variables, floats included).

use std::path::{Path, PathBuf};

use loopir::parse::parse_stmt_with_env;
use loopir_bounds::Ctx;
use loopir_bounds::allocation_bounds::allocation_bounds_inference;
use loopir_bounds::env::BoundsEnv;
use loopir_bounds::func_value_bounds::func_value_bounds_of_definitions;

#[path = "support/compare.rs"]
mod compare;

fn cases_dir() -> PathBuf {
    PathBuf::from(env!("LOOPIR_ORACLE_CASES"))
}

/// The Func value bounds the reference hands to allocation bounds inference: computed
/// once, before computation bounds inference, from the definitions (here the Provides of
/// `bounds.input.stmt`), with `t` names drawn just before that pass's counter.
fn value_bounds_of_definitions(
    dir: &Path,
    env: &BoundsEnv,
) -> Result<loopir_bounds::FuncValueBounds, String> {
    let text = std::fs::read_to_string(dir.join("bounds.input.stmt")).map_err(|e| e.to_string())?;
    let defs = parse_stmt_with_env(&text, &env.parse_env()).map_err(|e| e.to_string())?;
    Ok(func_value_bounds_of_definitions(&defs, env))
}

/// Runs the pass on one case: Ok(true) if the output equals the reference text.
fn run_case(dir: &Path) -> Result<(bool, String), String> {
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{f}: {e}"));
    let env = BoundsEnv::from_json(&read("bounds.env.json")?).map_err(|e| e.to_string())?;
    let input =
        parse_stmt_with_env(&read("allocbounds.input.stmt")?, &env.parse_env()).map_err(|e| e.to_string())?;
    let expected = read("allocbounds.expected.stmt")?;
    let fb = value_bounds_of_definitions(dir, &env)?;
    let out = allocation_bounds_inference(&input, &env, &fb, 0).map_err(|e| e.to_string())?;
    let text = out.to_string();
    Ok((text == expected, first_difference(&text, &expected)))
}

fn first_difference(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}:\n  got:      {x}\n  expected: {y}", i + 1);
        }
    }
    if a.lines().count() != b.lines().count() { "different line counts".into() } else { String::new() }
}

const EXACT: &[&str] = &[
    "serial_chain.cpu",
    "hoist_storage.cpu",
    "sliding_window.cpu",
    "tuple_func.cpu",
    "update_stages.cpu",
    "two_parents.cpu",
    "wrapper_in.cpu",
    "multi_output.cpu",
    "extern_stage.cpu",
    "heap_and_stack.cpu",
    "two_stage_root.cpu",
    "compute_at_nesting.cpu",
    "two_stage_root.trace",
    "compute_at_nesting.cuda",
    "gpu_basic.cuda",
];

#[test]
fn p15_p17_linear_cases_are_byte_exact() {
    if !cases_dir().exists() {
        eprintln!("oracle corpus not present; skipping");
        return;
    }
    let mut failures = Vec::new();
    for case in EXACT {
        match run_case(&cases_dir().join(case)) {
            Ok((true, _)) => {}
            Ok((false, diff)) => failures.push(format!("{case}: {diff}")),
            Err(e) => failures.push(format!("{case}: error {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The statement lines that are not lets: these must match the reference exactly.
fn skeleton(text: &str) -> Vec<&str> {
    text.lines().filter(|l| !l.trim_start().starts_with("let ")).collect()
}

/// How one case compares: exact text, or the same skeleton and definitions (names,
/// places, values equal structurally, proved, or on random assignments), or a
/// difference (with a description).
enum Outcome {
    Exact,
    Equivalent(compare::Verdict),
    Differs(String),
}

fn classify(dir: &Path) -> Result<Outcome, String> {
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{f}: {e}"));
    let env = BoundsEnv::from_json(&read("bounds.env.json")?).map_err(|e| e.to_string())?;
    let penv = env.parse_env();
    let input = parse_stmt_with_env(&read("allocbounds.input.stmt")?, &penv).map_err(|e| e.to_string())?;
    let expected_text = read("allocbounds.expected.stmt")?;
    let expected = parse_stmt_with_env(&expected_text, &penv).map_err(|e| e.to_string())?;
    let fb = value_bounds_of_definitions(dir, &env)?;
    let out = allocation_bounds_inference(&input, &env, &fb, 0).map_err(|e| format!("error: {e}"))?;
    let text = out.to_string();
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
    // Both sides as read back from their text, so that block nesting is the parser's.
    let reread = parse_stmt_with_env(&text, &penv).map_err(|e| format!("output: {e}"))?;
    let verdict = compare::compare(&Ctx::new(), &reread, &expected);
    if verdict.differences.is_empty() {
        Ok(Outcome::Equivalent(verdict))
    } else {
        Ok(Outcome::Differs(verdict.differences.join("\n  ")))
    }
}

/// (exact, equivalent) over the corpus; no case may differ or fail except those in
/// [`KNOWN_DIFFERENCES`]. A change of either count (better or worse) must update this.
const PINNED: (usize, usize) = (44, 16);

/// Cases that differ from the reference, each with what differs. A listed case that stops
/// differing fails the test too (remove it here).
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[];

#[test]
fn corpus_allocations_match_the_reference() {
    if !cases_dir().exists() {
        return;
    }
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    dirs.sort();
    let (mut exact, mut equivalent, mut failures) = (0, 0, Vec::new());
    let (mut structural, mut proved, mut sampled, mut skipped) = (0, 0, 0, 0);
    for dir in dirs.iter().filter(|d| d.join("allocbounds.input.stmt").exists()) {
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_owned();
        match classify(dir) {
            Ok(Outcome::Exact) => exact += 1,
            Ok(Outcome::Equivalent(v)) => {
                eprintln!(
                    "{name}: equivalent ({} definitions: {} structurally equal, {} proved, {} equal on samples, {} not evaluable)",
                    v.defs, v.structural, v.proved, v.sampled, v.skipped
                );
                equivalent += 1;
                structural += v.structural;
                proved += v.proved;
                sampled += v.sampled;
                skipped += v.skipped;
            }
            Ok(Outcome::Differs(d)) => failures.push(format!("{name}: {d}")),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!(
        "allocation bounds: {exact} exact, {equivalent} equivalent, {} differ; in the equivalent cases {structural} values structurally equal, {proved} proved, {sampled} equal on samples, {skipped} not evaluable",
        failures.len()
    );
    let (known, unexpected): (Vec<&String>, Vec<&String>) = failures
        .iter()
        .partition(|f| KNOWN_DIFFERENCES.iter().any(|(c, _)| f.starts_with(&format!("{c}: "))));
    for f in &known {
        eprintln!("known difference: {f}");
    }
    assert!(
        unexpected.is_empty(),
        "cases differ:\n{}",
        unexpected.iter().map(|s| s.as_str()).collect::<Vec<_>>().join("\n")
    );
    assert_eq!(
        known.len(),
        KNOWN_DIFFERENCES.len(),
        "a known difference no longer differs: update KNOWN_DIFFERENCES"
    );
    assert_eq!((exact, equivalent), PINNED, "counts changed: update PINNED if this is progress");
}
