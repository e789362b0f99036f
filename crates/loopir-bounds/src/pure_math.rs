//! Halide's pure math functions (`floor_f32`, `sqrt_f64`, ...) print like any extern
//! call, so the parser cannot know they are pure. Bounds analysis needs to see through
//! them as the reference does (it built them `PureExtern`), so the passes re-tag them
//! before analysing; the printed text is the same either way.

use loopir::mutate::{Mutator, walk_expr};
use loopir::{CallType, Expr, ExprKind, Stmt};
use rustc_hash::FxHashMap;

/// `s` with every extern call to one of Halide's math functions tagged `PureExtern`.
pub fn retag_pure_math(s: &Stmt) -> Stmt {
    PureMath::default().mutate_stmt(s)
}

#[derive(Default)]
struct PureMath {
    memo: FxHashMap<*const (), Expr>,
}

fn is_pure_math(name: &str) -> bool {
    const BASES: &[&str] = &[
        "sqrt", "sin", "asin", "cos", "acos", "tan", "atan", "atan2", "sinh", "asinh", "cosh", "acosh",
        "tanh", "atanh", "exp", "log", "pow", "floor", "ceil", "round", "trunc",
    ];
    ["_f16", "_f32", "_f64"]
        .iter()
        .any(|suffix| name.strip_suffix(suffix).is_some_and(|b| BASES.contains(&b)))
}

impl Mutator for PureMath {
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        // Leaves never change; keeping them out of the memo halves its size.
        if e.children().is_empty() {
            return e.clone();
        }
        let key = e.as_ptr().cast::<()>();
        if let Some(r) = self.memo.get(&key) {
            return r.clone();
        }
        let inner = walk_expr(self, e);
        let r = match inner.kind() {
            ExprKind::Call { name, args, call_type: CallType::Extern, value_index: 0 }
                if is_pure_math(name) =>
            {
                Expr::call(inner.ty(), name.clone(), args.clone(), CallType::PureExtern)
            }
            _ => inner,
        };
        self.memo.insert(key, r.clone());
        r
    }
}
