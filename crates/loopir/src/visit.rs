//! Read-only traversal of IR.
//!
//! Implement [`Visitor`] and override the hooks you need; from an override, call
//! [`Visitor::super_expr`] or [`Visitor::super_stmt`] to continue into the node's children
//! (rustc's convention: `visit_*` is the hook, `super_*` the walk; never override a
//! `super_*` method). [`Visitor::enter_scope`] and [`Visitor::leave_scope`] bracket the
//! body of every node that binds a name (see [`crate::binder`]).
//!
//! # Walk order
//!
//! The visitor and the mutator ([`crate::mutate`]) visit children in one order, the
//! reference's `IRMutator`'s, given here for every node with more than one child:
//!
//! | node | order |
//! |---|---|
//! | Binary, Select, Ramp | operands left to right |
//! | Load | predicate, index |
//! | Let | value, *enter*, body, *leave* |
//! | LetStmt | value, *enter*, body, *leave* (a chain: every value and enter outermost first, leaves innermost first) |
//! | AssertStmt | condition, message |
//! | For | min, max, *enter*, body, *leave* |
//! | Store | predicate, value, index |
//! | Provide | args, values, predicate |
//! | Allocate | extents, *enter*, body, *leave*, condition, custom allocator |
//! | Realize | bounds (each min, extent), *enter*, body, *leave*, condition |
//! | Prefetch | body, condition, bounds |
//! | Acquire | semaphore, count, body |
//! | IfThenElse | condition, then, else |
//! | Block, Fork, Call, Shuffle | in order |
//!
//! Halide's `IRVisitor` differs from its `IRMutator` for Provide, Allocate, Realize and
//! Prefetch (it visits the expressions first); a pass reproducing an `IRVisitor` whose
//! output depends on that order overrides `visit_stmt` for those nodes. A Prefetch's
//! offset is not visited, as the reference's walks do not visit it.
//!
//! Deep nesting grows the stack on the heap ([`crate::stack`]); a LetStmt chain of any
//! length is walked in a loop.

use crate::binder::Binder;
use crate::expr::{Expr, ExprKind};
use crate::stack::with_stack;
use crate::stmt::{MinExtent, Stmt, StmtKind};

