//! The element types of values, how one lane of each is held in a 64-bit register slot,
//! and conversions between them (Halide's `Cast`, `Reinterpret` and the float16 and
//! bfloat16 emulation of the reference's code generator).
//!
//! Every lane of every value lives in one `u64` in a canonical form, so that equal values
//! have equal bits and a comparison or a hash can look at the bits alone:
//!
//! | element | held as |
//! |---|---|
//! | `intN` | the value sign-extended to 64 bits |
//! | `uintN` (`uint1` is bool) | the value zero-extended |
//! | `float16`, `bfloat16`, `float32` | the IEEE bits in the low 16 or 32 bits, the rest zero |
//! | `float64` | the IEEE bits |
//! | handles | the interpreter's handle (see [`crate::heap::Handle`]) |

use loopir::{Type, TypeCode};

/// The type of one lane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Elem {
    /// A signed integer of 1 to 64 bits.
    Int(u8),
    /// An unsigned integer of 1 to 64 bits (`UInt(1)` is bool).
    UInt(u8),
    /// An IEEE float of 16, 32 or 64 bits.
    Float(u8),
    /// `bfloat16`.
    BFloat16,
    /// A pointer.
    Handle,
}

impl Elem {
    /// `int32`.
    pub const I32: Elem = Elem::Int(32);
    /// `uint1`.
    pub const BOOL: Elem = Elem::UInt(1);

    /// The element type of `ty`, if the interpreter can hold it.
    pub fn of(ty: Type) -> Result<Elem, String> {
        let bits = ty.bits();
        match ty.code() {
            TypeCode::Int if (1..=64).contains(&bits) => Ok(Elem::Int(bits)),
            TypeCode::UInt if (1..=64).contains(&bits) => Ok(Elem::UInt(bits)),
            TypeCode::Float if matches!(bits, 16 | 32 | 64) => Ok(Elem::Float(bits)),
            TypeCode::BFloat if bits == 16 => Ok(Elem::BFloat16),
            TypeCode::Handle => Ok(Elem::Handle),
            _ => Err(format!("the type {ty} has no runtime representation")),
        }
    }

    /// The scalar [`Type`] of this element.
    pub fn ty(self) -> Type {
        match self {
            Elem::Int(b) => Type::int(b, 1),
            Elem::UInt(b) => Type::uint(b, 1),
            Elem::Float(b) => Type::float(b, 1),
            Elem::BFloat16 => Type::bfloat(16, 1),
            Elem::Handle => Type::void_ptr(),
        }
    }

    /// Bits of one lane (64 for handles).
    pub fn bits(self) -> u32 {
        match self {
            Elem::Int(b) | Elem::UInt(b) | Elem::Float(b) => b as u32,
            Elem::BFloat16 => 16,
            Elem::Handle => 64,
        }
    }

    /// Bytes one lane takes in memory: Halide stores `uint1` in a byte, and odd widths
    /// in the next whole number of bytes.
    pub fn bytes(self) -> usize {
        (self.bits() as usize).div_ceil(8).next_power_of_two()
    }

    /// Whether this is a signed or unsigned integer (bool included).
    pub fn is_int_or_uint(self) -> bool {
        matches!(self, Elem::Int(_) | Elem::UInt(_))
    }

    /// Whether this is a float or bfloat.
    pub fn is_float(self) -> bool {
        matches!(self, Elem::Float(_) | Elem::BFloat16)
    }

    /// Brings the low `bits` of `v` into canonical form (sign- or zero-extension);
    /// floats and handles are returned as they are.
    #[inline(always)]
    pub fn wrap(self, v: u64) -> u64 {
        match self {
            Elem::Int(b) => sext(v, b as u32),
            Elem::UInt(b) => zext(v, b as u32),
            _ => v,
        }
    }

    /// The exact value of a float lane.
    #[inline]
    pub fn to_f64(self, v: u64) -> f64 {
        match self {
            Elem::Float(16) => f16_to_f64(v as u16),
            Elem::Float(32) => f32::from_bits(v as u32) as f64,
            Elem::BFloat16 => bf16_to_f32(v as u16) as f64,
            Elem::Float(_) => f64::from_bits(v),
            Elem::Int(_) => v as i64 as f64,
            Elem::UInt(_) | Elem::Handle => v as f64,
        }
    }

