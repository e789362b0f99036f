//! Structural equality of expressions and statements.
//!
//! Shared subtrees compare equal by pointer at once, so comparing two versions of a program
//! that share most of their nodes costs only the parts that differ. Expression equality
//! memoises the pairs of nodes already found equal, so comparing two DAGs costs their
//! sizes, not their tree sizes; inside an analysis that installed a [`crate::hash`] cache,
//! differing expressions are told apart by their hashes without walking them.

use crate::address_map::AddressSet;
use crate::expr::{Expr, ExprKind, ExprNode};
use crate::hash::{hashes_differ, recorded_hashes};
use crate::stack::with_stack;
use crate::stmt::{MinExtent, Stmt, StmtKind};

/// Whether `a` and `b` are the same expression: the same types, kinds, names, constants
/// and operands (what `==` on [`Expr`] asks).
///
/// ```
/// let a = loopir::parse_expr("min(x + 1, y)").unwrap();
/// let b = loopir::parse_expr("min(x + 1, y)").unwrap();
/// assert!(loopir::equality::equal(&a, &b) && !a.same_as(&b));
/// assert!(!loopir::equality::equal(&a, &loopir::parse_expr("min(x + 1, z)").unwrap()));
/// ```
pub fn equal(a: &Expr, b: &Expr) -> bool {
    if a.same_as(b) {
        return true;
    }
    // Most comparisons are settled at the root (different kinds, operators, names or
    // values; or two equal leaves), before any table is consulted.
    if a.ty() != b.ty() || !shallow_eq(a.kind(), b.kind()) {
        return false;
    }
    if a.is_leaf() {
        return true;
    }
    // A recorded hash marks a tree that was too large to compare directly (or a part of
    // one): with either side recorded, compare hashes (recording the other), which tells
    // large different trees apart at once.
    match recorded_hashes(a, b) {
        (Some(ha), Some(hb)) if ha != hb => return false,
        (Some(_), None) | (None, Some(_)) if hashes_differ(a, b) => return false,
        (None, None) => {
            // Most comparisons are of a few nodes, or differ near the root: compare those
            // as trees directly (hashing them would walk and record every node of both).
            if let Some(r) = small_eq(a, b, &mut 4) {
                return r;
            }
            if hashes_differ(a, b) {
                return false;
            }
        }
        _ => {}
    }
    let mut done = AddressSet::default();
    eq_rec(a, b, &mut done)
}

/// [`eq_rec`] on trees of at most `budget` node pairs; `None` if they are larger.
fn small_eq(a: &Expr, b: &Expr, budget: &mut usize) -> Option<bool> {
    if a.same_as(b) {
        return Some(true);
    }
    *budget = budget.checked_sub(1)?;
    if a.ty() != b.ty() || !shallow_eq(a.kind(), b.kind()) {
        return Some(false);
    }
    let (ca, cb) = (a.children(), b.children());
    if ca.len() != cb.len() {
        return Some(false);
    }
    for (x, y) in ca.iter().zip(cb.iter()) {
        if !small_eq(x, y, budget)? {
            return Some(false);
        }
    }
    Some(true)
}

fn eq_rec(a: &Expr, b: &Expr, done: &mut AddressSet<(*const ExprNode, *const ExprNode)>) -> bool {
    if a.same_as(b) || done.contains(&(a.as_ptr(), b.as_ptr())) {
        return true;
    }
    if a.ty() != b.ty() || !shallow_eq(a.kind(), b.kind()) {
        return false;
    }
    let (ca, cb) = (a.children(), b.children());
    let same =
        ca.len() == cb.len() && with_stack(|| ca.iter().zip(cb.iter()).all(|(x, y)| eq_rec(x, y, done)));
    if same {
        done.insert((a.as_ptr(), b.as_ptr()));
    }
    same
}

