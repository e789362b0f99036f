//! The profiling pass on Halide 21.0.0's own profiling input: the IR Halide 21 handed its
//! profiling pass for the `blur.profile` case of `fixtures/halide21_stmt` (the stage
//! before `injecting_profiling`), read in Halide 21's dialect, instrumented without an
//! env, written back in Halide 21's dialect. The Funcs it profiles are the ones Halide 21
//! registered in its own output (`profiler_func_names[k] = "name"`).

use std::path::PathBuf;

use loopir::dialect::{Dialect, check_writable};
use loopir::{ParseEnv, ParseOptions, PrintOptions, parse_stmt_with_options, stmt_to_string_with};
use loopir_profiling::{FuncEnv, ProfileOptions, inject_profiling};

fn stage(name: &str) -> Vec<u8> {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/halide21_stmt/blur.profile/stages");
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The names Halide 21 stores into `profiler_func_names`, sorted.
fn registered(text: &str) -> Vec<String> {
    let mut names: Vec<String> = text
        .lines()
        .filter_map(|l| l.trim().strip_prefix("profiler_func_names["))
        .filter_map(|l| l.split_once("] = \"").map(|(_, n)| n.trim_end_matches('"').to_owned()))
        .collect();
    names.sort();
    names
}

#[test]
fn profiling_runs_on_halide21_s_profiling_input() {
    let input = stage("27.bounding_small_allocations.stmt");
    let halide21_output = String::from_utf8(stage("28.injecting_profiling.stmt")).expect("UTF-8");
    let parsed = parse_stmt_with_options(&input, &ParseEnv::default(), ParseOptions::default())
        .expect("reads as Halide 21's");
    assert_eq!(parsed.dialect, Dialect::Halide21);
    let env = FuncEnv::infer_from_stmt(&parsed.value);
    let profiled =
        inject_profiling(&parsed.value, "blur_y", &env, &ProfileOptions::default()).expect("profiles");
    check_writable(&profiled.stmt, Dialect::Halide21).expect("writable in Halide 21's dialect");
    let text = stmt_to_string_with(&profiled.stmt, PrintOptions::dialect(Dialect::Halide21));
    // Written back in Halide 21's dialect, it reads as such again.
    let back = parse_stmt_with_options(text.as_bytes(), &ParseEnv::default(), ParseOptions::default())
        .expect("the output reads");
    assert_eq!(back.dialect, Dialect::Halide21);
    assert!(text.contains("halide_profiler_instance_start(\"blur_y\""), "{text}");
    // The same Funcs as Halide 21's own output, besides the bookkeeping rows.
    let funcs = |names: Vec<String>| -> Vec<String> {
        names.into_iter().filter(|n| n == "blur_x" || n == "blur_y").collect()
    };
    // (The reference registers its rows in one struct, Halide 21 one store each.)
    let mut ours: Vec<String> = profiled.entries.iter().map(|e| e.display_name.clone()).collect();
    ours.sort();
    assert_eq!(funcs(ours.clone()), funcs(registered(&halide21_output)), "ours: {ours:?}");
    assert_eq!(funcs(ours), ["blur_x", "blur_y"]);
}
