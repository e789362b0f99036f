//! The free variables of expressions, cached per node.
//!
//! "Does this expression depend on `x`?" is the question of every loop-invariance and
//! bounds query. Asked of each node of a DAG by walking it, it costs the square of the
//! DAG; with sets cached per node it costs each node once. Sets are sorted lists of names,
//! shared between a node and its parent when the parent adds nothing, and not tracked past
//! [`MAX_TRACKED_FREE_VARS`] names (a query then falls back to a walk, [`mentions_var`]).
//!
//! ```
//! use std::cell::RefCell;
//! use loopir::free_vars::{FreeVarCache, free_vars_cached};
//!
//! let e = loopir::parse_expr("let t = (x + 1) in (t*y)").unwrap();
//! let cache = RefCell::new(FreeVarCache::default());
//! let names: Vec<String> = free_vars_cached(&e, &cache).unwrap().iter().map(|n| n.to_string()).collect();
//! assert_eq!(names, ["x", "y"]);
//! ```

use std::cell::RefCell;
use std::rc::Rc;

use crate::address_map::AddressMap;
use crate::dag::any_node;
use crate::expr::{Expr, ExprAddress, ExprKind, ExprNode, Name};
use crate::stack::with_stack;

/// Free-variable sets larger than this are not tracked (they are reported as "many", and
/// queries fall back to a walk); this keeps the per-node cost bounded.
pub const MAX_TRACKED_FREE_VARS: usize = 32;

/// The free variables of a node: a sorted list, or `None` when there are more than
/// [`MAX_TRACKED_FREE_VARS`].
pub type FreeVars = Option<Rc<[Name]>>;

/// Cache of free-variable sets: per interior node (whose address the entry pins without
/// counting as a handle, so that the node still looks unshared to the memo tables that
/// skip unshared nodes), and per variable name rather than per variable node (names are
/// interned by the parser, so a name read a thousand times has one entry; constants need
/// none).
#[derive(Default)]
pub struct FreeVarCache {
    nodes: AddressMap<*const ExprNode, (ExprAddress, FreeVars)>,
    /// Keyed by the name's text address; the entry's set holds the name, keeping it alive.
    names: AddressMap<*const u8, Rc<[Name]>>,
}

fn merge_sorted(a: &[Name], b: &[Name]) -> Vec<Name> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => {
                out.push(a[i].clone());
                i += 1;
            }
            std::cmp::Ordering::Greater => {
                out.push(b[j].clone());
                j += 1;
            }
            std::cmp::Ordering::Equal => {
                out.push(a[i].clone());
                i += 1;
                j += 1;
            }
        }
    }
    out.extend(a[i..].iter().cloned());
    out.extend(b[j..].iter().cloned());
    out
}

fn union_fv(a: FreeVars, b: FreeVars) -> FreeVars {
    let (a, b) = (a?, b?);
    if a.is_empty() || Rc::ptr_eq(&a, &b) {
        return Some(b);
    }
    if b.is_empty() {
        return Some(a);
    }
    let merged = merge_sorted(&a, &b);
    if merged.len() > MAX_TRACKED_FREE_VARS {
        return None;
    }
    if merged.len() == a.len() {
        return Some(a);
    }
    if merged.len() == b.len() {
        return Some(b);
    }
    Some(Rc::from(merged))
}

thread_local! {
    static EMPTY_FREE_VARS: Rc<[Name]> = Rc::from(Vec::new());
}

/// The free variables of `e` (sorted, deduplicated), cached per node in `cache`, so that
/// repeated queries over a DAG cost O(1) amortised per node; `None` when there are more
/// than [`MAX_TRACKED_FREE_VARS`].
pub fn free_vars_cached(e: &Expr, cache: &RefCell<FreeVarCache>) -> FreeVars {
    match e.kind() {
        ExprKind::Variable(n) => {
            let key = n.as_ptr();
            if let Some(fv) = cache.borrow().names.get(&key) {
                return Some(fv.clone());
            }
            let fv: Rc<[Name]> = Rc::from(vec![n.clone()]);
            cache.borrow_mut().names.insert(key, fv.clone());
            return Some(fv);
        }
        _ if e.is_leaf() => return Some(EMPTY_FREE_VARS.with(Rc::clone)),
        _ => {}
    }
    if let Some((_, fv)) = cache.borrow().nodes.get(&e.as_ptr()) {
        return fv.clone();
    }
    let result: FreeVars = with_stack(|| match e.kind() {
        ExprKind::Let { name, value, body } => {
            let vv = free_vars_cached(value, cache);
            // A body with untracked free variables stays untracked (conservative).
            let vb = free_vars_cached(body, cache)?;
            let body_minus: Vec<Name> = vb.iter().filter(|n| *n != name).cloned().collect();
            let body_minus: Rc<[Name]> = if body_minus.len() == vb.len() { vb } else { Rc::from(body_minus) };
            union_fv(vv, Some(body_minus))
        }
        _ => {
            // One shared empty set: a fresh allocation per node was a measurable part of
            // walking large DAGs.
            let mut acc: FreeVars = Some(EMPTY_FREE_VARS.with(Rc::clone));
            for c in e.children() {
                acc = union_fv(acc, free_vars_cached(c, cache));
                if acc.is_none() {
                    break;
                }
            }
            acc
        }
    });
    cache.borrow_mut().nodes.insert(e.as_ptr(), (e.address(), result.clone()));
    result
}

/// Whether a variable named `name` occurs anywhere in `e` (a conservative stand-in for
/// "occurs free" when the free-variable set is not tracked).
pub fn mentions_var(e: &Expr, name: &str) -> bool {
    any_node(e, |n| n.as_variable().is_some_and(|v| v.as_ref() == name))
}
