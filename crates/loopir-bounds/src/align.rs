//! Alignment of a Func's explicit bounds (`align_bounds`, `align_extent`), in the
//! reference's own spelling: both bounds passes build these expressions unsimplified (or
//! simplify only parts of them), so their shape is part of the output.

use loopir::Expr;
use loopir::make;

/// `align_bounds(v, modulus, remainder)` of the range `[min, max]`: the min rounded down
/// and one past the max rounded up to `modulus*k + remainder`, as
/// `(((min - r)/m)*m) + r` and `((((((max + 1) - r) + m) - 1)/m)*m) + r`.
pub(crate) fn aligned_min_and_max_plus_one(
    min: &Expr,
    max: &Expr,
    modulus: &Expr,
    remainder: &Expr,
) -> (Expr, Expr) {
    let lo = make::add(
        make::mul(make::div(make::sub(min.clone(), remainder.clone()), modulus.clone()), modulus.clone()),
        remainder.clone(),
    );
    let plus_one = make::sub(make::add(max.clone(), Expr::i32(1)), remainder.clone());
    (lo, make::add(rounded_up(&plus_one, modulus), remainder.clone()))
}

/// `align_extent(v, modulus)`: `extent` rounded up to a multiple of `modulus`, as
/// `(((extent + m) - 1)/m)*m`.
pub(crate) fn rounded_up(extent: &Expr, modulus: &Expr) -> Expr {
    make::mul(
        make::div(make::sub(make::add(extent.clone(), modulus.clone()), Expr::i32(1)), modulus.clone()),
        modulus.clone(),
    )
}
