//! A memoised expression simplifier producing Halide's canonical forms (`docs/reference/bounds.md` §1.4).
//!
//! The simplifier rewrites bottom-up. Each simplified node carries a
//! [`ConstantInterval`] of the values it can take (from constants, the ranges of
//! variables in the caller's scope, and let values), which decides comparisons and
//! absorbs min/max operands. Rewrite rules live in [`rules`] and read like the algebra
//! they implement; constant folding is in [`fold`]; proofs in [`prove`].
//!
//! Work is memoised per node identity (and per let-binding context), so simplifying a DAG
//! costs O(DAG size) rule applications; divisions and remainders are memoised by structure
//! too (see `ByStructure`). Lets whose values are constants, variables or a
//! variable plus a constant are substituted lazily (through a binding table rather than
//! by rewriting the body), so let chains stay linear.

pub mod fold;
mod pattern;
pub mod prove;
pub mod rules;
mod tables;

use crate::overflow;
use loopir::address_map::{AddressMap, AddressSet};
use loopir::constant;
use loopir::equality;
use loopir::hash;
use loopir::make;
use loopir::stack::with_stack;
use loopir::{CallType, Expr, ExprAddress, ExprKind, ExprNode, Intrinsic, Name, Type};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::constant_interval::ConstantInterval;
use crate::ctx::Ctx;
use crate::interval::{Bound, Interval};
use crate::scope::Scope;
use loopir::constant::Const;

pub use prove::{can_prove, prove_equal};

/// Simplifies `e`, using the constant ends of the intervals in `bounds` as facts about
/// the variables they bind.
pub fn simplify(ctx: &Ctx, e: &Expr, bounds: &Scope<'_, Interval>) -> Expr {
    Simplifier::new(ctx, bounds).simplify(e)
}

/// Simplifies `e` with no facts about its variables.
pub fn simplify_expr(ctx: &Ctx, e: &Expr) -> Expr {
    Simplifier::without_bounds(ctx).simplify(e)
}

/// Simplifies the finite ends of an interval.
pub fn simplify_interval(ctx: &Ctx, i: &Interval, bounds: &Scope<'_, Interval>) -> Interval {
    let mut s = Simplifier::new(ctx, bounds);
    Interval { min: i.min.map(|e| s.simplify(e)), max: i.max.map(|e| s.simplify(e)) }
}

/// Halide's `should_commute(a, b)`: whether the operands of a commutative node swap, so
/// that the node kind that ranks higher in Halide's order of IR nodes comes first and
/// variables sort by name.
pub(crate) fn should_commute(a: &Expr, b: &Expr) -> bool {
    let (ra, rb) = (a.node_type_rank(), b.node_type_rank());
    if ra != rb {
        return ra < rb;
    }
    match (a.kind(), b.kind()) {
        (ExprKind::Variable(x), ExprKind::Variable(y)) => x.as_bytes() > y.as_bytes(),
        _ => false,
    }
}

/// Whether a binary node with operands `a` and `b` pairs a float with a non-float: text
/// the reference never prints (its IR is typed), which the parser keeps as written. The
/// simplifier leaves such a node as it is, and its rules do not look inside one.
pub(crate) fn operands_differ_in_kind(a: &Expr, b: &Expr) -> bool {
    a.ty().is_float() != b.ty().is_float()
}

/// How a variable is known inside the expression being simplified.
#[derive(Clone)]
enum LetBinding {
    /// Replaced by this (already simplified) expression.
    Subst(Expr),
    /// Kept; its values lie in this interval.
    Range(ConstantInterval),
}

type MemoKey = (*const ExprNode, u64);

/// Simplifications found by the structure of their input rather than its address.
///
/// Halide's lowering writes the same division chain out again wherever it is used: a
/// pyramid's level `k` is `((w + 1)/2 + 1)/2 …` nested `k` deep, repeated in the clamp of
/// every call site of the levels after it, each copy a tree of its own. A memo keyed by
/// address simplified every copy from scratch, and division is the simplifier's costliest
/// node (its rules build sums and quotients that go through the rules again), so a
/// pyramid of `L` levels paid about 23k instructions a level for Θ(L²) levels. Keyed by
/// structural hash (confirmed by [`equality::equal`]), each distinct chain is simplified once and
/// a copy costs a hash and a comparison. Only divisions and remainders are keyed this way:
/// hashing every node would cost more than it saves on the workloads without such chains.
///
/// Entries are keyed by the input's structural hash and the let-binding epoch it was
/// simplified in (within one epoch, equal inputs simplify equally).
#[derive(Default)]
pub(crate) struct ByStructure {
    entries: FxHashMap<(u64, u64), Vec<(Expr, Expr)>>,
}

