//! Boxes: one interval per dimension of a Func or buffer, with an optional condition
//! under which the region is touched (`docs/reference/bounds.md` §1.6), and their algebra.

use loopir::constant;
use loopir::equality;
use loopir::make;
use std::fmt;

use loopir::{BinOp, Expr, ExprKind};

use crate::error::BoundsError;
use loopir_simplify::ctx::Ctx;
use loopir_simplify::interval::{Bound, Interval, make_max, make_min, make_min_max_expr};
use loopir_simplify::scope::Scope;
use loopir_simplify::simplify::{Simplifier, can_prove};

/// A multi-dimensional region (Halide's `Box`): one interval per dimension and the
/// condition under which it is used (`None`: always). Zero dimensions is a scalar access.
#[derive(Clone, Debug, Default)]
pub struct Region {
    /// One interval per dimension.
    pub bounds: Vec<Interval>,
    /// The condition under which the region may be touched; `None` means always.
    pub used: Option<Expr>,
}

/// Halide's name for [`Region`].
pub type Box = Region;

impl fmt::Display for Region {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, b) in self.bounds.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(&b.pretty())?;
        }
        f.write_str("}")?;
        if let Some(u) = &self.used {
            write!(f, " if {}", loopir::print::expr_to_string_implicit(u))?;
        }
        Ok(())
    }
}

impl Region {
    /// A region over `bounds`, always used.
    pub fn new(bounds: Vec<Interval>) -> Region {
        Region { bounds, used: None }
    }

    /// Number of dimensions.
    pub fn dims(&self) -> usize {
        self.bounds.len()
    }

    /// Whether the region has a condition other than constant true.
    pub fn maybe_unused(&self) -> bool {
        self.used.as_ref().is_some_and(|u| !constant::is_const_true(u))
    }

    /// Whether some dimension is empty.
    pub fn is_empty(&self) -> bool {
        self.bounds.iter().any(Interval::is_empty)
    }

    /// Applies `f` to every finite end and to the condition.
    pub fn map_exprs(&self, mut f: impl FnMut(&Expr) -> Expr) -> Region {
        Region {
            bounds: self
                .bounds
                .iter()
                .map(|i| Interval { min: i.min.map(&mut f), max: i.max.map(&mut f) })
                .collect(),
            used: self.used.as_ref().map(&mut f),
        }
    }
}

fn is_negation_of(a: &Expr, b: &Expr) -> bool {
    matches!(a.kind(), ExprKind::Not(x) if equality::equal(x, b))
        || matches!(b.kind(), ExprKind::Not(x) if equality::equal(x, a))
}

/// Merges `b` into `a` (the smallest region containing both, under the union of their
/// conditions; `docs/reference/bounds.md` §1.6). Ends that are the very same node in both boxes are kept as
/// they are; every other end that takes part is simplified.
pub fn merge_boxes(ctx: &Ctx, a: &mut Region, b: &Region) -> Result<(), BoundsError> {
    let _hashes = ctx.hash_scope();
    if b.bounds.is_empty() && a.bounds.is_empty() {
        merge_used(ctx, a, b);
        return Ok(());
    }
    if b.bounds.is_empty() {
        return Ok(());
    }
    if a.bounds.is_empty() {
        *a = b.clone();
        return Ok(());
    }
    if a.dims() != b.dims() {
        return Err(BoundsError::BoxDimensions { a: a.dims(), b: b.dims() });
    }
    let (ua, ub) = (a.maybe_unused(), b.maybe_unused());
    let (a_used, b_used) = (
        a.used.clone().unwrap_or_else(|| constant::make_bool(true, 1)),
        b.used.clone().unwrap_or_else(|| constant::make_bool(true, 1)),
    );
    let complementary = ua && ub && is_negation_of(&a_used, &b_used);
    let mut simp = Simplifier::without_bounds(ctx);
    for (ia, ib) in a.bounds.iter_mut().zip(&b.bounds) {
        for lower in [true, false] {
            let (ea, eb) = if lower { (&ia.min, &ib.min) } else { (&ia.max, &ib.max) };
            let combine =
                |x: &Expr, y: &Expr| make_min_max_expr(if lower { BinOp::Min } else { BinOp::Max }, x, y);
            let merged = match (ea, eb) {
                _ if ea.same_as(eb) => continue,
                (Bound::Finite(x), Bound::Finite(y)) => {
                    let e = if ua && ub && complementary {
                        make::select(a_used.clone(), x.clone(), y.clone())
                    } else if ua && ub {
                        let both = make::and(a_used.clone(), b_used.clone());
                        make::select(both, combine(x, y), make::select(a_used.clone(), x.clone(), y.clone()))
                    } else if ua {
                        make::select(a_used.clone(), combine(x, y), y.clone())
                    } else if ub {
                        make::select(b_used.clone(), combine(x, y), x.clone())
                    } else {
                        combine(x, y)
                    };
                    Bound::Finite(simp.simplify(&e))
                }
                _ => {
                    if lower {
                        make_min(ea, eb)
                    } else {
                        make_max(ea, eb)
                    }
                }
            };
            if lower {
                ia.min = merged;
            } else {
                ia.max = merged;
            }
        }
    }
    merge_used(ctx, a, b);
    Ok(())
}

