//! Why a command failed, and the exit code that says so.
//!
//! One rule for every subcommand: 1 when what the user gave is wrong (the IR, an env file,
//! the command line), 2 when reading or writing failed. The commands return a
//! [`CliError`]; `main` prints it and exits with [`CliError::exit_code`].

use std::fmt::Display;

use loopir::ParseError;

use crate::commands::Input;

/// A failed command.
pub enum CliError {
    /// The IR, an env file or the command line is wrong (exit 1). The message names the
    /// file (and the field or node where there is one) and what is wrong.
    Input(String),
    /// The command line is wrong (exit 1): clap's message, with the usage line.
    Usage(Box<clap::Error>),
    /// A `.stmt` file does not parse (exit 1); reported with a snippet of its source.
    Parse(Box<(Input, ParseError)>),
    /// Reading or writing failed (exit 2).
    Io(String),
    /// Standard output or standard error is a pipe whose reader has gone (exit 2, nothing
    /// printed: the reader stopped on purpose, as `head` does).
    ClosedPipe,
}

impl CliError {
    /// A mistake in what the user gave, described by `message`.
    pub fn input(message: impl Into<String>) -> CliError {
        CliError::Input(message.into())
    }

    /// Reading `what` failed.
    pub fn cannot_read(what: impl Display, e: &std::io::Error) -> CliError {
        CliError::Io(format!("cannot read {what}: {e}"))
    }

    /// The process exit code of this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            CliError::Input(_) | CliError::Usage(_) | CliError::Parse(_) => 1,
            CliError::Io(_) | CliError::ClosedPipe => 2,
        }
    }
}

/// Maps a library error about `file` to an input error.
///
/// Every error the library crates return (env reading and validation, a pass refusing the
/// IR) describes the input, so each maps to exit code 1 here, whatever its type: a new
/// kind of library error needs no change in the CLI.
pub trait InFile<T> {
    /// The value, or an input error naming `file`.
    fn in_file(self, file: impl Display) -> Result<T, CliError>;
}

impl<T, E: Display> InFile<T> for Result<T, E> {
    fn in_file(self, file: impl Display) -> Result<T, CliError> {
        self.map_err(|e| CliError::Input(format!("{file}: {e}")))
    }
}
