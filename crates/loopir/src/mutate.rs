//! Rewriting IR while sharing what did not change.
//!
//! Implement [`Mutator`], override the hooks you need, and call the `walk_*` functions to
//! rebuild a node from its mutated children. A rebuilt node is returned only when some
//! child changed (by pointer identity); otherwise the original handle comes back, so
//! unchanged subtrees stay shared and `same_as` tells a caller nothing happened.
//!
//! Nodes are rebuilt with the unchecked constructors: the walk only swaps children for
//! the mutator's results, and checking is the business of the code that made them.

use crate::equality::with_stack;
use crate::expr::{Expr, ExprKind, Name};
use crate::stmt::{PrefetchDirective, Range, Stmt, StmtKind};

/// A rewrite of expressions and statements.
pub trait Mutator {
    /// Rewrites an expression; the default rewrites its children.
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        walk_expr(self, e)
    }
    /// Rewrites a statement; the default rewrites its expressions and child statements.
    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        walk_stmt(self, s)
    }
    /// Called by the default walk of a LetStmt chain with each binding's rewritten value,
    /// before its body is rewritten.
    fn enter_let_stmt(&mut self, _name: &Name, _value: &Expr) {}
    /// Called by the default walk of a LetStmt chain after the binding's body.
    fn leave_let_stmt(&mut self, _name: &Name) {}
}

/// The results of a rewrite per node, so that a node reached through several parents is
/// rewritten once (a walk of a DAG without one is exponential in its depth).
///
/// Only nodes that can be reached twice are recorded: leaves are cheaper to rewrite than
/// to look up, and a node with a single handle has a single parent, which is itself
/// rewritten once. On a parsed tree, where little is shared, the table stays nearly
/// empty. A recorded node is kept alive by the table, so its address cannot be reused by
/// another node while the table exists.
///
/// ```
/// use loopir::mutate::{ExprMemo, Mutator, walk_expr};
/// use loopir::{Expr, ExprKind};
///
/// /// Renames `x` to `y`, rewriting each shared node once.
/// struct Rename(ExprMemo);
/// impl Mutator for Rename {
///     fn mutate_expr(&mut self, e: &Expr) -> Expr {
///         if let Some(r) = self.0.lookup(e) {
///             return r;
///         }
///         let r = match e.kind() {
///             ExprKind::Variable(v) if v.as_ref() == "x" => Expr::var_i32("y"),
///             _ => walk_expr(self, e),
///         };
///         self.0.record(e, &r);
///         r
///     }
/// }
/// let x = Expr::var_i32("x");
/// let twice = Expr::add(x.clone(), x).unwrap();
/// let e = Expr::mul(twice.clone(), twice).unwrap();
/// let renamed = Rename(ExprMemo::default()).mutate_expr(&e);
/// assert_eq!(renamed.to_string(), "((y + y)*(y + y))");
/// // The shared operand was rewritten once, so the result shares it too.
/// let ExprKind::Binary(_, a, b) = renamed.kind() else { unreachable!() };
/// assert!(a.same_as(b));
/// ```
#[derive(Default)]
pub struct ExprMemo {
    /// Node address -> (the node, its rewrite).
    results: crate::address_map::AddressMap<*const crate::expr::ExprNode, (Expr, Expr)>,
}

impl ExprMemo {
    /// The recorded result for `e`, if `e` was rewritten before.
    pub fn lookup(&self, e: &Expr) -> Option<Expr> {
        if !e.is_shared() || e.is_leaf() {
            return None;
        }
        self.results.get(&e.as_ptr()).map(|(_, r)| r.clone())
    }
    /// Records `result` as the rewrite of `e`, if `e` can be reached again.
    pub fn record(&mut self, e: &Expr, result: &Expr) {
        // An unchanged node comes back as a second handle to itself, which is not a
        // second parent.
        let parents = e.handles() - usize::from(result.same_as(e));
        if parents > 1 && !e.is_leaf() {
            self.results.insert(e.as_ptr(), (e.clone(), result.clone()));
        }
    }
}

fn changed(old: &Expr, new: &Expr) -> bool {
    !old.same_as(new)
}

/// Rewrites each expression of a list; `None` if none changed.
pub fn mutate_exprs<M: Mutator + ?Sized>(m: &mut M, es: &[Expr]) -> Option<Vec<Expr>> {
    let mut out: Option<Vec<Expr>> = None;
    for (i, e) in es.iter().enumerate() {
        let n = m.mutate_expr(e);
        if let Some(v) = out.as_mut() {
            v.push(n);
        } else if changed(e, &n) {
            let mut v = Vec::with_capacity(es.len());
            v.extend(es[..i].iter().cloned());
            v.push(n);
            out = Some(v);
        }
    }
    out
}

