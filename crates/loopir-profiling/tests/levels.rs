//! Profiling levels and feature bits (issue #7).
//!
//! * Level 0 returns the input itself; level 3 is the default (the oracle tests in
//!   `oracle.rs` pin it byte for byte against the reference).
//! * Every one of the 2⁷ feature combinations yields well-formed IR (see `wellformed`)
//!   on several oracle inputs and on the fixtures of `filetests/profiling_levels`.
//! * Each feature owns exactly its runtime calls: a call is present under a combination
//!   if and only if the combination has the call's feature (and the call is present at
//!   level 3), so lower levels emit strictly less.
//! * Snapshot fixtures (`filetests/profiling_levels`, run by the fixture harness) show each
//!   level and each bit on two small pipelines.

mod wellformed;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use loopir::{Expr, ExprKind, Stmt, Visitor};
use loopir_profiling::{EntryKey, Feature, FuncEnv, ProfileOptions, Profiled, inject_profiling};

/// Oracle cases covering heap and stack memory, parallel and nested parallel loops, async
/// producers, hoisted storage, tuples, GPU launches, fused GPU heap buffers and
/// host↔device copies.
const CASES: &[&str] = &[
    "async_producer.cpu",
    "heap_and_stack.cpu",
    "hoist_storage.cpu",
    "nested_parallel.cpu",
    "tuple_func.cpu",
    "two_parents.cpu",
    "compute_at_nesting.cuda",
    "gpu_heap_allocgroup.cuda",
    "gpu_host_bounce.cuda",
    "two_stage_root.cuda",
    "app_unsharp.cuda",
    "app_iir_blur.cpu",
];

fn load_case(case: &str) -> (Stmt, FuncEnv, String) {
    let dir = loopir_testkit::oracle::case(case);
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).unwrap_or_else(|e| panic!("{case}/{f}: {e}"));
    let env = FuncEnv::from_json(&read("profile.env.json")).expect("valid env");
    let stmt = loopir::parse_stmt(&read("profile.input.stmt")).expect("input parses");
    let pipeline = env.pipeline_name().unwrap_or("pipe").to_owned();
    (stmt, env, pipeline)
}

fn levels_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../filetests/profiling_levels")
}

struct Fixture {
    stmt: Stmt,
    env: FuncEnv,
}

fn load_fixture(path: &Path) -> Fixture {
    let text = std::fs::read_to_string(path).expect("readable fixture");
    let mut body = String::new();
    // The header (`#` lines, see docs/testing.md) is the fixture harness's business.
    for line in text.lines() {
        if !line.starts_with('#') {
            body.push_str(line);
            body.push('\n');
        }
    }
    let stmt = loopir::parse_stmt(&body).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let env = FuncEnv::infer_from_stmt(&stmt);
    Fixture { stmt, env }
}

fn fixtures() -> Vec<(String, Fixture)> {
    let mut out: Vec<(String, Fixture)> = std::fs::read_dir(levels_dir())
        .expect("filetests/profiling_levels exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "stmt"))
        .map(|p| (p.file_stem().unwrap_or_default().to_string_lossy().into_owned(), load_fixture(&p)))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    assert!(!out.is_empty());
    out
}

fn run(stmt: &Stmt, env: &FuncEnv, pipeline: &str, o: ProfileOptions) -> Profiled {
    inject_profiling(stmt, pipeline, env, &o).unwrap_or_else(|e| panic!("{o}: {e}"))
}

/// The runtime calls of a statement.
fn callees(s: &Stmt) -> BTreeSet<String> {
    struct Calls(BTreeSet<String>);
    impl Visitor for Calls {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Call { name, .. } = e.kind()
                && (name.starts_with("halide_profiler_")
                    || name.starts_with("halide_hexagon_remote_profiler")
                    || name.as_ref() == "halide_device_sync_global"
                    || name.as_ref() == "register_destructor")
            {
                self.0.insert(name.to_string());
            }
            self.super_expr(e)
        }
    }
    let mut c = Calls(BTreeSet::new());
    c.visit_stmt(s);
    c.0
}

/// The feature a runtime call belongs to (`None`: part of the instance every non-empty
/// combination emits).
fn owner(callee: &str) -> Option<Feature> {
    Some(match callee {
        "halide_profiler_set_current_func" => Feature::Timing,
        "halide_profiler_memory_allocate" | "halide_profiler_memory_free" => Feature::HeapMemory,
        "halide_profiler_stack_peak_update" => Feature::StackPeaks,
        "halide_profiler_incr_active_threads" | "halide_profiler_decr_active_threads" => {
            Feature::ThreadActivity
        }
        "halide_profiler_init_sampling_token"
        | "halide_profiler_acquire_sampling_token"
        | "halide_profiler_release_sampling_token" => Feature::SamplingTokens,
        "halide_device_sync_global" => Feature::DeviceSync,
        _ => return None,
    })
}

fn is_copy_row(ir_name: &str) -> bool {
    ir_name.ends_with(" (copy to host)") || ir_name.ends_with(" (copy to device)")
}

