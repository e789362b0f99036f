//! Constant folding with Halide's integer semantics (`docs/reference/bounds.md` §0.3, §1.5.12).
//!
//! * Int(32) and Int(64) never wrap: a result that does not fit is an overflow, which the
//!   caller materialises as `signed_integer_overflow(k)`.
//! * Narrow signed and all unsigned types wrap modulo 2^bits.
//! * Division and modulo are Euclidean and total (`a / 0 == a % 0 == 0`).
//! * Float modulo is `a - floor(a / b) * b`.

use loopir::{BinOp, Type};

use crate::overflow::no_overflow_int;
use loopir::constant::{Const, wrap_int};

/// The outcome of folding one operation on constants.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Folded {
    /// The folded value, in the result type.
    Value(Const),
    /// A no-overflow integer type overflowed.
    Overflow,
}

fn int_result(ty: Type, v: i128) -> Folded {
    let elem = ty.element_of();
    if elem.is_int() {
        let in_range = elem.int_min().is_some_and(|m| v >= m) && elem.int_max().is_some_and(|m| v <= m);
        if no_overflow_int(elem) && !in_range {
            return Folded::Overflow;
        }
        Folded::Value(Const::Int(wrap_int(v, true, elem.bits()) as i64))
    } else {
        Folded::Value(Const::UInt(wrap_int(v, false, elem.bits()) as u64))
    }
}

fn as_i128(c: Const) -> Option<i128> {
    match c {
        Const::Int(v) => Some(v as i128),
        Const::UInt(v) => Some(v as i128),
        Const::Float(_) => None,
    }
}

fn round_float(ty: Type, v: f64) -> f64 {
    if ty.bits() == 32 { v as f32 as f64 } else { v }
}

/// Euclidean division with the zero-divisor rule.
pub fn div_euclid(a: i128, b: i128) -> i128 {
    if b == 0 { 0 } else { a.div_euclid(b) }
}

/// Euclidean remainder with the zero-divisor rule.
pub fn mod_euclid(a: i128, b: i128) -> i128 {
    if b == 0 { 0 } else { a.rem_euclid(b) }
}

/// Folds `a op b` for constants of the operand type `ty` (the type of `a` and `b`).
/// Returns `None` when the operation cannot be folded (mixed kinds).
pub fn fold_binary(op: BinOp, ty: Type, a: Const, b: Const) -> Option<Folded> {
    if let (Const::Float(x), Const::Float(y)) = (a, b) {
        let f = |v: f64| Some(Folded::Value(Const::Float(round_float(ty, v))));
        let bool_of = |v: bool| Some(Folded::Value(Const::UInt(v as u64)));
        return match op {
            BinOp::Add => f(x + y),
            BinOp::Sub => f(x - y),
            BinOp::Mul => f(x * y),
            BinOp::Div => f(x / y),
            BinOp::Mod => f(x - (x / y).floor() * y),
            BinOp::Min => f(x.min(y)),
            BinOp::Max => f(x.max(y)),
            BinOp::Eq => bool_of(x == y),
            BinOp::Ne => bool_of(x != y),
            BinOp::Lt => bool_of(x < y),
            BinOp::Le => bool_of(x <= y),
            BinOp::Gt => bool_of(x > y),
            BinOp::Ge => bool_of(x >= y),
            BinOp::And | BinOp::Or => None,
        };
    }
    let (x, y) = (as_i128(a)?, as_i128(b)?);
    let bool_of = |v: bool| Some(Folded::Value(Const::UInt(v as u64)));
    let unsigned = ty.is_uint();
    match op {
        BinOp::Add => Some(int_result(ty, x + y)),
        BinOp::Sub => Some(int_result(ty, x - y)),
        BinOp::Mul => {
            if unsigned {
                let p = (x as u128).wrapping_mul(y as u128);
                Some(int_result(ty, (p & u64::MAX as u128) as i128))
            } else {
                Some(int_result(ty, x * y))
            }
        }
        BinOp::Div => Some(int_result(ty, div_euclid(x, y))),
        BinOp::Mod => Some(int_result(ty, mod_euclid(x, y))),
        BinOp::Min => Some(int_result(ty, x.min(y))),
        BinOp::Max => Some(int_result(ty, x.max(y))),
        BinOp::Eq => bool_of(x == y),
        BinOp::Ne => bool_of(x != y),
        BinOp::Lt => bool_of(x < y),
        BinOp::Le => bool_of(x <= y),
        BinOp::Gt => bool_of(x > y),
        BinOp::Ge => bool_of(x >= y),
        BinOp::And => bool_of(x != 0 && y != 0),
        BinOp::Or => bool_of(x != 0 || y != 0),
    }
}

