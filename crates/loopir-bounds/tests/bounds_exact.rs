//! Halide-compatible simplification of box ends: every entry of
//! `fixtures/bounds_exact/merges.txt` (taken from the oracle's tracing cases) must print
//! exactly as Halide's simplifier printed it.

use std::path::Path;

use loopir_simplify::{Ctx, simplify_expr};

fn entries() -> Vec<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/bounds_exact/merges.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    let mut pending: Option<String> = None;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(rest) = line.strip_prefix("in:") {
            pending = Some(rest.trim().to_owned());
        } else if let Some(rest) = line.strip_prefix("out:") {
            let input = pending.take().unwrap_or_else(|| panic!("`out:` without `in:`: {line}"));
            out.push((input, rest.trim().to_owned()));
        } else {
            panic!("unexpected line: {line}");
        }
    }
    out
}

#[test]
fn box_ends_print_as_halide() {
    let cases = entries();
    assert!(cases.len() >= 10, "fixture has {} entries", cases.len());
    let mut failures = Vec::new();
    for (input, expected) in &cases {
        let e = loopir::parse::parse_expr(input).unwrap_or_else(|err| panic!("{input}: {err}"));
        let got = loopir::print::expr_to_string_implicit(&simplify_expr(&Ctx::new(), &e));
        if &got != expected {
            failures.push(format!("  in:       {input}\n  expected: {expected}\n  got:      {got}"));
        }
    }
    assert!(failures.is_empty(), "{} of {} differ:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
