//! `boxes_required`, `boxes_provided`, `boxes_touched`: the regions of every Func and
//! image that an expression or statement reads, writes, or both (`docs/reference/bounds.md` §1.7).
//!
//! # What is collected
//!
//! * **required**: every call to a Func (`CallType::Halide`) or an image
//!   (`CallType::Image`), keyed by callee name, plus `declare_box_touched(buf, lo0, hi0,
//!   ...)` annotations;
//! * **provided**: every `Provide`, keyed by Func name, plus `declare_box_touched`;
//! * **touched**: both (the provides map merged into the calls map).
//!
//! `Load`/`Store` nodes are not collected (the queries run before storage flattening).
//! The box of one access is the interval of each index in the scope current at that
//! access: loop variables, let variables and the caller's scope vary and are eliminated;
//! every other variable is a symbol and may appear in the result.
//!
//! # How the walk treats statements
//!
//! * `for (v, min, max)` binds `v` to `[lower end of bounds(min), upper end of
//!   bounds(max)]`.
//! * Lets (expression and statement) are walked iteratively. A let's value is analysed
//!   once; a small interval (fewer than 10 variable references per end) is bound
//!   directly, a larger one through two fresh names whose definitions are wrapped, as
//!   lets, around each box end that mentions them once the body is done.
//! * `if (c)` where `c` mentions varying variables: each conjunct of the form
//!   `v < r`, `v <= r`, `v == r`, `r < v`, `r <= v` (after simplification) tightens `v`
//!   inside the branch (and the negated condition inside the else branch), and let
//!   variables that depend on a tightened variable are re-derived. Conjunctions are split
//!   (an allowed improvement over Halide). With `compat_conditions`, Halide's rule
//!   instead: no splitting, and every dependent LetStmt is rebound to two fresh names
//!   defined around the box ends on the way out (so `t` numbering and text match).
//! * `if (c)` over symbols only: the branches are collected separately, each box gets
//!   `used := used && c` (resp. `!c`) unless the other branch is unreachable
//!   (`assert(false)`), and the two are merged.
//! * A `Provide` with a predicate is treated as `if (predicate) provide`.
//! * `if_then_else(c, t, f)` calls are treated like the statement `if (c) t else f`.
//!
//! # Soundness and cost
//!
//! Shared nodes are revisited exactly when a variable they mention has been rebound (the
//! memo key is the node's identity plus the binding identities of its free variables),
//! unlike Halide's identity-only deduplication. An end whose constant folding meets a
//! signed-integer overflow is widened to infinity (or, with `compat_purify` in
//! `boxes_touched`, the overflow is replaced by zero as Halide does). Every index is
//! analysed with one shared, memoised [`BoundsOfExpr`], so the walk costs O(|S|) plus the
//! interval rules of new nodes.

use indexmap::IndexMap;
use loopir::address_map::{AddressMap, AddressSet};
use loopir::constant;
use loopir::make;
use loopir::stack::with_stack;
use loopir::{BinOp, CallType, Expr, ExprKind, ExprNode, Intrinsic, Name, Stmt, StmtKind};
use loopir_simplify::likely;
use loopir_simplify::overflow;

use loopir_simplify::solve::{solve_expression, solve_if_then_else};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::bounds_of_expr::{BoundsOfExpr, FuncValueBounds};
use crate::boxes::{Region, merge_boxes};
use crate::error::BoundsError;
use crate::relevance::Relevance;
use loopir_simplify::ctx::Ctx;
use loopir_simplify::interval::{Bound, Interval, make_max, make_min};
use loopir_simplify::scope::{Scope, Token};
use loopir_simplify::simplify::Simplifier;

/// Regions keyed by Func or buffer name, in order of first access.
pub type BoxMap = IndexMap<Name, Region>;

/// An expression or a statement to analyse.
#[derive(Clone, Copy)]
pub enum Node<'a> {
    /// An expression.
    Expr(&'a Expr),
    /// A statement.
    Stmt(&'a Stmt),
}

impl<'a> From<&'a Expr> for Node<'a> {
    fn from(e: &'a Expr) -> Self {
        Node::Expr(e)
    }
}

impl<'a> From<&'a Stmt> for Node<'a> {
    fn from(s: &'a Stmt) -> Self {
        Node::Stmt(s)
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    Calls,
    Provides,
}

/// Every region read by `node` (calls to Funcs and images).
pub fn boxes_required<'a>(
    ctx: &Ctx,
    node: impl Into<Node<'a>>,
    scope: &Scope<'_, Interval>,
    func_bounds: &FuncValueBounds,
) -> Result<BoxMap, BoundsError> {
    Ok(finish(ctx, walk(ctx, node.into(), scope, func_bounds, Mode::Calls, None)?, false))
}

/// Every region written by `node` (Provides).
pub fn boxes_provided<'a>(
    ctx: &Ctx,
    node: impl Into<Node<'a>>,
    scope: &Scope<'_, Interval>,
    func_bounds: &FuncValueBounds,
) -> Result<BoxMap, BoundsError> {
    Ok(finish(ctx, walk(ctx, node.into(), scope, func_bounds, Mode::Provides, None)?, false))
}

/// Every region read or written by `node`: the provided boxes merged into the required
/// ones. With `compat_purify` set in the context's options, overflow markers are replaced
/// by zero as Halide does instead of widening the affected ends. With `compat_conditions`,
/// every `if` condition of a statement is first solved for its innermost variable
/// (Halide's `SolveIfThenElse`, see [`loopir_simplify::solve::solve_if_then_else`]).
pub fn boxes_touched<'a>(
    ctx: &Ctx,
    node: impl Into<Node<'a>>,
    scope: &Scope<'_, Interval>,
    func_bounds: &FuncValueBounds,
) -> Result<BoxMap, BoundsError> {
    touched(ctx, node.into(), scope, func_bounds, None)
}