fn merge_used(ctx: &Ctx, a: &mut Region, b: &Region) {
    a.used = match (a.maybe_unused(), b.maybe_unused(), &a.used, &b.used) {
        (true, true, Some(x), Some(y)) if equality::equal(x, y) => Some(x.clone()),
        (true, true, Some(x), Some(y)) => {
            let u = Simplifier::without_bounds(ctx).simplify(&make::or(x.clone(), y.clone()));
            if constant::is_const_true(&u) { None } else { Some(u) }
        }
        _ => None,
    };
}

/// The merge of `a` and `b` as a new region.
pub fn union(ctx: &Ctx, a: &Region, b: &Region) -> Result<Region, BoundsError> {
    let mut r = a.clone();
    merge_boxes(ctx, &mut r, b)?;
    Ok(r)
}

/// The region inside both (`docs/reference/bounds.md` §1.6): per dimension `[max(a.lo, b.lo), min(a.hi,
/// b.hi)]` (infinity-aware), simplified; the condition is the conjunction of those
/// present.
pub fn box_intersection(ctx: &Ctx, a: &Region, b: &Region) -> Result<Region, BoundsError> {
    if a.is_empty() || b.is_empty() {
        return Ok(Region::default());
    }
    if a.dims() != b.dims() {
        return Err(BoundsError::BoxDimensions { a: a.dims(), b: b.dims() });
    }
    let mut simp = Simplifier::without_bounds(ctx);
    let bounds = a
        .bounds
        .iter()
        .zip(&b.bounds)
        .map(|(x, y)| {
            let i = Interval::intersection(x, y);
            Interval { min: i.min.map(|e| simp.simplify(e)), max: i.max.map(|e| simp.simplify(e)) }
        })
        .collect();
    let used = match (&a.used, &b.used) {
        (Some(p), Some(q)) => Some(simp.simplify(&make::and(p.clone(), q.clone()))),
        (Some(p), None) | (None, Some(p)) => Some(p.clone()),
        (None, None) => None,
    };
    Ok(Region { bounds, used })
}

/// Whether two regions may overlap: false only when disjointness is proved (or one is
/// scalar and the other is not).
pub fn boxes_overlap(ctx: &Ctx, a: &Region, b: &Region) -> bool {
    if a.bounds.is_empty() != b.bounds.is_empty() {
        return false;
    }
    let mut cond = constant::make_bool(true, 1);
    for u in [&a.used, &b.used].into_iter().flatten() {
        cond = make::and(cond, u.clone());
    }
    for (x, y) in a.bounds.iter().zip(&b.bounds) {
        if let (Some(bh), Some(al)) = (y.hi(), x.lo()) {
            cond = make::and(cond, make::ge(bh.clone(), al.clone()));
        }
        if let (Some(ah), Some(bl)) = (x.hi(), y.lo()) {
            cond = make::and(cond, make::ge(ah.clone(), bl.clone()));
        }
    }
    !can_prove(ctx, &make::not(cond), &Scope::new())
}