/// Checks one input under every combination of features.
fn check_all_combinations(label: &str, stmt: &Stmt, env: &FuncEnv, pipeline: &str) {
    let full = run(stmt, env, pipeline, ProfileOptions::ALL);
    let full_calls = callees(&full.stmt);
    let default = run(stmt, env, pipeline, ProfileOptions::default());
    assert_eq!(default.stmt.to_string(), full.stmt.to_string(), "{label}: the default is level 3");
    if let Err(errors) = wellformed::check(&full.stmt) {
        panic!("{label} at level 3: {errors:#?}");
    }
    for o in ProfileOptions::all_combinations() {
        let out = run(stmt, env, pipeline, o);
        if o.is_empty() {
            assert!(out.stmt.same_as(stmt), "{label}: level 0 returns the input itself");
            assert!(out.entries.is_empty());
            continue;
        }
        if let Err(errors) = wellformed::check(&out.stmt) {
            panic!("{label} with {o}: not well-formed:\n{errors:#?}\n{}", out.stmt);
        }
        // Each call is present exactly when its feature is on (and level 3 has it).
        let calls = callees(&out.stmt);
        for c in full_calls.union(&calls) {
            let expected = full_calls.contains(c) && owner(c).is_none_or(|f| o.contains(f));
            assert_eq!(calls.contains(c), expected, "{label} with {o}: presence of {c}");
        }
        if o.contains(Feature::Timing) {
            assert!(calls.contains("halide_profiler_set_current_func"), "{label} with {o}");
        }
        // The rows are level 3's, less the copy rows without `copies`; keys do not move.
        let keys: Vec<(EntryKey, &str)> = out.entries.iter().map(|e| (e.key, e.ir_name.as_str())).collect();
        let expected: Vec<(EntryKey, &str)> = full
            .entries
            .iter()
            .filter(|e| o.contains(Feature::CopySites) || !is_copy_row(&e.ir_name))
            .map(|e| (e.key, e.ir_name.as_str()))
            .collect();
        assert_eq!(keys, expected, "{label} with {o}: rows");
        for e in out.entries.iter() {
            let peak = if o.contains(Feature::StackPeaks) {
                full.entries.by_key(e.key).map_or(0, |f| f.stack_peak_bytes)
            } else {
                0
            };
            assert_eq!(e.stack_peak_bytes, peak, "{label} with {o}: stack peak of {}", e.display_name);
        }
    }
}

#[test]
fn every_combination_is_well_formed_on_oracle_inputs() {
    for case in CASES {
        let (stmt, env, pipeline) = load_case(case);
        check_all_combinations(case, &stmt, &env, &pipeline);
    }
}

#[test]
fn every_combination_is_well_formed_on_the_fixtures() {
    for (name, f) in fixtures() {
        check_all_combinations(&name, &f.stmt, &f.env, "pipe");
    }
}

#[test]
fn the_reference_output_is_well_formed() {
    // The checker accepts what the reference compiler emits.
    for case in CASES {
        let text = std::fs::read_to_string(loopir_testkit::oracle::case(case).join("profile.expected.stmt"))
            .expect("expected output");
        let stmt = loopir::parse_stmt(&text).expect("expected output parses");
        if let Err(errors) = wellformed::check(&stmt) {
            panic!("{case}: {errors:#?}");
        }
    }
}

#[test]
fn the_checker_rejects_broken_instrumentation() {
    let (_, f) = fixtures().into_iter().find(|(n, _)| n == "cpu_pipeline").expect("cpu fixture");
    let good = run(&f.stmt, &f.env, "pipe", ProfileOptions::ALL).stmt.to_string();
    // (the first line starting with this text, what replaces that line, the complaint)
    let breakages: [(&str, Option<&str>, &str); 5] = [
        ("free t", None, "not freed"),
        ("halide_profiler_release_sampling_token(", None, "holding its sampling token"),
        ("halide_profiler_incr_active_threads(", None, "active-thread count"),
        ("free f", Some("free f\nfree f"), "frees nothing live"),
        (
            "halide_profiler_set_current_func(profiler_instance, 5,",
            Some("halide_profiler_set_current_func(profiler_instance, 99, reinterpret<(void *)>(0_u64))"),
            "outside the table",
        ),
    ];
    for (line_start, replacement, complaint) in breakages {
        let mut done = false;
        let mut bad = String::new();
        for line in good.lines() {
            let trimmed = line.trim_start();
            if !done && trimmed.starts_with(line_start) {
                done = true;
                if let Some(r) = replacement {
                    let indent = &line[..line.len() - trimmed.len()];
                    for l in r.lines() {
                        bad.push_str(indent);
                        bad.push_str(l);
                        bad.push('\n');
                    }
                }
                continue;
            }
            bad.push_str(line);
            bad.push('\n');
        }
        assert!(done, "{line_start}");
        let stmt = loopir::parse_stmt(&bad).expect("still parses");
        let errors = wellformed::check(&stmt).expect_err(complaint);
        assert!(errors.iter().any(|e| e.contains(complaint)), "{complaint}: {errors:#?}");
    }
    // A call outside the instance's scope.
    // (The instance's allocation has no braces: its body runs to the end of the text, so
    // the stray call goes first.)
    let outside = format!(
        "halide_profiler_set_current_func(profiler_instance, 0, reinterpret<(void *)>(0_u64))\n{good}"
    );
    let errors = wellformed::check(&loopir::parse_stmt(&outside).expect("parses")).expect_err("out of scope");
    assert!(errors.iter().any(|e| e.contains("outside the scope")), "{errors:#?}");
}

#[test]
fn levels_emit_strictly_more_calls_as_they_rise() {
    for (name, f) in fixtures() {
        let sets: Vec<BTreeSet<String>> = (0..=ProfileOptions::MAX_LEVEL)
            .map(|l| callees(&run(&f.stmt, &f.env, "pipe", ProfileOptions::level(l).expect("level")).stmt))
            .collect();
        for l in 1..sets.len() {
            assert!(sets[l].is_superset(&sets[l - 1]), "{name}: level {l} ⊇ level {}", l - 1);
        }
        assert!(sets[0].is_empty());
        assert!(sets[1].len() > sets[0].len(), "{name}: level 1 adds the instance and timing");
        if name == "cpu_pipeline" {
            assert!(sets[2].len() > sets[1].len() && sets[3].len() > sets[2].len(), "{name}: {sets:#?}");
        }
    }
}
