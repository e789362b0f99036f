//! `bounds_of_expr_in_scope`: an interval containing every value of an expression
//! (`docs/reference/bounds.md` §1.5).
//!
//! Variables bound in the scope *vary* over their intervals and are eliminated; other
//! variables are *symbols* and may appear in the result. Each node's rule combines the
//! intervals of its operands; the rules are listed per node kind below, each following
//! the spec's table for that node.
//!
//! Cost: results are memoised per node, keyed by the node's identity together with the
//! binding identities of its free variables, so a DAG is analysed in O(|DAG|) rule
//! applications, and a shared node is re-analysed exactly when something it depends on
//! was rebound. Let values are analysed once and referred to by fresh names
//! (`name.min`, `name.max`) instead of being copied into every use.

use loopir::address_map::AddressMap;
use loopir::constant;
use loopir::equality;
use loopir::make;
use loopir::stack::with_stack;
use loopir::{BinOp, CallType, Expr, ExprKind, ExprNode, Intrinsic, Name, Type, VectorReduceOp};
use loopir_simplify::likely;
use loopir_simplify::overflow;

use loopir::constant::Const;
use loopir_simplify::ctx::Ctx;
use loopir_simplify::interval::{Bound, Interval, make_max, make_min};
use loopir_simplify::scope::Scope;
use loopir_simplify::simplify::Simplifier;

pub use crate::func_value_bounds::FuncValueBounds;

/// The bounds of `ty` used by the analysis: finite only for integer types of at most 16
/// bits (`docs/reference/bounds.md` §0.2); the element type's for vectors.
pub fn type_bounds(ty: Type) -> Interval {
    let elem = ty.element_of();
    if (elem.is_int() || elem.is_uint()) && elem.bits() <= 16 {
        match (constant::type_min(elem), constant::type_max(elem)) {
            (Some(lo), Some(hi)) => Interval::new(lo, hi),
            _ => Interval::everything(),
        }
    } else {
        Interval::everything()
    }
}

/// An interval containing every lane of every value of `e` when the variables of `scope`
/// range over their intervals (`docs/reference/bounds.md` §1.5). Finite ends have `e`'s scalar element type; an
/// end whose constant folding meets a signed-integer overflow is widened to infinity.
/// With `const_bound`, every end is a numeric constant or infinite.
///
/// Ends are returned as the rules build them (unsimplified); see
/// [`bounds_of_expr_simplified`] for the simplified form.
pub fn bounds_of_expr_in_scope(
    ctx: &Ctx,
    e: &Expr,
    scope: &Scope<'_, Interval>,
    func_bounds: &FuncValueBounds,
    const_bound: bool,
) -> Interval {
    let mut b = BoundsOfExpr::new(ctx, scope, func_bounds, const_bound);
    let raw = b.bounds(e);
    b.finish(&raw)
}

/// [`bounds_of_expr_in_scope`] with both ends simplified.
pub fn bounds_of_expr_simplified(
    ctx: &Ctx,
    e: &Expr,
    scope: &Scope<'_, Interval>,
    func_bounds: &FuncValueBounds,
) -> Interval {
    let mut b = BoundsOfExpr::new(ctx, scope, func_bounds, false);
    let raw = b.bounds(e);
    let i = b.finish(&raw);
    let mut s = Simplifier::without_bounds(ctx);
    Interval { min: i.min.map(|x| s.simplify(x)), max: i.max.map(|x| s.simplify(x)) }
}

/// Numeric bounds of `e`: simplified, analysed in const_bound mode, and every
/// non-constant end turned into an infinity.
pub fn find_constant_bounds(ctx: &Ctx, e: &Expr, scope: &Scope<'_, Interval>) -> Interval {
    let simplified = Simplifier::new(ctx, scope).simplify(&likely::remove_likelies(e));
    let none = FuncValueBounds::default();
    let i = bounds_of_expr_in_scope(ctx, &simplified, scope, &none, true);
    let mut s = Simplifier::without_bounds(ctx);
    let keep = |b: &Bound, s: &mut Simplifier<'_, '_, '_>, inf: Bound| match b {
        Bound::Finite(x) => {
            let y = s.simplify(x);
            if constant::is_const(&y) { Bound::Finite(y) } else { inf }
        }
        other => other.clone(),
    };
    Interval { min: keep(&i.min, &mut s, Bound::NegInf), max: keep(&i.max, &mut s, Bound::PosInf) }
}

/// A condition that implies `c` for every value of the varying variables of `varying`
/// (the simplified lower end of `c`'s boolean interval).
pub fn and_condition_over_domain(ctx: &Ctx, c: &Expr, varying: &Scope<'_, Interval>) -> Expr {
    let i = bounds_of_expr_in_scope(ctx, c, varying, &FuncValueBounds::default(), false);
    match i.min {
        Bound::Finite(x) => Simplifier::without_bounds(ctx).simplify(&x),
        _ => constant::make_bool(false, 1),
    }
}

/// A condition implied by `c` for every value of the varying variables:
/// `!and_condition_over_domain(!c)`.
pub fn or_condition_over_domain(ctx: &Ctx, c: &Expr, varying: &Scope<'_, Interval>) -> Expr {
    let inner = and_condition_over_domain(ctx, &make::not(c.clone()), varying);
    let mut s = Simplifier::without_bounds(ctx);
    s.not(inner)
}

/// A node and the newest binding among its free variables. With bindings made and
/// removed in nested order and ids never reused, that one id fixes the bindings of all
/// the node's free variables; for nodes whose free variables are not tracked, the newest
/// binding of the whole scope is used (conservative).
type MemoKey = (*const ExprNode, u64);

/// The interval analysis of one query (see the module docs).
pub struct BoundsOfExpr<'c, 'p> {
    ctx: &'c Ctx,
    scope: Scope<'p, Interval>,
    func_bounds: &'p FuncValueBounds,
    const_bound: bool,
    memo: AddressMap<MemoKey, (Expr, Interval)>,
    simp: Simplifier<'c, 'static, 'static>,
    exact: AddressMap<*const ExprNode, (Expr, Option<loopir_simplify::ConstantInterval>)>,
}

/// Which end of an interval a rule is building.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    Lo,
    Hi,
}

impl<'c, 'p> BoundsOfExpr<'c, 'p> {
    /// An analysis over `scope` (consulted by reference, never copied).
    pub fn new(
        ctx: &'c Ctx,
        scope: &'p Scope<'p, Interval>,
        func_bounds: &'p FuncValueBounds,
        const_bound: bool,
    ) -> Self {
        BoundsOfExpr {
            ctx,
            scope: Scope::with_parent(scope),
            func_bounds,
            const_bound,
            memo: Default::default(),
            simp: Simplifier::without_bounds(ctx),
            exact: Default::default(),
        }
    }

    /// Binds a variable to an interval for the following queries.
    pub fn push(&mut self, name: Name, i: Interval) -> loopir_simplify::scope::Token {
        self.scope.push(name, i)
    }

    /// Removes a binding made with [`BoundsOfExpr::push`].
    pub fn pop(&mut self, t: loopir_simplify::scope::Token) {
        self.scope.pop_token(t)
    }

    /// The binding id of `name` in the analysis scope (0 when unbound).
    pub fn binding_id(&self, name: &str) -> u64 {
        self.scope.binding_id(name)
    }

    /// The innermost interval bound to `name`, if any.
    pub fn lookup(&self, name: &str) -> Option<&Interval> {
        self.scope.find(name)
    }

    /// Applies the public-API guarantee to a raw result: ends that fold to an overflow
    /// marker become infinite.
    pub fn finish(&mut self, i: &Interval) -> Interval {
        if self.const_bound {
            let fold = |s: &mut Self, b: &Bound, inf: Bound| match b {
                Bound::Finite(x) => {
                    let y = s.simp.simplify(x);
                    if constant::is_const(&y) { Bound::Finite(y) } else { inf }
                }
                other => other.clone(),
            };
            return Interval {
                min: fold(self, &i.min, Bound::NegInf),
                max: fold(self, &i.max, Bound::PosInf),
            };
        }
        let lo = match &i.min {
            Bound::Finite(x) if folds_to_overflow(&mut self.simp, x) => Bound::NegInf,
            other => other.clone(),
        };
        let hi = match &i.max {
            Bound::Finite(x) if folds_to_overflow(&mut self.simp, x) => Bound::PosInf,
            other => other.clone(),
        };
        Interval { min: lo, max: hi }
    }