/// Whether `outer` provably contains `inner` (`docs/reference/bounds.md` §1.6).
pub fn box_contains(ctx: &Ctx, outer: &Region, inner: &Region) -> bool {
    if inner.dims() > outer.dims() || inner.dims() != outer.dims() {
        return false;
    }
    let mut cond = constant::make_bool(true, 1);
    for (o, i) in outer.bounds.iter().zip(&inner.bounds) {
        if (o.has_lower_bound() && !i.has_lower_bound()) || (o.has_upper_bound() && !i.has_upper_bound()) {
            return false;
        }
        if let (Some(ol), Some(il)) = (o.lo(), i.lo()) {
            cond = make::and(cond, make::le(ol.clone(), il.clone()));
        }
        if let (Some(oh), Some(ih)) = (o.hi(), i.hi()) {
            cond = make::and(cond, make::ge(oh.clone(), ih.clone()));
        }
    }
    if outer.maybe_unused() {
        let (Some(ou), Some(iu)) = (&outer.used, &inner.used) else { return false };
        if !inner.maybe_unused() {
            return false;
        }
        // The inner condition implies the outer one.
        cond = make::and(cond, make::eq(make::and(ou.clone(), iu.clone()), iu.clone()));
    }
    can_prove(ctx, &cond, &Scope::new())
}

/// Prints boxes as `loopir bounds` does: one line per Func, `name: [min, max], ...`, each
/// finite end after CSE.
pub fn print_boxes(ctx: &Ctx, boxes: &crate::BoxMap) -> String {
    print_boxes_with(boxes, |name| name, |b| loopir_simplify::cse::print_bound(ctx, b))
}

