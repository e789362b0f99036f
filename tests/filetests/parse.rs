//! `#!test parse`: the `.stmt` language, one fixture per node kind and per printing rule
//! (`filetests/ir`).
//!
//! The input is parsed and reprinted, and the reprint must equal the input byte for byte;
//! the snapshot is a structural dump of the parsed IR (kinds, names, types, call types,
//! value indices), so that it pins what the parser recovered and not only the text.
//! Fixtures named `*.lossless.stmt` print in lossless mode (tuple value indices as
//! `f(x)[k]`).

use loopir::{PrintOptions, parse_stmt, stmt_to_string_with};

use crate::Output;
use crate::header::Fixture;

pub fn run(f: &Fixture) -> Result<Output, String> {
    let lossless = f.file_name().ends_with(".lossless.stmt");
    let stmt = parse_stmt(&f.body).map_err(|e| format!("parse error:\n{}", e.render(f.file_name())))?;
    let printed = stmt_to_string_with(&stmt, PrintOptions { lossless, ..PrintOptions::default() });
    if printed != f.body {
        return Err(format!(
            "reprint differs: {}\n--- reprint ---\n{printed}",
            loopir_testkit::text::first_difference(&f.body, &printed)
        ));
    }
    Ok(Output::snapshot(loopir_testkit::dump::dump_stmt(&stmt)))
}
