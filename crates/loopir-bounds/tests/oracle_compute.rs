//! Computation bounds inference against the oracle corpus (spec §4.6 P01–P10, §2.3.12):
//! the worked cases must match the reference byte for byte; every case of the corpus is
//! run and classified as exact (byte for byte), equivalent (the same `let` names in the
//! same places, every value equal to the reference's: structurally, proved, or on random
//! integer assignments), differing (fails the test) or unsupported (refused by the pass).

use std::path::{Path, PathBuf};

use loopir::parse::{ParseEnv, parse_stmt_with_env};
use loopir_bounds::compute_bounds::computation_bounds_inference;
use loopir_bounds::env::BoundsEnv;
use loopir_bounds::{BoundsError, Ctx};

#[path = "support/compare.rs"]
mod compare;

fn cases_dir() -> PathBuf {
    PathBuf::from(env!("LOOPIR_ORACLE_CASES"))
}

/// The outcome of one case.
enum Outcome {
    /// Printed byte for byte.
    Exact,
    /// Same definitions in the same places with equal values.
    Equivalent(compare::Verdict),
    /// Some definition is missing, extra or different.
    Differs(String),
    /// The pass refused the input.
    Unsupported(String),
}

fn run_case(dir: &Path) -> Outcome {
    match try_case(dir) {
        Ok(o) => o,
        Err(e) => Outcome::Differs(e),
    }
}

fn try_case(dir: &Path) -> Result<Outcome, String> {
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{f}: {e}"));
    let env = BoundsEnv::from_json(&read("bounds.env.json")?).map_err(|e| e.to_string())?;
    let penv = env.parse_env();
    let input = parse_stmt_with_env(&read("bounds.input.stmt")?, &penv).map_err(|e| e.to_string())?;
    let expected_text = read("bounds.expected.stmt")?;
    let expected = parse_stmt_with_env(&expected_text, &penv).map_err(|e| e.to_string())?;
    let ctx = Ctx::new();
    ctx.seed_t(env.fresh_names.t.unwrap_or(0));
    let out = match computation_bounds_inference(&ctx, &input, &env) {
        Ok(out) => out,
        Err(BoundsError::Unsupported(m)) => return Ok(Outcome::Unsupported(m)),
        Err(e) => return Ok(Outcome::Differs(format!("error: {e}"))),
    };
    let text = out.to_string();
    if let Some(dump) = std::env::var_os("LOOPIR_DUMP_DIR") {
        let name = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let _ = std::fs::write(Path::new(&dump).join(format!("{name}.stmt")), &text);
    }
    if text == expected_text {
        return Ok(Outcome::Exact);
    }
    let verdict = compare::compare(&Ctx::new(), &out, &expected);
    if verdict.differences.is_empty() {
        return Ok(Outcome::Equivalent(verdict));
    }
    let first_line = text
        .lines()
        .zip(expected_text.lines())
        .enumerate()
        .find(|(_, (a, b))| a != b)
        .map(|(i, (a, b))| format!("first differing line {}:\n  got:      {a}\n  expected: {b}", i + 1))
        .unwrap_or_default();
    Ok(Outcome::Differs(format!("{}\n  {first_line}", verdict.differences.join("\n  "))))
}

/// Cases that must stay byte-exact: the worked cases of spec §2.3.9 and the corpus cases
/// with updates, explicit bounds, output constraints, extern stages and fused loops.
const EXACT: &[&str] = &[
    "two_stage_root.cpu",
    "compute_at_nesting.cpu",
    "serial_chain.cpu",
    "hoist_storage.cpu",
    "sliding_window.cpu",
    "tuple_func.cpu",
    "wrapper_in.cpu",
    "multi_output.cpu",
    "update_stages.cpu",
    "two_parents.cpu",
    "extern_stage.cpu",
    "heap_and_stack.cpu",
    "app_conv_layer.cpu",
    "app_iir_blur.cpu",
    "app_hist.cpu",
    "app_harris.cpu",
    "compute_at_nesting.trace",
    "app_harris.trace",
];

