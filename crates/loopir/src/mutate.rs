//! Rewriting IR while sharing what did not change.
//!
//! Implement [`Mutator`] and override the hooks you need; from an override, call
//! [`Mutator::super_expr`] or [`Mutator::super_stmt`] to rebuild the node from its
//! rewritten children (rustc's convention: `mutate_*` is the hook, `super_*` the walk;
//! never override a `super_*` method). A rebuilt node is returned only when some child
//! changed (by pointer identity); otherwise the original handle comes back, so unchanged
//! subtrees stay shared and `same_as` tells a caller nothing happened, as in Halide's
//! `IRMutator`. [`Mutator::enter_scope`] and [`Mutator::leave_scope`] bracket the body of
//! every node that binds a name, with the node's rewritten values (see
//! [`crate::binder`]).
//!
//! A rewrite that can fail implements [`TryMutator`] instead: the first error stops the
//! walk and comes back to the caller, after every scope entered has been left. The walk
//! itself is written once, for [`TryMutator`]; a [`Mutator`] runs it with an error type
//! that has no values, which costs nothing. Children are rewritten in the order
//! [`crate::visit`] documents, the reference's `IRMutator`'s.
//!
//! Nodes are rebuilt with the unchecked constructors: the walk only swaps children for
//! the mutator's results, and checking is the business of the code that made them.

use std::convert::Infallible;

use crate::binder::Binder;
use crate::expr::{Expr, ExprKind};
use crate::stack::with_stack;
use crate::stmt::{MinExtent, Stmt, StmtKind};

/// A rewrite of expressions and statements.
pub trait Mutator {
    /// Rewrites an expression; the default rewrites its children.
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        self.super_expr(e)
    }
    /// Rewrites a statement; the default rewrites its expressions and child statements.
    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        self.super_stmt(s)
    }
    /// Called before the body of a node that binds a name, with the node's rewritten
    /// values (see [`crate::binder`]).
    fn enter_scope(&mut self, _binder: &Binder<'_>) {}
    /// Called after the body of a node that binds a name.
    fn leave_scope(&mut self, _binder: &Binder<'_>) {}
    /// Rebuilds `e` from its rewritten children, or returns it if none changed. Call it
    /// from `mutate_expr`; do not override it.
    fn super_expr(&mut self, e: &Expr) -> Expr {
        infallible(try_walk_expr(&mut Infallibly(self), e))
    }
    /// Rebuilds `s` from its rewritten parts, or returns it if none changed. Call it from
    /// `mutate_stmt`; do not override it.
    fn super_stmt(&mut self, s: &Stmt) -> Stmt {
        infallible(try_walk_stmt(&mut Infallibly(self), s))
    }
}

/// A rewrite of expressions and statements that can fail: the first error ends the walk.
///
/// ```
/// use loopir::mutate::TryMutator;
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
///             _ => self.try_super_expr(e),
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
        self.try_super_expr(e)
    }
    /// Rewrites a statement; the default rewrites its expressions and child statements.
    fn try_mutate_stmt(&mut self, s: &Stmt) -> Result<Stmt, Self::Error> {
        self.try_super_stmt(s)
    }
    /// Called before the body of a node that binds a name, with the node's rewritten
    /// values; an error ends the walk (the scope is not left, as it was not entered).
    fn try_enter_scope(&mut self, _binder: &Binder<'_>) -> Result<(), Self::Error> {
        Ok(())
    }
    /// Called after the body of a node that binds a name, also when the body failed, so
    /// that state pushed on entry is popped.
    fn try_leave_scope(&mut self, _binder: &Binder<'_>) {}
    /// As [`Mutator::super_expr`], stopping at the first error.
    fn try_super_expr(&mut self, e: &Expr) -> Result<Expr, Self::Error> {
        try_walk_expr(self, e)
    }
    /// As [`Mutator::super_stmt`], stopping at the first error.
    fn try_super_stmt(&mut self, s: &Stmt) -> Result<Stmt, Self::Error> {
        try_walk_stmt(self, s)
    }
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
    fn try_enter_scope(&mut self, binder: &Binder<'_>) -> Result<(), Infallible> {
        self.0.enter_scope(binder);
        Ok(())
    }
    fn try_leave_scope(&mut self, binder: &Binder<'_>) {
        self.0.leave_scope(binder);
    }
}

