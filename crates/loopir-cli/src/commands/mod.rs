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
