//! `loopir trace`: the inject-tracing pass on a `.stmt` file, or (`--check`) the trace
//! hierarchy checker on one. Either dialect; a module file is checked function by
//! function, and instrumented in its pipeline's function.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use loopir::StmtFile;
use loopir::dialect::Dialect;
use loopir_profiling::{TraceEnv, check_trace_hierarchy, inject_tracing};

use super::fmt::{ReadArgs, read_stmt_file, write_stmt_file};
use super::{read_env, read_input};
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
    #[command(flatten)]
    read: ReadArgs,
    /// Write the output in this dialect (`reference` or `21`; default: the input's).
    #[arg(long, value_name = "DIALECT")]
    to: Option<Dialect>,
}

/// Runs `loopir trace`.
pub fn run(args: &TraceArgs) -> Result<(), CliError> {
    let input = read_input(args.file.as_deref())?;
    let env = read_env(args.env.as_deref(), TraceEnv::from_json)?;
    let parse_env = env.as_ref().map(TraceEnv::parse_env).unwrap_or_default();
    let t0 = Instant::now();
    let parsed = read_stmt_file(&input, &parse_env, &args.read)?;
    let parse_ns = t0.elapsed().as_nanos();

    if args.check {
        // Halide 21's trace calls were given the reference's thread id on the way in.
        let bodies: Vec<(Option<&str>, &loopir::Stmt)> = match &parsed.value {
            StmtFile::Stmt(s) => vec![(None, s)],
            StmtFile::Module(m) => m.functions.iter().map(|f| (Some(f.name.as_str()), &f.body)).collect(),
        };
        let mut violations: Vec<String> = Vec::new();
        for (func, body) in bodies {
            let place = func.map_or_else(|| input.name.clone(), |f| format!("{}: func {f}", input.name));
            if let Err(found) = check_trace_hierarchy(body) {
                violations.extend(found.into_iter().map(|v| format!("{place}: {v}\n")));
            }
        }
        return match violations.is_empty() {
            true => {
                // The verdict is the exit code; the line only says it in words.
                report(&format!(
                    "{}: every trace event has its innermost enclosing event as parent\n",
                    input.name
                ));
                Ok(())
            }
            false => {
                if parsed.dialect == Dialect::Halide21 {
                    violations.push(format!(
                        "{}: note: the text is Halide 21.0.0's, whose tracing gives loads, stores and \
                         realizations other parents than the innermost enclosing event (Halide fixed \
                         that in eda1e9cecc): its own output has such violations\n",
                        input.name
                    ));
                }
                report(&violations.concat());
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
    let mut file = parsed.value;
    let t1 = Instant::now();
    match &mut file {
        StmtFile::Stmt(s) => *s = inject_tracing(s, &env).in_file(&input.name)?,
        StmtFile::Module(m) => {
            let i = m.pipeline_index().ok_or_else(|| {
                CliError::input(format!("{}: the module has no pipeline function to instrument", input.name))
            })?;
            let body = &mut m.functions[i].body;
            *body = inject_tracing(body, &env).in_file(&input.name)?;
        }
    }
    let pass_ns = t1.elapsed().as_nanos();
    let t2 = Instant::now();
    let text = write_stmt_file(&file, args.to.unwrap_or(parsed.dialect), false, &input.name)?;
    let print_ns = t2.elapsed().as_nanos();
    print(&text)?;
    if args.timings {
        eprint(&format!("{{\"parse_ns\": {parse_ns}, \"pass_ns\": {pass_ns}, \"print_ns\": {print_ns}}}\n"))?;
    }
    Ok(())
}
