//! One module per subcommand.

pub mod bounds;
pub mod bounds_view;
pub mod demo;
pub mod flatten;
pub mod fmt;
pub mod lower;
pub mod profile;
pub mod run;
pub mod save_temps;
pub mod trace;
pub mod verify;

use std::io::Read;
use std::path::Path;

use crate::error::{CliError, InFile};
use crate::streams::{Stream, check_open};

/// Where an input came from, for messages.
#[derive(Clone)]
pub struct Input {
    /// A path, or `<stdin>`.
    pub name: String,
    /// The raw bytes.
    pub bytes: Vec<u8>,
}

/// Reads `path`, or standard input for `-` or no path.
pub fn read_input(path: Option<&Path>) -> Result<Input, CliError> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            let bytes = std::fs::read(p).map_err(|e| CliError::cannot_read(p.display(), &e))?;
            Ok(Input { name: p.display().to_string(), bytes })
        }
        _ => {
            check_open(Stream::Stdin)?;
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| CliError::cannot_read("standard input", &e))?;
            Ok(Input { name: "<stdin>".into(), bytes })
        }
    }
}

/// Parses `input`; a parse error is reported by `main` with the file, line, column, what
/// was expected and a snippet.
pub fn parse(input: &Input, env: &loopir::ParseEnv) -> Result<loopir::Stmt, CliError> {
    loopir::parse_stmt_bytes(&input.bytes, env).map_err(|e| CliError::Parse(Box::new((input.clone(), e))))
}

/// Reads the text of an environment file: a file that cannot be read is an I/O error, a
/// file that is not UTF-8 an input error.
pub fn read_env_text(path: &Path) -> Result<String, CliError> {
    let bytes = std::fs::read(path).map_err(|e| CliError::cannot_read(path.display(), &e))?;
    String::from_utf8(bytes).map_err(|e| {
        CliError::input(format!(
            "{}: not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads and parses an environment file given by an optional `--env` flag. Whatever the
/// library's reader refuses is an input error naming the file.
pub fn read_env<T, E: std::fmt::Display>(
    path: Option<&Path>,
    parse: impl Fn(&str) -> Result<T, E>,
) -> Result<Option<T>, CliError> {
    let Some(path) = path else { return Ok(None) };
    let text = read_env_text(path)?;
    parse(&text).in_file(path.display()).map(Some)
}
