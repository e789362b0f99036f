//! `loopir flatten`: storage flattening on a `.stmt` file.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use loopir::stmt_to_string;
use loopir_bounds::env::BoundsEnv;
use loopir_lower::{FlattenEnv, infer_images, storage_flattening};

use super::{parse, read_env, read_input};
use crate::error::{CliError, InFile};
use crate::streams::{eprint, print};

/// Arguments of `loopir flatten`.
#[derive(Args)]
pub struct FlattenArgs {
    /// The `.stmt` file (`-` or nothing for standard input): IR after allocation bounds
    /// inference, its tuple-valued realizations split (`f.0`, `f.1`).
    file: Option<PathBuf>,
    /// The bounds env (`bounds.env.json`): the Funcs' pure arguments and value types, the
    /// outputs.
    #[arg(long)]
    env: PathBuf,
    /// The first `t<N>` number to draw for the buffers' shapes (the reference's counter
    /// at this pass). Default: past every `t<N>` the input uses and the env's counter.
    #[arg(long, value_name = "N")]
    fresh_t: Option<u64>,
    /// A name loaded as an image (input buffer); repeat for several. Default: every
    /// callee that is not a Func or an intrinsic and whose `<name>.buffer` symbol the
    /// input uses.
    #[arg(long = "image", value_name = "NAME")]
    images: Vec<String>,
    /// Print one JSON object with parse, pass and print times in nanoseconds on standard
    /// error.
    #[arg(long)]
    timings: bool,
}

/// The flattening env of a bounds env, with images given or inferred from `stmt`.
pub fn flatten_env(bounds: &BoundsEnv, images: &[String], stmt: &loopir::Stmt) -> Result<FlattenEnv, String> {
    let mut env = FlattenEnv::from_bounds_env(bounds).map_err(|e| e.to_string())?;
    env.images = if images.is_empty() { infer_images(stmt, &env) } else { images.iter().cloned().collect() };
    if let Some(f) = env.images.iter().find(|i| env.buffer_func(i).is_some()) {
        return Err(format!("image `{f}` is also a Func of the env"));
    }
    Ok(env)
}

/// Runs `loopir flatten`.
pub fn run(args: &FlattenArgs) -> Result<(), CliError> {
    let input = read_input(args.file.as_deref())?;
    let bounds = read_env(Some(&args.env), BoundsEnv::from_json)?
        .ok_or_else(|| CliError::input("loopir flatten needs --env BOUNDS_ENV.json"))?;
    let env_path = args.env.display();
    let parse_env = FlattenEnv::from_bounds_env(&bounds).in_file(&env_path)?.parse_env();
    let t0 = Instant::now();
    let stmt = parse(&input, &parse_env)?;
    let parse_ns = t0.elapsed().as_nanos();

    let env = flatten_env(&bounds, &args.images, &stmt).in_file(&env_path)?;
    let ctx = loopir_simplify::Ctx::new();
    let first_t = args
        .fresh_t
        .unwrap_or_else(|| loopir::pipeline::first_unused_temp(&stmt).max(bounds.fresh_names.t.unwrap_or(0)));
    ctx.seed_t(first_t);
    let t1 = Instant::now();
    let flat = storage_flattening(&ctx, &stmt, &env).in_file(&input.name)?;
    let pass_ns = t1.elapsed().as_nanos();

    let t2 = Instant::now();
    let text = stmt_to_string(&flat);
    let print_ns = t2.elapsed().as_nanos();
    print(text.as_bytes())?;
    if args.timings {
        eprint(&format!("{{\"parse_ns\": {parse_ns}, \"pass_ns\": {pass_ns}, \"print_ns\": {print_ns}}}\n"))?;
    }
    Ok(())
}
