//! Parse-error fixtures: `fixtures/parse_errors/*.stmt`, each a malformed `.stmt` text whose
//! first line is a `#` comment of the form `# <ParseErrorKind>: what is wrong`.
//!
//! The test parses each fixture's text, requires an error of the named kind located inside
//! the input, and snapshots the rendered error (`err.render("<fixture name>")`) in
//! `fixtures/parse_errors/snapshots/`.
//!
//! Bytes a text file cannot hold portably (invalid UTF-8, NUL) are written escaped: in a
//! fixture named `*.escaped.stmt`, `\xHH` in the text after the comment line stands for the
//! byte 0xHH and `\\` for a backslash; the test unescapes before parsing.

mod common;

use loopir::{ParseEnv, ParseError, ParseErrorKind, parse_stmt_bytes};

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

fn unescape(text: &str) -> Vec<u8> {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && b.get(i + 1) == Some(&b'\\') {
            out.push(b'\\');
            i += 2;
        } else if b[i] == b'\\' && b.get(i + 1) == Some(&b'x') && i + 4 <= b.len() {
            let hex = std::str::from_utf8(&b[i + 2..i + 4]).expect("ASCII hex digits");
            out.push(u8::from_str_radix(hex, 16).expect("\\xHH in an escaped fixture"));
            i += 4;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    out
}

/// The error must point inside the input: a line that exists, a column on it (one past the
/// last character when the error is at the end of the line or input).
fn assert_located_inside(err: &ParseError, input: &[u8], what: &str) {
    assert!(err.offset <= input.len(), "{what}: offset {} beyond the input", err.offset);
    let lines = input.split(|&b| b == b'\n').count();
    assert!(err.line >= 1 && err.line <= lines, "{what}: line {} of {lines}", err.line);
    let line_text = input.split(|&b| b == b'\n').nth(err.line - 1).unwrap_or_default();
    let chars = String::from_utf8_lossy(line_text).chars().count();
    assert!(err.column >= 1 && err.column <= chars + 1, "{what}: column {} on a line of {chars}", err.column);
}

#[test]
fn every_parse_error_fixture_fails_with_its_kind_and_rendered_message() {
    let dir = common::fixtures_dir("parse_errors");
    let files = common::files_with_ext(&dir, "stmt");
    assert!(files.len() >= 20, "expected the parse-error fixtures, found {}", files.len());
    let mut seen_kinds: Vec<ParseErrorKind> = Vec::new();
    let mut rendered = Vec::new();
    for path in &files {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        let text = std::fs::read_to_string(path).expect("fixtures are UTF-8 (bad bytes are escaped)");
        let (comment, body) = common::split_fixture(&text);
        let expected_kind = comment.split(':').next().unwrap_or_default().trim();
        let input = if name.ends_with(".escaped.stmt") { unescape(body) } else { body.as_bytes().to_vec() };
        let err = match parse_stmt_bytes(&input, &ParseEnv::default()) {
            Ok(s) => panic!("{name}: expected a {expected_kind} error, but it parsed:\n{s}"),
            Err(e) => e,
        };
        assert_eq!(format!("{:?}", err.kind), expected_kind, "{name}: wrong kind:\n{}", err.render(&name));
        assert_located_inside(&err, &input, &name);
        if !seen_kinds.contains(&err.kind) {
            seen_kinds.push(err.kind.clone());
        }
        rendered.push((
            name,
            comment.to_owned(),
            err.render(path.file_name().and_then(|n| n.to_str()).unwrap_or("?")),
        ));
    }
    for k in ALL_KINDS {
        assert!(seen_kinds.contains(k), "no parse-error fixture produces {k:?}");
    }
    for (name, comment, text) in rendered {
        let stem = name.trim_end_matches(".stmt").replace('.', "_");
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(dir.join("snapshots"));
        settings.set_prepend_module_to_snapshot(false);
        settings.set_description(comment);
        settings.set_omit_expression(true);
        settings.bind(|| insta::assert_snapshot!(stem, text));
    }
}

/// The lenient reader (for hand-typed text) reports the strict reader's error on every
/// fixture, except where the fixture's mistake is only one of layout, which it accepts.
#[test]
fn lenient_reading_keeps_the_errors_of_real_mistakes() {
    use loopir::dialect::Dialect;
    use loopir::{ParseOptions, parse_stmt_with_options};
    let dir = common::fixtures_dir("parse_errors");
    let mut report = Vec::new();
    for path in common::files_with_ext(&dir, "stmt") {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        let text = std::fs::read_to_string(&path).expect("fixtures are UTF-8 (bad bytes are escaped)");
        let (_, body) = common::split_fixture(&text);
        let input = if name.ends_with(".escaped.stmt") { unescape(body) } else { body.as_bytes().to_vec() };
        let strict = parse_stmt_bytes(&input, &ParseEnv::default()).expect_err("a parse-error fixture");
        let options = ParseOptions { dialect: Some(Dialect::Reference), lenient: true };
        let lenient = parse_stmt_with_options(&input, &ParseEnv::default(), options);
        match lenient {
            Err(e) if e == strict => {}
            Err(e) => report.push(format!("{name}: {e}")),
            Ok(_) => report.push(format!("{name}: accepted")),
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
