//! Rewrite rules, one function per operator. Operands arrive simplified; each rule
//! returns a simplified result, re-entering other rules for the parts it builds.
//!
//! Notation in the comments: `x`, `y`, `z` are any expressions, `c0`, `c1` constants.
//! Reassociating rules apply to integer types only (float arithmetic is not associative).

use crate::overflow;
use loopir::constant;
use loopir::equality;
use loopir::make;
use loopir::{BinOp, Expr, ExprKind, Intrinsic, Type};

use super::Simplifier;
use super::fold::{self, Folded};
use super::pattern;
use super::should_commute;
use super::tables;
use crate::constant_interval::ConstantInterval;
use loopir::constant::Const;

fn bin(e: &Expr) -> Option<(BinOp, &Expr, &Expr)> {
    match e.kind() {
        ExprKind::Binary(op, a, b) => Some((*op, a, b)),
        _ => None,
    }
}

fn is_op(e: &Expr, op: BinOp) -> Option<(&Expr, &Expr)> {
    match bin(e) {
        Some((o, a, b)) if o == op => Some((a, b)),
        _ => None,
    }
}

/// `x + c0` split into `(x, c0)`; anything else is `(e, None)`.
fn split_constant(e: &Expr) -> (&Expr, Option<&Expr>) {
    match is_op(e, BinOp::Add) {
        Some((x, c)) if constant::is_const(c) => (x, Some(c)),
        _ => (e, None),
    }
}

/// Whether `tagged` is `likely(plain)` or `likely_if_innermost(plain)`.
fn is_tagged_copy(tagged: &Expr, plain: &Expr) -> bool {
    matches!(tagged.as_intrinsic(), Some((Intrinsic::Likely | Intrinsic::LikelyIfInnermost, [inner])) if equality::equal(inner, plain))
}

/// `likely(x)` or `likely_if_innermost(x)` → `x`; anything else unchanged.
fn strip_likely(e: Expr) -> Expr {
    match e.as_intrinsic() {
        Some((Intrinsic::Likely | Intrinsic::LikelyIfInnermost, [x])) => x.clone(),
        _ => e,
    }
}

fn is_int(ty: Type) -> bool {
    ty.is_int() || (ty.is_uint() && !ty.is_bool())
}

