//! Rewriting IR while sharing what did not change.
//!
//! Implement [`Mutator`], override the hooks you need, and call the `walk_*` functions to
//! rebuild a node from its mutated children. A rebuilt node is returned only when some
//! child changed (by pointer identity); otherwise the original handle comes back, so
//! unchanged subtrees stay shared and `same_as` tells a caller nothing happened.
//!
//! A rewrite that can fail implements [`TryMutator`] instead and walks with the `try_walk_*`
//! functions: the first error stops the walk and comes back to the caller. The walk itself
//! is written once, for [`TryMutator`]; a [`Mutator`] runs it with an error type that has
//! no values, which costs nothing.
//!
//! Nodes are rebuilt with the unchecked constructors: the walk only swaps children for
//! the mutator's results, and checking is the business of the code that made them.

use std::convert::Infallible;

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

/// A rewrite of expressions and statements that can fail: the first error ends the walk.
///
/// ```
/// use loopir::mutate::{TryMutator, try_walk_expr};
/// use loopir::{Expr, ExprKind};
///
/// /// Doubles every integer constant, refusing one that would overflow.
/// struct Double;
/// impl TryMutator for Double {
///     type Error = String;
///     fn try_mutate_expr(&mut self, e: &Expr) -> Result<Expr, String> {
///         match e.kind() {
///             ExprKind::IntImm(v) => {
///                 let doubled = v.checked_mul(2).and_then(|d| i32::try_from(d).ok());
///                 doubled.map(Expr::i32).ok_or_else(|| format!("{v} doubled overflows"))
///             }
///             _ => try_walk_expr(self, e),
///         }
///     }
/// }
/// let x = Expr::var_i32("x");
/// let ok = Expr::add(x.clone(), Expr::i32(3)).unwrap();
/// assert_eq!(Double.try_mutate_expr(&ok).unwrap().to_string(), "(x + 6)");
/// let big = Expr::add(x.clone(), Expr::i32(i32::MAX)).unwrap();
/// assert_eq!(Double.try_mutate_expr(&big).unwrap_err(), "2147483647 doubled overflows");
/// // Nothing to rewrite: the same node comes back.
/// assert!(Double.try_mutate_expr(&x).unwrap().same_as(&x));
/// ```
pub trait TryMutator {
    /// Why a rewrite stops.
    type Error;
    /// Rewrites an expression; the default rewrites its children.
    fn try_mutate_expr(&mut self, e: &Expr) -> Result<Expr, Self::Error> {
        try_walk_expr(self, e)
    }
    /// Rewrites a statement; the default rewrites its expressions and child statements.
    fn try_mutate_stmt(&mut self, s: &Stmt) -> Result<Stmt, Self::Error> {
        try_walk_stmt(self, s)
    }
    /// Called by the default walk of a LetStmt chain with each binding's rewritten value,
    /// before its body is rewritten.
    fn try_enter_let_stmt(&mut self, _name: &Name, _value: &Expr) -> Result<(), Self::Error> {
        Ok(())
    }
    /// Called by the default walk of a LetStmt chain after the binding's body (also when
    /// the body failed, so that state pushed on entry is popped).
    fn try_leave_let_stmt(&mut self, _name: &Name) {}
}

/// A [`Mutator`] seen as a [`TryMutator`] that never fails: how the infallible walks run
/// the one walk.
struct Infallibly<'m, M: ?Sized>(&'m mut M);

impl<M: Mutator + ?Sized> TryMutator for Infallibly<'_, M> {
    type Error = Infallible;
    fn try_mutate_expr(&mut self, e: &Expr) -> Result<Expr, Infallible> {
        Ok(self.0.mutate_expr(e))
    }
    fn try_mutate_stmt(&mut self, s: &Stmt) -> Result<Stmt, Infallible> {
        Ok(self.0.mutate_stmt(s))
    }
    fn try_enter_let_stmt(&mut self, name: &Name, value: &Expr) -> Result<(), Infallible> {
        self.0.enter_let_stmt(name, value);
        Ok(())
    }
    fn try_leave_let_stmt(&mut self, name: &Name) {
        self.0.leave_let_stmt(name);
    }
}

