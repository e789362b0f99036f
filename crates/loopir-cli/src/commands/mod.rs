//! One module per subcommand.

pub mod bounds;
pub mod demo;
pub mod fmt;
pub mod lower;
pub mod profile;
pub mod trace;

use std::io::Read;
use std::path::PathBuf;

/// Where an input came from, for messages.
pub struct Input {
    /// A path, or `<stdin>`.
    pub name: String,
    /// The raw bytes.
    pub bytes: Vec<u8>,
}

/// Reads `path`, or standard input for `-` or no path.
pub fn read_input(path: Option<&PathBuf>) -> Result<Input, String> {
    match path {
        Some(p) if p.as_os_str() != "-" => {
            let bytes = std::fs::read(p).map_err(|e| format!("cannot read {}: {e}", p.display()))?;
            Ok(Input { name: p.display().to_string(), bytes })
        }
        _ => {
            let mut bytes = Vec::new();
            std::io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| format!("cannot read standard input: {e}"))?;
            Ok(Input { name: "<stdin>".into(), bytes })
        }
    }
}

/// Parses `input`, or reports the parse error (file, line, column, what was expected,
/// a snippet) on standard error and gives `None`: the command then exits with 1.
pub fn parse_or_report(input: &Input, env: &loopir::ParseEnv) -> Option<loopir::Stmt> {
    match loopir::parse_stmt_bytes(&input.bytes, env) {
        Ok(s) => Some(s),
        Err(e) => {
            crate::diagnostics::report_parse_error(input, &e);
            None
        }
    }
}

/// Reads and parses an environment file given by an optional `--env` flag.
pub fn read_env<T, E: std::fmt::Display>(
    path: Option<&PathBuf>,
    parse: impl Fn(&str) -> Result<T, E>,
) -> Result<Option<T>, String> {
    let Some(path) = path else { return Ok(None) };
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse(&text).map(Some).map_err(|e| format!("{}: {e}", path.display()))
}
