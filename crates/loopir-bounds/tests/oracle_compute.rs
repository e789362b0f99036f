//! Computation bounds inference against the oracle corpus (`docs/reference/bounds.md` §4.6 P01–P10, `docs/reference/bounds.md` §2.3.12):
//! the worked cases must match the reference byte for byte; every case of the corpus is
//! run and classified as exact (byte for byte), equivalent (the same `let` names in the
//! same places, every value equal to the reference's: structurally, proved, or on random
//! integer assignments), differing (fails the test) or unsupported (refused by the pass).

use loopir::parse::{ParseEnv, parse_stmt_with_env};
use loopir_simplify::Ctx;

#[path = "support/cases.rs"]
mod cases;
#[path = "support/compare.rs"]
mod compare;

use cases::{Outcome, compute_case as run_case};

use loopir_testkit::oracle::cases as cases_dir;

/// Cases that must stay byte-exact: the worked cases of `docs/reference/bounds.md` §2.3.9 and the corpus cases
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
    let (mut exact, mut equivalent, mut unsupported, mut known, mut differ) = (0, 0, 0, 0, Vec::new());
    for dir in cases::case_dirs(&cases_dir(), "bounds.input.stmt") {
        let name = cases::case_name(&dir);
        match run_case(&dir) {
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
