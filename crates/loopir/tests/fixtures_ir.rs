//! Snapshot fixtures of the `.stmt` language: `fixtures/ir/*.stmt`, one per node kind and
//! per printing rule. Each fixture's first line is a `#` comment saying what it pins; the
//! rest is `.stmt` text as Halide prints it.
//!
//! For every fixture the test parses the text, reprints it and requires the reprint to equal
//! the text byte for byte, then snapshots a structural dump of the parsed IR (kinds, names,
//! types, call types, value indices) in `fixtures/ir/snapshots/<fixture>.snap`, so that a
//! snapshot pins what the parser recovered and not only the text. Fixtures named
//! `*.lossless.stmt` are printed in lossless mode (tuple value indices as `f(x)[k]`).

mod common;

use loopir::{PrintOptions, parse_stmt, stmt_to_string_with};

#[test]
fn every_ir_fixture_reprints_exactly_and_matches_its_structural_snapshot() {
    let dir = common::fixtures_dir("ir");
    let files = common::files_with_ext(&dir, "stmt");
    assert!(files.len() >= 40, "expected the IR fixtures, found {} in {}", files.len(), dir.display());
    let mut failures = Vec::new();
    let mut checked = Vec::new();
    for path in &files {
        let file_name = path.file_name().and_then(|n| n.to_str()).unwrap_or_default().to_owned();
        let text = std::fs::read_to_string(path).expect("fixtures are UTF-8");
        let (comment, body) = common::split_fixture(&text);
        assert!(!comment.is_empty(), "{file_name}: the first line must say what the fixture pins");
        let lossless = file_name.ends_with(".lossless.stmt");
        let stmt = match parse_stmt(body) {
            Ok(s) => s,
            Err(e) => {
                failures.push(format!("{file_name}: parse error:\n{}", e.render(&file_name)));
                continue;
            }
        };
        let printed = stmt_to_string_with(&stmt, PrintOptions { lossless, ..PrintOptions::default() });
        if printed != body {
            failures.push(format!(
                "{file_name}: reprint differs: {}\n--- reprint ---\n{printed}",
                first_difference(body, &printed)
            ));
            continue;
        }
        checked.push((file_name, comment.to_owned(), common::dump_stmt(&stmt)));
    }
    assert!(failures.is_empty(), "{} fixture(s) fail:\n{}", failures.len(), failures.join("\n\n"));
    // Snapshots only after every fixture reprinted, so a reprint failure is reported as such.
    for (file_name, comment, dump) in checked {
        let stem = file_name.trim_end_matches(".stmt").replace('.', "_");
        let mut settings = insta::Settings::clone_current();
        settings.set_snapshot_path(dir.join("snapshots"));
        settings.set_prepend_module_to_snapshot(false);
        settings.set_description(comment);
        settings.set_omit_expression(true);
        settings.bind(|| insta::assert_snapshot!(stem, dump));
    }
}

fn first_difference(expected: &str, actual: &str) -> String {
    for (i, (e, a)) in expected.split('\n').zip(actual.split('\n')).enumerate() {
        if e != a {
            return format!("line {}:\n  expected: {e:?}\n  actual:   {a:?}", i + 1);
        }
    }
    format!("lengths differ: expected {} bytes, got {}", expected.len(), actual.len())
}
