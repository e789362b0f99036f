//! Building IR in code, with the operand rules of Halide's front end.
//!
//! The node constructors ([`Expr::add`], [`Stmt::for_loop`], ...) are strict: operands
//! must already have the node's types, and each returns a `Result`. A frontend that
//! builds IR from its own, already type-checked program wants what Halide's `Expr`
//! operators give a C++ user instead: `x + 1` with `x: int32` makes the `1` an int32,
//! `u16 + 1` makes it a uint16, `i32 * f32` converts the integer side to float, a scalar
//! meets a vector by broadcasting. This module is that: the `std::ops` operators on
//! [`Expr`] and functions for everything else, each applying Halide's `match_types`, so
//! that code whose types are right by construction builds IR with no `Result` at all.
//!
//! Operations that cannot be made to type-check (arithmetic on handles, a constant that
//! does not fit the other operand's type, a loop bound that is not an integer) panic with
//! a message saying what was wrong, as Halide's `user_assert` stops the program: they are
//! bugs in the frontend, not bad input. Where operands come from untrusted input, use the
//! `try_` functions ([`try_binary`], [`try_select`], [`try_cast`]) or the node
//! constructors, which return an [`IrError`] instead.
//!
//! Conventions:
//! - Loops take their first and **last** iteration, both inclusive (`min`, `max`), as the
//!   reference's `For` node does since Halide commit f25bfc328d ([`MinMax`]); realizations
//!   and prefetches take one [`MinExtent`] per dimension, a `min` and an **extent**.
//! - Predicates default to all lanes and alignments to unknown; a Realize's condition is
//!   `true` and its memory type `Auto`.
//! - `&` and `|` on booleans are `&&` and `||` (Rust cannot overload those two); on
//!   integers they are the bitwise intrinsics, as in Halide.
//!
//! ```
//! use loopir::build::*;
//! use loopir::{Stmt, Type};
//!
//! let x = var("x");
//! let f = Type::float(32, 1);
//! // in(x - 1) + in(x) + in(x + 1), divided by 3 (an int32 literal meets a float32).
//! let sum = image_call("in", f, vec![&x - 1]) + image_call("in", f, vec![x.clone()])
//!     + image_call("in", f, vec![&x + 1]);
//! let body = provide("blur", vec![sum / 3], vec![x.clone()]);
//! let lp = for_loop("x", var("x.min"), var("x.max"), body);
//! assert_eq!(
//!     lp.to_string(),
//!     "for (x, x.min, x.max) {\n blur(x) = (((float32)in(x - 1) + (float32)in(x)) + (float32)in(x + 1))/3.000000f\n}\n"
//! );
//! ```

use std::ops;

use crate::error::IrError;
use crate::expr::{BinOp, CallType, Expr, ExprKind, ModulusRemainder, Name};
use crate::intrinsic::Intrinsic;
use crate::stmt::{DeviceApi, ForType, MemoryType, MinExtent, MinMax, Stmt};
use crate::types::{Type, TypeCode};

/// One operand of a building function: an expression, or a Rust literal that takes the
/// type of the other operand (Halide's `Expr + int`), or int32 / float32 / bool when both
/// operands are literals.
#[derive(Clone, Debug)]
pub enum Operand {
    /// An expression, with its own type.
    Expr(Expr),
    /// An integer literal.
    Int(i64),
    /// A floating-point literal.
    Float(f64),
    /// A boolean literal.
    Bool(bool),
}

impl From<Expr> for Operand {
    fn from(e: Expr) -> Operand {
        Operand::Expr(e)
    }
}
impl From<&Expr> for Operand {
    fn from(e: &Expr) -> Operand {
        Operand::Expr(e.clone())
    }
}
impl From<i32> for Operand {
    fn from(v: i32) -> Operand {
        Operand::Int(v.into())
    }
}
impl From<i64> for Operand {
    fn from(v: i64) -> Operand {
        Operand::Int(v)
    }
}
impl From<f32> for Operand {
    fn from(v: f32) -> Operand {
        Operand::Float(v.into())
    }
}
impl From<f64> for Operand {
    fn from(v: f64) -> Operand {
        Operand::Float(v)
    }
}
impl From<bool> for Operand {
    fn from(v: bool) -> Operand {
        Operand::Bool(v)
    }
}

fn type_error(node: &str, detail: String) -> IrError {
    IrError::Type { node: node.to_owned(), detail }
}

/// Unwraps the result of a `try_` function: building IR whose types cannot match is a
/// bug in the calling frontend (see the module docs).
fn or_panic<T>(r: Result<T, IrError>) -> T {
    match r {
        Ok(v) => v,
        Err(e) => panic!("loopir::build: {e}"),
    }
}

impl Operand {
    /// The operand as an expression of its own type (a lone literal: int32, float32 or
    /// bool).
    pub fn into_expr(self) -> Expr {
        match self {
            Operand::Expr(e) => e,
            Operand::Int(v) => or_panic(const_of(Type::int(32, 1), v)),
            Operand::Float(v) => or_panic(float_const_of(Type::float(32, 1), v)),
            Operand::Bool(v) => Expr::bool(v),
        }
    }

