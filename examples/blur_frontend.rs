//! A DSL frontend in miniature: it builds schedule-stage IR through `loopir::build` (no
//! `.stmt` text), describes the pipeline in the passes' environments, and lowers it with
//! loopir's passes in the reference compiler's order: tracing, computation bounds
//! inference, allocation bounds inference, storage flattening, profiling; for a GPU
//! target also the reference's GPU passes around storage flattening: canonical GPU loop
//! names before it, and after it the choice of the device API and the host-device buffer
//! copies (device allocations, copies to and from the device, dirty bits, device frees).
//!
//! Three pipelines:
//! - a two-stage blur, `blur_x` computed per row of `out`, `out` parallel over its rows;
//! - a histogram: a pure definition, then an update over a two-dimensional RDom;
//! - the blur on a CUDA target, both stages computed at the root in 8x8 tiles of GPU
//!   threads, one tile per GPU block.
//!
//! The reference's other passes in between (sliding window, simplification, image checks,
//! stage skipping and more) change the text of the IR, not what these pipelines compute:
//! `docs/embedding.md` lists them.
//!
//! Run it with `cargo run --release --example blur_frontend`; `tests/blur_frontend.rs`
//! snapshots its output and runs the lowered IR through the interpreter.

use std::error::Error;
use std::fmt::Write;
use std::time::Duration;

use loopir::build::{
    block, cast, clamp, consume, for_loop, func_call, gpu_block, gpu_thread, image_call, int, let_stmt,
    let_stmts, likely_if_innermost, min, parallel, produce, provide, realize, var,
};
use loopir::pipeline::{
    Cause, FuncDesc, ImageDesc, LowerCtx, OutputDesc, Pass, Pipeline, PipelineEnv, PipelineObserver,
    RVarDesc, UpdateDesc,
};
use loopir::{DeviceApi, Expr, MinExtent, Stmt, Type, stmt_to_string};
use loopir_bounds::{AllocationBounds, ComputationBounds};
use loopir_lower::{CanonicalizeGpuVars, InjectHostDevBufferCopies, SelectGpuApi, StorageFlattening};
use loopir_profiling::{EntryTable, InjectProfiling, InjectTracing};

