//! Arithmetic on one lane: the binary operators and the math intrinsics, with the
//! reference's semantics on every element type.
//!
//! Integers wrap around (two's complement at the type's width). Division and modulo are
//! Euclidean: `a == (a / b) * b + a % b` with `0 <= a % b < |b|`; division or modulo by
//! zero is zero, and the most negative value divided by -1 wraps to itself. Floats follow
//! IEEE 754 at the type's precision; `float16` and `bfloat16` are computed in `float32`
//! and rounded back after every operation, as the reference's code generator emulates
//! them. `min`/`max` are `a < b ? a : b` / `a > b ? a : b` (so a NaN first operand gives
//! the second), and comparisons of floats are ordered (false when either side is NaN,
//! `!=` included).
//!
//! Where the reference leaves a result undefined (a shift by the type's width or more,
//! `div_round_to_zero` by zero, `signed_integer_overflow`), the lane is an
//! [`Undefined`] error rather than a made-up value.

use loopir::{BinOp, Intrinsic};

use crate::elem::{Elem, cast, round_half_even, zext};

/// A lane whose value the reference leaves undefined, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Undefined(pub String);

/// `a op b` on one lane of type `e` (comparisons give 0 or 1).
#[inline(always)]
pub fn binary(op: BinOp, e: Elem, a: u64, b: u64) -> u64 {
    match e {
        Elem::Int(_) | Elem::UInt(_) => int_binary(op, e, a, b),
        Elem::Float(32) => {
            let (x, y) = (f32::from_bits(a as u32), f32::from_bits(b as u32));
            match float_binary(op, x, y) {
                FloatResult::Value(r) => r.to_bits() as u64,
                FloatResult::Bool(t) => t as u64,
            }
        }
        Elem::Float(64) => {
            let (x, y) = (f64::from_bits(a), f64::from_bits(b));
            match float_binary(op, x, y) {
                FloatResult::Value(r) => r.to_bits(),
                FloatResult::Bool(t) => t as u64,
            }
        }
        Elem::Float(_) | Elem::BFloat16 => {
            // Emulated in float32, rounded back after the operation.
            let (x, y) = (e.to_f64(a) as f32, e.to_f64(b) as f32);
            match float_binary(op, x, y) {
                FloatResult::Value(r) => e.from_f64(r as f64),
                FloatResult::Bool(t) => t as u64,
            }
        }
        Elem::Handle => match op {
            BinOp::Eq => (a == b) as u64,
            BinOp::Ne => (a != b) as u64,
            BinOp::Lt => (a < b) as u64,
            BinOp::Le => (a <= b) as u64,
            BinOp::Gt => (a > b) as u64,
            BinOp::Ge => (a >= b) as u64,
            // The compiler refuses arithmetic on handles.
            _ => 0,
        },
    }
}

#[inline(always)]
fn int_binary(op: BinOp, e: Elem, a: u64, b: u64) -> u64 {
    let signed = matches!(e, Elem::Int(_));
    let lt = |a: u64, b: u64| if signed { (a as i64) < (b as i64) } else { a < b };
    match op {
        BinOp::Add => e.wrap(a.wrapping_add(b)),
        BinOp::Sub => e.wrap(a.wrapping_sub(b)),
        BinOp::Mul => e.wrap(a.wrapping_mul(b)),
        BinOp::Div => {
            if b == 0 {
                0
            } else if signed {
                e.from_i128((a as i64 as i128).div_euclid(b as i64 as i128))
            } else {
                a / b
            }
        }
        BinOp::Mod => {
            if b == 0 {
                0
            } else if signed {
                e.from_i128((a as i64 as i128).rem_euclid(b as i64 as i128))
            } else {
                a % b
            }
        }
        BinOp::Min => {
            if lt(a, b) {
                a
            } else {
                b
            }
        }
        BinOp::Max => {
            if lt(b, a) {
                a
            } else {
                b
            }
        }
        BinOp::Eq => (a == b) as u64,
        BinOp::Ne => (a != b) as u64,
        BinOp::Lt => lt(a, b) as u64,
        BinOp::Le => (!lt(b, a)) as u64,
        BinOp::Gt => lt(b, a) as u64,
        BinOp::Ge => (!lt(a, b)) as u64,
        BinOp::And => a & b,
        BinOp::Or => a | b,
    }
}

