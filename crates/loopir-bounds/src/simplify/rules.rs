//! Rewrite rules, one function per operator. Operands arrive simplified; each rule
//! returns a simplified result, re-entering other rules for the parts it builds.
//!
//! Notation in the comments: `x`, `y`, `z` are any expressions, `c0`, `c1` constants.
//! Reassociating rules apply to integer types only (float arithmetic is not associative).

use loopir::{BinOp, Expr, ExprKind, Type};

use super::Simplifier;
use super::fold::{self, Folded};
use crate::constant_interval::ConstantInterval;
use crate::ir::{self, Const, should_commute};

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
        Some((x, c)) if ir::is_const(c) => (x, Some(c)),
        _ => (e, None),
    }
}

/// If `m` is `((x + c0)/c1)*c1` (or `(x/c1)*c1`) for `x` equal to `base` and a positive
/// constant `c1`, returns `(x + c0, c0, c1)`.
fn round_to_multiple(m: &Expr, base: &Expr) -> Option<(Expr, Expr, Expr)> {
    let (q, c1) = is_op(m, BinOp::Mul)?;
    let (y, d) = is_op(q, BinOp::Div)?;
    if !ir::is_positive_const(c1) || !ir::equal(c1, d) || !ir::no_overflow_int(m.ty()) {
        return None;
    }
    let (x, c0) = match split_constant(y) {
        (x, Some(c0)) => (x, c0.clone()),
        (x, None) => (x, ir::zero(m.ty())),
    };
    ir::equal(x, base).then(|| (y.clone(), c0, c1.clone()))
}

fn other_op(op: BinOp) -> BinOp {
    if op == BinOp::Min { BinOp::Max } else { BinOp::Min }
}

/// `likely(x)` or `likely_if_innermost(x)` → `x`; anything else unchanged.
fn strip_likely(e: Expr) -> Expr {
    match ir::intrinsic_name(&e) {
        Some(("likely" | "likely_if_innermost", [x])) => x.clone(),
        _ => e,
    }
}

fn is_int(ty: Type) -> bool {
    ty.is_int() || (ty.is_uint() && !ty.is_bool())
}