/// The value of a result that cannot be an error.
fn infallible<T>(r: Result<T, Infallible>) -> T {
    match r {
        Ok(v) => v,
        Err(never) => match never {},
    }
}

/// A closure over the children of one node, as a mutator: how
/// [`Expr::try_map_children`] shares the walk.
struct EachChild<F>(F);

impl<E, F: FnMut(&Expr) -> Result<Expr, E>> TryMutator for EachChild<F> {
    type Error = E;
    fn try_mutate_expr(&mut self, e: &Expr) -> Result<Expr, E> {
        (self.0)(e)
    }
}

impl Expr {
    /// This node with each direct child replaced by `f(child)`, children taken in the
    /// walk order; the same handle if every child comes back the same. The primitive every
    /// rewrite of one node is made of (the mutator's walk is this, with the mutator as `f`).
    ///
    /// ```
    /// use loopir::{Expr, ExprKind};
    /// let e = loopir::parse_expr("min(x + 1, y)").unwrap();
    /// let one = Expr::i32(1);
    /// let bumped = e.map_children(|c| Expr::add(c.clone(), one.clone()).unwrap());
    /// assert_eq!(bumped.to_string(), "min((x + 1) + 1, y + 1)");
    /// assert!(e.map_children(|c| c.clone()).same_as(&e));
    /// ```
    pub fn map_children(&self, mut f: impl FnMut(&Expr) -> Expr) -> Expr {
        infallible(self.try_map_children(|c| Ok(f(c))))
    }

    /// This node with its direct children replaced by `new`, given in the order of
    /// [`Expr::children`] (a missing child is kept); the same handle if none changed.
    pub fn with_children(&self, new: impl IntoIterator<Item = Expr>) -> Expr {
        let mut new = new.into_iter();
        self.map_children(|old| new.next().unwrap_or_else(|| old.clone()))
    }