    /// The operand as an expression of type `ty`: a literal becomes a constant of `ty`
    /// (refused if its value changes), an expression is returned as it is.
    fn adopt(self, ty: Type) -> Result<Expr, IrError> {
        match self {
            Operand::Expr(e) => Ok(e),
            Operand::Int(v) => const_of(ty, v),
            Operand::Float(v) if ty.is_float() => float_const_of(ty, v),
            Operand::Float(v) => float_const_of(Type::float(32, ty.lanes()), v),
            Operand::Bool(v) if ty.is_bool() => Ok(broadcast_to(Expr::bool(v), ty.lanes())),
            Operand::Bool(v) => Ok(Expr::bool(v)),
        }
    }
}

fn broadcast_to(scalar: Expr, lanes: u16) -> Expr {
    if lanes == 1 {
        scalar
    } else {
        Expr::from_node_unchecked(scalar.ty().with_lanes(lanes), ExprKind::Broadcast { value: scalar, lanes })
    }
}

/// The integer `v` as a constant of type `ty` (broadcast if `ty` is a vector), refused if
/// `ty` cannot represent it exactly (Halide's `check_representable`).
pub fn const_of(ty: Type, v: i64) -> Result<Expr, IrError> {
    let scalar = ty.element_of();
    let bad =
        || type_error("constant", format!("{v} cannot be represented as {ty} without changing its value"));
    let e = match scalar.code() {
        TypeCode::Int => Expr::int_imm(scalar, v).map_err(|_| bad())?,
        TypeCode::UInt => Expr::uint_imm(scalar, u64::try_from(v).map_err(|_| bad())?).map_err(|_| bad())?,
        TypeCode::Float | TypeCode::BFloat => {
            let f = v as f64;
            // Exact in the type: the value survives a round trip through it.
            if f as i64 != v || (scalar.bits() <= 32 && (f as f32) as i64 != v) {
                return Err(bad());
            }
            Expr::from_node_unchecked(scalar, ExprKind::FloatImm(round_to(scalar, f)))
        }
        TypeCode::Handle => {
            return Err(type_error("constant", format!("{v} cannot be a {ty}: no arithmetic on handles")));
        }
    };
    Ok(broadcast_to(e, ty.lanes()))
}

/// Rounds `v` to the precision of the float type `ty`, as storing it in one would.
fn round_to(ty: Type, v: f64) -> f64 {
    match ty.bits() {
        64 => v,
        _ => f64::from(v as f32),
    }
}

/// The float `v` as a constant of float type `ty` (broadcast if a vector), rounded to the
/// type's precision.
pub fn float_const_of(ty: Type, v: f64) -> Result<Expr, IrError> {
    let scalar = ty.element_of();
    if !scalar.is_float() {
        return Err(type_error("constant", format!("{v} is not a {ty}")));
    }
    let e = Expr::from_node_unchecked(scalar, ExprKind::FloatImm(round_to(scalar, v)));
    Ok(broadcast_to(e, ty.lanes()))
}

/// Brings two expressions to one type as Halide's `match_types` does: a scalar is
/// broadcast to a vector's lanes; an integer meets a float as that float; two floats or
/// two unsigned integers meet as the wider; a signed integer meets any integer as a signed
/// integer of the wider width.
pub fn match_types(a: Expr, b: Expr) -> Result<(Expr, Expr), IrError> {
    if a.ty() == b.ty() {
        return Ok((a, b));
    }
    if a.ty().is_handle() || b.ty().is_handle() {
        return Err(type_error("arithmetic", format!("no arithmetic on handles: {a} and {b}")));
    }
    let (a, b) = match_lanes(a, b)?;
    let (ta, tb) = (a.ty(), b.ty());
    if ta == tb {
        return Ok((a, b));
    }
    let lanes = ta.lanes();
    Ok(match (ta.is_float(), tb.is_float()) {
        (false, true) => (cast(tb, a), b),
        (true, false) => (a, cast(ta, b)),
        (true, true) | (false, false) if ta.code() == tb.code() => {
            if ta.bits() > tb.bits() {
                (a, cast(ta, b))
            } else {
                (cast(tb, a), b)
            }
        }
        _ => {
            let wide = Type::int(ta.bits().max(tb.bits()), lanes);
            (cast(wide, a), cast(wide, b))
        }
    })
}

fn match_lanes(a: Expr, b: Expr) -> Result<(Expr, Expr), IrError> {
    let (la, lb) = (a.ty().lanes(), b.ty().lanes());
    Ok(match (la, lb) {
        _ if la == lb => (a, b),
        (1, _) => (broadcast_to(a, lb), b),
        (_, 1) => {
            let b = broadcast_to(b, la);
            (a, b)
        }
        _ => return Err(type_error("arithmetic", format!("operands have {la} and {lb} lanes: {a} and {b}"))),
    })
}