impl Simplifier<'_, '_, '_> {
    fn fold(&self, op: BinOp, a: &Expr, b: &Expr) -> Option<Expr> {
        let (x, y) = (ir::const_value(a)?, ir::const_value(b)?);
        let ty = if op.is_comparison() { loopir::Type::bool(a.ty().lanes()) } else { a.ty() };
        match fold::fold_binary(op, a.ty(), x, y)? {
            Folded::Value(c) => Some(ir::make_const_value(ty, c)),
            Folded::Overflow => Some(self.folded(ty, Folded::Overflow)),
        }
    }

    /// `c0 op c1` folded, as an expression of `a`'s type (used for constant parts).
    fn fold_consts(&self, op: BinOp, a: &Expr, b: &Expr) -> Expr {
        self.fold(op, a, b).unwrap_or_else(|| ir::binary(op, a.clone(), b.clone()))
    }

    /// Applies the rules of `op` to simplified operands.
    pub fn binary(&mut self, op: BinOp, a: Expr, b: Expr) -> Expr {
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
        if ir::is_const_zero(&b) {
            return a; // x + 0 → x
        }
        if !is_int(ty) {
            return ir::add(a, b);
        }
        // (x + c0) + c1 → x + fold(c0 + c1)
        if let (x, Some(c0)) = split_constant(&a) {
            if ir::is_const(&b) {
                let c = self.fold_consts(BinOp::Add, c0, &b);
                return self.add(x.clone(), c);
            }
            // (x + c0) + y → (x + y) + c0
            let xy = self.add(x.clone(), b.clone());
            return self.add(xy, c0.clone());
        }
        // x + (y + c0) → (x + y) + c0
        if let (y, Some(c0)) = split_constant(&b) {
            let xy = self.add(a.clone(), y.clone());
            return self.add(xy, c0.clone());
        }
        // (x - y) + y → x
        if let Some((x, y)) = is_op(&a, BinOp::Sub)
            && ir::equal(y, &b)
        {
            return x.clone();
        }
        // x + (y - x) → y
        if let Some((y, x)) = is_op(&b, BinOp::Sub)
            && ir::equal(x, &a)
        {
            return y.clone();
        }
        // (c0 - x) + c1 → fold(c0 + c1) - x
        if let Some((c0, x)) = is_op(&a, BinOp::Sub)
            && ir::is_const(c0)
            && ir::is_const(&b)
        {
            let c = self.fold_consts(BinOp::Add, c0, &b);
            return self.sub(c, x.clone());
        }
        // x + x → x*2
        if ir::equal(&a, &b) {
            return self.mul(a, ir::make_const(ty, 2));
        }
        // x*c0 + x*c1 → x*fold(c0 + c1);  x*c0 + x → x*fold(c0 + 1)
        if let Some((x, c0)) = is_op(&a, BinOp::Mul)
            && ir::is_const(c0)
        {
            if let Some((y, c1)) = is_op(&b, BinOp::Mul)
                && ir::is_const(c1)
                && ir::equal(x, y)
            {
                let c = self.fold_consts(BinOp::Add, c0, c1);
                return self.mul(x.clone(), c);
            }
            if ir::equal(x, &b) {
                let c = self.fold_consts(BinOp::Add, c0, &ir::one(ty));
                return self.mul(x.clone(), c);
            }
        }
        if ir::no_overflow(ty)
            && let Some(r) = self.add_into_min_max(&a, &b)
        {
            return r;
        }
        ir::add(a, b)
    }

    /// A term added to a min/max that cancels against one of its operands moves inside:
    ///
    /// * `min(x, y - z) + z → min(x + z, y)`, `min(y - z, x) + z → min(y, x + z)`;
    /// * `min(x, y + c0) + c1 → min(x + c1, y)` and `min(y + c0, x) + c1 → min(y, x + c1)`
    ///   when `c0 + c1 == 0`;
    ///
    /// and the same for max. The operand that cancels loses its term; the other one
    /// gains it (this is how Halide keeps `min(((v/8)*8 + m) + 7, M)` rather than
    /// `min((v/8)*8 + m, M + -7) + 7`).
    fn add_into_min_max(&mut self, a: &Expr, b: &Expr) -> Option<Expr> {
        let (op, p, q) = match bin(a) {
            Some((op @ (BinOp::Min | BinOp::Max), p, q)) => (op, p, q),
            _ => return None,
        };
        // Does `e` lose `b` when `b` is added to it? Returns what remains.
        let cancels = |e: &Expr| -> Option<Expr> {
            if let Some((y, z)) = is_op(e, BinOp::Sub)
                && ir::equal(z, b)
            {
                return Some(y.clone());
            }
            if let (y, Some(c0)) = split_constant(e)
                && let (Some(c0), Some(c1)) = (ir::as_const_i128(c0), ir::as_const_i128(b))
                && c0.checked_add(c1) == Some(0)
            {
                return Some(y.clone());
            }
            None
        };
        if let Some(y) = cancels(q) {
            let xb = self.add(p.clone(), b.clone());
            return Some(self.min_max(op, xb, y));
        }
        if let Some(y) = cancels(p) {
            let xb = self.add(q.clone(), b.clone());
            return Some(self.min_max(op, y, xb));
        }
        None
    }

    /// `a - b`.
    pub fn sub(&mut self, a: Expr, b: Expr) -> Expr {
        if let Some(r) = self.fold(BinOp::Sub, &a, &b) {
            return r;
        }
        let ty = a.ty();
        if ir::is_const_zero(&b) {
            return a;
        }
        if !is_int(ty) {
            return ir::sub(a, b);
        }
        // x - x → 0
        if ir::equal(&a, &b) {
            return ir::zero(ty);
        }
        // x - c0 → x + fold(-c0)
        if ty.is_int() && ir::is_const(&b) {
            let neg = self.fold_consts(BinOp::Sub, &ir::zero(ty), &b);
            if ir::is_const(&neg) {
                return self.add(a, neg);
            }
        }
        // (x + y) - x → y;  (x + y) - y → x
        if let Some((x, y)) = is_op(&a, BinOp::Add) {
            if ir::equal(x, &b) {
                return y.clone();
            }
            if ir::equal(y, &b) {
                return x.clone();
            }
        }
        // x - (x + y) → 0 - y;  y - (x + y) → 0 - x
        if let Some((x, y)) = is_op(&b, BinOp::Add) {
            if ir::equal(x, &a) {
                return self.sub(ir::zero(ty), y.clone());
            }
            if ir::equal(y, &a) {
                return self.sub(ir::zero(ty), x.clone());
            }
        }
        match (split_constant(&a), split_constant(&b)) {
            // (x + c0) - (y + c1) → (x - y) + fold(c0 - c1)
            ((x, Some(c0)), (y, Some(c1))) => {
                let d = self.sub(x.clone(), y.clone());
                let c = self.fold_consts(BinOp::Sub, c0, c1);
                return self.add(d, c);
            }
            // (x + c0) - y → (x - y) + c0
            ((x, Some(c0)), (y, None)) => {
                if ir::is_const(y) {
                    let c = self.fold_consts(BinOp::Sub, c0, y);
                    return self.add(x.clone(), c);
                }
                let d = self.sub(x.clone(), y.clone());
                return self.add(d, c0.clone());
            }
            // c0 - (y + c1) → fold(c0 - c1) - y;  x - (y + c1) → (x - y) + fold(-c1)
            ((x, None), (y, Some(c1))) => {
                if ir::is_const(x) {
                    let c = self.fold_consts(BinOp::Sub, x, c1);
                    return self.sub(c, y.clone());
                }
                let d = self.sub(x.clone(), y.clone());
                let c = self.fold_consts(BinOp::Sub, &ir::zero(ty), c1);
                return self.add(d, c);
            }
            _ => {}
        }
        // x - (y - z) → x + (z - y) (Halide's canonical form; `x + (z - x)` then cancels)
        if ir::no_overflow(ty)
            && let Some((y, z)) = is_op(&b, BinOp::Sub)
        {
            let d = self.sub(z.clone(), y.clone());
            return self.add(a, d);
        }
        // (x + y) - (x + z) → y - z, and the other three pairings
        if let (Some((x1, y1)), Some((x2, y2))) = (is_op(&a, BinOp::Add), is_op(&b, BinOp::Add)) {
            let pairs = [(x1, x2, y1, y2), (x1, y2, y1, x2), (y1, x2, x1, y2), (y1, y2, x1, x2)];
            for (p, q, r, s) in pairs {
                if ir::equal(p, q) {
                    return self.sub(r.clone(), s.clone());
                }
            }
        }
        // x - min(x, y) → max(x - y, 0);  x - max(x, y) → min(x - y, 0) (x not a constant)
        // min(x, y) - x → min(y - x, 0);  max(x, y) - x → max(y - x, 0)
        for mm in [BinOp::Min, BinOp::Max] {
            if !ir::is_const(&a)
                && let Some((p, q)) = is_op(&b, mm)
            {
                for (same, other) in [(p, q), (q, p)] {
                    if ir::equal(same, &a) {
                        let d = self.sub(a.clone(), other.clone());
                        let flipped = if mm == BinOp::Min { BinOp::Max } else { BinOp::Min };
                        return self.min_max(flipped, d, ir::zero(ty));
                    }
                }
            }
            if let Some((p, q)) = is_op(&a, mm) {
                for (same, other) in [(p, q), (q, p)] {
                    if ir::equal(same, &b) {
                        let d = self.sub(other.clone(), b.clone());
                        return self.min_max(mm, d, ir::zero(ty));
                    }
                }
            }
        }
        // z - max(x - y, c0) → z + min(y - x, fold(-c0));  z - min(x - y, c0) → z + max(y - x, fold(-c0))
        if ir::no_overflow(ty) {
            for mm in [BinOp::Max, BinOp::Min] {
                if let Some((p, c0)) = is_op(&b, mm)
                    && ir::is_const(c0)
                    && let Some((x, y)) = is_op(p, BinOp::Sub)
                {
                    let neg = self.fold_consts(BinOp::Sub, &ir::zero(ty), c0);
                    if ir::is_const(&neg) {
                        let d = self.sub(y.clone(), x.clone());
                        let m = self.min_max(other_op(mm), d, neg);
                        return self.add(a, m);
                    }
                }
            }
        }
        // Rounding to a multiple: ((x + c0)/c1)*c1 - x → c0 - ((x + c0) % c1), and the mirror
        // x - ((x + c0)/c1)*c1 → ((x + c0) % c1) - c0 (c1 > 0; Euclidean division).
        if let Some((y, c0, c1)) = round_to_multiple(&a, &b) {
            let m = self.modulo(y, c1);
            return self.sub(c0, m);
        }
        if let Some((y, c0, c1)) = round_to_multiple(&b, &a) {
            let m = self.modulo(y, c1);
            return self.sub(m, c0);
        }
        // (x - y) - x → 0 - y
        if let Some((x, y)) = is_op(&a, BinOp::Sub)
            && ir::equal(x, &b)
        {
            return self.sub(ir::zero(ty), y.clone());
        }
        // x - x*c0 → x*fold(1 - c0);  x*c0 - x → x*fold(c0 - 1)
        if let Some((x, c0)) = is_op(&b, BinOp::Mul)
            && ir::is_const(c0)
            && ir::equal(x, &a)
        {
            let c = self.fold_consts(BinOp::Sub, &ir::one(ty), c0);
            return self.mul(a, c);
        }
        if let Some((x, c0)) = is_op(&a, BinOp::Mul)
            && ir::is_const(c0)
            && ir::equal(x, &b)
        {
            let c = self.fold_consts(BinOp::Sub, c0, &ir::one(ty));
            return self.mul(b, c);
        }
        // x*c0 - x*c1 → x*fold(c0 - c1)
        if let (Some((x, c0)), Some((y, c1))) = (is_op(&a, BinOp::Mul), is_op(&b, BinOp::Mul))
            && ir::is_const(c0)
            && ir::is_const(c1)
            && ir::equal(x, y)
        {
            let c = self.fold_consts(BinOp::Sub, c0, c1);
            return self.mul(x.clone(), c);
        }
        // A common factor leaves a difference of products:
        // x*y - z*y → (x - z)*y;  x*y - y*z → (x - z)*y;  y*x - z*y → y*(x - z);
        // y*x - y*z → y*(x - z).
        if let (Some((p1, p2)), Some((q1, q2))) = (is_op(&a, BinOp::Mul), is_op(&b, BinOp::Mul)) {
            for (x, y, z, y2, factor_right) in [
                (p1, p2, q1, q2, true),
                (p1, p2, q2, q1, true),
                (p2, p1, q1, q2, false),
                (p2, p1, q2, q1, false),
            ] {
                // The pattern's own `y` position: `x*y` or `y*x` on the left.
                if ir::equal(y, y2) {
                    let d = self.sub(x.clone(), z.clone());
                    return if factor_right { self.mul(d, y.clone()) } else { self.mul(y.clone(), d) };
                }
            }
        }
        ir::sub(a, b)
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
        if ir::is_const_one(&b) {
            return a;
        }
        // x*0 → 0 (for floats too, as Halide does: the analysis treats floats as reals)
        if ir::is_const_zero(&b) {
            return b;
        }
        if !is_int(ty) {
            return ir::mul(a, b);
        }
        if ir::is_const(&b) {
            // (x*c0)*c1 → x*fold(c0*c1)
            if let Some((x, c0)) = is_op(&a, BinOp::Mul)
                && ir::is_const(c0)
            {
                let c = self.fold_consts(BinOp::Mul, c0, &b);
                return self.mul(x.clone(), c);
            }
            // (x + c0)*c1 → x*c1 + fold(c0*c1)
            if let (x, Some(c0)) = split_constant(&a) {
                let c = self.fold_consts(BinOp::Mul, c0, &b);
                if ir::is_const(&c) {
                    let xc = self.mul(x.clone(), b.clone());
                    return self.add(xc, c);
                }
            }
            // (c0 - x)*c1 → x*fold(-c1) + fold(c0*c1)
            if let Some((c0, x)) = is_op(&a, BinOp::Sub)
                && ir::is_const(c0)
            {
                let c = self.fold_consts(BinOp::Mul, c0, &b);
                let neg = self.fold_consts(BinOp::Sub, &ir::zero(ty), &b);
                if ir::is_const(&c) && ir::is_const(&neg) {
                    let xc = self.mul(x.clone(), neg);
                    return self.add(xc, c);
                }
            }
        }
        ir::mul(a, b)
    }

    /// `a / b` (Euclidean).
    pub fn div(&mut self, a: Expr, b: Expr) -> Expr {
        if let Some(r) = self.fold(BinOp::Div, &a, &b) {
            return r;
        }
        let ty = a.ty();
        if ir::is_const_one(&b) {
            return a;
        }
        if !is_int(ty) {
            return ir::div(a, b);
        }
        if ir::is_const_zero(&b) || ir::is_const_zero(&a) {
            return ir::zero(ty); // x/0 → 0, 0/x → 0
        }
        let q = self.constant_bounds(&a) / self.constant_bounds(&b);
        if let Some(v) = q.as_single_point() {
            return ir::make_const(ty, v as i128);
        }
        if let Some(r) = self.repeated_division(&a, &b) {
            return r;
        }
        if let Some(c1) = ir::as_const_i128(&b)
            && c1 > 0
        {
            // (x*c0)/c1 → x*fold(c0/c1) when c1 divides c0
            if let Some((x, c0)) = is_op(&a, BinOp::Mul)
                && let Some(c0v) = ir::as_const_i128(c0)
                && c0v % c1 == 0
            {
                return self.mul(x.clone(), ir::make_const(ty, c0v / c1));
            }
            // (x*c0 + y)/c1 → x*fold(c0/c1) + y/c1 when c1 divides c0
            if let Some((m, y)) = is_op(&a, BinOp::Add)
                && let Some((x, c0)) = is_op(m, BinOp::Mul)
                && let Some(c0v) = ir::as_const_i128(c0)
                && c0v % c1 == 0
            {
                let xq = self.mul(x.clone(), ir::make_const(ty, c0v / c1));
                let yq = self.div(y.clone(), b.clone());
                return self.add(xq, yq);
            }
            // (x + c0)/c1 → x/c1 + fold(c0/c1) when c1 divides c0
            if let (x, Some(c0)) = split_constant(&a)
                && let Some(c0v) = ir::as_const_i128(c0)
                && c0v % c1 == 0
            {
                let xq = self.div(x.clone(), b.clone());
                return self.add(xq, ir::make_const(ty, c0v / c1));
            }
        }
        ir::div(a, b)
    }

    /// Repeated division by positive constants folds into one (Euclidean division
    /// composes): `(x/c0)/c2 → x/(c0*c2)`, `(x/c0 + c1)/c2 → (x + c1*c0)/(c0*c2)`, and
    /// `(x*c0)/c1 → x/(c1/c0)` when `c0 > 0` divides `c1`.
    fn repeated_division(&mut self, a: &Expr, b: &Expr) -> Option<Expr> {
        let ty = a.ty();
        if !ir::no_overflow_int(ty) {
            return None;
        }
        let c2 = ir::as_const_i128(b).filter(|v| *v > 0)?;
        let fits =
            |v: i128| if ty.bits() <= 32 { i32::try_from(v).is_ok() } else { i64::try_from(v).is_ok() };
        let konst = |v: i128| ir::make_const(ty, v);
        if let Some((x, c0)) = is_op(a, BinOp::Div)
            && let Some(c0) = ir::as_const_i128(c0).filter(|v| *v > 0)
            && let Some(d) = c0.checked_mul(c2).filter(|d| fits(*d))
        {
            return Some(self.div(x.clone(), konst(d)));
        }
        if let (q, Some(c1)) = split_constant(a)
            && let Some((x, c0)) = is_op(q, BinOp::Div)
            && let (Some(c0), Some(c1)) = (ir::as_const_i128(c0).filter(|v| *v > 0), ir::as_const_i128(c1))
            && let Some(d) = c0.checked_mul(c2).filter(|d| fits(*d))
            && let Some(shift) = c1.checked_mul(c0).filter(|v| fits(*v))
        {
            let xs = self.add(x.clone(), konst(shift));
            return Some(self.div(xs, konst(d)));
        }
        if let Some((x, c0)) = is_op(a, BinOp::Mul)
            && let Some(c0) = ir::as_const_i128(c0).filter(|v| *v > 0)
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
            return ir::modulo(a, b);
        }
        if ir::is_const_one(&b) || ir::is_const_zero(&b) || ir::is_const_zero(&a) {
            return ir::zero(ty);
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
            return ir::make_const(ty, v as i128);
        }
        if let Some(c1) = ir::as_const_i128(&b)
            && c1 != 0
        {
            // (x*c0) % c1 → 0 when c1 divides c0
            if let Some((_, c0)) = is_op(&a, BinOp::Mul)
                && ir::as_const_i128(c0).is_some_and(|v| v % c1 == 0)
            {
                return ir::zero(ty);
            }
            // (x*c0 + y) % c1 → y % c1 when c1 divides c0;  (y + c0) % c1 likewise
            if let Some((m, y)) = is_op(&a, BinOp::Add) {
                let drop_left = is_op(m, BinOp::Mul)
                    .and_then(|(_, c0)| ir::as_const_i128(c0))
                    .is_some_and(|v| v % c1 == 0);
                if drop_left {
                    return self.modulo(y.clone(), b.clone());
                }
                if ir::as_const_i128(y).is_some_and(|v| v % c1 == 0) {
                    return self.modulo(m.clone(), b.clone());
                }
            }
        }
        ir::modulo(a, b)
    }

    /// `min(a, b)` or `max(a, b)`.
    pub fn min_max(&mut self, op: BinOp, a: Expr, b: Expr) -> Expr {
        if let Some(r) = self.fold(op, &a, &b) {
            return r;
        }
        if should_commute(&a, &b) {
            return self.min_max(op, b, a);
        }
        let is_min = op == BinOp::Min;
        let other = if is_min { BinOp::Max } else { BinOp::Min };
        // min(x, x) → x
        if ir::equal(&a, &b) {
            return a;
        }
        let ty = a.ty();
        if is_int(ty) {
            // Decided by ranges: min(x, y) → x when x <= y everywhere. A `likely` tag on
            // the winner goes (Halide: `min(likely(0), likely(1))` is `0`).
            let (ca, cb) = (self.constant_bounds(&a), self.constant_bounds(&b));
            if ca.le(&cb) {
                return strip_likely(if is_min { a } else { b });
            }
            if cb.le(&ca) {
                return strip_likely(if is_min { b } else { a });
            }
        }
        if ir::no_overflow_int(ty) {
            // Decided by the difference: min(x + c0, x + c1) → x + fold(min(c0, c1)).
            // Only where the difference cannot wrap: in an unsigned type `a - b` is never
            // negative, which would wrongly make `b` the smaller.
            let d = self.sub(a.clone(), b.clone());
            let cd = self.constant_bounds(&d);
            if cd.max.is_some_and(|v| v <= 0) {
                return if is_min { a } else { b };
            }
            if cd.min.is_some_and(|v| v >= 0) {
                return if is_min { b } else { a };
            }
        }
        // max(x, min(y, z) + c) → x when z + c <= x (and the mirror for min with max).
        if ir::no_overflow_int(ty) {
            for (keep, other) in [(&a, &b), (&b, &a)] {
                let (inner, c) = split_constant(other);
                let Some((p, q)) = is_op(inner, other_op(op)) else { continue };
                for operand in [p, q] {
                    let shifted = match c {
                        Some(c) => self.add(operand.clone(), c.clone()),
                        None => operand.clone(),
                    };
                    let d = self.sub(keep.clone(), shifted);
                    let cd = self.constant_bounds(&d);
                    let dominated =
                        if is_min { cd.max.is_some_and(|v| v <= 0) } else { cd.min.is_some_and(|v| v >= 0) };
                    if dominated {
                        return keep.clone();
                    }
                }
            }
        }
        if ir::is_const(&b) {
            // min(min(x, c0), c1) → min(x, fold(min(c0, c1)))
            if let Some((x, c0)) = is_op(&a, op)
                && ir::is_const(c0)
            {
                let c = self.fold_consts(op, c0, &b);
                return self.min_max(op, x.clone(), c);
            }
        } else {
            // min(min(x, c0), y) → min(min(x, y), c0)
            if let Some((x, c0)) = is_op(&a, op)
                && ir::is_const(c0)
            {
                let xy = self.min_max(op, x.clone(), b.clone());
                return self.min_max(op, xy, c0.clone());
            }
            // min(x, min(y, c0)) → min(min(x, y), c0)
            if let Some((y, c0)) = is_op(&b, op)
                && ir::is_const(c0)
            {
                let xy = self.min_max(op, a.clone(), y.clone());
                return self.min_max(op, xy, c0.clone());
            }
        }
        // min(min(x, y), x) → min(x, y);  min(x, min(x, y)) → min(x, y)
        if let Some((x, y)) = is_op(&a, op)
            && (ir::equal(x, &b) || ir::equal(y, &b))
        {
            return a;
        }
        if let Some((x, y)) = is_op(&b, op)
            && (ir::equal(x, &a) || ir::equal(y, &a))
        {
            return b;
        }
        // min(max(x, y), x) → x;  min(x, max(x, y)) → x
        if let Some((x, y)) = is_op(&a, other)
            && (ir::equal(x, &b) || ir::equal(y, &b))
        {
            return b;
        }
        if let Some((x, y)) = is_op(&b, other)
            && (ir::equal(x, &a) || ir::equal(y, &a))
        {
            return a;
        }
        if let Some(r) = self.min_max_regroup(op, &a, &b) {
            return r;
        }
        // min(x*c, y*c) → min(x, y)*c for c > 0 (max for c < 0)
        if is_int(ty)
            && let (Some((x, c0)), Some((y, c1))) = (is_op(&a, BinOp::Mul), is_op(&b, BinOp::Mul))
            && ir::is_const(c0)
            && ir::equal(c0, c1)
            && ir::no_overflow_int(ty)
        {
            if ir::is_positive_const(c0) {
                let m = self.min_max(op, x.clone(), y.clone());
                return self.mul(m, c0.clone());
            }
            if ir::is_negative_const(c0) {
                let m = self.min_max(other, x.clone(), y.clone());
                return self.mul(m, c0.clone());
            }
        }
        if ir::no_overflow_int(ty) {
            // min(x + c0, c1) → min(x, fold(c1 - c0)) + c0
            if let (x, Some(c0)) = split_constant(&a)
                && ir::is_const(&b)
            {
                let c = self.fold_consts(BinOp::Sub, &b, c0);
                let m = self.min_max(op, x.clone(), c);
                return self.add(m, c0.clone());
            }
            // min((x + y) + c0, y) → min(x + c0, 0) + y (either addend, either side)
            for (p, q) in [(&a, &b), (&b, &a)] {
                let (sum, c0) = split_constant(p);
                let Some((x, y)) = is_op(sum, BinOp::Add) else { continue };
                for (keep, common) in [(x, y), (y, x)] {
                    if ir::equal(common, q) {
                        let lhs = match c0 {
                            Some(c0) => self.add(keep.clone(), c0.clone()),
                            None => keep.clone(),
                        };
                        let m = self.min_max(op, lhs, ir::zero(ty));
                        return self.add(m, common.clone());
                    }
                }
            }
        }
        // min(x - y, x - z) → x - max(y, z) (and max → min)
        if let (Some((x1, y)), Some((x2, z))) = (is_op(&a, BinOp::Sub), is_op(&b, BinOp::Sub))
            && ir::equal(x1, x2)
            && ir::no_overflow_int(ty)
        {
            let m = self.min_max(other, y.clone(), z.clone());
            return self.sub(x1.clone(), m);
        }
        // min(x/c, y/c) → min(x, y)/c for c > 0 (division by a positive constant is monotone)
        if let (Some((x, c0)), Some((y, c1))) = (is_op(&a, BinOp::Div), is_op(&b, BinOp::Div))
            && ir::is_positive_const(c0)
            && ir::equal(c0, c1)
            && is_int(ty)
        {
            let m = self.min_max(op, x.clone(), y.clone());
            return self.div(m, c0.clone());
        }
        // min(x + c, y + c) → min(x, y) + c
        if let ((x, Some(c0)), (y, Some(c1))) = (split_constant(&a), split_constant(&b))
            && ir::equal(c0, c1)
        {
            let m = self.min_max(op, x.clone(), y.clone());
            return self.add(m, c0.clone());
        }
        // min(select(c, x, y), select(c, z, w)) → select(c, min(x, z), min(y, w))
        if let (ExprKind::Select(c1, x, y), ExprKind::Select(c2, z, w)) = (a.kind(), b.kind())
            && ir::equal(c1, c2)
        {
            let t = self.min_max(op, x.clone(), z.clone());
            let f = self.min_max(op, y.clone(), w.clone());
            return self.select(c1.clone(), t, f);
        }
        ir::binary(op, a, b)
    }

    /// Halide's regrouping rules for `op(a, b)` (`op` is min or max, `dual` the other):
    /// common operands are pulled out of nested min/max and of sums, and constants
    /// are moved so that one operand keeps them. Tried in this order, the first match
    /// wins:
    ///
    /// 1. `op(op(x, y), op(x, z)) → op(op(y, z), x)` (the common `x` in any position);
    /// 2. `op(op(x, y), op(z, w)) → op(op(op(x, y), z), w)`;
    /// 3. `op(dual(x, y), dual(x, z)) → dual(x, op(y, z))` (or `dual(op(y, z), x)` when
    ///    `x` is the right operand of the first);
    ///
    /// and, where arithmetic does not overflow:
    ///
    /// 4. `op(op(x, y) + c0, x)`: the constant moves onto `y` when that makes the sum
    ///    the smaller candidate of a min (`min(x, y + c0)`, `c0 > 0`), else the whole
    ///    term wins (`min(x, y) + c0`, `c0 < 0`); mirrored for max;
    /// 5. `op(x + c0, c1) → op(x, c1 - c0) + c0`;
    /// 6. `op(x + c0, y + c1) → op(x, y + (c1 - c0)) + c0` when `c1 > c0`, else
    ///    `op(x + (c0 - c1), y) + c1`: the smaller constant leaves;
    /// 7. `min(min(x, y), x + c0)` is `min(x, y)` when `c0 > 0` and `min(x + c0, y)`
    ///    when `c0 < 0` (mirrored for max);
    /// 8. `op(x + y, x + z) → x + op(y, z)`, `op(y + x, z + x) → op(y, z) + x`, and
    ///    `op(x, x + z) → x + op(z, 0)` (each with the summands in either order);
    /// 9. `op(op(x + y, z), x + w) → op(x + op(y, w), z)` and
    ///    `op(op(y + x, z), w + x) → op(op(y, w) + x, z)` (summands in either order,
    ///    `z` on either side).
    fn min_max_regroup(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Option<Expr> {
        let is_min = op == BinOp::Min;
        let dual = if is_min { BinOp::Max } else { BinOp::Min };
        let eq = ir::equal;
        // 0. An operand already present at the bottom of a left-nested chain:
        //    op(op(...op(op(x, y), z)..., w), x) → the chain (up to four levels).
        {
            let mut chain = a;
            for _ in 0..4 {
                let Some((inner, _)) = is_op(chain, op) else { break };
                if let Some((x, y)) = is_op(inner, op)
                    && (eq(x, b) || eq(y, b))
                {
                    return Some(a.clone());
                }
                chain = inner;
            }
        }
        // 1 and 2.
        if let (Some((a1, a2)), Some((b1, b2))) = (is_op(a, op), is_op(b, op)) {
            let common = [(a1, a2, b1, b2), (a2, a1, b1, b2), (a1, a2, b2, b1), (a2, a1, b2, b1)];
            for (x, y, x2, z) in common {
                if eq(x, x2) {
                    let yz = self.min_max(op, y.clone(), z.clone());
                    return Some(self.min_max(op, yz, x.clone()));
                }
            }
            let ab1 = self.min_max(op, a.clone(), b1.clone());
            return Some(self.min_max(op, ab1, b2.clone()));
        }
        // 3.
        if let (Some((a1, a2)), Some((b1, b2))) = (is_op(a, dual), is_op(b, dual)) {
            for (x, y, x2, z, x_left) in [
                (a1, a2, b1, b2, true),
                (a1, a2, b2, b1, true),
                (a2, a1, b1, b2, false),
                (a2, a1, b2, b1, false),
            ] {
                if eq(x, x2) {
                    let yz = self.min_max(op, y.clone(), z.clone());
                    return Some(if x_left {
                        self.min_max(dual, x.clone(), yz)
                    } else {
                        self.min_max(dual, yz, x.clone())
                    });
                }
            }
        }
        // op(op(x/c0, y), z/c0) → op(op(x, z)/c0, y) for c0 > 0.
        if let Some((xq, y)) = is_op(a, op)
            && let Some((x, c0)) = is_op(xq, BinOp::Div)
            && let Some((z, c1)) = is_op(b, BinOp::Div)
            && ir::equal(c0, c1)
            && ir::is_positive_const(c0)
        {
            let xz = self.min_max(op, x.clone(), z.clone());
            let q = self.div(xz, c0.clone());
            return Some(self.min_max(op, q, y.clone()));
        }
        let ty = a.ty();
        if !ir::no_overflow(ty) {
            return None;
        }
        let konst = |e: &Expr| ir::as_const_i128(e);
        // For min, a positive constant makes a candidate lose; for max, a negative one.
        let loses = |c: i128| if is_min { c > 0 } else { c < 0 };
        // 4.
        if let (inner, Some(c0)) = split_constant(a)
            && let Some((p, q)) = is_op(inner, op)
            && let Some(cv) = konst(c0).filter(|v| *v != 0)
        {
            for (x, y, x_left) in [(p, q, true), (q, p, false)] {
                if eq(x, b) {
                    if loses(cv) {
                        let yc = self.add(y.clone(), c0.clone());
                        return Some(if x_left {
                            self.min_max(op, x.clone(), yc)
                        } else {
                            self.min_max(op, yc, x.clone())
                        });
                    }
                    return Some(a.clone());
                }
            }
        }
        match (split_constant(a), split_constant(b)) {
            // 5.
            ((x, Some(c0)), _) if ir::is_const(b) => {
                let c = self.fold_consts(BinOp::Sub, b, c0);
                if ir::is_const(&c) {
                    let m = self.min_max(op, x.clone(), c);
                    return Some(self.add(m, c0.clone()));
                }
            }
            // 6.
            ((x, Some(c0)), (y, Some(c1))) => {
                if let (Some(v0), Some(v1)) = (konst(c0), konst(c1))
                    && v0 != v1
                {
                    let (lo, hi) = if v1 > v0 { (c0, c1) } else { (c1, c0) };
                    let d = self.fold_consts(BinOp::Sub, hi, lo);
                    let m = if v1 > v0 {
                        let yd = self.add(y.clone(), d);
                        self.min_max(op, x.clone(), yd)
                    } else {
                        let xd = self.add(x.clone(), d);
                        self.min_max(op, xd, y.clone())
                    };
                    return Some(self.add(m, lo.clone()));
                }
            }
            _ => {}
        }
        // 7.
        if let (Some((p, q)), (xb, Some(c0))) = (is_op(a, op), split_constant(b))
            && let Some(cv) = konst(c0).filter(|v| *v != 0)
        {
            for (x, y, x_left) in [(p, q, true), (q, p, false)] {
                if eq(x, xb) {
                    if loses(cv) {
                        return Some(a.clone());
                    }
                    return Some(if x_left {
                        self.min_max(op, b.clone(), y.clone())
                    } else {
                        self.min_max(op, y.clone(), b.clone())
                    });
                }
            }
        }
        // 8.
        match (is_op(a, BinOp::Add), is_op(b, BinOp::Add)) {
            (Some((a1, a2)), Some((b1, b2))) => {
                if eq(a1, b1) || eq(a1, b2) {
                    let other = if eq(a1, b1) { b2 } else { b1 };
                    let m = self.min_max(op, a2.clone(), other.clone());
                    return Some(self.add(a1.clone(), m));
                }
                if eq(a2, b1) || eq(a2, b2) {
                    let other = if eq(a2, b1) { b2 } else { b1 };
                    let m = self.min_max(op, a1.clone(), other.clone());
                    return Some(self.add(m, a2.clone()));
                }
            }
            (None, Some((b1, b2))) if eq(a, b1) || eq(a, b2) => {
                let z = if eq(a, b1) { b2 } else { b1 };
                let m = self.min_max(op, z.clone(), ir::zero(ty));
                return Some(self.add(a.clone(), m));
            }
            (Some((a1, a2)), None) if eq(a2, b) => {
                let m = self.min_max(op, a1.clone(), ir::zero(ty));
                return Some(self.add(m, b.clone()));
            }
            (Some((a1, a2)), None) if eq(a1, b) => {
                let m = self.min_max(op, a2.clone(), ir::zero(ty));
                return Some(self.add(b.clone(), m));
            }
            _ => {}
        }
        // 9.
        if let (Some((a1, a2)), Some((q1, q2))) = (is_op(a, op), is_op(b, BinOp::Add)) {
            let sums = [(a1, a2), (a2, a1)];
            // x + y inside, x + w or w + x outside.
            for outer_x_first in [true, false] {
                for (s, z) in sums {
                    if let Some((p1, p2)) = is_op(s, BinOp::Add) {
                        let (x, w) = if outer_x_first { (q1, q2) } else { (q2, q1) };
                        if eq(p1, x) {
                            let m = self.min_max(op, p2.clone(), w.clone());
                            let xm = self.add(p1.clone(), m);
                            return Some(self.min_max(op, xm, z.clone()));
                        }
                    }
                }
            }
            // y + x inside, x + w or w + x outside.
            for outer_x_first in [true, false] {
                for (s, z) in sums {
                    if let Some((p1, p2)) = is_op(s, BinOp::Add) {
                        let (x, w) = if outer_x_first { (q1, q2) } else { (q2, q1) };
                        if eq(p2, x) {
                            let m = self.min_max(op, p1.clone(), w.clone());
                            let mx = self.add(m, p2.clone());
                            return Some(self.min_max(op, mx, z.clone()));
                        }
                    }
                }
            }
        }
        self.min_max_of_quotients(op, a, b)
    }

    /// Differences with a common term, and quotients by the same constant:
    ///
    /// * `op(y - x, z - x) → op(y, z) - x` and `min(x - y, x - z) → x - max(y, z)`;
    /// * `op(x/c0, y/c0) → op(x, y)/c0` for `c0 > 0` (the dual op for `c0 < 0`);
    /// * `op(x/c0, y/c0 + c1) → op(x, y + c1*c0)/c0` for `c0 > 0` (dual for `c0 < 0`).
    ///
    /// So `min(v/2, (v + 1)/2)` becomes `v/2`.
    fn min_max_of_quotients(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Option<Expr> {
        let dual = if op == BinOp::Min { BinOp::Max } else { BinOp::Min };
        if let (Some((y, x1)), Some((z, x2))) = (is_op(a, BinOp::Sub), is_op(b, BinOp::Sub)) {
            if ir::equal(x1, x2) {
                let m = self.min_max(op, y.clone(), z.clone());
                return Some(self.sub(m, x1.clone()));
            }
            if ir::equal(y, z) {
                let m = self.min_max(dual, x1.clone(), x2.clone());
                return Some(self.sub(y.clone(), m));
            }
        }
        if let Some(r) = self.min_max_of_products(op, a, b) {
            return Some(r);
        }
        let (x, c0) = is_op(a, BinOp::Div)?;
        let k = ir::as_const_i128(c0).filter(|k| *k != 0)?;
        let which = if k > 0 { op } else { dual };
        if let Some((y, c)) = is_op(b, BinOp::Div)
            && ir::equal(c, c0)
        {
            let m = self.min_max(which, x.clone(), y.clone());
            return Some(self.div(m, c0.clone()));
        }
        if let (q, Some(c1)) = split_constant(b)
            && let Some((y, c)) = is_op(q, BinOp::Div)
            && ir::equal(c, c0)
            && let Some(shift) = ir::as_const_i128(c1).and_then(|v| v.checked_mul(k))
            && (if a.ty().bits() <= 32 { i32::try_from(shift).is_ok() } else { i64::try_from(shift).is_ok() })
        {
            let ys = self.add(y.clone(), ir::make_const(a.ty(), shift));
            let m = self.min_max(which, x.clone(), ys);
            return Some(self.div(m, c0.clone()));
        }
        None
    }

    /// Products by constants share their factor (`c0 > 0`; a negative factor flips the
    /// operation):
    ///
    /// * `op(x*c0, c1) → op(x, c1/c0)*c0` when `c0` divides `c1`;
    /// * `op(x*c0, y*c1) → op(x, y*(c1/c0))*c0` when `c0` divides `c1`, else
    ///   `op(x*(c0/c1), y)*c1` when `c1` divides `c0`;
    /// * `op(x*c0, y*c0 + c1) → op(x, y + c1/c0)*c0` when `c0` divides `c1`.
    ///
    /// So `max(v*256, 256)` becomes `max(v, 1)*256`.
    fn min_max_of_products(&mut self, op: BinOp, a: &Expr, b: &Expr) -> Option<Expr> {
        let ty = a.ty();
        if !ir::no_overflow_int(ty) {
            return None;
        }
        let dual = if op == BinOp::Min { BinOp::Max } else { BinOp::Min };
        let (x, c0) = is_op(a, BinOp::Mul)?;
        let k0 = ir::as_const_i128(c0).filter(|k| *k != 0)?;
        let pick = |k: i128| if k > 0 { op } else { dual };
        let divides = |d: i128, n: i128| n % d == 0;
        if let Some(k1) = ir::as_const_i128(b) {
            if divides(k0, k1) {
                let m = self.min_max(pick(k0), x.clone(), ir::make_const(ty, k1 / k0));
                return Some(self.mul(m, c0.clone()));
            }
            return None;
        }
        if let Some((y, c1)) = is_op(b, BinOp::Mul)
            && let Some(k1) = ir::as_const_i128(c1).filter(|k| *k != 0)
        {
            if divides(k0, k1) {
                let yk = self.mul(y.clone(), ir::make_const(ty, k1 / k0));
                let m = self.min_max(pick(k0), x.clone(), yk);
                return Some(self.mul(m, c0.clone()));
            }
            if divides(k1, k0) {
                let xk = self.mul(x.clone(), ir::make_const(ty, k0 / k1));
                let m = self.min_max(pick(k1), xk, y.clone());
                return Some(self.mul(m, c1.clone()));
            }
            return None;
        }
        if let (q, Some(c1)) = split_constant(b)
            && let Some((y, c2)) = is_op(q, BinOp::Mul)
            && ir::equal(c2, c0)
            && let Some(k1) = ir::as_const_i128(c1)
            && divides(k0, k1)
        {
            let ys = self.add(y.clone(), ir::make_const(ty, k1 / k0));
            let m = self.min_max(pick(k0), x.clone(), ys);
            return Some(self.mul(m, c0.clone()));
        }
        None
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
        if ir::no_overflow_int(ty) {
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
        if ir::equal(&a, &b) {
            return ir::make_bool(false, lanes);
        }
        if let Some(v) = self.decide_lt(&a, &b) {
            return ir::make_bool(v, lanes);
        }
        let ty = a.ty();
        if ir::no_overflow_int(ty) {
            match (split_constant(&a), split_constant(&b)) {
                // x + c0 < y + c1 → x < y + fold(c1 - c0)
                ((x, Some(c0)), (y, Some(c1))) => {
                    let c = self.fold_consts(BinOp::Sub, c1, c0);
                    let rhs = self.add(y.clone(), c);
                    return self.lt(x.clone(), rhs);
                }
                // x + c0 < y → x < y + fold(-c0)   (c0 < x + c1 → fold(c0 - c1) < x)
                ((x, Some(c0)), (y, None)) => {
                    if ir::is_const(y) {
                        let c = self.fold_consts(BinOp::Sub, y, c0);
                        return self.lt(x.clone(), c);
                    }
                    let neg = self.fold_consts(BinOp::Sub, &ir::zero(ty), c0);
                    let rhs = self.add(y.clone(), neg);
                    return self.lt(x.clone(), rhs);
                }
                ((x, None), (y, Some(c1))) if ir::is_const(x) => {
                    let c = self.fold_consts(BinOp::Sub, x, c1);
                    return self.lt(c, y.clone());
                }
                _ => {}
            }
        }
        if ir::no_overflow(ty)
            && let Some(r) = self.lt_linear(&a, &b)
        {
            return r;
        }
        ir::lt(a, b)
    }

    /// Halide's linear rules for `a < b` in types without overflow, in its order:
    /// subtractions are moved to the other side (`x - y < z` → `x < z + y`, also when the
    /// subtraction is one operand of a sum), then a term common to both sides cancels.
    fn lt_linear(&mut self, a: &Expr, b: &Expr) -> Option<Expr> {
        // x - y < z → x < z + y;  z < x - y → z + y < x
        if let Some((x, y)) = is_op(a, BinOp::Sub) {
            let rhs = self.add(b.clone(), y.clone());
            return Some(self.lt(x.clone(), rhs));
        }
        if let Some((x, y)) = is_op(b, BinOp::Sub) {
            let lhs = self.add(a.clone(), y.clone());
            return Some(self.lt(lhs, x.clone()));
        }
        // (x - y) + z < w and z + (x - y) < w → x + z < y + w
        if let Some((p, q)) = is_op(a, BinOp::Add) {
            for (d, z) in [(p, q), (q, p)] {
                if let Some((x, y)) = is_op(d, BinOp::Sub) {
                    let lhs = self.add(x.clone(), z.clone());
                    let rhs = self.add(y.clone(), b.clone());
                    return Some(self.lt(lhs, rhs));
                }
            }
        }
        // w < (x - y) + z and w < z + (x - y) → w + y < x + z
        if let Some((p, q)) = is_op(b, BinOp::Add) {
            for (d, z) in [(p, q), (q, p)] {
                if let Some((x, y)) = is_op(d, BinOp::Sub) {
                    let lhs = self.add(a.clone(), y.clone());
                    let rhs = self.add(x.clone(), z.clone());
                    return Some(self.lt(lhs, rhs));
                }
            }
        }
        // ((x - y) + z) + u < w (and the other three nestings) → ((x + z) + u) < w + y
        if let Some((s, u)) = is_op(a, BinOp::Add) {
            for (inner, u2) in [(s, u), (u, s)] {
                if let Some((p, q)) = is_op(inner, BinOp::Add) {
                    for (d, z) in [(p, q), (q, p)] {
                        if let Some((x, y)) = is_op(d, BinOp::Sub) {
                            let xz = self.add(x.clone(), z.clone());
                            let lhs = self.add(xz, u2.clone());
                            let rhs = self.add(b.clone(), y.clone());
                            return Some(self.lt(lhs, rhs));
                        }
                    }
                }
            }
        }
        // w < ((x - y) + z) + u (and the other nestings) → w + y < (x + z) + u
        if let Some((s, u)) = is_op(b, BinOp::Add) {
            for (inner, u2) in [(s, u), (u, s)] {
                if let Some((p, q)) = is_op(inner, BinOp::Add) {
                    for (d, z) in [(p, q), (q, p)] {
                        if let Some((x, y)) = is_op(d, BinOp::Sub) {
                            let lhs = self.add(a.clone(), y.clone());
                            let xz = self.add(x.clone(), z.clone());
                            let rhs = self.add(xz, u2.clone());
                            return Some(self.lt(lhs, rhs));
                        }
                    }
                }
            }
        }
        // Cancellations: x < x + y → 0 < y; x + y < x → y < 0; x + y < x + z → y < z.
        let zero = || ir::zero(a.ty());
        if let Some((p, q)) = is_op(b, BinOp::Add) {
            if ir::equal(a, p) {
                return Some(self.lt(zero(), q.clone()));
            }
            if ir::equal(a, q) {
                return Some(self.lt(zero(), p.clone()));
            }
        }
        if let Some((p, q)) = is_op(a, BinOp::Add) {
            if ir::equal(b, p) {
                return Some(self.lt(q.clone(), zero()));
            }
            if ir::equal(b, q) {
                return Some(self.lt(p.clone(), zero()));
            }
            if let Some((r, t)) = is_op(b, BinOp::Add) {
                for (x, y) in [(p, q), (q, p)] {
                    for (x2, z) in [(r, t), (t, r)] {
                        if ir::equal(x, x2) {
                            return Some(self.lt(y.clone(), z.clone()));
                        }
                    }
                }
            }
        }
        None
    }

    /// `a <= b`, canonically `!(b < a)` printed as `a <= b`.
    pub fn le(&mut self, a: Expr, b: Expr) -> Expr {
        if let Some(r) = self.fold(BinOp::Le, &a, &b) {
            return r;
        }
        let r = self.lt(b.clone(), a.clone());
        match r.kind() {
            ExprKind::Binary(BinOp::Lt, p, q) => ir::le(q.clone(), p.clone()),
            _ => self.not(r),
        }
    }

    /// `a == b`.
    pub fn eq(&mut self, a: Expr, b: Expr) -> Expr {
        if let Some(r) = self.fold(BinOp::Eq, &a, &b) {
            return r;
        }
        let lanes = a.ty().lanes();
        if ir::equal(&a, &b) {
            return ir::make_bool(true, lanes);
        }
        let ty = a.ty();
        if is_int(ty) {
            let (ca, cb) = (self.constant_bounds(&a), self.constant_bounds(&b));
            if ca.lt(&cb) || cb.lt(&ca) {
                return ir::make_bool(false, lanes);
            }
            if ir::no_overflow_int(ty) {
                let d = self.sub(a.clone(), b.clone());
                let cd = self.constant_bounds(&d);
                if !cd.contains(0) {
                    return ir::make_bool(false, lanes);
                }
                if cd.as_single_point() == Some(0) {
                    return ir::make_bool(true, lanes);
                }
                // x + c0 == c1 → x == fold(c1 - c0)
                if let (x, Some(c0)) = split_constant(&a)
                    && ir::is_const(&b)
                {
                    let c = self.fold_consts(BinOp::Sub, &b, c0);
                    return self.eq(x.clone(), c);
                }
            }
        }
        if ty.is_bool() {
            // b == true → b; b == false → !b
            if ir::is_const_true(&b) {
                return a;
            }
            if ir::is_const_false(&b) {
                return self.not(a);
            }
        }
        if ir::is_const(&a) && !ir::is_const(&b) {
            return ir::eq(b, a);
        }
        ir::eq(a, b)
    }

    /// `a && b` or `a || b`.
    pub fn and_or(&mut self, op: BinOp, a: Expr, b: Expr) -> Expr {
        let is_and = op == BinOp::And;
        let lanes = a.ty().lanes();
        // Absorbing and neutral constants.
        for (x, y) in [(&a, &b), (&b, &a)] {
            if ir::is_const_true(x) {
                return if is_and { y.clone() } else { x.clone() };
            }
            if ir::is_const_false(x) {
                return if is_and { x.clone() } else { y.clone() };
            }
        }
        if should_commute(&a, &b) {
            return self.and_or(op, b, a);
        }
        // x && x → x
        if ir::equal(&a, &b) {
            return a;
        }
        // x && !x → false;  x || !x → true
        let negates = |p: &Expr, q: &Expr| matches!(q.kind(), ExprKind::Not(n) if ir::equal(n, p));
        if negates(&a, &b) || negates(&b, &a) {
            return ir::make_bool(!is_and, lanes);
        }
        // x && (x || y) → x;  x || (x && y) → x
        let dual = if is_and { BinOp::Or } else { BinOp::And };
        for (x, y) in [(&a, &b), (&b, &a)] {
            if let Some((p, q)) = is_op(y, dual)
                && (ir::equal(p, x) || ir::equal(q, x))
            {
                return x.clone();
            }
        }
        // (p && c) || (p && !c) → p, in any operand order (and the mirror for &&).
        if let (Some((p1, q1)), Some((p2, q2))) = (is_op(&a, dual), is_op(&b, dual)) {
            let combos = [(p1, q1, p2, q2), (p1, q1, q2, p2), (q1, p1, p2, q2), (q1, p1, q2, p2)];
            for (p, c, pp, cc) in combos {
                if ir::equal(p, pp) && (negates(c, cc) || negates(cc, c)) {
                    return p.clone();
                }
            }
        }
        ir::binary(op, a, b)
    }

    /// `!a`.
    pub fn not(&mut self, a: Expr) -> Expr {
        let lanes = a.ty().lanes();
        if ir::is_const_true(&a) {
            return ir::make_bool(false, lanes);
        }
        if ir::is_const_false(&a) {
            return ir::make_bool(true, lanes);
        }
        match a.kind() {
            ExprKind::Not(x) => x.clone(),                                     // !!x → x
            ExprKind::Binary(BinOp::Lt, x, y) => ir::le(y.clone(), x.clone()), // !(x < y) → y <= x
            ExprKind::Binary(BinOp::Le, x, y) => ir::lt(y.clone(), x.clone()), // !(x <= y) → y < x
            ExprKind::Binary(BinOp::Eq, x, y) => ir::ne(x.clone(), y.clone()),
            ExprKind::Binary(BinOp::Ne, x, y) => ir::eq(x.clone(), y.clone()),
            _ => ir::not(a),
        }
    }

    /// `select(c, t, f)`.
    pub fn select(&mut self, c: Expr, t: Expr, f: Expr) -> Expr {
        if ir::is_const_true(&c) {
            return t;
        }
        if ir::is_const_false(&c) {
            return f;
        }
        // select(c, x, x) → x
        if ir::equal(&t, &f) {
            return t;
        }
        // select(!c, x, y) → select(c, y, x)
        if let ExprKind::Not(inner) = c.kind() {
            return self.select(inner.clone(), f, t);
        }
        if t.ty().is_bool() && c.ty() == t.ty() {
            // select(c, true, false) → c;  select(c, false, true) → !c
            if ir::is_const_true(&t) && ir::is_const_false(&f) {
                return c;
            }
            if ir::is_const_false(&t) && ir::is_const_true(&f) {
                return self.not(c);
            }
        }
        // select(c, select(c, x, y), z) → select(c, x, z)
        if let ExprKind::Select(c2, x, _) = t.kind()
            && ir::equal(c2, &c)
        {
            return self.select(c, x.clone(), f);
        }
        // select(c, x, select(c, y, z)) → select(c, x, z)
        if let ExprKind::Select(c2, _, z) = f.kind()
            && ir::equal(c2, &c)
        {
            return self.select(c, t, z.clone());
        }
        // select(p <= q, p*k, q*k) → min(p*k, q*k) for k > 0 (k = 1 included), and the
        // mirror with max
        if let ExprKind::Binary(BinOp::Lt | BinOp::Le, p, q) = c.kind()
            && c.ty().is_scalar()
            && t.ty().is_scalar()
            && (ir::no_overflow_int(t.ty()) || t.ty().is_float())
            && p.ty() == t.ty()
        {
            let k = [&t, &f]
                .into_iter()
                .find_map(|e| is_op(e, BinOp::Mul).map(|(_, k)| k.clone()).filter(ir::is_positive_const))
                .unwrap_or_else(|| ir::one(t.ty()));
            let pk = self.mul(p.clone(), k.clone());
            let qk = self.mul(q.clone(), k);
            if ir::equal(&pk, &t) && ir::equal(&qk, &f) {
                return self.min_max(BinOp::Min, t, f);
            }
            if ir::equal(&qk, &t) && ir::equal(&pk, &f) {
                return self.min_max(BinOp::Max, t, f);
            }
        }
        // select(x < y, x, y) → min(x, y);  select(x < y, y, x) → max(x, y)
        if let ExprKind::Binary(BinOp::Lt | BinOp::Le, x, y) = c.kind()
            && c.ty().is_scalar() == t.ty().is_scalar()
        {
            if ir::equal(x, &t) && ir::equal(y, &f) {
                return self.min_max(BinOp::Min, t, f);
            }
            if ir::equal(y, &t) && ir::equal(x, &f) {
                return self.min_max(BinOp::Max, t, f);
            }
        }
        ir::select(c, t, f)
    }

    /// The constant interval of a finite constant expression, if it is one.
    pub fn const_of(e: &Expr) -> Option<ConstantInterval> {
        match ir::const_value(e)? {
            Const::Int(v) => Some(ConstantInterval::single_point(v)),
            Const::UInt(v) => i64::try_from(v).ok().map(ConstantInterval::single_point),
            Const::Float(_) => None,
        }
    }
}