/// One pipeline as the frontend hands it to loopir: the IR, and the one environment that
/// tells the passes what the IR does not say.
pub struct FrontendPipeline {
    /// The schedule-stage IR, as Halide's "creating initial loop nests" leaves it.
    pub stmt: Stmt,
    /// The pipeline's name, Funcs (pure arguments, types, RDoms, what is traced), images,
    /// outputs, realization order and target.
    pub env: PipelineEnv,
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

/// The image `input`, a uint16 buffer parameter of `dimensions` dimensions.
fn input_image(dimensions: usize) -> ImageDesc {
    ImageDesc {
        name: "input".into(),
        ty: U16,
        dimensions: Some(dimensions),
        is_param: true,
        trace_loads: false,
        tags: Vec::new(),
    }
}

/// An environment with the parts both pipelines share: the name, the output `out`, the
/// image `input`, a target that profiles (so computation bounds inference leaves the
/// marker where the profiler turns itself on).
fn pipeline_env(name: &str, funcs: Vec<FuncDesc>, input_dimensions: usize) -> PipelineEnv {
    let mut env = PipelineEnv::new();
    env.pipeline = Some(name.into());
    env.order = Some(funcs.iter().map(|f| f.name.clone()).collect());
    env.funcs = funcs;
    env.images = vec![input_image(input_dimensions)];
    env.outputs = vec![OutputDesc { func: "out".into(), ..OutputDesc::default() }];
    env.target.profile = true;
    env
}

/// The algorithm both schedules share: blur_x's value at `(x, y)`, its stage's loop
/// variables, `(input(x - 1, y) + input(x, y) + input(x + 1, y))/3`.
fn blur_x_value(x: &Expr, y: &Expr) -> Expr {
    let input = |x: Expr| image_call("input", U16, vec![x, y.clone()]);
    (input(x - 1) + input(x.clone()) + input(x + 1)) / 3
}

/// out's value at `(x, y)`, its stage's loop variables:
/// `(blur_x(x, y - 1) + blur_x(x, y) + blur_x(x, y + 1))/3`.
fn out_value(x: &Expr, y: &Expr) -> Expr {
    let blur_x = |y: Expr| func_call("blur_x", U16, vec![x.clone(), y]);
    (blur_x(y - 1) + blur_x(y.clone()) + blur_x(y + 1)) / 3
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
    let blur_x_loops = stage_loop(
        "blur_x",
        0,
        "y",
        stage_loop(
            "blur_x",
            0,
            "x",
            provide("blur_x", vec![blur_x_value(&x, &y)], vec![x.clone(), y.clone()]),
        ),
    );
    let produce_blur_x = produce("blur_x", loop_bound_lets("blur_x", 0, &["x", "y"], blur_x_loops));

    // out's stage 0: the y loop is parallel and holds blur_x's realization.
    let (x, y) = (var("out.s0.x"), var("out.s0.y"));
    let out_x_loop =
        stage_loop("out", 0, "x", provide("out", vec![out_value(&x, &y)], vec![x.clone(), y.clone()]));
    let row = realize_of(
        "blur_x",
        vec![U16],
        &["x", "y"],
        block(vec![produce_blur_x, consume("blur_x", out_x_loop)]),
    );
    let y_loop = parallel("out.s0.y", var("out.s0.y.loop_min"), var("out.s0.y.loop_max"), row);
    let stmt = produce("out", loop_bound_lets("out", 0, &["x", "y"], y_loop));

    // blur_x's realizations are traced: each row's storage and the region computed in it.
    let blur_x = FuncDesc {
        trace_realizations: true,
        ..FuncDesc::new("blur_x").with_signature(vec![U16], &["x", "y"])
    };
    let out = FuncDesc::new("out").with_signature(vec![U16], &["x", "y"]);
    FrontendPipeline { stmt, env: pipeline_env("blur", vec![blur_x, out], 2) }
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
    let bucket = clamp(cast(i32t, image_call("input", U16, vec![rx, ry])), 0, 255);
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
    let produce_hist = produce("hist", let_stmts(lets, block(vec![init, update])));

    let x = var("out.s0.x");
    let out_loop = stage_loop(
        "out",
        0,
        "x",
        provide("out", vec![func_call("hist", i32t, vec![x.clone()]) * 2], vec![x]),
    );
    let produce_out = produce("out", loop_bound_lets("out", 0, &["x"], out_loop));
    let stmt =
        realize_of("hist", vec![i32t], &["x"], block(vec![produce_hist, consume("hist", produce_out)]));

    // Nothing is traced: the tracing pass runs and leaves the IR as it is.
    let rvar = |name: &str| RVarDesc { name: name.into(), min: "0".into(), extent: "100".into() };
    let mut hist = FuncDesc::new("hist").with_signature(vec![i32t], &["x"]);
    hist.updates.push(UpdateDesc { rvars: vec![rvar("r$x"), rvar("r$y")], predicates: Vec::new() });
    let out = FuncDesc::new("out").with_signature(vec![i32t], &["x"]);
    FrontendPipeline { stmt, env: pipeline_env("histogram", vec![hist, out], 2) }
}

/// The side of the square tiles of the GPU blur: each GPU block runs `TILE`x`TILE`
/// threads.
const TILE: i32 = 8;

/// Stage 0 of `func`, a Func of `x` and `y` whose definition is `definition` (written in
/// terms of `func.s0.x` and `func.s0.y`), scheduled as `func.gpu_tile(x, y, xo, yo, xi,
/// yi, TILE, TILE)`: tiles of `TILE`x`TILE` GPU threads, one per GPU block, the last tile
/// of each dimension shifted inwards to end at the region's edge (the tail strategy the
/// reference picks for a pure definition). The loop names are the split variables',
/// `func.s0.y.yo` for the blocks over y and so on; the lets and their order are those of
/// the reference's "creating initial loop nests".
fn gpu_tiled_stage(func: &str, definition: Stmt) -> Stmt {
    let sv = |v: &str| stage_var(func, 0, v);
    let loop_var = |v: &str| var(sv(v));
    let bound = |v: &str, end: &str| var(format!("{}.loop_{end}", sv(v)));
    // Innermost first: the thread loop over x sets `func.s0.x` from the tile's base and
    // the thread index, and so on outwards.
    let mut body = let_stmt(sv("x"), var(format!("{}.base", sv("x.xi"))) + loop_var("x.xi"), definition);
    body = gpu_thread(sv("x.xi"), bound("x.xi", "min"), bound("x.xi", "max"), body);
    body = let_stmt(sv("y"), var(format!("{}.base", sv("y.yi"))) + loop_var("y.yi"), body);
    body = gpu_thread(sv("y.yi"), bound("y.yi", "min"), bound("y.yi", "max"), body);
    for (outer, inner, dim) in [("x.xo", "x.xi", "x"), ("y.yo", "y.yi", "y")] {
        // The tile's first coordinate, shifted inwards so that the tile ends at the
        // region's last coordinate at the latest.
        let base = min(
            likely_if_innermost(loop_var(outer) * TILE + bound(dim, "min")),
            bound(dim, "max") + (int(1) - TILE),
        );
        body = let_stmt(format!("{}.base", sv(inner)), base, body);
        body = gpu_block(sv(outer), bound(outer, "min"), bound(outer, "max"), body);
    }
    // The bounds of the split loops, x's split first as the schedule made it: the outer
    // loop counts tiles, the inner one the coordinates of a tile.
    let mut lets = Vec::new();
    for (dim, outer, inner) in [("x", "x.xo", "x.xi"), ("y", "y.yo", "y.yi")] {
        let tiles = ((bound(dim, "max") - bound(dim, "min")) + TILE) / TILE - 1;
        lets.push((format!("{}.loop_max", sv(outer)), tiles));
        lets.push((format!("{}.loop_min", sv(outer)), int(0)));
        lets.push((format!("{}.loop_max", sv(inner)), int(TILE) - 1));
        lets.push((format!("{}.loop_min", sv(inner)), int(0)));
    }
    loop_bound_lets(func, 0, &["x", "y"], let_stmts(lets, body))
}

/// The blur of [`blur`] on a CUDA target:
///
/// ```text
/// blur_x.compute_root().gpu_tile(x, y, xo, yo, xi, yi, 8, 8)
/// out.gpu_tile(x, y, xo, yo, xi, yi, 8, 8)
/// ```
///
/// The loops are `gpu_block<Default_GPU>` and `gpu_thread<Default_GPU>`, named after the
/// split variables; canonical GPU names and the CUDA API are the lowering's business.
/// Nothing is traced: tracing has nothing to say inside a GPU kernel.
pub fn gpu_blur() -> FrontendPipeline {
    let (x, y) = (var("blur_x.s0.x"), var("blur_x.s0.y"));
    let produce_blur_x = produce(
        "blur_x",
        gpu_tiled_stage("blur_x", provide("blur_x", vec![blur_x_value(&x, &y)], vec![x, y.clone()])),
    );

    let (x, y) = (var("out.s0.x"), var("out.s0.y"));
    let produce_out =
        produce("out", gpu_tiled_stage("out", provide("out", vec![out_value(&x, &y)], vec![x, y.clone()])));
    let stmt = realize_of(
        "blur_x",
        vec![U16],
        &["x", "y"],
        block(vec![produce_blur_x, consume("blur_x", produce_out)]),
    );

    let blur_x = FuncDesc::new("blur_x").with_signature(vec![U16], &["x", "y"]);
    let out = FuncDesc::new("out").with_signature(vec![U16], &["x", "y"]);
    let mut env = pipeline_env("gpu_blur", vec![blur_x, out], 2);
    env.target.default_device_api = Some(DeviceApi::Cuda);
    FrontendPipeline { stmt, env }
}

/// The passes for `env`'s target, in the reference's order: tracing, computation bounds,
/// allocation bounds, storage flattening, profiling; on a target with a GPU, canonical
/// GPU loop names just before storage flattening, and just after it the device API of
/// `Default_GPU` loops then the host-device buffer copies, as the reference does.
pub fn passes(env: &PipelineEnv) -> Pipeline {
    let gpu = env.target.default_device_api.is_some();
    let mut passes = Pipeline::new().with(InjectTracing).with(ComputationBounds).with(AllocationBounds);
    if gpu {
        passes = passes.with(CanonicalizeGpuVars);
    }
    passes = passes.with(StorageFlattening);
    if gpu {
        passes = passes.with(SelectGpuApi).with(InjectHostDevBufferCopies);
    }
    passes.with(InjectProfiling::default())
}

/// Keeps the IR storage flattening returns.
#[derive(Default)]
struct KeepFlattened(Option<Stmt>);

impl PipelineObserver for KeepFlattened {
    fn after(&mut self, _: usize, pass: Option<&dyn Pass>, stmt: &Stmt, _: Duration) -> Result<(), Cause> {
        if pass.is_some_and(|p| p.name() == "flatten") {
            self.0 = Some(stmt.clone());
        }
        Ok(())
    }
}

/// Runs the passes of [`passes`] over one context, the verifier checking the input and
/// every pass's output.
pub fn lower(p: &FrontendPipeline) -> Result<Lowered, Box<dyn Error>> {
    let mut ctx = LowerCtx::new(p.env.clone())?;
    ctx.options.verify = true;
    let pipeline = passes(&p.env);
    let mut flattened = KeepFlattened::default();
    let profiled = pipeline.run_observed(&p.stmt, &mut ctx, &mut [&mut flattened])?;
    let entries = ctx.analysis::<EntryTable>().ok_or("the profiling pass left no entry table")?;
    Ok(Lowered {
        flattened: flattened.0.ok_or("the pipeline has no storage flattening")?,
        profiled,
        entries: (*entries).clone(),
    })
}

/// What the example prints for one pipeline: the IR it built, the final IR and the
/// profiler's entry tree.
pub fn report(p: &FrontendPipeline) -> Result<String, Box<dyn Error>> {
    let lowered = lower(p)?;
    let name = p.env.pipeline.as_deref().unwrap_or("pipeline");
    let mut out = String::new();
    writeln!(out, "== {name}: the pipeline environment ==\n{}", p.env.to_json())?;
    writeln!(out, "== {name}: the IR the frontend built ==")?;
    out.push_str(&stmt_to_string(&p.stmt));
    let steps: Vec<&str> = passes(&p.env).passes().map(|pass| describe(pass.name())).collect();
    let (last, first) = steps.split_last().ok_or("the pipeline has no passes")?;
    writeln!(out, "\n== {name}: after {} and {last} ==", first.join(", "))?;
    out.push_str(&stmt_to_string(&lowered.profiled));
    writeln!(out, "\n== {name}: the profiler report's entries ==")?;
    out.push_str(&lowered.entries.render_tree());
    Ok(out)
}

/// A pass's name in the report's headings.
fn describe(pass: &str) -> &str {
    match pass {
        "trace" => "tracing",
        "allocation_bounds" => "allocation bounds",
        "gpu_vars" => "GPU loop names",
        "flatten" => "flattening",
        "gpu_api" => "GPU API selection",
        "host_dev_copies" => "host-device copies",
        "profile" => "profiling",
        other => other,
    }
}

/// The example's whole output.
pub fn run() -> Result<String, Box<dyn Error>> {
    Ok(format!("{}\n{}\n{}", report(&blur())?, report(&histogram())?, report(&gpu_blur())?))
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
