//! A DSL frontend in miniature: it builds schedule-stage IR through `loopir::build` (no
//! `.stmt` text), describes the pipeline in the passes' environments, and lowers it with
//! loopir's passes in the reference compiler's order: tracing, computation bounds
//! inference, allocation bounds inference, storage flattening, profiling.
//!
//! Two pipelines:
//! - a two-stage blur, `blur_x` computed per row of `out`, `out` parallel over its rows;
//! - a histogram: a pure definition, then an update over a two-dimensional RDom.
//!
//! Run it with `cargo run --release --example blur_frontend`; `tests/blur_frontend.rs`
//! snapshots its output and runs the lowered IR through the interpreter.

use std::collections::BTreeMap;
use std::error::Error;
use std::fmt::Write;

use loopir::build::{
    clamp, consume, for_loop, func_call, image_call, int, let_stmts, parallel, produce, provide, realize, var,
};
use loopir::{Expr, MinExtent, Stmt, Type, stmt_to_string};
use loopir_bounds::env::{BoundsEnv, Func as BoundsFunc, Output, RVar, Target, Update};
use loopir_bounds::func_value_bounds::func_value_bounds_from_text;
use loopir_lower::fresh_names::first_unused_t;
use loopir_lower::{FlattenEnv, infer_images, storage_flattening};
use loopir_profiling::tracing::{FuncTracing, ImageTracing, OutputTracing};
use loopir_profiling::{
    EntryTable, FuncEnv, FuncInfo, ProfileOptions, TraceEnv, inject_profiling, inject_tracing,
};

/// One pipeline as the frontend hands it to loopir: the IR and what the passes must know
/// beyond it.
pub struct FrontendPipeline {
    /// The pipeline's name (the profiler report's title).
    pub name: String,
    /// The schedule-stage IR, as Halide's "creating initial loop nests" leaves it.
    pub stmt: Stmt,
    /// Realization order, outputs, each Func's pure arguments, types and RDoms.
    pub bounds: BoundsEnv,
    /// What is traced.
    pub trace: TraceEnv,
    /// Which produce/consume names are profiled Funcs.
    pub profile: FuncEnv,
}

/// The IR before and after profiling, and the profiler's entry table.
pub struct Lowered {
    /// After storage flattening (the last step before profiling).
    pub flattened: Stmt,
    /// After profiling: the final IR.
    pub profiled: Stmt,
    /// The rows the profiler will report.
    pub entries: EntryTable,
}

const U16: Type = Type::uint(16, 1);

/// `name.s<stage>.<var>`: the loop variable of `var` in stage `stage` of Func `name`.
fn stage_var(func: &str, stage: u32, v: &str) -> String {
    format!("{func}.s{stage}.{v}")
}

/// Halide's loop-nest preamble of one stage: `let f.sN.v.loop_max = f.sN.v.max` and
/// `let f.sN.v.loop_min = f.sN.v.min` for each loop variable, innermost variable last in
/// `vars` but outermost in the lets (as the reference writes them).
fn loop_bound_lets(func: &str, stage: u32, vars: &[&str], body: Stmt) -> Stmt {
    let mut lets = Vec::new();
    for v in vars.iter().rev() {
        let sv = stage_var(func, stage, v);
        lets.push((format!("{sv}.loop_max"), var(format!("{sv}.max"))));
        lets.push((format!("{sv}.loop_min"), var(format!("{sv}.min"))));
    }
    let_stmts(lets, body)
}

/// A serial loop over `f.sN.v` from its `loop_min` to its `loop_max`.
fn stage_loop(func: &str, stage: u32, v: &str, body: Stmt) -> Stmt {
    let sv = stage_var(func, stage, v);
    for_loop(sv.clone(), var(format!("{sv}.loop_min")), var(format!("{sv}.loop_max")), body)
}

/// `realize f([f.x.min_realized, f.x.extent_realized], ...)`: the bounds allocation bounds
/// inference defines.
fn realize_of(func: &str, types: Vec<Type>, args: &[&str], body: Stmt) -> Stmt {
    let bounds = args
        .iter()
        .map(|a| MinExtent {
            min: var(format!("{func}.{a}.min_realized")),
            extent: var(format!("{func}.{a}.extent_realized")),
        })
        .collect();
    realize(func, types, bounds, body)
}

fn bounds_func(args: &[&str], types: &[&str]) -> BoundsFunc {
    BoundsFunc {
        args: args.iter().map(|a| a.to_string()).collect(),
        types: types.iter().map(|t| t.to_string()).collect(),
        ..BoundsFunc::default()
    }
}

