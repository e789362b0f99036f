//! Every lowering stage of every oracle case, from computation bounds inference on, run
//! by the interpreter: all the stages of a case must compute the same outputs from the
//! same inputs. This checks the interpreter against the reference's own lowering (each
//! stage is the reference's rewrite of the one before, which must keep its meaning).
//!
//! The buffers' shapes come from the latest stage that answers a bounds query; every
//! stage then runs on those shapes and inputs. A stage that cannot run is listed in
//! [`CANNOT_RUN`] with the reason; a listed reason that no longer happens is an error
//! too, so the table stays true.
//!
//! The cases of [`OVER_BUDGET`] run in ignored tests, one per case, with minutes of
//! interpretation each: `cargo test --test oracle_interp -- --ignored` (docs/testing.md).

mod interp_support;

use interp_support::{
    Agreement, HEAVY_LIMIT, cases_dir, compare_outputs, parse_text, reference_run_with, run, stage_name,
    stages, tuple_reads,
};
use loopir_interp::PipelineRun;

/// The operations one run of one stage may execute in the suite (about half a second:
/// the interpreter does about 2.4*10^8 a second): a case whose smallest accepted size
/// needs more for some stage is in [`OVER_BUDGET`].
const LIMIT: u64 = 120_000_000;

/// How much a test may run.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Budget {
    /// The suite's: [`LIMIT`] operations a run; the cases of [`OVER_BUDGET`] are skipped.
    Suite,
    /// The ignored tests': [`HEAVY_LIMIT`] a run (the heaviest stage measured,
    /// stencil_chain.cpu's 04, needs 7.1*10^10; conv_layer.cpu's 04 6.8*10^10).
    Heavy,
}

impl Budget {
    fn limit(self) -> u64 {
        match self {
            Budget::Suite => LIMIT,
            Budget::Heavy => HEAVY_LIMIT,
        }
    }

    /// Whether a test with this budget skips `case`.
    fn skips(self, case: &str) -> bool {
        self == Budget::Suite && OVER_BUDGET.contains(&case)
    }
}

/// Stages that cannot run, as (case or "*" for every case, stage file prefix or "" for
/// every stage, a part of the error). Each reason is either text that does not hold the
/// program (the file calls code it does not contain, or does not print what a node
/// reads), or a run longer than the suite's budget ([`LIMIT`]; the counts are what the
/// smallest accepted size needs), or a known gap of the interpreter.
const CANNOT_RUN: &[(&str, &str, &str)] = &[
    // From closure conversion on, parallel loop bodies and async tasks are separate
    // functions the stage file does not print.
    ("*", "", "compiled into a closure function whose body is not in the file"),
    ("*", "", "compiled into closure functions whose bodies are not in the file"),
    // From splitting off GPU loops on, kernels are device code the file does not print.
    ("*", "", "device kernels that are not in the file"),
    // Halide's text prints `f(x)[1]` as `f(x)`: such a stage reads the wrong value.
    ("*", "", "the text drops the value index of calls to the tuple-valued"),
    // See OVER_BUDGET.
    ("*", "", "over the suite's budget"),
];

/// Cases some of whose stages need more operations (or memory) than the suite's budget
/// at the smallest size their checks accept: the pipelines fix their sizes (conv_layer:
/// 128x100x80x5 outputs; iir_blur: a 1536x2560x3 transpose; stencil_chain: 384x640
/// tiles) or need large inputs for small outputs (local_laplacian's pyramid: up to
/// 9*10^8 operations a stage; nl_means on GPU: 3*10^8). The suite skips them; each has
/// an ignored test (`heavy_cases!`).
const OVER_BUDGET: &[&str] = &[
    "app_conv_layer.cpu",
    "app_conv_layer.cuda",
    "app_iir_blur.cpu",
    "app_iir_blur.cuda",
    "app_local_laplacian.cpu",
    "app_local_laplacian.cuda",
    "app_local_laplacian.trace",
    "app_nl_means.cuda",
    "app_stencil_chain.cpu",
    "app_stencil_chain.cuda",
];

