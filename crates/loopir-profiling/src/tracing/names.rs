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
use loopir::{Binder, Expr, ExprKind, Name, Stmt};

use super::error::TracingError;

/// Hands out the names the pass introduces, from the run's generator (the reference's
/// `unique_name('t')` and `unique_name("parallel_task")`).
pub(crate) struct NameGen {
    names: loopir::pipeline::NameGen,
}

impl NameGen {
    /// A generator whose `t` family continues at `first_temp` and whose task family at
    /// `first_task`; an error when either is beyond the reference's counters.
    pub(crate) fn new(first_temp: u64, first_task: u64) -> Result<NameGen, TracingError> {
        let mut names = loopir::pipeline::NameGen::new();
        names.set_next_char('t', first_temp).map_err(|_| TracingError::NamesExhausted { family: "t<N>" })?;
        names
            .set_next_prefixed("parallel_task", first_task)
            .map_err(|_| TracingError::NamesExhausted { family: "parallel_task$<N>" })?;
        Ok(NameGen { names })
    }

    /// Draws from `names`, the run's generator.
    pub(crate) fn from_run(names: loopir::pipeline::NameGen) -> NameGen {
        NameGen { names }
    }

    /// The run's generator back.
    pub(crate) fn into_run(self) -> loopir::pipeline::NameGen {
        self.names
    }

    /// The next value temporary, `t<N>`.
    pub(crate) fn temp(&mut self) -> Result<Name, TracingError> {
        Ok(self.names.unique_char('t'))
    }

    /// The underlying generator, for an analysis that draws from it directly.
    pub(crate) fn run_mut(&mut self) -> &mut loopir::pipeline::NameGen {
        &mut self.names
    }

    /// The next parallel-task scope name.
    pub(crate) fn task(&mut self) -> Result<Name, TracingError> {
        Ok(self.names.unique("parallel_task"))
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
        let mut g = NameGen::new(0, 0).expect("in range");
        assert_eq!(g.task().expect("fresh").as_ref(), "parallel_task");
        assert_eq!(g.task().expect("fresh").as_ref(), "parallel_task$1");
        assert_eq!(g.temp().expect("fresh").as_ref(), "t0");
        assert_eq!(g.temp().expect("fresh").as_ref(), "t1");
    }

    #[test]
    fn counters_beyond_the_reference_s_are_an_error() {
        let last = loopir::pipeline::MAX_COUNTER;
        let mut g = NameGen::new(last, 0).expect("the largest counter");
        assert_eq!(g.temp().expect("in range").as_ref(), format!("t{last}"));
        assert_eq!(NameGen::new(last + 1, 0).err(), Some(TracingError::NamesExhausted { family: "t<N>" }));
        assert!(NameGen::new(0, u64::MAX).is_err());
    }

    #[test]
    fn temporaries_continue_after_the_input() {
        let s = loopir::parse_stmt("let t12 = x\nf(t3) = t12 + tx\n").expect("parses");
        assert_eq!(next_free_temp_index(&s), 13);
        let none = loopir::parse_stmt("f(x) = 1\n").expect("parses");
        assert_eq!(next_free_temp_index(&none), 0);
    }
}