fn touched(
    ctx: &Ctx,
    node: Node<'_>,
    scope: &Scope<'_, Interval>,
    func_bounds: &FuncValueBounds,
    only: Option<&str>,
) -> Result<BoxMap, BoundsError> {
    let solved;
    let node = match node {
        Node::Stmt(s) if ctx.options().compat_conditions => {
            solved = solve_if_then_else(ctx, s);
            Node::Stmt(&solved)
        }
        other => other,
    };
    let mut calls = walk(ctx, node, scope, func_bounds, Mode::Calls, only)?;
    let provides = walk(ctx, node, scope, func_bounds, Mode::Provides, only)?;
    for (name, b) in provides {
        match calls.get_mut(&name) {
            Some(existing) => merge_boxes(ctx, existing, &b).map_err(|e| dims_error(&name, e))?,
            None => {
                calls.insert(name, b);
            }
        }
    }
    Ok(finish(ctx, calls, ctx.options().compat_purify))
}

/// The region of `func` read by `node`, if any. A statement is first cut down to what
/// concerns `func`, as the reference cuts it (see the `relevance` module): the regions are
/// the same, and the walk draws the fresh names the reference's draws.
pub fn box_required<'a>(
    ctx: &Ctx,
    node: impl Into<Node<'a>>,
    func: &str,
    scope: &Scope<'_, Interval>,
    func_bounds: &FuncValueBounds,
) -> Result<Option<Region>, BoundsError> {
    single(ctx, node.into(), func, scope, func_bounds, Some(Mode::Calls), None)
}

/// The region of `func` written by `node`, if any (cut as for [`box_required`]).
pub fn box_provided<'a>(
    ctx: &Ctx,
    node: impl Into<Node<'a>>,
    func: &str,
    scope: &Scope<'_, Interval>,
    func_bounds: &FuncValueBounds,
) -> Result<Option<Region>, BoundsError> {
    single(ctx, node.into(), func, scope, func_bounds, Some(Mode::Provides), None)
}

/// The region of `func` read or written by `node`, if any (cut as for [`box_required`]).
pub fn box_touched<'a>(
    ctx: &Ctx,
    node: impl Into<Node<'a>>,
    func: &str,
    scope: &Scope<'_, Interval>,
    func_bounds: &FuncValueBounds,
) -> Result<Option<Region>, BoundsError> {
    single(ctx, node.into(), func, scope, func_bounds, None, None)
}

/// [`box_provided`] of a statement, cut with a pass's relevance index.
pub(crate) fn box_provided_in(
    ctx: &Ctx,
    relevance: &mut Relevance,
    s: &Stmt,
    func: &str,
    func_bounds: &FuncValueBounds,
) -> Result<Option<Region>, BoundsError> {
    single(ctx, Node::Stmt(s), func, &Scope::new(), func_bounds, Some(Mode::Provides), Some(relevance))
}

/// [`box_touched`] of a statement, cut with a pass's relevance index.
pub(crate) fn box_touched_in(
    ctx: &Ctx,
    relevance: &mut Relevance,
    s: &Stmt,
    func: &str,
    func_bounds: &FuncValueBounds,
) -> Result<Option<Region>, BoundsError> {
    single(ctx, Node::Stmt(s), func, &Scope::new(), func_bounds, None, Some(relevance))
}

/// The region of `func` in `node` cut down to what concerns `func`: read or written as
/// `mode` says (`None`: both, merged).
fn single(
    ctx: &Ctx,
    node: Node<'_>,
    func: &str,
    scope: &Scope<'_, Interval>,
    func_bounds: &FuncValueBounds,
    mode: Option<Mode>,
    relevance: Option<&mut Relevance>,
) -> Result<Option<Region>, BoundsError> {
    let relevant;
    let node = match node {
        Node::Stmt(s) => {
            relevant = match relevance {
                Some(r) => r.cut(s, func),
                None => crate::relevance::cut(s, func),
            };
            Node::Stmt(&relevant)
        }
        expr => expr,
    };
    let mut map = match mode {
        Some(mode) => finish(ctx, walk(ctx, node, scope, func_bounds, mode, Some(func))?, false),
        None => touched(ctx, node, scope, func_bounds, Some(func))?,
    };
    Ok(map.swap_remove(func))
}

fn dims_error(func: &Name, e: BoundsError) -> BoundsError {
    match e {
        BoundsError::BoxDimensions { a, b } => BoundsError::DimensionMismatch { func: func.clone(), a, b },
        other => other,
    }
}

/// Widens (or, in compat mode, zeroes) ends that fold to an overflow marker.
fn finish(ctx: &Ctx, map: BoxMap, purify: bool) -> BoxMap {
    let mut simp = Simplifier::without_bounds(ctx);
    map.into_iter()
        .map(|(name, r)| {
            let bounds = r
                .bounds
                .iter()
                .map(|i| {
                    let fix = |b: &Bound, inf: Bound, s: &mut Simplifier<'_, '_, '_>| match b {
                        // Constant folding finds the overflows (as for the ends of a
                        // single expression); a full simplification of every end cost
                        // 1.5M instructions per let on a 512-long named let chain (B2b).
                        Bound::Finite(e) if !crate::bounds_of_expr::folds_to_overflow(s, e) => b.clone(),
                        Bound::Finite(e) if purify => {
                            Bound::Finite(overflow::purify_index_math(&s.simplify(e)))
                        }
                        Bound::Finite(_) => inf,
                        other => other.clone(),
                    };
                    Interval {
                        min: fix(&i.min, Bound::NegInf, &mut simp),
                        max: fix(&i.max, Bound::PosInf, &mut simp),
                    }
                })
                .collect();
            (name, Region { bounds, used: r.used })
        })
        .collect()
}

fn walk(
    ctx: &Ctx,
    node: Node<'_>,
    scope: &Scope<'_, Interval>,
    func_bounds: &FuncValueBounds,
    mode: Mode,
    only: Option<&str>,
) -> Result<BoxMap, BoundsError> {
    let _hashes = ctx.hash_scope();
    let mut w = Walker {
        ctx,
        bounds: BoundsOfExpr::new(ctx, scope, func_bounds, false),
        mode,
        only: only.map(loopir::name),
        boxes: BoxMap::new(),
        unreachable: false,
        collect_calls: true,
        visited: Default::default(),
        context: 0,
        next_context: 1,
        lets: Vec::new(),
        simp: Simplifier::without_bounds(ctx),
    };
    match node {
        Node::Expr(e) => w.expr(e)?,
        Node::Stmt(s) => w.stmt(s)?,
    }
    Ok(w.boxes)
}

