//! Symbolic intervals `[lo, hi]` whose ends are expressions or infinities (`docs/reference/bounds.md` §1.1).

use loopir::constant;
use loopir::equality;
use loopir::make;
use loopir::stack::with_stack;
use std::fmt;

use loopir::{BinOp, Expr, ExprKind};

use loopir::constant::Const;

/// One end of an [`Interval`].
#[derive(Clone, Debug)]
pub enum Bound {
    /// No lower bound (or, as an upper end, the empty interval). Prints as `neg_inf`.
    NegInf,
    /// No upper bound (or, as a lower end, the empty interval). Prints as `pos_inf`.
    PosInf,
    /// An inclusive bound with the scalar element type of the analysed expression.
    Finite(Expr),
}

impl Bound {
    /// The expression of a finite end.
    pub fn as_expr(&self) -> Option<&Expr> {
        match self {
            Bound::Finite(e) => Some(e),
            _ => None,
        }
    }

    /// Whether the end is finite.
    pub fn is_finite(&self) -> bool {
        matches!(self, Bound::Finite(_))
    }

    /// Identity: both infinite of the same sign, or both the same node.
    pub fn same_as(&self, other: &Bound) -> bool {
        match (self, other) {
            (Bound::NegInf, Bound::NegInf) | (Bound::PosInf, Bound::PosInf) => true,
            (Bound::Finite(a), Bound::Finite(b)) => a.same_as(b),
            _ => false,
        }
    }

    /// Structural equality.
    pub fn equal(&self, other: &Bound) -> bool {
        match (self, other) {
            (Bound::NegInf, Bound::NegInf) | (Bound::PosInf, Bound::PosInf) => true,
            (Bound::Finite(a), Bound::Finite(b)) => equality::equal(a, b),
            _ => false,
        }
    }

    /// Applies `f` to a finite end; infinities are kept.
    pub fn map(&self, f: impl FnOnce(&Expr) -> Expr) -> Bound {
        match self {
            Bound::Finite(e) => Bound::Finite(f(e)),
            other => other.clone(),
        }
    }

    /// The mirror image: finite ends are kept, infinities change sign.
    pub fn flip_infinity(&self) -> Bound {
        match self {
            Bound::NegInf => Bound::PosInf,
            Bound::PosInf => Bound::NegInf,
            f => f.clone(),
        }
    }
}

impl From<Expr> for Bound {
    fn from(e: Expr) -> Bound {
        Bound::Finite(e)
    }
}

impl fmt::Display for Bound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Bound::NegInf => f.write_str("neg_inf"),
            Bound::PosInf => f.write_str("pos_inf"),
            Bound::Finite(e) => write!(f, "{e}"),
        }
    }
}

/// A closed interval of values of one scalar type; either end may be infinite.
#[derive(Clone, Debug)]
pub struct Interval {
    /// The lower end.
    pub min: Bound,
    /// The upper end.
    pub max: Bound,
}

impl Default for Interval {
    fn default() -> Self {
        Interval::everything()
    }
}

impl Interval {
    /// `[lo, hi]`.
    pub fn new(min: impl Into<Bound>, max: impl Into<Bound>) -> Interval {
        Interval { min: min.into(), max: max.into() }
    }

    /// `[neg_inf, pos_inf]`.
    pub fn everything() -> Interval {
        Interval { min: Bound::NegInf, max: Bound::PosInf }
    }

    /// `[pos_inf, neg_inf]`, the identity of [`Interval::include`].
    pub fn nothing() -> Interval {
        Interval { min: Bound::PosInf, max: Bound::NegInf }
    }

    /// `[e, e]`, both ends sharing the node.
    pub fn point(e: Expr) -> Interval {
        Interval { min: Bound::Finite(e.clone()), max: Bound::Finite(e) }
    }

    /// Whether the interval is empty.
    pub fn is_empty(&self) -> bool {
        matches!(self.min, Bound::PosInf) || matches!(self.max, Bound::NegInf)
    }