/// The two-stage blur:
///
/// ```text
/// blur_x(x, y) = (input(x - 1, y) + input(x, y) + input(x + 1, y))/3
/// out(x, y) = (blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1))/3
/// blur_x.compute_at(out, y); out.parallel(y)
/// ```
pub fn blur() -> FrontendPipeline {
    // blur_x's stage 0, over its own loop variables.
    let (x, y) = (var("blur_x.s0.x"), var("blur_x.s0.y"));
    let input = |x: Expr| image_call("input", U16, vec![x, y.clone()]);
    let blur_x_value = (input(&x - 1) + input(x.clone()) + input(&x + 1)) / 3;
    let blur_x_loops = stage_loop(
        "blur_x",
        0,
        "y",
        stage_loop("blur_x", 0, "x", provide("blur_x", vec![blur_x_value], vec![x.clone(), y.clone()])),
    );
    let produce_blur_x = produce("blur_x", loop_bound_lets("blur_x", 0, &["x", "y"], blur_x_loops));

    // out's stage 0: the y loop is parallel and holds blur_x's realization.
    let (x, y) = (var("out.s0.x"), var("out.s0.y"));
    let blur_x = |y: Expr| func_call("blur_x", U16, vec![x.clone(), y]);
    let out_value = (blur_x(&y - 1) + blur_x(y.clone()) + blur_x(&y + 1)) / 3;
    let out_x_loop = stage_loop("out", 0, "x", provide("out", vec![out_value], vec![x.clone(), y.clone()]));
    let row = realize_of(
        "blur_x",
        vec![U16],
        &["x", "y"],
        loopir::build::block(vec![produce_blur_x, consume("blur_x", out_x_loop)]),
    );
    let y_loop = parallel("out.s0.y", var("out.s0.y.loop_min"), var("out.s0.y.loop_max"), row);
    let stmt = produce("out", loop_bound_lets("out", 0, &["x", "y"], y_loop));

    let bounds = BoundsEnv {
        order: vec!["blur_x".into(), "out".into()],
        outputs: vec![Output { func: "out".into(), buffer: "out".into(), ..Output::default() }],
        funcs: BTreeMap::from([
            ("blur_x".into(), bounds_func(&["x", "y"], &["uint16"])),
            ("out".into(), bounds_func(&["x", "y"], &["uint16"])),
        ]),
        // The target profiles: computation bounds inference leaves the marker where the
        // profiler turns itself on.
        target: Target { profile: true },
        ..BoundsEnv::default()
    };
    let mut trace = TraceEnv::new("blur");
    trace.order = bounds.order.clone();
    // Trace blur_x's realizations only: each row's storage and computed region.
    trace.funcs.push(FuncTracing::new("blur_x", &["x", "y"], vec![U16]).trace_realizations());
    trace.funcs.push(FuncTracing::new("out", &["x", "y"], vec![U16]));
    trace.outputs.push(OutputTracing::new("out", 2, vec![U16]));
    trace.images.push(ImageTracing::param("input", U16));
    let mut profile = FuncEnv::new().with(FuncInfo::new("blur_x")).with(FuncInfo::new("out"));
    profile.set_pipeline_name("blur");
    FrontendPipeline { name: "blur".into(), stmt, bounds, trace, profile }
}