/// Rebuilds `e` from its rewritten children, or returns it if none changed.
pub fn walk_expr<M: Mutator + ?Sized>(m: &mut M, e: &Expr) -> Expr {
    with_stack(|| walk_expr_inner(m, e))
}

fn walk_expr_inner<M: Mutator + ?Sized>(m: &mut M, e: &Expr) -> Expr {
    let ty = e.ty();
    let rebuild = |kind| Expr::from_node_unchecked(ty, kind);
    match e.kind() {
        ExprKind::IntImm(_)
        | ExprKind::UIntImm(_)
        | ExprKind::FloatImm(_)
        | ExprKind::StringImm(_)
        | ExprKind::Variable(_) => e.clone(),
        ExprKind::Cast(a) => {
            let na = m.mutate_expr(a);
            if changed(a, &na) { rebuild(ExprKind::Cast(na)) } else { e.clone() }
        }
        ExprKind::Reinterpret(a) => {
            let na = m.mutate_expr(a);
            if changed(a, &na) { rebuild(ExprKind::Reinterpret(na)) } else { e.clone() }
        }
        ExprKind::Not(a) => {
            let na = m.mutate_expr(a);
            if changed(a, &na) { rebuild(ExprKind::Not(na)) } else { e.clone() }
        }
        ExprKind::Binary(op, a, b) => {
            let (na, nb) = (m.mutate_expr(a), m.mutate_expr(b));
            if changed(a, &na) || changed(b, &nb) {
                rebuild(ExprKind::Binary(*op, na, nb))
            } else {
                e.clone()
            }
        }
        ExprKind::Select(c, t, f) => {
            let (nc, nt, nf) = (m.mutate_expr(c), m.mutate_expr(t), m.mutate_expr(f));
            if changed(c, &nc) || changed(t, &nt) || changed(f, &nf) {
                rebuild(ExprKind::Select(nc, nt, nf))
            } else {
                e.clone()
            }
        }
        ExprKind::Load { name, index, predicate, alignment } => {
            let (np, ni) = (m.mutate_expr(predicate), m.mutate_expr(index));
            if changed(index, &ni) || changed(predicate, &np) {
                rebuild(ExprKind::Load {
                    name: name.clone(),
                    index: ni,
                    predicate: np,
                    alignment: *alignment,
                })
            } else {
                e.clone()
            }
        }
        ExprKind::Ramp { base, stride, lanes } => {
            let (nb, ns) = (m.mutate_expr(base), m.mutate_expr(stride));
            if changed(base, &nb) || changed(stride, &ns) {
                rebuild(ExprKind::Ramp { base: nb, stride: ns, lanes: *lanes })
            } else {
                e.clone()
            }
        }
        ExprKind::Broadcast { value, lanes } => {
            let nv = m.mutate_expr(value);
            if changed(value, &nv) {
                rebuild(ExprKind::Broadcast { value: nv, lanes: *lanes })
            } else {
                e.clone()
            }
        }
        ExprKind::Call { name, args, call_type, value_index } => match mutate_exprs(m, args) {
            Some(nargs) => rebuild(ExprKind::Call {
                name: name.clone(),
                args: nargs,
                call_type: *call_type,
                value_index: *value_index,
            }),
            None => e.clone(),
        },
        ExprKind::Let { name, value, body } => {
            let (nv, nb) = (m.mutate_expr(value), m.mutate_expr(body));
            if changed(value, &nv) || changed(body, &nb) {
                Expr::from_node_unchecked(nb.ty(), ExprKind::Let { name: name.clone(), value: nv, body: nb })
            } else {
                e.clone()
            }
        }
        ExprKind::Shuffle { vectors, indices } => match mutate_exprs(m, vectors) {
            Some(nv) => rebuild(ExprKind::Shuffle { vectors: nv, indices: indices.clone() }),
            None => e.clone(),
        },
        ExprKind::VectorReduce { op, value } => {
            let nv = m.mutate_expr(value);
            if changed(value, &nv) {
                rebuild(ExprKind::VectorReduce { op: *op, value: nv })
            } else {
                e.clone()
            }
        }
    }
}

