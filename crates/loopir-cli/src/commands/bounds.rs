//! `loopir bounds`: the region each Func and buffer is touched over, or (with `--infer`
//! / `--infer-allocations`) computation or allocation bounds inference.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;
use loopir::stmt_to_string;
use loopir_bounds::allocation_bounds::allocation_bounds_inference;
use loopir_bounds::compute_bounds::computation_bounds_inference;
use loopir_bounds::cse::print_boxes;
use loopir_bounds::env::BoundsEnv;
use loopir_bounds::func_value_bounds::{func_value_bounds_from_text, func_value_bounds_of_definitions};
use loopir_bounds::{Ctx, FuncValueBounds, Scope, boxes_touched};

use super::{parse_or_report, read_env, read_input};

/// Arguments of `loopir bounds`.
#[derive(Args)]
pub struct BoundsArgs {
    /// The `.stmt` file (`-` or nothing for standard input).
    file: Option<PathBuf>,
    /// The bounds env (`bounds.env.json`): realization order, outputs, Funcs' types and
    /// explicit bounds. Needed by `--infer-allocations`; it also types Func calls.
    #[arg(long)]
    env: Option<PathBuf>,
    /// Run computation bounds inference (pipelines whose Funcs have one pure stage each;
    /// others are refused with the construct that is not supported) and print the
    /// statement.
    #[arg(long, requires = "env", conflicts_with = "infer_allocations")]
    infer: bool,
    /// Run allocation bounds inference and print the statement.
    #[arg(long, requires = "env")]
    infer_allocations: bool,
    /// With `--infer-allocations`: the statement computation bounds inference started
    /// from (`bounds.input.stmt`). The value ranges of Funcs that bound data-dependent
    /// indices are read from its definitions, as the reference computes them once there;
    /// without it they are read from the input's Provides, which later passes may have
    /// rewritten.
    #[arg(long, requires = "infer_allocations")]
    definitions: Option<PathBuf>,
    /// Print one JSON object with parse, pass and print times in nanoseconds on standard
    /// error.
    #[arg(long)]
    timings: bool,
}

/// Runs `loopir bounds`.
pub fn run(args: &BoundsArgs) -> Result<ExitCode, String> {
    let input = read_input(args.file.as_ref())?;
    let env = read_env(args.env.as_ref(), BoundsEnv::from_json)?;
    let parse_env = env.as_ref().map(BoundsEnv::parse_env).unwrap_or_default();
    let t0 = Instant::now();
    let Some(stmt) = parse_or_report(&input, &parse_env) else {
        return Ok(ExitCode::from(1));
    };
    let parse_ns = t0.elapsed().as_nanos();

    let t1 = Instant::now();
    let output = match (&env, args.infer, args.infer_allocations) {
        (Some(env), true, _) => {
            let ctx = Ctx::new();
            ctx.seed_t(env.fresh_names.t.unwrap_or(0));
            let out =
                computation_bounds_inference(&ctx, &stmt, env).map_err(|e| format!("{}: {e}", input.name));
            (out.map(Output::Stmt), t1.elapsed().as_nanos())
        }
        (Some(env), _, true) => {
            // Data-dependent indices are bounded by the value ranges of the Funcs they
            // load from, read from the definitions.
            let func_bounds = match &args.definitions {
                Some(path) => {
                    let defs = read_input(Some(path))?;
                    let Some(defs) = parse_or_report(&defs, &parse_env) else {
                        return Ok(ExitCode::from(1));
                    };
                    func_value_bounds_of_definitions(&defs, env)
                }
                None => func_value_bounds_from_text(&Ctx::new(), &stmt),
            };
            let out = allocation_bounds_inference(&stmt, env, &func_bounds, 0)
                .map_err(|e| format!("{}: {e}", input.name));
            (out.map(Output::Stmt), t1.elapsed().as_nanos())
        }
        _ => {
            let ctx = Ctx::new();
            let scope = Scope::new();
            let func_bounds = FuncValueBounds::default();
            let boxes =
                boxes_touched(&ctx, &stmt, &scope, &func_bounds).map_err(|e| format!("{}: {e}", input.name));
            (boxes.map(|b| Output::Boxes(Box::new(ctx), b)), t1.elapsed().as_nanos())
        }
    };
    let (output, pass_ns) = output;
    let output = match output {
        Ok(o) => o,
        Err(e) => {
            eprintln!("error: {e}");
            return Ok(ExitCode::from(1));
        }
    };

    let t2 = Instant::now();
    let text = match output {
        Output::Stmt(s) => stmt_to_string(&s),
        Output::Boxes(ctx, boxes) => print_boxes(&ctx, &boxes),
    };
    let print_ns = t2.elapsed().as_nanos();
    std::io::stdout().lock().write_all(text.as_bytes()).map_err(|e| format!("cannot write output: {e}"))?;
    if args.timings {
        eprintln!("{{\"parse_ns\": {parse_ns}, \"pass_ns\": {pass_ns}, \"print_ns\": {print_ns}}}");
    }
    Ok(ExitCode::SUCCESS)
}

enum Output {
    Stmt(loopir::Stmt),
    Boxes(Box<Ctx>, loopir_bounds::BoxMap),
}