/// A histogram of a 100x100 image, scaled:
///
/// ```text
/// RDom r(0, 100, 0, 100)
/// hist(x) = 0
/// hist(clamp(int32(input(r.x, r.y)), 0, 255)) += 1
/// out(x) = hist(x)*2
/// hist.compute_root()
/// ```
pub fn histogram() -> FrontendPipeline {
    let i32t = Type::int(32, 1);
    // Stage 0, the pure definition.
    let x0 = var("hist.s0.x");
    let init = stage_loop("hist", 0, "x", provide("hist", vec![int(0)], vec![x0]));
    // Stage 1, the update: its loops are over the RDom's variables `r$x` and `r$y`.
    let (rx, ry) = (var("hist.s1.r$x"), var("hist.s1.r$y"));
    let bucket = clamp(loopir::build::cast(i32t, image_call("input", U16, vec![rx, ry])), 0, 255);
    let count = func_call("hist", i32t, vec![bucket.clone()]) + 1;
    let update = stage_loop(
        "hist",
        1,
        "r$y",
        stage_loop("hist", 1, "r$x", provide("hist", vec![count], vec![bucket])),
    );
    // The lets of both stages come first, stage 0's outermost; stage 1's pure `x` is
    // defined although no loop of the update runs over it, as the reference does.
    let lets: Vec<(String, Expr)> = [(0, "x"), (1, "r$y"), (1, "r$x"), (1, "x")]
        .into_iter()
        .flat_map(|(s, v)| {
            let sv = stage_var("hist", s, v);
            [
                (format!("{sv}.loop_max"), var(format!("{sv}.max"))),
                (format!("{sv}.loop_min"), var(format!("{sv}.min"))),
            ]
        })
        .collect();
    let produce_hist = produce("hist", let_stmts(lets, loopir::build::block(vec![init, update])));

    let x = var("out.s0.x");
    let out_loop = stage_loop(
        "out",
        0,
        "x",
        provide("out", vec![func_call("hist", i32t, vec![x.clone()]) * 2], vec![x]),
    );
    let produce_out = produce("out", loop_bound_lets("out", 0, &["x"], out_loop));
    let stmt = realize_of(
        "hist",
        vec![i32t],
        &["x"],
        loopir::build::block(vec![produce_hist, consume("hist", produce_out)]),
    );

    let rvar = |name: &str| RVar { name: name.into(), min: "0".into(), extent: "100".into() };
    let mut hist = bounds_func(&["x"], &["int32"]);
    hist.updates.push(Update { rvars: vec![rvar("r$x"), rvar("r$y")], ..Update::default() });
    let bounds = BoundsEnv {
        order: vec!["hist".into(), "out".into()],
        outputs: vec![Output { func: "out".into(), buffer: "out".into(), ..Output::default() }],
        funcs: BTreeMap::from([("hist".into(), hist), ("out".into(), bounds_func(&["x"], &["int32"]))]),
        // The target profiles: computation bounds inference leaves the marker where the
        // profiler turns itself on.
        target: Target { profile: true },
        ..BoundsEnv::default()
    };
    // Nothing is traced: the pass still runs, and leaves the IR as it is.
    let mut trace = TraceEnv::new("histogram");
    trace.order = bounds.order.clone();
    trace.funcs.push(FuncTracing::new("hist", &["x"], vec![i32t]));
    trace.funcs.push(FuncTracing::new("out", &["x"], vec![i32t]));
    trace.outputs.push(OutputTracing::new("out", 1, vec![i32t]));
    trace.images.push(ImageTracing::param("input", U16));
    let mut profile = FuncEnv::new().with(FuncInfo::new("hist")).with(FuncInfo::new("out"));
    profile.set_pipeline_name("histogram");
    FrontendPipeline { name: "histogram".into(), stmt, bounds, trace, profile }
}

/// Runs the passes in the reference's order.
pub fn lower(p: &FrontendPipeline) -> Result<Lowered, Box<dyn Error>> {
    let traced = inject_tracing(&p.stmt, &p.trace)?;

    // Both bounds passes read the Funcs' value bounds, computed once from the definitions
    // (as the reference does) with the context computation bounds inference draws its
    // fresh names from.
    let ctx = loopir_simplify::Ctx::new();
    ctx.seed_t(p.bounds.fresh_names.t.unwrap_or(0));
    let func_bounds = func_value_bounds_from_text(&ctx, &traced);
    let bounded = loopir_bounds::compute_bounds::computation_bounds_inference_with(
        &ctx,
        &traced,
        &p.bounds,
        &func_bounds,
    )?;
    let allocated =
        loopir_bounds::allocation_bounds::allocation_bounds_inference(&bounded, &p.bounds, &func_bounds, 0)?;

    let mut flatten_env = FlattenEnv::from_bounds_env(&p.bounds)?;
    flatten_env.images = infer_images(&allocated, &flatten_env);
    // The passes here do not share one fresh-name counter: start past every name in use.
    let ctx = loopir_simplify::Ctx::new();
    ctx.seed_t(first_unused_t(&allocated));
    let flattened = storage_flattening(&ctx, &allocated, &flatten_env)?;

    let profiled = inject_profiling(&flattened, &p.name, &p.profile, &ProfileOptions::default())?;
    Ok(Lowered { flattened, profiled: profiled.stmt, entries: profiled.entries })
}

/// What the example prints for one pipeline: the IR it built, the final IR and the
/// profiler's entry tree.
pub fn report(p: &FrontendPipeline) -> Result<String, Box<dyn Error>> {
    let lowered = lower(p)?;
    let mut out = String::new();
    writeln!(out, "== {}: the IR the frontend built ==", p.name)?;
    out.push_str(&stmt_to_string(&p.stmt));
    writeln!(out, "\n== {}: after tracing, bounds, allocation bounds, flattening and profiling ==", p.name)?;
    out.push_str(&stmt_to_string(&lowered.profiled));
    writeln!(out, "\n== {}: the profiler report's entries ==", p.name)?;
    out.push_str(&lowered.entries.render_tree());
    Ok(out)
}

/// The example's whole output.
pub fn run() -> Result<String, Box<dyn Error>> {
    Ok(format!("{}\n{}", report(&blur())?, report(&histogram())?))
}

#[allow(dead_code)] // The test includes this file as a module and calls `run` itself.
fn main() {
    match run() {
        Ok(text) => print!("{text}"),
        Err(e) => {
            eprintln!("error: {e}");
            std::process::exit(1);
        }
    }
}