#[test]
fn p01_p10_pure_cases_are_byte_exact() {
    let mut failures = Vec::new();
    for case in EXACT {
        match run_case(&cases_dir().join(case)) {
            Outcome::Exact => {}
            Outcome::Equivalent(_) => failures.push(format!("{case}: equivalent but not exact")),
            Outcome::Differs(d) => failures.push(format!("{case}: {d}")),
            Outcome::Unsupported(m) => failures.push(format!("{case}: unsupported: {m}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Pinned counts over the whole corpus: (exact, equivalent, unsupported). A case that
/// differs fails the test unless it is listed in [`KNOWN_DIFFERENCES`]; a change of any
/// count (better or worse) must update these.
const PINNED: (usize, usize, usize) = (56, 4, 0);

/// Cases that differ from the reference for a known reason outside this pass, each with
/// that reason. A listed case that stops differing fails the test too (remove it here).
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[];

#[test]
fn corpus_definitions_match_the_reference() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    dirs.sort();
    let (mut exact, mut equivalent, mut unsupported, mut known, mut differ) = (0, 0, 0, 0, Vec::new());
    for dir in dirs.iter().filter(|d| d.join("bounds.input.stmt").exists()) {
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_owned();
        match run_case(dir) {
            Outcome::Exact => {
                exact += 1;
                eprintln!("{name}: exact");
            }
            Outcome::Equivalent(v) => {
                equivalent += 1;
                eprintln!(
                    "{name}: equivalent ({} definitions: {} structurally equal, {} proved, {} equal on samples, {} not integer-evaluable, skipped)",
                    v.defs, v.structural, v.proved, v.sampled, v.skipped
                );
            }
            Outcome::Unsupported(m) => {
                unsupported += 1;
                eprintln!("{name}: unsupported ({m})");
            }
            Outcome::Differs(d) => {
                match KNOWN_DIFFERENCES.iter().find(|(c, _)| *c == name) {
                    Some((_, why)) => {
                        eprintln!("{name}: differs (known: {why})\n  {d}");
                        known += 1;
                    }
                    None => eprintln!("{name}: DIFFERS\n  {d}"),
                }
                differ.push(name);
            }
        }
    }
    eprintln!(
        "computation bounds: {exact} exact, {equivalent} equivalent, {} differ, {unsupported} unsupported",
        differ.len()
    );
    let unexpected: Vec<&String> =
        differ.iter().filter(|n| !KNOWN_DIFFERENCES.iter().any(|(c, _)| c == n)).collect();
    assert!(unexpected.is_empty(), "cases differ: {unexpected:?}");
    assert_eq!(
        known,
        KNOWN_DIFFERENCES.len(),
        "a known difference no longer differs: update KNOWN_DIFFERENCES"
    );
    assert_eq!((exact, equivalent, unsupported), PINNED, "counts changed: update PINNED if this is progress");
}

#[test]
fn comparison_detects_changed_values_and_places() {
    let dir = cases_dir().join("two_stage_root.cpu");
    let text = std::fs::read_to_string(dir.join("bounds.expected.stmt")).unwrap_or_default();
    let parse = |t: &str| parse_stmt_with_env(t, &ParseEnv::new()).unwrap_or_else(|e| panic!("{e}"));
    let reference = parse(&text);
    let ctx = Ctx::new();
    // An equivalent value (operands swapped) is accepted.
    let swapped =
        text.replace("let blur_x.s0.y.max = out.s0.y.max + 2", "let blur_x.s0.y.max = 2 + out.s0.y.max");
    assert!(compare::compare(&ctx, &parse(&swapped), &reference).differences.is_empty());
    // A different value is caught, also through the lets that use it.
    let changed =
        text.replace("let blur_x.s0.y.max = out.s0.y.max + 2", "let blur_x.s0.y.max = out.s0.y.max + 3");
    assert!(!compare::compare(&ctx, &parse(&changed), &reference).differences.is_empty());
    // A missing definition is caught.
    let missing = text.replace("let blur_x.s0.y.min = out.s0.y.min\n", "");
    assert!(!compare::compare(&ctx, &parse(&missing), &reference).differences.is_empty());
}