/// A read-only walk over expressions and statements.
///
/// ```
/// use loopir::visit::Visitor;
/// use loopir::{Binder, Expr, ExprKind, Stmt};
///
/// /// The names of the loops around each store, innermost last.
/// #[derive(Default)]
/// struct LoopsAroundStores { open: Vec<String>, found: Vec<String> }
/// impl Visitor for LoopsAroundStores {
///     fn visit_stmt(&mut self, s: &Stmt) {
///         if let loopir::StmtKind::Store { name, .. } = s.kind() {
///             self.found.push(format!("{name}: {}", self.open.join(" ")));
///         }
///         self.super_stmt(s)
///     }
///     fn enter_scope(&mut self, b: &Binder<'_>) {
///         if let Binder::For { name, .. } = b {
///             self.open.push(name.to_string());
///         }
///     }
///     fn leave_scope(&mut self, b: &Binder<'_>) {
///         if let Binder::For { .. } = b {
///             self.open.pop();
///         }
///     }
/// }
/// let s = loopir::parse_stmt("for (y, 0, 9) {\n for (x, 0, 9) {\n  f[x] = 0\n }\n g[y] = 1\n}\n").unwrap();
/// let mut v = LoopsAroundStores::default();
/// v.visit_stmt(&s);
/// assert_eq!(v.found, ["f: y x", "g: y"]);
/// ```
pub trait Visitor {
    /// Visits an expression; the default visits its children.
    fn visit_expr(&mut self, e: &Expr) {
        self.super_expr(e)
    }
    /// Visits a statement; the default visits its expressions and child statements.
    fn visit_stmt(&mut self, s: &Stmt) {
        self.super_stmt(s)
    }
    /// Called before the body of a node that binds a name (see [`crate::binder`]).
    fn enter_scope(&mut self, _binder: &Binder<'_>) {}
    /// Called after the body of a node that binds a name.
    fn leave_scope(&mut self, _binder: &Binder<'_>) {}
    /// Visits the children of `e` in the walk order. Call it from `visit_expr`; do not
    /// override it.
    fn super_expr(&mut self, e: &Expr) {
        with_stack(|| walk_expr(self, e))
    }
    /// Visits the expressions and child statements of `s` in the walk order. Call it from
    /// `visit_stmt`; do not override it.
    fn super_stmt(&mut self, s: &Stmt) {
        with_stack(|| walk_stmt(self, s))
    }
}

fn walk_expr<V: Visitor + ?Sized>(v: &mut V, e: &Expr) {
    match e.kind() {
        ExprKind::IntImm(_)
        | ExprKind::UIntImm(_)
        | ExprKind::FloatImm(_)
        | ExprKind::StringImm(_)
        | ExprKind::Variable(_) => {}
        ExprKind::Cast(value) | ExprKind::Reinterpret(value) | ExprKind::Not(value) => v.visit_expr(value),
        ExprKind::Binary(_op, a, b) => {
            v.visit_expr(a);
            v.visit_expr(b);
        }
        ExprKind::Select(condition, t, f) => {
            v.visit_expr(condition);
            v.visit_expr(t);
            v.visit_expr(f);
        }
        ExprKind::Load { name: _, index, predicate, alignment: _ } => {
            v.visit_expr(predicate);
            v.visit_expr(index);
        }
        ExprKind::Ramp { base, stride, lanes: _ } => {
            v.visit_expr(base);
            v.visit_expr(stride);
        }
        ExprKind::Broadcast { value, lanes: _ } => v.visit_expr(value),
        ExprKind::Call { name: _, args, call_type: _, value_index: _ } => {
            args.iter().for_each(|a| v.visit_expr(a))
        }
        ExprKind::Let { name, value, body } => {
            v.visit_expr(value);
            let binder = Binder::Let { name, value };
            v.enter_scope(&binder);
            v.visit_expr(body);
            v.leave_scope(&binder);
        }
        ExprKind::Shuffle { vectors, indices: _ } => vectors.iter().for_each(|x| v.visit_expr(x)),
        ExprKind::VectorReduce { op: _, value } => v.visit_expr(value),
    }
}

fn visit_ranges<V: Visitor + ?Sized>(v: &mut V, bounds: &[MinExtent]) {
    for MinExtent { min, extent } in bounds {
        v.visit_expr(min);
        v.visit_expr(extent);
    }
}

fn walk_stmt<V: Visitor + ?Sized>(v: &mut V, s: &Stmt) {
    match s.kind() {
        StmtKind::LetStmt { name: _, value: _, body: _ } => walk_let_chain(v, s),
        StmtKind::AssertStmt { condition, message } => {
            v.visit_expr(condition);
            v.visit_expr(message);
        }
        StmtKind::ProducerConsumer { name: _, is_producer: _, body } => v.visit_stmt(body),
        StmtKind::For { name, min, max, for_type, device_api, partition_policy: _, body } => {
            v.visit_expr(min);
            v.visit_expr(max);
            let binder = Binder::For { name, min, max, for_type: *for_type, device_api: *device_api };
            v.enter_scope(&binder);
            v.visit_stmt(body);
            v.leave_scope(&binder);
        }
        StmtKind::Store { name: _, value, index, predicate, alignment: _ } => {
            v.visit_expr(predicate);
            v.visit_expr(value);
            v.visit_expr(index);
        }
        StmtKind::Provide { name: _, values, args, predicate } => {
            args.iter().for_each(|a| v.visit_expr(a));
            values.iter().for_each(|x| v.visit_expr(x));
            v.visit_expr(predicate);
        }
        StmtKind::Allocate {
            name,
            ty,
            memory_type,
            extents,
            condition,
            new_expr,
            free_function: _,
            padding: _,
            body,
        } => {
            extents.iter().for_each(|x| v.visit_expr(x));
            let binder = Binder::Allocate { name, ty: *ty, memory_type: *memory_type, extents };
            v.enter_scope(&binder);
            v.visit_stmt(body);
            v.leave_scope(&binder);
            v.visit_expr(condition);
            if let Some(custom) = new_expr {
                v.visit_expr(custom);
            }
        }
        StmtKind::Free { name: _ } => {}
        StmtKind::Realize { name, types, memory_type, bounds, condition, body } => {
            visit_ranges(v, bounds);
            let binder = Binder::Realize { name, types, memory_type: *memory_type, bounds };
            v.enter_scope(&binder);
            v.visit_stmt(body);
            v.leave_scope(&binder);
            v.visit_expr(condition);
        }
        StmtKind::Prefetch { name: _, types: _, bounds, prefetch: _, condition, body } => {
            v.visit_stmt(body);
            v.visit_expr(condition);
            visit_ranges(v, bounds);
        }
        StmtKind::Block(stmts) => stmts.iter().for_each(|x| v.visit_stmt(x)),
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
        StmtKind::Evaluate(value) => v.visit_expr(value),
        StmtKind::Atomic { producer_name: _, mutex_name: _, body } => v.visit_stmt(body),
        StmtKind::HoistedStorage { name: _, body } => v.visit_stmt(body),
    }
}

/// A chain of directly nested LetStmts, walked in a loop so that its length costs no
/// stack: every value and `enter_scope` outermost first, the innermost body, then every
/// `leave_scope` innermost first.
fn walk_let_chain<V: Visitor + ?Sized>(v: &mut V, s: &Stmt) {
    let mut chain: Vec<&Stmt> = Vec::new();
    let mut cur = s;
    while let StmtKind::LetStmt { name, value, body } = cur.kind() {
        v.visit_expr(value);
        v.enter_scope(&Binder::LetStmt { name, value });
        chain.push(cur);
        cur = body;
    }
    v.visit_stmt(cur);
    for link in chain.iter().rev() {
        if let StmtKind::LetStmt { name, value, body: _ } = link.kind() {
            v.leave_scope(&Binder::LetStmt { name, value });
        }
    }
}