    /// As [`Expr::map_children`], stopping at the first error.
    pub fn try_map_children<E>(&self, f: impl FnMut(&Expr) -> Result<Expr, E>) -> Result<Expr, E> {
        try_walk_expr(&mut EachChild(f), self)
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
/// use loopir::mutate::{ExprMemo, Mutator};
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
///             _ => self.super_expr(e),
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

/// Rewrites each range of a list (its min, then its extent), stopping at the first
/// error; `None` if none changed.
pub fn try_mutate_ranges<M: TryMutator + ?Sized>(
    m: &mut M,
    rs: &[MinExtent],
) -> Result<Option<Vec<MinExtent>>, M::Error> {
    let mut any = false;
    let mut out = Vec::with_capacity(rs.len());
    for MinExtent { min, extent } in rs {
        let (new_min, new_extent) = (m.try_mutate_expr(min)?, m.try_mutate_expr(extent)?);
        any |= changed(min, &new_min) || changed(extent, &new_extent);
        out.push(MinExtent { min: new_min, extent: new_extent });
    }
    Ok(any.then_some(out))
}

/// Runs `body` inside the scope of `binder`: enters, runs, and leaves even if the body
/// failed.
fn scoped<M: TryMutator + ?Sized, T>(
    m: &mut M,
    binder: &Binder<'_>,
    body: impl FnOnce(&mut M) -> Result<T, M::Error>,
) -> Result<T, M::Error> {
    m.try_enter_scope(binder)?;
    let result = body(m);
    m.try_leave_scope(binder);
    result
}

fn try_walk_expr<M: TryMutator + ?Sized>(m: &mut M, e: &Expr) -> Result<Expr, M::Error> {
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
        ExprKind::Cast(value) => {
            let v = m.try_mutate_expr(value)?;
            if changed(value, &v) { rebuild(ExprKind::Cast(v)) } else { e.clone() }
        }
        ExprKind::Reinterpret(value) => {
            let v = m.try_mutate_expr(value)?;
            if changed(value, &v) { rebuild(ExprKind::Reinterpret(v)) } else { e.clone() }
        }
        ExprKind::Not(value) => {
            let v = m.try_mutate_expr(value)?;
            if changed(value, &v) { rebuild(ExprKind::Not(v)) } else { e.clone() }
        }
        ExprKind::Binary(op, a, b) => {
            let (na, nb) = (m.try_mutate_expr(a)?, m.try_mutate_expr(b)?);
            if changed(a, &na) || changed(b, &nb) {
                rebuild(ExprKind::Binary(*op, na, nb))
            } else {
                e.clone()
            }
        }
        ExprKind::Select(condition, t, f) => {
            let (nc, nt, nf) = (m.try_mutate_expr(condition)?, m.try_mutate_expr(t)?, m.try_mutate_expr(f)?);
            if changed(condition, &nc) || changed(t, &nt) || changed(f, &nf) {
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
            let v = m.try_mutate_expr(value)?;
            if changed(value, &v) {
                rebuild(ExprKind::Broadcast { value: v, lanes: *lanes })
            } else {
                e.clone()
            }
        }
        ExprKind::Call { name, args, call_type, value_index } => match try_mutate_exprs(m, args)? {
            Some(new_args) => rebuild(ExprKind::Call {
                name: name.clone(),
                args: new_args,
                call_type: *call_type,
                value_index: *value_index,
            }),
            None => e.clone(),
        },
        ExprKind::Let { name, value, body } => {
            let v = m.try_mutate_expr(value)?;
            let b = scoped(m, &Binder::Let { name, value: &v }, |m| m.try_mutate_expr(body))?;
            if changed(value, &v) || changed(body, &b) {
                // The body decides the type: a rewrite may change it.
                Expr::from_node_unchecked(b.ty(), ExprKind::Let { name: name.clone(), value: v, body: b })
            } else {
                e.clone()
            }
        }
        ExprKind::Shuffle { vectors, indices } => match try_mutate_exprs(m, vectors)? {
            Some(new_vectors) => {
                rebuild(ExprKind::Shuffle { vectors: new_vectors, indices: indices.clone() })
            }
            None => e.clone(),
        },
        ExprKind::VectorReduce { op, value } => {
            let v = m.try_mutate_expr(value)?;
            if changed(value, &v) { rebuild(ExprKind::VectorReduce { op: *op, value: v }) } else { e.clone() }
        }
    })
}

fn try_walk_stmt<M: TryMutator + ?Sized>(m: &mut M, s: &Stmt) -> Result<Stmt, M::Error> {
    with_stack(|| walk_stmt_inner(m, s))
}

fn walk_stmt_inner<M: TryMutator + ?Sized>(m: &mut M, s: &Stmt) -> Result<Stmt, M::Error> {
    let same = |a: &Stmt, b: &Stmt| a.same_as(b);
    let mk = Stmt::from_kind_unchecked;
    Ok(match s.kind() {
        StmtKind::LetStmt { name: _, value: _, body: _ } => walk_let_chain(m, s)?,
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
            let (new_min, new_max) = (m.try_mutate_expr(min)?, m.try_mutate_expr(max)?);
            let binder = Binder::For {
                name,
                min: &new_min,
                max: &new_max,
                for_type: *for_type,
                device_api: *device_api,
            };
            let b = scoped(m, &binder, |m| m.try_mutate_stmt(body))?;
            if !changed(min, &new_min) && !changed(max, &new_max) && same(body, &b) {
                s.clone()
            } else {
                mk(StmtKind::For {
                    name: name.clone(),
                    min: new_min,
                    max: new_max,
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
            let new_args = try_mutate_exprs(m, args)?;
            let new_values = try_mutate_exprs(m, values)?;
            let p = m.try_mutate_expr(predicate)?;
            if new_args.is_none() && new_values.is_none() && !changed(predicate, &p) {
                s.clone()
            } else {
                mk(StmtKind::Provide {
                    name: name.clone(),
                    values: new_values.unwrap_or_else(|| values.clone()),
                    args: new_args.unwrap_or_else(|| args.clone()),
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
            let new_extents = try_mutate_exprs(m, extents)?;
            let binder = Binder::Allocate {
                name,
                ty: *ty,
                memory_type: *memory_type,
                extents: new_extents.as_deref().unwrap_or(extents),
            };
            let b = scoped(m, &binder, |m| m.try_mutate_stmt(body))?;
            let c = m.try_mutate_expr(condition)?;
            let custom = new_expr.as_ref().map(|e| m.try_mutate_expr(e)).transpose()?;
            let custom_changed = match (new_expr, &custom) {
                (Some(a), Some(b)) => changed(a, b),
                _ => false,
            };
            if new_extents.is_none() && same(body, &b) && !changed(condition, &c) && !custom_changed {
                s.clone()
            } else {
                mk(StmtKind::Allocate {
                    name: name.clone(),
                    ty: *ty,
                    memory_type: *memory_type,
                    extents: new_extents.unwrap_or_else(|| extents.clone()),
                    condition: c,
                    new_expr: custom,
                    free_function: free_function.clone(),
                    padding: *padding,
                    body: b,
                })
            }
        }
        StmtKind::Free { name: _ } => s.clone(),
        StmtKind::Realize { name, types, memory_type, bounds, condition, body } => {
            let new_bounds = try_mutate_ranges(m, bounds)?;
            let binder = Binder::Realize {
                name,
                types,
                memory_type: *memory_type,
                bounds: new_bounds.as_deref().unwrap_or(bounds),
            };
            let b = scoped(m, &binder, |m| m.try_mutate_stmt(body))?;
            let c = m.try_mutate_expr(condition)?;
            if new_bounds.is_none() && same(body, &b) && !changed(condition, &c) {
                s.clone()
            } else {
                mk(StmtKind::Realize {
                    name: name.clone(),
                    types: types.clone(),
                    memory_type: *memory_type,
                    bounds: new_bounds.unwrap_or_else(|| bounds.clone()),
                    condition: c,
                    body: b,
                })
            }
        }
        StmtKind::Prefetch { name, types, bounds, prefetch, condition, body } => {
            let b = m.try_mutate_stmt(body)?;
            let c = m.try_mutate_expr(condition)?;
            let new_bounds = try_mutate_ranges(m, bounds)?;
            if same(body, &b) && !changed(condition, &c) && new_bounds.is_none() {
                s.clone()
            } else {
                mk(StmtKind::Prefetch {
                    name: name.clone(),
                    types: types.clone(),
                    bounds: new_bounds.unwrap_or_else(|| bounds.clone()),
                    prefetch: prefetch.clone(),
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
        StmtKind::Evaluate(value) => {
            let v = m.try_mutate_expr(value)?;
            if changed(value, &v) { mk(StmtKind::Evaluate(v)) } else { s.clone() }
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

/// A chain of directly nested LetStmts, walked in a loop so that its length costs no
/// stack: every value rewritten and its scope entered outermost first, the innermost body
/// rewritten, then the chain rebuilt innermost first, leaving each scope on the way.
fn walk_let_chain<M: TryMutator + ?Sized>(m: &mut M, s: &Stmt) -> Result<Stmt, M::Error> {
    // (the original link, its rewritten value)
    let mut links: Vec<(&Stmt, Expr)> = Vec::new();
    let mut cur = s;
    let mut failed = None;
    while let StmtKind::LetStmt { name, value, body } = cur.kind() {
        let entered = m.try_mutate_expr(value).and_then(|v| {
            m.try_enter_scope(&Binder::LetStmt { name, value: &v })?;
            Ok(v)
        });
        match entered {
            Ok(v) => links.push((cur, v)),
            Err(e) => {
                failed = Some(e);
                break;
            }
        }
        cur = body;
    }
    let body = match failed {
        Some(e) => Err(e),
        None => m.try_mutate_stmt(cur),
    };
    let mut body = match body {
        Ok(b) => b,
        Err(e) => {
            // Leave what was entered, innermost first, before giving up.
            for (link, v) in links.iter().rev() {
                if let StmtKind::LetStmt { name, value: _, body: _ } = link.kind() {
                    m.try_leave_scope(&Binder::LetStmt { name, value: v });
                }
            }
            return Err(e);
        }
    };
    let mut body_same = body.same_as(cur);
    while let Some((link, v)) = links.pop() {
        let StmtKind::LetStmt { name, value, body: _ } = link.kind() else { continue };
        m.try_leave_scope(&Binder::LetStmt { name, value: &v });
        if body_same && !changed(value, &v) {
            body = link.clone();
        } else {
            body = Stmt::from_kind_unchecked(StmtKind::LetStmt { name: name.clone(), value: v, body });
            body_same = false;
        }
    }
    Ok(body)
}