/// Whether two nodes agree on everything but their children (and their children agree in
/// number).
pub fn shallow_eq(a: &ExprKind, b: &ExprKind) -> bool {
    use ExprKind as K;
    match (a, b) {
        (K::IntImm(x), K::IntImm(y)) => x == y,
        (K::UIntImm(x), K::UIntImm(y)) => x == y,
        (K::FloatImm(x), K::FloatImm(y)) => x.to_bits() == y.to_bits(),
        (K::StringImm(x), K::StringImm(y)) => x == y,
        (K::Variable(x), K::Variable(y)) => x == y,
        (K::Cast(_), K::Cast(_)) | (K::Reinterpret(_), K::Reinterpret(_)) | (K::Not(_), K::Not(_)) => true,
        (K::Select(_, _, _), K::Select(_, _, _)) => true,
        (K::Binary(o1, _, _), K::Binary(o2, _, _)) => o1 == o2,
        (
            K::Load { name: n1, index: _, predicate: _, alignment: a1 },
            K::Load { name: n2, index: _, predicate: _, alignment: a2 },
        ) => n1 == n2 && a1 == a2,
        (K::Ramp { base: _, stride: _, lanes: l1 }, K::Ramp { base: _, stride: _, lanes: l2 }) => l1 == l2,
        (K::Broadcast { value: _, lanes: l1 }, K::Broadcast { value: _, lanes: l2 }) => l1 == l2,
        (
            K::Call { name: n1, call_type: c1, value_index: v1, args: a1 },
            K::Call { name: n2, call_type: c2, value_index: v2, args: a2 },
        ) => n1 == n2 && c1 == c2 && v1 == v2 && a1.len() == a2.len(),
        (K::Let { name: n1, value: _, body: _ }, K::Let { name: n2, value: _, body: _ }) => n1 == n2,
        (K::Shuffle { indices: i1, vectors: v1 }, K::Shuffle { indices: i2, vectors: v2 }) => {
            i1 == i2 && v1.len() == v2.len()
        }
        (K::VectorReduce { op: o1, value: _ }, K::VectorReduce { op: o2, value: _ }) => o1 == o2,
        _ => false,
    }
}

fn expr_eq(a: &Expr, b: &Expr) -> bool {
    equal(a, b)
}

fn all_eq(a: &[Expr], b: &[Expr]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| equal(x, y))
}

fn opt_eq(a: &Option<Expr>, b: &Option<Expr>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => expr_eq(x, y),
        (None, None) => true,
        _ => false,
    }
}

fn ranges_eq(a: &[MinExtent], b: &[MinExtent]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| expr_eq(&x.min, &y.min) && expr_eq(&x.extent, &y.extent))
}

pub(crate) fn stmt_eq(a: &Stmt, b: &Stmt) -> bool {
    // Walk LetStmt chains and Block elements in a loop; recurse only into nested bodies.
    let (mut a, mut b) = (a.clone(), b.clone());
    loop {
        if a.same_as(&b) {
            return true;
        }
        use StmtKind as K;
        let (next_a, next_b) = match (a.kind(), b.kind()) {
            (K::LetStmt { name: n1, value: v1, body: b1 }, K::LetStmt { name: n2, value: v2, body: b2 }) => {
                if n1 != n2 || !expr_eq(v1, v2) {
                    return false;
                }
                (b1.clone(), b2.clone())
            }
            (K::Block(x), K::Block(y)) => {
                return x.len() == y.len() && x.iter().zip(y).all(|(s, t)| stmt_eq(s, t));
            }
            (ka, kb) => return with_stack(|| node_eq(ka, kb)),
        };
        a = next_a;
        b = next_b;
    }
}

