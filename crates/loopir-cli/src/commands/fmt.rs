//! `loopir fmt`: parse and reprint.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use loopir::{ParseEnv, PrintOptions, stmt_to_string_with};

use super::{parse_or_report, read_input};

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
pub fn run(args: &FmtArgs) -> Result<ExitCode, String> {
    let input = read_input(args.file.as_ref())?;
    let Some(stmt) = parse_or_report(&input, &ParseEnv::default()) else {
        return Ok(ExitCode::from(1));
    };
    let text =
        stmt_to_string_with(&stmt, PrintOptions { lossless: args.lossless, ..PrintOptions::default() });
    if args.check {
        if text.as_bytes() == input.bytes.as_slice() {
            return Ok(ExitCode::SUCCESS);
        }
        let line = text
            .lines()
            .zip(String::from_utf8_lossy(&input.bytes).lines())
            .position(|(a, b)| a != b)
            .map_or_else(|| text.lines().count().min(input.bytes.len()) + 1, |i| i + 1);
        eprintln!("{}: would be reprinted differently (first difference at line {line})", input.name);
        return Ok(ExitCode::from(1));
    }
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes()).map_err(|e| format!("cannot write output: {e}"))?;
    Ok(ExitCode::SUCCESS)
}
