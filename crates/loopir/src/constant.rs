//! Constants: reading the value of an immediate, and making one of a given type.
//!
//! Analyses ask "is this the constant zero?", "what integer is this?" and build constants
//! in the type of an operand all the time (Halide's `is_const_zero`, `as_const_int`,
//! `make_const`, `make_zero` in `IROperator.h`). A broadcast of an immediate counts as
//! that immediate. Integers made with [`make_const`] wrap into the type's range, as a
//! conversion does; to refuse a value that does not fit, use
//! [`crate::build::const_of`].
//!
//! ```
//! use loopir::constant::{as_const_i128, is_const_zero, make_const, make_zero};
//! use loopir::Type;
//!
//! let u8x4 = Type::uint(8, 4);
//! assert_eq!(make_const(u8x4, 300).to_string(), "x4(44_u8)");
//! assert!(is_const_zero(&make_zero(u8x4)));
//! assert_eq!(as_const_i128(&make_const(Type::int(16, 1), -1)), Some(-1));
//! ```

use crate::expr::{Expr, ExprKind};
use crate::types::{Type, TypeCode};

/// A scalar constant value of one of the three numeric kinds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Const {
    /// A signed integer.
    Int(i64),
    /// An unsigned integer (also booleans).
    UInt(u64),
    /// A float.
    Float(f64),
}

/// The constant value of an immediate, or of a broadcast of one.
pub fn const_value(e: &Expr) -> Option<Const> {
    match e.kind() {
        ExprKind::IntImm(v) => Some(Const::Int(*v)),
        ExprKind::UIntImm(v) => Some(Const::UInt(*v)),
        ExprKind::FloatImm(v) => Some(Const::Float(*v)),
        ExprKind::Broadcast { value, .. } => const_value(value),
        _ => None,
    }
}

/// Whether `e` is a numeric constant (or a broadcast of one).
pub fn is_const(e: &Expr) -> bool {
    const_value(e).is_some()
}

/// The value of a signed integer immediate.
pub fn as_const_int(e: &Expr) -> Option<i64> {
    match e.kind() {
        ExprKind::IntImm(v) => Some(*v),
        _ => None,
    }
}

/// The value of an unsigned integer immediate.
pub fn as_const_uint(e: &Expr) -> Option<u64> {
    match e.kind() {
        ExprKind::UIntImm(v) => Some(*v),
        _ => None,
    }
}

/// The value of an integer constant (signed or unsigned, possibly broadcast) as an i128.
pub fn as_const_i128(e: &Expr) -> Option<i128> {
    match const_value(e)? {
        Const::Int(v) => Some(v as i128),
        Const::UInt(v) => Some(v as i128),
        Const::Float(_) => None,
    }
}

/// Whether `e` is the constant zero of any numeric type.
pub fn is_const_zero(e: &Expr) -> bool {
    match const_value(e) {
        Some(Const::Int(v)) => v == 0,
        Some(Const::UInt(v)) => v == 0,
        Some(Const::Float(v)) => v == 0.0,
        None => false,
    }
}

/// Whether `e` is the constant one of any numeric type (true for booleans).
pub fn is_const_one(e: &Expr) -> bool {
    match const_value(e) {
        Some(Const::Int(v)) => v == 1,
        Some(Const::UInt(v)) => v == 1,
        Some(Const::Float(v)) => v == 1.0,
        None => false,
    }
}

/// Whether `e` is a strictly positive constant.
pub fn is_positive_const(e: &Expr) -> bool {
    match const_value(e) {
        Some(Const::Int(v)) => v > 0,
        Some(Const::UInt(v)) => v > 0,
        Some(Const::Float(v)) => v > 0.0,
        None => false,
    }
}

/// Whether `e` is a strictly negative constant.
pub fn is_negative_const(e: &Expr) -> bool {
    match const_value(e) {
        Some(Const::Int(v)) => v < 0,
        Some(Const::Float(v)) => v < 0.0,
        _ => false,
    }
}

