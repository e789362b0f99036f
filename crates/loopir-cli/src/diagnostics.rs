//! Rendering errors for people: source snippets with codespan-reporting, colour only on
//! a terminal.

use std::io::IsTerminal;

use codespan_reporting::diagnostic::{Diagnostic, Label};
use codespan_reporting::files::SimpleFile;
use codespan_reporting::term::{self, termcolor::ColorChoice, termcolor::StandardStream};
use loopir::ParseError;

use crate::commands::Input;
use crate::error::CliError;
use crate::streams::report;

/// Prints `error` on standard error: a parse error with its location and a snippet of the
/// input, anything else as `error: message` (a closed pipe as nothing).
pub fn report_error(error: &CliError) {
    match error {
        CliError::Input(message) | CliError::Io(message) => report(&format!("error: {message}\n")),
        CliError::Usage(clap_error) => {
            // clap's own rendering, with the usage line; colour as clap decides.
            let _ = clap_error.print();
        }
        CliError::Parse(parse) => report_parse_error(&parse.0, &parse.1),
        CliError::ClosedPipe => {}
    }
}

fn report_parse_error(input: &Input, error: &ParseError) {
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
        report(&error.render(&input.name));
    }
}
