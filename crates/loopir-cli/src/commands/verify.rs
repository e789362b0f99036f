//! `loopir verify`: check a `.stmt` file against the IR's invariants (the library's
//! [`loopir::verify`]), optionally with the pipeline's environment and the stage a pass
//! requires. Exit 0 when the IR is valid, 1 with every violation located otherwise.

use std::path::PathBuf;

use clap::{Args, ValueEnum};
use loopir::pipeline::{IrStage, check_stage};

use super::{parse, read_env_text, read_input};
use crate::error::{CliError, InFile};
use crate::streams::print;

/// A stage `--stage` can require.
#[derive(Clone, Copy, ValueEnum)]
pub enum StageArg {
    /// The schedule stage: realize, Provide, Func calls (tracing, bounds inference).
    Schedule,
    /// Storage-flattened IR: allocate, free, Store, Load (profiling).
    Flattened,
}

/// Arguments of `loopir verify`.
#[derive(Args)]
pub struct VerifyArgs {
    /// The `.stmt` file to check (`-` or nothing for standard input).
    file: Option<PathBuf>,
    /// The pipeline's environment (any environment file `lower --env` takes): Func
    /// dimensions are checked against its `args`, and, when it lists `params`, every free
    /// variable against its declared names.
    #[arg(long, value_name = "ENV")]
    env: Option<PathBuf>,
    /// Also require the IR to be at this stage.
    #[arg(long, value_enum)]
    stage: Option<StageArg>,
}

/// Runs `loopir verify`.
pub fn run(args: &VerifyArgs) -> Result<(), CliError> {
    let env = match &args.env {
        Some(path) => {
            let text = read_env_text(path)?;
            Some(loopir_profiling::read_env_file(&text, None).in_file(path.display())?.env)
        }
        None => None,
    };
    let input = read_input(args.file.as_deref())?;
    let parse_env = env.as_ref().map(|e| e.parse_env()).unwrap_or_default();
    let stmt = parse(&input, &parse_env)?;
    if let Some(stage) = args.stage {
        let stage = match stage {
            StageArg::Schedule => IrStage::Schedule,
            StageArg::Flattened => IrStage::Flattened,
        };
        check_stage(&stmt, stage).map_err(|e| CliError::input(format!("{}: {e}", input.name)))?;
    }
    if let Some(env) = &env {
        env.check_against(&stmt).map_err(|e| CliError::input(format!("{}: environment: {e}", input.name)))?;
    }
    match loopir::verify::verify(&stmt, env.as_ref()) {
        Ok(()) => print(format!("{}: ok\n", input.name).as_bytes()),
        Err(errors) => {
            let lines: Vec<String> = errors.0.iter().map(|e| format!("{}: {e}", input.name)).collect();
            Err(CliError::input(format!("{} violation(s):\n{}", errors.0.len(), lines.join("\n"))))
        }
    }
}
