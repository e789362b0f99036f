//! Rendering errors for people: source snippets with codespan-reporting, colour only on
//! a terminal.

use std::io::IsTerminal;

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::ColorChoice, termcolor::StandardStream};
use loopir::ParseError;

use crate::commands::Input;

/// Prints a parse error with its location and a snippet of the input on standard error.
pub fn report_parse_error(input: &Input, error: &ParseError) {
    let source = String::from_utf8_lossy(&input.bytes);
    let file = SimpleFile::new(input.name.as_str(), source.as_ref());
    let end = (error.offset + error.len.max(1)).min(source.len());
    let start = error.offset.min(end);
    let diagnostic = Diagnostic::error()
        .with_message(format!("{}: expected {}", error.kind.as_str(), error.expected))
        .with_labels(vec![Label::primary((), start..end).with_message(format!("found {}", error.found))]);
    let choice = if std::io::stderr().is_terminal() { ColorChoice::Auto } else { ColorChoice::Never };
    let writer = StandardStream::stderr(choice);
    let config = term::Config::default();
    if term::emit_to_write_style(&mut writer.lock(), &config, &file, &diagnostic).is_err() {
        // Rendering failed (for example a closed stderr): fall back to the plain form.
        eprint!("{}", error.render(&input.name));
    }
}
