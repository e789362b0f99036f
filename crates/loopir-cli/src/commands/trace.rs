//! `loopir trace`: the inject-tracing pass on a `.stmt` file, or (`--check`) the trace
//! hierarchy checker on one.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use loopir::stmt_to_string;
use loopir_profiling::{TraceEnv, check_trace_hierarchy, inject_tracing};

use super::{parse_or_report, read_env, read_input};

/// Arguments of `loopir trace`.
#[derive(Args)]
pub struct TraceArgs {
    /// The `.stmt` file (`-` or nothing for standard input). Read it in lossless form
    /// (`f(x)[1]`) where calls read tuple elements above 0.
    file: Option<PathBuf>,
    /// What is traced and the pipeline's Funcs, outputs and images, as JSON
    /// (`trace.env.json`). Required to instrument; optional with `--check`.
    #[arg(long)]
    env: Option<PathBuf>,
    /// Check the trace events of the input instead of rewriting it: every event's parent
    /// must be the innermost enclosing realization, produce, consume or task event.
    #[arg(long)]
    check: bool,
    /// Print one JSON object with parse, pass and print times in nanoseconds on standard
    /// error.
    #[arg(long)]
    timings: bool,
}

/// Runs `loopir trace`.
pub fn run(args: &TraceArgs) -> Result<ExitCode, String> {
    let input = read_input(args.file.as_ref())?;
    let env = read_env(args.env.as_ref(), TraceEnv::from_json)?;
    let parse_env = env.as_ref().map(TraceEnv::parse_env).unwrap_or_default();
    let t0 = Instant::now();
    let Some(stmt) = parse_or_report(&input, &parse_env) else {
        return Ok(ExitCode::from(1));
    };
    let parse_ns = t0.elapsed().as_nanos();

    if args.check {
        return Ok(match check_trace_hierarchy(&stmt) {
            Ok(()) => {
                eprintln!("{}: every trace event has its innermost enclosing event as parent", input.name);
                ExitCode::SUCCESS
            }
            Err(violations) => {
                for v in &violations {
                    eprintln!("{}: {v}", input.name);
                }
                eprintln!("{}: {} trace hierarchy violation(s)", input.name, violations.len());
                ExitCode::from(1)
            }
        });
    }

    let env =
        env.ok_or("instrumenting needs --env TRACE_ENV.json (what to trace, and the pipeline's Funcs)")?;
    let t1 = Instant::now();
    let traced = match inject_tracing(&stmt, &env) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("error: {}: {e}", input.name);
            return Ok(ExitCode::from(1));
        }
    };
    let pass_ns = t1.elapsed().as_nanos();
    let t2 = Instant::now();
    let text = stmt_to_string(&traced);
    let print_ns = t2.elapsed().as_nanos();
    std::io::stdout().lock().write_all(text.as_bytes()).map_err(|e| format!("cannot write output: {e}"))?;
    if args.timings {
        eprintln!("{{\"parse_ns\": {parse_ns}, \"pass_ns\": {pass_ns}, \"print_ns\": {print_ns}}}");
    }
    Ok(ExitCode::SUCCESS)
}