enum FloatResult<F> {
    Value(F),
    Bool(bool),
}

/// IEEE arithmetic shared by float32 and float64.
trait Float: Copy + PartialOrd {
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn div(self, o: Self) -> Self;
    fn floor(self) -> Self;
}

macro_rules! impl_float {
    ($t:ty) => {
        impl Float for $t {
            #[inline(always)]
            fn add(self, o: Self) -> Self {
                self + o
            }
            #[inline(always)]
            fn sub(self, o: Self) -> Self {
                self - o
            }
            #[inline(always)]
            fn mul(self, o: Self) -> Self {
                self * o
            }
            #[inline(always)]
            fn div(self, o: Self) -> Self {
                self / o
            }
            #[inline(always)]
            fn floor(self) -> Self {
                <$t>::floor(self)
            }
        }
    };
}
impl_float!(f32);
impl_float!(f64);

#[inline(always)]
fn float_binary<F: Float>(op: BinOp, x: F, y: F) -> FloatResult<F> {
    use FloatResult::{Bool, Value};
    match op {
        BinOp::Add => Value(x.add(y)),
        BinOp::Sub => Value(x.sub(y)),
        BinOp::Mul => Value(x.mul(y)),
        BinOp::Div => Value(x.div(y)),
        // The reference lowers a float modulo to a - b*floor(a/b).
        BinOp::Mod => Value(x.sub(y.mul(x.div(y).floor()))),
        BinOp::Min => Value(if x < y { x } else { y }),
        BinOp::Max => Value(if x > y { x } else { y }),
        BinOp::Eq => Bool(x == y),
        // Ordered not-equal: false if either side is NaN.
        BinOp::Ne => Bool(x.partial_cmp(&y).is_some_and(|o| o != std::cmp::Ordering::Equal)),
        BinOp::Lt => Bool(x < y),
        BinOp::Le => Bool(x <= y),
        BinOp::Gt => Bool(x > y),
        BinOp::Ge => Bool(x >= y),
        BinOp::And | BinOp::Or => Bool(false),
    }
}

/// The arguments of one lane of a math intrinsic: values and their element types.
#[derive(Clone, Copy)]
pub struct LaneArgs<'a> {
    /// The lane of each argument.
    pub v: &'a [u64],
    /// The element type of each argument.
    pub e: &'a [Elem],
}

impl LaneArgs<'_> {
    #[inline(always)]
    fn i(&self, k: usize) -> i128 {
        self.e[k].as_i128(self.v[k])
    }
}

