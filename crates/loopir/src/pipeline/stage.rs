//! [`IrStage`]: which lowering stage a statement is at, as far as the passes care.
//!
//! The reference's lowering has two shapes of IR that its passes tell apart: the
//! **schedule stage** (from schedule construction to storage flattening: `realize`,
//! multi-dimensional `Provide` stores and calls of kind Halide to Funcs) and the
//! **storage-flattened** stage (`allocate` / `free`, one-dimensional `Store`s and
//! `Load`s by buffer name). A pass written for one shape silently does something else on
//! the other, so every pass says which it expects and refuses the wrong one.

use crate::address_map::AddressSet;
use crate::expr::{CallType, Expr, ExprKind, ExprNode};
use crate::stmt::{Stmt, StmtKind};
use crate::visit::Visitor;

/// A lowering stage a pass expects or produces.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IrStage {
    /// Before storage flattening: `realize`, `Provide`, calls to Funcs.
    Schedule,
    /// After storage flattening: `allocate`, `free`, `Store`, `Load`.
    Flattened,
    /// Either (a pass that does not care, or IR with nodes of neither kind).
    Any,
}

impl std::fmt::Display for IrStage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            IrStage::Schedule => {
                "the schedule stage (realize, Provide and Func calls, before storage flattening)"
            }
            IrStage::Flattened => "storage-flattened IR (allocate, free, Store and Load)",
            IrStage::Any => "IR of any stage",
        })
    }
}

/// What a statement shows of its stage: the first node of each shape, as text.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StageEvidence {
    /// The first schedule-stage node (`realize f`, `f(...) = ...`, a Func call).
    pub schedule: Option<String>,
    /// The first storage-flattened node (`allocate f`, `free f`, `f[...] = ...`, a load).
    pub flattened: Option<String>,
}

impl StageEvidence {
    /// Scans `stmt` (linear in its DAG).
    pub fn of(stmt: &Stmt) -> StageEvidence {
        let mut scan = StageScan { found: StageEvidence::default(), seen: AddressSet::default() };
        scan.visit_stmt(stmt);
        scan.found
    }

    /// The stage the evidence shows: the schedule stage if there is any realization,
    /// Provide or Func call (the reference's schedule stage can hold allocations and
    /// stores already, e.g. the cache keys of memoization), storage-flattened if there
    /// are only allocations, stores and loads, [`IrStage::Any`] when there is none of
    /// either kind.
    pub fn stage(&self) -> IrStage {
        match (&self.schedule, &self.flattened) {
            (Some(_), _) => IrStage::Schedule,
            (None, Some(_)) => IrStage::Flattened,
            (None, None) => IrStage::Any,
        }
    }

    /// What the statement is, in words, for messages.
    pub fn describe(&self) -> String {
        match (&self.schedule, &self.flattened) {
            (Some(s), _) => format!("{} (e.g. `{s}`)", IrStage::Schedule),
            (None, Some(f)) => format!("{} (e.g. `{f}`)", IrStage::Flattened),
            (None, None) => "IR with no node of either stage".to_owned(),
        }
    }
}

/// A statement of the wrong stage for a pass.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expects {expected}, but got {got}")]
pub struct WrongStage {
    /// What the pass expects.
    pub expected: IrStage,
    /// What it got, in words (see [`StageEvidence::describe`]).
    pub got: String,
}

/// Checks that `stmt` is at stage `expected` (anything is, for [`IrStage::Any`]; a
/// statement with nodes of neither kind is at every stage).
pub fn check_stage(stmt: &Stmt, expected: IrStage) -> Result<(), WrongStage> {
    if expected == IrStage::Any {
        return Ok(());
    }
    let evidence = StageEvidence::of(stmt);
    match evidence.stage() {
        s if s == expected || s == IrStage::Any => Ok(()),
        _ => Err(WrongStage { expected, got: evidence.describe() }),
    }
}

struct StageScan {
    found: StageEvidence,
    seen: AddressSet<*const ExprNode>,
}

/// The node by kind and name only: printing a statement can take time exponential in
/// the size of a DAG, and this scan must stay linear.
fn head(s: &Stmt) -> String {
    match s.kind() {
        StmtKind::Realize { name, .. } => format!("realize {name}"),
        StmtKind::Provide { name, .. } => format!("{name}(…) = …"),
        StmtKind::Allocate { name, .. } => format!("allocate {name}"),
        StmtKind::Free { name } => format!("free {name}"),
        StmtKind::Store { name, .. } => format!("{name}[…] = …"),
        _ => String::new(),
    }
}

impl Visitor for StageScan {
    fn visit_stmt(&mut self, s: &Stmt) {
        if self.found.schedule.is_some() && self.found.flattened.is_some() {
            return;
        }
        match s.kind() {
            StmtKind::Realize { .. } | StmtKind::Provide { .. } => {
                self.found.schedule.get_or_insert_with(|| head(s));
            }
            StmtKind::Allocate { .. } | StmtKind::Free { .. } | StmtKind::Store { .. } => {
                self.found.flattened.get_or_insert_with(|| head(s));
            }
            _ => {}
        }
        self.super_stmt(s)
    }

    fn visit_expr(&mut self, e: &Expr) {
        if self.found.schedule.is_some() && self.found.flattened.is_some() {
            return;
        }
        if e.is_shared() && !e.is_leaf() && !self.seen.insert(e.as_ptr()) {
            return;
        }
        match e.kind() {
            ExprKind::Call { name, call_type: CallType::Halide, .. } => {
                self.found.schedule.get_or_insert_with(|| format!("{name}(…)"));
            }
            ExprKind::Load { name, .. } => {
                self.found.flattened.get_or_insert_with(|| format!("{name}[…]"));
            }
            _ => {}
        }
        self.super_expr(e)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_the_stages_apart() {
        let schedule = crate::parse_stmt("realize f([0, 4]) {\n  f(0) = 1\n}\n").expect("parses");
        let flat = crate::parse_stmt("allocate f[int32 * 4]\nf[0] = 1\nfree f\n").expect("parses");
        assert_eq!(StageEvidence::of(&schedule).stage(), IrStage::Schedule);
        assert_eq!(StageEvidence::of(&flat).stage(), IrStage::Flattened);
        assert!(check_stage(&schedule, IrStage::Schedule).is_ok());
        let e = check_stage(&flat, IrStage::Schedule).expect_err("flattened");
        assert!(e.to_string().contains("but got storage-flattened IR"), "{e}");
        assert!(e.to_string().contains("`allocate f`"), "{e}");
        let neither = crate::parse_stmt("for (x, 0, 4) {\n 0\n}\n").expect("parses");
        assert!(check_stage(&neither, IrStage::Flattened).is_ok());
    }
}
