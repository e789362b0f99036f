//! Halide's pure math functions (`floor_f32`, `sqrt_f64`, ...) print like any extern
//! call, so the parser cannot know they are pure. Bounds analysis sees through them as the
//! reference does (it built them `PureExtern`): wherever the analysis asks what kind of
//! call it meets, it asks [`effective_call_type`]. The simplifier folds their constant
//! calls as the reference's does (`fold_call`).
//!
//! Asking at the call, rather than re-tagging every call of the statement before the
//! analysis, saves a rewrite of the whole IR: that rewrite was a third of computation
//! bounds inference on a 512-stage inlined chain. It also makes every entry point
//! (`boxes_required` on parsed text included) agree with the passes.

use loopir::constant;
use loopir::{CallType, Expr, ExprKind, Intrinsic};

use loopir::constant::Const;

/// Whether `name` is one of Halide's math functions (`<base>_f16`, `_f32` or `_f64`).
fn is_pure_math(name: &str) -> bool {
    const BASES: &[&str] = &[
        "sqrt", "sin", "asin", "cos", "acos", "tan", "atan", "atan2", "sinh", "asinh", "cosh", "acosh",
        "tanh", "atanh", "exp", "log", "pow", "floor", "ceil", "round", "trunc",
    ];
    ["_f16", "_f32", "_f64"]
        .iter()
        .any(|suffix| name.strip_suffix(suffix).is_some_and(|b| BASES.contains(&b)))
}

/// The call type the reference gave a call printed as `name(...)` with `call_type`: an
/// extern call to a math function is `PureExtern`, anything else keeps its type.
pub fn effective_call_type(name: &str, call_type: CallType, value_index: u32) -> CallType {
    match call_type {
        CallType::Extern if value_index == 0 && is_pure_math(name) => CallType::PureExtern,
        other => other,
    }
}

/// The reference's folding of pure math calls: a `*_f32` function of constants is its
/// value (computed in double precision, rounded to the argument's type), and a rounding
/// function (`floor_f32`, `ceil_f32`, `trunc_f32`, the `round` intrinsic) of another one
/// is the inner call. Math calls print like extern calls, so the name decides
/// ([`effective_call_type`]).
pub(crate) fn fold_call(e: &Expr) -> Option<Expr> {
    let ExprKind::Call { name, args, call_type, value_index } = e.kind() else { return None };
    let pure = match effective_call_type(name, *call_type, *value_index) {
        CallType::PureExtern => true,
        CallType::PureIntrinsic | CallType::Intrinsic => e.is_intrinsic(Intrinsic::Round),
        _ => false,
    };
    if !pure {
        return None;
    }
    let float = |x: &Expr| match constant::const_value(x) {
        Some(Const::Float(v)) if x.ty().is_scalar() && x.ty().is_float() => Some(v),
        _ => None,
    };
    let rounding = |n: &str| -> Option<fn(f64) -> f64> {
        match n {
            "ceil_f32" => Some(f64::ceil),
            "floor_f32" => Some(f64::floor),
            _ if n == Intrinsic::Round.name() => Some(f64::round_ties_even),
            "trunc_f32" => Some(f64::trunc),
            _ => None,
        }
    };
    let unary = |n: &str| -> Option<fn(f64) -> f64> {
        match n {
            "acos_f32" => Some(f64::acos),
            "acosh_f32" => Some(f64::acosh),
            "asin_f32" => Some(f64::asin),
            "asinh_f32" => Some(f64::asinh),
            "atan_f32" => Some(f64::atan),
            "atanh_f32" => Some(f64::atanh),
            "cos_f32" => Some(f64::cos),
            "cosh_f32" => Some(f64::cosh),
            "exp_f32" => Some(f64::exp),
            "log_f32" => Some(f64::ln),
            "sin_f32" => Some(f64::sin),
            "sinh_f32" => Some(f64::sinh),
            "sqrt_f32" => Some(f64::sqrt),
            "tan_f32" => Some(f64::tan),
            "tanh_f32" => Some(f64::tanh),
            _ => None,
        }
    };
    match args.as_slice() {
        [x] => {
            if let Some(f) = unary(name) {
                return float(x).map(|v| constant::make_float(x.ty(), f(v)));
            }
            let f = rounding(name)?;
            if let Some(v) = float(x) {
                return Some(constant::make_float(x.ty(), f(v)));
            }
            // floor(ceil(x)) is ceil(x): the inner value is already an integer.
            match x.kind() {
                ExprKind::Call { name: inner, call_type: ct, value_index: vi, .. }
                    if rounding(inner).is_some()
                        && matches!(
                            effective_call_type(inner, *ct, *vi),
                            CallType::PureExtern | CallType::PureIntrinsic | CallType::Intrinsic
                        ) =>
                {
                    Some(x.clone())
                }
                _ => None,
            }
        }
        [x, y] => {
            let f: fn(f64, f64) -> f64 = match name.as_ref() {
                "atan2_f32" => f64::atan2,
                "pow_f32" => f64::powf,
                _ => return None,
            };
            Some(constant::make_float(x.ty(), f(float(x)?, float(y)?)))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn math_externs_are_pure_and_nothing_else_changes() {
        assert_eq!(effective_call_type("floor_f32", CallType::Extern, 0), CallType::PureExtern);
        assert_eq!(effective_call_type("atan2_f64", CallType::Extern, 0), CallType::PureExtern);
        assert_eq!(effective_call_type("floor_f32", CallType::Extern, 1), CallType::Extern);
        assert_eq!(effective_call_type("floor_i32", CallType::Extern, 0), CallType::Extern);
        assert_eq!(effective_call_type("my_floor_f32", CallType::Extern, 0), CallType::Extern);
        assert_eq!(effective_call_type("sqrt_f32", CallType::Halide, 0), CallType::Halide);
        assert_eq!(effective_call_type("halide_print", CallType::Extern, 0), CallType::Extern);
    }
}
