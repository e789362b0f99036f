//! loopir's passes checked by execution on the oracle: a pass's input and output must
//! compute the same outputs from the same inputs.
//!
//! - the profiling pass (`inject_profiling`) on every profile case: its input and its
//!   output run on the shapes the input's own bounds query asks for;
//! - allocation bounds inference: its input (realizations whose bounds are still open)
//!   and its output, on the shapes of the case's latest stage that answers a bounds
//!   query;
//! - computation bounds inference: its input has loops over bounds nothing defines yet
//!   and cannot run, so its output is run against the reference's output instead.

mod interp_support;

use interp_support::{Agreement, HEAVY_LIMIT, cases_dir, compare_outputs, env_of, parse, reference_run, run};
use loopir_interp::PipelineRun;
use loopir_profiling::{FuncEnv, ProfileOptions, inject_profiling};

/// The operations one run may execute (about 5 s at the interpreter's speed; most cases
/// need far less).
const LIMIT: u64 = 400_000_000;

/// Cases whose smallest accepted size needs more than [`LIMIT`] operations: the suite
/// skips them, the ignored test `the_heavy_profile_cases_keep_their_meaning` runs their
/// profiling (conv_layer: 128x100x80x5 outputs, about 4 minutes a run; iir_blur: a fixed
/// 1536x2560x3 transpose, 10-30 s; stencil_chain: 384x640 tiles, 15 s; local_laplacian
/// on GPU and traced: 5-10 s).
const HEAVY: &[&str] = &[
    "app_conv_layer.cpu",
    "app_conv_layer.cuda",
    "app_iir_blur.cpu",
    "app_iir_blur.cuda",
    "app_local_laplacian.cuda",
    "app_local_laplacian.trace",
    "app_stencil_chain.cpu",
    "app_stencil_chain.cuda",
];

/// Cases whose profiling input cannot run, with a part of the reason.
const PROFILE_CANNOT_RUN: &[(&str, &str)] = &[];

/// Cases whose allocation bounds input or output cannot run, with a part of the reason.
const ALLOC_CANNOT_RUN: &[(&str, &str)] = &[
    // lens_blur's `argmin` is tuple-valued, and Halide's text prints `argmin(x, y)[1]` as
    // `argmin(x, y)`: the stage reads an int32 where it reads a float32.
    (
        "app_lens_blur.cpu",
        "`argmin(depth.s0.v10.v26 + depth.s0.v10.v26.base, depth.s0.v11.v27 + depth.s0.v11.v27.base)` is int32",
    ),
    (
        "app_lens_blur.cuda",
        "`argmin(depth.s0.v10.xi + depth.s0.v10.xi.base, depth.s0.v11.yi + depth.s0.v11.yi.base)` is int32",
    ),
];

/// Cases whose computation bounds output cannot run, with a part of the reason.
const COMPUTE_CANNOT_RUN: &[(&str, &str)] = &[
    ("app_lens_blur.cpu", "`argmin(argmin.s1.v10, argmin.s1.v11)` is int32"),
    ("app_lens_blur.cuda", "`argmin(argmin.s1.v10, argmin.s1.v11)` is int32"),
];