/// A let variable currently bound by the walker: its value (for re-deriving it when a
/// variable it depends on is tightened).
struct LetInfo {
    name: Name,
    value: Expr,
    /// A LetStmt (Halide tracks dependencies between LetStmts only).
    is_stmt: bool,
}

/// A let rebound to fresh names while a condition restricts a variable it depends on
/// (Halide-compatible condition handling).
struct LetBound {
    /// Index into the walker's `lets`.
    let_index: usize,
    min_name: Name,
    max_name: Name,
}

/// Fresh names standing for a large let interval, with the ends they stand for.
struct Wrapper {
    min: Option<(Name, Expr)>,
    max: Option<(Name, Expr)>,
}

struct Walker<'c, 'p> {
    ctx: &'c Ctx,
    bounds: BoundsOfExpr<'c, 'p>,
    mode: Mode,
    /// The one Func whose boxes are wanted (None: all). As in the reference, the
    /// accesses of other Funcs are not analysed: that saves their work, and their
    /// analysis would draw fresh names the reference does not draw.
    only: Option<Name>,
    boxes: BoxMap,
    unreachable: bool,
    collect_calls: bool,
    /// (node, binding ids of its free variables, context) already walked.
    visited: AddressSet<(usize, u64, u64)>,
    /// Identifies the map being filled; a node visited for another map is revisited.
    context: u64,
    next_context: u64,
    lets: Vec<LetInfo>,
    simp: Simplifier<'c, 'static, 'static>,
}

/// Counts variable references in `e` as Halide does, once per occurrence in the tree
/// (a shared sub-expression counts at every use), saturating at `limit`. Memoised per
/// node, so the cost is O(DAG size) however much the tree repeats itself.
fn var_refs(e: &Expr, limit: usize) -> usize {
    fn go(e: &Expr, limit: usize, memo: &mut AddressMap<*const ExprNode, usize>) -> usize {
        if e.as_variable().is_some() {
            return 1;
        }
        // Only a node with another handle can be reached again.
        let key = e.is_shared().then_some(e.as_ptr());
        if let Some(n) = key.and_then(|k| memo.get(&k)) {
            return *n;
        }
        let mut n = 0;
        for c in e.children() {
            n = (n + with_stack(|| go(c, limit, memo))).min(limit);
            if n >= limit {
                break;
            }
        }
        if let Some(k) = key {
            memo.insert(k, n);
        }
        n
    }
    go(e, limit, &mut AddressMap::default())
}

impl Walker<'_, '_> {
    fn merge(&mut self, name: &Name, b: Region) -> Result<(), BoundsError> {
        match self.boxes.get_mut(name) {
            Some(existing) => merge_boxes(self.ctx, existing, &b).map_err(|e| dims_error(name, e)),
            None => {
                self.boxes.insert(name.clone(), b);
                Ok(())
            }
        }
    }

    fn region_of(&mut self, args: &[Expr]) -> Region {
        Region::new(args.iter().map(|a| self.bounds.bounds(a)).collect())
    }

    /// Whether `e` was already walked with the same bindings for the same map.
    fn seen(&mut self, e: &Expr) -> bool {
        if e.is_leaf() {
            return false;
        }
        let (ptr, newest) = self.bounds.memo_key(e);
        !self.visited.insert((ptr, newest, self.context))
    }

    fn expr(&mut self, e: &Expr) -> Result<(), BoundsError> {
        if self.seen(e) {
            return Ok(());
        }
        with_stack(|| self.expr_inner(e))
    }

    fn expr_inner(&mut self, e: &Expr) -> Result<(), BoundsError> {
        match e.kind() {
            ExprKind::Call { name, args, call_type, .. } => {
                if let Some((intrinsic, args)) = e.as_intrinsic() {
                    match (intrinsic, args) {
                        (Intrinsic::IfThenElse, [c, t, rest @ ..]) => {
                            self.expr(c)?;
                            let t = t.clone();
                            let f = rest.first().cloned();
                            let identical = f.as_ref().is_some_and(|f| f.same_as(&t));
                            return self.conditional(
                                c,
                                identical,
                                &mut |w| w.expr(&t),
                                f.map(|f| move |w: &mut Self| w.expr(&f)),
                            );
                        }
                        (Intrinsic::DeclareBoxTouched, [buf, rest @ ..]) => {
                            for a in args {
                                self.expr(a)?;
                            }
                            return self.declared(buf, rest);
                        }
                        _ => {}
                    }
                }
                for a in args {
                    self.expr(a)?;
                }
                if self.mode == Mode::Calls
                    && self.collect_calls
                    && matches!(call_type, CallType::Halide | CallType::Image)
                    && self.wants(name)
                {
                    let r = self.region_of(args);
                    self.merge(name, r)?;
                }
                Ok(())
            }
            ExprKind::Let { .. } => {
                // Walk the chain iteratively: bind each value, then the body.
                let mut cur = e.clone();
                let mut frames = Vec::new();
                while let ExprKind::Let { name, value, body } = cur.kind() {
                    self.expr(value)?;
                    frames.push(self.bind_let(name, value, IS_LET_EXPR));
                    let next = body.clone();
                    cur = next;
                }
                let r = self.expr(&cur);
                for f in frames.into_iter().rev() {
                    self.unbind_let(f);
                }
                r
            }
            _ => {
                for c in e.children() {
                    self.expr(c)?;
                }
                Ok(())
            }
        }
    }

    /// `declare_box_touched(buf, lo0, hi0, lo1, hi1, ...)`.
    fn declared(&mut self, buf: &Expr, rest: &[Expr]) -> Result<(), BoundsError> {
        let Some(bn) = buf.as_variable() else { return Ok(()) };
        let name = loopir::name(bn.strip_suffix(".buffer").unwrap_or(bn));
        let mut bounds = Vec::with_capacity(rest.len() / 2);
        for pair in rest.chunks(2) {
            let [lo, hi] = pair else { break };
            let (a, b) = (self.bounds.bounds(lo), self.bounds.bounds(hi));
            bounds.push(Interval { min: a.min, max: b.max });
        }
        self.merge(&name, Region::new(bounds))
    }

