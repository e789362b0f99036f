//! The hierarchy checker on every lowering stage with trace events that the reference
//! compiler dumped (`trace_all` cases, `trace_funcs` cases, and the `.cpu` cases of traced
//! Funcs): from the stage that injects tracing to the last one, later passes move, wrap and
//! duplicate the events (an end_consume after the `free`, lets lifted around an event, a
//! realization's begin event copied into both tasks of an async fork, `let f.trace_id = 0`
//! substituted into its uses), and every stage is valid, so the checker must stay silent.

mod tracing_support;

use loopir::parse_stmt;
use loopir_profiling::tracing::check_trace_hierarchy;
use loopir_testkit::oracle::cases as oracle_cases;

#[test]
fn every_stage_of_every_trace_case_passes_the_checker() {
    let mut cases: Vec<_> = std::fs::read_dir(oracle_cases())
        .expect("readable oracle directory")
        .flatten()
        .map(|e| e.path())
        .collect();
    cases.sort();
    assert!(cases.len() >= 50, "expected the oracle's cases, found {}", cases.len());
    let mut checked = 0;
    let mut failures = Vec::new();
    for case in &cases {
        let mut stages: Vec<_> =
            std::fs::read_dir(case.join("stages")).expect("stages").flatten().map(|e| e.path()).collect();
        stages.sort();
        for path in stages {
            let text = std::fs::read_to_string(&path).expect("oracle files are UTF-8");
            if !text.contains("halide_trace_helper") {
                continue;
            }
            let stmt = match parse_stmt(&text) {
                Ok(s) => s,
                Err(e) => {
                    failures.push(format!("{}: {e}", path.display()));
                    continue;
                }
            };
            checked += 1;
            if let Err(violations) = check_trace_hierarchy(&stmt) {
                let first: Vec<String> = violations.iter().take(3).map(|v| format!("  {v}")).collect();
                failures.push(format!(
                    "{}: {} violation(s)\n{}",
                    path.display(),
                    violations.len(),
                    first.join("\n")
                ));
            }
        }
    }
    println!("checked {checked} stages with trace events of {} cases", cases.len());
    // 241 stages of the `trace_all` cases, 15 of `traced_funcs.tracefuncs` and 14 of
    // `traced_funcs.cpu` after the injection.
    assert!(checked >= 270, "expected every stage with trace events, checked {checked}");
    assert!(failures.is_empty(), "{} stage(s) fail:\n{}", failures.len(), failures.join("\n"));
}
