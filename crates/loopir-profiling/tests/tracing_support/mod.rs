//! Helpers shared by the tracing integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use loopir::{BinOp, Expr, ExprKind, Stmt, StmtKind};
use loopir_profiling::tracing::{RecordedBoxes, TouchedBox, TouchedInterval, decode_event};

/// The oracle's `cases` directory: `$LOOPIR_ORACLE`, or `shared/oracle/cases` in the
/// nearest ancestor of this crate that has one.
pub fn oracle_cases() -> PathBuf {
    PathBuf::from(env!("LOOPIR_ORACLE_CASES"))
}

/// The workspace's `fixtures/tracing` directory.
pub fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/tracing")
}

/// The oracle cases that have a tracing input, sorted by name.
pub fn trace_cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(oracle_cases())
        .expect("readable oracle directory")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("trace.input.stmt").is_file())
        .collect();
    cases.sort();
    cases
}

/// A short description of where two texts first differ.
pub fn first_difference(expected: &str, actual: &str) -> String {
    for (i, (e, a)) in expected.lines().zip(actual.lines()).enumerate() {
        if e != a {
            return format!("line {}:\n  expected: {}\n  actual:   {}", i + 1, e, a);
        }
    }
    format!(
        "texts agree on their common lines; expected {} lines ({} bytes), got {} lines ({} bytes)",
        expected.lines().count(),
        expected.len(),
        actual.lines().count(),
        actual.len()
    )
}

/// The boxes a reference output used in its `func_type_and_dim` tags, read back from the
/// tags: `min` is printed as is and the extent as `(max - min) + 1`; `0 0` marks an
/// unbounded dimension. This isolates the tags' box component (`docs/reference/tracing.md` §8.4) so that the
/// rest of the pass can be compared byte for byte before the bounds crate is available.
pub fn boxes_from_tags(expected: &Stmt) -> RecordedBoxes {
    let mut boxes = RecordedBoxes::new();
    let mut cur = expected.clone();
    // The tags sit in the block right inside `let pipeline.trace_id = ...`.
    while let StmtKind::LetStmt { body, .. } = cur.kind() {
        let next = body.clone();
        cur = next;
    }
    let StmtKind::Block(stmts) = cur.kind() else { return boxes };
    for s in stmts {
        let StmtKind::Evaluate(call) = s.kind() else { continue };
        let Ok(Some(ev)) = decode_event(call) else { continue };
        let ExprKind::Call { args, .. } = call.kind() else { continue };
        let ExprKind::Call { name, args: parts, .. } = args[11].kind() else { continue };
        if name.as_ref() != "stringify" {
            continue;
        }
        // "func_type_and_dim:", " ", N, N x (" ", code, " ", bits, " ", lanes), " ", D, ...
        let n = parts[2].as_int().expect("type count") as usize;
        let mut at = 3 + 6 * n;
        let d = parts[at + 1].as_int().expect("dimension count") as usize;
        at += 2;
        let mut dims = Vec::with_capacity(d);
        for _ in 0..d {
            let (min, extent) = (&parts[at + 1], &parts[at + 3]);
            at += 4;
            if min.as_int() == Some(0) && extent.as_int() == Some(0) {
                dims.push(TouchedInterval::everything());
                continue;
            }
            let ExprKind::Binary(BinOp::Add, diff, one) = extent.kind() else { panic!("extent {extent}") };
            assert_eq!(one.as_int(), Some(1), "extent {extent}");
            let ExprKind::Binary(BinOp::Sub, max, _) = diff.kind() else { panic!("extent {extent}") };
            dims.push(TouchedInterval::bounded(min.clone(), max.clone()));
        }
        boxes = boxes.with(&ev.func, TouchedBox { dims });
    }
    boxes
}

/// Reads a fixture: strips the leading `#` lines and returns (the plain `#` comment lines
/// joined, the statement text); `#!` configuration lines are left out of the comment.
pub fn read_fixture(path: &Path) -> (String, String) {
    let text = std::fs::read_to_string(path).expect("readable fixture");
    let mut comment = String::new();
    let mut body = String::new();
    let mut in_header = true;
    for line in text.split_inclusive('\n') {
        if in_header && line.starts_with("#!") {
            continue;
        } else if in_header && line.starts_with('#') {
            comment.push_str(line.trim_start_matches('#').trim());
            comment.push(' ');
        } else {
            in_header = false;
            body.push_str(line);
        }
    }
    (comment.trim().to_owned(), body)
}

/// An int32 variable, for building boxes by hand.
pub fn v(name: &str) -> Expr {
    Expr::var_i32(name)
}
