//! Runs the bounds passes on arbitrary text: parsing must fail with an error, never panic,
//! and the passes on whatever parses must return (a result or an error) without panicking.
//! Whatever the interpreter accepts runs (it must return, never panic), and where both
//! allocation bounds inference's input and output run, they must compute the same
//! outputs.
//! The first byte picks one of a few real bounds envs (Halide 21 cases), so that texts in
//! the shape of a pass input meet Funcs, outputs and schedules the env describes.

#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use loopir_bounds::env::BoundsEnv;
use loopir_bounds::FuncValueBounds;
use loopir_simplify::{Ctx, Scope};

/// Bounds envs of real pipelines.
const ENVS: [&str; 8] = [
    include_str!("../../fixtures/bounds/halide21/bound_and_clamp.cpu/bounds.env.json"),
    include_str!("../../fixtures/bounds/halide21/boundary_repeat_edge.cpu/bounds.env.json"),
    include_str!("../../fixtures/bounds/halide21/compute_with_fused.cpu/bounds.env.json"),
    include_str!("../../fixtures/bounds/halide21/nested_specializations.cpu/bounds.env.json"),
    include_str!("../../fixtures/bounds/halide21/param_rdom_scatter.cpu/bounds.env.json"),
    include_str!("../../fixtures/bounds/halide21/specialized_update.cpu/bounds.env.json"),
    include_str!("../../fixtures/bounds/halide21/tuple_update.cpu/bounds.env.json"),
    include_str!("../../fixtures/bounds/halide21/extern_image_and_expr.cpu/bounds.env.json"),
];

/// The envs, read once (`None` for one that does not read).
static BOUNDS_ENVS: LazyLock<Vec<Option<BoundsEnv>>> =
    LazyLock::new(|| ENVS.iter().map(|json| BoundsEnv::from_json(json).ok()).collect());

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let Some(env) = BOUNDS_ENVS[usize::from(pick) % ENVS.len()].as_ref() else { return };
    let Ok(stmt) = loopir::parse_stmt_with_env(text, &env.parse_env()) else { return };
    let ctx = Ctx::new();
    ctx.seed_t(env.fresh_names.t.unwrap_or(0));
    let _ = loopir_bounds::compute_bounds::computation_bounds_inference(&ctx, &stmt, env);
    let table = loopir_bounds::func_value_bounds::func_value_bounds_from_text(&Ctx::new(), &stmt);
    let allocated = loopir_bounds::allocation_bounds::allocation_bounds_inference(&stmt, env, &table, 0);
    if let Some(before) = interpret(&stmt, None)
        && let Ok(out) = allocated
        && let Some(after) = interpret(&out, Some(&before))
    {
        assert_eq!(after.outputs, before.outputs, "allocation bounds inference changed the outputs of\n{stmt}");
    }
    let _ = loopir_bounds::boxes_touched(&Ctx::new(), &stmt, &Scope::new(), &FuncValueBounds::default());
});

/// Runs a statement through the interpreter with small limits, as a pipeline (buffers
/// shaped by its own bounds query or by probing, every scalar parameter 3): it must
/// return a result or an error, never panic. `shapes` reuses another run's shapes.
fn interpret(
    stmt: &loopir::Stmt,
    shapes: Option<&loopir_interp::PipelineRun>,
) -> Option<loopir_interp::PipelineRun> {
    use loopir_interp::{HostRuntime, Limits, RunConfig, compile, run_pipeline};
    let program = compile(stmt).ok()?;
    let mut config = RunConfig {
        limits: Limits { operations: 200_000, memory: 1 << 24 },
        candidate_extents: vec![4],
        ..RunConfig::default()
    };
    for p in &program.interface().scalars {
        config.params.insert(p.name.to_string(), 3);
    }
    if let Some(s) = shapes {
        config.shapes = s.shapes.clone();
        config.elems = s.elems.clone();
    }
    run_pipeline(&program, &mut HostRuntime::new(), &config).ok()
}
