//! The profiler's report of every profiled oracle case, run by the interpreter: its rows,
//! their names and their nesting must be the entry tree `loopir profile --entries`
//! prints for the case (the profiling pass's entry table rendered as a tree), and the
//! JSON form must carry that table's fields.
//!
//! The program run is the reference's own output of the profiling pass
//! (`profile.expected.stmt`); the entry table is computed by our pass from its input.
//! The report leaves out the rows the reference runtime leaves out (overhead and
//! thread idle when no time was billed to them, malloc and free when the pipeline made
//! no heap allocation), and prints a name in a 23-column slot; the comparison applies
//! both rules to the entry tree. A case that cannot run is listed in [`CANNOT_RUN`]
//! with the reason, and a listed reason that no longer happens is an error; the cases
//! over the suite's budget ([`OVER_BUDGET`]) run in an ignored test (see
//! `docs/testing.md`).

mod interp_support;

use interp_support::{
    HEAVY_LIMIT, TestRuntime, assert_listed_cases_exist, cases_dir, computes_something, parse, run, run_in,
};
use loopir_interp::profiler::{KIND_ALLOCATION, KIND_FREE, KIND_MALLOC, KIND_OVERHEAD, KIND_THREAD_IDLE};
use loopir_interp::{ProfileClock, RecordingRuntime};
use loopir_profiling::{FuncEnv, ProfileOptions, inject_profiling};

/// The operations one run may execute (as in `oracle_interp`).
const LIMIT: u64 = 40_000_000;

/// Cases that need more operations (or memory) than the suite's budget at the smallest
/// size their checks accept (as in `oracle_interp`): the suite skips them, the ignored
/// test [`the_profiled_cases_over_the_suites_budget_report_the_entry_tree`] runs them.
const OVER_BUDGET: &[&str] = &[
    "app_conv_layer.cpu",
    "app_conv_layer.cuda",
    "app_iir_blur.cpu",
    "app_iir_blur.cuda",
    "app_lens_blur.cuda",
    "app_local_laplacian.cpu",
    "app_local_laplacian.cuda",
    "app_nl_means.cuda",
    "app_stencil_chain.cpu",
    "app_stencil_chain.cuda",
];

/// Cases that cannot run, with a part of the error. None since the interpreter types
/// the loads of a GPU allocation group from its members (camera_pipe.cuda runs); a case
/// listed here must keep failing with that error, so the list cannot go stale.
const CANNOT_RUN: &[(&str, &str)] = &[];

/// The width of the report's name slot after its two leading spaces.
const NAME_WIDTH: usize = 23;

/// Checks the report of one case, each run executing at most `limit` operations.
fn check(case: &str, limit: u64) -> Result<(), String> {
    let dir = cases_dir().join(case);
    let input = parse(&dir, &dir.join("profile.input.stmt"))?;
    let env_text = std::fs::read_to_string(dir.join("profile.env.json")).map_err(|e| e.to_string())?;
    let env = FuncEnv::from_json(&env_text).map_err(|e| e.to_string())?;
    let pipeline = env.pipeline_name().ok_or("the env names no pipeline")?.to_owned();
    let profiled =
        inject_profiling(&input, &pipeline, &env, &ProfileOptions::default()).map_err(|e| e.to_string())?;
    let tree = profiled.entries.render_tree();
    let table: serde_json::Value =
        serde_json::from_str(&profiled.entries.to_json()).map_err(|e| e.to_string())?;
    let table = table.as_array().ok_or("the entry table's JSON is not an array")?;

    let program = parse(&dir, &dir.join("profile.expected.stmt"))?;
    // Shapes first (this may run the program several times), then one recorded run.
    let shaped = run(case, &program, None, limit).map_err(|e| e.to_string())?;
    computes_something(&shaped)?;
    let mut runtime = TestRuntime::default();
    runtime.recording = Some(RecordingRuntime::new(ProfileClock::Operations));
    run_in(&mut runtime, case, &program, Some(&shaped), limit).map_err(|e| e.to_string())?;
    let recording = runtime.recording.ok_or("no recording")?;
    recording.profiler.finish().map_err(|e| e.to_string())?;
    let pipelines = recording.profiler.pipelines();
    if pipelines.len() != 1 {
        return Err(format!("{} pipelines profiled, expected 1", pipelines.len()));
    }
    let p = &pipelines[0];
    if p.runs != 1 {
        return Err(format!("{} runs counted, expected 1", p.runs));
    }

    // The JSON form: the table's fields, entry by entry.
    let json: serde_json::Value =
        serde_json::from_str(&recording.profiler.report_json()).map_err(|e| format!("report JSON: {e}"))?;
    let funcs = json["pipelines"][0]["funcs"].as_array().ok_or("report JSON has no funcs")?;
    if funcs.len() != table.len() {
        return Err(format!("report JSON has {} funcs, the entry table {}", funcs.len(), table.len()));
    }
    for (k, (f, e)) in funcs.iter().zip(table).enumerate() {
        let kind_code = match e["kind"].as_str().unwrap_or("") {
            "func" => 0,
            "overhead" => 1,
            "thread_idle" => 2,
            "malloc" => 3,
            "free" => 4,
            "copy_to_host" => 5,
            "copy_to_device" => 6,
            "allocation" => 7,
            other => return Err(format!("entry {k}: unknown kind {other}")),
        };
        let or_minus_one = |v: &serde_json::Value| v.as_i64().unwrap_or(-1);
        let expected = (
            e["display_name"].as_str().unwrap_or(""),
            or_minus_one(&e["parent"]),
            or_minus_one(&e["canonical_id"]),
            kind_code,
            or_minus_one(&e["buffer_func_id"]),
        );
        let got = (
            f["name"].as_str().unwrap_or("?"),
            f["parent"].as_i64().unwrap_or(-2),
            f["canonical_id"].as_i64().unwrap_or(-2),
            f["kind"].as_i64().unwrap_or(-2),
            f["buffer_func_id"].as_i64().unwrap_or(-2),
        );
        if got != expected {
            return Err(format!("report JSON entry {k}: {got:?}, entry table: {expected:?}"));
        }
    }

    // The text form: the entry tree, less the rows the runtime leaves out.
    let mut expected_rows = Vec::new();
    let order = loopir_interp::profiler::tree_order(&p.funcs.iter().map(|f| f.parent).collect::<Vec<_>>());
    let lines: Vec<&str> = tree.lines().collect();
    if lines.len() != order.len() {
        return Err(format!("entry tree has {} rows, the table {}", lines.len(), order.len()));
    }
    for (line, &(i, _, _)) in lines.iter().zip(&order) {
        let f = &p.funcs[i];
        let skipped = (f.kind == KIND_OVERHEAD || f.kind == KIND_THREAD_IDLE) && f.time == 0
            || (f.kind == KIND_MALLOC || f.kind == KIND_FREE) && p.num_allocs == 0;
        if !skipped {
            let allocation = f.kind == KIND_ALLOCATION;
            let name = if allocation { line.strip_suffix(" (allocation)").unwrap_or(line) } else { line };
            let shown: String = name.chars().take(NAME_WIDTH).collect();
            expected_rows.push((shown.trim_end().to_owned(), allocation));
        }
    }
    let report = recording.profiler.report();
    let report_rows: Vec<(String, bool)> = report
        .lines()
        .skip(6)
        .filter(|l| !l.starts_with("---"))
        .map(|l| {
            // The name slot is 25 columns (it may hold the tree's `│`), then a `│`.
            let name: String = l.chars().take(NAME_WIDTH + 2).collect();
            let time: String = l.chars().skip(NAME_WIDTH + 3).take(18).collect();
            (name.strip_prefix("  ").unwrap_or("").trim_end().to_owned(), time.trim() == "(allocation)")
        })
        .collect();
    if report_rows != expected_rows {
        let at = report_rows.iter().zip(&expected_rows).position(|(a, b)| a != b).unwrap_or(0);
        return Err(format!(
            "report rows differ from the entry tree at row {at}: {:?} vs {:?} ({} rows vs {})\n{report}",
            report_rows.get(at),
            expected_rows.get(at),
            report_rows.len(),
            expected_rows.len()
        ));
    }
    Ok(())
}