    fn stmt(&mut self, s: &Stmt) -> Result<(), BoundsError> {
        self.ctx.count(|st| st.box_walk_visits += 1);
        with_stack(|| self.stmt_inner(s))
    }

    fn stmt_inner(&mut self, s: &Stmt) -> Result<(), BoundsError> {
        match s.kind() {
            StmtKind::LetStmt { .. } => {
                let mut cur = s.clone();
                let mut frames = Vec::new();
                while let StmtKind::LetStmt { name, value, body } = cur.kind() {
                    self.ctx.count(|st| st.box_walk_visits += 1);
                    self.expr(value)?;
                    frames.push(self.bind_let(name, value, IS_LET_STMT));
                    let next = body.clone();
                    cur = next;
                }
                let r = self.stmt(&cur);
                for f in frames.into_iter().rev() {
                    self.unbind_let(f);
                }
                r
            }
            StmtKind::For { name, min, max, body, .. } => {
                self.expr(min)?;
                self.expr(max)?;
                let lo = self.bounds.bounds(min).min;
                let hi = self.bounds.bounds(max).max;
                let t = self.bounds.push(name.clone(), Interval { min: lo, max: hi });
                let r = self.stmt(body);
                self.bounds.pop(t);
                r
            }
            StmtKind::Provide { name, values, args, predicate } => {
                // The reference does not look at another Func's Provide for its provides.
                if self.mode == Mode::Provides && !self.wants(name) {
                    return Ok(());
                }
                if !constant::is_const_true(predicate) {
                    if self.mode == Mode::Calls && self.ctx.options().compat_conditions {
                        // The reference walks a predicated Provide's provides as
                        // `if (predicate) provide`, and its calls (arguments and values)
                        // outside that `if`: the predicate neither tightens them nor is
                        // itself searched for calls.
                        return self.provide(name, values, args);
                    }
                    self.expr(predicate)?;
                    let (name, values, args) = (name.clone(), values.clone(), args.clone());
                    let saved = self.collect_calls;
                    if self.mode == Mode::Provides {
                        self.collect_calls = false;
                    }
                    let r = self.conditional(
                        predicate,
                        false,
                        &mut |w| w.provide(&name, &values, &args),
                        None::<fn(&mut Self) -> _>,
                    );
                    self.collect_calls = saved;
                    return r;
                }
                self.provide(name, values, args)
            }
            StmtKind::IfThenElse { condition, then_case, else_case } => {
                self.expr(condition)?;
                let t = then_case.clone();
                let f = else_case.clone();
                let identical = f.as_ref().is_some_and(|f| f.same_as(&t));
                self.conditional(
                    condition,
                    identical,
                    &mut |w| w.stmt(&t),
                    f.map(|f| move |w: &mut Self| w.stmt(&f)),
                )
            }
            StmtKind::AssertStmt { condition, message } => {
                self.expr(condition)?;
                self.expr(message)?;
                if constant::is_const_false(condition) {
                    self.unreachable = true;
                }
                Ok(())
            }
            StmtKind::Block(stmts) => {
                for st in stmts {
                    self.stmt(st)?;
                }
                Ok(())
            }
            StmtKind::ProducerConsumer { body, .. }
            | StmtKind::Atomic { body, .. }
            | StmtKind::HoistedStorage { body, .. } => self.stmt(body),
            StmtKind::Store { value, index, predicate, .. } => {
                self.expr(predicate)?;
                self.expr(value)?;
                self.expr(index)
            }
            StmtKind::Allocate { extents, condition, new_expr, body, .. } => {
                for e in extents {
                    self.expr(e)?;
                }
                self.expr(condition)?;
                if let Some(e) = new_expr {
                    self.expr(e)?;
                }
                self.stmt(body)
            }
            StmtKind::Free { .. } => Ok(()),
            StmtKind::Realize { bounds, condition, body, .. }
            | StmtKind::Prefetch { bounds, condition, body, .. } => {
                for r in bounds {
                    self.expr(&r.min)?;
                    self.expr(&r.extent)?;
                }
                self.expr(condition)?;
                self.stmt(body)
            }
            StmtKind::Fork { first, rest } => {
                self.stmt(first)?;
                self.stmt(rest)
            }
            StmtKind::Acquire { semaphore, count, body } => {
                self.expr(semaphore)?;
                self.expr(count)?;
                self.stmt(body)
            }
            StmtKind::Evaluate(e) => self.expr(e),
        }
    }

    fn provide(&mut self, name: &Name, values: &[Expr], args: &[Expr]) -> Result<(), BoundsError> {
        if self.ctx.options().compat_conditions {
            // Halide's walker descends into a Provide only when it collects calls, and
            // then into the arguments before the values; what it draws from the `t`
            // counter inside (let names, select names) follows that order.
            if self.mode == Mode::Calls {
                for e in args.iter().chain(values) {
                    self.expr(e)?;
                }
            }
        } else {
            for e in values.iter().chain(args) {
                self.expr(e)?;
            }
        }
        if self.mode == Mode::Provides && self.wants(name) {
            let r = self.region_of(args);
            self.merge(name, r)?;
        }
        Ok(())
    }

    /// Whether the boxes of `func` are collected.
    fn wants(&self, func: &str) -> bool {
        self.only.as_deref().is_none_or(|f| f == func)
    }