    /// Whether the interval is `[neg_inf, pos_inf]`.
    pub fn is_everything(&self) -> bool {
        matches!(self.min, Bound::NegInf) && matches!(self.max, Bound::PosInf)
    }

    /// Whether the lower end is finite (and the interval not empty).
    pub fn has_lower_bound(&self) -> bool {
        self.min.is_finite() && !self.is_empty()
    }

    /// Whether the upper end is finite (and the interval not empty).
    pub fn has_upper_bound(&self) -> bool {
        self.max.is_finite() && !self.is_empty()
    }

    /// Whether both ends are finite.
    pub fn is_bounded(&self) -> bool {
        self.has_lower_bound() && self.has_upper_bound()
    }

    /// Whether the interval is bounded and its ends are structurally equal.
    pub fn is_single_point(&self) -> bool {
        match (&self.min, &self.max) {
            (Bound::Finite(a), Bound::Finite(b)) => equality::equal(a, b),
            _ => false,
        }
    }

    /// Whether the interval is bounded and both ends equal `e`.
    pub fn is_single_point_of(&self, e: &Expr) -> bool {
        match (&self.min, &self.max) {
            (Bound::Finite(a), Bound::Finite(b)) => equality::equal(a, e) && equality::equal(b, e),
            _ => false,
        }
    }

    /// Both ends identical by node identity.
    pub fn same_as(&self, other: &Interval) -> bool {
        self.min.same_as(&other.min) && self.max.same_as(&other.max)
    }

    /// Grows the interval to include `other`.
    pub fn include(&mut self, other: &Interval) {
        self.max = make_max(&self.max, &other.max);
        self.min = make_min(&self.min, &other.min);
    }

    /// Grows the interval to include the value `e`.
    pub fn include_expr(&mut self, e: &Expr) {
        let p = Bound::Finite(e.clone());
        self.max = make_max(&self.max, &p);
        self.min = make_min(&self.min, &p);
    }

    /// The hull of `a` and `b`.
    pub fn union(a: &Interval, b: &Interval) -> Interval {
        let mut r = a.clone();
        r.include(b);
        r
    }

    /// `[max(a.lo, b.lo), min(a.hi, b.hi)]`.
    pub fn intersection(a: &Interval, b: &Interval) -> Interval {
        Interval { min: make_max(&a.min, &b.min), max: make_min(&a.max, &b.max) }
    }

    /// The lower end as an expression, if finite.
    pub fn lo(&self) -> Option<&Expr> {
        self.min.as_expr()
    }

    /// The upper end as an expression, if finite.
    pub fn hi(&self) -> Option<&Expr> {
        self.max.as_expr()
    }
}

impl Interval {
    /// Prints `[lo, hi]` with each end in statement-level form (no outer parentheses).
    pub fn pretty(&self) -> String {
        let end = |b: &Bound| match b {
            Bound::Finite(e) => loopir::print::expr_to_string_implicit(e),
            other => other.to_string(),
        };
        format!("[{}, {}]", end(&self.min), end(&self.max))
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "[{}, {}]", self.min, self.max)
    }
}

fn fold_min_max(op: BinOp, a: &Expr, b: &Expr) -> Option<Expr> {
    let pick_a = match (constant::const_value(a)?, constant::const_value(b)?) {
        (Const::Int(x), Const::Int(y)) => x <= y,
        (Const::UInt(x), Const::UInt(y)) => x <= y,
        (Const::Float(x), Const::Float(y)) => x <= y,
        _ => return None,
    };
    let pick_a = if op == BinOp::Min { pick_a } else { !pick_a };
    Some(if pick_a { a.clone() } else { b.clone() })
}

fn as_minmax(e: &Expr, op: BinOp) -> Option<(&Expr, &Expr)> {
    match e.kind() {
        ExprKind::Binary(o, x, y) if *o == op => Some((x, y)),
        _ => None,
    }
}

