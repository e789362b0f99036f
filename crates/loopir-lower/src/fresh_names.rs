//! Choosing where the fresh-name counter starts.
//!
//! The reference draws every `t<N>` name from one counter for the whole compilation, so
//! the names a pass makes depend on how many the passes before it drew. A caller that
//! knows the counter (a pipeline that runs every pass with one [`loopir_simplify::Ctx`])
//! seeds it; one that does not can start past every `t<N>` the statement already uses,
//! which keeps the new names unique, though not the reference's.

use loopir::visit::Visitor;
use loopir::{Binder, Expr, ExprKind, Stmt};
use rustc_hash::FxHashSet;

/// One more than the largest `N` of a name `t<N>` the statement binds or uses; 0 if none.
///
/// ```
/// let s = loopir::parse_stmt("let t12 = x\nf(t3) = t12 + t\n").unwrap();
/// assert_eq!(loopir_lower::fresh_names::first_unused_t(&s), 13);
/// ```
pub fn first_unused_t(stmt: &Stmt) -> u64 {
    #[derive(Default)]
    struct Largest {
        next: u64,
        seen: FxHashSet<*const loopir::ExprNode>,
    }
    impl Largest {
        fn name(&mut self, n: &str) {
            if let Some(k) =
                n.strip_prefix('t').filter(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
                && let Ok(k) = k.parse::<u64>()
            {
                self.next = self.next.max(k.saturating_add(1));
            }
        }
    }
    impl Visitor for Largest {
        fn visit_expr(&mut self, e: &Expr) {
            if e.is_shared() && !e.is_leaf() && !self.seen.insert(e.as_ptr()) {
                return;
            }
            if let ExprKind::Variable(n) = e.kind() {
                self.name(n);
            }
            self.super_expr(e)
        }
        fn enter_scope(&mut self, binder: &Binder<'_>) {
            self.name(binder.name());
        }
    }
    let mut largest = Largest::default();
    largest.visit_stmt(stmt);
    largest.next
}
