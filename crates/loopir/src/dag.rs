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
