//! Runs the printer and parser, and the profiling and tracing passes, on arbitrary text.
//! Parsing must fail with an error, never panic; whatever parses must print as text that
//! parses back to a statement printing the same (what `loopir fmt` relies on); and both
//! passes must return (a result or an error) without panicking. The first byte picks one
//! of a few tracing envs (in-repo fixtures) and the profiling features.

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
        let _ = inject_profiling(&stmt, "pipeline", &env, &options);
    }

    let Some(env) = TRACE_ENVS[usize::from(pick) % TRACE_FIXTURES.len()].as_ref() else { return };
    if let Ok(stmt) = loopir::parse_stmt_with_env(text, &env.parse_env()) {
        let _ = inject_tracing(&stmt, env);
    }
});