    /// Binds a let name to the interval of its value (directly when small, else through
    /// fresh names); returns what `unbind_let` needs.
    fn bind_let(&mut self, name: &Name, value: &Expr, is_stmt: bool) -> (Token, Option<Wrapper>) {
        let v = self.bounds.bounds(value);
        let v = simplify_widening(&mut self.simp, &v);
        let small = |b: &Bound| b.as_expr().is_none_or(|e| var_refs(e, 10) < 10);
        let point = v.is_single_point();
        if small(&v.min) && (point || small(&v.max)) {
            let token = self.bounds.push(name.clone(), v);
            self.lets.push(LetInfo { name: name.clone(), value: value.clone(), is_stmt });
            return (token, None);
        }
        let ty = value.ty().element_of();
        let mut wrapper = Wrapper { min: None, max: None };
        let mut bound = v.clone();
        // Halide draws the max name first, then the min name.
        let max_name = self.ctx.fresh_t();
        let min_name = self.ctx.fresh_t();
        if let Bound::Finite(hi) = &v.max {
            bound.max = Bound::Finite(loopir::Expr::var(ty, max_name.clone()));
            wrapper.max = Some((max_name, hi.clone()));
        }
        if let Bound::Finite(lo) = &v.min {
            bound.min = Bound::Finite(loopir::Expr::var(ty, min_name.clone()));
            wrapper.min = Some((min_name, lo.clone()));
        }
        let token = self.bounds.push(name.clone(), bound);
        self.lets.push(LetInfo { name: name.clone(), value: value.clone(), is_stmt });
        (token, Some(wrapper))
    }

    fn unbind_let(&mut self, (token, wrapper): (Token, Option<Wrapper>)) {
        self.bounds.pop(token);
        self.lets.pop();
        if let Some(w) = wrapper {
            self.wrap_boxes(&w);
        }
    }

    /// Wraps every box end (and condition) that mentions a wrapper's fresh names in lets
    /// defining them.
    fn wrap_boxes(&mut self, w: &Wrapper) {
        let ctx = self.ctx;
        let wrap = |e: &Expr| {
            let mut out = e.clone();
            for (n, v) in [&w.max, &w.min].into_iter().flatten() {
                if ctx.uses_var(&out, n) {
                    out = make::let_in(n.clone(), v.clone(), out);
                }
            }
            out
        };
        for b in self.boxes.values_mut() {
            *b = b.map_exprs(wrap);
        }
    }

    /// Whether `c` mentions a variable the walker (or the caller's scope) binds, or is
    /// impure.
    fn is_varying(&self, c: &Expr) -> bool {
        let varying = match self.ctx.free_vars(c) {
            Some(fv) => fv.iter().any(|n| self.bounds.lookup(n).is_some()),
            None => true,
        };
        varying || !is_pure(c)
    }

