//! What `loopir bounds` (without `--infer`) counts as an access, beyond the library's
//! query.
//!
//! [`loopir_bounds::boxes_touched()`] collects calls to Funcs and images and Provides, as
//! Halide's query does before storage flattening. The command promises the region of
//! every Func and buffer the file touches, so the statement is first rewritten:
//!
//! * A `Load` becomes a call, and a `Store` a Provide, of the same buffer with the index
//!   as the only coordinate: a one-dimensional access (the bounds spec allows this as an
//!   extension of the query). Their keys carry a mark no parsed name can hold, so that a
//!   flattened buffer never merges with a Func of the same name; [`display_name`] takes
//!   it off for printing, and [`restore_loads`] turns the calls that the analysis kept in
//!   a bound back into loads. A load or store predicate is dropped: a masked access
//!   counts all its lanes, a region never narrower than the true one.
//! * A call the text leaves untyped is counted as a Func call: an extern call (a name the
//!   file does not realize and that is not an intrinsic) whose arguments are all int32,
//!   unless the name is one of Halide's runtime functions (`halide_*`, `_halide_*`).
//!   Without a `realize` the parser cannot tell a Func or an image from an extern
//!   function, and a Func's or image's coordinates are int32; the runtime's functions
//!   take handles, strings or floats, or are known by their prefix.

use loopir::mutate::{ExprMemo, Mutator};
use loopir::stack::with_stack;
use loopir::{CallType, Expr, ExprKind, ModulusRemainder, Name, Stmt, StmtKind, Type};
use rustc_hash::FxHashMap;

/// Starts the key of a flattened buffer's accesses (a NUL byte never parses).
const FLAT_MARK: char = '\0';

/// The statement with loads, stores and untyped calls made visible to `boxes_touched`.
pub fn with_all_accesses(stmt: &Stmt) -> Stmt {
    Rewrite { memo: ExprMemo::default(), flat_keys: FxHashMap::default() }.mutate_stmt(stmt)
}

/// The name to print for a key of the query's result.
pub fn display_name(key: &str) -> &str {
    key.strip_prefix(FLAT_MARK).unwrap_or(key)
}

/// `e` with every call that stands for a load (see the module docs) made a load again.
pub fn restore_loads(e: &Expr) -> Expr {
    Restore { memo: ExprMemo::default() }.mutate_expr(e)
}

/// Whether a call of `call_type` to `name` with `args` is an access the parser could not
/// type (see the module docs).
fn is_untyped_access(name: &str, call_type: CallType, args: &[Expr]) -> bool {
    call_type == CallType::Extern
        && !name.starts_with("halide_")
        && !name.starts_with("_halide_")
        && args.iter().all(|a| a.ty().element_of() == Type::INT32)
}

struct Rewrite {
    memo: ExprMemo,
    /// The key of each flattened buffer, made once.
    flat_keys: FxHashMap<Name, Name>,
}

impl Rewrite {
    fn flat_key(&mut self, buffer: &Name) -> Name {
        self.flat_keys
            .entry(buffer.clone())
            .or_insert_with(|| Name::from(format!("{FLAT_MARK}{buffer}")))
            .clone()
    }

    /// The rewrite of a load or an untyped call (`None` for other nodes).
    fn access(&mut self, e: &Expr) -> Option<Expr> {
        match e.kind() {
            ExprKind::Load { name, index, .. } => {
                let index = self.mutate_expr(index);
                Some(Expr::call(e.ty(), self.flat_key(name), vec![index], CallType::Image))
            }
            ExprKind::Call { name, args, call_type, value_index }
                if is_untyped_access(name, *call_type, args) =>
            {
                let args = args.iter().map(|a| self.mutate_expr(a)).collect();
                let kind = ExprKind::Call {
                    name: name.clone(),
                    args,
                    call_type: CallType::Halide,
                    value_index: *value_index,
                };
                Some(Expr::from_node_unchecked(e.ty(), kind))
            }
            _ => None,
        }
    }
}

impl Mutator for Rewrite {
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        if let Some(r) = self.memo.lookup(e) {
            return r;
        }
        // Loads and calls recurse here, everything else in `walk_expr`, which grows the
        // stack as needed.
        let r = match e.kind() {
            ExprKind::Load { .. } | ExprKind::Call { .. } => with_stack(|| self.access(e)),
            _ => None,
        };
        let r = r.unwrap_or_else(|| self.super_expr(e));
        self.memo.record(e, &r);
        r
    }

    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        match s.kind() {
            StmtKind::Store { name, value, index, .. } => {
                let (value, index) = (self.mutate_expr(value), self.mutate_expr(index));
                let provide = StmtKind::Provide {
                    name: self.flat_key(name),
                    values: vec![value],
                    args: vec![index],
                    predicate: Expr::const_true(),
                };
                Stmt::from_kind_unchecked(provide)
            }
            _ => self.super_stmt(s),
        }
    }
}

struct Restore {
    memo: ExprMemo,
}

impl Mutator for Restore {
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        if let Some(r) = self.memo.lookup(e) {
            return r;
        }
        let r = with_stack(|| match e.kind() {
            ExprKind::Call { name, args, call_type: CallType::Image, .. }
                if name.starts_with(FLAT_MARK) && args.len() == 1 =>
            {
                let index = self.mutate_expr(&args[0]);
                let lanes = e.ty().lanes();
                let predicate = if lanes == 1 {
                    Expr::const_true()
                } else {
                    Expr::broadcast(Expr::const_true(), lanes).unwrap_or_else(|_| Expr::const_true())
                };
                let kind = ExprKind::Load {
                    name: Name::from(display_name(name)),
                    index,
                    predicate,
                    alignment: ModulusRemainder::UNKNOWN,
                };
                Expr::from_node_unchecked(e.ty(), kind)
            }
            _ => self.super_expr(e),
        });
        self.memo.record(e, &r);
        r
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loads_come_back_as_loads_of_the_buffer() {
        let load = loopir::parse::parse_expr("(float32)buf[x + 1]").expect("a load");
        let call = Rewrite { memo: ExprMemo::default(), flat_keys: FxHashMap::default() }.mutate_expr(&load);
        assert!(matches!(call.kind(), ExprKind::Call { call_type: CallType::Image, .. }));
        assert_eq!(restore_loads(&call).to_string(), load.to_string());
    }

    #[test]
    fn untyped_calls_are_accesses_unless_runtime_functions_or_not_int32() {
        let call = |text: &str| loopir::parse::parse_expr(text).expect("a call");
        let untyped = |text: &str| match call(text).kind() {
            ExprKind::Call { name, args, call_type, .. } => is_untyped_access(name, *call_type, args),
            _ => false,
        };
        assert!(untyped("g(x + 1, 2)"));
        assert!(untyped("(uint16)input(x, y)"));
        assert!(untyped("f()"));
        assert!(!untyped("halide_current_thread_id()"));
        assert!(!untyped("_halide_buffer_get_min((struct halide_buffer_t *)b, 0)"));
        assert!(!untyped("(float32)sqrt_f32((float32)v)"));
        assert!(!untyped("abs(x)"), "an intrinsic");
    }
}
