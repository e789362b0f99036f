//! Read-only traversal of IR.
//!
//! Implement [`Visitor`], override the hooks you need, and call the `walk_*` function from
//! an override to continue into the children. A chain of directly nested `LetStmt`s is
//! walked in a loop (with [`Visitor::enter_let_stmt`] / [`Visitor::leave_let_stmt`] around
//! each binding) so that a chain of any length uses constant stack; other nesting grows the
//! stack on the heap when needed.

use crate::equality::with_stack;
use crate::expr::{Expr, Name};
use crate::stmt::{Stmt, StmtKind};

/// A read-only walk over expressions and statements.
pub trait Visitor {
    /// Visits an expression; the default visits its children.
    fn visit_expr(&mut self, e: &Expr) {
        walk_expr(self, e)
    }
    /// Visits a statement; the default visits its expressions and child statements.
    fn visit_stmt(&mut self, s: &Stmt) {
        walk_stmt(self, s)
    }
    /// Called by the default walk of a LetStmt chain after visiting a binding's value and
    /// before its body.
    fn enter_let_stmt(&mut self, _name: &Name, _value: &Expr) {}
    /// Called by the default walk of a LetStmt chain after the binding's body.
    fn leave_let_stmt(&mut self, _name: &Name) {}
}

/// Visits the children of `e`.
pub fn walk_expr<V: Visitor + ?Sized>(v: &mut V, e: &Expr) {
    with_stack(|| {
        for c in e.children() {
            v.visit_expr(c);
        }
    })
}

/// Visits the expressions and child statements of `s`.
pub fn walk_stmt<V: Visitor + ?Sized>(v: &mut V, s: &Stmt) {
    with_stack(|| match s.kind() {
        StmtKind::LetStmt { .. } => {
            let mut cur = s.clone();
            let mut names = Vec::new();
            while let StmtKind::LetStmt { name, value, body } = cur.kind() {
                v.visit_expr(value);
                v.enter_let_stmt(name, value);
                names.push(name.clone());
                let next = body.clone();
                cur = next;
            }
            v.visit_stmt(&cur);
            for n in names.iter().rev() {
                v.leave_let_stmt(n);
            }
        }
        StmtKind::AssertStmt { condition, message } => {
            v.visit_expr(condition);
            v.visit_expr(message);
        }
        StmtKind::ProducerConsumer { body, .. }
        | StmtKind::Atomic { body, .. }
        | StmtKind::HoistedStorage { body, .. } => v.visit_stmt(body),
        StmtKind::For { min, max, body, .. } => {
            v.visit_expr(min);
            v.visit_expr(max);
            v.visit_stmt(body);
        }
        StmtKind::Store { value, index, predicate, .. } => {
            v.visit_expr(predicate);
            v.visit_expr(value);
            v.visit_expr(index);
        }
        StmtKind::Provide { values, args, predicate, .. } => {
            v.visit_expr(predicate);
            values.iter().for_each(|e| v.visit_expr(e));
            args.iter().for_each(|e| v.visit_expr(e));
        }
        StmtKind::Allocate { extents, condition, new_expr, body, .. } => {
            extents.iter().for_each(|e| v.visit_expr(e));
            v.visit_expr(condition);
            if let Some(e) = new_expr {
                v.visit_expr(e);
            }
            v.visit_stmt(body);
        }
        StmtKind::Free { .. } => {}
        StmtKind::Realize { bounds, condition, body, .. } => {
            for r in bounds {
                v.visit_expr(&r.min);
                v.visit_expr(&r.extent);
            }
            v.visit_expr(condition);
            v.visit_stmt(body);
        }
        StmtKind::Prefetch { bounds, prefetch, condition, body, .. } => {
            for r in bounds {
                v.visit_expr(&r.min);
                v.visit_expr(&r.extent);
            }
            v.visit_expr(&prefetch.offset);
            v.visit_expr(condition);
            v.visit_stmt(body);
        }
        StmtKind::Block(stmts) => stmts.iter().for_each(|st| v.visit_stmt(st)),
        StmtKind::Fork { first, rest } => {
            v.visit_stmt(first);
            v.visit_stmt(rest);
        }
        StmtKind::Acquire { semaphore, count, body } => {
            v.visit_expr(semaphore);
            v.visit_expr(count);
            v.visit_stmt(body);
        }
        StmtKind::IfThenElse { condition, then_case, else_case } => {
            v.visit_expr(condition);
            v.visit_stmt(then_case);
            if let Some(e) = else_case {
                v.visit_stmt(e);
            }
        }
        StmtKind::Evaluate(e) => v.visit_expr(e),
    })
}
