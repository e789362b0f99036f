//! The reference's rules for `%` (`src/Simplify_Mod.cpp`), in its order, each named after the line
//! of that file it was taken from.
//!
//! Its `-y` is written `0 - y`, which is what it builds.

use std::sync::OnceLock;

use crate::simplify::pattern::{Rule, RuleTable, When, rem};

/// The rules, in the reference's order.
pub(in crate::simplify) fn mod_rules() -> &'static RuleTable {
    static RULES: OnceLock<RuleTable> = OnceLock::new();
    super::build_once(&RULES, || {
        RuleTable::named([
            ("Simplify_Mod.cpp:47", Rule::when("c0 % c1", "fold(c0 % c1)", None, When::ALWAYS)),
            ("Simplify_Mod.cpp:48", Rule::when("0 % x", "0", None, When::ALWAYS)),
            ("Simplify_Mod.cpp:49", Rule::when("x % x", "0", None, When::ALWAYS)),
            ("Simplify_Mod.cpp:50", Rule::when("x % 0", "0", None, When::ALWAYS)),
            ("Simplify_Mod.cpp:51", Rule::when("x % 1", "0", None, When::NOT_FLOAT)),
            (
                "Simplify_Mod.cpp:54",
                Rule::when(
                    "(x*c0) % c1",
                    "(x*fold(c0 % c1)) % c1",
                    Some(|b| b.c(1) > 0 && (b.c(0) >= b.c(1) || b.c(0) < 0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Mod.cpp:55",
                Rule::when(
                    "(x + c0) % c1",
                    "(x + fold(c0 % c1)) % c1",
                    Some(|b| b.c(1) > 0 && (b.c(0) >= b.c(1) || b.c(0) < 0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Mod.cpp:56",
                Rule::when(
                    "(x*c0) % c1",
                    "(x % fold(c1/c0))*c0",
                    Some(|b| b.c(0) > 0 && rem(b.c(1), b.c(0)) == 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Mod.cpp:57",
                Rule::when(
                    "(x*c0 + y) % c1",
                    "y % c1",
                    Some(|b| rem(b.c(0), b.c(1)) == 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Mod.cpp:58",
                Rule::when(
                    "(y + x*c0) % c1",
                    "y % c1",
                    Some(|b| rem(b.c(0), b.c(1)) == 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Mod.cpp:59",
                Rule::when(
                    "(x*c0 - y) % c1",
                    "(0 - y) % c1",
                    Some(|b| rem(b.c(0), b.c(1)) == 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Mod.cpp:60",
                Rule::when(
                    "(y - x*c0) % c1",
                    "y % c1",
                    Some(|b| rem(b.c(0), b.c(1)) == 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            ("Simplify_Mod.cpp:61", Rule::when("(x - y) % 2", "(x + y) % 2", None, When::NO_OVERFLOW_INT)),
        ])
    })
}
