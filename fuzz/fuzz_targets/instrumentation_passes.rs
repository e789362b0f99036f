//! Runs the printer and parser, and the profiling and tracing passes, on arbitrary text.
//! Parsing must fail with an error, never panic; whatever parses must print as text that
//! parses back to a statement printing the same (what `loopir fmt` relies on); and both
//! passes must return (a result or an error) without panicking. Whatever the interpreter
//! accepts runs (it must return, never panic), and where both the profiling pass's input
//! and output run, they must compute the same outputs. The first byte picks one of a few
//! tracing envs (in-repo fixtures) and the profiling features.

#![no_main]

use std::sync::LazyLock;

use libfuzzer_sys::fuzz_target;
use loopir_profiling::{FuncEnv, ProfileOptions, TraceEnv, inject_profiling, inject_tracing};

/// Tracing fixtures whose `#!env` lines describe small real pipelines.
const TRACE_FIXTURES: [&str; 4] = [
    include_str!("../../filetests/tracing/06_trace_all_two_stage.stmt"),
    include_str!("../../filetests/tracing/07_image_param_loads_in_produce.stmt"),
    include_str!("../../filetests/tracing/08_embedded_buffer_trace_loads.stmt"),
    include_str!("../../filetests/tracing/09_tuple_store.stmt"),
];

/// The envs of the tracing fixtures (their `#!env` lines, concatenated), read once
/// (`None` for one that does not read).
static TRACE_ENVS: LazyLock<Vec<Option<TraceEnv>>> = LazyLock::new(|| {
    TRACE_FIXTURES
        .iter()
        .map(|fixture| {
            let json: String = fixture.lines().filter_map(|l| l.strip_prefix("#!env ")).collect();
            TraceEnv::from_json(&json).ok()
        })
        .collect()
});

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else { return };
    let Ok(text) = std::str::from_utf8(rest) else { return };

    if let Ok(stmt) = loopir::parse_stmt(text) {
        // The printed form reads back as the same statement.
        let printed = stmt.to_string();
        match loopir::parse_stmt(&printed) {
            Ok(again) => assert_eq!(again.to_string(), printed, "printing is not a fixed point"),
            Err(e) => panic!("printed text does not parse: {e}\n{printed}"),
        }
        let options = ProfileOptions::from_bits(pick >> 4).unwrap_or(ProfileOptions::ALL);
        let env = FuncEnv::infer_from_stmt(&stmt);
        let profiled = inject_profiling(&stmt, "pipeline", &env, &options);
        // The pass keeps the program's meaning wherever both sides run.
        if let Some(before) = interpret(&stmt, None)
            && let Ok(out) = profiled
            && let Some(after) = interpret(&out.stmt, Some(&before))
        {
            assert_eq!(after.outputs, before.outputs, "inject_profiling changed the outputs of\n{stmt}");
        }
    }

    let Some(env) = TRACE_ENVS[usize::from(pick) % TRACE_FIXTURES.len()].as_ref() else { return };
    if let Ok(stmt) = loopir::parse_stmt_with_env(text, &env.parse_env()) {
        let _ = inject_tracing(&stmt, env);
    }
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