/// Float constants Halide's text rounds, as (application, the constant as printed, the
/// value the reference's IR holds): the printer writes a float with 6 decimals
/// (`std::fixed`), so a constant below 0.1 loses digits, and a stage printing one
/// computes with another program than the reference's. Every stage text of the
/// application (the one that sets the shapes too) runs with the values restored; the
/// stages that print one are counted apart (with `LOOPIR_INTERP_REPORT`, the suite also
/// runs them as printed, to show what the rounding changes). A constant is replaced
/// where it stands as a whole number (not inside `10.000002f`).
const ROUNDED_CONSTANTS: &[(&str, &str, &str)] = &[
    // camera_pipe mixes its two colour matrices by `alpha = (1/kelvin - 1/3200) / (1/7000
    // - 1/3200)` (apps/camera_pipe/camera_pipe_generator.cpp): until the first
    // simplification folds them into -5894.736816f and 1.842105f, the text prints
    // 1.0f/3200 as 0.000312f and 1.0f/7000 - 1.0f/3200 as -0.000170f. That moves alpha
    // from 0.2489 to 0.2455 at color_temp 3700, which changes coefficients of the
    // int16 colour matrix by one, and the random 16-bit input magnifies that into
    // differences of up to 255 in a few outputs of the red and blue channels.
    ("app_camera_pipe", "0.000312f", "0.0003124999930150807f"),
    ("app_camera_pipe", "-0.000170f", "-0.00016964285168796778f"),
    // local_laplacian's grey level `0.299f*r + 0.587f*g + 0.114f*b` of `input/65535.0f`
    // (apps/local_laplacian): from the first simplification on, the factors are folded
    // to float32(0.299f/65535.0f) = 4.5624e-6 and so on, printed 0.000005f, 0.000009f
    // and 0.000002f (errors up to 15%); its remapping `exp(-x*x/2)` of `x = i/256.0f`
    // folds 1/256 and -1/(2*256*256) into constants printed 0.003906f and -0.000008f.
    ("app_local_laplacian", "0.000005f", "0.000004562447429634631f"),
    ("app_local_laplacian", "0.000009f", "0.000008957045793067664f"),
    ("app_local_laplacian", "0.000002f", "0.0000017395284430676838f"),
    ("app_local_laplacian", "0.003906f", "0.00390625f"),
    ("app_local_laplacian", "-0.000008f", "-0.00000762939453125f"),
];

/// `text` with the float constants [`ROUNDED_CONSTANTS`] lists for `app` restored.
fn restore_constants(app: &str, text: &str) -> String {
    let mut text = text.to_owned();
    for (_, printed, value) in ROUNDED_CONSTANTS.iter().filter(|(a, _, _)| *a == app) {
        let mut out = String::with_capacity(text.len());
        let mut rest = text.as_str();
        while let Some(k) = rest.find(printed) {
            let whole = !rest[..k].ends_with(|c: char| c.is_ascii_digit() || c == '.' || c == '-');
            out.push_str(&rest[..k]);
            out.push_str(if whole { value } else { printed });
            rest = &rest[k + printed.len()..];
        }
        out.push_str(rest);
        text = out;
    }
    text
}

/// Applications whose outputs are float computations rounded to integers, with why
/// their stages compute float values in different orders. A stage of one whose integer
/// outputs are those of the reference's but for differences of one, in at most one
/// output in a hundred, agrees up to that rounding: reassociating float arithmetic
/// moves a value that lies within a rounding error of an integer to the other side.
const FLOAT_TO_INTEGER: &[(&str, &str)] = &[
    // `output = uint16(clamp(color, 0, 1)*65535.0f)` of a float pyramid. The first
    // simplification folds `0.299f*(r/65535.0f)` into `r*4.5624e-6f` (two roundings
    // into one) and reorders the lerps; stage 43 (removing dead allocations and
    // hoisting loop invariants, which simplifies) reorders them again.
    ("app_local_laplacian", "uint16 of float"),
];

/// Stages that run but compute different outputs, as (case, stage prefix, why).
const DISAGREE: &[(&str, &str, &str)] = &[];

/// The number of integer outputs of `a` that differ from `b`'s, and of all, if every
/// output is of an integer type and differs by at most one.
fn integer_rounding(a: &PipelineRun, b: &PipelineRun) -> Option<(usize, usize)> {
    let (mut differ, mut all) = (0, 0);
    for (name, x) in &a.outputs {
        let (_, y) = b.outputs.iter().find(|(n, _)| n == name)?;
        if x.elem.is_float() || x.elem != y.elem || x.values.len() != y.values.len() {
            return None;
        }
        for (&u, &v) in x.values.iter().zip(&y.values) {
            match (x.elem.as_i128(u) - y.elem.as_i128(v)).abs() {
                0 => {}
                1 => differ += 1,
                _ => return None,
            }
        }
        all += x.values.len();
    }
    Some((differ, all))
}