impl ByStructure {
    /// The result recorded for an expression equal to `e` (whose structural hash is
    /// `hash`) in `epoch`.
    pub(crate) fn get(&self, hash: u64, epoch: u64, e: &Expr) -> Option<Expr> {
        self.entries.get(&(hash, epoch))?.iter().find(|(x, _)| equality::equal(x, e)).map(|(_, r)| r.clone())
    }

    /// Records `r` as the result for `e` (whose structural hash is `hash`) in `epoch`.
    pub(crate) fn insert(&mut self, hash: u64, epoch: u64, e: &Expr, r: &Expr) {
        self.entries.entry((hash, epoch)).or_default().push((e.clone(), r.clone()));
    }
}

/// Whether `e` is simplified through [`ByStructure`].
fn keyed_by_structure(e: &Expr) -> bool {
    matches!(e.kind(), ExprKind::Binary(loopir::BinOp::Div | loopir::BinOp::Mod, ..))
}

/// The simplifier's state for one batch of expressions sharing one scope.
pub struct Simplifier<'c, 's, 'p> {
    ctx: &'c Ctx,
    bounds: Option<&'s Scope<'p, Interval>>,
    lets: FxHashMap<Name, Vec<LetBinding>>,
    /// The current let-binding context; memo entries are valid only within it.
    epoch: u64,
    next_epoch: u64,
    memo: AddressMap<MemoKey, (Expr, Expr)>,
    /// Divisions and remainders simplified by this simplifier, by structure.
    by_structure: ByStructure,
    info: AddressMap<MemoKey, (Expr, ConstantInterval)>,
    /// Whether a `let` simplified outside any other let left its body's ranges in
    /// `info`: from then on this simplifier knows more than a fresh one, so it neither
    /// reads nor writes the context's fact-free caches.
    let_info: bool,
    /// The names mentioned in the last result of [`Self::visit_let`] that collected them
    /// (see [`ChainMentions`]).
    chain_mentions: Option<ChainMentions>,
}

/// The variable names mentioned anywhere in a let's simplified result, handed to the let
/// around it.
///
/// Whether a let is kept depends on whether its simplified body uses its name. Past
/// [`loopir::free_vars::MAX_TRACKED_FREE_VARS`] names a body's free variables are not
/// tracked and the question is answered by searching the body for the name. CSE leaves
/// box ends as chains of lets whose innermost body names every one of them, so searching
/// anew at each let of a chain costs the square of its length (thousands of lets for a
/// deep `select`). Instead the names are collected once, where the chain first needs
/// them, and handed outwards: each let adds the names of its value and passes the set on.
/// Answers are those of the search (a name bound inside the body counts as used), and
/// are read only where a search would have been made.
struct ChainMentions {
    /// The result the names are those of, by address, and a pin on that address (so
    /// that no other node can take it, while the result still counts as unshared).
    result: (*const ExprNode, ExprAddress),
    names: FxHashSet<Name>,
    /// Nodes already searched, so that each node of the chain is searched once however
    /// many values share it. Read only while the result is alive, and with it every
    /// node below it.
    searched: AddressSet<*const ExprNode>,
}

impl ChainMentions {
    /// The names mentioned in `e`.
    fn of(ctx: &Ctx, e: &Expr) -> ChainMentions {
        let mut m = ChainMentions {
            result: (e.as_ptr(), e.address()),
            names: FxHashSet::default(),
            searched: AddressSet::default(),
        };
        m.add(ctx, e);
        m
    }

    /// Whether these are the names of `e`.
    fn are_of(&self, e: &Expr) -> bool {
        self.result.0 == e.as_ptr()
    }