/// `op` (Min or Max) of two finite expressions with the peepholes of `docs/reference/bounds.md` §1.1: equal
/// operands, constant folding, constants floated to the right and outward, and absorption
/// of an operand already inside a nested min/max. Looks at most two levels deep.
pub fn make_min_max_expr(op: BinOp, a: &Expr, b: &Expr) -> Expr {
    if equality::equal(a, b) {
        return a.clone();
    }
    if let Some(c) = fold_min_max(op, a, b) {
        return c;
    }
    // Constants go right; two constants that do not fold (of two types, which only
    // ill-typed text gives) stay as they are rather than swap places forever.
    if constant::is_const(a) && !constant::is_const(b) {
        return make_min_max_expr(op, b, a);
    }
    if let Some((x, c0)) = as_minmax(a, op)
        && constant::is_const(c0)
    {
        if constant::is_const(b) {
            if let Some(c) = fold_min_max(op, c0, b) {
                return make::binary(op, x.clone(), c);
            }
        } else {
            return make::binary(op, make::binary(op, x.clone(), b.clone()), c0.clone());
        }
    }
    if let Some((y, c0)) = as_minmax(b, op)
        && constant::is_const(c0)
    {
        return make::binary(op, make::binary(op, a.clone(), y.clone()), c0.clone());
    }
    if let Some((x, y)) = as_minmax(a, op)
        && (equality::equal(x, b) || equality::equal(y, b))
    {
        return a.clone();
    }
    if let Some((x, y)) = as_minmax(b, op)
        && (equality::equal(x, a) || equality::equal(y, a))
    {
        return b.clone();
    }
    make::binary(op, a.clone(), b.clone())
}

/// An eagerly simplified maximum that understands infinities (`docs/reference/bounds.md` §1.1).
pub fn make_max(a: &Bound, b: &Bound) -> Bound {
    match (a, b) {
        (Bound::PosInf, _) | (_, Bound::PosInf) => Bound::PosInf,
        (Bound::NegInf, x) | (x, Bound::NegInf) => x.clone(),
        (Bound::Finite(x), Bound::Finite(y)) => Bound::Finite(make_min_max_expr(BinOp::Max, x, y)),
    }
}

/// An eagerly simplified minimum that understands infinities (`docs/reference/bounds.md` §1.1).
pub fn make_min(a: &Bound, b: &Bound) -> Bound {
    match (a, b) {
        (Bound::NegInf, _) | (_, Bound::NegInf) => Bound::NegInf,
        (Bound::PosInf, x) | (x, Bound::PosInf) => x.clone(),
        (Bound::Finite(x), Bound::Finite(y)) => Bound::Finite(make_min_max_expr(BinOp::Min, x, y)),
    }
}

/// An upper bound on `i.hi - i.lo` (`docs/reference/bounds.md` §1.8), peeling a common right operand off
/// matching pairs of ends: `(a + c) - (b + c) = a - b` (likewise for `-`), and since min
/// and max change by at most as much as their operand, `min(a, c) - min(b, c) <=
/// max(a - b, 0)` (likewise for max). Otherwise the plain difference. None when the
/// interval is unbounded.
pub fn span_of_bounds(i: &Interval) -> Option<Expr> {
    Some(span(i.lo()?, i.hi()?))
}

