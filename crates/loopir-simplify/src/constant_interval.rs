//! `ConstantInterval`: a numeric interval over i64 whose ends may each be absent (spec
//! `docs/reference/bounds.md` §1.2). It is never empty. The simplifier attaches one to every integer subexpression.

use std::fmt;

use loopir::Type;

/// A closed interval of i64 values; an absent end means unbounded on that side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct ConstantInterval {
    /// The lower end, if bounded below.
    pub min: Option<i64>,
    /// The upper end, if bounded above.
    pub max: Option<i64>,
}

impl fmt::Display for ConstantInterval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.min {
            Some(v) => write!(f, "[{v}, ")?,
            None => f.write_str("[neg_inf, ")?,
        }
        match self.max {
            Some(v) => write!(f, "{v}]"),
            None => f.write_str("pos_inf]"),
        }
    }
}

fn fit(v: i128) -> Option<i64> {
    i64::try_from(v).ok()
}

fn div_euclid(a: i128, b: i128) -> i128 {
    if b == 0 { 0 } else { a.div_euclid(b) }
}

impl ConstantInterval {
    /// Unbounded on both sides.
    pub fn everything() -> Self {
        ConstantInterval { min: None, max: None }
    }

    /// `[v, v]`.
    pub fn single_point(v: i64) -> Self {
        ConstantInterval { min: Some(v), max: Some(v) }
    }

    /// `[lo, hi]`.
    pub fn bounded(lo: i64, hi: i64) -> Self {
        ConstantInterval { min: Some(lo.min(hi)), max: Some(hi.max(lo)) }
    }

    /// `[lo, +inf]`.
    pub fn bounded_below(lo: i64) -> Self {
        ConstantInterval { min: Some(lo), max: None }
    }

    /// `[-inf, hi]`.
    pub fn bounded_above(hi: i64) -> Self {
        ConstantInterval { min: None, max: Some(hi) }
    }

    /// Whether both ends are present.
    pub fn is_bounded(&self) -> bool {
        self.min.is_some() && self.max.is_some()
    }

    /// Whether the interval is one value.
    pub fn is_single_point(&self) -> bool {
        self.is_bounded() && self.min == self.max
    }

    /// The one value, if the interval is a single point.
    pub fn as_single_point(&self) -> Option<i64> {
        if self.is_single_point() { self.min } else { None }
    }

    /// Whether every value is `>= 0`.
    pub fn is_non_negative(&self) -> bool {
        self.min.is_some_and(|v| v >= 0)
    }

    /// Whether every value is `<= 0`.
    pub fn is_non_positive(&self) -> bool {
        self.max.is_some_and(|v| v <= 0)
    }

    /// Whether `v` lies in the interval.
    pub fn contains(&self, v: i64) -> bool {
        self.min.is_none_or(|m| m <= v) && self.max.is_none_or(|m| v <= m)
    }

    /// Whether every value of `other` lies in this interval.
    pub fn contains_interval(&self, other: &ConstantInterval) -> bool {
        let lo_ok = match (self.min, other.min) {
            (None, _) => true,
            (Some(a), Some(b)) => a <= b,
            (Some(_), None) => false,
        };
        let hi_ok = match (self.max, other.max) {
            (None, _) => true,
            (Some(a), Some(b)) => b <= a,
            (Some(_), None) => false,
        };
        lo_ok && hi_ok
    }

    /// The range of values of `ty` (everything for types whose range does not fit in i64
    /// on a side, and for floats and handles).
    pub fn bounds_of_type(ty: Type) -> Self {
        match (ty.int_min(), ty.int_max()) {
            (Some(lo), Some(hi)) => ConstantInterval { min: fit(lo), max: fit(hi) },
            _ => ConstantInterval::everything(),
        }
    }

    /// The interval after a conversion to `ty`: unchanged if `ty` holds every value of it,
    /// otherwise the range of `ty` (wrapping may land anywhere in it).
    pub fn cast_to(&self, ty: Type) -> Self {
        let range = ConstantInterval::bounds_of_type(ty);
        if ty.is_float() || range.contains_interval(self) { *self } else { range }
    }