    /// Walks `then_branch` under `cond` and `else_branch` under its negation.
    fn conditional<T, F>(
        &mut self,
        cond: &Expr,
        identical: bool,
        then_branch: &mut T,
        else_branch: Option<F>,
    ) -> Result<(), BoundsError>
    where
        T: FnMut(&mut Self) -> Result<(), BoundsError>,
        F: FnOnce(&mut Self) -> Result<(), BoundsError>,
    {
        if self.is_varying(cond) {
            let c = self.simp.simplify(cond);
            self.with_refined(cond, &c, then_branch)?;
            if let Some(f) = else_branch {
                let nc = self.simp.not(c);
                let mut once = Some(f);
                self.with_refined(cond, &nc, &mut |w| match once.take() {
                    Some(f) => f(w),
                    None => Ok(()),
                })?;
            }
            return Ok(());
        }
        // Symbolic condition: collect each branch into its own map, then condition and merge.
        let outer = std::mem::take(&mut self.boxes);
        let outer_unreachable = std::mem::replace(&mut self.unreachable, false);
        let saved_context = self.context;
        self.context = self.next_context;
        self.next_context += 1;
        let draws = self.ctx.draws();
        let r = then_branch(self);
        let then_boxes = std::mem::take(&mut self.boxes);
        let then_unreachable = std::mem::replace(&mut self.unreachable, false);
        let mut else_boxes = BoxMap::new();
        let mut else_unreachable = false;
        if identical && r.is_ok() && self.ctx.draws() == draws {
            // The else branch is the same node as the then branch, walked under the same
            // bindings, and the then walk drew no fresh name: walking it again would give
            // the same boxes. Without this, `select(p, E, E)` nested N deep is walked 2^N
            // times (B3b), where Halide's walk does the same, with the same result.
            self.next_context += 1;
            else_boxes = then_boxes.clone();
            else_unreachable = then_unreachable;
        } else if let Some(f) = else_branch {
            self.context = self.next_context;
            self.next_context += 1;
            let r2 = f(self);
            else_boxes = std::mem::take(&mut self.boxes);
            else_unreachable = std::mem::replace(&mut self.unreachable, false);
            r2?;
        }
        self.context = saved_context;
        self.boxes = outer;
        self.unreachable = outer_unreachable;
        r?;
        let not_cond = self.simp.not(cond.clone());
        let condition = |b: &mut Region, c: &Expr, s: &mut Simplifier<'_, '_, '_>| {
            b.used = Some(match &b.used {
                Some(u) => s.simplify(&make::and(u.clone(), c.clone())),
                None => c.clone(),
            });
        };
        let mut combined = then_boxes;
        if !else_unreachable {
            for b in combined.values_mut() {
                condition(b, cond, &mut self.simp);
            }
        }
        for (name, mut b) in else_boxes {
            if !then_unreachable {
                condition(&mut b, &not_cond, &mut self.simp);
            }
            match combined.get_mut(&name) {
                Some(existing) => merge_boxes(self.ctx, existing, &b).map_err(|e| dims_error(&name, e))?,
                None => {
                    combined.insert(name, b);
                }
            }
        }
        for (name, b) in combined {
            self.merge(&name, b)?;
        }
        if then_unreachable && else_unreachable {
            self.unreachable = true;
        }
        Ok(())
    }

    /// Walks `branch` with the variables of `c` tightened by `c`'s conjuncts and the lets
    /// that depend on them re-derived.
    fn with_refined<T>(&mut self, original: &Expr, c: &Expr, branch: &mut T) -> Result<(), BoundsError>
    where
        T: FnMut(&mut Self) -> Result<(), BoundsError>,
    {
        if self.ctx.options().compat_conditions {
            return self.with_refined_compat(original, c, branch);
        }
        let c = likely::remove_likelies(c);
        let mut conjuncts = Vec::new();
        split_and(&c, &mut conjuncts);
        let mut tokens = Vec::new();
        let mut tightened: FxHashSet<Name> = FxHashSet::default();
        // Like Halide, every varying variable of a comparison is tightened (a loop
        // variable and a let-bound loop limit alike), each against the scope as it was
        // before the comparison; conjuncts apply one after the other.
        for cj in &conjuncts {
            let restricted: Vec<_> =
                [Side::Left, Side::Right].into_iter().filter_map(|side| self.tighten(cj, side)).collect();
            for (v, iv) in restricted {
                tightened.insert(v.clone());
                tokens.push(self.bounds.push(v, iv));
            }
        }
        let mut wrappers = Vec::new();
        if !tightened.is_empty() {
            // Re-derive dependent lets in definition order (each once).
            // A let is visible unless a later let of the same name shadows it (a let
            // re-derived by an enclosing condition still is).
            let mut changed = tightened.clone();
            let mut visible = vec![false; self.lets.len()];
            let mut seen_names: FxHashSet<&Name> = FxHashSet::default();
            for (i, l) in self.lets.iter().enumerate().rev() {
                visible[i] = seen_names.insert(&l.name);
            }
            for (i, &innermost) in visible.iter().enumerate() {
                let (name, value) = (self.lets[i].name.clone(), self.lets[i].value.clone());
                if !innermost || changed.contains(&name) {
                    continue;
                }
                let depends = match self.ctx.free_vars(&value) {
                    Some(fv) => fv.iter().any(|n| changed.contains(n)),
                    None => true,
                };
                if !depends {
                    continue;
                }
                let previous = self.bounds.lookup(&name).cloned().unwrap_or_default();
                let fresh = self.bounds.bounds_once(&value);
                let fresh = simplify_widening(&mut self.simp, &fresh);
                let mut refined = Interval::intersection(&fresh, &previous);
                refined = Interval {
                    min: refined.min.map(|e| self.simp.simplify(e)),
                    max: refined.max.map(|e| self.simp.simplify(e)),
                };
                let small = |b: &Bound| b.as_expr().is_none_or(|e| var_refs(e, 10) < 10);
                if small(&refined.min) && small(&refined.max) {
                    tokens.push(self.bounds.push(name.clone(), refined));
                } else {
                    let ty = value.ty().element_of();
                    let mut w = Wrapper { min: None, max: None };
                    let mut bound = refined.clone();
                    let max_name = self.ctx.fresh_t();
                    let min_name = self.ctx.fresh_t();
                    if let Bound::Finite(hi) = &refined.max {
                        bound.max = Bound::Finite(loopir::Expr::var(ty, max_name.clone()));
                        w.max = Some((max_name, hi.clone()));
                    }
                    if let Bound::Finite(lo) = &refined.min {
                        bound.min = Bound::Finite(loopir::Expr::var(ty, min_name.clone()));
                        w.min = Some((min_name, lo.clone()));
                    }
                    tokens.push(self.bounds.push(name.clone(), bound));
                    wrappers.push(w);
                }
                changed.insert(name);
            }
        }
        let r = branch(self);
        for t in tokens.into_iter().rev() {
            self.bounds.pop(t);
        }
        for w in wrappers.iter().rev() {
            self.wrap_boxes(w);
        }
        r
    }

    /// Halide's condition rule (`docs/reference/bounds.md` §1.7, `compat_conditions`): for every occurrence of a
    /// varying variable in the original condition, in order, solve the (simplified,
    /// outer-tag-stripped) condition for it; each solved variable is restricted and every
    /// LetStmt depending on it, transitively, is rebound to two fresh names. On the way
    /// out the fresh names are defined, around the box ends using them, by the let's
    /// bounds under the restriction intersected with its previous bounds.
    fn with_refined_compat<T>(&mut self, original: &Expr, c: &Expr, branch: &mut T) -> Result<(), BoundsError>
    where
        T: FnMut(&mut Self) -> Result<(), BoundsError>,
    {
        let (c, tag) = match c.as_intrinsic() {
            Some((tag @ (Intrinsic::Likely | Intrinsic::LikelyIfInnermost), [x])) => (x.clone(), Some(tag)),
            _ => (c.clone(), None),
        };
        let mut occurrences = Vec::new();
        self.varying_occurrences(original, &mut occurrences);
        let mut restricted = Vec::new();
        // Every occurrence of a variable is solved for and restricted against the same
        // scope (the restrictions are pushed after the last one), so a later occurrence
        // repeats the first one's work and result, fresh names apart: a condition that
        // names its variable N times was solved N times, each solve walking the whole
        // condition. The first outcome is reused unless working it out drew fresh names
        // (then each repeat draws its own, as the reference's does).
        let mut repeats: FxHashMap<Name, Option<(Name, Interval)>> = FxHashMap::default();
        for v in occurrences {
            if let Some(outcome) = repeats.get(&v) {
                restricted.extend(outcome.clone());
                continue;
            }
            let draws = self.ctx.draws();
            let outcome = self.solved_restriction(&c, v.clone(), tag);
            if self.ctx.draws() == draws {
                repeats.insert(v, outcome.clone());
            }
            restricted.extend(outcome);
        }
        let mut frames = Vec::with_capacity(restricted.len());
        for (v, iv) in restricted {
            let token = self.bounds.push(v.clone(), iv);
            let bounds = self.rebind_dependents(&v);
            frames.push((token, bounds));
        }
        let r = branch(self);
        for (token, bounds) in frames.into_iter().rev() {
            for (t, b) in bounds {
                self.bounds.pop(t);
                self.define_let_bound(&b);
            }
            self.bounds.pop(token);
        }
        r
    }

    /// The restriction of `v` by the condition `c` solved for it, if the solve succeeds
    /// and gives a comparison of `v` with an Int(32) expression.
    fn solved_restriction(&mut self, c: &Expr, v: Name, tag: Option<Intrinsic>) -> Option<(Name, Interval)> {
        self.ctx.count(|s| s.conditions_solved += 1);
        let solved = solve_expression(self.ctx, c, &v);
        if !solved.fully_solved {
            return None;
        }
        let ExprKind::Binary(op, lhs, rhs) = solved.expr.kind() else { return None };
        let op = *op;
        if !matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq)
            || !rhs.ty().is_int32()
            || lhs.as_variable() != Some(&v)
        {
            return None;
        }
        self.restrict_compat(v, rhs, op, tag)
    }

    /// The varying variables of `e`, once per occurrence, in Halide's visiting order.
    fn varying_occurrences(&self, e: &Expr, out: &mut Vec<Name>) {
        if let Some(v) = e.as_variable() {
            if self.bounds.lookup(v).is_some() {
                out.push(v.clone());
            }
            return;
        }
        for c in e.children() {
            with_stack(|| self.varying_occurrences(c, out));
        }
    }

    /// Rebinds every visible LetStmt that depends (transitively) on `root` to two fresh
    /// names, children after parents in Halide's order (a depth-first walk over the
    /// dependents sorted by name, the last one pushed visited first; the max name is
    /// drawn before the min name).
    fn rebind_dependents(&mut self, root: &Name) -> Vec<(Token, LetBound)> {
        // Which visible LetStmts mention each variable.
        // A let shadowed by a later let of the same name is not visible; a let rebound by
        // an enclosing condition still is (its value is what the rebinding stands for).
        let mut children: FxHashMap<Name, Vec<usize>> = FxHashMap::default();
        let mut shadowed: FxHashSet<&Name> = FxHashSet::default();
        for (i, l) in self.lets.iter().enumerate().rev() {
            if !shadowed.insert(&l.name) || !l.is_stmt {
                continue;
            }
            if let Some(fv) = self.ctx.free_vars(&l.value) {
                for n in fv.iter() {
                    children.entry(n.clone()).or_default().push(i);
                }
            }
        }
        for list in children.values_mut() {
            list.sort_by(|&a, &b| self.lets[a].name.as_ref().cmp(self.lets[b].name.as_ref()));
        }
        let mut out = Vec::new();
        let mut visited: FxHashSet<Name> = FxHashSet::default();
        visited.insert(root.clone());
        // (let index or None for the root, children already pushed)
        let mut pending: Vec<(Option<usize>, bool)> = vec![(None, false)];
        while let Some(top) = pending.last_mut() {
            if !top.1 {
                top.1 = true;
                let var = match top.0 {
                    Some(i) => self.lets[i].name.clone(),
                    None => root.clone(),
                };
                for &i in children.get(&var).map(Vec::as_slice).unwrap_or_default() {
                    if visited.insert(self.lets[i].name.clone()) {
                        pending.push((Some(i), false));
                    }
                }
            } else if let Some(i) = top.0 {
                let max_name = self.ctx.fresh_t();
                let min_name = self.ctx.fresh_t();
                let ty = self.lets[i].value.ty().element_of();
                let bound = Interval {
                    min: Bound::Finite(loopir::Expr::var(ty, min_name.clone())),
                    max: Bound::Finite(loopir::Expr::var(ty, max_name.clone())),
                };
                let token = self.bounds.push(self.lets[i].name.clone(), bound);
                out.push((token, LetBound { let_index: i, min_name, max_name }));
                pending.pop();
            }
            if pending.len() <= 1 {
                break;
            }
        }
        out
    }

    /// Defines a rebound let's fresh names around the box ends that use them, once its
    /// rebinding has been popped: its bounds in the current scope, intersected with the
    /// binding now visible.
    fn define_let_bound(&mut self, b: &LetBound) {
        let ctx = self.ctx;
        let uses = |bd: &Bound| {
            bd.as_expr().is_some_and(|e| ctx.uses_var(e, &b.min_name) || ctx.uses_var(e, &b.max_name))
        };
        if !self.boxes.values().any(|r| r.bounds.iter().any(|i| uses(&i.min) || uses(&i.max))) {
            return;
        }
        let (name, value) = (self.lets[b.let_index].name.clone(), self.lets[b.let_index].value.clone());
        let fresh = self.bounds.bounds_once(&value);
        let fresh = simplify_widening(&mut self.simp, &fresh);
        let old = self.bounds.lookup(&name).cloned().unwrap_or_default();
        let hi = make_min(&fresh.max, &old.max).map(|e| self.simp.simplify(e));
        let lo = make_max(&fresh.min, &old.min).map(|e| self.simp.simplify(e));
        let wrap = |end: &Bound, inf: Bound| -> Bound {
            let Bound::Finite(e) = end else { return end.clone() };
            let mut out = e.clone();
            for (n, v) in [(&b.max_name, &hi), (&b.min_name, &lo)] {
                if ctx.uses_var(&out, n) {
                    match v {
                        Bound::Finite(v) => out = make::let_in(n.clone(), v.clone(), out),
                        _ => return inf,
                    }
                }
            }
            Bound::Finite(out)
        };
        for r in self.boxes.values_mut() {
            for i in r.bounds.iter_mut() {
                i.min = wrap(&i.min, Bound::NegInf);
                i.max = wrap(&i.max, Bound::PosInf);
            }
        }
    }

    /// The tightened interval of the variable a conjunct constrains, if it has the form
    /// `v op r` or `r op v` with `v` varying and not mentioned by `r`.
    fn tighten(&mut self, cj: &Expr, side: Side) -> Option<(Name, Interval)> {
        let ExprKind::Binary(op, a, b) = cj.kind() else { return None };
        if !a.ty().is_int32() {
            return None;
        }
        let (left, right) = match side {
            Side::Left => (a.as_variable(), None),
            Side::Right => (None, b.as_variable()),
        };
        let (v, r, op) = match (left, right) {
            (Some(v), _) if self.bounds.lookup(v).is_some() && !self.ctx.uses_var(b, v) => {
                (v.clone(), b, *op)
            }
            (_, Some(v)) if self.bounds.lookup(v).is_some() && !self.ctx.uses_var(a, v) => {
                let flipped = match op {
                    BinOp::Lt => BinOp::Gt,
                    BinOp::Le => BinOp::Ge,
                    BinOp::Gt => BinOp::Lt,
                    BinOp::Ge => BinOp::Le,
                    other => *other,
                };
                (v.clone(), a, flipped)
            }
            _ => return None,
        };
        self.restrict(v, r, op)
    }

    /// The reference's restriction of `v` by a solved condition `v op r`: each finite end
    /// of `v`'s interval that the bounds of `r` tighten becomes a plain `min`/`max` node
    /// of the old end and the new one. When the condition was tagged `likely` (or
    /// `likely_if_innermost`) the old end is wrapped in that tag, since the condition
    /// probably holds and the old end is probably the one that counts. Ends the bounds of
    /// `r` leave open stay, but `v` is still restricted (its dependents are rebound).
    fn restrict_compat(
        &mut self,
        v: Name,
        r: &Expr,
        op: BinOp,
        tag: Option<Intrinsic>,
    ) -> Option<(Name, Interval)> {
        let old = self.bounds.lookup(&v).cloned()?;
        let rb = self.bounds.bounds(r);
        let one = constant::make_one(r.ty());
        let tagged = |x: &Expr| match tag {
            Some(t) => t.call(x.ty(), vec![x.clone()]),
            None => x.clone(),
        };
        let (upper, lower) = limits(op, &rb, &one).unwrap_or((None, None));
        let mut new = old.clone();
        if let (Some(h), Bound::Finite(m)) = (upper, &old.max) {
            new.max = Bound::Finite(make::min(tagged(m), h));
        }
        if let (Some(l), Bound::Finite(m)) = (lower, &old.min) {
            new.min = Bound::Finite(make::max(tagged(m), l));
        }
        Some((v, new))
    }

    /// The interval of `v` (varying) restricted by `v op r`, with `r` free of `v`, the
    /// crate's way (ends combined and simplified; see [`Self::restrict_compat`] for the
    /// reference's).
    fn restrict(&mut self, v: Name, r: &Expr, op: BinOp) -> Option<(Name, Interval)> {
        let old = self.bounds.lookup(&v).cloned()?;
        let rb = self.bounds.bounds(r);
        let one = constant::make_one(r.ty());
        let (upper, lower) = limits(op, &rb, &one)?;
        // A one-sided condition that leaves its side open restricts nothing.
        let open = match op {
            BinOp::Lt | BinOp::Le => upper.is_none(),
            BinOp::Gt | BinOp::Ge => lower.is_none(),
            _ => false,
        };
        if open {
            return None;
        }
        let mut new = old.clone();
        if let Some(h) = upper {
            new.max = make_min(&old.max, &Bound::Finite(h));
        }
        if let Some(l) = lower {
            new.min = make_max(&old.min, &Bound::Finite(l));
        }
        let simplified = Interval {
            min: new.min.map(|e| self.simp.simplify(e)),
            max: new.max.map(|e| self.simp.simplify(e)),
        };
        Some((v, simplified))
    }
}