    /// Simplifies an expression without scope facts (memoised across the query).
    pub fn simplify(&mut self, e: &Expr) -> Expr {
        self.simp.simplify(e)
    }

    fn key(&self, e: &Expr) -> MemoKey {
        let newest = match self.ctx.free_vars(e) {
            Some(fv) => fv.iter().map(|n| self.scope.binding_id(n)).max().unwrap_or(0),
            None => self.scope.top_binding_id(),
        };
        (e.as_ptr(), newest)
    }

    /// The memo key of `e` in the current scope (see [`MemoKey`]).
    pub(crate) fn memo_key(&self, e: &Expr) -> (usize, u64) {
        let (p, k) = self.key(e);
        (p as usize, k)
    }

    /// The (raw) interval of `e` in the current scope.
    pub fn bounds(&mut self, e: &Expr) -> Interval {
        self.memoised(e, true)
    }

    /// As [`BoundsOfExpr::bounds`], for a query the caller makes once under the current
    /// bindings (a let value re-derived for a tightened variable): its answer is not
    /// memoised unless it drew fresh names, which asking again would draw anew. The
    /// node itself is shared (the let holds it), but an entry would only keep its
    /// result, and every node the simplifier makes of it, alive until the walk ends:
    /// O(lets × conditions) memory that nothing reads.
    pub fn bounds_once(&mut self, e: &Expr) -> Interval {
        self.memoised(e, false)
    }

    /// The interval of `e`, from the memo if it is there; recorded there if `keep` or if
    /// computing it drew fresh names.
    fn memoised(&mut self, e: &Expr, keep: bool) -> Interval {
        // Leaves are cheaper to answer than to look up (a constant is its own point, a
        // variable one scope lookup); keeping them out of the memo also keeps it small.
        if e.is_leaf() {
            self.ctx.count(|s| s.bounds_rule_applications += 1);
            return self.visit(e);
        }
        // A node with no other handle has one parent, whose own result is memoised (or
        // which is itself reached once): it is met once per query, so its key (a walk of
        // its free variables) and memo entry would be pure cost. Most nodes of parsed
        // text are like this. A let is the exception: the boxes walker asks for the
        // interval of every let value it binds, innermost first, and a let nested in
        // the value of another is met again in the outer value's query; answered from
        // the memo, lets nested N deep in value position cost N queries, not N²/2.
        if !e.is_shared() && !matches!(e.kind(), ExprKind::Let { .. }) {
            self.ctx.count(|s| s.bounds_rule_applications += 1);
            let _hashes = self.ctx.hash_scope();
            return with_stack(|| self.visit(e));
        }
        let key = self.key(e);
        if let Some((_, i)) = self.memo.get(&key) {
            return i.clone();
        }
        self.ctx.count(|s| s.bounds_rule_applications += 1);
        let _hashes = self.ctx.hash_scope();
        let draws = self.ctx.draws();
        let i = with_stack(|| self.visit(e));
        if keep || self.ctx.draws() != draws {
            self.memo.insert(key, (e.clone(), i.clone()));
        }
        i
    }

    /// Whether the simplifier reduces `cond` to true (ends are in terms of symbols, so no
    /// scope facts apply).
    fn prove(&mut self, cond: Expr) -> bool {
        constant::is_const_true(&self.simp.simplify(&likely::remove_likelies(&cond)))
    }

    fn visit(&mut self, e: &Expr) -> Interval {
        let ty = e.ty();
        match e.kind() {
            ExprKind::IntImm(_) | ExprKind::UIntImm(_) | ExprKind::FloatImm(_) | ExprKind::StringImm(_) => {
                Interval::point(e.clone())
            }
            ExprKind::Variable(n) => self.variable(e, n),
            ExprKind::Reinterpret(_) => type_bounds(ty),
            ExprKind::Cast(a) => self.cast(e, a),
            ExprKind::Binary(op, a, b) => self.binary(e, *op, a, b),
            ExprKind::Not(a) => {
                let ia = self.bounds(a);
                if let Some(i) = self.shortcuts(e, &[(a, &ia)]) {
                    return i;
                }
                let neg = |s: &mut Self, b: &Bound, default: bool| match b {
                    Bound::Finite(x) => s.bool_not(x),
                    _ => constant::make_bool(default, 1),
                };
                Interval::new(neg(self, &ia.max, false), neg(self, &ia.min, true))
            }
            ExprKind::Select(c, t, f) => self.select(e, c, t, f),
            ExprKind::Let { name, value, body } => self.let_expr(name, value, body),
            ExprKind::Load { name, index, predicate, alignment } => {
                if !self.const_bound && constant::is_const_true(predicate) {
                    let ii = self.bounds(index);
                    if ii.is_single_point()
                        && let Some(p) = ii.lo()
                    {
                        if ty.is_scalar() && p.same_as(index) {
                            return Interval::point(e.clone());
                        }
                        let load = Expr::from_node_unchecked(
                            ty.element_of(),
                            ExprKind::Load {
                                name: name.clone(),
                                index: p.clone(),
                                predicate: constant::make_bool(true, 1),
                                alignment: *alignment,
                            },
                        );
                        return Interval::point(load);
                    }
                }
                type_bounds(ty)
            }
            ExprKind::Ramp { base, stride, lanes } => {
                let elem = base.ty().element_of();
                let lane_name = self.ctx.fresh_keyed("lane");
                let last = *lanes as i128 - 1;
                let fits = elem.is_float() || elem.int_max().is_some_and(|m| m >= last);
                let lane_range = if fits {
                    Interval::new(constant::make_const(elem, 0), constant::make_const(elem, last))
                } else {
                    let tb = type_bounds(elem);
                    if tb.is_bounded() { tb } else { Interval::everything() }
                };
                let lane_var = loopir::Expr::var(elem, lane_name.clone());
                let lane = if base.ty().is_vector() {
                    Expr::from_node_unchecked(
                        base.ty(),
                        ExprKind::Broadcast { value: lane_var, lanes: base.ty().lanes() },
                    )
                } else {
                    lane_var
                };
                let token = self.scope.push(lane_name, lane_range);
                let r = self.bounds(&make::add(base.clone(), make::mul(lane, stride.clone())));
                self.scope.pop_token(token);
                r
            }
            ExprKind::Broadcast { value, .. } => self.bounds(value),
            ExprKind::Shuffle { vectors, .. } => {
                let mut acc = Interval::nothing();
                for v in vectors {
                    let i = self.bounds(v);
                    acc.include(&i);
                }
                acc
            }
            ExprKind::VectorReduce { op, value } => {
                let i = self.bounds(value);
                let factor = (value.ty().lanes() / ty.lanes().max(1)) as i128;
                match op {
                    VectorReduceOp::Add => {
                        let k = constant::make_const(ty.element_of(), factor);
                        let scaled = Interval {
                            min: i.min.map(|x| make::mul(x.clone(), k.clone())),
                            max: i.max.map(|x| make::mul(x.clone(), k.clone())),
                        };
                        self.wrap_check(ty, scaled)
                    }
                    VectorReduceOp::Mul | VectorReduceOp::SaturatingAdd => type_bounds(value.ty()),
                    _ => i,
                }
            }
            ExprKind::Call { .. } => self.call(e),
        }
    }

    fn variable(&mut self, e: &Expr, n: &Name) -> Interval {
        let ty = e.ty();
        if self.const_bound {
            let mut tb = type_bounds(ty);
            if let Some(i) = self.scope.find(n) {
                if let Some(lo) = i.lo().filter(|x| constant::is_const(x)) {
                    tb.min = Bound::Finite(lo.clone());
                }
                if let Some(hi) = i.hi().filter(|x| constant::is_const(x)) {
                    tb.max = Bound::Finite(hi.clone());
                }
            }
            return tb;
        }
        match self.scope.find(n) {
            Some(i) => i.clone(),
            None if ty.is_vector() => type_bounds(ty),
            None => Interval::point(e.clone()),
        }
    }