    /// The hull of two intervals.
    pub fn union(&self, other: &ConstantInterval) -> Self {
        ConstantInterval {
            min: self.min.zip(other.min).map(|(a, b)| a.min(b)),
            max: self.max.zip(other.max).map(|(a, b)| a.max(b)),
        }
    }

    /// The tightest interval inside both (ends of `self` win where `other` has none).
    pub fn intersect(&self, other: &ConstantInterval) -> Self {
        let min = match (self.min, other.min) {
            (Some(a), Some(b)) => Some(a.max(b)),
            (a, b) => a.or(b),
        };
        let max = match (self.max, other.max) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        ConstantInterval { min, max }
    }

    /// `min` of the values of two intervals.
    pub fn min_of(&self, other: &ConstantInterval) -> Self {
        ConstantInterval {
            min: self.min.zip(other.min).map(|(a, b)| a.min(b)),
            max: match (self.max, other.max) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            },
        }
    }

    /// `max` of the values of two intervals.
    pub fn max_of(&self, other: &ConstantInterval) -> Self {
        ConstantInterval {
            min: match (self.min, other.min) {
                (Some(a), Some(b)) => Some(a.max(b)),
                (a, b) => a.or(b),
            },
            max: self.max.zip(other.max).map(|(a, b)| a.max(b)),
        }
    }

    /// Negation; negating `i64::MIN` drops that end.
    pub fn neg(&self) -> Self {
        ConstantInterval {
            min: self.max.and_then(|v| v.checked_neg()),
            max: self.min.and_then(|v| v.checked_neg()),
        }
    }

    /// The absolute value.
    pub fn abs(&self) -> Self {
        if self.is_non_negative() {
            return *self;
        }
        if self.is_non_positive() {
            return self.neg();
        }
        let hi = match (self.min, self.max) {
            (Some(a), Some(b)) => fit((a as i128).abs().max(b as i128)),
            _ => None,
        };
        ConstantInterval { min: Some(0), max: hi }
    }

    /// Whether every value of `self` is less than every value of `other`.
    pub fn lt(&self, other: &ConstantInterval) -> bool {
        matches!((self.max, other.min), (Some(a), Some(b)) if a < b)
    }

    /// Whether every value of `self` is at most every value of `other`.
    pub fn le(&self, other: &ConstantInterval) -> bool {
        matches!((self.max, other.min), (Some(a), Some(b)) if a <= b)
    }

    /// `self << k` for a constant shift amount `k` in `[0, 63]` (monotone, exact or absent).
    pub fn shl(&self, k: u32) -> Self {
        let f = |v: i64| fit((v as i128) << k);
        ConstantInterval { min: self.min.and_then(f), max: self.max.and_then(f) }
    }

    /// `self >> k` for a constant shift amount `k` in `[0, 63]` (arithmetic, monotone).
    pub fn shr(&self, k: u32) -> Self {
        ConstantInterval { min: self.min.map(|v| v >> k), max: self.max.map(|v| v >> k) }
    }
}

impl std::ops::Add for ConstantInterval {
    type Output = ConstantInterval;
    fn add(self, o: ConstantInterval) -> ConstantInterval {
        ConstantInterval {
            min: self.min.zip(o.min).and_then(|(a, b)| a.checked_add(b)),
            max: self.max.zip(o.max).and_then(|(a, b)| a.checked_add(b)),
        }
    }
}

impl std::ops::Sub for ConstantInterval {
    type Output = ConstantInterval;
    fn sub(self, o: ConstantInterval) -> ConstantInterval {
        ConstantInterval {
            min: self.min.zip(o.max).and_then(|(a, b)| a.checked_sub(b)),
            max: self.max.zip(o.min).and_then(|(a, b)| a.checked_sub(b)),
        }
    }
}

/// A possibly infinite end as an extended integer, for corner arithmetic.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Ext {
    NegInf,
    Fin(i128),
    PosInf,
}