fn span(lo: &Expr, hi: &Expr) -> Expr {
    if let (ExprKind::Binary(op_h, a_h, b_h), ExprKind::Binary(op_l, a_l, b_l)) = (hi.kind(), lo.kind())
        && op_h == op_l
        && equality::equal(b_h, b_l)
    {
        match op_h {
            BinOp::Add | BinOp::Sub => return with_stack(|| span(a_l, a_h)),
            BinOp::Min | BinOp::Max => {
                let inner = with_stack(|| span(a_l, a_h));
                let zero = constant::make_zero(inner.ty());
                return make::max(inner, zero);
            }
            _ => {}
        }
    }
    make::sub(hi.clone(), lo.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use loopir::Expr;

    fn x() -> Expr {
        Expr::var_i32("x")
    }
    fn y() -> Expr {
        Expr::var_i32("y")
    }
    fn c(v: i32) -> Expr {
        Expr::i32(v)
    }
    fn fin(e: Expr) -> Bound {
        Bound::Finite(e)
    }

    #[test]
    fn i01_constructors() {
        assert!(Interval::everything().is_everything());
        assert!(!Interval::everything().is_bounded());
        assert!(Interval::nothing().is_empty());
        assert!(Interval::point(x()).is_single_point());
        assert!(Interval::point(x()).is_single_point_of(&x()));
        assert!(!Interval::nothing().has_lower_bound());
    }

    #[test]
    fn i02_infinities() {
        assert!(matches!(make_max(&fin(x()), &Bound::PosInf), Bound::PosInf));
        assert_eq!(make_max(&fin(x()), &Bound::NegInf).to_string(), "x");
        assert!(matches!(make_min(&Bound::NegInf, &fin(x())), Bound::NegInf));
        assert_eq!(make_min(&Bound::PosInf, &fin(x())).to_string(), "x");
    }

    #[test]
    fn i03_peepholes() {
        assert_eq!(make_max(&fin(c(3)), &fin(c(5))).to_string(), "5");
        let mx3 = make::max(x(), c(3));
        assert_eq!(make_max(&fin(mx3.clone()), &fin(c(5))).to_string(), "max(x, 5)");
        assert_eq!(make_max(&fin(mx3), &fin(y())).to_string(), "max(max(x, y), 3)");
        let mxy = make::max(x(), y());
        match make_max(&fin(mxy.clone()), &fin(y())) {
            Bound::Finite(e) => assert!(e.same_as(&mxy)),
            other => panic!("unexpected {other}"),
        }
        assert_eq!(make_min(&fin(c(7)), &fin(x())).to_string(), "min(x, 7)");
        assert_eq!(make_min(&fin(x()), &fin(make::min(y(), c(2)))).to_string(), "min(min(x, y), 2)");
    }

    #[test]
    fn i04_include_and_union() {
        let mut a = Interval::new(c(0), c(10));
        a.include(&Interval::new(c(5), c(20)));
        assert_eq!(a.to_string(), "[0, 20]");
        let mut n = Interval::nothing();
        n.include(&Interval::new(c(3), c(4)));
        assert_eq!(n.to_string(), "[3, 4]");
        assert!(Interval::union(&a, &Interval::everything()).is_everything());
    }

    #[test]
    fn i05_intersection() {
        let r = Interval::intersection(&Interval::new(c(0), c(10)), &Interval::new(c(5), Bound::PosInf));
        assert_eq!(r.to_string(), "[5, 10]");
    }

    #[test]
    fn span_peels_common_offsets() {
        let i = Interval::new(make::add(x(), c(3)), make::add(y(), c(3)));
        assert_eq!(
            span_of_bounds(&i).map(|e| loopir::print::expr_to_string_implicit(&e)),
            Some("y - x".to_owned())
        );
        assert_eq!(
            span_of_bounds(&Interval::everything()).map(|e| loopir::print::expr_to_string_implicit(&e)),
            None
        );
        let m = Interval::new(make::min(x(), c(5)), make::min(y(), c(5)));
        assert_eq!(
            span_of_bounds(&m).map(|e| loopir::print::expr_to_string_implicit(&e)),
            Some("max(y - x, 0)".to_owned())
        );
    }

    #[test]
    fn i06_deep_equality_points() {
        let a = make::mul(c(40), c(8));
        let b = make::mul(c(40), c(8));
        assert!(Interval::new(a, b).is_single_point());
        assert_eq!(Interval::everything().to_string(), "[neg_inf, pos_inf]");
    }
}
