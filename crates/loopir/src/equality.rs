//! Structural equality of expressions and statements.
//!
//! Shared subtrees compare equal by pointer at once, so comparing two versions of a program
//! that share most of their nodes costs only the parts that differ.

use crate::expr::{Expr, ExprKind};
use crate::stmt::{Range, Stmt, StmtKind};

/// Stack headroom (bytes) below which recursive walks move to a fresh heap-allocated segment.
pub const RED_ZONE: usize = 64 * 1024;
/// Size of each extra stack segment.
pub const STACK_SEGMENT: usize = 2 * 1024 * 1024;

/// Runs `f` with at least [`RED_ZONE`] bytes of stack, growing it on the heap if needed.
pub fn with_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, STACK_SEGMENT, f)
}

pub(crate) fn expr_eq(a: &Expr, b: &Expr) -> bool {
    if a.same_as(b) {
        return true;
    }
    if a.ty() != b.ty() {
        return false;
    }
    with_stack(|| kind_eq(a.kind(), b.kind()))
}

fn all_eq(a: &[Expr], b: &[Expr]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| expr_eq(x, y))
}

fn kind_eq(a: &ExprKind, b: &ExprKind) -> bool {
    use ExprKind as K;
    match (a, b) {
        (K::IntImm(x), K::IntImm(y)) => x == y,
        (K::UIntImm(x), K::UIntImm(y)) => x == y,
        (K::FloatImm(x), K::FloatImm(y)) => x.to_bits() == y.to_bits(),
        (K::StringImm(x), K::StringImm(y)) => x == y,
        (K::Cast(x), K::Cast(y)) | (K::Reinterpret(x), K::Reinterpret(y)) | (K::Not(x), K::Not(y)) => {
            expr_eq(x, y)
        }
        (K::Variable(x), K::Variable(y)) => x == y,
        (K::Binary(o1, a1, b1), K::Binary(o2, a2, b2)) => o1 == o2 && expr_eq(a1, a2) && expr_eq(b1, b2),
        (K::Select(c1, t1, f1), K::Select(c2, t2, f2)) => {
            expr_eq(c1, c2) && expr_eq(t1, t2) && expr_eq(f1, f2)
        }
        (
            K::Load { name: n1, index: i1, predicate: p1, alignment: a1 },
            K::Load { name: n2, index: i2, predicate: p2, alignment: a2 },
        ) => n1 == n2 && a1 == a2 && expr_eq(i1, i2) && expr_eq(p1, p2),
        (K::Ramp { base: b1, stride: s1, lanes: l1 }, K::Ramp { base: b2, stride: s2, lanes: l2 }) => {
            l1 == l2 && expr_eq(b1, b2) && expr_eq(s1, s2)
        }
        (K::Broadcast { value: v1, lanes: l1 }, K::Broadcast { value: v2, lanes: l2 }) => {
            l1 == l2 && expr_eq(v1, v2)
        }
        (
            K::Call { name: n1, args: a1, call_type: c1, value_index: v1 },
            K::Call { name: n2, args: a2, call_type: c2, value_index: v2 },
        ) => n1 == n2 && c1 == c2 && v1 == v2 && all_eq(a1, a2),
        (K::Let { name: n1, value: v1, body: b1 }, K::Let { name: n2, value: v2, body: b2 }) => {
            n1 == n2 && expr_eq(v1, v2) && expr_eq(b1, b2)
        }
        (K::Shuffle { vectors: v1, indices: i1 }, K::Shuffle { vectors: v2, indices: i2 }) => {
            i1 == i2 && all_eq(v1, v2)
        }
        (K::VectorReduce { op: o1, value: v1 }, K::VectorReduce { op: o2, value: v2 }) => {
            o1 == o2 && expr_eq(v1, v2)
        }
        _ => false,
    }
}

fn opt_eq(a: &Option<Expr>, b: &Option<Expr>) -> bool {
    match (a, b) {
        (Some(x), Some(y)) => expr_eq(x, y),
        (None, None) => true,
        _ => false,
    }
}

fn ranges_eq(a: &[Range], b: &[Range]) -> bool {
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