impl Ext {
    fn sign(self) -> i32 {
        match self {
            Ext::NegInf => -1,
            Ext::PosInf => 1,
            Ext::Fin(v) => v.signum() as i32,
        }
    }
    fn mul(self, o: Ext) -> Ext {
        match (self, o) {
            (Ext::Fin(a), Ext::Fin(b)) => {
                a.checked_mul(b).map_or(if (a < 0) != (b < 0) { Ext::NegInf } else { Ext::PosInf }, Ext::Fin)
            }
            _ => match self.sign() * o.sign() {
                0 => Ext::Fin(0),
                s if s > 0 => Ext::PosInf,
                _ => Ext::NegInf,
            },
        }
    }
}

fn ends(ci: &ConstantInterval) -> (Ext, Ext) {
    (ci.min.map_or(Ext::NegInf, |v| Ext::Fin(v as i128)), ci.max.map_or(Ext::PosInf, |v| Ext::Fin(v as i128)))
}

fn from_ext(lo: Ext, hi: Ext) -> ConstantInterval {
    let f = |e: Ext| match e {
        Ext::Fin(v) => fit(v),
        _ => None,
    };
    ConstantInterval { min: f(lo), max: f(hi) }
}

impl std::ops::Mul for ConstantInterval {
    type Output = ConstantInterval;
    fn mul(self, o: ConstantInterval) -> ConstantInterval {
        let (a0, a1) = ends(&self);
        let (b0, b1) = ends(&o);
        let corners = [a0.mul(b0), a0.mul(b1), a1.mul(b0), a1.mul(b1)];
        let lo = corners.iter().copied().min().unwrap_or(Ext::NegInf);
        let hi = corners.iter().copied().max().unwrap_or(Ext::PosInf);
        from_ext(lo, hi)
    }
}

impl std::ops::Div for ConstantInterval {
    type Output = ConstantInterval;
    /// Euclidean division; a zero divisor gives zero.
    ///
    /// For a fixed divisor sign the quotient is monotone in both operands, so its extremes
    /// lie at the numerator's ends combined with the ends of each one-signed part of the
    /// divisor (`±1` being the innermost ends); a divisor that reaches zero adds 0, and an
    /// unbounded divisor adds the limits 0 (non-negative numerator) or ∓1.
    fn div(self, o: ConstantInterval) -> ConstantInterval {
        let (a0, a1) = ends(&self);
        let mut divisors: Vec<i128> = Vec::with_capacity(4);
        for b in [o.min, o.max].into_iter().flatten() {
            if b != 0 {
                divisors.push(b as i128);
            }
        }
        if o.contains(1) {
            divisors.push(1);
        }
        if o.contains(-1) {
            divisors.push(-1);
        }
        let mut lo = Ext::PosInf;
        let mut hi = Ext::NegInf;
        let mut include = |v: Ext| {
            lo = lo.min(v);
            hi = hi.max(v);
        };
        if o.contains(0) {
            include(Ext::Fin(0));
        }
        for a in [a0, a1] {
            for &b in &divisors {
                match a {
                    Ext::Fin(x) => include(Ext::Fin(div_euclid(x, b))),
                    inf => include(if (inf == Ext::PosInf) == (b > 0) { Ext::PosInf } else { Ext::NegInf }),
                }
            }
            for (unbounded, sign) in [(o.max.is_none(), 1i128), (o.min.is_none(), -1)] {
                if !unbounded {
                    continue;
                }
                match a {
                    Ext::Fin(x) if x >= 0 => include(Ext::Fin(0)),
                    Ext::Fin(_) => include(Ext::Fin(-sign)),
                    _ => {
                        include(Ext::NegInf);
                        include(Ext::PosInf);
                    }
                }
            }
        }
        if lo > hi {
            return ConstantInterval::single_point(0);
        }
        let mut out = from_ext(lo, hi);
        // Same-signed operands give a non-negative quotient.
        if (self.is_non_negative() && o.is_non_negative()) || (self.is_non_positive() && o.is_non_positive())
        {
            out = out.intersect(&ConstantInterval::bounded_below(0));
        }
        out
    }
}