    /// Adds the names mentioned in `e`, searching only the nodes not searched before.
    fn add(&mut self, ctx: &Ctx, e: &Expr) {
        let mut walked = 0;
        let mut stack = vec![e.clone()];
        while let Some(n) = stack.pop() {
            walked += 1;
            if let Some(v) = n.as_variable() {
                self.names.insert(v.clone());
            } else if !n.is_leaf() && self.searched.insert(n.as_ptr()) {
                stack.extend(n.children().into_iter().cloned());
            }
        }
        ctx.count(|s| s.name_search_nodes += walked);
    }
}

impl<'c, 's, 'p> Simplifier<'c, 's, 'p> {
    /// A simplifier over the variable ranges of `bounds`.
    pub fn new(ctx: &'c Ctx, bounds: &'s Scope<'p, Interval>) -> Self {
        Simplifier {
            ctx,
            bounds: Some(bounds),
            lets: FxHashMap::default(),
            epoch: 0,
            next_epoch: 1,
            memo: Default::default(),
            by_structure: Default::default(),
            info: Default::default(),
            let_info: false,
            chain_mentions: None,
        }
    }

    /// A simplifier with no facts about variables.
    pub fn without_bounds(ctx: &'c Ctx) -> Simplifier<'c, 'static, 'static> {
        Simplifier {
            ctx,
            bounds: None,
            lets: FxHashMap::default(),
            epoch: 0,
            next_epoch: 1,
            memo: Default::default(),
            by_structure: Default::default(),
            info: Default::default(),
            let_info: false,
            chain_mentions: None,
        }
    }

    /// The context.
    pub fn ctx(&self) -> &'c Ctx {
        self.ctx
    }

    /// Simplifies one expression.
    pub fn simplify(&mut self, e: &Expr) -> Expr {
        // Leaves are cheaper to simplify (a constant is itself, a variable one lookup)
        // than to memoise; keeping them out keeps the tables small.
        if e.is_leaf() {
            self.ctx.count(|s| s.simplify_visits += 1);
            return self.visit(e);
        }
        let key = (e.as_ptr(), self.epoch);
        if let Some((_, r)) = self.memo.get(&key) {
            return r.clone();
        }
        // Without facts about variables and outside any let, simplification depends on
        // the expression alone, so a result of another fact-free simplifier of this
        // context is a fixed point here too.
        let fact_free = self.fact_free();
        if fact_free && self.ctx.is_simplified(e) {
            return e.clone();
        }
        let _hashes = self.ctx.hash_scope();
        let hash = if keyed_by_structure(e) { hash::installed_hash(e) } else { None };
        if let Some(h) = hash {
            let found = if fact_free {
                self.ctx.simplified_like(h, e)
            } else {
                self.by_structure.get(h, self.epoch, e)
            };
            if let Some(r) = found {
                if e.is_shared() {
                    self.memo.insert(key, (e.clone(), r.clone()));
                }
                return r;
            }
        }
        self.ctx.count(|s| s.simplify_visits += 1);
        let draws = self.ctx.draws();
        let r = with_stack(|| self.visit(e));
        // A result that drew fresh names or tags is not reused for a copy, which would
        // draw its own.
        if let Some(h) = hash
            && self.ctx.draws() == draws
        {
            if fact_free && self.fact_free() {
                self.ctx.note_simplified_like(h, e, &r);
            } else if !fact_free {
                self.by_structure.insert(h, self.epoch, e, &r);
            }
        }
        // (A leaf is answered before the table is consulted.)
        if fact_free && self.fact_free() && !r.is_leaf() {
            self.ctx.note_simplified(&r);
        }
        // A node with one handle is reached once, through its one parent: a memo entry
        // would only keep it (and its result) alive until the simplifier is dropped. Kept
        // anyway if its simplification drew a tag, which a second one would draw anew.
        if e.is_shared() || self.ctx.draws() != draws {
            self.memo.insert(key, (e.clone(), r.clone()));
            // A simplified node is its own fixed point.
            self.memo.insert((r.as_ptr(), self.epoch), (r.clone(), r.clone()));
        }
        r
    }