/// Whether `e` is the boolean constant true (scalar or broadcast).
pub fn is_const_true(e: &Expr) -> bool {
    e.ty().is_bool() && matches!(const_value(e), Some(Const::UInt(1)))
}

/// Whether `e` is the boolean constant false (scalar or broadcast).
pub fn is_const_false(e: &Expr) -> bool {
    e.ty().is_bool() && matches!(const_value(e), Some(Const::UInt(0)))
}

/// Wraps `v` into the range of an integer type of `bits` bits, sign-extending for signed
/// types.
pub fn wrap_int(v: i128, signed: bool, bits: u8) -> i128 {
    if bits >= 128 {
        return v;
    }
    let mask: i128 = (1i128 << bits) - 1;
    let low = v & mask;
    if signed && bits > 0 && (low >> (bits - 1)) & 1 == 1 { low - (1i128 << bits) } else { low }
}

/// A scalar immediate of the element type of `ty`, broadcast when `ty` is a vector.
/// Integers wrap into the type's range; floats are converted.
pub fn make_const(ty: Type, v: i128) -> Expr {
    let elem = ty.element_of();
    let scalar = match elem.code() {
        TypeCode::Int => {
            Expr::from_node_unchecked(elem, ExprKind::IntImm(wrap_int(v, true, elem.bits()) as i64))
        }
        TypeCode::UInt => {
            Expr::from_node_unchecked(elem, ExprKind::UIntImm(wrap_int(v, false, elem.bits()) as u64))
        }
        TypeCode::Float | TypeCode::BFloat => Expr::from_node_unchecked(elem, ExprKind::FloatImm(v as f64)),
        TypeCode::Handle => Expr::from_node_unchecked(Type::INT32, ExprKind::IntImm(v as i64)),
    };
    broadcast_to(ty, scalar)
}

/// A float immediate of the element type of `ty`, broadcast when `ty` is a vector.
pub fn make_float(ty: Type, v: f64) -> Expr {
    let elem = ty.element_of();
    let v = if elem.bits() == 32 { v as f32 as f64 } else { v };
    broadcast_to(ty, Expr::from_node_unchecked(elem, ExprKind::FloatImm(v)))
}

/// Makes an immediate of type `ty` from a constant of any kind (converting numerically).
pub fn make_const_value(ty: Type, c: Const) -> Expr {
    match (ty.element_of().code(), c) {
        (TypeCode::Float | TypeCode::BFloat, Const::Float(f)) => make_float(ty, f),
        (TypeCode::Float | TypeCode::BFloat, Const::Int(i)) => make_float(ty, i as f64),
        (TypeCode::Float | TypeCode::BFloat, Const::UInt(u)) => make_float(ty, u as f64),
        (_, Const::Int(i)) => make_const(ty, i as i128),
        (_, Const::UInt(u)) => make_const(ty, u as i128),
        (_, Const::Float(f)) => make_const(ty, f as i128),
    }
}

fn broadcast_to(ty: Type, scalar: Expr) -> Expr {
    if ty.is_vector() {
        Expr::from_node_unchecked(ty, ExprKind::Broadcast { value: scalar, lanes: ty.lanes() })
    } else {
        scalar
    }
}

/// The zero of `ty`.
pub fn make_zero(ty: Type) -> Expr {
    make_const(ty, 0)
}

/// The one of `ty`.
pub fn make_one(ty: Type) -> Expr {
    make_const(ty, 1)
}

/// The boolean constant `v` with `lanes` lanes.
pub fn make_bool(v: bool, lanes: u16) -> Expr {
    make_const(Type::bool(lanes), v as i128)
}

/// The smallest value of an integer type as an immediate (None for other types).
pub fn type_min(ty: Type) -> Option<Expr> {
    ty.int_min().map(|v| make_const(ty, v))
}

/// The largest value of an integer type as an immediate (None for other types).
pub fn type_max(ty: Type) -> Option<Expr> {
    ty.int_max().map(|v| make_const(ty, v))
}