/// One lane of a math intrinsic whose result has element type `out`.
///
/// The semantics are the reference's definitions (`IROperator.h` and the lowering of
/// each intrinsic): the widening, saturating, halving and rounding families are computed
/// exactly in 128 bits and then narrowed as their definitions say.
pub fn math(op: Intrinsic, out: Elem, a: LaneArgs<'_>) -> Result<u64, Undefined> {
    use Intrinsic as I;
    let e0 = a.e[0];
    Ok(match op {
        I::Abs => {
            if e0.is_float() {
                float_unary(e0, a.v[0], f64::abs)
            } else {
                out.from_i128(a.i(0).abs())
            }
        }
        I::Absd => {
            if e0.is_float() {
                let d = binary(BinOp::Sub, e0, a.v[0], a.v[1]);
                float_unary(e0, d, f64::abs)
            } else {
                out.from_i128((a.i(0) - a.i(1)).abs())
            }
        }
        I::BitwiseAnd => out.wrap(a.v[0] & a.v[1]),
        I::BitwiseOr => out.wrap(a.v[0] | a.v[1]),
        I::BitwiseXor => out.wrap(a.v[0] ^ a.v[1]),
        I::BitwiseNot => out.wrap(!a.v[0]),
        I::BoolToMask | I::CastMask => {
            if a.v[0] & 1 != 0 || (a.v[0] != 0 && !matches!(e0, Elem::UInt(1))) {
                out.wrap(u64::MAX)
            } else {
                0
            }
        }
        I::ConcatBits => {
            let mut acc: u128 = 0;
            let mut shift = 0u32;
            for (v, e) in a.v.iter().zip(a.e) {
                acc |= (zext(*v, e.bits()) as u128) << shift;
                shift += e.bits();
            }
            out.wrap(acc as u64)
        }
        I::CountLeadingZeros => {
            let bits = e0.bits();
            let v = zext(a.v[0], bits);
            out.from_i128((v.leading_zeros() - (64 - bits)) as i128)
        }
        I::CountTrailingZeros => {
            let bits = e0.bits();
            let v = zext(a.v[0], bits);
            out.from_i128(if v == 0 { bits as i128 } else { v.trailing_zeros() as i128 })
        }
        I::Popcount => out.from_i128(zext(a.v[0], e0.bits()).count_ones() as i128),
        I::DivRoundToZero | I::ModRoundToZero => {
            let (x, y) = (a.i(0), a.i(1));
            if e0.is_float() {
                let r = binary(BinOp::Div, e0, a.v[0], a.v[1]);
                return Ok(if op == I::DivRoundToZero { float_unary(e0, r, f64::trunc) } else { r });
            }
            if y == 0 {
                return Err(Undefined(format!("{} by zero", op.name())));
            }
            if op == I::DivRoundToZero { out.from_i128(x / y) } else { out.from_i128(x % y) }
        }
        I::ExtractBits => {
            let bits = e0.bits();
            let off = a.i(1);
            if off < 0 || off >= bits as i128 { 0 } else { out.wrap(zext(a.v[0], bits) >> off) }
        }
        I::HalvingAdd => out.from_i128((a.i(0) + a.i(1)).div_euclid(2)),
        I::HalvingSub => out.from_i128((a.i(0) - a.i(1)).div_euclid(2)),
        I::RoundingHalvingAdd => out.from_i128((a.i(0) + a.i(1) + 1).div_euclid(2)),
        I::SortedAvg => out.from_i128(a.i(0) + (a.i(1) - a.i(0)).div_euclid(2)),
        I::Lerp => lerp(out, a)?,
        I::MulShiftRight | I::RoundingMulShiftRight => {
            let q = a.i(2);
            let p = a.i(0) * a.i(1);
            let shifted =
                if op == I::MulShiftRight { shift_right_exact(p, q) } else { rounding_shift_right(p, q) };
            out.saturate(shifted)
        }
        I::Mux => {
            let k = a.i(0);
            let n = a.v.len() - 1;
            let pick = if k >= 0 && (k as usize) < n { k as usize } else { n - 1 };
            a.v[1 + pick]
        }
        I::ReturnSecond => a.v[1],
        I::Round => float_unary(e0, a.v[0], round_half_even),
        I::RoundingShiftLeft => out.saturate(rounding_shift_right(a.i(0), -a.i(1))),
        I::RoundingShiftRight => out.saturate(rounding_shift_right(a.i(0), a.i(1))),
        I::SaturatingAdd => {
            if e0.is_float() {
                binary(BinOp::Add, e0, a.v[0], a.v[1])
            } else {
                out.saturate(a.i(0) + a.i(1))
            }
        }
        I::SaturatingSub => {
            if e0.is_float() {
                binary(BinOp::Sub, e0, a.v[0], a.v[1])
            } else {
                out.saturate(a.i(0) - a.i(1))
            }
        }
        I::SaturatingCast => saturating_cast(e0, out, a.v[0]),
        I::ShiftLeft | I::ShiftRight => {
            let bits = out.bits() as i128;
            let b = a.i(1);
            // A negative signed amount shifts the other way.
            let left = (op == I::ShiftLeft) == (b >= 0);
            let amount = b.abs();
            if amount >= bits {
                return Err(Undefined(format!(
                    "{}(…, {b}) shifts a {}-bit value by {amount}",
                    op.name(),
                    bits
                )));
            }
            if left { out.wrap(a.v[0] << amount) } else { out.from_i128(a.i(0) >> amount) }
        }
        I::SignedIntegerOverflow => {
            return Err(Undefined("signed_integer_overflow: the simplifier found an overflow".into()));
        }
        I::StrictAdd => binary(BinOp::Add, e0, a.v[0], a.v[1]),
        I::StrictSub => binary(BinOp::Sub, e0, a.v[0], a.v[1]),
        I::StrictMul => binary(BinOp::Mul, e0, a.v[0], a.v[1]),
        I::StrictDiv => binary(BinOp::Div, e0, a.v[0], a.v[1]),
        I::StrictMin => binary(BinOp::Min, e0, a.v[0], a.v[1]),
        I::StrictMax => binary(BinOp::Max, e0, a.v[0], a.v[1]),
        I::StrictEq => binary(BinOp::Eq, e0, a.v[0], a.v[1]),
        I::StrictLt => binary(BinOp::Lt, e0, a.v[0], a.v[1]),
        I::StrictLe => binary(BinOp::Le, e0, a.v[0], a.v[1]),
        I::StrictCast => cast(e0, out, a.v[0]),
        I::StrictFma => {
            let (x, y, z) = (e0.to_f64(a.v[0]), e0.to_f64(a.v[1]), e0.to_f64(a.v[2]));
            match e0 {
                Elem::Float(64) => x.mul_add(y, z).to_bits(),
                _ => e0.from_f64((x as f32).mul_add(y as f32, z as f32) as f64),
            }
        }
        I::WidenRightAdd => out.from_i128(a.i(0) + a.i(1)),
        I::WidenRightSub => out.from_i128(a.i(0) - a.i(1)),
        I::WidenRightMul => out.from_i128(a.i(0) * a.i(1)),
        I::WideningAdd => widening(out, a, |x, y| x + y),
        I::WideningSub => widening(out, a, |x, y| x - y),
        I::WideningMul => widening(out, a, |x, y| x * y),
        I::WideningShiftLeft => {
            let b = a.i(1);
            let bits = out.bits() as i128;
            if b.abs() >= bits {
                return Err(Undefined(format!("widening_shift_left by {b}")));
            }
            out.from_i128(if b >= 0 { a.i(0) << b } else { a.i(0) >> -b })
        }
        I::WideningShiftRight => {
            let b = a.i(1);
            let bits = out.bits() as i128;
            if b.abs() >= bits {
                return Err(Undefined(format!("widening_shift_right by {b}")));
            }
            out.from_i128(if b >= 0 { a.i(0) >> b } else { a.i(0) << -b })
        }
        // Hints stand for their first argument.
        I::Likely | I::LikelyIfInnermost | I::PromiseClamped | I::UnsafePromiseClamped | I::MemoizeExpr => {
            a.v[0]
        }
        I::SelectMask | I::IfThenElseMask => {
            if a.v[0] != 0 {
                a.v[1]
            } else {
                a.v[2]
            }
        }
        other => return Err(Undefined(format!("{} is not a lane-wise math intrinsic", other.name()))),
    })
}

