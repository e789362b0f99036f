//! The files Halide 21.0.0 wrote (`fixtures/halide21_stmt`, see `tests/halide21_stmt.rs`)
//! keep their meaning from stage to stage: every stage from computation bounds inference
//! on, and the module file, computes the same outputs as the newest file that runs
//! (floats up to rounding), on the same inputs. This is `oracle_interp`'s check on files
//! the released Halide wrote, read in its dialect.
//!
//! A file that cannot run must fail for one of the reasons in [`CANNOT_RUN`]; a reason
//! that no file fails for any more is a stale entry and fails the test.

mod interp_support;

use std::path::{Path, PathBuf};

use interp_support::{Agreement, compare_outputs, computes_something, run, stage_name, tuple_reads};
use loopir::{Dialect, ParseEnv, ParseOptions, Stmt, StmtFile};
use loopir_interp::PipelineRun;

/// The operations one run may execute (the corpus's pipelines are 16x16 toys).
const LIMIT: u64 = 100_000_000;

/// Why files cannot run: a piece of the error's text, and what it means.
const CANNOT_RUN: &[(&str, &str)] = &[
    (
        "a closure function whose body is not in the file",
        "closure conversion: the parallel loop bodies are separate functions",
    ),
    ("halide_do_parallel_tasks", "closure conversion: the async tasks' bodies are separate functions"),
    ("device kernels that are not in the file", "the GPU or Hexagon kernels were compiled separately"),
    (
        "hvxed.s0.__outermost.loop_min",
        "Hexagon offload: the loop symbols of the offloaded loop are defined by the kernel's launch",
    ),
    (
        TUPLE_INDEX,
        "the text drops the value index of calls to a tuple-valued Func (`f(x)[1]` prints as `f(x)`)",
    ),
];

/// Stands for the error of a file that reads a tuple-valued Func by calls (see
/// `interp_support::tuple_reads`) and fails or differs.
const TUPLE_INDEX: &str = "(reads a tuple-valued Func by calls)";

/// Lowering stages before computation bounds inference: their loops are bounded by
/// symbols nothing defines yet.
const BEFORE_BOUNDS: &[&str] =
    &["creating_initial_loop_nests", "injecting_tracing", "clamping_unsafe_data_dependent_accesses"];

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/halide21_stmt")
}

/// The files of a case that run from computation bounds inference on: its stages in
/// order, then its module file.
fn files_of(case: &Path) -> Vec<PathBuf> {
    let mut stages: Vec<PathBuf> = std::fs::read_dir(case.join("stages"))
        .map(|rd| rd.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    stages.retain(|p| !BEFORE_BOUNDS.iter().any(|b| stage_name(p).contains(b)));
    stages.sort();
    stages.push(case.join("module.stmt"));
    stages
}

/// Reads a file of the corpus: a module tells its dialect; a stage may not, and is
/// Halide 21's. A module runs its pipeline function.
fn read(path: &Path) -> Result<Stmt, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let options = ParseOptions { dialect: Some(Dialect::Halide21), ..ParseOptions::default() };
    let parsed = StmtFile::parse(&bytes, &ParseEnv::default(), options).map_err(|e| e.to_string())?;
    match parsed.value {
        StmtFile::Stmt(s) => Ok(s),
        StmtFile::Module(m) => {
            m.pipeline().map(|f| f.body.clone()).ok_or_else(|| "no pipeline function".to_owned())
        }
    }
}

fn why_of(piece: &str) -> &'static str {
    CANNOT_RUN.iter().find(|(p, _)| *p == piece).map(|(_, why)| *why).unwrap_or("(unlisted)")
}

#[derive(Default)]
struct Tally {
    exact: usize,
    rounding: usize,
    cannot_run: Vec<(String, &'static str)>,
    problems: Vec<String>,
}

/// Runs every file of `case`; counts what agrees, and says what is wrong.
fn check_case(case: &Path, tally: &mut Tally) {
    let name = format!("halide21/{}", case.file_name().map(|n| n.to_string_lossy()).unwrap_or_default());
    let files = files_of(case);
    let label = |f: &Path| format!("{name} {}", stage_name(f));
    let mut runs: Vec<(PathBuf, Result<Stmt, String>)> = files.iter().map(|f| (f.clone(), read(f))).collect();
    // The newest file that runs sets the shapes (its bounds query, if any, chose them).
    let mut reference: Option<(String, PipelineRun)> = None;
    for (f, stmt) in runs.iter().rev() {
        let Ok(stmt) = stmt else { continue };
        if let Ok(r) = run(&name, stmt, None, LIMIT) {
            if let Err(e) = computes_something(&r) {
                tally.problems.push(format!("{}: {e}", label(f)));
            }
            reference = Some((label(f), r));
            break;
        }
    }
    for (f, stmt) in runs.drain(..) {
        // The reference itself ran above.
        if reference.as_ref().is_some_and(|(l, _)| *l == label(&f)) {
            tally.exact += 1;
            continue;
        }
        let stmt = match stmt {
            Ok(s) => s,
            Err(e) => {
                tally.problems.push(format!("{}: does not read: {e}", label(&f)));
                continue;
            }
        };
        let lossy = !tuple_reads(&stmt).is_empty();
        let result = run(&name, &stmt, reference.as_ref().map(|(_, r)| r), LIMIT);
        match (result, &reference) {
            (Ok(r), Some((ref_name, reference))) => match compare_outputs(&r, reference) {
                Agreement::Exact => tally.exact += 1,
                Agreement::Rounding(_) => tally.rounding += 1,
                Agreement::Differs(_) if lossy => tally.cannot_run.push((label(&f), why_of(TUPLE_INDEX))),
                Agreement::Differs(d) => {
                    tally.problems.push(format!("{} differs from {ref_name}: {d}", label(&f)))
                }
            },
            (Ok(_), None) => tally.problems.push(format!("{}: runs only with its own shapes", label(&f))),
            (Err(_), _) if lossy => tally.cannot_run.push((label(&f), why_of(TUPLE_INDEX))),
            (Err(e), _) => {
                let text = e.to_string();
                match CANNOT_RUN.iter().find(|(piece, _)| text.contains(piece)) {
                    Some((_, why)) => tally.cannot_run.push((label(&f), why)),
                    None => tally.problems.push(format!("{}: {text}", label(&f))),
                }
            }
        }
    }
}

#[test]
fn every_halide21_stage_computes_what_the_newest_file_computes() {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(corpus())
        .expect("the Halide 21 corpus is in the repository")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 20, "the corpus has {} cases", cases.len());
    let mut tally = Tally::default();
    for case in &cases {
        check_case(case, &mut tally);
    }
    let ran = tally.exact + tally.rounding;
    println!(
        "{} cases: {ran} files agree ({} bit for bit, {} up to float rounding), {} cannot run",
        cases.len(),
        tally.exact,
        tally.rounding,
        tally.cannot_run.len()
    );
    for (piece, why) in CANNOT_RUN {
        let n = tally.cannot_run.iter().filter(|(_, w)| w == why).count();
        println!("  cannot run, {n} files: {why}");
        assert!(n > 0, "no file fails for `{piece}` any more: a stale entry of CANNOT_RUN");
    }
    assert!(tally.problems.is_empty(), "{} problems:\n{}", tally.problems.len(), tally.problems.join("\n"));
    assert!(ran >= 2 * cases.len(), "only {ran} files ran");
}