/// Which operand of a comparison `tighten` restricts.
#[derive(Clone, Copy)]
enum Side {
    Left,
    Right,
}

/// The limits `v op r` puts on `v`, from the bounds `rb` of `r`: `(upper, lower)`, an
/// upper one for `<` (`rb.hi - 1`), `<=` and `==` (`rb.hi`), a lower one for `>`
/// (`rb.lo + 1`), `>=` and `==` (`rb.lo`), each `None` where `rb` leaves that end open;
/// `None` for any other operator.
fn limits(op: BinOp, rb: &Interval, one: &Expr) -> Option<(Option<Expr>, Option<Expr>)> {
    let upper = match op {
        BinOp::Lt => rb.hi().map(|h| make::sub(h.clone(), one.clone())),
        BinOp::Le | BinOp::Eq => rb.hi().cloned(),
        BinOp::Gt | BinOp::Ge => None,
        _ => return None,
    };
    let lower = match op {
        BinOp::Gt => rb.lo().map(|l| make::add(l.clone(), one.clone())),
        BinOp::Ge | BinOp::Eq => rb.lo().cloned(),
        _ => None,
    };
    Some((upper, lower))
}

/// Simplifies both ends; an end that folds to a signed-integer overflow becomes infinite
/// (sound, and it keeps overflowing ends from growing through let chains).
fn simplify_widening(s: &mut Simplifier<'_, '_, '_>, i: &Interval) -> Interval {
    let end = |b: &Bound, inf: Bound, s: &mut Simplifier<'_, '_, '_>| match b {
        Bound::Finite(e) => {
            let y = s.simplify(e);
            if overflow::contains_overflow_marker(&y) { inf } else { Bound::Finite(y) }
        }
        other => other.clone(),
    };
    Interval { min: end(&i.min, Bound::NegInf, s), max: end(&i.max, Bound::PosInf, s) }
}