fn case_names(file: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(cases_dir())
        .map(|rd| {
            rd.flatten()
                .filter(|e| e.path().join(file).is_file())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

/// Checks every case, returns the problems (unlisted failures, disagreements, listed
/// failures that no longer fail) and prints the counts.
fn check_all(
    what: &str,
    file: &str,
    listed: &[(&str, &str)],
    check: impl Fn(&str) -> Result<Agreement, String>,
) -> Vec<String> {
    let mut problems = Vec::new();
    let (mut exact, mut rounding, mut cannot, mut heavy) = (0, 0, 0, 0);
    for case in case_names(file) {
        if HEAVY.contains(&case.as_str()) {
            heavy += 1;
            continue;
        }
        let known = listed.iter().find(|(c, _)| *c == case).map(|(_, w)| *w);
        let result = check(&case);
        match (&result, known) {
            (Ok(Agreement::Exact), None) => exact += 1,
            (Ok(Agreement::Rounding(_)), None) => rounding += 1,
            (Ok(Agreement::Differs(d)), _) => problems.push(format!("{what} {case}: outputs differ: {d}")),
            (Ok(_), Some(w)) => {
                problems.push(format!("{what} {case}: listed as unable to run ({w}) but ran"))
            }
            (Err(why), known) => {
                cannot += 1;
                if !known.is_some_and(|w| why.contains(w)) {
                    problems.push(format!("{what} {case}: cannot run: {why}"));
                }
            }
        }
        if interp_support::reporting() {
            println!("REPORT {what} {case}: {result:?}");
        }
    }
    println!(
        "{what}: {exact} cases agree exactly, {rounding} up to float rounding, {cannot} cannot run, \
         {heavy} over the suite's budget"
    );
    problems
}

fn profile_case(case: &str) -> Result<Agreement, String> {
    profile_case_within(case, LIMIT)
}

fn profile_case_within(case: &str, limit: u64) -> Result<Agreement, String> {
    let dir = cases_dir().join(case);
    let env_text = std::fs::read_to_string(dir.join("profile.env.json")).map_err(|e| e.to_string())?;
    let env = FuncEnv::from_json(&env_text).map_err(|e| e.to_string())?;
    let pipeline = env.pipeline_name().unwrap_or("pipeline").to_owned();
    let input = parse(&dir, &dir.join("profile.input.stmt"))?;
    let before = run(case, &input, None, limit).map_err(|e| e.to_string())?;
    let output =
        inject_profiling(&input, &pipeline, &env, &ProfileOptions::default()).map_err(|e| e.to_string())?;
    let after =
        run(case, &output.stmt, Some(&before), limit).map_err(|e| format!("the pass's output: {e}"))?;
    Ok(compare_outputs(&after, &before))
}

/// The shapes of a case, from its latest stage that answers a bounds query.
fn shapes(case: &str) -> Result<PipelineRun, String> {
    reference_run(case, LIMIT).map(|(_, r)| r)
}

fn alloc_case(case: &str) -> Result<Agreement, String> {
    let dir = cases_dir().join(case);
    let env = env_of(&dir).ok_or("no bounds env")?;
    let input = parse(&dir, &dir.join("allocbounds.input.stmt"))?;
    let defs = parse(&dir, &dir.join("bounds.input.stmt"))?;
    let fb = loopir_bounds::func_value_bounds::func_value_bounds_of_definitions(&defs, &env);
    let output = loopir_bounds::allocation_bounds::allocation_bounds_inference(&input, &env, &fb, 0)
        .map_err(|e| format!("the pass fails: {e}"))?;
    let shaped = shapes(case)?;
    let before = run(case, &input, Some(&shaped), LIMIT).map_err(|e| format!("the pass's input: {e}"))?;
    let after = run(case, &output, Some(&shaped), LIMIT).map_err(|e| format!("the pass's output: {e}"))?;
    Ok(compare_outputs(&after, &before))
}

fn compute_case(case: &str) -> Result<Agreement, String> {
    let dir = cases_dir().join(case);
    let env = env_of(&dir).ok_or("no bounds env")?;
    let input = parse(&dir, &dir.join("bounds.input.stmt"))?;
    let ctx = loopir_simplify::Ctx::new();
    ctx.seed_t(env.fresh_names.t.unwrap_or(0));
    let output = loopir_bounds::compute_bounds::computation_bounds_inference(&ctx, &input, &env)
        .map_err(|e| format!("the pass fails: {e}"))?;
    let expected = parse(&dir, &dir.join("bounds.expected.stmt"))?;
    let shaped = shapes(case)?;
    let theirs =
        run(case, &expected, Some(&shaped), LIMIT).map_err(|e| format!("the reference's output: {e}"))?;
    let ours = run(case, &output, Some(&shaped), LIMIT).map_err(|e| format!("the pass's output: {e}"))?;
    Ok(compare_outputs(&ours, &theirs))
}

#[test]
fn profiling_keeps_the_meaning_of_every_profile_case() {
    let problems = check_all("inject_profiling", "profile.input.stmt", PROFILE_CANNOT_RUN, profile_case);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn allocation_bounds_inference_keeps_the_meaning() {
    let problems =
        check_all("allocation bounds inference", "allocbounds.input.stmt", ALLOC_CANNOT_RUN, alloc_case);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn computation_bounds_inference_computes_what_the_reference_computes() {
    let problems =
        check_all("computation bounds inference", "bounds.input.stmt", COMPUTE_CANNOT_RUN, compute_case);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The profile cases over the suite's budget (the cases of [`HEAVY`] with a profile
/// input), with a budget of minutes a run: `cargo test --test interp_passes --
/// --ignored`.
#[test]
#[ignore = "minutes of interpretation; run on demand"]
fn the_heavy_profile_cases_keep_their_meaning() {
    let mut problems = Vec::new();
    let cases = case_names("profile.input.stmt");
    for case in HEAVY.iter().filter(|c| cases.iter().any(|n| n == *c)) {
        let start = std::time::Instant::now();
        let result = profile_case_within(case, HEAVY_LIMIT);
        println!("inject_profiling {case}: {result:?} in {:.1?}", start.elapsed());
        match result {
            Ok(Agreement::Exact | Agreement::Rounding(_)) => {}
            other => problems.push(format!("{case}: {other:?}")),
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