/// The value of a result that cannot be an error.
fn infallible<T>(r: Result<T, Infallible>) -> T {
    match r {
        Ok(v) => v,
        Err(never) => match never {},
    }
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
    infallible(try_mutate_exprs(&mut Infallibly(m), es))
}

/// As [`mutate_exprs`], stopping at the first error.
pub fn try_mutate_exprs<M: TryMutator + ?Sized>(
    m: &mut M,
    es: &[Expr],
) -> Result<Option<Vec<Expr>>, M::Error> {
    let mut out: Option<Vec<Expr>> = None;
    for (i, e) in es.iter().enumerate() {
        let n = m.try_mutate_expr(e)?;
        if let Some(v) = out.as_mut() {
            v.push(n);
        } else if changed(e, &n) {
            let mut v = Vec::with_capacity(es.len());
            v.extend(es[..i].iter().cloned());
            v.push(n);
            out = Some(v);
        }
    }
    Ok(out)
}

/// Rebuilds `e` from its rewritten children, or returns it if none changed.
pub fn walk_expr<M: Mutator + ?Sized>(m: &mut M, e: &Expr) -> Expr {
    infallible(try_walk_expr(&mut Infallibly(m), e))
}

/// As [`walk_expr`], stopping at the first error.
pub fn try_walk_expr<M: TryMutator + ?Sized>(m: &mut M, e: &Expr) -> Result<Expr, M::Error> {
    with_stack(|| walk_expr_inner(m, e))
}

fn walk_expr_inner<M: TryMutator + ?Sized>(m: &mut M, e: &Expr) -> Result<Expr, M::Error> {
    let ty = e.ty();
    let rebuild = |kind| Expr::from_node_unchecked(ty, kind);
    Ok(match e.kind() {
        ExprKind::IntImm(_)
        | ExprKind::UIntImm(_)
        | ExprKind::FloatImm(_)
        | ExprKind::StringImm(_)
        | ExprKind::Variable(_) => e.clone(),
        ExprKind::Cast(a) => {
            let na = m.try_mutate_expr(a)?;
            if changed(a, &na) { rebuild(ExprKind::Cast(na)) } else { e.clone() }
        }
        ExprKind::Reinterpret(a) => {
            let na = m.try_mutate_expr(a)?;
            if changed(a, &na) { rebuild(ExprKind::Reinterpret(na)) } else { e.clone() }
        }
        ExprKind::Not(a) => {
            let na = m.try_mutate_expr(a)?;
            if changed(a, &na) { rebuild(ExprKind::Not(na)) } else { e.clone() }
        }
        ExprKind::Binary(op, a, b) => {
            let (na, nb) = (m.try_mutate_expr(a)?, m.try_mutate_expr(b)?);
            if changed(a, &na) || changed(b, &nb) {
                rebuild(ExprKind::Binary(*op, na, nb))
            } else {
                e.clone()
            }
        }
        ExprKind::Select(c, t, f) => {
            let (nc, nt, nf) = (m.try_mutate_expr(c)?, m.try_mutate_expr(t)?, m.try_mutate_expr(f)?);
            if changed(c, &nc) || changed(t, &nt) || changed(f, &nf) {
                rebuild(ExprKind::Select(nc, nt, nf))
            } else {
                e.clone()
            }
        }
        ExprKind::Load { name, index, predicate, alignment } => {
            let (np, ni) = (m.try_mutate_expr(predicate)?, m.try_mutate_expr(index)?);
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
            let (nb, ns) = (m.try_mutate_expr(base)?, m.try_mutate_expr(stride)?);
            if changed(base, &nb) || changed(stride, &ns) {
                rebuild(ExprKind::Ramp { base: nb, stride: ns, lanes: *lanes })
            } else {
                e.clone()
            }
        }
        ExprKind::Broadcast { value, lanes } => {
            let nv = m.try_mutate_expr(value)?;
            if changed(value, &nv) {
                rebuild(ExprKind::Broadcast { value: nv, lanes: *lanes })
            } else {
                e.clone()
            }
        }
        ExprKind::Call { name, args, call_type, value_index } => match try_mutate_exprs(m, args)? {
            Some(nargs) => rebuild(ExprKind::Call {
                name: name.clone(),
                args: nargs,
                call_type: *call_type,
                value_index: *value_index,
            }),
            None => e.clone(),
        },
        ExprKind::Let { name, value, body } => {
            let (nv, nb) = (m.try_mutate_expr(value)?, m.try_mutate_expr(body)?);
            if changed(value, &nv) || changed(body, &nb) {
                Expr::from_node_unchecked(nb.ty(), ExprKind::Let { name: name.clone(), value: nv, body: nb })
            } else {
                e.clone()
            }
        }
        ExprKind::Shuffle { vectors, indices } => match try_mutate_exprs(m, vectors)? {
            Some(nv) => rebuild(ExprKind::Shuffle { vectors: nv, indices: indices.clone() }),
            None => e.clone(),
        },
        ExprKind::VectorReduce { op, value } => {
            let nv = m.try_mutate_expr(value)?;
            if changed(value, &nv) {
                rebuild(ExprKind::VectorReduce { op: *op, value: nv })
            } else {
                e.clone()
            }
        }
    })
}