    /// A float lane holding `x` rounded to this float type (to nearest, ties to even).
    #[inline]
    pub fn from_f64(self, x: f64) -> u64 {
        match self {
            Elem::Float(16) => f64_to_f16(x) as u64,
            Elem::Float(32) => (x as f32).to_bits() as u64,
            Elem::BFloat16 => f64_to_bf16(x) as u64,
            _ => x.to_bits(),
        }
    }

    /// The smallest value of an integer type, as an i128.
    pub fn int_min(self) -> i128 {
        match self {
            Elem::Int(b) => -(1i128 << (b - 1)),
            _ => 0,
        }
    }

    /// The largest value of an integer type, as an i128.
    pub fn int_max(self) -> i128 {
        match self {
            Elem::Int(b) => (1i128 << (b - 1)) - 1,
            Elem::UInt(b) => (1i128 << b) - 1,
            _ => 0,
        }
    }

    /// The exact value of an integer lane.
    #[inline(always)]
    pub fn as_i128(self, v: u64) -> i128 {
        match self {
            Elem::Int(_) => v as i64 as i128,
            _ => v as i128,
        }
    }

    /// `v` wrapped into this integer type (two's complement truncation).
    #[inline(always)]
    pub fn from_i128(self, v: i128) -> u64 {
        self.wrap(v as u64)
    }

    /// `v` clamped to this integer type's range.
    #[inline]
    pub fn saturate(self, v: i128) -> u64 {
        self.from_i128(v.clamp(self.int_min(), self.int_max()))
    }

    /// The spelling of the type, as `.stmt` text and the runtime print it.
    pub fn name(self) -> String {
        self.ty().to_string()
    }
}

/// Sign-extends the low `bits` of `v`.
#[inline(always)]
pub fn sext(v: u64, bits: u32) -> u64 {
    let s = 64 - bits;
    (((v << s) as i64) >> s) as u64
}

/// Zero-extends the low `bits` of `v`.
#[inline(always)]
pub fn zext(v: u64, bits: u32) -> u64 {
    if bits >= 64 { v } else { v & ((1u64 << bits) - 1) }
}

/// Converts a lane of `from` to `to`, as the reference's `Cast` does.
///
/// Integer to integer truncates (a cast to `uint1` keeps the low bit); integer to float
/// rounds to nearest even (to float16 and bfloat16 through float32, or float64 for
/// sources wider than 32 bits, as the reference's emulation does); float to float rounds
/// to nearest even. Float to integer rounds toward zero; where the reference leaves the
/// result undefined (NaN, or a value outside the type) this saturates, and NaN gives 0.
/// Float to `uint1`..`uint7` goes through `uint8`, as the reference's code generator does.
pub fn cast(from: Elem, to: Elem, v: u64) -> u64 {
    match (from, to) {
        (Elem::Handle, Elem::Handle) => v,
        (f, t) if f.is_int_or_uint() && t.is_int_or_uint() => t.wrap(v),
        (f, t) if f.is_int_or_uint() => {
            // Canonical lanes hold the exact value as an i64 (signed) or u64 (unsigned).
            let signed = matches!(f, Elem::Int(_));
            match t {
                Elem::Float(32) => (if signed { v as i64 as f32 } else { v as f32 }).to_bits() as u64,
                Elem::Float(64) => (if signed { v as i64 as f64 } else { v as f64 }).to_bits(),
                _ => {
                    // float16 / bfloat16 go through float32, or float64 for wide sources.
                    let wide = match (signed, f.bits() > 32) {
                        (true, true) => v as i64 as f64,
                        (true, false) => v as i64 as f32 as f64,
                        (false, true) => v as f64,
                        (false, false) => v as f32 as f64,
                    };
                    t.from_f64(wide)
                }
            }
        }
        (f, t) if f.is_float() && t.is_float() => {
            if f == t {
                v
            } else {
                t.from_f64(f.to_f64(v))
            }
        }
        (f, Elem::UInt(b)) if f.is_float() && b < 8 => {
            zext(float_to_int(f.to_f64(v), Elem::UInt(8)), b as u32)
        }
        (f, t) if f.is_float() => float_to_int(f.to_f64(v), t),
        // Handles only convert to handles; the compiler refuses the rest.
        _ => v,
    }
}