/// What happened to each stage of a case.
#[derive(Default, Debug)]
struct Report {
    agree: Vec<String>,
    /// Stages that agree up to float rounding, with the largest relative difference.
    rounding: Vec<(String, f64)>,
    /// Stages whose integer outputs agree up to the rounding of float results
    /// ([`FLOAT_TO_INTEGER`]), with the outputs that differ by one and all outputs.
    integer_rounding: Vec<(String, usize, usize)>,
    /// Stages whose text rounds float constants ([`ROUNDED_CONSTANTS`]): they run with
    /// the values restored, and then agree (possibly up to rounding).
    restored: Vec<String>,
    cannot_run: Vec<(String, String)>,
    disagree: Vec<(String, String)>,
    /// Operations executed by the runs of the stages that ran.
    operations: u64,
}

fn check_case(case: &str, budget: Budget) -> Report {
    let dir = cases_dir().join(case);
    let files = stages(&dir);
    let mut report = Report::default();
    if budget.skips(case) {
        for f in &files {
            report.cannot_run.push((stage_name(f), "over the suite's budget (see OVER_BUDGET)".to_owned()));
        }
        return report;
    }
    let app = case.split('.').next().unwrap_or(case);
    let restore = |text: &str| restore_constants(app, text);
    let (ref_stage, reference) = match reference_run_with(case, budget.limit(), &restore) {
        Ok(r) => r,
        Err(why) => {
            for f in &files {
                report.cannot_run.push((stage_name(f), why.clone()));
            }
            return report;
        }
    };
    let reporting = interp_support::reporting();
    if reporting {
        for (n, b) in &reference.outputs {
            println!("REPORT SHAPE {case} {ref_stage} {n}: {b}");
        }
    }
    for f in &files {
        let name = stage_name(f);
        let printed = std::fs::read_to_string(f).unwrap_or_default();
        let text = restore(&printed);
        let restored = text != printed;
        let stmt = match parse_text(&dir, f, &text) {
            Ok(s) => s,
            Err(e) => {
                report.cannot_run.push((name, e));
                continue;
            }
        };
        // Calls of tuple-valued Funcs whose value index the text does not print (Halide
        // prints `f(x)[1]` as `f(x)`): the stage reads the first value instead.
        let lossy = tuple_reads(&stmt);
        let lossy_why =
            || format!("the text drops the value index of calls to the tuple-valued {}", lossy.join(", "));
        match run(case, &stmt, Some(&reference), budget.limit()) {
            Ok(r) => {
                report.operations += r.stats.operations;
                if reporting {
                    println!("REPORT     {case} {name}: {} operations", r.stats.operations);
                }
                // Integer outputs a float computation rounds, equal but for ones.
                let float_to_integer = || {
                    FLOAT_TO_INTEGER
                        .iter()
                        .any(|(a, _)| *a == app)
                        .then(|| integer_rounding(&r, &reference))
                        .flatten()
                        .filter(|&(differ, all)| differ * 100 <= all)
                };
                match compare_outputs(&r, &reference) {
                    Agreement::Exact | Agreement::Rounding(_) if restored => {
                        report.restored.push(name.clone())
                    }
                    Agreement::Exact => report.agree.push(name.clone()),
                    Agreement::Rounding(d) => report.rounding.push((name.clone(), d)),
                    Agreement::Differs(_) if !lossy.is_empty() => {
                        report.cannot_run.push((name.clone(), lossy_why()))
                    }
                    Agreement::Differs(d) => match float_to_integer() {
                        Some(_) if restored => report.restored.push(name.clone()),
                        Some((differ, all)) => report.integer_rounding.push((name.clone(), differ, all)),
                        None => {
                            let note = if restored { ", with its rounded constants restored" } else { "" };
                            report.disagree.push((name.clone(), format!("{d} (against {ref_stage}){note}")))
                        }
                    },
                }
                if reporting && let Some((differ, all)) = float_to_integer().filter(|&(d, _)| d > 0) {
                    println!("REPORT     {case} {name}: {differ} of {all} integer outputs differ by one");
                }
            }
            Err(_) if !lossy.is_empty() => report.cannot_run.push((name.clone(), lossy_why())),
            Err(e) => report.cannot_run.push((name.clone(), e.to_string())),
        }
        // (In the heavy tests, a second run of every such stage would double their time.)
        if restored && reporting && budget == Budget::Suite {
            let as_printed = parse_text(&dir, f, &printed)
                .and_then(|s| run(case, &s, Some(&reference), budget.limit()).map_err(|e| e.to_string()))
                .map(|r| compare_outputs(&r, &reference));
            println!("REPORT     {case} {name}: as printed, {as_printed:?}");
        }
    }
    report
}

