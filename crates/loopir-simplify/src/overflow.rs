//! Signed integer overflow: where the simplifier meets it, and what it leaves behind.
//!
//! Int(32) and Int(64) arithmetic is assumed never to overflow (Halide's `no_overflow`
//! types): rules that would be wrong under wrap-around apply to them. When constant
//! folding does overflow one of them, the reference leaves a
//! `signed_integer_overflow(k)` marker in place of the value; bounds inference widens an
//! end that holds one, or (Halide's `purify_index_math`) reads it as zero.

use loopir::address_map::AddressMap;
use loopir::constant::make_zero;
use loopir::dag::any_node;
use loopir::stack::with_stack;
use loopir::{Expr, ExprNode, Intrinsic, Type};

/// Whether an integer type is one whose arithmetic is assumed not to overflow (Int(32)
/// and Int(64)).
pub fn no_overflow_int(ty: Type) -> bool {
    ty.is_int() && ty.bits() >= 32
}

/// Whether arithmetic in `ty` is assumed not to overflow (those integers, and floats).
pub fn no_overflow(ty: Type) -> bool {
    ty.is_float() || no_overflow_int(ty)
}

/// The marker the constant folder leaves for an overflow of `ty`, tagged `tag`.
pub fn overflow_marker(ty: Type, tag: i64) -> Expr {
    Intrinsic::SignedIntegerOverflow.call(ty, vec![Expr::i32(tag as i32)])
}

/// Whether `e` is an overflow marker.
pub fn is_overflow_marker(e: &Expr) -> bool {
    e.is_intrinsic(Intrinsic::SignedIntegerOverflow)
}

/// Whether `e` holds an overflow marker anywhere.
pub fn contains_overflow_marker(e: &Expr) -> bool {
    any_node(e, is_overflow_marker)
}

/// `e` with every overflow marker replaced by zero (Halide's `purify_index_math`).
pub fn purify_index_math(e: &Expr) -> Expr {
    fn go(e: &Expr, memo: &mut AddressMap<*const ExprNode, Expr>) -> Expr {
        if let Some(r) = memo.get(&e.as_ptr()) {
            return r.clone();
        }
        let purified =
            || if is_overflow_marker(e) { make_zero(e.ty()) } else { e.map_children(|c| go(c, memo)) };
        let r = with_stack(purified);
        memo.insert(e.as_ptr(), r.clone());
        r
    }
    go(e, &mut AddressMap::default())
}