impl std::ops::Rem for ConstantInterval {
    type Output = ConstantInterval;
    /// Euclidean remainder; a zero divisor gives zero.
    fn rem(self, o: ConstantInterval) -> ConstantInterval {
        if self.is_non_negative() {
            let babs = o.abs();
            if let (Some(amax), Some(bmin)) = (self.max, babs.min)
                && amax < bmin
            {
                return self;
            }
        }
        let mut out = ConstantInterval::bounded_below(0);
        if let (Some(lo), Some(hi)) = (o.min, o.max) {
            let m = (hi as i128 - 1).max(-1 - lo as i128).max(0);
            out.max = fit(m);
        }
        if self.is_non_negative()
            && let Some(amax) = self.max
        {
            out.max = Some(out.max.map_or(amax, |m| m.min(amax)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    type CI = ConstantInterval;

    #[test]
    fn c01_add_overflow_drops_end() {
        let r = CI::bounded(i64::MAX - 1, i64::MAX) + CI::bounded(1, 2);
        assert_eq!(r.min, Some(i64::MAX));
        assert_eq!(r.max, None);
    }

    #[test]
    fn c02_div_and_mod() {
        assert_eq!(CI::bounded(-7, 7) / CI::single_point(2), CI::bounded(-4, 3));
        assert_eq!(CI::bounded(-7, 7) / CI::single_point(-2), CI::bounded(-3, 4));
        assert_eq!(CI::bounded(5, 10) % CI::single_point(3), CI::bounded(0, 2));
        assert_eq!(CI::bounded(1, 2) % CI::bounded(5, 9), CI::bounded(1, 2));
        assert_eq!(CI::bounded(-7, 7) / CI::single_point(0), CI::single_point(0));
        assert_eq!(CI::bounded(3, 9) % CI::everything(), CI::bounded(0, 9));
        assert_eq!(CI::bounded(-3, 9) % CI::everything(), CI::bounded_below(0));
        assert_eq!(CI::bounded(-3, 9) % CI::bounded(-4, 2), CI::bounded(0, 3));
    }

    #[test]
    fn c03_casts() {
        assert_eq!(CI::bounded(250, 260).cast_to(Type::uint(8, 1)), CI::bounded(0, 255));
        assert_eq!(CI::bounded(3, 4).cast_to(Type::uint(8, 1)), CI::bounded(3, 4));
        assert_eq!(CI::bounded(-1, 4).cast_to(Type::uint(64, 1)), CI::bounded_below(0));
    }

    #[test]
    fn mul_and_misc() {
        assert_eq!(CI::bounded(-2, 3) * CI::bounded(4, 5), CI::bounded(-10, 15));
        assert_eq!(CI::bounded_below(1) * CI::bounded(2, 3), CI::bounded_below(2));
        assert_eq!(CI::bounded(-2, 3) * CI::single_point(0), CI::single_point(0));
        assert_eq!(CI::bounded(-5, 3).abs(), CI::bounded(0, 5));
        assert_eq!(CI::bounded(i64::MIN, 0).neg(), CI { min: Some(0), max: None });
        assert!(CI::bounded(0, 3).lt(&CI::bounded(4, 9)));
        assert!(!CI::bounded(0, 4).lt(&CI::bounded(4, 9)));
        assert_eq!(CI::bounded(1, 3).shl(2), CI::bounded(4, 12));
        assert_eq!(CI::bounded(-8, 8).shr(2), CI::bounded(-2, 2));
    }

    proptest::proptest! {
        #[test]
        fn division_and_remainder_are_sound(a in -50i64..50, w in 0i64..20, b in -12i64..12, v in 0i64..12, pick_a in 0i64..20, pick_b in 0i64..12) {
            let ai = CI::bounded(a, a + w);
            let bi = CI::bounded(b, b + v);
            let x = a + pick_a.min(w);
            let y = b + pick_b.min(v);
            let q = if y == 0 { 0 } else { x.div_euclid(y) };
            let r = if y == 0 { 0 } else { x.rem_euclid(y) };
            proptest::prop_assert!((ai / bi).contains(q), "{} / {} = {} not in {}", x, y, q, ai / bi);
            proptest::prop_assert!((ai % bi).contains(r), "{} % {} = {} not in {}", x, y, r, ai % bi);
            proptest::prop_assert!((ai * bi).contains(x * y));
            proptest::prop_assert!((ai - bi).contains(x - y));
        }
    }
}