/// Prints boxes in the layout of [`print_boxes`], with the caller choosing how a box's name
/// and each end of its intervals are shown (the CLI restores the names of flattened buffers).
pub fn print_boxes_with<'a>(
    boxes: &'a crate::BoxMap,
    name: impl Fn(&'a str) -> &'a str,
    end: impl Fn(&loopir_simplify::Bound) -> String,
) -> String {
    let mut text = String::new();
    for (box_name, region) in boxes {
        text.push_str(name(box_name));
        text.push(':');
        for (i, interval) in region.bounds.iter().enumerate() {
            text.push_str(if i == 0 { " [" } else { ", [" });
            text.push_str(&end(&interval.min));
            text.push_str(", ");
            text.push_str(&end(&interval.max));
            text.push(']');
        }
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use loopir::{Expr, Type};

    fn c(v: i32) -> Expr {
        Expr::i32(v)
    }
    fn r1(lo: Expr, hi: Expr) -> Region {
        Region::new(vec![Interval::new(lo, hi)])
    }
    fn p() -> Expr {
        Expr::var(Type::BOOL, "p")
    }
    fn q() -> Expr {
        Expr::var(Type::BOOL, "q")
    }
    fn merged(a: &Region, b: &Region) -> String {
        union(&Ctx::new(), a, b).map(|r| r.to_string()).unwrap_or_else(|e| e.to_string())
    }

    #[test]
    fn x01_x05_merges() {
        assert_eq!(merged(&r1(c(5), c(19)), &r1(c(4), c(13))), "{[4, 19]}");
        let a = Region { used: Some(p()), ..r1(c(0), c(9)) };
        let b = Region { used: Some(make::not(p())), ..r1(c(10), c(19)) };
        assert_eq!(merged(&a, &b), "{[select((uint1)p, 0, 10), select((uint1)p, 9, 19)]}");
        let bq = Region { used: Some(q()), ..r1(c(10), c(19)) };
        // Three-way selects, which the simplifier folds (`select(x, y, select(z, y, w))
        // → select(x || z, y, w)` and its mirror); then the reference's
        // `x || (neg(x) && y) → x || y`.
        assert_eq!(
            merged(&a, &bq),
            "{[select((uint1)p, 0, 10), select(!(uint1)p || (uint1)q, 19, 9)]} if (uint1)p || (uint1)q"
        );
        let inf = Region::new(vec![Interval::new(c(0), Bound::PosInf)]);
        assert_eq!(merged(&r1(c(0), c(9)), &inf), "{[0, pos_inf]}");
        assert_eq!(merged(&a, &r1(c(5), c(5))), "{[select((uint1)p, 0, 5), select((uint1)p, 9, 5)]}");
        let two = Region::new(vec![Interval::new(c(0), c(1)), Interval::new(c(0), c(1))]);
        assert!(union(&Ctx::new(), &a, &two).is_err());
    }

    #[test]
    fn x06_x08_intersection_overlap_contains() {
        let ctx = Ctx::new();
        let a = Region { used: Some(p()), ..r1(c(0), c(10)) };
        let b = Region { used: Some(q()), ..r1(c(5), c(20)) };
        let i = box_intersection(&ctx, &a, &b).map(|r| r.to_string()).unwrap_or_default();
        assert_eq!(i, "{[5, 10]} if (uint1)p && (uint1)q");
        assert!(!boxes_overlap(&ctx, &r1(c(0), c(4)), &r1(c(5), c(9))));
        let y = Expr::var_i32("y");
        assert!(boxes_overlap(&ctx, &r1(c(0), c(4)), &r1(y.clone(), make::add(y, c(1)))));
        assert!(!boxes_overlap(&ctx, &Region::default(), &r1(c(0), c(4))));
        let outer = r1(c(0), c(10));
        assert!(box_contains(&ctx, &outer, &r1(c(2), c(3))));
        let outer_p = Region { used: Some(p()), ..r1(c(0), c(10)) };
        assert!(!box_contains(&ctx, &outer_p, &r1(c(2), c(3))));
        assert!(box_contains(&ctx, &outer_p, &Region { used: Some(p()), ..r1(c(2), c(3)) }));
        let two = Region::new(vec![Interval::new(c(0), c(1)), Interval::new(c(0), c(1))]);
        assert!(!box_contains(&ctx, &outer, &two));
    }
}

#[cfg(test)]
mod properties {
    use super::*;
    use proptest::prelude::*;

    fn region(lo: i32, w: i32, used: Option<bool>) -> Region {
        let p = Expr::var(loopir::Type::BOOL, "p");
        Region {
            bounds: vec![Interval::new(Expr::i32(lo), Expr::i32(lo + w))],
            used: used.map(|positive| if positive { p.clone() } else { make::not(p) }),
        }
    }

    proptest! {
        /// The merge of two boxes contains both, whatever their conditions.
        #[test]
        fn merge_contains_both(a in -20i32..20, wa in 0i32..10, b in -20i32..20, wb in 0i32..10,
                               ua in proptest::option::of(any::<bool>()), ub in proptest::option::of(any::<bool>()),
                               p in any::<bool>()) {
            let ctx = Ctx::new();
            let (ra, rb) = (region(a, wa, ua), region(b, wb, ub));
            let m = union(&ctx, &ra, &rb).map_err(|e| TestCaseError::fail(e.to_string()))?;
            // Evaluate the merged ends with p fixed; each box that is used must fit inside.
            let mut sub = rustc_hash::FxHashMap::default();
            sub.insert(loopir::name("p"), constant::make_bool(p, 1));
            let value = |e: &Expr| constant::as_const_int(&loopir_simplify::simplify::simplify_expr(&ctx, &loopir::substitute::substitute(&sub, e)));
            let used = |u: Option<bool>| u.is_none_or(|positive| positive == p);
            let (Some(lo), Some(hi)) = (m.bounds[0].lo().and_then(value), m.bounds[0].hi().and_then(value)) else {
                return Err(TestCaseError::fail(format!("merged ends do not fold: {m}")));
            };
            for (x, w, u) in [(a, wa, ua), (b, wb, ub)] {
                if used(u) {
                    prop_assert!(lo <= x as i64 && x as i64 + w as i64 <= hi, "{m} misses [{x}, {}] with p = {p}", x + w);
                }
            }
        }
    }
}
