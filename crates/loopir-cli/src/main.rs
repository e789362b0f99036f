//! `loopir`: run loopir's passes on `.stmt` files and print the result.
//!
//! This binary only parses arguments and renders results; everything it does is a call
//! into the library crates.

mod commands;
mod diagnostics;
mod error;
mod streams;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::error::CliError;

// Parsing and the passes allocate one node per IR node: with mimalloc the profiling pass
// runs 20-25% faster than with the system allocator. The library crates leave the
// choice of allocator to the program that embeds them.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Lowering passes over Halide-style loop IR, on `.stmt` text.
#[derive(Parser)]
#[command(name = "loopir", version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse a `.stmt` file and print it back (Halide's exact text).
    Fmt(commands::fmt::FmtArgs),
    /// Instrument a `.stmt` file for Halide's sampling profiler.
    Profile(commands::profile::ProfileArgs),
    /// Instrument a `.stmt` file with tracing events, or check the events it has.
    Trace(commands::trace::TraceArgs),
    /// Print the region each Func and buffer is touched over, or infer allocation bounds.
    Bounds(commands::bounds::BoundsArgs),
    /// Flatten storage: realizations to allocations, Func and image accesses to loads and stores.
    Flatten(commands::flatten::FlattenArgs),
    /// Run passes in order on a `.stmt` file, optionally saving the IR after each.
    Lower(commands::lower::LowerArgs),
    /// Check a `.stmt` file against the IR's invariants (exit 0 valid, 1 with each violation).
    Verify(commands::verify::VerifyArgs),
    /// Execute a `.stmt` file with the interpreter and print a hash of each output buffer.
    Run(commands::run::RunArgs),
    /// Run loopir on a built-in example pipeline and show what each step does.
    Demo,
}

/// The stack the command runs on (address space: only the pages a walk touches are
/// ever committed).
///
/// Every recursive walk moves to a fresh stack segment when its stack runs low
/// (`loopir::stack::with_stack`), and each segment is mapped for the walk and unmapped on
/// its way back. On the 8 MiB main thread every walk of a deep expression therefore
/// touched new pages, which the kernel had to fault in and zero: `bounds --infer` on a
/// 1,000,000-deep sum took 2.1 million page faults, and more than half of its CPU time
/// was the kernel's. On a stack this large the walks of such an input reuse the pages the
/// first one touched (245,000 faults, a third less CPU time). Deeper walks still grow
/// past it.
const COMMAND_STACK: usize = 1 << 30;

fn main() -> ExitCode {
    let command = std::thread::Builder::new().name("loopir".into()).stack_size(COMMAND_STACK);
    match command.spawn(run) {
        Ok(thread) => match thread.join() {
            Ok(code) => code,
            // The panic was reported on the command's thread; exit as it would have.
            Err(panic) => std::panic::resume_unwind(panic),
        },
        // The system would not reserve that much: run on this thread's stack.
        Err(_) => run(),
    }
}

/// Parses the arguments, runs the command and reports its outcome.
fn run() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return exit(clap_outcome(e)),
    };
    exit(match cli.command {
        Command::Fmt(args) => commands::fmt::run(&args),
        Command::Profile(args) => commands::profile::run(&args),
        Command::Trace(args) => commands::trace::run(&args),
        Command::Bounds(args) => commands::bounds::run(&args),
        Command::Flatten(args) => commands::flatten::run(&args),
        Command::Lower(args) => commands::lower::run(&args),
        Command::Verify(args) => commands::verify::run(&args),
        Command::Run(args) => commands::run::run(&args),
        Command::Demo => commands::demo::run(),
    })
}

/// What clap's early exit means: help and version text are output like any command's; a
/// usage mistake (an unknown flag, flags that do not go together, a bad value) is
/// something wrong with the input, exit code 1, where clap would exit with 2, the code
/// loopir keeps for I/O.
fn clap_outcome(e: clap::Error) -> Result<(), CliError> {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => streams::print_with(|| e.print()),
        _ => Err(CliError::Usage(Box::new(e))),
    }
}

fn exit(result: Result<(), CliError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            diagnostics::report_error(&e);
            ExitCode::from(e.exit_code())
        }
    }
}