/// Rounds toward zero into an integer type, saturating where the reference is undefined.
fn float_to_int(x: f64, to: Elem) -> u64 {
    if x.is_nan() {
        return 0;
    }
    let t = x.trunc();
    let (lo, hi) = (to.int_min() as f64, to.int_max() as f64);
    if t <= lo {
        to.from_i128(to.int_min())
    } else if t >= hi {
        to.from_i128(to.int_max())
    } else {
        to.from_i128(t as i128)
    }
}

/// The value of IEEE half-precision bits.
pub fn f16_to_f64(h: u16) -> f64 {
    let sign = if h & 0x8000 != 0 { -1.0 } else { 1.0 };
    let exp = ((h >> 10) & 0x1f) as i32;
    let man = (h & 0x3ff) as f64;
    let mag = match exp {
        0 => man * 2f64.powi(-24),
        31 => {
            if man == 0.0 {
                f64::INFINITY
            } else {
                f64::NAN
            }
        }
        e => (1.0 + man / 1024.0) * 2f64.powi(e - 15),
    };
    sign * mag
}

/// Rounds to IEEE half precision, to nearest with ties to even. NaN becomes `0x7fff`
/// with the input's sign, as the reference's emulation makes it.
pub fn f64_to_f16(x: f64) -> u16 {
    let bits = x.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    if x.is_nan() {
        return sign | 0x7fff;
    }
    let a = x.abs();
    // 65520 is halfway between the largest half (65504) and 2^16: it and above round to
    // infinity.
    if a >= 65520.0 {
        return sign | 0x7c00;
    }
    let exp = ((bits >> 52) & 0x7ff) as i32 - 1023;
    if exp < -14 {
        // Subnormal halves are the multiples of 2^-24; scaling by 2^24 is exact. A result
        // of 1024 is the smallest normal half, whose bits are 0x0400 too.
        return sign | round_half_even(a * 16_777_216.0) as u16;
    }
    let man = bits & ((1u64 << 52) - 1);
    let (mut m, rem, half) = (man >> 42, man & ((1u64 << 42) - 1), 1u64 << 41);
    let mut e = (exp + 15) as u16;
    if rem > half || (rem == half && m & 1 == 1) {
        m += 1;
        if m == 1024 {
            m = 0;
            e += 1;
        }
    }
    sign | (e << 10) | m as u16
}

/// The value of bfloat16 bits.
pub fn bf16_to_f32(h: u16) -> f32 {
    f32::from_bits((h as u32) << 16)
}

/// Rounds to bfloat16, to nearest with ties to even (from a float64 without double
/// rounding, as the reference's emulation does).
pub fn f64_to_bf16(x: f64) -> u16 {
    let f = x as f32;
    if f.is_nan() {
        return ((f.to_bits() >> 16) as u16) | 0x40;
    }
    let bits = f.to_bits();
    // The error of the first rounding breaks ties that the float32 bits alone cannot.
    let err = x.abs() - (f as f64).abs();
    let low = bits & 0xffff;
    let mut hi = bits >> 16;
    let round_up = if low > 0x8000 {
        true
    } else if low < 0x8000 {
        false
    } else if err > 0.0 {
        true
    } else if err < 0.0 {
        false
    } else {
        hi & 1 == 1
    };
    if round_up {
        hi += 1;
    }
    hi as u16
}

/// Rounds to the nearest integer, ties to even.
pub fn round_half_even(x: f64) -> f64 {
    let r = x.round();
    if (r - x).abs() == 0.5 && r % 2.0 != 0.0 { r - x.signum() } else { r }
}

