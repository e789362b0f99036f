//! Allocation bounds inference against the oracle corpus (`docs/reference/bounds.md` §4.6 P15–P17): every case
//! with `allocbounds.input.stmt` is run; the cases whose ends need only the linear
//! simplifier rules (and the two ShiftInwards cases) must match the reference byte for
//! byte; every other case must have the same statements and the same definitions in the
//! same places, each value equal to the reference's (structurally, proved, or on random
//! assignments of its free variables, floats included).

#[path = "support/cases.rs"]
mod cases;
#[path = "support/compare.rs"]
mod compare;

use cases::{Outcome, alloc_case as classify};

use loopir_testkit::oracle::cases as cases_dir;

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
        match cases::alloc_text(&cases_dir().join(case)) {
            Ok((text, expected)) if text == expected => {}
            Ok((text, expected)) => {
                failures.push(format!("{case}: {}", loopir_testkit::text::first_difference(&expected, &text)))
            }
            Err(e) => failures.push(format!("{case}: error {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
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
    let (mut exact, mut equivalent, mut failures) = (0, 0, Vec::new());
    let (mut structural, mut proved, mut sampled, mut skipped) = (0, 0, 0, 0);
    for dir in cases::case_dirs(&cases_dir(), "allocbounds.input.stmt") {
        let name = cases::case_name(&dir);
        match classify(&dir) {
            Outcome::Exact => exact += 1,
            Outcome::Equivalent(v) => {
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
            Outcome::Differs(d) | Outcome::Unsupported(d) => failures.push(format!("{name}: {d}")),
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