/// The oracle's profiled cases, sorted.
fn profiled_cases() -> Vec<String> {
    let mut cases: Vec<String> = std::fs::read_dir(cases_dir())
        .expect("the oracle's cases")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().join("profile.expected.stmt").exists())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    cases.sort();
    assert_eq!(cases.len(), 49, "the oracle has 49 profiled cases");
    cases
}

/// Checks `cases` with `limit` operations a run (`verbose`: prints each case's time);
/// the problems found, and how many cases reported their entry tree.
fn check_cases(cases: &[&str], limit: u64, verbose: bool) -> (Vec<String>, usize) {
    let mut problems = Vec::new();
    let mut ran = 0;
    for &case in cases {
        let listed = CANNOT_RUN.iter().find(|(c, _)| *c == case);
        let started = std::time::Instant::now();
        let result = check(case, limit);
        if verbose {
            println!(
                "{case}: {} ({:.1} s)",
                if result.is_ok() { "rows = entries" } else { "error" },
                started.elapsed().as_secs_f64()
            );
        }
        match (result, listed) {
            (Ok(()), None) => ran += 1,
            (Ok(()), Some((_, why))) => {
                problems.push(format!("{case}: listed as cannot run ({why}) but runs"))
            }
            (Err(e), Some((_, why))) if e.contains(why) => {}
            (Err(e), _) => problems.push(format!("{case}: {}", e.lines().next().unwrap_or(""))),
        }
    }
    (problems, ran)
}

#[test]
fn every_profiled_case_reports_the_entry_tree() {
    let cases = profiled_cases();
    assert_listed_cases_exist(OVER_BUDGET, &cases, "profiled");
    let within: Vec<&str> = cases.iter().map(String::as_str).filter(|c| !OVER_BUDGET.contains(c)).collect();
    let (problems, ran) = check_cases(&within, LIMIT, false);
    println!(
        "{ran} of {} profiled cases report their entry tree; {} over the suite's budget, {} cannot run",
        cases.len(),
        cases.len() - within.len(),
        CANNOT_RUN.len()
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert_eq!(ran + (cases.len() - within.len()) + CANNOT_RUN.len(), cases.len());
}

/// The cases of [`OVER_BUDGET`], with [`HEAVY_LIMIT`] operations a run (half an hour:
/// conv_layer's runs take minutes): `cargo test --test oracle_profile_report --
/// --ignored --nocapture`.
#[test]
#[ignore = "half an hour of interpretation; run on demand"]
fn the_profiled_cases_over_the_suites_budget_report_the_entry_tree() {
    let cases = profiled_cases();
    assert_listed_cases_exist(OVER_BUDGET, &cases, "profiled");
    let (problems, ran) = check_cases(OVER_BUDGET, HEAVY_LIMIT, true);
    println!("{ran} of the {} cases over the suite's budget report their entry tree", OVER_BUDGET.len());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let listed = OVER_BUDGET.iter().filter(|c| CANNOT_RUN.iter().any(|(l, _)| l == *c)).count();
    assert_eq!(ran + listed, OVER_BUDGET.len());
}