    fn visit(&mut self, e: &Expr) -> Expr {
        match e.kind() {
            ExprKind::IntImm(_) | ExprKind::UIntImm(_) | ExprKind::FloatImm(_) | ExprKind::StringImm(_) => {
                e.clone()
            }
            ExprKind::Variable(n) => match self.lets.get(n).and_then(|s| s.last()) {
                Some(LetBinding::Subst(r)) => r.clone(),
                _ => e.clone(),
            },
            ExprKind::Cast(a) => {
                let a = self.simplify(a);
                self.cast(e.ty(), a)
            }
            ExprKind::Reinterpret(a) => {
                let na = self.simplify(a);
                if na.same_as(a) { e.clone() } else { e.with_children(vec![na]) }
            }
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (self.simplify(a), self.simplify(b));
                self.binary(*op, a, b)
            }
            ExprKind::Not(a) => {
                let a = self.simplify(a);
                self.not(a)
            }
            ExprKind::Select(c, t, f) => {
                let (c, t, f) = (self.simplify(c), self.simplify(t), self.simplify(f));
                self.select(c, t, f)
            }
            ExprKind::Let { name, value, body } => self.visit_let(name, value, body),
            ExprKind::Call { args, call_type, .. } => {
                let new_args: Vec<Expr> = args.iter().map(|a| self.simplify(a)).collect();
                let changed = new_args.iter().zip(args).any(|(n, o)| !n.same_as(o));
                let rebuilt = if changed { e.with_children(new_args) } else { e.clone() };
                let r = if matches!(call_type, CallType::Intrinsic | CallType::PureIntrinsic) {
                    self.intrinsic(&rebuilt).unwrap_or(rebuilt)
                } else {
                    rebuilt
                };
                crate::pure_math::fold_call(&r).unwrap_or(r)
            }
            ExprKind::Broadcast { value, lanes } => {
                let v = self.simplify(value);
                if overflow::is_overflow_marker(&v) {
                    // As the reference: a broadcast marker is a fresh vector marker.
                    return overflow::overflow_marker(e.ty(), self.ctx.overflow_tag());
                }
                if v.same_as(value) {
                    e.clone()
                } else {
                    Expr::from_node_unchecked(e.ty(), ExprKind::Broadcast { value: v, lanes: *lanes })
                }
            }
            ExprKind::Load { .. }
            | ExprKind::Ramp { .. }
            | ExprKind::Shuffle { .. }
            | ExprKind::VectorReduce { .. } => e.map_children(|c| self.simplify(c)),
        }
    }

    fn visit_let(&mut self, name: &Name, value: &Expr, body: &Expr) -> Expr {
        let v = self.simplify(value);
        // Peel operations with a constant or variable operand off the value, as Halide
        // does: what remains (if anything) is bound to `<name>.s`, and `name` is replaced
        // by the peeled operations applied to it.
        let (remainder, rebuild) = peel(&v);
        let (binding, inner) = match &remainder {
            None => (LetBinding::Subst(v.clone()), None),
            Some(r) if !r.same_as(&v) => {
                let inner_name = loopir::name(&format!("{name}.s"));
                let inner_var = loopir::Expr::var(r.ty(), inner_name.clone());
                (LetBinding::Subst(self.simplify(&rebuild(inner_var))), Some((inner_name, r.clone())))
            }
            Some(_) => (LetBinding::Range(self.constant_bounds(&v)), None),
        };
        if let Some((n, r)) = &inner {
            let ci = self.constant_bounds(r);
            self.lets.entry(n.clone()).or_default().push(LetBinding::Range(ci));
        }
        let substituted = matches!(binding, LetBinding::Subst(_));
        self.lets.entry(name.clone()).or_default().push(binding);
        let saved = self.epoch;
        self.epoch = self.next_epoch;
        self.next_epoch += 1;
        let b = self.simplify(body);
        let body_info = self.constant_bounds(&b);
        self.epoch = saved;
        for n in std::iter::once(name).chain(inner.as_ref().map(|(n, _)| n)) {
            if let Some(stack) = self.lets.get_mut(n) {
                stack.pop();
                if stack.is_empty() {
                    self.lets.remove(n);
                }
            }
        }
        // The names the body mentions, if the let inside collected them (the body is
        // that let's result).
        let mut mentions = self.chain_mentions.take().filter(|m| m.are_of(&b));
        let ctx = self.ctx;
        let mut uses = |n: &str| match ctx.free_vars(&b) {
            Some(fv) => fv.binary_search_by(|x| x.as_ref().cmp(n)).is_ok(),
            None => mentions.get_or_insert_with(|| ChainMentions::of(ctx, &b)).names.contains(n),
        };
        let kept = if let Some((n, r)) = inner {
            // Like Halide, `let t = v in t` is kept (no rule collapses it).
            uses(&n).then_some((n, r))
        } else if substituted || !uses(name) {
            None
        } else {
            Some((name.clone(), v))
        };
        let result = match kept {
            Some((n, value)) => {
                if let Some(m) = &mut mentions {
                    m.add(ctx, &value);
                }
                make::let_in(n, value, b)
            }
            None => b,
        };
        self.chain_mentions =
            mentions.map(|m| ChainMentions { result: (result.as_ptr(), result.address()), ..m });
        self.let_info |= self.epoch == 0;
        self.info.insert((result.as_ptr(), self.epoch), (result.clone(), body_info));
        result
    }

    /// The values a simplified expression can take, as far as constants and variable
    /// ranges show.
    pub fn constant_bounds(&mut self, e: &Expr) -> ConstantInterval {
        let ty = e.ty();
        if !(ty.is_int() || ty.is_uint()) {
            return ConstantInterval::everything();
        }
        // A constant or variable is answered faster than looked up (at most two name
        // lookups), and keeping leaves out keeps the table small.
        if e.is_leaf() {
            return self.compute_bounds(e).intersect(&type_range(ty));
        }
        let key = (e.as_ptr(), self.epoch);
        if let Some((_, ci)) = self.info.get(&key) {
            return *ci;
        }
        // Fact-free ranges are shared through the context for the same reason as
        // fact-free simplifications (see `simplify`).
        let fact_free = self.fact_free();
        if fact_free && let Some(ci) = self.ctx.shared_constant_bounds(e) {
            self.info.insert(key, (e.clone(), ci));
            return ci;
        }
        let ci = with_stack(|| self.compute_bounds(e)).intersect(&type_range(ty));
        self.info.insert(key, (e.clone(), ci));
        if fact_free && self.fact_free() {
            self.ctx.note_constant_bounds(e, ci);
        }
        ci
    }

    /// Whether this simplifier is in the state of a fresh fact-free one: no variable
    /// ranges, outside any let, and no let ranges left in `info`.
    fn fact_free(&self) -> bool {
        self.bounds.is_none() && self.epoch == 0 && self.lets.is_empty() && !self.let_info
    }

    fn compute_bounds(&mut self, e: &Expr) -> ConstantInterval {
        use loopir::BinOp as B;
        let ty = e.ty();
        let everything = ConstantInterval::everything();
        match e.kind() {
            ExprKind::IntImm(v) => ConstantInterval::single_point(*v),
            ExprKind::UIntImm(v) => i64::try_from(*v).map_or(everything, ConstantInterval::single_point),
            ExprKind::Variable(n) => self.var_bounds(n),
            ExprKind::Broadcast { value, .. } => self.constant_bounds(value),
            ExprKind::Cast(a) => {
                if a.ty().is_int() || a.ty().is_uint() {
                    self.constant_bounds(a).cast_to(ty)
                } else {
                    everything
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.constant_bounds(a), self.constant_bounds(b));
                let r = match op {
                    B::Add => x + y,
                    B::Sub => x - y,
                    B::Mul => x * y,
                    B::Div => x / y,
                    B::Mod => x % y,
                    B::Min => x.min_of(&y),
                    B::Max => x.max_of(&y),
                    _ => return ConstantInterval::bounded(0, 1),
                };
                // No-overflow types keep every known end (the value is in range anyway);
                // wrapping types may land anywhere in their range when an end overflows.
                if overflow::no_overflow_int(ty) { r } else { r.cast_to(ty) }
            }
            ExprKind::Not(_) => ConstantInterval::bounded(0, 1),
            ExprKind::Select(_, t, f) => {
                let (x, y) = (self.constant_bounds(t), self.constant_bounds(f));
                x.union(&y)
            }
            ExprKind::Ramp { base, stride, lanes } => {
                let (b, s) = (self.constant_bounds(base), self.constant_bounds(stride));
                (b + s * ConstantInterval::bounded(0, *lanes as i64 - 1)).cast_to(ty)
            }
            ExprKind::Call { .. } => match e.as_intrinsic() {
                Some((
                    Intrinsic::Likely
                    | Intrinsic::LikelyIfInnermost
                    | Intrinsic::PromiseClamped
                    | Intrinsic::UnsafePromiseClamped,
                    [x, ..],
                )) => self.constant_bounds(x),
                Some((Intrinsic::Abs, [x])) => self.constant_bounds(x).abs().cast_to(ty),
                Some((Intrinsic::BitwiseAnd, [x, y])) => {
                    let (p, q) = (self.constant_bounds(x), self.constant_bounds(y));
                    match (p.is_non_negative(), q.is_non_negative()) {
                        (true, true) => {
                            ConstantInterval { min: Some(0), max: p.max.zip(q.max).map(|(u, v)| u.min(v)) }
                        }
                        (true, false) => ConstantInterval { min: Some(0), max: p.max },
                        (false, true) => ConstantInterval { min: Some(0), max: q.max },
                        _ => everything,
                    }
                }
                _ => everything,
            },
            _ => everything,
        }
    }

    fn var_bounds(&self, name: &Name) -> ConstantInterval {
        if let Some(b) = self.lets.get(name).and_then(|s| s.last()) {
            return match b {
                LetBinding::Range(ci) => *ci,
                LetBinding::Subst(_) => ConstantInterval::everything(),
            };
        }
        match self.bounds.and_then(|b| b.find(name)) {
            Some(i) => {
                let end = |b: &Bound| {
                    b.as_expr().and_then(constant::as_const_i128).and_then(|v| i64::try_from(v).ok())
                };
                if i.is_empty() {
                    ConstantInterval::everything()
                } else {
                    ConstantInterval { min: end(&i.min), max: end(&i.max) }
                }
            }
            None => ConstantInterval::everything(),
        }
    }

    /// Folds a constant into an immediate of `ty`, or an overflow marker.
    fn folded(&self, ty: Type, f: fold::Folded) -> Expr {
        match f {
            fold::Folded::Value(c) => constant::make_const_value(ty, c),
            fold::Folded::Overflow => overflow::overflow_marker(ty, self.ctx.overflow_tag()),
        }
    }

    fn cast(&mut self, ty: Type, a: Expr) -> Expr {
        // The reference casts an overflow marker to a fresh marker of the new type.
        if overflow::is_overflow_marker(&a) {
            return overflow::overflow_marker(ty, self.ctx.overflow_tag());
        }
        if a.ty() == ty {
            return a;
        }
        if let Some(c) = constant::const_value(&a)
            && let Some(f) = fold::fold_cast(ty, c)
        {
            return self.folded(ty, f);
        }
        let int = |t: Type| t.is_int() || t.is_uint();
        match a.kind() {
            // The reference's three rules for a cast of a cast, in its order.
            ExprKind::Cast(inner) => {
                let (outer, mid, value) = (ty, a.ty(), inner.ty());
                // Same kind, narrower outside: the inner cast only widened or narrowed
                // what the outer one narrows further.
                let same_code_narrowing = outer.code() == mid.code() && outer.bits() < mid.bits();
                // A signed value widened part way to a signed type, then to any integer
                // type at least as wide: one sign extension.
                let signed_widening = int(outer)
                    && mid.is_int()
                    && value.is_int()
                    && outer.bits() >= mid.bits()
                    && mid.bits() >= value.bits();
                if same_code_narrowing || signed_widening {
                    return self.cast(ty, inner.clone());
                }
                // Between integers, an outer cast no wider than the inner one truncates
                // whatever the inner one extended.
                if int(outer) && int(mid) && int(value) && outer.bits() <= mid.bits() {
                    return if outer == value { inner.clone() } else { self.cast(ty, inner.clone()) };
                }
            }
            ExprKind::Broadcast { value, lanes } => {
                let lane_ty = ty.with_lanes(value.ty().lanes());
                let v = self.cast(lane_ty, value.clone());
                return Expr::from_node_unchecked(ty, ExprKind::Broadcast { value: v, lanes: *lanes });
            }
            ExprKind::Ramp { base, stride, lanes }
                if ty.element_of() == Type::int(64, 1) && a.ty().element_of() == Type::INT32 =>
            {
                let b = self.cast(ty.with_lanes(base.ty().lanes()), base.clone());
                let st = self.cast(ty.with_lanes(stride.ty().lanes()), stride.clone());
                let ramp =
                    Expr::from_node_unchecked(ty, ExprKind::Ramp { base: b, stride: st, lanes: *lanes });
                return self.simplify(&ramp);
            }
            _ => {}
        }
        make::cast(ty, a)
    }

    fn intrinsic(&mut self, e: &Expr) -> Option<Expr> {
        use Intrinsic as I;
        let (intrinsic, args) = e.as_intrinsic()?;
        let ty = e.ty();
        match (intrinsic, args) {
            (I::Abs, [x]) => {
                let c = constant::const_value(x)?;
                let v = match c {
                    Const::Int(v) => Const::UInt((v as i128).unsigned_abs() as u64),
                    Const::UInt(v) => Const::UInt(v),
                    Const::Float(f) => Const::Float(f.abs()),
                };
                Some(constant::make_const_value(ty, v))
            }
            (I::BitwiseAnd | I::BitwiseOr | I::BitwiseXor, [x, y]) => {
                let (a, b) = (constant::as_const_i128(x)?, constant::as_const_i128(y)?);
                let r = match intrinsic {
                    I::BitwiseAnd => a & b,
                    I::BitwiseOr => a | b,
                    _ => a ^ b,
                };
                Some(constant::make_const(ty, r))
            }
            (I::Absd, [x, y]) => {
                let (a, b) = (constant::const_value(x)?, constant::const_value(y)?);
                let v = match (a, b) {
                    (Const::Float(p), Const::Float(q)) => Const::Float((p - q).abs()),
                    _ => Const::UInt(
                        (constant::as_const_i128(x)? - constant::as_const_i128(y)?).unsigned_abs() as u64,
                    ),
                };
                Some(constant::make_const_value(ty, v))
            }
            (I::Popcount | I::CountLeadingZeros | I::CountTrailingZeros, [x]) => {
                let v = constant::as_const_i128(x)?;
                let bits = x.ty().bits() as u32;
                let mask: u128 = if bits >= 128 { u128::MAX } else { (1u128 << bits) - 1 };
                let u = (v as u128) & mask;
                let r = match intrinsic {
                    I::Popcount => u.count_ones(),
                    I::CountLeadingZeros => u.leading_zeros() - (128 - bits),
                    _ => u.trailing_zeros().min(bits),
                };
                Some(constant::make_const(ty, r as i128))
            }
            (I::BitwiseNot, [x]) => Some(constant::make_const(ty, !constant::as_const_i128(x)?)),
            (I::ShiftLeft | I::ShiftRight, [x, y]) if x.ty().is_int() || x.ty().is_uint() => {
                Some(self.shift(intrinsic == I::ShiftLeft, ty, x.clone(), y.clone()))
            }
            _ => None,
        }
    }

    /// An integer shift, as the reference simplifies one: a shift amount of known sign
    /// becomes unsigned (a non-positive one reverses the shift), a constant amount turns
    /// the shift into a multiplication or a division by a power of two (a shift by the
    /// sign bit of a signed type into a select, and by the type's width or more into an
    /// overflow marker), and `x << (0 - y)` is `x >> y`.
    fn shift(&mut self, left: bool, ty: Type, a: Expr, b: Expr) -> Expr {
        let shift = |left: bool| if left { Intrinsic::ShiftLeft } else { Intrinsic::ShiftRight };
        if constant::is_const_zero(&b) {
            return a;
        }
        let mut left_now = left;
        let bt = b.ty();
        let unsigned = Type::uint(bt.bits(), bt.lanes());
        let cb = self.constant_bounds(&b);
        let b = if cb.min.is_some_and(|m| m >= 0) {
            self.cast(unsigned, b)
        } else if bt.is_int() && cb.max.is_some_and(|m| m <= 0) {
            left_now = !left_now;
            let negated = self.sub(constant::make_zero(bt), b);
            self.cast(unsigned, negated)
        } else {
            b
        };
        if b.ty().is_uint()
            && let Some(k) = constant::as_const_i128(&b)
        {
            let bits = i128::from(ty.bits());
            if k >= bits {
                return overflow::overflow_marker(ty, self.ctx.overflow_tag());
            }
            if a.ty().is_uint() || k < bits - 1 {
                let factor = constant::make_const(ty, 1i128 << k);
                return if left_now { self.mul(a, factor) } else { self.div(a, factor) };
            }
            // A signed shift by the sign bit's position: only the lowest bit survives a
            // left shift, only the sign a right one.
            let e = if left_now {
                let low = Intrinsic::BitwiseAnd.call(ty, vec![a, constant::make_const(ty, 1)]);
                make::select(
                    make::ne(low, constant::make_zero(ty)),
                    constant::make_const(ty, 1i128 << k),
                    constant::make_zero(ty),
                )
            } else {
                make::select(
                    make::lt(a, constant::make_zero(ty)),
                    constant::make_const(ty, -1),
                    constant::make_zero(ty),
                )
            };
            return self.simplify(&e);
        }
        if b.ty().is_int()
            && let ExprKind::Binary(loopir::BinOp::Sub, z, s) = b.kind()
            && constant::is_const_zero(z)
        {
            let flipped = shift(!left_now).call(ty, vec![a, s.clone()]);
            return self.simplify(&flipped);
        }
        shift(left_now).call(ty, vec![a, b])
    }
}