/// Rewrites each range of a list (its min, then its extent), stopping at the first
/// error; `None` if none changed.
pub fn try_mutate_ranges<M: TryMutator + ?Sized>(
    m: &mut M,
    rs: &[Range],
) -> Result<Option<Vec<Range>>, M::Error> {
    let mut any = false;
    let mut out = Vec::with_capacity(rs.len());
    for r in rs {
        let (mi, ex) = (m.try_mutate_expr(&r.min)?, m.try_mutate_expr(&r.extent)?);
        any |= changed(&r.min, &mi) || changed(&r.extent, &ex);
        out.push(Range { min: mi, extent: ex });
    }
    Ok(any.then_some(out))
}

/// Rebuilds `s` from its rewritten parts, or returns it if none changed.
pub fn walk_stmt<M: Mutator + ?Sized>(m: &mut M, s: &Stmt) -> Stmt {
    infallible(try_walk_stmt(&mut Infallibly(m), s))
}

/// As [`walk_stmt`], stopping at the first error.
pub fn try_walk_stmt<M: TryMutator + ?Sized>(m: &mut M, s: &Stmt) -> Result<Stmt, M::Error> {
    with_stack(|| walk_stmt_inner(m, s))
}

fn walk_stmt_inner<M: TryMutator + ?Sized>(m: &mut M, s: &Stmt) -> Result<Stmt, M::Error> {
    let same = |a: &Stmt, b: &Stmt| a.same_as(b);
    let mk = Stmt::from_kind_unchecked;
    Ok(match s.kind() {
        StmtKind::LetStmt { .. } => {
            // Walk the chain down, then rebuild it from the innermost binding up.
            let mut links: Vec<(Stmt, Expr)> = Vec::new();
            let mut cur = s.clone();
            let mut failed = None;
            while let StmtKind::LetStmt { name, value, body } = cur.kind() {
                let entered =
                    m.try_mutate_expr(value).and_then(|nv| m.try_enter_let_stmt(name, &nv).map(|()| nv));
                match entered {
                    Ok(nv) => links.push((cur.clone(), nv)),
                    Err(e) => {
                        failed = Some(e);
                        break;
                    }
                }
                let next = body.clone();
                cur = next;
            }
            let body = match failed {
                Some(e) => Err(e),
                None => m.try_mutate_stmt(&cur),
            };
            let mut body = match body {
                Ok(b) => b,
                Err(e) => {
                    // Leave what was entered, innermost first, before giving up.
                    for (orig, _) in links.iter().rev() {
                        if let StmtKind::LetStmt { name, .. } = orig.kind() {
                            m.try_leave_let_stmt(name);
                        }
                    }
                    return Err(e);
                }
            };
            let mut body_same = same(&cur, &body);
            while let Some((orig, nv)) = links.pop() {
                let StmtKind::LetStmt { name, value, .. } = orig.kind() else { continue };
                m.try_leave_let_stmt(name);
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
            let (c, msg) = (m.try_mutate_expr(condition)?, m.try_mutate_expr(message)?);
            if changed(condition, &c) || changed(message, &msg) {
                mk(StmtKind::AssertStmt { condition: c, message: msg })
            } else {
                s.clone()
            }
        }
        StmtKind::ProducerConsumer { name, is_producer, body } => {
            let b = m.try_mutate_stmt(body)?;
            if same(body, &b) {
                s.clone()
            } else {
                mk(StmtKind::ProducerConsumer { name: name.clone(), is_producer: *is_producer, body: b })
            }
        }
        StmtKind::For { name, min, max, for_type, device_api, partition_policy, body } => {
            let (mi, ma) = (m.try_mutate_expr(min)?, m.try_mutate_expr(max)?);
            let b = m.try_mutate_stmt(body)?;
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
            let (p, v, i) =
                (m.try_mutate_expr(predicate)?, m.try_mutate_expr(value)?, m.try_mutate_expr(index)?);
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
            let p = m.try_mutate_expr(predicate)?;
            let nv = try_mutate_exprs(m, values)?;
            let na = try_mutate_exprs(m, args)?;
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
            let ne = try_mutate_exprs(m, extents)?;
            let c = m.try_mutate_expr(condition)?;
            let nn = new_expr.as_ref().map(|e| m.try_mutate_expr(e)).transpose()?;
            let new_changed = match (new_expr, &nn) {
                (Some(a), Some(b)) => changed(a, b),
                _ => false,
            };
            let b = m.try_mutate_stmt(body)?;
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
            let nb = try_mutate_ranges(m, bounds)?;
            let c = m.try_mutate_expr(condition)?;
            let b = m.try_mutate_stmt(body)?;
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
            let nb = try_mutate_ranges(m, bounds)?;
            let off = m.try_mutate_expr(&prefetch.offset)?;
            let c = m.try_mutate_expr(condition)?;
            let b = m.try_mutate_stmt(body)?;
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
                let n = m.try_mutate_stmt(st)?;
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
            let (f, r) = (m.try_mutate_stmt(first)?, m.try_mutate_stmt(rest)?);
            if same(first, &f) && same(rest, &r) { s.clone() } else { Stmt::fork(f, r) }
        }
        StmtKind::Acquire { semaphore, count, body } => {
            let (se, c) = (m.try_mutate_expr(semaphore)?, m.try_mutate_expr(count)?);
            let b = m.try_mutate_stmt(body)?;
            if !changed(semaphore, &se) && !changed(count, &c) && same(body, &b) {
                s.clone()
            } else {
                mk(StmtKind::Acquire { semaphore: se, count: c, body: b })
            }
        }
        StmtKind::IfThenElse { condition, then_case, else_case } => {
            let c = m.try_mutate_expr(condition)?;
            let t = m.try_mutate_stmt(then_case)?;
            let e = else_case.as_ref().map(|e| m.try_mutate_stmt(e)).transpose()?;
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
            let nv = m.try_mutate_expr(v)?;
            if changed(v, &nv) { mk(StmtKind::Evaluate(nv)) } else { s.clone() }
        }
        StmtKind::Atomic { producer_name, mutex_name, body } => {
            let b = m.try_mutate_stmt(body)?;
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
            let b = m.try_mutate_stmt(body)?;
            if same(body, &b) {
                s.clone()
            } else {
                mk(StmtKind::HoistedStorage { name: name.clone(), body: b })
            }
        }
    })
}
