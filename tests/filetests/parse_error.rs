//! `#!test parse-error`: malformed `.stmt` text (`filetests/parse_errors`). The
//! description starts with the expected kind, `# <ParseErrorKind>: what is wrong`.
//!
//! The input must fail to parse with an error of that kind located inside the input; the
//! snapshot is the rendered error (`err.render("<file name>")`, line numbers counted from
//! the first line of the input).
//!
//! Bytes a text file cannot hold portably (invalid UTF-8, NUL) are written escaped: in a
//! fixture named `*.escaped.stmt`, `\xHH` in the input stands for the byte 0xHH and `\\`
//! for a backslash; the test unescapes before parsing.

use loopir::{ParseEnv, ParseError, ParseErrorKind, parse_stmt_bytes};

use crate::header::{Fixture, Test};
use crate::{Output, fixtures_of};

/// Every kind, so that a kind without a fixture is noticed.
const ALL_KINDS: &[ParseErrorKind] = &[
    ParseErrorKind::UnexpectedEof,
    ParseErrorKind::UnexpectedText,
    ParseErrorKind::Indentation,
    ParseErrorKind::InvalidUtf8,
    ParseErrorKind::NulByte,
    ParseErrorKind::InvalidLiteral,
    ParseErrorKind::InvalidType,
    ParseErrorKind::InvalidNode,
    ParseErrorKind::Dialect,
];

fn unescape(text: &str) -> Result<Vec<u8>, String> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'\\') {
            out.push(b'\\');
            i += 2;
        } else if b[i] == b'\\' && b.get(i + 1) == Some(&b'x') && i + 4 <= b.len() {
            let byte = std::str::from_utf8(&b[i + 2..i + 4])
                .ok()
                .and_then(|hex| u8::from_str_radix(hex, 16).ok())
                .ok_or_else(|| format!("`\\x` at byte {i} is not followed by two hex digits"))?;
            out.push(byte);
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    Ok(out)
}

/// The input's bytes, unescaped for `*.escaped.stmt`.
fn input(f: &Fixture) -> Result<Vec<u8>, String> {
    if f.file_name().ends_with(".escaped.stmt") { unescape(&f.body) } else { Ok(f.body.as_bytes().to_vec()) }
}

/// The error must point inside the input: a line that exists, a column on it (one past the
/// last character when the error is at the end of the line or input).
fn located_inside(err: &ParseError, input: &[u8]) -> Result<(), String> {
    if err.offset > input.len() {
        return Err(format!("offset {} beyond the input", err.offset));
    }
    let lines = input.split(|&b| b == b'\n').count();
    if err.line < 1 || err.line > lines {
        return Err(format!("line {} of {lines}", err.line));
    }
    let line_text = input.split(|&b| b == b'\n').nth(err.line - 1).unwrap_or_default();
    let chars = String::from_utf8_lossy(line_text).chars().count();
    if err.column < 1 || err.column > chars + 1 {
        return Err(format!("column {} on a line of {chars}", err.column));
    }
    Ok(())
}

fn expected_kind(f: &Fixture) -> &str {
    f.description.split(':').next().unwrap_or_default().trim()
}

pub fn run(f: &Fixture) -> Result<Output, String> {
    let name = f.file_name();
    let expected = expected_kind(f);
    let input = input(f)?;
    let err = match parse_stmt_bytes(&input, &ParseEnv::default()) {
        Ok(s) => return Err(format!("expected a {expected} error, but it parsed:\n{s}")),
        Err(e) => e,
    };
    if format!("{:?}", err.kind) != expected {
        return Err(format!("expected a {expected} error, got:\n{}", err.render(name)));
    }
    located_inside(&err, &input)?;
    Ok(Output::snapshot(err.render(name)))
}

#[test]
fn the_parse_error_fixtures_produce_every_kind() {
    let kinds: Vec<String> =
        fixtures_of(Test::ParseError).iter().map(|f| expected_kind(f).to_owned()).collect();
    for k in ALL_KINDS {
        assert!(kinds.contains(&format!("{k:?}")), "no parse-error fixture produces {k:?}");
    }
}

/// The lenient reader (for hand-typed text) reports the strict reader's error on every
/// fixture, except where the fixture's mistake is only one of layout, which it accepts.
#[test]
fn lenient_reading_keeps_the_errors_of_real_mistakes() {
    use loopir::dialect::Dialect;
    use loopir::{ParseOptions, parse_stmt_with_options};
    let mut report = Vec::new();
    for f in fixtures_of(Test::ParseError) {
        let input = input(&f).unwrap_or_else(|e| panic!("{}: {e}", f.rel));
        let strict = parse_stmt_bytes(&input, &ParseEnv::default()).expect_err("a parse-error fixture");
        let options = ParseOptions { dialect: Some(Dialect::Reference), lenient: true };
        match parse_stmt_with_options(&input, &ParseEnv::default(), options) {
            Err(e) if e == strict => {}
            Err(e) => report.push(format!("{}: {e}", f.file_name())),
            Ok(_) => report.push(format!("{}: accepted", f.file_name())),
        }
    }
    let layout_only = [
        "indent_close_brace.stmt: accepted",
        "indent_too_deep.stmt: accepted",
        "indent_top_level.stmt: accepted",
        "text_empty_line.stmt: accepted",
        "text_tab_indentation.stmt: accepted",
    ];
    assert_eq!(report, layout_only);
}