type Rebuild = Box<dyn Fn(Expr) -> Expr>;

/// Peels operations with a constant (or variable) operand off a let value, innermost
/// remainder last: returns the remainder (None when the value is entirely constants and
/// variables) and how to rebuild the value from it.
fn peel(v: &Expr) -> (Option<Expr>, Rebuild) {
    use loopir::BinOp as B;
    let mut cur = v.clone();
    let mut layers: Vec<Rebuild> = Vec::new();
    let leafish = |e: &Expr| constant::is_const(e) || e.as_variable().is_some();
    let remainder = loop {
        if leafish(&cur) {
            break None;
        }
        let next = match cur.kind() {
            ExprKind::Binary(op @ (B::Add | B::Mul | B::Sub), a, b) if leafish(b) => {
                let (op, b) = (*op, b.clone());
                layers.push(Box::new(move |x| make::binary(op, x, b.clone())));
                a.clone()
            }
            ExprKind::Binary(B::Add, a, b) if a.as_variable().is_some() => {
                let a = a.clone();
                layers.push(Box::new(move |x| make::add(a.clone(), x)));
                b.clone()
            }
            ExprKind::Binary(B::Sub, a, b) if constant::is_const(a) => {
                let a = a.clone();
                layers.push(Box::new(move |x| make::sub(a.clone(), x)));
                b.clone()
            }
            ExprKind::Binary(op @ (B::Div | B::Mod | B::Min | B::Max), a, b) if constant::is_const(b) => {
                let (op, b) = (*op, b.clone());
                layers.push(Box::new(move |x| make::binary(op, x, b.clone())));
                a.clone()
            }
            ExprKind::Cast(a) if cur.ty().bits() > a.ty().bits() => {
                let ty = cur.ty();
                layers.push(Box::new(move |x| make::cast(ty, x)));
                a.clone()
            }
            _ => break Some(cur.clone()),
        };
        cur = next;
    };
    let rebuild: Rebuild = Box::new(move |x| layers.iter().rev().fold(x, |acc, f| f(acc)));
    (remainder, rebuild)
}

#[cfg(test)]
mod tests;

/// What a value's type alone says about its range, as the reference's simplifier uses it:
/// the type's range for wrapping integers, nothing for signed integers of 32 bits or more.
/// Those are assumed not to overflow, so their values are mathematical integers, and the
/// reference neither gives an unbound variable of such a type its type's range nor
/// projects a result back into it: `((w + 1073741823)/1073741824 + 1)/2` for an Int(32)
/// `w` has no constant bounds there, and taking `w`'s range would prove comparisons
/// the reference leaves as they are.
fn type_range(ty: Type) -> ConstantInterval {
    if overflow::no_overflow_int(ty) {
        ConstantInterval::everything()
    } else {
        ConstantInterval::bounds_of_type(ty)
    }
}
