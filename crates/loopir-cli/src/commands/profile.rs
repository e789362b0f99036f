//! `loopir profile`: the inject-profiling pass on a `.stmt` file.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use loopir::{ParseEnv, parse_stmt_bytes, stmt_to_string};
use loopir_profiling::{FuncEnv, ProfileOptions, inject_profiling};

use super::read_input;
use crate::diagnostics::report_parse_error;

/// Arguments of `loopir profile`.
#[derive(Args)]
pub struct ProfileArgs {
    /// The `.stmt` file to instrument (`-` or nothing for standard input).
    file: Option<PathBuf>,
    /// The Funcs of the pipeline, as JSON (`profile.env.json`). Without it, every
    /// produce/consume name is taken for a profiled Func.
    #[arg(long)]
    env: Option<PathBuf>,
    /// The pipeline name (default: the env's `pipeline`).
    #[arg(long)]
    pipeline: Option<String>,
    /// Print the entry table as the profiler report's tree instead of the statement.
    #[arg(long, conflicts_with = "json")]
    entries: bool,
    /// Print the entry table as JSON instead of the statement.
    #[arg(long)]
    json: bool,
    /// Run the pass this many times (for timing).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
    /// Print one JSON object with parse, pass (median of the repeats) and print times in
    /// nanoseconds on standard error.
    #[arg(long)]
    timings: bool,
}

/// Runs `loopir profile`.
pub fn run(args: &ProfileArgs) -> Result<ExitCode, String> {
    let input = read_input(args.file.as_ref())?;
    let env = match &args.env {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            Some(FuncEnv::from_json(&text).map_err(|e| format!("{}: {e}", path.display()))?)
        }
        None => None,
    };

    let t0 = Instant::now();
    let stmt = match parse_stmt_bytes(&input.bytes, &ParseEnv::default()) {
        Ok(s) => s,
        Err(e) => {
            report_parse_error(&input, &e);
            return Ok(ExitCode::from(1));
        }
    };
    let parse_ns = t0.elapsed().as_nanos();

    let env = env.unwrap_or_else(|| FuncEnv::infer_from_stmt(&stmt));
    let pipeline = args
        .pipeline
        .as_deref()
        .or(env.pipeline_name())
        .ok_or("no pipeline name: pass --pipeline NAME or an --env that names the pipeline")?
        .to_owned();

    let options = ProfileOptions::default();
    let mut pass_times = Vec::with_capacity(args.repeat as usize);
    let mut result = None;
    for _ in 0..args.repeat {
        let t = Instant::now();
        let r = inject_profiling(&stmt, &pipeline, &env, &options);
        pass_times.push(t.elapsed().as_nanos());
        result = Some(r);
    }
    let profiled = match result {
        Some(Ok(p)) => p,
        Some(Err(e)) => {
            eprintln!("error: {}: {e}", input.name);
            return Ok(ExitCode::from(1));
        }
        None => return Err("the pass did not run".into()),
    };

    let t1 = Instant::now();
    let text = if args.entries {
        profiled.entries.render_tree()
    } else if args.json {
        let mut j = profiled.entries.to_json();
        j.push('\n');
        j
    } else {
        stmt_to_string(&profiled.stmt)
    };
    let print_ns = t1.elapsed().as_nanos();

    std::io::stdout().lock().write_all(text.as_bytes()).map_err(|e| format!("cannot write output: {e}"))?;
    if args.timings {
        pass_times.sort_unstable();
        let median = pass_times[pass_times.len() / 2];
        eprintln!(
            "{{\"parse_ns\": {parse_ns}, \"pass_ns\": {median}, \"print_ns\": {print_ns}, \"repeat\": {}}}",
            args.repeat
        );
    }
    Ok(ExitCode::SUCCESS)
}