fn node_eq(a: &StmtKind, b: &StmtKind) -> bool {
    use StmtKind as K;
    match (a, b) {
        (K::AssertStmt { condition: c1, message: m1 }, K::AssertStmt { condition: c2, message: m2 }) => {
            expr_eq(c1, c2) && expr_eq(m1, m2)
        }
        (
            K::ProducerConsumer { name: n1, is_producer: p1, body: b1 },
            K::ProducerConsumer { name: n2, is_producer: p2, body: b2 },
        ) => n1 == n2 && p1 == p2 && stmt_eq(b1, b2),
        (
            K::For {
                name: n1,
                min: mi1,
                max: ma1,
                for_type: f1,
                device_api: d1,
                partition_policy: pp1,
                body: b1,
            },
            K::For {
                name: n2,
                min: mi2,
                max: ma2,
                for_type: f2,
                device_api: d2,
                partition_policy: pp2,
                body: b2,
            },
        ) => {
            n1 == n2
                && f1 == f2
                && d1 == d2
                && pp1 == pp2
                && expr_eq(mi1, mi2)
                && expr_eq(ma1, ma2)
                && stmt_eq(b1, b2)
        }
        (
            K::Store { name: n1, value: v1, index: i1, predicate: p1, alignment: a1 },
            K::Store { name: n2, value: v2, index: i2, predicate: p2, alignment: a2 },
        ) => n1 == n2 && a1 == a2 && expr_eq(v1, v2) && expr_eq(i1, i2) && expr_eq(p1, p2),
        (
            K::Provide { name: n1, values: v1, args: a1, predicate: p1 },
            K::Provide { name: n2, values: v2, args: a2, predicate: p2 },
        ) => n1 == n2 && all_eq(v1, v2) && all_eq(a1, a2) && expr_eq(p1, p2),
        (
            K::Allocate {
                name: n1,
                ty: t1,
                memory_type: m1,
                extents: e1,
                condition: c1,
                new_expr: ne1,
                free_function: f1,
                padding: p1,
                body: b1,
            },
            K::Allocate {
                name: n2,
                ty: t2,
                memory_type: m2,
                extents: e2,
                condition: c2,
                new_expr: ne2,
                free_function: f2,
                padding: p2,
                body: b2,
            },
        ) => {
            n1 == n2
                && t1 == t2
                && m1 == m2
                && f1 == f2
                && p1 == p2
                && all_eq(e1, e2)
                && expr_eq(c1, c2)
                && opt_eq(ne1, ne2)
                && stmt_eq(b1, b2)
        }
        (K::Free { name: n1 }, K::Free { name: n2 }) => n1 == n2,
        (
            K::Realize { name: n1, types: t1, memory_type: m1, bounds: r1, condition: c1, body: b1 },
            K::Realize { name: n2, types: t2, memory_type: m2, bounds: r2, condition: c2, body: b2 },
        ) => n1 == n2 && t1 == t2 && m1 == m2 && ranges_eq(r1, r2) && expr_eq(c1, c2) && stmt_eq(b1, b2),
        (
            K::Prefetch { name: n1, types: t1, bounds: r1, prefetch: p1, condition: c1, body: b1 },
            K::Prefetch { name: n2, types: t2, bounds: r2, prefetch: p2, condition: c2, body: b2 },
        ) => n1 == n2 && t1 == t2 && p1 == p2 && ranges_eq(r1, r2) && expr_eq(c1, c2) && stmt_eq(b1, b2),
        (K::Fork { first: f1, rest: r1 }, K::Fork { first: f2, rest: r2 }) => {
            stmt_eq(f1, f2) && stmt_eq(r1, r2)
        }
        (
            K::Acquire { semaphore: s1, count: c1, body: b1 },
            K::Acquire { semaphore: s2, count: c2, body: b2 },
        ) => expr_eq(s1, s2) && expr_eq(c1, c2) && stmt_eq(b1, b2),
        (
            K::IfThenElse { condition: c1, then_case: t1, else_case: e1 },
            K::IfThenElse { condition: c2, then_case: t2, else_case: e2 },
        ) => {
            expr_eq(c1, c2)
                && stmt_eq(t1, t2)
                && match (e1, e2) {
                    (Some(x), Some(y)) => stmt_eq(x, y),
                    (None, None) => true,
                    _ => false,
                }
        }
        (K::Evaluate(x), K::Evaluate(y)) => expr_eq(x, y),
        (
            K::Atomic { producer_name: p1, mutex_name: m1, body: b1 },
            K::Atomic { producer_name: p2, mutex_name: m2, body: b2 },
        ) => p1 == p2 && m1 == m2 && stmt_eq(b1, b2),
        (K::HoistedStorage { name: n1, body: b1 }, K::HoistedStorage { name: n2, body: b2 }) => {
            n1 == n2 && stmt_eq(b1, b2)
        }
        _ => false,
    }
}
