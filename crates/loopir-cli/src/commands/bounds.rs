//! `loopir bounds`: the region each Func and buffer is touched over, or (with `--infer`
//! / `--infer-allocations`) computation or allocation bounds inference. Either dialect;
//! in a module file, the pipeline's function.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use loopir::dialect::Dialect;
use loopir::{Stmt, StmtFile};
use loopir_bounds::allocation_bounds::allocation_bounds_inference;
use loopir_bounds::compute_bounds::computation_bounds_inference;
use loopir_bounds::env::BoundsEnv;
use loopir_bounds::func_value_bounds::{func_value_bounds_from_text, func_value_bounds_of_definitions};
use loopir_bounds::{BoxMap, FuncValueBounds, boxes_touched};
use loopir_simplify::cse::print_bound;
use loopir_simplify::{Bound, Ctx, Scope};

use super::fmt::{ReadArgs, read_stmt_file, write_stmt_file};
use super::{Input, bounds_view, read_env, read_input};
use crate::error::{CliError, InFile};
use crate::streams::{eprint, print, report};

/// Arguments of `loopir bounds`.
#[derive(Args)]
pub struct BoundsArgs {
    /// The `.stmt` file (`-` or nothing for standard input).
    file: Option<PathBuf>,
    /// The bounds env (`bounds.env.json`): realization order, outputs, Funcs' types and
    /// explicit bounds. Read by `--infer` and `--infer-allocations` (which need it) only.
    #[arg(long)]
    env: Option<PathBuf>,
    /// Run computation bounds inference (updates, specializations, explicit bounds,
    /// extern stages; a construct it does not support is refused with an error naming it)
    /// and print the statement.
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
    // `conflicts_with`: clap drops the requirement of `--infer-allocations` when
    // `--infer`, which conflicts with it, is given.
    #[arg(long, requires = "infer_allocations", conflicts_with = "infer")]
    definitions: Option<PathBuf>,
    /// Print one JSON object with parse, pass and print times in nanoseconds on standard
    /// error.
    #[arg(long)]
    timings: bool,
    #[command(flatten)]
    read: ReadArgs,
    /// Write the output statement in this dialect (`reference` or `21`; default: the
    /// input's). Regions are printed in the reference's spelling.
    #[arg(long, value_name = "DIALECT")]
    to: Option<Dialect>,
}

/// The statement of `file`: itself, or a module's pipeline function (with its index).
fn statement_of(file: &StmtFile, input: &Input) -> Result<(Stmt, Option<usize>), CliError> {
    match file {
        StmtFile::Stmt(s) => Ok((s.clone(), None)),
        StmtFile::Module(m) => {
            let i = m.pipeline_index().ok_or_else(|| {
                CliError::input(format!(
                    "{}: the module has no pipeline function to run bounds on",
                    input.name
                ))
            })?;
            Ok((m.functions[i].body.clone(), Some(i)))
        }
    }
}

/// Runs `loopir bounds`.
pub fn run(args: &BoundsArgs) -> Result<(), CliError> {
    if args.env.is_some() && !args.infer && !args.infer_allocations {
        return Err(CliError::input(
            "--env is read by --infer and --infer-allocations only; without them `loopir bounds` \
             prints the regions touched, which need no env",
        ));
    }
    if args.to.is_some() && !args.infer && !args.infer_allocations {
        return Err(CliError::input(
            "--to writes the statement --infer and --infer-allocations print; the regions \
             `loopir bounds` prints without them are in the reference's spelling",
        ));
    }
    let input = read_input(args.file.as_deref())?;
    let env = read_env(args.env.as_deref(), BoundsEnv::from_json)?;
    let parse_env = env.as_ref().map(BoundsEnv::parse_env).unwrap_or_default();
    let t0 = Instant::now();
    let parsed = read_stmt_file(&input, &parse_env, &args.read)?;
    let (stmt, pipeline_index) = statement_of(&parsed.value, &input)?;
    let parse_ns = t0.elapsed().as_nanos();

    let t1 = Instant::now();
    let output = match (&env, args.infer, args.infer_allocations) {
        (Some(env), true, _) => {
            let ctx = Ctx::new();
            ctx.seed_t(env.fresh_names.t.unwrap_or(0));
            Output::Stmt(computation_bounds_inference(&ctx, &stmt, env).in_file(&input.name)?)
        }
        (Some(env), _, true) => {
            // Data-dependent indices are bounded by the value ranges of the Funcs they
            // load from, read from the definitions.
            let func_bounds = match &args.definitions {
                Some(path) => {
                    let defs = read_input(Some(path))?;
                    let (defs_stmt, _) =
                        statement_of(&read_stmt_file(&defs, &parse_env, &args.read)?.value, &defs)?;
                    func_value_bounds_of_definitions(&defs_stmt, env)
                }
                None => func_value_bounds_from_text(&Ctx::new(), &stmt),
            };
            Output::Stmt(allocation_bounds_inference(&stmt, env, &func_bounds, 0).in_file(&input.name)?)
        }
        _ => {
            let ctx = Ctx::new();
            let scope = Scope::new();
            let func_bounds = FuncValueBounds::default();
            let all_accesses = bounds_view::with_all_accesses(&stmt);
            let boxes = boxes_touched(&ctx, &all_accesses, &scope, &func_bounds).in_file(&input.name)?;
            Output::Boxes(Box::new(ctx), boxes)
        }
    };
    let pass_ns = t1.elapsed().as_nanos();

    let t2 = Instant::now();
    let text = match output {
        Output::Stmt(s) => {
            let mut file = parsed.value;
            match (&mut file, pipeline_index) {
                (StmtFile::Module(m), Some(i)) => m.functions[i].body = s,
                (file, _) => *file = StmtFile::Stmt(s),
            }
            write_stmt_file(&file, args.to.unwrap_or(parsed.dialect), false, &input.name)?
        }
        Output::Boxes(ctx, boxes) => {
            if boxes.is_empty() {
                report(&format!(
                    "note: {}: no Func, image or buffer is read or written: the statement has no \
                     call to a Func or image, no Provide, no Load and no Store\n",
                    input.name
                ));
            }
            print_regions(&ctx, &boxes).into_bytes()
        }
    };
    let print_ns = t2.elapsed().as_nanos();
    print(&text)?;
    if args.timings {
        eprint(&format!("{{\"parse_ns\": {parse_ns}, \"pass_ns\": {pass_ns}, \"print_ns\": {print_ns}}}\n"))?;
    }
    Ok(())
}

/// One line per Func or buffer, `name: [min, max], ...`, each finite end after CSE (as
/// [`loopir_bounds::boxes::print_boxes`], with the names and loads of flattened buffers
/// restored).
fn print_regions(ctx: &Ctx, boxes: &BoxMap) -> String {
    loopir_bounds::boxes::print_boxes_with(boxes, bounds_view::display_name, |b| match b {
        Bound::Finite(e) => print_bound(ctx, &Bound::Finite(bounds_view::restore_loads(e))),
        other => print_bound(ctx, other),
    })
}

enum Output {
    Stmt(loopir::Stmt),
    Boxes(Box<Ctx>, BoxMap),
}
