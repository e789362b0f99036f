//! The reference's rules for `*` (`src/Simplify_Mul.cpp`), in its order, each named after the line
//! of that file it was taken from.
//!
//! Its quadratic rules for types that wrap (`!no_overflow`, used in random number
//! generation) are left out.

use loopir::constant;
use std::sync::OnceLock;

use crate::simplify::pattern::{Rule, RuleTable, When};

/// The rules, in the reference's order.
pub(in crate::simplify) fn mul_rules() -> &'static RuleTable {
    static RULES: OnceLock<RuleTable> = OnceLock::new();
    super::build_once(&RULES, || {
        RuleTable::named([
            ("Simplify_Mul.cpp:44", Rule::when("0*x", "a", None, When::ALWAYS)),
            ("Simplify_Mul.cpp:45", Rule::when("1*x", "b", None, When::ALWAYS)),
            ("Simplify_Mul.cpp:46", Rule::when("x*0", "b", None, When::ALWAYS)),
            ("Simplify_Mul.cpp:47", Rule::when("x*1", "a", None, When::ALWAYS)),
            ("Simplify_Mul.cpp:59", Rule::when("c0*c1", "fold(c0*c1)", None, When::ALWAYS)),
            (
                "Simplify_Mul.cpp:65",
                Rule::when("(x + c0)*c1", "x*c1 + fold(c0*c1)", Some(|b| b.product_fits(0, 1)), When::ALWAYS),
            ),
            (
                "Simplify_Mul.cpp:66",
                Rule::when(
                    "(c0 - x)*c1",
                    "x*fold(-c1) + fold(c0*c1)",
                    Some(|b| b.product_fits(0, 1)),
                    When::ALWAYS,
                ),
            ),
            ("Simplify_Mul.cpp:67", Rule::when("(0 - x)*y", "0 - x*y", None, When::ALWAYS)),
            ("Simplify_Mul.cpp:68", Rule::when("x*(0 - y)", "0 - x*y", None, When::ALWAYS)),
            (
                "Simplify_Mul.cpp:69",
                Rule::when("(x - y)*c0", "(y - x)*fold(-c0)", Some(|b| b.is_negative(0)), When::ALWAYS),
            ),
            (
                "Simplify_Mul.cpp:70",
                Rule::when("(x*c0)*c1", "x*fold(c0*c1)", Some(|b| b.product_fits(0, 1)), When::ALWAYS),
            ),
            (
                "Simplify_Mul.cpp:71",
                Rule::when(
                    "(x*c0)*y",
                    "(x*y)*c0",
                    Some(|b| b.wild(1).is_some_and(|e| !constant::is_const(e))),
                    When::ALWAYS,
                ),
            ),
            ("Simplify_Mul.cpp:72", Rule::when("x*(y*c0)", "(x*y)*c0", None, When::ALWAYS)),
            ("Simplify_Mul.cpp:73", Rule::when("max(x, y)*min(x, y)", "x*y", None, When::ALWAYS)),
            ("Simplify_Mul.cpp:74", Rule::when("max(x, y)*min(y, x)", "y*x", None, When::ALWAYS)),
            ("Simplify_Mul.cpp:76", Rule::when("x*select(y, 1, 0)", "select(y, x, 0)", None, When::ALWAYS)),
            ("Simplify_Mul.cpp:77", Rule::when("select(x, 1, 0)*y", "select(x, y, 0)", None, When::ALWAYS)),
        ])
    })
}