/// widen(a) op widen(b): the exact result, held in the (wider) result type.
fn widening(out: Elem, a: LaneArgs<'_>, f: impl Fn(i128, i128) -> i128) -> u64 {
    if out.is_float() {
        // Widening float arithmetic: compute in the result's precision.
        let x = cast(a.e[0], out, a.v[0]);
        let y = cast(a.e[1], out, a.v[1]);
        let op = if f(3, 2) == 5 {
            BinOp::Add
        } else if f(3, 2) == 1 {
            BinOp::Sub
        } else {
            BinOp::Mul
        };
        return binary(op, out, x, y);
    }
    out.from_i128(f(a.i(0), a.i(1)))
}

/// `x >> q` of the exact value, a negative `q` shifting left.
fn shift_right_exact(x: i128, q: i128) -> i128 {
    if q >= 0 {
        if q >= 127 { if x < 0 { -1 } else { 0 } } else { x >> q }
    } else {
        let s = (-q).min(126);
        x.checked_shl(s as u32).unwrap_or(if x < 0 { i128::MIN } else { i128::MAX })
    }
}

/// `(x + 2^(q-1)) >> q` for `q > 0`, `x << -q` otherwise (the rounding term is zero
/// for left shifts), on exact values.
fn rounding_shift_right(x: i128, q: i128) -> i128 {
    if q > 0 {
        if q >= 126 {
            return if x < 0 { -1 } else { 0 };
        }
        (x + (1i128 << (q - 1))) >> q
    } else {
        shift_right_exact(x, q)
    }
}

