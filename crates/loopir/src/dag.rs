//! Measuring and searching expression DAGs.
//!
//! Lowered IR shares subexpressions, so an expression's tree can be exponentially larger
//! than its DAG. These walks visit each node once.
//!
//! ```
//! use loopir::{dag, make, Expr};
//! let x = Expr::var_i32("x");
//! let mut e = x;
//! for _ in 0..40 {
//!     e = make::add(e.clone(), e); // each level doubles the tree
//! }
//! assert_eq!(dag::dag_size(&e), 41);
//! assert_eq!(dag::tree_size(&e), (1u64 << 41) - 1);
//! ```

use rustc_hash::FxHashSet;

use crate::address_map::{AddressMap, AddressSet};
use crate::expr::{Expr, ExprNode};
use crate::stack::with_stack;
use crate::stmt::Stmt;
use crate::visit::Visitor;

/// Number of distinct nodes (by identity) of an expression: its DAG size.
pub fn dag_size(e: &Expr) -> usize {
    dag_size_of([e])
}

/// Number of distinct nodes (by identity) reachable from any of `roots`: the DAG size of
/// several expressions together, a node they share counted once.
pub fn dag_size_of<'e>(roots: impl IntoIterator<Item = &'e Expr>) -> usize {
    let mut seen = FxHashSet::default();
    let mut stack: Vec<Expr> = roots.into_iter().cloned().collect();
    while let Some(n) = stack.pop() {
        if seen.insert(n.as_ptr()) {
            stack.extend(n.children().into_iter().cloned());
        }
    }
    seen.len()
}

/// Number of nodes when every shared subtree is counted at every use, saturating at
/// `u64::MAX`.
pub fn tree_size(e: &Expr) -> u64 {
    fn go(e: &Expr, memo: &mut AddressMap<*const ExprNode, u64>) -> u64 {
        if let Some(&n) = memo.get(&e.as_ptr()) {
            return n;
        }
        let n = with_stack(|| e.children().iter().fold(1u64, |acc, c| acc.saturating_add(go(c, memo))));
        memo.insert(e.as_ptr(), n);
        n
    }
    go(e, &mut AddressMap::default())
}

/// Whether some node of `e` satisfies `found`. Small expressions (the common case: one
/// bound end, one let value) are walked as trees without allocating; larger ones as DAGs,
/// each node once.
pub fn any_node(e: &Expr, found: impl Fn(&Expr) -> bool) -> bool {
    /// `None` if the tree has more than `budget` nodes.
    fn small(e: &Expr, found: &impl Fn(&Expr) -> bool, budget: &mut usize) -> Option<bool> {
        *budget = budget.checked_sub(1)?;
        if found(e) {
            return Some(true);
        }
        for c in e.children() {
            if small(c, found, budget)? {
                return Some(true);
            }
        }
        Some(false)
    }
    if let Some(r) = small(e, &found, &mut 64) {
        return r;
    }
    let mut seen = AddressSet::default();
    let mut stack = vec![e.clone()];
    while let Some(n) = stack.pop() {
        if !seen.insert(n.as_ptr()) {
            continue;
        }
        if found(&n) {
            return true;
        }
        stack.extend(n.children().into_iter().cloned());
    }
    false
}

/// A node of a statement, as [`for_each_node`] passes it.
#[derive(Clone, Copy, Debug)]
pub enum Node<'a> {
    /// A statement.
    Stmt(&'a Stmt),
    /// An expression node.
    Expr(&'a Expr),
}

/// Calls `on_node` on every statement of `s` and every expression node in it, each
/// before its children and in the order of [`Visitor`]. An expression node shared by
/// several parents is passed, and its children walked, at its first use only, so the walk
/// is linear in the DAG; leaves (variables, constants) are passed at every use, as
/// remembering them would cost more than repeating them. Suits the analyses that collect
/// names or types from a statement and need no scope.
///
/// ```
/// use loopir::dag::{self, Node};
/// use loopir::{make, Expr, ExprKind};
/// let x = Expr::var_i32("x");
/// let mut e = x;
/// for _ in 0..40 {
///     e = make::add(e.clone(), e); // each level doubles the tree
/// }
/// let s = loopir::Stmt::evaluate(e);
/// let (mut statements, mut adds, mut variables) = (0, 0, 0);
/// dag::for_each_node(&s, |node| match node {
///     Node::Stmt(_) => statements += 1,
///     Node::Expr(e) if matches!(e.kind(), ExprKind::Variable(_)) => variables += 1,
///     Node::Expr(_) => adds += 1,
/// });
/// assert_eq!((statements, adds, variables), (1, 40, 2));
/// ```
pub fn for_each_node(s: &Stmt, on_node: impl FnMut(Node<'_>)) {
    struct EachNode<F> {
        on_node: F,
        seen: AddressSet<*const ExprNode>,
    }
    impl<F: FnMut(Node<'_>)> Visitor for EachNode<F> {
        fn visit_expr(&mut self, e: &Expr) {
            if e.is_shared() && !e.is_leaf() && !self.seen.insert(e.as_ptr()) {
                return;
            }
            (self.on_node)(Node::Expr(e));
            self.super_expr(e)
        }
        fn visit_stmt(&mut self, s: &Stmt) {
            (self.on_node)(Node::Stmt(s));
            self.super_stmt(s)
        }
    }
    EachNode { on_node, seen: AddressSet::default() }.visit_stmt(s);
}