fn mutate_ranges<M: Mutator + ?Sized>(m: &mut M, rs: &[Range]) -> Option<Vec<Range>> {
    let mut any = false;
    let out: Vec<Range> = rs
        .iter()
        .map(|r| {
            let (mi, ex) = (m.mutate_expr(&r.min), m.mutate_expr(&r.extent));
            any |= changed(&r.min, &mi) || changed(&r.extent, &ex);
            Range { min: mi, extent: ex }
        })
        .collect();
    any.then_some(out)
}

/// Rebuilds `s` from its rewritten parts, or returns it if none changed.
pub fn walk_stmt<M: Mutator + ?Sized>(m: &mut M, s: &Stmt) -> Stmt {
    with_stack(|| walk_stmt_inner(m, s))
}

fn walk_stmt_inner<M: Mutator + ?Sized>(m: &mut M, s: &Stmt) -> Stmt {
    let same = |a: &Stmt, b: &Stmt| a.same_as(b);
    let mk = Stmt::from_kind_unchecked;
    match s.kind() {
        StmtKind::LetStmt { .. } => {
            // Walk the chain down, then rebuild it from the innermost binding up.
            let mut links: Vec<(Stmt, Expr)> = Vec::new();
            let mut cur = s.clone();
            while let StmtKind::LetStmt { name, value, body } = cur.kind() {
                let nv = m.mutate_expr(value);
                m.enter_let_stmt(name, &nv);
                links.push((cur.clone(), nv));
                let next = body.clone();
                cur = next;
            }
            let mut body = m.mutate_stmt(&cur);
            let mut body_same = same(&cur, &body);
            while let Some((orig, nv)) = links.pop() {
                let StmtKind::LetStmt { name, value, .. } = orig.kind() else { continue };
                m.leave_let_stmt(name);
                if body_same && !changed(value, &nv) {
                    body = orig.clone();
                } else {
                    body = mk(StmtKind::LetStmt { name: name.clone(), value: nv, body });
                    body_same = false;
                }
            }
            body
        }
        StmtKind::AssertStmt { condition, message } => {
            let (c, msg) = (m.mutate_expr(condition), m.mutate_expr(message));
            if changed(condition, &c) || changed(message, &msg) {
                mk(StmtKind::AssertStmt { condition: c, message: msg })
            } else {
                s.clone()
            }
        }
        StmtKind::ProducerConsumer { name, is_producer, body } => {
            let b = m.mutate_stmt(body);
            if same(body, &b) {
                s.clone()
            } else {
                mk(StmtKind::ProducerConsumer { name: name.clone(), is_producer: *is_producer, body: b })
            }
        }
        StmtKind::For { name, min, max, for_type, device_api, partition_policy, body } => {
            let (mi, ma) = (m.mutate_expr(min), m.mutate_expr(max));
            let b = m.mutate_stmt(body);
            if !changed(min, &mi) && !changed(max, &ma) && same(body, &b) {
                s.clone()
            } else {
                mk(StmtKind::For {
                    name: name.clone(),
                    min: mi,
                    max: ma,
                    for_type: *for_type,
                    device_api: *device_api,
                    partition_policy: *partition_policy,
                    body: b,
                })
            }
        }
        StmtKind::Store { name, value, index, predicate, alignment } => {
            let (p, v, i) = (m.mutate_expr(predicate), m.mutate_expr(value), m.mutate_expr(index));
            if changed(predicate, &p) || changed(value, &v) || changed(index, &i) {
                mk(StmtKind::Store {
                    name: name.clone(),
                    value: v,
                    index: i,
                    predicate: p,
                    alignment: *alignment,
                })
            } else {
                s.clone()
            }
        }
        StmtKind::Provide { name, values, args, predicate } => {
            let p = m.mutate_expr(predicate);
            let nv = mutate_exprs(m, values);
            let na = mutate_exprs(m, args);
            if !changed(predicate, &p) && nv.is_none() && na.is_none() {
                s.clone()
            } else {
                mk(StmtKind::Provide {
                    name: name.clone(),
                    values: nv.unwrap_or_else(|| values.clone()),
                    args: na.unwrap_or_else(|| args.clone()),
                    predicate: p,
                })
            }
        }
        StmtKind::Allocate {
            name,
            ty,
            memory_type,
            extents,
            condition,
            new_expr,
            free_function,
            padding,
            body,
        } => {
            let ne = mutate_exprs(m, extents);
            let c = m.mutate_expr(condition);
            let nn = new_expr.as_ref().map(|e| m.mutate_expr(e));
            let new_changed = match (new_expr, &nn) {
                (Some(a), Some(b)) => changed(a, b),
                _ => false,
            };
            let b = m.mutate_stmt(body);
            if ne.is_none() && !changed(condition, &c) && !new_changed && same(body, &b) {
                s.clone()
            } else {
                mk(StmtKind::Allocate {
                    name: name.clone(),
                    ty: *ty,
                    memory_type: *memory_type,
                    extents: ne.unwrap_or_else(|| extents.clone()),
                    condition: c,
                    new_expr: nn,
                    free_function: free_function.clone(),
                    padding: *padding,
                    body: b,
                })
            }
        }
        StmtKind::Free { .. } => s.clone(),
        StmtKind::Realize { name, types, memory_type, bounds, condition, body } => {
            let nb = mutate_ranges(m, bounds);
            let c = m.mutate_expr(condition);
            let b = m.mutate_stmt(body);
            if nb.is_none() && !changed(condition, &c) && same(body, &b) {
                s.clone()
            } else {
                mk(StmtKind::Realize {
                    name: name.clone(),
                    types: types.clone(),
                    memory_type: *memory_type,
                    bounds: nb.unwrap_or_else(|| bounds.clone()),
                    condition: c,
                    body: b,
                })
            }
        }
        StmtKind::Prefetch { name, types, bounds, prefetch, condition, body } => {
            let nb = mutate_ranges(m, bounds);
            let off = m.mutate_expr(&prefetch.offset);
            let c = m.mutate_expr(condition);
            let b = m.mutate_stmt(body);
            if nb.is_none() && !changed(&prefetch.offset, &off) && !changed(condition, &c) && same(body, &b) {
                s.clone()
            } else {
                mk(StmtKind::Prefetch {
                    name: name.clone(),
                    types: types.clone(),
                    bounds: nb.unwrap_or_else(|| bounds.clone()),
                    prefetch: PrefetchDirective { offset: off, ..prefetch.clone() },
                    condition: c,
                    body: b,
                })
            }
        }
        StmtKind::Block(stmts) => {
            let mut out: Option<Vec<Stmt>> = None;
            for (i, st) in stmts.iter().enumerate() {
                let n = m.mutate_stmt(st);
                if let Some(v) = out.as_mut() {
                    v.push(n);
                } else if !same(st, &n) {
                    let mut v = Vec::with_capacity(stmts.len());
                    v.extend(stmts[..i].iter().cloned());
                    v.push(n);
                    out = Some(v);
                }
            }
            match out {
                Some(v) => Stmt::block(v),
                None => s.clone(),
            }
        }
        StmtKind::Fork { first, rest } => {
            let (f, r) = (m.mutate_stmt(first), m.mutate_stmt(rest));
            if same(first, &f) && same(rest, &r) { s.clone() } else { Stmt::fork(f, r) }
        }
        StmtKind::Acquire { semaphore, count, body } => {
            let (se, c) = (m.mutate_expr(semaphore), m.mutate_expr(count));
            let b = m.mutate_stmt(body);
            if !changed(semaphore, &se) && !changed(count, &c) && same(body, &b) {
                s.clone()
            } else {
                mk(StmtKind::Acquire { semaphore: se, count: c, body: b })
            }
        }
        StmtKind::IfThenElse { condition, then_case, else_case } => {
            let c = m.mutate_expr(condition);
            let t = m.mutate_stmt(then_case);
            let e = else_case.as_ref().map(|e| m.mutate_stmt(e));
            let else_same = match (else_case, &e) {
                (Some(a), Some(b)) => same(a, b),
                _ => true,
            };
            if !changed(condition, &c) && same(then_case, &t) && else_same {
                s.clone()
            } else {
                mk(StmtKind::IfThenElse { condition: c, then_case: t, else_case: e })
            }
        }
        StmtKind::Evaluate(v) => {
            let nv = m.mutate_expr(v);
            if changed(v, &nv) { mk(StmtKind::Evaluate(nv)) } else { s.clone() }
        }
        StmtKind::Atomic { producer_name, mutex_name, body } => {
            let b = m.mutate_stmt(body);
            if same(body, &b) {
                s.clone()
            } else {
                mk(StmtKind::Atomic {
                    producer_name: producer_name.clone(),
                    mutex_name: mutex_name.clone(),
                    body: b,
                })
            }
        }
        StmtKind::HoistedStorage { name, body } => {
            let b = m.mutate_stmt(body);
            if same(body, &b) {
                s.clone()
            } else {
                mk(StmtKind::HoistedStorage { name: name.clone(), body: b })
            }
        }
    }
}