fn listed<'a>(table: &'a [(&str, &str, &str)], case: &str, stage: &str, why: &str) -> Option<&'a str> {
    table
        .iter()
        .find(|(c, s, w)| (*c == case || *c == "*") && stage.starts_with(s) && why.contains(w))
        .map(|(_, _, w)| *w)
}

fn verify(case: &str, budget: Budget) {
    let start = std::time::Instant::now();
    let report = check_case(case, budget);
    let elapsed = start.elapsed();
    let mut problems = Vec::new();
    for (stage, why) in &report.cannot_run {
        if listed(CANNOT_RUN, case, stage, why).is_none() {
            problems.push(format!("{stage} cannot run: {why}"));
        }
    }
    for (stage, why) in &report.disagree {
        if listed(DISAGREE, case, stage, why).is_none() {
            problems.push(format!("{stage} computes other outputs: {why}"));
        }
    }
    // A listed failure of this case that no longer happens makes the table untrue.
    for (c, s, w) in CANNOT_RUN.iter().filter(|(c, _, _)| *c == case && !budget.skips(case)) {
        let used = report.cannot_run.iter().any(|(stage, why)| stage.starts_with(s) && why.contains(w));
        if !used {
            problems.push(format!("listed as unable to run but ran: {c} {s} ({w})"));
        }
    }
    for (c, s, w) in DISAGREE.iter().filter(|(c, _, _)| *c == case && !budget.skips(case)) {
        let used = report.disagree.iter().any(|(stage, why)| stage.starts_with(s) && why.contains(w));
        if !used {
            problems.push(format!("listed as disagreeing but agrees or cannot run: {c} {s} ({w})"));
        }
    }
    let app = case.split('.').next().unwrap_or(case);
    if !budget.skips(case)
        && ROUNDED_CONSTANTS.iter().any(|(a, _, _)| *a == app)
        && report.restored.is_empty()
    {
        problems
            .push(format!("listed in ROUNDED_CONSTANTS but no stage of {case} needs its constants restored"));
    }
    if interp_support::reporting() {
        println!(
            "REPORT {case}: {} agree, {} agree up to float rounding, {} agree up to rounding to integers, \
             {} agree once rounded constants are restored, {} cannot run, {} disagree; {} operations, \
             {elapsed:.1?}",
            report.agree.len(),
            report.rounding.len(),
            report.integer_rounding.len(),
            report.restored.len(),
            report.cannot_run.len(),
            report.disagree.len(),
            report.operations,
        );
        for (s, d) in &report.rounding {
            println!("REPORT   {case} {s}: agrees up to a relative {d:.1e}");
        }
        for (s, differ, all) in &report.integer_rounding {
            println!("REPORT   {case} {s}: {differ} of {all} integer outputs differ by one");
        }
        for s in &report.restored {
            println!("REPORT   {case} {s}: agrees once its rounded float constants are restored");
        }
        for (s, w) in &report.cannot_run {
            println!("REPORT   {case} {s}: cannot run: {}", w.lines().next().unwrap_or(""));
        }
        for (s, w) in &report.disagree {
            println!("REPORT   {case} {s}: disagrees: {w}");
        }
    }
    assert!(problems.is_empty(), "{case}:\n  {}", problems.join("\n  "));
}

macro_rules! oracle_cases {
    ($($test:ident => $case:literal,)*) => {
        $(
            #[test]
            fn $test() {
                verify($case, Budget::Suite);
            }
        )*
    };
}

/// One ignored test per case of [`OVER_BUDGET`], which runs every stage of the case with
/// [`HEAVY_LIMIT`] operations a run; and `HEAVY_CASES`, their list.
macro_rules! heavy_cases {
    ($($test:ident => $case:literal,)*) => {
        const HEAVY_CASES: &[&str] = &[$($case),*];
        $(
            #[test]
            #[ignore = "minutes of interpretation: `cargo test --test oracle_interp -- --ignored`"]
            fn $test() {
                verify($case, Budget::Heavy);
            }
        )*
    };
}

heavy_cases! {
    heavy_app_conv_layer_cpu => "app_conv_layer.cpu",
    heavy_app_conv_layer_cuda => "app_conv_layer.cuda",
    heavy_app_iir_blur_cpu => "app_iir_blur.cpu",
    heavy_app_iir_blur_cuda => "app_iir_blur.cuda",
    heavy_app_local_laplacian_cpu => "app_local_laplacian.cpu",
    heavy_app_local_laplacian_cuda => "app_local_laplacian.cuda",
    heavy_app_local_laplacian_trace => "app_local_laplacian.trace",
    heavy_app_nl_means_cuda => "app_nl_means.cuda",
    heavy_app_stencil_chain_cpu => "app_stencil_chain.cpu",
    heavy_app_stencil_chain_cuda => "app_stencil_chain.cuda",
}

