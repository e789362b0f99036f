//! `loopir fmt`: parse and reprint, normalizing hand-typed text and converting between
//! dialects. Also how `fmt`, `trace` and `profile` read and write `.stmt` files: a module
//! or a statement, in either dialect, hand-typed or not.

mod diff;

use std::path::PathBuf;

use clap::Args;
use loopir::dialect::Dialect;
use loopir::visit::Visitor;
use loopir::{ParseEnv, ParseOptions, Parsed, PrintOptions, Stmt, StmtFile, StmtKind};

use super::{Input, read_input};
use crate::error::CliError;
use crate::streams::print;

/// How `.stmt` input is read (shared by `fmt`, `trace` and `profile`).
#[derive(Args, Clone, Debug, Default)]
pub struct ReadArgs {
    /// The dialect of the input: `reference` (Halide 10162e89df) or `21` (Halide 21.0.0).
    /// Without it, the text tells (`3_u16` and `true` are the reference's, `(uint16)3` and
    /// `(uint1)1` Halide 21's) or, where nothing does, it is read as the reference's. The
    /// dialects differ in what a loop's bounds mean: `for (x, min, max)` against
    /// `for (x, min, extent)`.
    #[arg(long, value_name = "DIALECT")]
    pub dialect: Option<Dialect>,
}

/// Reads `input` as a module or a statement, in the dialect `args` give or the text
/// tells, leniently (hand-typed text is accepted; Halide's reads exactly as ever).
pub fn read_stmt_file(input: &Input, env: &ParseEnv, args: &ReadArgs) -> Result<Parsed<StmtFile>, CliError> {
    let options = ParseOptions { dialect: args.dialect, lenient: true };
    StmtFile::parse(&input.bytes, env, options).map_err(|e| CliError::Parse(Box::new((input.clone(), e))))
}

/// Prints `file` in `dialect`, refusing IR that has no form there (trace events with a
/// thread id in Halide 21's).
pub fn write_stmt_file(
    file: &StmtFile,
    dialect: Dialect,
    lossless: bool,
    name: &str,
) -> Result<Vec<u8>, CliError> {
    file.check_writable(dialect).map_err(|e| {
        CliError::input(format!("{name}: {e} (write it in the reference's with --to reference)"))
    })?;
    Ok(file.print(PrintOptions { lossless, dialect }))
}

/// Arguments of `loopir fmt`.
#[derive(Args)]
pub struct FmtArgs {
    /// The `.stmt` file to read (`-` or nothing for standard input): a statement or a
    /// module file (what `compile_to_lowered_stmt` writes).
    file: Option<PathBuf>,
    /// Also print what Halide's text drops (the tuple index of calls: `f(x)[1]`).
    #[arg(long)]
    lossless: bool,
    /// Print a unified diff of what reprinting would change instead of the text; exit 1
    /// if it would change anything.
    #[arg(long)]
    check: bool,
    /// Write the text in this dialect (`reference` or `21`; default: the input's):
    /// loops between extent and max, immediates, bitwise operators, transposes and trace
    /// calls.
    #[arg(long, value_name = "DIALECT")]
    to: Option<Dialect>,
    #[command(flatten)]
    read: ReadArgs,
}

/// Runs `loopir fmt`.
pub fn run(args: &FmtArgs) -> Result<(), CliError> {
    let input = read_input(args.file.as_deref())?;
    let parsed = read_stmt_file(&input, &ParseEnv::default(), &args.read)?;
    let to = args.to.unwrap_or(parsed.dialect);
    if to != parsed.dialect
        && args.read.dialect.is_none()
        && parsed.told_by.is_none()
        && has_loops(&parsed.value)
    {
        return Err(CliError::input(format!(
            "{}: nothing in the text tells its dialect, and its loops mean different things in the two \
             (`for (x, min, max)` in the reference's, `for (x, min, extent)` in Halide 21.0.0's): \
             say which it is with --dialect reference or --dialect 21",
            input.name
        )));
    }
    let text = write_stmt_file(&parsed.value, to, args.lossless, &input.name)?;
    if args.check {
        if text == input.bytes {
            return Ok(());
        }
        let changes = diff::unified(&input.bytes, &text, &input.name);
        print(changes.text.as_bytes())?;
        return Err(CliError::input(format!(
            "{}: would be reprinted differently (first difference at line {})",
            input.name, changes.first_line
        )));
    }
    print(&text)
}

/// Whether any body of `file` has a loop.
fn has_loops(file: &StmtFile) -> bool {
    struct Finder(bool);
    impl Visitor for Finder {
        fn visit_stmt(&mut self, s: &Stmt) {
            if self.0 || matches!(s.kind(), StmtKind::For { .. }) {
                self.0 = true;
                return;
            }
            self.super_stmt(s);
        }
        fn visit_expr(&mut self, _: &loopir::Expr) {}
    }
    let mut finder = Finder(false);
    match file {
        StmtFile::Stmt(s) => finder.visit_stmt(s),
        StmtFile::Module(m) => {
            let mut modules = vec![m];
            while let Some(m) = modules.pop() {
                modules.extend(&m.submodules);
                m.functions.iter().for_each(|f| finder.visit_stmt(&f.body));
            }
        }
    }
    finder.0
}
