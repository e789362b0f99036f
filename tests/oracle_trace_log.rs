//! The trace log of every traced oracle case, run by the interpreter: the first stage
//! that runs after tracing (computation bounds inference) must make trace events, each
//! parented by its innermost enclosing event (the documented hierarchy, which the
//! reference at 10162e89df implements). That Halide 21's parentage is caught is tested
//! in `crates/loopir-cli/tests/run_profile.rs` (its text needs the CLI's dialect
//! detection).

mod interp_support;

use std::path::Path;

use interp_support::{TestRuntime, cases_dir, parse, reference_run, run, run_in, stages};
use loopir_interp::RecordingRuntime;
use loopir_interp::tracer::{TraceLog, scope_trace_lets};

/// The operations one run may execute (as in `oracle_interp`).
const LIMIT: u64 = 40_000_000;

/// Runs `file` of the case in `dir` and returns its trace log (`Err`: it cannot run).
fn trace_of(case: &str, dir: &Path, file: &Path) -> Result<TraceLog, String> {
    let stmt = scope_trace_lets(&parse(dir, file)?);
    // The shapes of the latest stage that answers a bounds query (as in `oracle_interp`).
    let shaped = match reference_run(case, LIMIT) {
        Ok((_, r)) => r,
        Err(_) => run(case, &stmt, None, LIMIT).map_err(|e| e.to_string())?,
    };
    let mut runtime = TestRuntime::default();
    runtime.recording = Some(RecordingRuntime::default());
    run_in(&mut runtime, case, &stmt, Some(&shaped), LIMIT).map_err(|e| e.to_string())?;
    Ok(runtime.recording.map(|r| r.trace).unwrap_or_default())
}

/// Cases whose bounds-inference stage cannot run in the suite, with a part of the error.
const CANNOT_RUN: &[(&str, &str)] = &[("app_local_laplacian.trace", "the run exceeded 40000000 operations")];

#[test]
fn every_traced_case_parents_each_event_by_its_innermost_enclosing_event() {
    let mut cases: Vec<String> = std::fs::read_dir(cases_dir())
        .expect("the oracle's cases")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".trace"))
        .collect();
    cases.sort();
    assert_eq!(cases.len(), 10, "the oracle has 10 traced cases");
    let mut problems = Vec::new();
    let mut clean = 0;
    for case in &cases {
        let dir = cases_dir().join(case);
        let stage = stages(&dir).into_iter().next().expect("a bounds inference stage");
        let listed = CANNOT_RUN.iter().find(|(c, _)| c == case);
        match (trace_of(case, &dir, &stage), listed) {
            (Ok(log), None) if log.events().is_empty() => problems.push(format!("{case}: no trace events")),
            (Ok(log), None) => match log.violations().first() {
                None => clean += 1,
                Some(v) => problems.push(format!(
                    "{case}: {} violations, first: event {} `{}` has parent {}, expected {}",
                    log.violations().len(),
                    v.id,
                    v.what,
                    v.parent,
                    v.expected
                )),
            },
            (Ok(_), Some((_, why))) => {
                problems.push(format!("{case}: listed as cannot run ({why}) but runs"))
            }
            (Err(e), Some((_, why))) if e.contains(why) => {}
            (Err(e), _) => problems.push(format!("{case}: {}", e.lines().next().unwrap_or(""))),
        }
    }
    println!("{clean} of {} traced cases make a well-parented trace", cases.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert_eq!(clean + CANNOT_RUN.len(), cases.len());
}
