//! `loopir fmt`: parse and reprint.

use std::path::PathBuf;

use clap::Args;
use loopir::{ParseEnv, PrintOptions, stmt_to_string_with};

use super::{parse, read_input};
use crate::error::CliError;
use crate::streams::print;

/// Arguments of `loopir fmt`.
#[derive(Args)]
pub struct FmtArgs {
    /// The `.stmt` file to read (`-` or nothing for standard input).
    file: Option<PathBuf>,
    /// Also print what Halide's text drops (the tuple index of calls: `f(x)[1]`).
    #[arg(long)]
    lossless: bool,
    /// Print nothing; exit 1 if reprinting would change the file.
    #[arg(long)]
    check: bool,
}

/// Runs `loopir fmt`.
pub fn run(args: &FmtArgs) -> Result<(), CliError> {
    let input = read_input(args.file.as_deref())?;
    let stmt = parse(&input, &ParseEnv::default())?;
    let text = stmt_to_string_with(&stmt, PrintOptions { lossless: args.lossless, ..PrintOptions::default() });
    if args.check {
        if text.as_bytes() == input.bytes.as_slice() {
            return Ok(());
        }
        let line = text
            .lines()
            .zip(String::from_utf8_lossy(&input.bytes).lines())
            .position(|(a, b)| a != b)
            .map_or_else(|| text.lines().count().min(input.bytes.len()) + 1, |i| i + 1);
        return Err(CliError::input(format!(
            "{}: would be reprinted differently (first difference at line {line})",
            input.name
        )));
    }
    print(text.as_bytes())
}