#[test]
fn every_case_over_the_budget_has_a_heavy_test() {
    let mut over: Vec<&str> = OVER_BUDGET.to_vec();
    let mut heavy: Vec<&str> = HEAVY_CASES.to_vec();
    over.sort_unstable();
    heavy.sort_unstable();
    assert_eq!(over, heavy);
}

oracle_cases! {
    app_bgu_cpu => "app_bgu.cpu",
    app_bilateral_grid_cpu => "app_bilateral_grid.cpu",
    app_bilateral_grid_cuda => "app_bilateral_grid.cuda",
    app_camera_pipe_cpu => "app_camera_pipe.cpu",
    app_camera_pipe_cuda => "app_camera_pipe.cuda",
    app_camera_pipe_trace => "app_camera_pipe.trace",
    app_conv_layer_cpu => "app_conv_layer.cpu",
    app_conv_layer_cuda => "app_conv_layer.cuda",
    app_daubechies_x_cpu => "app_daubechies_x.cpu",
    app_depthwise_separable_conv_cpu => "app_depthwise_separable_conv.cpu",
    app_halide_blur_cpu => "app_halide_blur.cpu",
    app_harris_cpu => "app_harris.cpu",
    app_harris_cuda => "app_harris.cuda",
    app_harris_trace => "app_harris.trace",
    app_hist_cpu => "app_hist.cpu",
    app_iir_blur_cpu => "app_iir_blur.cpu",
    app_iir_blur_cuda => "app_iir_blur.cuda",
    app_interpolate_cpu => "app_interpolate.cpu",
    app_interpolate_cuda => "app_interpolate.cuda",
    app_interpolate_trace => "app_interpolate.trace",
    app_lens_blur_cpu => "app_lens_blur.cpu",
    app_lens_blur_cuda => "app_lens_blur.cuda",
    app_local_laplacian_cpu => "app_local_laplacian.cpu",
    app_local_laplacian_cuda => "app_local_laplacian.cuda",
    app_local_laplacian_trace => "app_local_laplacian.trace",
    app_max_filter_cpu => "app_max_filter.cpu",
    app_nl_means_cpu => "app_nl_means.cpu",
    app_nl_means_cuda => "app_nl_means.cuda",
    app_stencil_chain_cpu => "app_stencil_chain.cpu",
    app_stencil_chain_cuda => "app_stencil_chain.cuda",
    app_unsharp_cpu => "app_unsharp.cpu",
    app_unsharp_cuda => "app_unsharp.cuda",
    async_producer_cpu => "async_producer.cpu",
    async_producer_trace => "async_producer.trace",
    compute_at_nesting_cpu => "compute_at_nesting.cpu",
    compute_at_nesting_cuda => "compute_at_nesting.cuda",
    compute_at_nesting_trace => "compute_at_nesting.trace",
    extern_stage_cpu => "extern_stage.cpu",
    gpu_basic_cuda => "gpu_basic.cuda",
    gpu_heap_allocgroup_cuda => "gpu_heap_allocgroup.cuda",
    gpu_host_bounce_cuda => "gpu_host_bounce.cuda",
    gpu_shared_allocgroup_cuda => "gpu_shared_allocgroup.cuda",
    heap_and_stack_cpu => "heap_and_stack.cpu",
    hoist_storage_cpu => "hoist_storage.cpu",
    multi_output_cpu => "multi_output.cpu",
    nested_parallel_cpu => "nested_parallel.cpu",
    serial_chain_cpu => "serial_chain.cpu",
    serial_chain_trace => "serial_chain.trace",
    sliding_window_cpu => "sliding_window.cpu",
    traced_funcs_cpu => "traced_funcs.cpu",
    traced_funcs_trace => "traced_funcs.trace",
    traced_funcs_tracefuncs => "traced_funcs.tracefuncs",
    tuple_func_cpu => "tuple_func.cpu",
    tuple_func_trace => "tuple_func.trace",
    two_parents_cpu => "two_parents.cpu",
    two_stage_root_cpu => "two_stage_root.cpu",
    two_stage_root_cuda => "two_stage_root.cuda",
    two_stage_root_trace => "two_stage_root.trace",
    update_stages_cpu => "update_stages.cpu",
    wrapper_in_cpu => "wrapper_in.cpu",
}