/// A float lane through a function of its exact value, rounded back to the type.
fn float_unary(e: Elem, v: u64, f: impl Fn(f64) -> f64) -> u64 {
    e.from_f64(f(e.to_f64(v)))
}

/// The reference's `saturating_cast`: clamp into the target's range, then convert.
fn saturating_cast(from: Elem, to: Elem, v: u64) -> u64 {
    if from.is_float() && to.is_float() {
        let x = from.to_f64(v);
        let max = float_max(to);
        return to.from_f64(x.clamp(-max, max));
    }
    if from.is_float() {
        let x = from.to_f64(v);
        if x.is_nan() {
            return 0;
        }
        return to.saturate(x.trunc().clamp(-1e38, 1e38) as i128);
    }
    if to.is_float() {
        return cast(from, to, v);
    }
    to.saturate(from.as_i128(v))
}

fn float_max(e: Elem) -> f64 {
    match e {
        Elem::Float(16) => 65504.0,
        Elem::Float(32) => f32::MAX as f64,
        Elem::BFloat16 => crate::elem::bf16_to_f32(0x7f7f) as f64,
        _ => f64::MAX,
    }
}

/// `lerp(zero, one, weight)` as the reference lowers it (`Lerp.cpp`): integer values are
/// interpolated in the unsigned type of their width with the weight rescaled to that
/// width, and the result rounded to nearest; float values as `zero*(1-w) + one*w`.
fn lerp(out: Elem, a: LaneArgs<'_>) -> Result<u64, Undefined> {
    let (ve, we) = (a.e[0], a.e[2]);
    if ve.is_float() {
        let w = if we.is_float() {
            cast(we, ve, a.v[2])
        } else {
            // An integer weight is scaled to [0, 1] by the largest value of its type.
            let denom = ((1u128 << we.bits()) - 1) as f64;
            ve.from_f64((a.v[2] as f64 / denom) as f32 as f64)
        };
        let one = ve.from_f64(1.0);
        let inv = binary(BinOp::Sub, ve, one, w);
        let p = binary(BinOp::Mul, ve, a.v[0], inv);
        let q = binary(BinOp::Mul, ve, a.v[1], w);
        return Ok(cast(ve, out, binary(BinOp::Add, ve, p, q)));
    }
    let bits = ve.bits();
    if bits == 1 {
        let half = if we.is_float() {
            we.to_f64(a.v[2]) > 0.5
        } else {
            (a.v[2] as u128) > ((1u128 << we.bits()) - 1) / 2
        };
        return Ok(cast(ve, out, if half { a.v[1] } else { a.v[0] }));
    }
    if bits > 32 {
        return Err(Undefined("lerp of 64-bit integers (the reference refuses it)".into()));
    }
    let unsigned = Elem::UInt(bits as u8);
    let max = (1u128 << bits) - 1;
    // Signed values are biased into the unsigned type and back.
    let bias: u128 = if matches!(ve, Elem::Int(_)) { 1u128 << (bits - 1) } else { 0 };
    let z = (zext(a.v[0], bits) as u128 + bias) & max;
    let o = (zext(a.v[1], bits) as u128 + bias) & max;
    let w: u128 = if we.is_float() {
        let x = we.to_f64(a.v[2]);
        let scaled =
            if bits == 32 { 65535.0f64 * 65537.0 * x } else { (max as f64 as f32 * x as f32) as f64 };
        zext(float_to_uint(scaled), bits) as u128
    } else {
        rescale_weight(a.v[2] as u128, we.bits(), bits)
    };
    let inv = max - w;
    let prod_sum = z * inv + o * w;
    let mut r = (prod_sum + max / 2) / max;
    if we.is_float() {
        r &= max;
    }
    let r = (r + bias) & max;
    Ok(cast(unsigned, out, cast(Elem::UInt(bits as u8), ve, r as u64)))
}