/// Reinterprets the bits of `lanes` of `from` as lanes of `to` (the total bit count is
/// the same; lanes are packed least significant first, as on a little-endian machine).
pub fn reinterpret(from: Elem, to: Elem, src: &[u64], dst: &mut [u64]) {
    if from.bits() == to.bits() {
        let mask_bits = from.bits();
        for (d, s) in dst.iter_mut().zip(src) {
            *d = to.wrap(zext(*s, mask_bits));
        }
        return;
    }
    let (fb, tb) = (from.bits(), to.bits());
    let mut acc: u128 = 0;
    let mut have = 0u32;
    let mut out = dst.iter_mut();
    for s in src {
        acc |= (zext(*s, fb) as u128) << have;
        have += fb;
        while have >= tb {
            let Some(d) = out.next() else { return };
            *d = to.wrap(zext(acc as u64, tb));
            acc >>= tb;
            have -= tb;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float16_round_trips_every_finite_value() {
        for h in 0u16..=0xffff {
            let x = f16_to_f64(h);
            if x.is_nan() {
                continue;
            }
            assert_eq!(f64_to_f16(x), h, "{h:#06x} = {x}");
        }
    }

    #[test]
    fn float16_rounds_to_nearest_even() {
        // 1 + 2^-11 lies halfway between 1 and the next half; ties go to the even one.
        assert_eq!(f64_to_f16(1.0 + 2f64.powi(-11)), 0x3c00);
        assert_eq!(f64_to_f16(1.0 + 3.0 * 2f64.powi(-11)), 0x3c02);
        assert_eq!(f64_to_f16(65504.0), 0x7bff);
        assert_eq!(f64_to_f16(65519.0), 0x7bff);
        assert_eq!(f64_to_f16(65520.0), 0x7c00);
        assert_eq!(f64_to_f16(-0.0), 0x8000);
        assert_eq!(f64_to_f16(2f64.powi(-25)), 0);
        assert_eq!(f64_to_f16(3.0 * 2f64.powi(-26)), 1);
        assert_eq!(f64_to_f16(f64::NAN), 0x7fff);
    }

    #[test]
    fn bfloat16_breaks_ties_with_the_float64_error() {
        // 1 + 2^-8 is a tie for bfloat16 (8 bits of mantissa): to even, 1.0.
        assert_eq!(f64_to_bf16(1.0 + 2f64.powi(-8)), 0x3f80);
        // Slightly above the tie, but the float32 rounding lands exactly on it.
        assert_eq!(f64_to_bf16(1.0 + 2f64.powi(-8) + 2f64.powi(-40)), 0x3f81);
        assert_eq!(bf16_to_f32(0x3f80), 1.0);
    }

    #[test]
    fn casts_follow_the_code_generator() {
        assert_eq!(cast(Elem::Int(32), Elem::UInt(1), 2), 0);
        assert_eq!(cast(Elem::Int(8), Elem::UInt(32), sext(0x80, 8)), 0xffff_ff80);
        assert_eq!(cast(Elem::UInt(8), Elem::Int(32), 200), 200);
        let f = |x: f32| x.to_bits() as u64;
        assert_eq!(cast(Elem::Float(32), Elem::Int(32), f(-2.7)) as i64, -2);
        assert_eq!(cast(Elem::Float(32), Elem::UInt(1), f(3.0)), 1);
        assert_eq!(cast(Elem::Float(32), Elem::UInt(8), f(300.0)), 255);
        // int32 to float16 rounds through float32.
        let via = cast(Elem::Int(32), Elem::Float(16), 2049);
        assert_eq!(f16_to_f64(via as u16), 2048.0);
    }

    #[test]
    fn reinterpret_packs_lanes_little_endian() {
        let mut out = [0u64; 1];
        reinterpret(Elem::UInt(8), Elem::UInt(32), &[1, 2, 3, 4], &mut out);
        assert_eq!(out[0], 0x0403_0201);
        let mut back = [0u64; 4];
        reinterpret(Elem::UInt(32), Elem::Int(8), &out, &mut back);
        assert_eq!(back, [1, 2, 3, 4]);
        let mut f = [0u64; 1];
        reinterpret(Elem::Float(32), Elem::Int(32), &[(-1.0f32).to_bits() as u64], &mut f);
        assert_eq!(f[0] as i64, (-1.0f32).to_bits() as i32 as i64);
    }
}