/// Folds a conversion of the constant `c` to `to`. A value that does not fit a
/// no-overflow integer type is an overflow (Halide wraps here; the crate must not, spec
/// `docs/reference/bounds.md` §1.5.12 rule 5). Float-to-integer conversions truncate toward zero; an out-of-range
/// one into a wrapping type is left unfolded (`None`).
pub fn fold_cast(to: Type, c: Const) -> Option<Folded> {
    let elem = to.element_of();
    if elem.is_float() {
        let v = match c {
            Const::Int(v) => v as f64,
            Const::UInt(v) => v as f64,
            Const::Float(v) => v,
        };
        return Some(Folded::Value(Const::Float(round_float(elem, v))));
    }
    if elem.is_bool() {
        let v = match c {
            Const::Int(v) => v != 0,
            Const::UInt(v) => v != 0,
            Const::Float(v) => v != 0.0,
        };
        return Some(Folded::Value(Const::UInt(v as u64)));
    }
    if elem.is_handle() {
        return None;
    }
    let v: i128 = match c {
        Const::Int(v) => v as i128,
        Const::UInt(v) => v as i128,
        Const::Float(f) => {
            if !f.is_finite() {
                return if no_overflow_int(elem) { Some(Folded::Overflow) } else { None };
            }
            let t = f.trunc();
            let fits = elem.int_min().is_some_and(|m| t >= m as f64)
                && elem.int_max().is_some_and(|m| t <= m as f64);
            if !fits {
                return if no_overflow_int(elem) { Some(Folded::Overflow) } else { None };
            }
            t as i128
        }
    };
    Some(int_result(elem, v))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i32c(v: i64) -> Const {
        Const::Int(v)
    }

    #[test]
    fn s02_overflow_and_wrapping() {
        let t32 = Type::INT32;
        assert_eq!(fold_binary(BinOp::Add, t32, i32c(2147483647), i32c(1)), Some(Folded::Overflow));
        assert_eq!(
            fold_binary(BinOp::Add, Type::int(8, 1), i32c(127), i32c(1)),
            Some(Folded::Value(Const::Int(-128)))
        );
        assert_eq!(fold_binary(BinOp::Div, t32, i32c(i32::MIN as i64), i32c(-1)), Some(Folded::Overflow));
        assert_eq!(
            fold_binary(BinOp::Div, Type::int(8, 1), i32c(-128), i32c(-1)),
            Some(Folded::Value(Const::Int(-128)))
        );
        assert_eq!(
            fold_binary(BinOp::Sub, Type::uint(8, 1), Const::UInt(3), Const::UInt(5)),
            Some(Folded::Value(Const::UInt(254)))
        );
    }

    #[test]
    fn s03_euclidean() {
        let t = Type::INT32;
        let v = |op, a, b| fold_binary(op, t, i32c(a), i32c(b));
        assert_eq!(v(BinOp::Div, -7, 2), Some(Folded::Value(Const::Int(-4))));
        assert_eq!(v(BinOp::Div, 7, -2), Some(Folded::Value(Const::Int(-3))));
        assert_eq!(v(BinOp::Div, -7, -2), Some(Folded::Value(Const::Int(4))));
        assert_eq!(v(BinOp::Mod, -7, -2), Some(Folded::Value(Const::Int(1))));
        assert_eq!(v(BinOp::Mod, -1, 3), Some(Folded::Value(Const::Int(2))));
        assert_eq!(v(BinOp::Div, 5, 0), Some(Folded::Value(Const::Int(0))));
        assert_eq!(v(BinOp::Mod, 5, 0), Some(Folded::Value(Const::Int(0))));
    }

    #[test]
    fn casts() {
        assert_eq!(fold_cast(Type::INT32, Const::Int(1 << 40)), Some(Folded::Overflow));
        assert_eq!(fold_cast(Type::int(16, 1), Const::Int(65535)), Some(Folded::Value(Const::Int(-1))));
        assert_eq!(fold_cast(Type::INT32, Const::UInt(65535)), Some(Folded::Value(Const::Int(65535))));
        assert_eq!(fold_cast(Type::INT32, Const::Float(-2.7)), Some(Folded::Value(Const::Int(-2))));
        assert_eq!(fold_cast(Type::BOOL, Const::Int(2)), Some(Folded::Value(Const::UInt(1))));
        assert_eq!(fold_cast(Type::float(32, 1), Const::Int(3)), Some(Folded::Value(Const::Float(3.0))));
        let fm = fold_binary(BinOp::Mod, Type::float(64, 1), Const::Float(5.0), Const::Float(-3.0));
        assert_eq!(fm, Some(Folded::Value(Const::Float(-1.0))));
    }
}
