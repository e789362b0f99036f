//! Dropping IR without recursion.
//!
//! A naive `Drop` of a million-deep chain would recurse once per node and overflow the
//! stack. Instead, when the last handle to a node goes away, its children are moved onto
//! an explicit work list and released in a loop.

use std::sync::Arc;

use crate::expr::{ExprKind, ExprNode};
use crate::stmt::StmtKind;

#[derive(Default)]
struct WorkList {
    exprs: Vec<Arc<ExprNode>>,
    stmts: Vec<Arc<StmtKind>>,
}

impl WorkList {
    fn push_expr(&mut self, e: crate::Expr) {
        let arc = e.into_arc();
        // Shared children only lose a reference; no need to queue them.
        if Arc::strong_count(&arc) == 1 {
            self.exprs.push(arc);
        }
    }
    fn push_stmt(&mut self, s: crate::Stmt) {
        let arc = s.into_arc();
        if Arc::strong_count(&arc) == 1 {
            self.stmts.push(arc);
        }
    }

    fn dismantle_expr(&mut self, node: ExprNode) {
        match node.kind {
            ExprKind::IntImm(_)
            | ExprKind::UIntImm(_)
            | ExprKind::FloatImm(_)
            | ExprKind::StringImm(_)
            | ExprKind::Variable(_) => {}
            ExprKind::Cast(a) | ExprKind::Reinterpret(a) | ExprKind::Not(a) => self.push_expr(a),
            ExprKind::Binary(_, a, b) => {
                self.push_expr(a);
                self.push_expr(b);
            }
            ExprKind::Select(c, t, f) => {
                self.push_expr(c);
                self.push_expr(t);
                self.push_expr(f);
            }
            ExprKind::Load { index, predicate, .. } => {
                self.push_expr(index);
                self.push_expr(predicate);
            }
            ExprKind::Ramp { base, stride, .. } => {
                self.push_expr(base);
                self.push_expr(stride);
            }
            ExprKind::Broadcast { value, .. } | ExprKind::VectorReduce { value, .. } => self.push_expr(value),
            ExprKind::Call { args, .. } => args.into_iter().for_each(|a| self.push_expr(a)),
            ExprKind::Let { value, body, .. } => {
                self.push_expr(value);
                self.push_expr(body);
            }
            ExprKind::Shuffle { vectors, .. } => vectors.into_iter().for_each(|a| self.push_expr(a)),
        }
    }

    fn dismantle_stmt(&mut self, kind: StmtKind) {
        match kind {
            StmtKind::LetStmt { value, body, .. } => {
                self.push_expr(value);
                self.push_stmt(body);
            }
            StmtKind::AssertStmt { condition, message } => {
                self.push_expr(condition);
                self.push_expr(message);
            }
            StmtKind::ProducerConsumer { body, .. } => self.push_stmt(body),
            StmtKind::For { min, max, body, .. } => {
                self.push_expr(min);
                self.push_expr(max);
                self.push_stmt(body);
            }
            StmtKind::Store { value, index, predicate, .. } => {
                self.push_expr(value);
                self.push_expr(index);
                self.push_expr(predicate);
            }
            StmtKind::Provide { values, args, predicate, .. } => {
                values.into_iter().chain(args).for_each(|e| self.push_expr(e));
                self.push_expr(predicate);
            }
            StmtKind::Allocate { extents, condition, new_expr, body, .. } => {
                extents.into_iter().chain(new_expr).for_each(|e| self.push_expr(e));
                self.push_expr(condition);
                self.push_stmt(body);
            }
            StmtKind::Free { .. } => {}
            StmtKind::Realize { bounds, condition, body, .. } => {
                for r in bounds {
                    self.push_expr(r.min);
                    self.push_expr(r.extent);
                }
                self.push_expr(condition);
                self.push_stmt(body);
            }
            StmtKind::Prefetch { bounds, prefetch, condition, body, .. } => {
                for r in bounds {
                    self.push_expr(r.min);
                    self.push_expr(r.extent);
                }
                self.push_expr(prefetch.offset);
                self.push_expr(condition);
                self.push_stmt(body);
            }
            StmtKind::Block(stmts) => stmts.into_iter().for_each(|s| self.push_stmt(s)),
            StmtKind::Fork { first, rest } => {
                self.push_stmt(first);
                self.push_stmt(rest);
            }
            StmtKind::Acquire { semaphore, count, body } => {
                self.push_expr(semaphore);
                self.push_expr(count);
                self.push_stmt(body);
            }
            StmtKind::IfThenElse { condition, then_case, else_case } => {
                self.push_expr(condition);
                self.push_stmt(then_case);
                if let Some(e) = else_case {
                    self.push_stmt(e);
                }
            }
            StmtKind::Evaluate(e) => self.push_expr(e),
            StmtKind::Atomic { body, .. } | StmtKind::HoistedStorage { body, .. } => self.push_stmt(body),
        }
    }

    fn run(&mut self) {
        loop {
            if let Some(a) = self.exprs.pop() {
                if let Some(node) = Arc::into_inner(a) {
                    self.dismantle_expr(node);
                }
            } else if let Some(s) = self.stmts.pop() {
                if let Some(kind) = Arc::into_inner(s) {
                    self.dismantle_stmt(kind);
                }
            } else {
                break;
            }
        }
    }
}

pub(crate) fn release_expr(arc: Arc<ExprNode>) {
    if let Some(node) = Arc::into_inner(arc) {
        let mut work = WorkList::default();
        work.dismantle_expr(node);
        work.run();
    }
}

pub(crate) fn release_stmt(arc: Arc<StmtKind>) {
    if let Some(kind) = Arc::into_inner(arc) {
        let mut work = WorkList::default();
        work.dismantle_stmt(kind);
        work.run();
    }
}
