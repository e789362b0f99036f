//! Helpers shared by the tracing integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

use loopir::{BinOp, Expr, ExprKind, Stmt, StmtKind};
use loopir_profiling::tracing::{RecordedBoxes, TouchedBox, TouchedInterval, decode_event};

/// The oracle cases that have a tracing input, sorted by name.
pub fn trace_cases() -> Vec<PathBuf> {
    let mut cases: Vec<PathBuf> = std::fs::read_dir(loopir_testkit::oracle::cases())
        .expect("readable oracle directory")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join("trace.input.stmt").is_file())
        .collect();
    cases.sort();
    cases
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

/// An int32 variable, for building boxes by hand.
pub fn v(name: &str) -> Expr {
    Expr::var_i32(name)
}
