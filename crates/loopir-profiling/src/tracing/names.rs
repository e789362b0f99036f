//! Fresh names for value temporaries (`t<N>`) and parallel tasks (`parallel_task`,
//! `parallel_task$1`, ...), `docs/reference/tracing.md` §11.
//!
//! Halide draws both from process-wide counters. Here the counters belong to one run of
//! the pass: the temporaries continue after the highest `t<N>` already present in the input
//! (which reproduces the reference's numbering when earlier passes used the same prefix),
//! and task names start from the first one unless told otherwise.

use loopir::address_map::AddressSet;
use loopir::expr::ExprNode;
use loopir::visit::Visitor;
use loopir::{Binder, Expr, ExprKind, Name, Stmt, name};

use super::error::TracingError;

/// Hands out the names the pass introduces.
pub(crate) struct NameGen {
    next_temp: u64,
    next_task: u64,
}

impl NameGen {
    pub(crate) fn new(first_temp: u64, first_task: u64) -> NameGen {
        NameGen { next_temp: first_temp, next_task: first_task }
    }

    /// The next value temporary, `t<N>`; an error once the numbers run out (the first
    /// one, from the input or the caller, was near the largest `u64`).
    pub(crate) fn temp(&mut self) -> Result<Name, TracingError> {
        let n = self.next_temp;
        self.next_temp = n.checked_add(1).ok_or(TracingError::NamesExhausted { family: "t<N>" })?;
        Ok(name(&format!("t{n}")))
    }

    /// The number the next temporary will get.
    pub(crate) fn peek_temp(&self) -> u64 {
        self.next_temp
    }

    /// The next parallel-task scope name; an error once the numbers run out.
    pub(crate) fn task(&mut self) -> Result<Name, TracingError> {
        let n = self.next_task;
        self.next_task =
            n.checked_add(1).ok_or(TracingError::NamesExhausted { family: "parallel_task$<N>" })?;
        Ok(if n == 0 { name("parallel_task") } else { name(&format!("parallel_task${n}")) })
    }
}

/// One past the highest `N` of the names `t<N>` used in `s` (0 if there are none).
pub fn next_free_temp_index(s: &Stmt) -> u64 {
    let mut scan = TempScan { next: 0, seen: AddressSet::default() };
    scan.visit_stmt(s);
    scan.next
}

struct TempScan {
    next: u64,
    /// Shared expression nodes already scanned: a DAG is scanned in linear time.
    seen: AddressSet<*const ExprNode>,
}

impl TempScan {
    fn note(&mut self, n: &str) {
        let Some(digits) = n.strip_prefix('t') else { return };
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return;
        }
        if let Ok(v) = digits.parse::<u64>() {
            self.next = self.next.max(v.saturating_add(1));
        }
    }
}

impl Visitor for TempScan {
    fn visit_expr(&mut self, e: &Expr) {
        if e.is_shared() && !e.is_leaf() && !self.seen.insert(e.as_ptr()) {
            return;
        }
        if let ExprKind::Variable(n) = e.kind() {
            self.note(n);
        }
        self.super_expr(e)
    }
    fn enter_scope(&mut self, binder: &Binder<'_>) {
        match binder {
            Binder::Let { name, .. }
            | Binder::LetStmt { name, .. }
            | Binder::For { name, .. }
            | Binder::Allocate { name, .. } => self.note(name),
            Binder::Realize { .. } => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_names_follow_halide() {
        let mut g = NameGen::new(0, 0);
        assert_eq!(g.task().expect("fresh").as_ref(), "parallel_task");
        assert_eq!(g.task().expect("fresh").as_ref(), "parallel_task$1");
        assert_eq!(g.temp().expect("fresh").as_ref(), "t0");
        assert_eq!(g.temp().expect("fresh").as_ref(), "t1");
    }

    #[test]
    fn running_out_of_numbers_is_an_error() {
        let mut g = NameGen::new(u64::MAX - 1, u64::MAX);
        assert_eq!(g.temp().expect("the last but one").as_ref(), format!("t{}", u64::MAX - 1));
        assert_eq!(g.temp(), Err(TracingError::NamesExhausted { family: "t<N>" }));
        assert!(g.task().is_err());
    }

    #[test]
    fn temporaries_continue_after_the_input() {
        let s = loopir::parse_stmt("let t12 = x\nf(t3) = t12 + tx\n").expect("parses");
        assert_eq!(next_free_temp_index(&s), 13);
        let none = loopir::parse_stmt("f(x) = 1\n").expect("parses");
        assert_eq!(next_free_temp_index(&none), 0);
    }
}