    /// The unchanged and point shortcuts shared by most rules.
    fn shortcuts(&mut self, e: &Expr, ops: &[(&Expr, &Interval)]) -> Option<Interval> {
        if ops.iter().all(|(x, i)| i.is_single_point_of(x)) && (!self.const_bound || constant::is_const(e)) {
            return Some(Interval::point(e.clone()));
        }
        if ops.iter().all(|(_, i)| i.is_single_point()) {
            let points: Vec<Expr> = ops.iter().filter_map(|(_, i)| i.lo().cloned()).collect();
            let scalar = scalarize(e, points);
            return Some(Interval::point(scalar));
        }
        None
    }

    fn bool_not(&mut self, x: &Expr) -> Expr {
        if constant::is_const_true(x) {
            constant::make_bool(false, 1)
        } else if constant::is_const_false(x) {
            constant::make_bool(true, 1)
        } else {
            make::not(x.clone())
        }
    }

    fn bool_op(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Expr {
        let is_and = op == BinOp::And;
        for (x, y) in [(a, b), (b, a)] {
            if constant::is_const_true(x) {
                return if is_and { y.clone() } else { x.clone() };
            }
            if constant::is_const_false(x) {
                return if is_and { x.clone() } else { y.clone() };
            }
        }
        make::binary(op, a.clone(), b.clone())
    }

    /// For wrapping types: keep `i` only if it is bounded and computing its ends cannot
    /// wrap (checked with exact constant ranges of the ends, i.e. in wider than 64-bit
    /// arithmetic); otherwise the bounds of the type.
    fn wrap_check(&mut self, ty: Type, i: Interval) -> Interval {
        if overflow::no_overflow(ty) {
            return i;
        }
        let range = loopir_simplify::ConstantInterval::bounds_of_type(ty.element_of());
        let ok = match (i.lo(), i.hi()) {
            (Some(lo), Some(hi)) => self.exact_in_range(lo, &range) && self.exact_in_range(hi, &range),
            _ => false,
        };
        if ok { i } else { type_bounds(ty) }
    }

    /// Whether the value of `e`, computed exactly (no wrapping anywhere), provably lies
    /// in `range`.
    fn exact_in_range(&mut self, e: &Expr, range: &loopir_simplify::ConstantInterval) -> bool {
        match exact_range(e, &mut self.exact) {
            Some(ci) => range.contains_interval(&ci),
            None => false,
        }
    }

    fn cast(&mut self, e: &Expr, a: &Expr) -> Interval {
        let to = e.ty().element_of();
        let from = a.ty().element_of();
        let ia = self.bounds(a);
        if let Some(i) = self.shortcuts(e, &[(a, &ia)]) {
            return i;
        }
        let range = |t: Type| loopir_simplify::ConstantInterval::bounds_of_type(t);
        let representable = to.is_float()
            || (!from.is_float()
                && !from.is_handle()
                && !to.is_handle()
                && range(to).contains_interval(&range(from))
                && (from.int_min().is_some()));
        let mut source = ia.clone();
        let mut impossible = representable || overflow::no_overflow_int(to);
        if !impossible && ia.is_bounded() && !to.is_handle() {
            let lo = ia.lo().map(|x| self.simp.simplify(x));
            let hi = ia.hi().map(|x| self.simp.simplify(x));
            if let (Some(lo), Some(hi)) = (lo, hi) {
                let narrowing = !from.is_float() && range(from).contains_interval(&range(to));
                let (clo, chi) = if narrowing {
                    let (p, q) = (self.simp.constant_bounds(&lo), self.simp.constant_bounds(&hi));
                    (
                        p.min.map(|v| constant::make_const(from, v as i128)),
                        q.max.map(|v| constant::make_const(from, v as i128)),
                    )
                } else {
                    (Some(lo.clone()), Some(hi.clone()))
                };
                if let (Some(clo), Some(chi)) = (clo, chi)
                    && fits_in(&clo, to)
                    && fits_in(&chi, to)
                {
                    impossible = true;
                    source = Interval::new(clo, chi);
                }
            }
        }
        if !impossible {
            return type_bounds(to);
        }
        let mut r = type_bounds(from);
        if source.has_lower_bound() {
            r.min = source.min.clone();
        }
        if source.has_upper_bound() {
            r.max = source.max.clone();
        }
        Interval {
            min: r.min.map(|x| make::cast(to, x.clone())),
            max: r.max.map(|x| make::cast(to, x.clone())),
        }
    }

    fn binary(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> Interval {
        let ty = e.ty();
        let ia = self.bounds(a);
        let ib = self.bounds(b);
        if let Some(i) = self.shortcuts(e, &[(a, &ia), (b, &ib)]) {
            return i;
        }
        match op {
            BinOp::Add | BinOp::Sub => {
                let mut r = type_bounds(ty);
                let (a_lo, a_hi) = (&ia.min, &ia.max);
                let (b_lo, b_hi) = if op == BinOp::Add { (&ib.min, &ib.max) } else { (&ib.max, &ib.min) };
                if let (Some(x), Some(y)) = (a_lo.as_expr(), b_lo.as_expr()) {
                    r.min = Bound::Finite(make::binary(op, x.clone(), y.clone()));
                } else if !r.has_lower_bound() || !overflow::no_overflow(ty) {
                    r.min = Bound::NegInf;
                }
                if let (Some(x), Some(y)) = (a_hi.as_expr(), b_hi.as_expr()) {
                    r.max = Bound::Finite(make::binary(op, x.clone(), y.clone()));
                } else if !r.has_upper_bound() || !overflow::no_overflow(ty) {
                    r.max = Bound::PosInf;
                }
                if !overflow::no_overflow(ty) {
                    if op == BinOp::Sub && ty.is_uint() {
                        let ok = match (ib.hi(), ia.lo()) {
                            (Some(bh), Some(al)) => self.prove(make::le(bh.clone(), al.clone())),
                            _ => false,
                        };
                        if !ok {
                            return type_bounds(ty);
                        }
                    }
                    return self.wrap_check(ty, r);
                }
                r
            }
            BinOp::Mul => self.mul(ty, ia, ib),
            BinOp::Div => self.div(ty, ia, ib),
            BinOp::Mod => self.modulo(ty, ia, ib),
            BinOp::Min => Interval { min: make_min(&ia.min, &ib.min), max: make_min(&ia.max, &ib.max) },
            BinOp::Max => Interval { min: make_max(&ia.min, &ib.min), max: make_max(&ia.max, &ib.max) },
            BinOp::Lt | BinOp::Le => self.less(op == BinOp::Lt, &ia, &ib),
            BinOp::Gt | BinOp::Ge => self.less(op == BinOp::Gt, &ib, &ia),
            BinOp::Eq => {
                let hi = self.overlap(&ia, &ib);
                Interval::new(constant::make_bool(false, 1), hi)
            }
            BinOp::Ne => {
                let overlap = self.overlap(&ia, &ib);
                let lo = self.bool_not(&overlap);
                Interval::new(lo, constant::make_bool(true, 1))
            }
            BinOp::And | BinOp::Or => {
                let end = |s: &mut Self, x: &Bound, y: &Bound, default: bool| match (x, y) {
                    (Bound::Finite(p), Bound::Finite(q)) => s.bool_op(op, p, q),
                    _ => constant::make_bool(default, 1),
                };
                let lo = end(self, &ia.min, &ib.min, false);
                let hi = end(self, &ia.max, &ib.max, true);
                Interval::new(lo, hi)
            }
        }
    }

    /// `[a.hi < b.lo, a.lo < b.hi]` (with `<=` when not strict).
    fn less(&mut self, strict: bool, ia: &Interval, ib: &Interval) -> Interval {
        let f = constant::make_bool(false, 1);
        let t = constant::make_bool(true, 1);
        let no_end = |i: &Interval| !i.has_lower_bound() && !i.has_upper_bound();
        if no_end(ia) || no_end(ib) {
            return Interval::new(f, t);
        }
        let cmp = |x: &Expr, y: &Expr| {
            if strict { make::lt(x.clone(), y.clone()) } else { make::le(x.clone(), y.clone()) }
        };
        let lo = match (ia.hi(), ib.lo()) {
            (Some(x), Some(y)) => cmp(x, y),
            _ => f,
        };
        let hi = match (ia.lo(), ib.hi()) {
            (Some(x), Some(y)) => cmp(x, y),
            _ => t,
        };
        Interval::new(lo, hi)
    }

    /// A necessary condition for `a == b` to be possible: the intervals overlap.
    fn overlap(&mut self, ia: &Interval, ib: &Interval) -> Expr {
        let c1 = match (ia.lo(), ib.hi()) {
            (Some(x), Some(y)) => Some(make::le(x.clone(), y.clone())),
            _ => None,
        };
        let c2 = match (ib.lo(), ia.hi()) {
            (Some(x), Some(y)) => Some(make::le(x.clone(), y.clone())),
            _ => None,
        };
        match (c1, c2) {
            (Some(p), Some(q)) => self.bool_op(BinOp::And, &p, &q),
            (Some(p), None) | (None, Some(p)) => p,
            (None, None) => constant::make_bool(true, 1),
        }
    }

    fn mul(&mut self, ty: Type, ia: Interval, ib: Interval) -> Interval {
        let (ia, ib) = if ia.is_single_point() && !ib.is_single_point() { (ib, ia) } else { (ia, ib) };
        let wrapping = !overflow::no_overflow(ty);
        if wrapping && !(ia.is_bounded() && ib.is_bounded()) {
            return type_bounds(ty);
        }
        let times = |x: &Expr, y: &Expr| make::mul(x.clone(), y.clone());
        let r = if ib.is_single_point() {
            let Some(b) = ib.lo().cloned() else { return type_bounds(ty) };
            if constant::is_const_zero(&b) {
                return Interval::point(b);
            }
            if constant::is_positive_const(&b) || ty.is_uint() {
                Interval { min: ia.min.map(|x| times(x, &b)), max: ia.max.map(|x| times(x, &b)) }
            } else if constant::is_negative_const(&b) {
                Interval {
                    min: ia.max.map(|x| times(x, &b)).flip_infinity(),
                    max: ia.min.map(|x| times(x, &b)).flip_infinity(),
                }
            } else if let (Some(lo), Some(hi)) = (ia.lo(), ia.hi()) {
                let nonneg = make::ge(b.clone(), constant::make_zero(ty));
                let (p, q) = (times(lo, &b), times(hi, &b));
                Interval::new(make::select(nonneg.clone(), p.clone(), q.clone()), make::select(nonneg, q, p))
            } else {
                return type_bounds(ty);
            }
        } else if let (Some(a0), Some(a1), Some(b0), Some(b1)) = (ia.lo(), ia.hi(), ib.lo(), ib.hi()) {
            let corners = [times(a0, b0), times(a0, b1), times(a1, b0), times(a1, b1)];
            hull(&corners)
        } else {
            return type_bounds(ty);
        };
        if wrapping {
            if let (Some(a0), Some(a1), Some(b0), Some(b1)) = (ia.lo(), ia.hi(), ib.lo(), ib.hi()) {
                let range = loopir_simplify::ConstantInterval::bounds_of_type(ty.element_of());
                let corners = [times(a0, b0), times(a0, b1), times(a1, b0), times(a1, b1)];
                if !corners.iter().all(|c| self.exact_in_range(c, &range)) {
                    return type_bounds(ty);
                }
            }
            return self.wrap_check(ty, r);
        }
        r
    }

    /// Whether Euclidean division in `ty` cannot overflow (only `MIN / -1` in a wrapping
    /// signed type can).
    fn div_cannot_overflow(&mut self, ty: Type, ia: &Interval, ib: &Interval) -> bool {
        if !(ty.is_int() && ty.bits() < 32) {
            return true;
        }
        let Some(min) = constant::type_min(ty.element_of()) else { return true };
        if let Some(lo) = ia.lo()
            && self.prove(make::ne(lo.clone(), min))
        {
            return true;
        }
        let m1 = constant::make_const(ty.element_of(), -1);
        ib.hi().is_some_and(|h| self.prove(make::lt(h.clone(), m1.clone())))
            || ib.lo().is_some_and(|l| self.prove(make::gt(l.clone(), m1.clone())))
    }

    fn sign_known(&mut self, e: &Expr) -> Option<bool> {
        if constant::is_positive_const(e) {
            return Some(true);
        }
        if constant::is_negative_const(e) {
            return Some(false);
        }
        let z = constant::make_zero(e.ty());
        if self.prove(make::gt(e.clone(), z.clone())) {
            Some(true)
        } else if self.prove(make::lt(e.clone(), z)) {
            Some(false)
        } else {
            None
        }
    }

    fn div(&mut self, ty: Type, ia: Interval, ib: Interval) -> Interval {
        let elem = ty.element_of();
        let wide_signed = elem.is_int() && elem.bits() >= 32;
        if !ib.is_bounded() {
            let (Some(lo), Some(hi)) = (ia.lo().cloned(), ia.hi().cloned()) else { return type_bounds(ty) };
            if !wide_signed {
                return type_bounds(ty);
            }
            let z = constant::make_zero(elem);
            let neg = |x: &Expr| make::sub(constant::make_zero(x.ty()), x.clone());
            if self.prove(make::ge(lo.clone(), z.clone())) {
                return Interval::new(neg(&hi), hi);
            }
            if self.prove(make::le(hi.clone(), z)) {
                return Interval::new(lo.clone(), neg(&lo));
            }
            if ia.is_single_point() {
                let abs = make::cast(elem, Intrinsic::Abs.call(Type::uint(elem.bits(), 1), vec![lo]));
                return Interval::new(neg(&abs), abs);
            }
            return Interval::new(
                make_min_expr(neg(&hi), lo.clone()),
                loopir_simplify::interval::make_min_max_expr(BinOp::Max, &neg(&lo), &hi),
            );
        }
        let (Some(b0), Some(b1)) = (ib.lo().cloned(), ib.hi().cloned()) else { return type_bounds(ty) };
        let quot = |x: &Expr, d: &Expr| make::div(x.clone(), d.clone());
        if ib.is_single_point() || self.prove(make::eq(b0.clone(), b1.clone())) {
            if !self.div_cannot_overflow(ty, &ia, &ib) {
                return type_bounds(ty);
            }
            let b = b0;
            let e1 = ia.min.map(|x| quot(x, &b));
            let e2 = ia.max.map(|x| quot(x, &b));
            let z = constant::make_zero(elem);
            if elem.is_uint()
                || constant::is_positive_const(&b)
                || constant::is_const_zero(&b)
                || self.prove(make::ge(b.clone(), z.clone()))
            {
                return Interval { min: e1, max: e2 };
            }
            if constant::is_negative_const(&b) || self.prove(make::le(b.clone(), z.clone())) {
                return Interval { min: e2.flip_infinity(), max: e1.flip_infinity() };
            }
            if let (Bound::Finite(p), Bound::Finite(q)) = (&e1, &e2) {
                let pos = make::gt(b.clone(), z);
                return Interval::new(
                    make::select(pos.clone(), p.clone(), q.clone()),
                    make::select(pos, q.clone(), p.clone()),
                );
            }
            return type_bounds(ty);
        }
        let (Some(a0), Some(a1)) = (ia.lo().cloned(), ia.hi().cloned()) else { return type_bounds(ty) };
        let (s0, s1) = (self.sign_known(&b0), self.sign_known(&b1));
        let one_signed = matches!((s0, s1), (Some(x), Some(y)) if x == y);
        if !one_signed {
            if wide_signed {
                let neg = |x: &Expr| make::sub(constant::make_zero(x.ty()), x.clone());
                return hull(&[a0.clone(), a1.clone(), neg(&a0), neg(&a1)]);
            }
            if elem.is_uint() {
                return Interval::new(constant::make_zero(elem), a1);
            }
            return type_bounds(ty);
        }
        if !self.div_cannot_overflow(ty, &ia, &ib) {
            return type_bounds(ty);
        }
        hull(&[quot(&a0, &b0), quot(&a0, &b1), quot(&a1, &b0), quot(&a1, &b1)])
    }

    fn modulo(&mut self, ty: Type, ia: Interval, ib: Interval) -> Interval {
        let elem = ty.element_of();
        let z = constant::make_zero(elem);
        if elem.is_float() {
            let (Some(b0), Some(b1)) = (ib.lo().cloned(), ib.hi().cloned()) else {
                return Interval::everything();
            };
            if self.ctx.options().compat_float_mod {
                let neg_b0 = make::sub(z.clone(), b0);
                return Interval::new(
                    z,
                    loopir_simplify::interval::make_min_max_expr(BinOp::Max, &b1, &neg_b0),
                );
            }
            return Interval::new(
                make_min_expr(z.clone(), b0),
                loopir_simplify::interval::make_min_max_expr(BinOp::Max, &z, &b1),
            );
        }
        if !ib.is_bounded() {
            if let Some(lo) = ia.lo()
                && self.prove(make::ge(lo.clone(), z.clone()))
            {
                return Interval { min: Bound::Finite(z), max: ia.max.clone() };
            }
            return Interval { min: Bound::Finite(z), max: Bound::PosInf };
        }
        let (Some(b0), Some(b1)) = (ib.lo().cloned(), ib.hi().cloned()) else { return type_bounds(ty) };
        let one = constant::make_one(elem);
        if constant::is_positive_const(&b0) {
            return Interval::new(z, make::sub(b1, one));
        }
        if elem.is_uint() {
            let hi = make::select(make::eq(b1.clone(), z.clone()), z.clone(), make::sub(b1, one));
            return Interval::new(z, hi);
        }
        // The reference builds these two max nodes as they are (no canonical operand
        // order), and computation bounds prints a pure variable's end unsimplified.
        let m1 = constant::make_const(elem, -1);
        let inner = make::max(z.clone(), make::sub(b1, one));
        let hi = make::max(inner, make::sub(m1, b0));
        Interval::new(z, hi)
    }

    fn select(&mut self, e: &Expr, c: &Expr, t: &Expr, f: &Expr) -> Interval {
        // Halide analyses the values before the condition; the order matters for the
        // fresh names nested selects draw.
        let (ic, ia, ib) = if self.ctx.options().compat_conditions {
            let ia = self.bounds(t);
            let ib = self.bounds(f);
            (self.bounds(c), ia, ib)
        } else {
            (self.bounds(c), self.bounds(t), self.bounds(f))
        };
        if let Some(i) = self.shortcuts(e, &[(c, &ic), (t, &ia), (f, &ib)]) {
            return i;
        }
        self.select_intervals(&ic, &ia, &ib)
    }

    fn select_intervals(&mut self, ic: &Interval, ia: &Interval, ib: &Interval) -> Interval {
        let c_true = ic.is_single_point() && ic.lo().is_some_and(constant::is_const_true);
        let c_false = ic.is_single_point() && ic.lo().is_some_and(constant::is_const_false);
        if c_true {
            return ia.clone();
        }
        if c_false {
            return ib.clone();
        }
        let lo = self.select_end(End::Lo, ic, ia, ib);
        let hi = self.select_end(End::Hi, ic, ia, ib);
        Interval { min: lo, max: hi }
    }

    fn select_end(&mut self, end: End, ic: &Interval, ia: &Interval, ib: &Interval) -> Bound {
        let (a, b) = match end {
            End::Lo => (&ia.min, &ib.min),
            End::Hi => (&ia.max, &ib.max),
        };
        let (Bound::Finite(a), Bound::Finite(b)) = (a, b) else {
            return if end == End::Lo { Bound::NegInf } else { Bound::PosInf };
        };
        let combine = |x: &Expr, y: &Expr| match end {
            End::Lo => make_min_expr(x.clone(), y.clone()),
            End::Hi => loopir_simplify::interval::make_min_max_expr(BinOp::Max, x, y),
        };
        // Halide compares the two ends by identity only, so equal but separately built
        // ends still take the general path below (and draw its fresh names).
        let compat = self.ctx.options().compat_conditions;
        if a.same_as(b) || (!compat && equality::equal(a, b)) {
            return Bound::Finite(a.clone());
        }
        let (Some(s), Some(n)) = (ic.lo(), ic.hi()) else {
            return Bound::Finite(combine(a, b));
        };
        let trivial = |x: &Expr| constant::is_const(x);
        if ic.is_single_point() && !trivial(s) {
            return Bound::Finite(make::select(s.clone(), a.clone(), b.clone()));
        }
        let (s_triv, n_triv) = (constant::is_const_false(s), constant::is_const_true(n));
        if s_triv && n_triv {
            return Bound::Finite(combine(a, b));
        }
        // Name an operand end once (a fresh let) unless it is already a leaf.
        let mut lets: Vec<(Name, Expr)> = Vec::new();
        let mut named = |v: &Expr, ctx: &Ctx| -> Expr {
            if v.as_variable().is_some() || constant::is_const(v) {
                // Halide draws a name for a leaf too; its let is a trivial one the
                // simplifier substitutes, so the leaf is used directly.
                if compat {
                    let _ = ctx.fresh_t();
                }
                return v.clone();
            }
            let name = ctx.fresh_t();
            lets.push((name.clone(), v.clone()));
            loopir::Expr::var(v.ty(), name)
        };
        let body = if n_triv {
            let ta = named(a, self.ctx);
            combine(&make::select(s.clone(), ta.clone(), b.clone()), &ta)
        } else if s_triv {
            let tb = named(b, self.ctx);
            combine(&make::select(n.clone(), a.clone(), tb.clone()), &tb)
        } else {
            let ta = named(a, self.ctx);
            let tb = named(b, self.ctx);
            combine(&make::select(s.clone(), ta.clone(), tb.clone()), &make::select(n.clone(), ta, tb))
        };
        // Halide wraps the second name's let outermost.
        let wrapped = if compat {
            lets.into_iter().fold(body, |acc, (name, v)| make::let_in(name, v, acc))
        } else {
            lets.into_iter().rev().fold(body, |acc, (name, v)| make::let_in(name, v, acc))
        };
        Bound::Finite(wrapped)
    }

    fn let_expr(&mut self, name: &Name, value: &Expr, body: &Expr) -> Interval {
        let v = self.bounds(value);
        // An end that folds to an overflow is no bound at all; dropping it here also keeps
        // overflowing ends from growing through long let chains.
        let overflowed = |s: &mut Self, b: &Bound| {
            b.as_expr().is_some_and(|x| overflow::contains_overflow_marker(&s.simp.simplify(x)))
        };
        let v = Interval {
            min: if overflowed(self, &v.min) { Bound::NegInf } else { v.min.clone() },
            max: if overflowed(self, &v.max) { Bound::PosInf } else { v.max.clone() },
        };
        // Halide substitutes an end only when it is a constant as built (unsimplified),
        // and names both ends up front, whether or not they are used.
        let compat = self.ctx.options().compat_conditions;
        let const_end = |s: &mut Self, x: &Expr| {
            if compat {
                return constant::is_const(x).then(|| x.clone());
            }
            let y = s.simp.simplify(x);
            constant::is_const(&y).then_some(y)
        };
        let drawn = compat.then(|| {
            (self.ctx.fresh_keyed(&format!("{name}.min")), self.ctx.fresh_keyed(&format!("{name}.max")))
        });
        let mut min_name: Option<(Name, Expr)> = None;
        let mut max_name: Option<(Name, Expr)> = None;
        let ty = value.ty().element_of();
        let lo = match &v.min {
            Bound::Finite(x) => match const_end(self, x) {
                Some(c) => Bound::Finite(c),
                None => {
                    let n = match &drawn {
                        Some((n, _)) => n.clone(),
                        None => self.ctx.fresh_keyed(&format!("{name}.min")),
                    };
                    min_name = Some((n.clone(), x.clone()));
                    Bound::Finite(loopir::Expr::var(ty, n))
                }
            },
            other => other.clone(),
        };
        let hi = if v.is_single_point() {
            lo.clone()
        } else {
            match &v.max {
                Bound::Finite(x) => match const_end(self, x) {
                    Some(c) => Bound::Finite(c),
                    None => {
                        let n = match &drawn {
                            Some((_, n)) => n.clone(),
                            None => self.ctx.fresh_keyed(&format!("{name}.max")),
                        };
                        max_name = Some((n.clone(), x.clone()));
                        Bound::Finite(loopir::Expr::var(ty, n))
                    }
                },
                other => other.clone(),
            }
        };
        let token = self.scope.push(name.clone(), Interval { min: lo, max: hi });
        let r = self.bounds(body);
        self.scope.pop_token(token);
        let was_point = r.is_single_point();
        let wrap = |s: &Self, x: &Expr| {
            let mut out = x.clone();
            for (n, val) in [&max_name, &min_name].into_iter().flatten() {
                if s.ctx.uses_var(&out, n) {
                    out = make::let_in(n.clone(), val.clone(), out);
                }
            }
            out
        };
        let min = r.min.map(|x| wrap(self, x));
        let max = if was_point { min.clone() } else { r.max.map(|x| wrap(self, x)) };
        Interval { min, max }
    }

    fn call(&mut self, e: &Expr) -> Interval {
        let ty = e.ty();
        let ExprKind::Call { name, args, call_type, value_index } = e.kind() else { return type_bounds(ty) };
        let call_type = &loopir_simplify::pure_math::effective_call_type(name, *call_type, *value_index);
        let intrinsic = matches!(call_type, CallType::Intrinsic | CallType::PureIntrinsic);
        let known = e.as_intrinsic().map(|(i, _)| i);
        // 1. Intrinsics with an equivalent arithmetic form are analysed in that form.
        if let Some(k) = known
            && let Some(lowered) = self.lower_intrinsic(e, k, args)
        {
            let r = self.bounds(&lowered);
            if r.is_single_point_of(&lowered) {
                return Interval::point(e.clone());
            }
            return r;
        }
        // 2. Handles.
        if ty.is_handle() {
            return Interval::everything();
        }
        // 3. Pure calls whose arguments do not vary.
        let pure = matches!(call_type, CallType::PureExtern | CallType::PureIntrinsic | CallType::Image);
        let special = matches!(known, Some(Intrinsic::PromiseClamped | Intrinsic::UnsafePromiseClamped));
        if pure && !self.const_bound && !special {
            let mut points = Vec::with_capacity(args.len());
            let mut unchanged = true;
            for a in args {
                let i = self.bounds(a);
                if !i.is_single_point() {
                    break;
                }
                if let Some(p) = i.lo() {
                    unchanged &= p.same_as(a) || equality::equal(p, a);
                    points.push(p.clone());
                }
            }
            if points.len() == args.len() {
                if unchanged {
                    return Interval::point(e.clone());
                }
                return Interval::point(e.with_children(points));
            }
        }
        // 4. Specific rules.
        if intrinsic {
            let rule = known.and_then(|k| self.intrinsic_rule(e, k, args));
            if let Some(i) = rule.or_else(|| self.math_call(e, name, args)) {
                return i;
            }
            return type_bounds(ty);
        }
        match call_type {
            CallType::Halide => {
                let mut r = type_bounds(ty);
                if let Some((fb, computed)) = self.func_bounds.get_computed(name, *value_index) {
                    if computed {
                        // The ends are fact-free simplification results of another
                        // context; said so here, a simplifier leaves them as they are
                        // instead of walking them again (an end can be as long as the
                        // chain of Funcs before this one: B14's pyramid).
                        for end in fb.min.as_expr().into_iter().chain(fb.max.as_expr()) {
                            if !end.is_leaf() {
                                self.ctx.note_simplified(end);
                            }
                        }
                    }
                    if fb.has_lower_bound() {
                        r.min = fb.min.clone();
                    }
                    if fb.has_upper_bound() {
                        r.max = fb.max.clone();
                    }
                }
                r
            }
            CallType::PureExtern => self.math_call(e, name, args).unwrap_or_else(|| type_bounds(ty)),
            _ => type_bounds(ty),
        }
    }

    /// Rewrites an intrinsic into plain arithmetic with the same value, where one exists.
    fn lower_intrinsic(&mut self, e: &Expr, intrinsic: Intrinsic, args: &[Expr]) -> Option<Expr> {
        use Intrinsic as I;
        let ty = e.ty();
        match (intrinsic, args) {
            (I::ReturnSecond, [_, b]) => Some(b.clone()),
            (I::IfThenElse, [c, t, f]) => Some(make::select(c.clone(), t.clone(), f.clone())),
            (I::IfThenElse, [_, t]) => Some(t.clone()),
            (I::ShiftLeft, [a, k]) if !overflow::no_overflow_int(ty) && !constant::is_const_one(a) => {
                let k = constant::as_const_i128(k)?;
                if k < 0 || k >= ty.bits() as i128 {
                    return None;
                }
                Some(make::mul(a.clone(), constant::make_const(ty, 1i128 << k)))
            }
            (I::SaturatingCast, [x]) => {
                let from = x.ty().element_of();
                let to = ty.element_of();
                let mut v = x.clone();
                let (tmin, tmax) = (to.int_min()?, to.int_max()?);
                if from.is_float() {
                    v = make::max(v, constant::make_float(x.ty(), tmin as f64));
                    v = make::min(v, constant::make_float(x.ty(), tmax as f64));
                } else {
                    let (fmin, fmax) = (from.int_min()?, from.int_max()?);
                    if fmin < tmin {
                        v = make::max(v, constant::make_const(x.ty(), tmin));
                    }
                    if fmax > tmax {
                        v = make::min(v, constant::make_const(x.ty(), tmax));
                    }
                }
                Some(make::cast(ty, v))
            }
            (I::Absd, [a, b]) if ty.is_float() => {
                Some(I::Abs.call(ty, vec![make::sub(a.clone(), b.clone())]))
            }
            _ => None,
        }
    }

    fn intrinsic_rule(&mut self, e: &Expr, intrinsic: Intrinsic, args: &[Expr]) -> Option<Interval> {
        use Intrinsic as I;
        let ty = e.ty();
        let elem = ty.element_of();
        match (intrinsic, args) {
            (I::Likely | I::LikelyIfInnermost | I::MemoizeExpr, [x, ..]) => Some(self.bounds(x)),
            (I::Require, [_, value, ..]) => Some(self.bounds(value)),
            (I::PromiseClamped | I::UnsafePromiseClamped, [x, lo, hi]) => {
                let (ix, il, ih) = (self.bounds(x), self.bounds(lo), self.bounds(hi));
                if intrinsic == I::UnsafePromiseClamped
                    && ix.is_single_point_of(x)
                    && il.is_single_point_of(lo)
                    && ih.is_single_point_of(hi)
                {
                    return Some(Interval::point(e.clone()));
                }
                if intrinsic == I::PromiseClamped && ix.is_single_point() {
                    return Some(ix);
                }
                Some(Interval { min: make_max(&ix.min, &il.min), max: make_min(&ix.max, &ih.max) })
            }
            (I::Abs, [x]) => Some(self.abs(ty, x)),
            (I::Absd, [a, b]) if elem.is_int() || elem.is_uint() => {
                let (ia, ib) = (self.bounds(a), self.bounds(b));
                if let (Some(a0), Some(a1), Some(b0), Some(b1)) = (ia.lo(), ia.hi(), ib.lo(), ib.hi()) {
                    let d1 = I::Absd.call(ty, vec![a1.clone(), b0.clone()]);
                    let d2 = I::Absd.call(ty, vec![a0.clone(), b1.clone()]);
                    return Some(Interval::new(
                        constant::make_zero(elem),
                        loopir_simplify::interval::make_min_max_expr(BinOp::Max, &d1, &d2),
                    ));
                }
                Some(type_bounds(ty))
            }
            (I::Popcount | I::CountTrailingZeros, [x]) => Some(Interval::new(
                constant::make_zero(elem),
                constant::make_const(elem, x.ty().bits() as i128),
            )),
            (I::CountLeadingZeros, [x]) => {
                let ix = self.bounds(x);
                let bits = constant::make_const(elem, x.ty().bits() as i128);
                if let (Some(lo), Some(hi)) = (ix.lo(), ix.hi())
                    && (x.ty().is_uint()
                        || self.prove(make::ge(lo.clone(), constant::make_zero(x.ty().element_of()))))
                {
                    let clz = |v: &Expr| I::CountLeadingZeros.call(ty, vec![v.clone()]);
                    return Some(Interval::new(clz(hi), clz(lo)));
                }
                Some(Interval::new(constant::make_zero(elem), bits))
            }
            (I::ScatterGather, _) | (I::Mux, [_, ..]) => {
                let values = if intrinsic == I::Mux { &args[1..] } else { args };
                let mut acc = Interval::nothing();
                for v in values {
                    let i = self.bounds(v);
                    acc.include(&i);
                }
                Some(acc)
            }
            (I::BitwiseNot, [x]) if elem.is_int() || elem.is_uint() => {
                let ix = self.bounds(x);
                let not = |v: &Expr| I::BitwiseNot.call(ty, vec![v.clone()]);
                Some(Interval { min: ix.max.map(not).flip_infinity(), max: ix.min.map(not).flip_infinity() })
                    .map(|i| if i.is_bounded() { i } else { type_bounds(ty) })
            }
            (I::BitwiseAnd | I::BitwiseOr | I::BitwiseXor | I::ShiftLeft | I::ShiftRight, [a, b])
                if elem.is_int() || elem.is_uint() =>
            {
                let (ia, ib) = (self.bounds(a), self.bounds(b));
                if ia.is_single_point() && ib.is_single_point() {
                    let (Some(p), Some(q)) = (ia.lo(), ib.lo()) else { return None };
                    return Some(Interval::point(intrinsic.call(ty, vec![p.clone(), q.clone()])));
                }
                Some(self.bitwise(ty, intrinsic, &ia, &ib))
            }
            _ => None,
        }
    }

    fn nonneg(&mut self, b: &Bound, ty: Type) -> bool {
        ty.is_uint()
            || b.as_expr().is_some_and(|x| self.prove(make::ge(x.clone(), constant::make_zero(x.ty()))))
    }

    fn neg(&mut self, b: &Bound) -> bool {
        b.as_expr()
            .is_some_and(|x| x.ty().is_int() && self.prove(make::lt(x.clone(), constant::make_zero(x.ty()))))
    }

    fn bitwise(&mut self, ty: Type, intrinsic: Intrinsic, ia: &Interval, ib: &Interval) -> Interval {
        use Intrinsic as I;
        let elem = ty.element_of();
        let mut r = type_bounds(ty);
        let call = |n: Intrinsic, x: &Expr, y: &Expr| n.call(ty, vec![x.clone(), y.clone()]);
        match intrinsic {
            I::BitwiseAnd => {
                if let (Some(a1), Some(b1)) = (ia.hi(), ib.hi()) {
                    let (ap, bp) = (self.nonneg(&ia.min, elem), self.nonneg(&ib.min, elem));
                    if ap && bp {
                        return Interval::new(
                            constant::make_zero(elem),
                            make_min_expr(a1.clone(), b1.clone()),
                        );
                    } else if elem.is_int() && ap {
                        return Interval::new(constant::make_zero(elem), a1.clone());
                    } else if elem.is_int() && bp {
                        return Interval::new(constant::make_zero(elem), b1.clone());
                    } else if elem.is_int() {
                        r.max =
                            Bound::Finite(loopir_simplify::interval::make_min_max_expr(BinOp::Max, a1, b1));
                    }
                }
            }
            I::BitwiseOr => {
                if let (Some(a0), Some(b0)) = (ia.lo(), ib.lo()) {
                    r.min = Bound::Finite(if elem.is_int() {
                        make_min_expr(a0.clone(), b0.clone())
                    } else {
                        loopir_simplify::interval::make_min_max_expr(BinOp::Max, a0, b0)
                    });
                }
            }
            I::ShiftLeft if overflow::no_overflow_int(elem) => {
                // Halide's rule (overflow is undefined, `docs/reference/bounds.md` §1.5.11): the lower end uses the
                // smallest shift when it is proved to be a valid left or right shift, a
                // negative `a.lo` the largest shift, a non-negative `a.lo` gives 0; the
                // upper end only uses `b.hi` when it is proved to be a valid shift.
                let bits = |x: &Expr| constant::make_const(x.ty(), elem.bits() as i128);
                let neg_bits = |x: &Expr| constant::make_const(x.ty(), -(elem.bits() as i128));
                let zero = |x: &Expr| constant::make_zero(x.ty());
                let magnitude = |x: &Expr| make::sub(zero(x), x.clone());
                let valid_left = |s: &mut Self, x: &Expr| {
                    s.prove(make::and(make::ge(x.clone(), zero(x)), make::lt(x.clone(), bits(x))))
                };
                let valid_right = |s: &mut Self, x: &Expr| {
                    !x.ty().is_uint()
                        && s.prove(make::and(make::lt(x.clone(), zero(x)), make::gt(x.clone(), neg_bits(x))))
                };
                r.min = match (ia.lo(), ib.lo(), ib.hi()) {
                    (Some(a0), Some(b0), _) if valid_left(self, b0) => Bound::Finite(call(intrinsic, a0, b0)),
                    (Some(a0), Some(b0), _) if self.nonneg(&ia.min, elem) && valid_right(self, b0) => {
                        Bound::Finite(call(I::ShiftRight, a0, &magnitude(b0)))
                    }
                    (Some(a0), _, Some(b1)) if a0.ty().is_int() && self.neg(&ia.min) => {
                        if !b1.ty().is_uint() && self.prove(make::le(b1.clone(), zero(b1))) {
                            Bound::Finite(a0.clone())
                        } else {
                            Bound::Finite(make_min_expr(a0.clone(), call(intrinsic, a0, b1)))
                        }
                    }
                    (Some(_), _, _) if self.nonneg(&ia.min, elem) => Bound::Finite(constant::make_zero(elem)),
                    _ => Bound::NegInf,
                };
                r.max = match (ia.hi(), ib.hi()) {
                    (Some(a1), Some(b1)) if valid_left(self, b1) => Bound::Finite(call(intrinsic, a1, b1)),
                    (Some(a1), Some(b1)) if valid_right(self, b1) => {
                        Bound::Finite(call(I::ShiftRight, a1, &magnitude(b1)))
                    }
                    _ => Bound::PosInf,
                };
            }
            I::ShiftRight => {
                let bits = constant::make_const(ib.lo().map_or(elem, |x| x.ty()), elem.bits() as i128);
                let in_range = match (ib.lo(), ib.hi()) {
                    (Some(b0), Some(b1)) => {
                        let ok_lo = self.prove(make::ge(b0.clone(), constant::make_zero(b0.ty())));
                        ok_lo && self.prove(make::lt(b1.clone(), bits))
                    }
                    _ => false,
                };
                if in_range && let (Some(b0), Some(b1)) = (ib.lo(), ib.hi()) {
                    // floor(a / 2^b): increasing in a; in b decreasing for a >= 0, increasing for a < 0.
                    if let Some(a0) = ia.lo() {
                        r.min = Bound::Finite(if self.nonneg(&ia.min, elem) {
                            call(intrinsic, a0, b1)
                        } else if self.neg(&ia.min) {
                            call(intrinsic, a0, b0)
                        } else {
                            make_min_expr(call(intrinsic, a0, b0), call(intrinsic, a0, b1))
                        });
                    }
                    if let Some(a1) = ia.hi() {
                        r.max = Bound::Finite(if self.nonneg(&ia.max, elem) {
                            call(intrinsic, a1, b0)
                        } else if self.neg(&ia.max) {
                            call(intrinsic, a1, b1)
                        } else {
                            loopir_simplify::interval::make_min_max_expr(
                                BinOp::Max,
                                &call(intrinsic, a1, b0),
                                &call(intrinsic, a1, b1),
                            )
                        });
                    }
                }
            }
            _ => {}
        }
        r
    }

    fn abs(&mut self, ty: Type, x: &Expr) -> Interval {
        let ix = self.bounds(x);
        let elem = ty.element_of();
        let xt = x.ty().element_of();
        let z = constant::make_zero(xt);
        let neg = |v: &Expr| make::sub(constant::make_zero(v.ty()), v.clone());
        let absf = |v: &Expr| Intrinsic::Abs.call(elem, vec![v.clone()]);
        if let (Some(lo), Some(hi)) = (ix.lo(), ix.hi()) {
            if ix.is_single_point() {
                return Interval::point(absf(lo));
            }
            let low = loopir_simplify::interval::make_min_max_expr(
                BinOp::Max,
                lo,
                &neg(&make_min_expr(z.clone(), hi.clone())),
            );
            let high = if xt.is_int() && xt.bits() >= 32 {
                make::cast(elem, loopir_simplify::interval::make_min_max_expr(BinOp::Max, &neg(lo), hi))
            } else {
                loopir_simplify::interval::make_min_max_expr(BinOp::Max, &absf(lo), &absf(hi))
            };
            return Interval::new(make::cast(elem, low), high);
        }
        let low = match (ix.lo(), ix.hi()) {
            (Some(lo), _) => loopir_simplify::interval::make_min_max_expr(BinOp::Max, &z, lo),
            (None, Some(hi)) => neg(&make_min_expr(z.clone(), hi.clone())),
            _ => z,
        };
        Interval { min: Bound::Finite(make::cast(elem, low)), max: Bound::PosInf }
    }

    fn math_call(&mut self, _e: &Expr, name: &str, args: &[Expr]) -> Option<Interval> {
        // The reference's monotone one-argument functions: the `round` intrinsic and these
        // math functions at 32 or 64 bits (not `trunc`, not 16-bit ones).
        let monotone = ["sqrt", "floor", "ceil", "exp", "log"];
        let is_monotone = name == Intrinsic::Round.name()
            || name
                .strip_suffix("_f32")
                .or_else(|| name.strip_suffix("_f64"))
                .is_some_and(|base| monotone.contains(&base));
        if !is_monotone || !_e.ty().is_float() {
            return None;
        }
        let [x] = args else { return None };
        let ix = self.bounds(x);
        let (lo, hi) = (ix.lo()?, ix.hi()?);
        let call_type = match _e.kind() {
            ExprKind::Call { call_type, .. } => *call_type,
            _ => CallType::PureExtern,
        };
        let f = |v: &Expr| Expr::call(x.ty().element_of(), name, vec![v.clone()], call_type);
        Some(Interval::new(f(lo), f(hi)))
    }
}

fn make_min_expr(a: Expr, b: Expr) -> Expr {
    loopir_simplify::interval::make_min_max_expr(BinOp::Min, &a, &b)
}

/// `[min of all, max of all]` built with the min/max peepholes.
fn hull(es: &[Expr]) -> Interval {
    let mut r = Interval::nothing();
    for e in es {
        r.include_expr(e);
    }
    r
}

/// Whether a constant (after simplification) is representable in `to`.
fn fits_in(c: &Expr, to: Type) -> bool {
    match constant::const_value(c) {
        Some(Const::Int(v)) => {
            to.is_float()
                || (to.int_min().is_some_and(|m| v as i128 >= m)
                    && to.int_max().is_some_and(|m| v as i128 <= m))
        }
        Some(Const::UInt(v)) => to.is_float() || to.int_max().is_some_and(|m| v as i128 <= m),
        Some(Const::Float(f)) => {
            if to.is_float() {
                return true;
            }
            f.is_finite()
                && f.fract() == 0.0
                && to.int_min().is_some_and(|m| f >= m as f64)
                && to.int_max().is_some_and(|m| f <= m as f64)
        }
        None => false,
    }
}

/// The exact range of an expression over constants and already-known ends, computed
/// without wrapping (i128-backed i64 intervals): None when unknown. Memoised per node
/// (the answer depends on the expression alone).
fn exact_range(
    e: &Expr,
    memo: &mut AddressMap<*const ExprNode, (Expr, Option<loopir_simplify::ConstantInterval>)>,
) -> Option<loopir_simplify::ConstantInterval> {
    use loopir_simplify::ConstantInterval as CI;
    if let Some((_, r)) = memo.get(&e.as_ptr()) {
        return *r;
    }
    let r = with_stack(|| match e.kind() {
        ExprKind::IntImm(v) => Some(CI::single_point(*v)),
        ExprKind::UIntImm(v) => i64::try_from(*v).ok().map(CI::single_point),
        ExprKind::Broadcast { value, .. } => exact_range(value, memo),
        ExprKind::Cast(a) => {
            let r = exact_range(a, memo)?;
            let range = CI::bounds_of_type(e.ty().element_of());
            range.contains_interval(&r).then_some(r)
        }
        ExprKind::Binary(op, a, b) => {
            let (x, y) = (exact_range(a, memo)?, exact_range(b, memo)?);
            let r = match op {
                BinOp::Add => x + y,
                BinOp::Sub => x - y,
                BinOp::Mul => x * y,
                BinOp::Div => x / y,
                BinOp::Mod => x % y,
                BinOp::Min => x.min_of(&y),
                BinOp::Max => x.max_of(&y),
                _ => return None,
            };
            r.is_bounded().then_some(r)
        }
        ExprKind::Select(_, t, f) => Some(exact_range(t, memo)?.union(&exact_range(f, memo)?)),
        _ => None,
    });
    memo.insert(e.as_ptr(), (e.clone(), r));
    r
}

/// A scalar node of `e`'s kind over scalar operands (the point shortcut: vector operands
/// have scalar points).
fn scalarize(e: &Expr, points: Vec<Expr>) -> Expr {
    let ty = e.ty();
    let scalar_ty = match e.kind() {
        ExprKind::Binary(op, ..) if op.is_comparison() => Type::bool(1),
        ExprKind::Select(..) => points.get(1).map_or(ty.element_of(), |p| p.ty()),
        ExprKind::Binary(..) | ExprKind::Not(_) => points.first().map_or(ty.element_of(), |p| p.ty()),
        _ => ty.element_of(),
    };
    let rebuilt = e.with_children(points);
    let kind_clone = match rebuilt.kind() {
        ExprKind::Binary(op, a, b) => ExprKind::Binary(*op, a.clone(), b.clone()),
        ExprKind::Not(a) => ExprKind::Not(a.clone()),
        ExprKind::Cast(a) => ExprKind::Cast(a.clone()),
        ExprKind::Select(c, t, f) => ExprKind::Select(c.clone(), t.clone(), f.clone()),
        _ => return rebuilt,
    };
    if rebuilt.ty() == scalar_ty { rebuilt } else { Expr::from_node_unchecked(scalar_ty, kind_clone) }
}

/// Whether constant-folding `e` meets an overflow (`docs/reference/bounds.md` §1.5, crate rule 4): every
/// subexpression whose operands are constants (after folding) is folded by the
/// simplifier, bottom-up over the DAG, and an overflow marker anywhere answers yes.
/// Only constants are folded, not the whole end: full simplification would also
/// apply every rewrite rule, which on long chains costs far more than the walk.
pub(crate) fn folds_to_overflow(simp: &mut Simplifier<'_, '_, '_>, e: &Expr) -> bool {
    let mut folded: AddressMap<*const ExprNode, Option<Expr>> = Default::default();
    let mut stack: Vec<(Expr, bool)> = vec![(e.clone(), false)];
    while let Some((n, expanded)) = stack.pop() {
        if folded.contains_key(&n.as_ptr()) {
            continue;
        }
        if overflow::is_overflow_marker(&n) {
            return true;
        }
        let children = n.children();
        if children.is_empty() {
            let c = constant::is_const(&n).then(|| n.clone());
            folded.insert(n.as_ptr(), c);
            continue;
        }
        if !expanded {
            stack.push((n.clone(), true));
            stack.extend(children.into_iter().map(|c| (c.clone(), false)));
            continue;
        }
        let consts: Option<Vec<Expr>> =
            children.iter().map(|c| folded.get(&c.as_ptr()).cloned().flatten()).collect();
        let result = match consts {
            Some(cs) if !matches!(n.kind(), ExprKind::Let { .. }) => {
                let y = simp.simplify(&n.with_children(cs));
                if overflow::contains_overflow_marker(&y) {
                    return true;
                }
                constant::is_const(&y).then_some(y)
            }
            _ => None,
        };
        folded.insert(n.as_ptr(), result);
    }
    false
}

#[cfg(test)]
mod tests;