/// Two operands brought to one type: literals take the other operand's type.
fn operands(a: Operand, b: Operand) -> Result<(Expr, Expr), IrError> {
    match (a, b) {
        (Operand::Expr(a), Operand::Expr(b)) => match_types(a, b),
        (Operand::Expr(a), lit) => {
            let b = lit.adopt(a.ty())?;
            match_types(a, b)
        }
        (lit, Operand::Expr(b)) => {
            let a = lit.adopt(b.ty())?;
            match_types(a, b)
        }
        (a, b) => match_types(a.into_expr(), b.into_expr()),
    }
}

/// `a op b` with Halide's operand rules; refused for handles or constants that do not fit.
pub fn try_binary(op: BinOp, a: impl Into<Operand>, b: impl Into<Operand>) -> Result<Expr, IrError> {
    let (a, b) = operands(a.into(), b.into())?;
    if op.is_logical() && !a.ty().is_bool() {
        return Err(type_error(&format!("{op:?}"), format!("operands must be boolean, not {}", a.ty())));
    }
    Expr::binary(op, a, b)
}

/// `a op b` with Halide's operand rules (see [`try_binary`]).
///
/// # Panics
/// If the operands cannot be brought to one type.
pub fn binary(op: BinOp, a: impl Into<Operand>, b: impl Into<Operand>) -> Expr {
    or_panic(try_binary(op, a, b))
}

/// `value` converted to `ty`, as Halide's `cast`: the same expression if it has the type
/// already, a constant folded, a scalar broadcast to a vector type.
pub fn try_cast(ty: Type, value: impl Into<Operand>) -> Result<Expr, IrError> {
    let value = value.into();
    let e = match value {
        Operand::Expr(e) => e,
        lit => lit.into_expr(),
    };
    if e.ty() == ty {
        return Ok(e);
    }
    if ty.is_handle() != e.ty().is_handle() {
        return Err(type_error("Cast", format!("cannot cast {e} of type {} to {ty}", e.ty())));
    }
    if ty.is_vector() && e.ty().is_scalar() {
        return Ok(broadcast_to(try_cast(ty.element_of(), e)?, ty.lanes()));
    }
    if ty.is_scalar() && e.ty().is_scalar() {
        let folded = match e.kind() {
            ExprKind::IntImm(v) => fold_int(ty, i128::from(*v)),
            ExprKind::UIntImm(v) => fold_int(ty, i128::from(*v)),
            ExprKind::FloatImm(v) if ty.is_float() => {
                Some(Expr::from_node_unchecked(ty, ExprKind::FloatImm(round_to(ty, *v))))
            }
            _ => None,
        };
        if let Some(c) = folded {
            return Ok(c);
        }
    }
    Expr::cast(ty, e)
}

/// An integer constant converted to the scalar type `ty`, wrapping as a conversion does;
/// None for a type without constants of its own (handles).
fn fold_int(ty: Type, v: i128) -> Option<Expr> {
    Some(match ty.code() {
        TypeCode::Int => {
            let bits = u32::from(ty.bits());
            let wrapped = ((v << (128 - bits)) >> (128 - bits)) as i64;
            Expr::from_node_unchecked(ty, ExprKind::IntImm(wrapped))
        }
        TypeCode::UInt if ty.is_bool() => Expr::bool(v != 0),
        TypeCode::UInt => {
            let bits = u32::from(ty.bits());
            let mask = if bits >= 64 { u64::MAX } else { (1u64 << bits) - 1 };
            Expr::from_node_unchecked(ty, ExprKind::UIntImm((v as u64) & mask))
        }
        TypeCode::Float | TypeCode::BFloat => {
            Expr::from_node_unchecked(ty, ExprKind::FloatImm(round_to(ty, v as f64)))
        }
        TypeCode::Handle => return None,
    })
}

/// `value` converted to `ty` (see [`try_cast`]).
///
/// # Panics
/// On a cast between a handle and a number.
pub fn cast(ty: Type, value: impl Into<Operand>) -> Expr {
    or_panic(try_cast(ty, value))
}

/// `select(condition, t, f)`, the values brought to one type, a scalar condition kept
/// scalar.
pub fn try_select(
    condition: impl Into<Operand>,
    t: impl Into<Operand>,
    f: impl Into<Operand>,
) -> Result<Expr, IrError> {
    let c = condition.into().into_expr();
    let (t, f) = operands(t.into(), f.into())?;
    let (t, f) = if c.ty().lanes() > t.ty().lanes() {
        (broadcast_to(t, c.ty().lanes()), broadcast_to(f, c.ty().lanes()))
    } else {
        (t, f)
    };
    Expr::select(c, t, f)
}

/// `select(condition, t, f)` (see [`try_select`]).
///
/// # Panics
/// If the values cannot be brought to one type or the condition is not boolean.
pub fn select(condition: impl Into<Operand>, t: impl Into<Operand>, f: impl Into<Operand>) -> Expr {
    or_panic(try_select(condition, t, f))
}

