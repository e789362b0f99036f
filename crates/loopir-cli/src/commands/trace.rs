//! `loopir trace`: the inject-tracing pass on a `.stmt` file, or (`--check`) the trace
//! hierarchy checker on one.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use loopir::stmt_to_string;
use loopir_profiling::{TraceEnv, check_trace_hierarchy, inject_tracing};

use super::{parse, read_env, read_input};
use crate::error::{CliError, InFile};
use crate::streams::{eprint, print, report};

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
    /// error (not with `--check`).
    #[arg(long, conflicts_with = "check")]
    timings: bool,
}

/// Runs `loopir trace`.
pub fn run(args: &TraceArgs) -> Result<(), CliError> {
    let input = read_input(args.file.as_deref())?;
    let env = read_env(args.env.as_deref(), TraceEnv::from_json)?;
    let parse_env = env.as_ref().map(TraceEnv::parse_env).unwrap_or_default();
    let t0 = Instant::now();
    let stmt = parse(&input, &parse_env)?;
    let parse_ns = t0.elapsed().as_nanos();

    if args.check {
        return match check_trace_hierarchy(&stmt) {
            Ok(()) => {
                // The verdict is the exit code; the line only says it in words.
                report(&format!(
                    "{}: every trace event has its innermost enclosing event as parent\n",
                    input.name
                ));
                Ok(())
            }
            Err(violations) => {
                let listed: String = violations.iter().map(|v| format!("{}: {v}\n", input.name)).collect();
                report(&listed);
                Err(CliError::input(format!(
                    "{}: {} trace hierarchy violation(s)",
                    input.name,
                    violations.len()
                )))
            }
        };
    }

    let env = env.ok_or_else(|| {
        CliError::input("instrumenting needs --env TRACE_ENV.json (what to trace, and the pipeline's Funcs)")
    })?;
    let t1 = Instant::now();
    let traced = inject_tracing(&stmt, &env).in_file(&input.name)?;
    let pass_ns = t1.elapsed().as_nanos();
    let t2 = Instant::now();
    let text = stmt_to_string(&traced);
    let print_ns = t2.elapsed().as_nanos();
    print(text.as_bytes())?;
    if args.timings {
        eprint(&format!("{{\"parse_ns\": {parse_ns}, \"pass_ns\": {pass_ns}, \"print_ns\": {print_ns}}}\n"))?;
    }
    Ok(())
}