/// `bind_let` arguments: whether the let is a LetStmt.
const IS_LET_STMT: bool = true;
const IS_LET_EXPR: bool = false;

fn split_and(e: &Expr, out: &mut Vec<Expr>) {
    match e.kind() {
        ExprKind::Binary(BinOp::And, a, b) => with_stack(|| {
            split_and(a, out);
            split_and(b, out);
        }),
        _ => out.push(e.clone()),
    }
}

/// Whether `e` calls nothing with side effects.
fn is_pure(e: &Expr) -> bool {
    let mut memo: AddressMap<*const ExprNode, bool> = AddressMap::default();
    fn go(e: &Expr, memo: &mut AddressMap<*const ExprNode, bool>) -> bool {
        if let Some(&r) = memo.get(&e.as_ptr()) {
            return r;
        }
        let own = match e.kind() {
            ExprKind::Call { name, call_type, value_index, .. } => {
                matches!(
                    loopir_simplify::pure_math::effective_call_type(name, *call_type, *value_index),
                    CallType::PureExtern | CallType::PureIntrinsic | CallType::Halide | CallType::Image
                )
            }
            _ => true,
        };
        let r = own && with_stack(|| e.children().iter().all(|c| go(c, memo)));
        memo.insert(e.as_ptr(), r);
        r
    }
    go(e, &mut memo)
}

#[cfg(test)]
mod tests;