fn float_to_uint(x: f64) -> u64 {
    if x.is_nan() || x <= 0.0 {
        0
    } else if x >= u64::MAX as f64 {
        u64::MAX
    } else {
        x as u64
    }
}

/// Rescales an integer weight of `from` bits to `to` bits as the reference does (by the
/// factors (2^k + 1) that relate 2^from - 1 and 2^to - 1).
fn rescale_weight(w: u128, from: u32, to: u32) -> u128 {
    if from == to {
        return w;
    }
    let mut bits_left = from.abs_diff(to);
    let mut shift = from.min(to);
    let mut factor: u128 = 1;
    while bits_left > 0 && shift < 64 {
        factor += factor << shift;
        bits_left = bits_left.saturating_sub(shift);
        shift *= 2;
    }
    if from < to { (w * factor) & ((1u128 << to) - 1) } else { w / factor }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn i32v(x: i32) -> u64 {
        x as i64 as u64
    }

    #[test]
    fn division_is_euclidean_and_total() {
        let e = Elem::I32;
        let div = |a: i32, b: i32| binary(BinOp::Div, e, i32v(a), i32v(b)) as i64;
        let rem = |a: i32, b: i32| binary(BinOp::Mod, e, i32v(a), i32v(b)) as i64;
        assert_eq!((div(-7, 2), rem(-7, 2)), (-4, 1));
        assert_eq!((div(-7, -2), rem(-7, -2)), (4, 1));
        assert_eq!((div(7, -2), rem(7, -2)), (-3, 1));
        assert_eq!((div(5, 0), rem(5, 0)), (0, 0));
        assert_eq!(div(i32::MIN, -1), i32::MIN as i64);
        assert_eq!(binary(BinOp::Div, Elem::UInt(8), 200, 0), 0);
    }

    #[test]
    fn integers_wrap_at_their_width() {
        assert_eq!(binary(BinOp::Add, Elem::I32, i32v(i32::MAX), 1) as i64, i32::MIN as i64);
        assert_eq!(binary(BinOp::Sub, Elem::UInt(8), 0, 1), 255);
        assert_eq!(binary(BinOp::Add, Elem::BOOL, 1, 1), 0);
        assert_eq!(binary(BinOp::Lt, Elem::UInt(16), 65535, 1), 0);
        assert_eq!(binary(BinOp::Lt, Elem::Int(16), i32v(-1), 1), 1);
    }

    #[test]
    fn float_comparisons_are_ordered() {
        let nan = f32::NAN.to_bits() as u64;
        let one = 1.0f32.to_bits() as u64;
        let f = Elem::Float(32);
        assert_eq!(binary(BinOp::Ne, f, nan, one), 0);
        assert_eq!(binary(BinOp::Eq, f, nan, nan), 0);
        assert_eq!(binary(BinOp::Min, f, nan, one), one);
        let m = binary(BinOp::Mod, f, (-1.5f32).to_bits() as u64, one);
        assert_eq!(f32::from_bits(m as u32), 0.5);
    }

    #[test]
    fn float16_is_rounded_after_each_operation() {
        let h = Elem::Float(16);
        let one = h.from_f64(1.0);
        let tiny = h.from_f64(2f64.powi(-11));
        // 1 + 2^-11 is a tie in float16 and rounds to even: 1.
        assert_eq!(binary(BinOp::Add, h, one, tiny), one);
    }

    fn m(op: Intrinsic, out: Elem, v: &[u64], e: &[Elem]) -> Result<u64, Undefined> {
        math(op, out, LaneArgs { v, e })
    }

    #[test]
    fn saturating_and_widening_families() {
        let u8e = Elem::UInt(8);
        assert_eq!(m(Intrinsic::SaturatingAdd, u8e, &[200, 100], &[u8e, u8e]), Ok(255));
        assert_eq!(m(Intrinsic::SaturatingSub, u8e, &[10, 100], &[u8e, u8e]), Ok(0));
        let i8e = Elem::Int(8);
        assert_eq!(m(Intrinsic::SaturatingAdd, i8e, &[i32v(-100), i32v(-100)], &[i8e, i8e]), Ok(i32v(-128)));
        assert_eq!(m(Intrinsic::WideningMul, Elem::UInt(16), &[255, 255], &[u8e, u8e]), Ok(65025));
        assert_eq!(m(Intrinsic::WideningSub, Elem::Int(16), &[0, 255], &[u8e, u8e]), Ok(i32v(-255)));
        assert_eq!(m(Intrinsic::HalvingAdd, u8e, &[255, 255], &[u8e, u8e]), Ok(255));
        assert_eq!(m(Intrinsic::HalvingSub, u8e, &[0, 1], &[u8e, u8e]), Ok(255));
        assert_eq!(m(Intrinsic::RoundingHalvingAdd, u8e, &[1, 2], &[u8e, u8e]), Ok(2));
        assert_eq!(m(Intrinsic::RoundingShiftRight, u8e, &[3, 1], &[u8e, u8e]), Ok(2));
        assert_eq!(m(Intrinsic::RoundingShiftRight, u8e, &[255, 1], &[u8e, u8e]), Ok(128));
        assert_eq!(m(Intrinsic::MulShiftRight, u8e, &[200, 200, 8], &[u8e, u8e, u8e]), Ok(156));
        assert_eq!(m(Intrinsic::Absd, u8e, &[i32v(-128), 127], &[i8e, i8e]), Ok(255));
        assert_eq!(m(Intrinsic::SaturatingCast, u8e, &[i32v(-5)], &[Elem::I32]), Ok(0));
    }

    #[test]
    fn shifts_by_the_width_are_undefined_and_negative_amounts_reverse() {
        let i32e = Elem::I32;
        assert!(m(Intrinsic::ShiftLeft, i32e, &[1, 32], &[i32e, i32e]).is_err());
        assert_eq!(m(Intrinsic::ShiftLeft, i32e, &[8, i32v(-2)], &[i32e, i32e]), Ok(2));
        assert_eq!(m(Intrinsic::ShiftRight, i32e, &[i32v(-8), 1], &[i32e, i32e]), Ok(i32v(-4)));
        assert_eq!(
            m(Intrinsic::ShiftRight, Elem::UInt(8), &[0x80, 7], &[Elem::UInt(8), Elem::UInt(8)]),
            Ok(1)
        );
    }

    #[test]
    fn lerp_matches_the_reference_lowering() {
        let u8e = Elem::UInt(8);
        let f32e = Elem::Float(32);
        let w = |x: f32| x.to_bits() as u64;
        // The float weight becomes uint8(255 * 0.5) = 127 (truncated), so the two orders
        // differ: (42*128 + 69*127 + 127) / 255 = 55, (69*128 + 42*127 + 127) / 255 = 56.
        assert_eq!(m(Intrinsic::Lerp, u8e, &[42, 69, w(0.5)], &[u8e, u8e, f32e]), Ok(55));
        assert_eq!(m(Intrinsic::Lerp, u8e, &[69, 42, w(0.5)], &[u8e, u8e, f32e]), Ok(56));
        assert_eq!(m(Intrinsic::Lerp, u8e, &[0, 255, 128], &[u8e, u8e, u8e]), Ok(128));
        let i8e = Elem::Int(8);
        assert_eq!(m(Intrinsic::Lerp, i8e, &[i32v(-128), 127, 255], &[i8e, i8e, u8e]), Ok(127));
        let r = m(Intrinsic::Lerp, f32e, &[w(1.0), w(3.0), w(0.25)], &[f32e, f32e, f32e]);
        assert_eq!(r, Ok(w(1.5)));
    }
}
