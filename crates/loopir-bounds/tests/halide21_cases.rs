//! Both bounds passes on pipelines lowered by Halide 21.0.0 (`fixtures/bounds/halide21/`,
//! made by `tools/halide21-cases`): shapes the oracle corpus lacks (zero-dimensional and
//! loop-less update stages, RDom predicates, tail strategies, fused and unrolled loops,
//! specialized updates, Pipelines with several outputs, boundary conditions, alignment,
//! extern stages with images, specialize_fail, rfactor, compute_with, GPU tiles, async),
//! and index arithmetic at the edges (division and modulo by negative and odd constants,
//! 8- and 16-bit wrapping indices, 64-bit and float-derived indices, constants near 2^31,
//! a size halved 31 times, predicated stores, shifts and bitwise operators, abs and
//! selects, lookup tables, float coordinates, uint16 index arithmetic, clamped scatters,
//! mirror_image tiles, fused parallel channels, sliding windows at an inner split, a
//! prefetch, an unrolled RDom update, a tuple argmin, compute_at at three loops, selects
//! on the loop variable, a GPU-tiled update, saturating casts, absd and mux, rounding
//! arithmetic, a vectorized gather, an update writing at a computed index, a fused loop
//! split with ShiftInwards, an async double buffer, nested specializations, indices from
//! float values, an extern stage of two Funcs, nested selects over calls, an RDom with a
//! parameter extent and a where clause, division by a parameter, a loop split twice,
//! compute_with at an offset).
//!
//! Halide 21 is not the reference commit: its loops carry extents where the reference's
//! carry maxima, which the generator rewrites, so a few values read differently while
//! equal. Every case must therefore be exact or equivalent (same statements, same
//! definitions in the same places, equal values); none may differ or be refused.

use std::path::PathBuf;

#[path = "support/cases.rs"]
mod cases;
#[path = "support/compare.rs"]
mod compare;

use cases::Outcome;

fn cases_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/bounds/halide21")
}

/// (case, pass, reason): outputs that differ for a reason of the Halide 21 text. A listed
/// case that stops differing fails the test too.
const VERSION_ARTIFACTS: &[(&str, &str, &str)] = &[(
    "tiled_compute_at.cpu",
    "allocation bounds",
    "Halide 21's sliding window gives the slid loop an extent that depends on the \
     outer loop through a select; rewritten as a maximum `(min + extent) - 1` it is no longer the \
     reference's form, and its interval over the outer loop is wider (sound, not equal)",
)];

/// Runs `pass` on every case; returns (exact, equivalent) and fails on anything else.
fn check(file: &str, pass: fn(&std::path::Path) -> Outcome, what: &str) -> (usize, usize) {
    let (mut exact, mut equivalent, mut failures) = (0, 0, Vec::new());
    let dirs = cases::case_dirs(&cases_dir(), file);
    assert!(!dirs.is_empty(), "no cases under {}", cases_dir().display());
    for dir in dirs {
        let name = cases::case_name(&dir);
        match pass(&dir) {
            Outcome::Exact => exact += 1,
            Outcome::Equivalent(v) => {
                equivalent += 1;
                eprintln!(
                    "{what} {name}: equivalent ({} definitions, {} equal on samples)",
                    v.defs, v.sampled
                );
            }
            Outcome::Differs(d) if known(what, &name) => eprintln!("{what} {name}: differs (known)\n  {d}"),
            Outcome::Differs(d) => failures.push(format!("{name}: differs\n  {d}")),
            Outcome::Unsupported(m) => failures.push(format!("{name}: refused: {m}")),
        }
    }
    eprintln!("{what}: {exact} exact, {equivalent} equivalent, {} failing", failures.len());
    for (case, _, _) in VERSION_ARTIFACTS.iter().filter(|(_, pass, _)| *pass == what) {
        let still = matches!(pass(&cases_dir().join(case)), Outcome::Differs(_));
        assert!(still, "{case} no longer differs: remove it from VERSION_ARTIFACTS");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    (exact, equivalent)
}

/// Whether `case` is a listed artifact of the pass `what`.
fn known(what: &str, case: &str) -> bool {
    VERSION_ARTIFACTS.iter().any(|(c, pass, _)| *c == case && *pass == what)
}

#[test]
fn computation_bounds_agree_with_halide_21() {
    assert_eq!(check("bounds.input.stmt", cases::compute_case, "computation bounds"), (60, 39));
}

#[test]
fn allocation_bounds_agree_with_halide_21() {
    assert_eq!(check("allocbounds.input.stmt", cases::alloc_case, "allocation bounds"), (85, 13));
}
