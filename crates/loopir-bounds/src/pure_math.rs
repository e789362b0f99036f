//! Halide's pure math functions (`floor_f32`, `sqrt_f64`, ...) print like any extern
//! call, so the parser cannot know they are pure. Bounds analysis sees through them as the
//! reference does (it built them `PureExtern`): wherever the analysis asks what kind of
//! call it meets, it asks [`effective_call_type`].
//!
//! Asking at the call, rather than re-tagging every call of the statement before the
//! analysis, saves a rewrite of the whole IR: that rewrite was a third of computation
//! bounds inference on a 512-stage inlined chain. It also makes every entry point
//! (`boxes_required` on parsed text included) agree with the passes.

use loopir::CallType;

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