macro_rules! named_binary {
    ($($(#[$doc:meta])* $fname:ident => $op:ident),* $(,)?) => {
        $(
            $(#[$doc])*
            ///
            /// # Panics
            /// If the operands cannot be brought to one type (see [`try_binary`]).
            pub fn $fname(a: impl Into<Operand>, b: impl Into<Operand>) -> Expr {
                binary(BinOp::$op, a, b)
            }
        )*
    };
}

named_binary! {
    /// `min(a, b)`.
    min => Min,
    /// `max(a, b)`.
    max => Max,
    /// `a == b`.
    eq => Eq,
    /// `a != b`.
    ne => Ne,
    /// `a < b`.
    lt => Lt,
    /// `a <= b`.
    le => Le,
    /// `a > b`.
    gt => Gt,
    /// `a >= b`.
    ge => Ge,
    /// `a && b` (booleans).
    and => And,
    /// `a || b` (booleans).
    or => Or,
}

/// `!a` of a boolean.
///
/// # Panics
/// If `a` is not boolean.
pub fn not(a: impl Into<Operand>) -> Expr {
    or_panic(Expr::not(a.into().into_expr()))
}

/// `max(min(value, hi), lo)`, Halide's `clamp`.
pub fn clamp(value: impl Into<Operand>, lo: impl Into<Operand>, hi: impl Into<Operand>) -> Expr {
    let value = value.into().into_expr();
    max(min(value, hi), lo)
}

/// `likely(value)`: tells loop partitioning which side of a min, max or select is the
/// steady state.
pub fn likely(value: impl Into<Operand>) -> Expr {
    let v = value.into().into_expr();
    Intrinsic::Likely.call(v.ty(), vec![v])
}

/// `likely_if_innermost(value)`: [`likely`] if the expression ends up in the innermost
/// loop (the hint the reference's splits put on a tile's base).
pub fn likely_if_innermost(value: impl Into<Operand>) -> Expr {
    let v = value.into().into_expr();
    Intrinsic::LikelyIfInnermost.call(v.ty(), vec![v])
}

/// A call to `intrinsic` returning `ty`.
pub fn intrinsic(intrinsic: Intrinsic, ty: Type, args: Vec<Expr>) -> Expr {
    intrinsic.call(ty, args)
}

fn bitwise(op: Intrinsic, a: Operand, b: Operand) -> Result<Expr, IrError> {
    let (a, b) = operands(a, b)?;
    if !(a.ty().is_int() || a.ty().is_uint()) {
        return Err(type_error(op.name(), format!("operands must be integers, not {}", a.ty())));
    }
    Ok(op.call(a.ty(), vec![a, b]))
}

fn shift(op: Intrinsic, x: Operand, y: Operand) -> Result<Expr, IrError> {
    let x = match x {
        Operand::Expr(e) => e,
        lit => lit.into_expr(),
    };
    if !(x.ty().is_int() || x.ty().is_uint()) {
        return Err(type_error(op.name(), format!("cannot shift a {}", x.ty())));
    }
    // A literal shift amount is an unsigned integer of the shifted value's width, as in
    // Halide's `Expr << int`.
    let y = y.adopt(Type::uint(x.ty().bits(), 1))?;
    let (x, y) = match_lanes(x, y)?;
    Ok(op.call(x.ty(), vec![x, y]))
}

// ---- the operators ----

macro_rules! operator {
    ($trait:ident, $method:ident, $build:expr) => {
        impl<R: Into<Operand>> ops::$trait<R> for Expr {
            type Output = Expr;
            fn $method(self, rhs: R) -> Expr {
                or_panic($build(Operand::Expr(self), rhs.into()))
            }
        }
        impl<R: Into<Operand>> ops::$trait<R> for &Expr {
            type Output = Expr;
            fn $method(self, rhs: R) -> Expr {
                or_panic($build(Operand::Expr(self.clone()), rhs.into()))
            }
        }
        operator!(@literal_lhs $trait, $method, $build, i32, f32);
    };
    (@literal_lhs $trait:ident, $method:ident, $build:expr, $($lit:ty),*) => {
        $(
            impl ops::$trait<Expr> for $lit {
                type Output = Expr;
                fn $method(self, rhs: Expr) -> Expr {
                    or_panic($build(Operand::from(self), Operand::Expr(rhs)))
                }
            }
            impl ops::$trait<&Expr> for $lit {
                type Output = Expr;
                fn $method(self, rhs: &Expr) -> Expr {
                    or_panic($build(Operand::from(self), Operand::Expr(rhs.clone())))
                }
            }
        )*
    };
}

operator!(Add, add, |a, b| try_binary(BinOp::Add, a, b));
operator!(Sub, sub, |a, b| try_binary(BinOp::Sub, a, b));
operator!(Mul, mul, |a, b| try_binary(BinOp::Mul, a, b));
operator!(Div, div, |a, b| try_binary(BinOp::Div, a, b));
operator!(Rem, rem, |a, b| try_binary(BinOp::Mod, a, b));
operator!(BitAnd, bitand, |a: Operand, b: Operand| logical_or_bitwise(
    BinOp::And,
    Intrinsic::BitwiseAnd,
    a,
    b
));
operator!(BitOr, bitor, |a: Operand, b: Operand| logical_or_bitwise(BinOp::Or, Intrinsic::BitwiseOr, a, b));
operator!(BitXor, bitxor, |a, b| bitwise(Intrinsic::BitwiseXor, a, b));
operator!(Shl, shl, |a, b| shift(Intrinsic::ShiftLeft, a, b));
operator!(Shr, shr, |a, b| shift(Intrinsic::ShiftRight, a, b));

/// `&`/`|`: logical on booleans, bitwise on integers.
fn logical_or_bitwise(logical: BinOp, bits: Intrinsic, a: Operand, b: Operand) -> Result<Expr, IrError> {
    let boolean = |o: &Operand| match o {
        Operand::Expr(e) => e.ty().is_bool(),
        Operand::Bool(_) => true,
        _ => false,
    };
    if boolean(&a) || boolean(&b) { try_binary(logical, a, b) } else { bitwise(bits, a, b) }
}

impl ops::Neg for Expr {
    type Output = Expr;
    /// `0 - a`, as Halide negates.
    fn neg(self) -> Expr {
        let zero = Operand::Int(0).adopt(self.ty());
        or_panic(zero.and_then(|z| Expr::binary(BinOp::Sub, z, self)))
    }
}
impl ops::Neg for &Expr {
    type Output = Expr;
    fn neg(self) -> Expr {
        -self.clone()
    }
}
impl ops::Not for Expr {
    type Output = Expr;
    /// `!a` of a boolean, `~a` (the bitwise-not intrinsic) of an integer.
    fn not(self) -> Expr {
        if self.ty().is_bool() {
            not(self)
        } else if self.ty().is_int() || self.ty().is_uint() {
            Intrinsic::BitwiseNot.call(self.ty(), vec![self])
        } else {
            panic!("loopir::build: `!` of a {}: {self}", self.ty())
        }
    }
}
impl ops::Not for &Expr {
    type Output = Expr;
    fn not(self) -> Expr {
        !self.clone()
    }
}

// ---- leaves ----

/// An int32 variable.
pub fn var(name: impl Into<Name>) -> Expr {
    Expr::var_i32(name)
}

/// A variable of type `ty`.
pub fn var_of(ty: Type, name: impl Into<Name>) -> Expr {
    Expr::var(ty, name)
}

/// An int32 constant.
pub fn int(v: i32) -> Expr {
    Expr::i32(v)
}

/// A float32 constant.
pub fn float(v: f32) -> Expr {
    Expr::f32(v)
}

/// A constant of type `ty` (see [`const_of`]).
///
/// # Panics
/// If `ty` cannot represent `v` exactly.
pub fn constant(ty: Type, v: i64) -> Expr {
    or_panic(const_of(ty, v))
}

/// `let name = value in body`.
pub fn let_in(name: impl Into<Name>, value: impl Into<Operand>, body: Expr) -> Expr {
    Expr::let_in(name, value.into().into_expr(), body)
}

// ---- calls and memory ----

/// A call to value 0 of the Func `name`, of type `ty`.
pub fn func_call(name: impl Into<Name>, ty: Type, args: Vec<Expr>) -> Expr {
    Expr::call_func(ty, name, args, 0)
}

/// A call to value `value_index` of the tuple-valued Func `name`, of type `ty`.
pub fn func_call_tuple(name: impl Into<Name>, ty: Type, args: Vec<Expr>, value_index: u32) -> Expr {
    Expr::call_func(ty, name, args, value_index)
}

/// A read of the input image (buffer parameter) `name` at `args`.
pub fn image_call(name: impl Into<Name>, ty: Type, args: Vec<Expr>) -> Expr {
    Expr::call(ty, name, args, CallType::Image)
}

/// A call to the C function `name` (with side effects).
pub fn extern_call(name: impl Into<Name>, ty: Type, args: Vec<Expr>) -> Expr {
    Expr::call(ty, name, args, CallType::Extern)
}

/// A call to the side-effect-free C function `name` (`sqrt_f32`, ...).
pub fn pure_extern_call(name: impl Into<Name>, ty: Type, args: Vec<Expr>) -> Expr {
    Expr::call(ty, name, args, CallType::PureExtern)
}

/// `buffer[index]` of type `ty`, all lanes loaded, alignment unknown.
///
/// # Panics
/// If `index` is not int32 with `ty`'s lanes.
pub fn load(ty: Type, buffer: impl Into<Name>, index: impl Into<Operand>) -> Expr {
    let index = or_panic(index.into().adopt(Type::int(32, ty.lanes())));
    let all = broadcast_to(Expr::const_true(), ty.lanes());
    or_panic(Expr::load(ty, buffer, index, all, ModulusRemainder::UNKNOWN))
}

/// `buffer[index] = value`, all lanes stored, alignment unknown.
///
/// # Panics
/// If `index` is not int32 with `value`'s lanes.
pub fn store(buffer: impl Into<Name>, value: impl Into<Operand>, index: impl Into<Operand>) -> Stmt {
    let value = value.into().into_expr();
    let lanes = value.ty().lanes();
    let index = or_panic(index.into().adopt(Type::int(32, lanes)));
    let all = broadcast_to(Expr::const_true(), lanes);
    or_panic(Stmt::store(buffer, value, index, all, ModulusRemainder::UNKNOWN))
}

/// `name(args) = values` (one value per tuple element), always stored.
///
/// # Panics
/// If `values` is empty.
pub fn provide(name: impl Into<Name>, values: Vec<Expr>, args: Vec<Expr>) -> Stmt {
    or_panic(Stmt::provide(name, values, args, Expr::const_true()))
}

// ---- statements ----

fn loop_bound(what: &str, e: Operand) -> Expr {
    let e = or_panic(e.adopt(Type::INT32));
    if e.ty() == Type::INT32 {
        e
    } else if e.ty().is_scalar() && (e.ty().is_int() || e.ty().is_uint()) {
        cast(Type::INT32, e)
    } else {
        panic!("loopir::build: a loop's {what} must be an integer, not {}: {e}", e.ty())
    }
}

/// A loop of kind `for_type` over `name` from `min` to `max`, both inclusive, on `device_api`.
///
/// # Panics
/// If a bound is not a scalar integer (other integer types are converted to int32).
pub fn loop_of(
    for_type: ForType,
    device_api: DeviceApi,
    name: impl Into<Name>,
    min: impl Into<Operand>,
    max: impl Into<Operand>,
    body: Stmt,
) -> Stmt {
    let (min, max) = (loop_bound("min", min.into()), loop_bound("max", max.into()));
    or_panic(Stmt::for_loop(name, MinMax { min, max }, for_type, device_api, body))
}

/// A serial loop over `name` from `min` to `max`, both inclusive.
pub fn for_loop(name: impl Into<Name>, min: impl Into<Operand>, max: impl Into<Operand>, body: Stmt) -> Stmt {
    loop_of(ForType::Serial, DeviceApi::None, name, min, max, body)
}

/// A parallel loop over `name` from `min` to `max`, both inclusive.
pub fn parallel(name: impl Into<Name>, min: impl Into<Operand>, max: impl Into<Operand>, body: Stmt) -> Stmt {
    loop_of(ForType::Parallel, DeviceApi::None, name, min, max, body)
}

/// A vectorized loop over `name` from `min` to `max`, both inclusive.
pub fn vectorized(
    name: impl Into<Name>,
    min: impl Into<Operand>,
    max: impl Into<Operand>,
    body: Stmt,
) -> Stmt {
    loop_of(ForType::Vectorized, DeviceApi::None, name, min, max, body)
}

/// An unrolled loop over `name` from `min` to `max`, both inclusive.
pub fn unrolled(name: impl Into<Name>, min: impl Into<Operand>, max: impl Into<Operand>, body: Stmt) -> Stmt {
    loop_of(ForType::Unrolled, DeviceApi::None, name, min, max, body)
}

/// A GPU block loop over `name` from `min` to `max`, both inclusive, on the target's
/// default GPU (`gpu_block<Default_GPU>`, as a schedule's `gpu_blocks` makes it; the
/// reference's `select_gpu_api` later puts it on the target's API). Name it as the
/// schedule names the variable (`f.s0.y.yo`); the reference's `canonicalize_gpu_vars`
/// appends the block index (`.block_id_y`).
///
/// ```
/// use loopir::build::*;
/// let kernel = gpu_block("f.s0.x.xo", 0, 3,
///     gpu_thread("f.s0.x.xi", 0, 15, provide("f", vec![int(0)], vec![var("f.s0.x.xi")])));
/// assert_eq!(kernel.to_string(), "gpu_block<Default_GPU> (f.s0.x.xo, 0, 3) {\n \
///     gpu_thread<Default_GPU> (f.s0.x.xi, 0, 15) {\n  f(f.s0.x.xi) = 0\n }\n}\n");
/// ```
pub fn gpu_block(
    name: impl Into<Name>,
    min: impl Into<Operand>,
    max: impl Into<Operand>,
    body: Stmt,
) -> Stmt {
    loop_of(ForType::GpuBlock, DeviceApi::DefaultGpu, name, min, max, body)
}

/// A GPU thread loop over `name` from `min` to `max`, both inclusive, on the target's
/// default GPU (see [`gpu_block`]).
pub fn gpu_thread(
    name: impl Into<Name>,
    min: impl Into<Operand>,
    max: impl Into<Operand>,
    body: Stmt,
) -> Stmt {
    loop_of(ForType::GpuThread, DeviceApi::DefaultGpu, name, min, max, body)
}

/// A GPU lane loop over `name` from `min` to `max`, both inclusive, on the target's
/// default GPU (see [`gpu_block`]).
pub fn gpu_lane(name: impl Into<Name>, min: impl Into<Operand>, max: impl Into<Operand>, body: Stmt) -> Stmt {
    loop_of(ForType::GpuLane, DeviceApi::DefaultGpu, name, min, max, body)
}

/// `produce name { body }`.
pub fn produce(name: impl Into<Name>, body: Stmt) -> Stmt {
    Stmt::produce(name, body)
}

/// `consume name { body }`.
pub fn consume(name: impl Into<Name>, body: Stmt) -> Stmt {
    Stmt::consume(name, body)
}

/// `produce name { producer } consume name { consumer }`: how a Func computed inside
/// another's loops is laid out.
pub fn produce_consume(name: impl Into<Name>, producer: Stmt, consumer: Stmt) -> Stmt {
    let name = name.into();
    Stmt::block(vec![Stmt::produce(name.clone(), producer), Stmt::consume(name, consumer)])
}

/// `realize name(bounds) { body }`: storage for the Func `name`, whose values have
/// `types`, over one `[min, extent]` per dimension; memory type `Auto`, always realized.
///
/// # Panics
/// If a bound is not an integer (other integer types are converted to int32).
pub fn realize(name: impl Into<Name>, types: Vec<Type>, bounds: Vec<MinExtent>, body: Stmt) -> Stmt {
    let bounds = bounds
        .into_iter()
        .map(|MinExtent { min, extent }| MinExtent {
            min: loop_bound("min", min.into()),
            extent: loop_bound("extent", extent.into()),
        })
        .collect();
    or_panic(Stmt::realize(name, types, MemoryType::Auto, bounds, Expr::const_true(), body))
}

/// `allocate name[ty * extents]` over `body`, on the heap or stack as the compiler
/// decides, always allocated.
pub fn allocate(name: impl Into<Name>, ty: Type, extents: Vec<Expr>, body: Stmt) -> Stmt {
    or_panic(Stmt::allocate(name, ty, MemoryType::Auto, extents, Expr::const_true(), body))
}

/// `free name`.
pub fn free(name: impl Into<Name>) -> Stmt {
    Stmt::free(name)
}

/// `let name = value` over `body`.
pub fn let_stmt(name: impl Into<Name>, value: impl Into<Operand>, body: Stmt) -> Stmt {
    Stmt::let_stmt(name, value.into().into_expr(), body)
}

/// A chain of `let`s over `body`, the first binding outermost.
pub fn let_stmts<N: Into<Name>>(bindings: impl IntoIterator<Item = (N, Expr)>, body: Stmt) -> Stmt {
    let bindings: Vec<(Name, Expr)> = bindings.into_iter().map(|(n, v)| (n.into(), v)).collect();
    bindings.into_iter().rev().fold(body, |body, (name, value)| Stmt::let_stmt(name, value, body))
}

/// The statements in order (nested blocks flattened; one statement is itself).
pub fn block(stmts: Vec<Stmt>) -> Stmt {
    Stmt::block(stmts)
}

/// `if (condition) { then_case }`.
///
/// # Panics
/// If the condition is not a scalar boolean.
pub fn if_then(condition: impl Into<Operand>, then_case: Stmt) -> Stmt {
    or_panic(Stmt::if_then_else(condition.into().into_expr(), then_case, None))
}

/// `if (condition) { then_case } else { else_case }`.
///
/// # Panics
/// If the condition is not a scalar boolean.
pub fn if_then_else(condition: impl Into<Operand>, then_case: Stmt, else_case: Stmt) -> Stmt {
    or_panic(Stmt::if_then_else(condition.into().into_expr(), then_case, Some(else_case)))
}

/// `assert(condition, message)`.
///
/// # Panics
/// If the condition is not a scalar boolean.
pub fn assert_that(condition: impl Into<Operand>, message: Expr) -> Stmt {
    or_panic(Stmt::assert_stmt(condition.into().into_expr(), message))
}

/// `value` evaluated for its effects.
pub fn evaluate(value: impl Into<Operand>) -> Stmt {
    Stmt::evaluate(value.into().into_expr())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(s: &str) -> Type {
        Type::parse(s).unwrap_or_else(|| panic!("{s}"))
    }

    #[test]
    fn literals_take_the_other_operands_type() {
        let x = var("x");
        assert_eq!((&x + 1).to_string(), "(x + 1)");
        let u = var_of(ty("uint16"), "u");
        let sum = &u + 1;
        assert_eq!(sum.ty(), ty("uint16"));
        assert_eq!(sum.to_string(), "((uint16)u + 1_u16)");
        let f = var_of(ty("float32"), "f");
        assert_eq!((2 * &f).to_string(), "(2.000000f*(float32)f)");
        assert_eq!((&f + 0.5).ty(), ty("float32"));
    }

    #[test]
    fn mixed_types_meet_as_halide_says() {
        let i = var("i");
        let f = var_of(ty("float32"), "f");
        assert_eq!((&i * &f).to_string(), "(float32(i)*(float32)f)");
        let u8v = var_of(ty("uint8"), "a");
        let u16v = var_of(ty("uint16"), "b");
        assert_eq!((&u8v + &u16v).ty(), ty("uint16"));
        let i8v = var_of(ty("int8"), "c");
        let sum = &i8v + &u16v;
        assert_eq!(sum.ty(), ty("int16"));
        let d = var_of(ty("float64"), "d");
        assert_eq!((&f - &d).ty(), ty("float64"));
        let v = var_of(ty("int32x4"), "v");
        assert_eq!((&v + &i).ty(), ty("int32x4"));
        assert_eq!((&v + 1).to_string(), "((int32x4)v + x4(1))");
    }

    #[test]
    fn constants_that_change_value_are_refused() {
        let u = var_of(ty("uint8"), "u");
        assert!(try_binary(BinOp::Add, u.clone(), 256).is_err());
        assert!(try_binary(BinOp::Add, u.clone(), -1).is_err());
        assert!(try_binary(BinOp::Add, u, 255).is_ok());
        let h = var_of(Type::void_ptr(), "h");
        assert!(try_binary(BinOp::Add, h, 1).is_err());
        let f = var_of(ty("float32"), "f");
        assert!(try_binary(BinOp::Add, f.clone(), 16_777_217).is_err());
        assert!(try_binary(BinOp::Add, f, 16_777_216).is_ok());
    }

    #[test]
    #[should_panic(expected = "no arithmetic on handles")]
    fn operators_panic_on_handles() {
        let _ = var_of(Type::void_ptr(), "h") + var("x");
    }

    #[test]
    fn comparisons_logic_and_bitwise() {
        let x = var("x");
        let c = lt(&x, 10) & ge(&x, 0);
        assert_eq!(c.to_string(), "((x < 10) && (x >= 0))");
        assert_eq!((!c.clone()).to_string(), "!((x < 10) && (x >= 0))");
        let u = var_of(ty("uint8"), "u");
        assert_eq!((&u & 15).to_string(), "((uint8)u & 15_u8)");
        assert_eq!((&u << 2).to_string(), "(uint8)shift_left((uint8)u, 2_u8)");
        assert_eq!((!u).to_string(), "~((uint8)u)");
        assert_eq!(select(c, &x, 0).to_string(), "select((x < 10) && (x >= 0), x, 0)");
        assert_eq!(clamp(&x, 0, 9).to_string(), "max(min(x, 9), 0)");
        assert_eq!((-&x).to_string(), "(0 - x)");
    }

    #[test]
    fn casts_fold_constants_and_broadcast() {
        assert_eq!(cast(ty("uint8"), 300).to_string(), "44_u8");
        assert_eq!(cast(ty("float32"), int(3)).to_string(), "3.000000f");
        let x = var("x");
        assert!(cast(Type::INT32, x.clone()).same_as(&x));
        assert_eq!(cast(ty("float32x4"), x).to_string(), "x4(float32(x))");
        assert!(try_cast(Type::void_ptr(), var("x")).is_err());
    }

    /// What the builder makes, the parser reads back as the same tree: the text carries
    /// every type the builder chose.
    #[test]
    fn built_ir_reads_back_from_its_text() {
        let x = var("x");
        let u = ty("uint16");
        let f = ty("float32");
        let blur = (image_call("in", u, vec![&x - 1]) + image_call("in", u, vec![x.clone()])) / 3;
        let scaled = cast(f, blur) * 0.5 + &x;
        let body = block(vec![
            provide("g", vec![scaled], vec![x.clone()]),
            store("buf", load(ty("uint8"), "src", &x * 2), &x + 1),
            if_then(
                lt(&x, 3) | eq(&x, 7),
                evaluate(extern_call("halide_print", Type::INT32, vec![x.clone()])),
            ),
        ]);
        let s = parallel("x", 0, var("n") - 1, body);
        let env = crate::ParseEnv::new().with_image("in", u).with_func("g", vec![f]);
        let back = crate::parse_stmt_with_env(&s.to_string(), &env).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(back, s, "{s}");
    }

    #[test]
    fn statements_take_default_predicates_and_conditions() {
        let x = var("x");
        let s = for_loop("x", 0, 9, store("buf", load(ty("uint8"), "in", &x + 1), x.clone()));
        assert_eq!(s.to_string(), "for (x, 0, 9) {\n buf[x] = (uint8)in[x + 1]\n}\n");
        let r = realize(
            "f",
            vec![ty("float32")],
            vec![MinExtent::new(var("f.min.0"), var("f.extent.0"))],
            provide("f", vec![float(1.0)], vec![x]),
        );
        assert_eq!(r.to_string(), "realize f([f.min.0, f.extent.0]) {\n  f(x) = 1.000000f\n}\n");
        let chain = let_stmts([("a", int(1)), ("b", var("a") + 1)], evaluate(var("b")));
        assert_eq!(chain.to_string(), "let a = 1\nlet b = a + 1\nb\n");
        let pc = produce_consume("g", evaluate(0), evaluate(1));
        assert_eq!(pc.to_string(), "produce g {\n 0\n}\nconsume g {\n 1\n}\n");
    }
}