impl Simplifier<'_, '_, '_> {
    /// `a op b` when constants decide it: both operands constant, or (for arithmetic
    /// and min/max, the reference's first rule for them) an operand that is an overflow
    /// marker, which is the result, the left one if both are: the value is undefined
    /// whatever the other operand is.
    fn fold(&self, op: BinOp, a: &Expr, b: &Expr) -> Option<Expr> {
        if !op.is_comparison()
            && !matches!(op, BinOp::And | BinOp::Or)
            && let Some(m) = [a, b].into_iter().find(|e| overflow::is_overflow_marker(e))
        {
            return Some(m.clone());
        }
        let (x, y) = (constant::const_value(a)?, constant::const_value(b)?);
        let ty = if op.is_comparison() { loopir::Type::bool(a.ty().lanes()) } else { a.ty() };
        match fold::fold_binary(op, a.ty(), x, y)? {
            Folded::Value(c) => Some(constant::make_const_value(ty, c)),
            Folded::Overflow => Some(self.folded(ty, Folded::Overflow)),
        }
    }

    /// Applies the rules of `op` to simplified operands.
    pub fn binary(&mut self, op: BinOp, a: Expr, b: Expr) -> Expr {
        if crate::simplify::operands_differ_in_kind(&a, &b) {
            // A float operand with an integer one: text the reference never prints, which
            // the parser accepts as written. No rule is meant for them (some would rewrite
            // such a node back and forth forever), so the node stays as it is. (Operands
            // whose integer or boolean types the parser inferred differently are common
            // and harmless, and keep their rules.)
            let ty = if op.is_comparison() { loopir::Type::bool(a.ty().lanes()) } else { a.ty() };
            return Expr::from_node_unchecked(ty, ExprKind::Binary(op, a, b));
        }
        if let Some(r) = self.fold(op, &a, &b) {
            return r;
        }
        match op {
            BinOp::Add => self.add(a, b),
            BinOp::Sub => self.sub(a, b),
            BinOp::Mul => self.mul(a, b),
            BinOp::Div => self.div(a, b),
            BinOp::Mod => self.modulo(a, b),
            BinOp::Min | BinOp::Max => self.min_max(op, a, b),
            BinOp::Lt => self.lt(a, b),
            BinOp::Gt => self.lt(b, a),
            BinOp::Le => self.le(a, b),
            BinOp::Ge => self.le(b, a),
            BinOp::Eq => self.eq(a, b),
            BinOp::Ne => {
                let e = self.eq(a, b);
                self.not(e)
            }
            BinOp::And | BinOp::Or => self.and_or(op, a, b),
        }
    }

    /// `a + b`.
    pub fn add(&mut self, a: Expr, b: Expr) -> Expr {
        if let Some(r) = self.fold(BinOp::Add, &a, &b) {
            return r;
        }
        if should_commute(&a, &b) {
            return self.add(b, a);
        }
        let ty = a.ty();
        if constant::is_const_zero(&b) {
            return a; // x + 0 → x
        }
        if !is_int(ty) {
            return make::add(a, b);
        }
        // The reference's list, in its order.
        let e = make::add(a.clone(), b.clone());
        let context = pattern::Context { ty, denominator_non_zero: false };
        if let Some(r) = pattern::apply_in(self, tables::add_rules(), &e, &context) {
            return r;
        }
        e
    }

    /// `a - b`.
    pub fn sub(&mut self, a: Expr, b: Expr) -> Expr {
        if let Some(r) = self.fold(BinOp::Sub, &a, &b) {
            return r;
        }
        let ty = a.ty();
        if constant::is_const_zero(&b) {
            return a;
        }
        if !is_int(ty) {
            return make::sub(a, b);
        }
        // The reference's list, in its order.
        let e = make::sub(a.clone(), b.clone());
        let context = pattern::Context { ty, denominator_non_zero: false };
        if let Some(r) = pattern::apply_in(self, tables::sub_rules(), &e, &context) {
            return r;
        }
        e
    }

    /// `a * b`.
    pub fn mul(&mut self, a: Expr, b: Expr) -> Expr {
        if let Some(r) = self.fold(BinOp::Mul, &a, &b) {
            return r;
        }
        if should_commute(&a, &b) {
            return self.mul(b, a);
        }
        let ty = a.ty();
        if constant::is_const_one(&b) {
            return a;
        }
        // x*0 → 0 (for floats too, as Halide does: the analysis treats floats as reals)
        if constant::is_const_zero(&b) {
            return b;
        }
        // The reference's list, in its order; it applies to floats too (constants fold
        // into one, `(x*4.0f)*0.25f` is `x`).
        let e = make::mul(a.clone(), b.clone());
        let context = pattern::Context { ty, denominator_non_zero: false };
        if let Some(r) = pattern::apply_in(self, tables::mul_rules(), &e, &context) {
            return r;
        }
        e
    }

    /// `a / b` (Euclidean).
    pub fn div(&mut self, a: Expr, b: Expr) -> Expr {
        if let Some(r) = self.fold(BinOp::Div, &a, &b) {
            return r;
        }
        let ty = a.ty();
        if constant::is_const_one(&b) {
            return a;
        }
        let mut denominator_non_zero = false;
        if is_int(ty) {
            if constant::is_const_zero(&b) || constant::is_const_zero(&a) {
                return constant::make_zero(ty); // x/0 → 0, 0/x → 0
            }
            let cb = self.constant_bounds(&b);
            let q = self.constant_bounds(&a) / cb;
            if let Some(v) = q.as_single_point() {
                return constant::make_const(ty, v as i128);
            }
            denominator_non_zero = overflow::no_overflow_int(ty) && !cb.contains(0);
        }
        // The reference's list (the rules that need alignment facts aside).
        let e = make::div(a.clone(), b.clone());
        let context = pattern::Context { ty, denominator_non_zero };
        if let Some(r) = pattern::apply_in(self, tables::div_rules(), &e, &context) {
            return r;
        }
        if !is_int(ty) {
            return e;
        }
        if let Some(r) = self.repeated_division(&a, &b) {
            return r;
        }
        if let Some(c1) = constant::as_const_i128(&b)
            && c1 > 0
        {
            // (x*c0)/c1 → x*fold(c0/c1) when c1 divides c0
            if let Some((x, c0)) = is_op(&a, BinOp::Mul)
                && let Some(c0v) = constant::as_const_i128(c0)
                && c0v % c1 == 0
            {
                return self.mul(x.clone(), constant::make_const(ty, c0v / c1));
            }
            // (x*c0 + y)/c1 → x*fold(c0/c1) + y/c1 when c1 divides c0
            if let Some((m, y)) = is_op(&a, BinOp::Add)
                && let Some((x, c0)) = is_op(m, BinOp::Mul)
                && let Some(c0v) = constant::as_const_i128(c0)
                && c0v % c1 == 0
            {
                let xq = self.mul(x.clone(), constant::make_const(ty, c0v / c1));
                let yq = self.div(y.clone(), b.clone());
                return self.add(xq, yq);
            }
            // (x + c0)/c1 → x/c1 + fold(c0/c1) when c1 divides c0
            if let (x, Some(c0)) = split_constant(&a)
                && let Some(c0v) = constant::as_const_i128(c0)
                && c0v % c1 == 0
            {
                let xq = self.div(x.clone(), b.clone());
                return self.add(xq, constant::make_const(ty, c0v / c1));
            }
        }
        make::div(a, b)
    }

    /// Repeated division by positive constants folds into one (Euclidean division
    /// composes): `(x/c0)/c2 → x/(c0*c2)`, `(x/c0 + c1)/c2 → (x + c1*c0)/(c0*c2)`, and
    /// `(x*c0)/c1 → x/(c1/c0)` when `c0 > 0` divides `c1`.
    fn repeated_division(&mut self, a: &Expr, b: &Expr) -> Option<Expr> {
        let ty = a.ty();
        if !overflow::no_overflow_int(ty) {
            return None;
        }
        let c2 = constant::as_const_i128(b).filter(|v| *v > 0)?;
        let fits =
            |v: i128| if ty.bits() <= 32 { i32::try_from(v).is_ok() } else { i64::try_from(v).is_ok() };
        let konst = |v: i128| constant::make_const(ty, v);
        if let Some((x, c0)) = is_op(a, BinOp::Div)
            && let Some(c0) = constant::as_const_i128(c0).filter(|v| *v > 0)
            && let Some(d) = c0.checked_mul(c2).filter(|d| fits(*d))
        {
            return Some(self.div(x.clone(), konst(d)));
        }
        if let (q, Some(c1)) = split_constant(a)
            && let Some((x, c0)) = is_op(q, BinOp::Div)
            && let (Some(c0), Some(c1)) =
                (constant::as_const_i128(c0).filter(|v| *v > 0), constant::as_const_i128(c1))
            && let Some(d) = c0.checked_mul(c2).filter(|d| fits(*d))
            && let Some(shift) = c1.checked_mul(c0).filter(|v| fits(*v))
        {
            let xs = self.add(x.clone(), konst(shift));
            return Some(self.div(xs, konst(d)));
        }
        if let Some((x, c0)) = is_op(a, BinOp::Mul)
            && let Some(c0) = constant::as_const_i128(c0).filter(|v| *v > 0)
            && c2 % c0 == 0
        {
            return Some(self.div(x.clone(), konst(c2 / c0)));
        }
        None
    }

    /// `a % b` (Euclidean).
    pub fn modulo(&mut self, a: Expr, b: Expr) -> Expr {
        if let Some(r) = self.fold(BinOp::Mod, &a, &b) {
            return r;
        }
        let ty = a.ty();
        if !is_int(ty) {
            return make::modulo(a, b);
        }
        if constant::is_const_one(&b) || constant::is_const_zero(&b) || constant::is_const_zero(&a) {
            return constant::make_zero(ty);
        }
        let (ca, cb) = (self.constant_bounds(&a), self.constant_bounds(&b));
        // x % y → x when 0 <= x < |y| everywhere
        if ca.is_non_negative()
            && let (Some(amax), Some(bmin)) = (ca.max, cb.abs().min)
            && amax < bmin
        {
            return a;
        }
        if let Some(v) = (ca % cb).as_single_point() {
            return constant::make_const(ty, v as i128);
        }
        // The reference's list, in its order.
        let e = make::modulo(a.clone(), b.clone());
        let context = pattern::Context { ty, denominator_non_zero: false };
        if let Some(r) = pattern::apply_in(self, tables::mod_rules(), &e, &context) {
            return r;
        }
        e
    }

    /// `min(a, b)` or `max(a, b)`: the reference's early outs (constants, ranges that
    /// decide it, a `likely` tag that loses), then its rule list for the operator.
    pub fn min_max(&mut self, op: BinOp, a: Expr, b: Expr) -> Expr {
        if let Some(r) = self.fold(op, &a, &b) {
            return r;
        }
        let is_min = op == BinOp::Min;
        let ty = a.ty();
        if is_int(ty) {
            // Decided by ranges: min(x, y) → x when x <= y everywhere. A `likely` tag on
            // the winner goes (`min(likely(0), likely(1))` is `0`).
            let (ca, cb) = (self.constant_bounds(&a), self.constant_bounds(&b));
            let both = if is_min { ca.min_of(&cb) } else { ca.max_of(&cb) };
            if let Some(v) = both.as_single_point() {
                return constant::make_const(ty, i128::from(v));
            }
            if ca.le(&cb) {
                return strip_likely(if is_min { a } else { b });
            }
            if cb.le(&ca) {
                return strip_likely(if is_min { b } else { a });
            }
        }
        if should_commute(&a, &b) {
            return self.min_max(op, b, a);
        }
        // min(likely(x), x) → x and the like: the untagged operand stays.
        if is_tagged_copy(&a, &b) {
            return b;
        }
        if is_tagged_copy(&b, &a) {
            return a;
        }
        let e = make::binary(op, a, b);
        let rules = if is_min { tables::min_rules() } else { tables::max_rules() };
        pattern::apply(self, rules, &e).unwrap_or(e)
    }

    /// Decides `a < b` from ranges: Some(true/false) when every valuation agrees.
    fn decide_lt(&mut self, a: &Expr, b: &Expr) -> Option<bool> {
        let ty = a.ty();
        if !is_int(ty) {
            return None;
        }
        let (ca, cb) = (self.constant_bounds(a), self.constant_bounds(b));
        if ca.lt(&cb) {
            return Some(true);
        }
        if cb.le(&ca) {
            return Some(false);
        }
        if overflow::no_overflow_int(ty) {
            let d = self.sub(a.clone(), b.clone());
            let cd = self.constant_bounds(&d);
            if cd.max.is_some_and(|v| v < 0) {
                return Some(true);
            }
            if cd.min.is_some_and(|v| v >= 0) {
                return Some(false);
            }
        }
        None
    }

    /// `a < b`.
    pub fn lt(&mut self, a: Expr, b: Expr) -> Expr {
        if let Some(r) = self.fold(BinOp::Lt, &a, &b) {
            return r;
        }
        let lanes = a.ty().lanes();
        let ty = a.ty();
        if is_int(ty) {
            // Decided by ranges, as the reference decides it before any rule.
            let (ca, cb) = (self.constant_bounds(&a), self.constant_bounds(&b));
            if ca.lt(&cb) {
                return constant::make_bool(true, lanes);
            }
            if cb.le(&ca) {
                return constant::make_bool(false, lanes);
            }
        }
        let e = make::lt(a.clone(), b.clone());
        let context = pattern::Context { ty, denominator_non_zero: false };
        if let Some(r) = pattern::apply_in(self, tables::lt_rules(), &e, &context) {
            return r;
        }
        // Beyond the reference (spec S01): when no rule applies, the range of `a - b` may
        // still decide it (`x*2 > x` for `x` in [1, 10]). Sound only without wrapping.
        if let Some(v) = self.decide_lt(&a, &b) {
            return constant::make_bool(v, lanes);
        }
        e
    }

    /// `a <= b`, canonically `!(b < a)` printed as `a <= b`.
    pub fn le(&mut self, a: Expr, b: Expr) -> Expr {
        if let Some(r) = self.fold(BinOp::Le, &a, &b) {
            return r;
        }
        let r = self.lt(b.clone(), a.clone());
        match r.kind() {
            ExprKind::Binary(BinOp::Lt, p, q) => make::le(q.clone(), p.clone()),
            _ => self.not(r),
        }
    }

    /// `a == b`.
    pub fn eq(&mut self, a: Expr, b: Expr) -> Expr {
        if let Some(r) = self.fold(BinOp::Eq, &a, &b) {
            return r;
        }
        let lanes = a.ty().lanes();
        if equality::equal(&a, &b) {
            return constant::make_bool(true, lanes);
        }
        let ty = a.ty();
        if is_int(ty) {
            let (ca, cb) = (self.constant_bounds(&a), self.constant_bounds(&b));
            if ca.lt(&cb) || cb.lt(&ca) {
                return constant::make_bool(false, lanes);
            }
            if overflow::no_overflow_int(ty) {
                let d = self.sub(a.clone(), b.clone());
                let cd = self.constant_bounds(&d);
                if !cd.contains(0) {
                    return constant::make_bool(false, lanes);
                }
                if cd.as_single_point() == Some(0) {
                    return constant::make_bool(true, lanes);
                }
            }
        }
        if !ty.is_bool() {
            // The reference orders the operands by node kind, then runs its list.
            let (a, b) = if should_commute(&a, &b) { (b, a) } else { (a, b) };
            let e = make::eq(a, b);
            let context = pattern::Context { ty, denominator_non_zero: false };
            return pattern::apply_in(self, tables::eq_rules(), &e, &context).unwrap_or(e);
        }
        // Booleans: b == true → b; b == false → !b
        if constant::is_const_true(&b) {
            return a;
        }
        if constant::is_const_false(&b) {
            return self.not(a);
        }
        if constant::is_const(&a) && !constant::is_const(&b) {
            return make::eq(b, a);
        }
        make::eq(a, b)
    }

    /// `a && b` or `a || b`.
    pub fn and_or(&mut self, op: BinOp, a: Expr, b: Expr) -> Expr {
        let is_and = op == BinOp::And;
        // Absorbing and neutral constants.
        for (x, y) in [(&a, &b), (&b, &a)] {
            if constant::is_const_true(x) {
                return if is_and { y.clone() } else { x.clone() };
            }
            if constant::is_const_false(x) {
                return if is_and { x.clone() } else { y.clone() };
            }
        }
        if should_commute(&a, &b) {
            return self.and_or(op, b, a);
        }
        // The reference's list, in its order.
        let e = make::binary(op, a.clone(), b.clone());
        let rules = if is_and { tables::and_rules() } else { tables::or_rules() };
        if let Some(r) = pattern::apply(self, rules, &e) {
            return r;
        }
        e
    }

    /// `!a`.
    pub fn not(&mut self, a: Expr) -> Expr {
        let lanes = a.ty().lanes();
        if constant::is_const_true(&a) {
            return constant::make_bool(false, lanes);
        }
        if constant::is_const_false(&a) {
            return constant::make_bool(true, lanes);
        }
        match a.kind() {
            ExprKind::Not(x) => x.clone(),                                       // !!x → x
            ExprKind::Binary(BinOp::Lt, x, y) => make::le(y.clone(), x.clone()), // !(x < y) → y <= x
            ExprKind::Binary(BinOp::Le, x, y) => make::lt(y.clone(), x.clone()), // !(x <= y) → y < x
            ExprKind::Binary(BinOp::Eq, x, y) => make::ne(x.clone(), y.clone()),
            ExprKind::Binary(BinOp::Ne, x, y) => make::eq(x.clone(), y.clone()),
            _ => {
                let e = make::not(a);
                pattern::apply(self, tables::not_rules(), &e).unwrap_or(e)
            }
        }
    }

    /// `select(c, t, f)`.
    pub fn select(&mut self, c: Expr, t: Expr, f: Expr) -> Expr {
        if constant::is_const_true(&c) {
            return t;
        }
        if constant::is_const_false(&c) {
            return f;
        }
        // select(likely(true), x, y) → x (and false, and likely_if_innermost)
        if let Some((Intrinsic::Likely | Intrinsic::LikelyIfInnermost, [inner])) = c.as_intrinsic() {
            if constant::is_const_true(inner) {
                return t;
            }
            if constant::is_const_false(inner) {
                return f;
            }
        }
        // select(x, y, y) → y;  select(x, likely(y), y) → y;  select(x, y, likely(y)) → y
        if equality::equal(&t, &f) {
            return f;
        }
        if is_tagged_copy(&t, &f) {
            return f;
        }
        if is_tagged_copy(&f, &t) {
            return t;
        }
        let ty = t.ty();
        let e = make::select(c, t, f);
        let rules = tables::select_rules();
        if let Some(r) = pattern::apply(self, &rules.general, &e) {
            return r;
        }
        if overflow::no_overflow_int(ty)
            && let Some(r) = pattern::apply(self, &rules.no_overflow_int, &e)
        {
            return r;
        }
        if ty.is_bool()
            && let Some(r) = pattern::apply(self, &rules.boolean, &e)
        {
            return r;
        }
        e
    }

    /// The constant interval of a finite constant expression, if it is one.
    pub fn const_of(e: &Expr) -> Option<ConstantInterval> {
        match constant::const_value(e)? {
            Const::Int(v) => Some(ConstantInterval::single_point(v)),
            Const::UInt(v) => i64::try_from(v).ok().map(ConstantInterval::single_point),
            Const::Float(_) => None,
        }
    }
}
