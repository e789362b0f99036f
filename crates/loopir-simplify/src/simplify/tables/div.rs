//! The reference's rules for `/` (`src/Simplify_Div.cpp`), in its order, each named after the line
//! of that file it was taken from.
//!
//! Those that need alignment facts, which the simplifier does not track, are left out.

use std::sync::OnceLock;

use crate::simplify::pattern::{Rule, RuleTable, When, rem};

/// The rules, in the reference's order.
pub(in crate::simplify) fn div_rules() -> &'static RuleTable {
    static RULES: OnceLock<RuleTable> = OnceLock::new();
    super::build_once(&RULES, || {
        RuleTable::named([
            ("Simplify_Div.cpp:62", Rule::when("x/1", "a", None, When::ALWAYS)),
            ("Simplify_Div.cpp:63", Rule::when("0/x", "a", None, When::ALWAYS)),
            ("Simplify_Div.cpp:80", Rule::when("c0/c1", "fold(c0/c1)", None, When::ALWAYS)),
            ("Simplify_Div.cpp:81", Rule::when("x/0", "0", None, When::NOT_FLOAT)),
            (
                "Simplify_Div.cpp:82",
                Rule::when("x/x", "1", None, When::DENOMINATOR_NON_ZERO | When::NOT_FLOAT),
            ),
            (
                "Simplify_Div.cpp:84",
                Rule::when("select(x, c0, c1)/c2", "select(x, fold(c0/c2), fold(c1/c2))", None, When::ALWAYS),
            ),
            ("Simplify_Div.cpp:86", Rule::when("x/x", "select(x == 0, 0, 1)", None, When::NOT_FLOAT)),
            (
                "Simplify_Div.cpp:89",
                Rule::when(
                    "(x/c0)/c2",
                    "x/fold(c0*c2)",
                    Some(|b| b.c(0) > 0 && b.c(2) > 0 && b.product_fits(0, 2)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:90",
                Rule::when(
                    "(x/c0 + c1)/c2",
                    "(x + fold(c1*c0))/fold(c0*c2)",
                    Some(|b| b.c(0) > 0 && b.c(2) > 0 && b.product_fits(0, 2) && b.product_fits(0, 1)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:91",
                Rule::when(
                    "(x*c0)/c1",
                    "x/fold(c1/c0)",
                    Some(|b| b.c(0) > 0 && rem(b.c(1), b.c(0)) == 0 && b.c(1) / b.c(0) != 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:93",
                Rule::when(
                    "(x*c0)/c1",
                    "x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:94",
                Rule::when(
                    "min((x*c0), c1)/c2",
                    "min(x*fold(c0/c2), fold(c1/c2))",
                    Some(|b| rem(b.c(0), b.c(2)) == 0 && b.c(2) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:95",
                Rule::when(
                    "max((x*c0), c1)/c2",
                    "max(x*fold(c0/c2), fold(c1/c2))",
                    Some(|b| rem(b.c(0), b.c(2)) == 0 && b.c(2) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:97",
                Rule::when(
                    "(x*c0 + y)/c1",
                    "y/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            ("Simplify_Div.cpp:98", Rule::when("(x*c0 - y)/c0", "x + (0 - y)/c0", None, When::NO_OVERFLOW)),
            (
                "Simplify_Div.cpp:99",
                Rule::when(
                    "(x*c1 - y)/c0",
                    "(0 - y)/c0 - x",
                    Some(|b| b.c(0) + b.c(1) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:100",
                Rule::when(
                    "(y + x*c0)/c1",
                    "y/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:101",
                Rule::when(
                    "(y - x*c0)/c1",
                    "y/c1 - x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:103",
                Rule::when(
                    "((x*c0 + y) + z)/c1",
                    "(y + z)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:104",
                Rule::when(
                    "((x*c0 - y) + z)/c1",
                    "(z - y)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:105",
                Rule::when(
                    "((x*c0 + y) - z)/c1",
                    "(y - z)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:106",
                Rule::when("((x*c0 - y) - z)/c0", "x + (0 - y - z)/c0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Div.cpp:107",
                Rule::when(
                    "((x*c1 - y) - z)/c0",
                    "(0 - y - z)/c0 - x",
                    Some(|b| b.c(0) + b.c(1) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:109",
                Rule::when(
                    "((y + x*c0) + z)/c1",
                    "(y + z)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:110",
                Rule::when(
                    "((y + x*c0) - z)/c1",
                    "(y - z)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:111",
                Rule::when(
                    "((y - x*c0) - z)/c1",
                    "(y - z)/c1 - x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:112",
                Rule::when(
                    "((y - x*c0) + z)/c1",
                    "(y + z)/c1 - x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:114",
                Rule::when(
                    "(z + (x*c0 + y))/c1",
                    "(z + y)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:115",
                Rule::when(
                    "(z + (x*c0 - y))/c1",
                    "(z - y)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:116",
                Rule::when(
                    "(z - (x*c0 - y))/c1",
                    "(z + y)/c1 - x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:117",
                Rule::when(
                    "(z - (x*c0 + y))/c1",
                    "(z - y)/c1 + x*fold(-c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:119",
                Rule::when(
                    "(z + (y + x*c0))/c1",
                    "(z + y)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:120",
                Rule::when(
                    "(z - (y + x*c0))/c1",
                    "(z - y)/c1 + x*fold(-c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:121",
                Rule::when(
                    "(z + (y - x*c0))/c1",
                    "(z + y)/c1 - x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:122",
                Rule::when(
                    "(z - (y - x*c0))/c1",
                    "(z - y)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:125",
                Rule::when(
                    "(((x*c0 + y) + z) + w)/c1",
                    "(y + z + w)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:126",
                Rule::when(
                    "(((y + x*c0) + z) + w)/c1",
                    "(y + z + w)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:127",
                Rule::when(
                    "((z + (x*c0 + y)) + w)/c1",
                    "(y + z + w)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:128",
                Rule::when(
                    "((z + (y + x*c0)) + w)/c1",
                    "(y + z + w)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:129",
                Rule::when(
                    "(w + ((x*c0 + y) + z))/c1",
                    "(y + z + w)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:130",
                Rule::when(
                    "(w + ((y + x*c0) + z))/c1",
                    "(y + z + w)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:131",
                Rule::when(
                    "(w + (z + (x*c0 + y)))/c1",
                    "(y + z + w)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:132",
                Rule::when(
                    "(w + (z + (y + x*c0)))/c1",
                    "(y + z + w)/c1 + x*fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:180",
                Rule::when(
                    "(x + c0)/c1",
                    "x/c1 + fold(c0/c1)",
                    Some(|b| rem(b.c(0), b.c(1)) == 0),
                    When::NO_OVERFLOW | When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Div.cpp:181",
                Rule::when(
                    "(c0 - x)/c1",
                    "fold(c0/c1) - x/c1",
                    Some(|b| rem(b.c(0) + 1, b.c(1)) == 0),
                    When::NO_OVERFLOW | When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Div.cpp:184",
                Rule::when("(x + y)/x", "y/x + 1", None, When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW),
            ),
            (
                "Simplify_Div.cpp:185",
                Rule::when("(y + x)/x", "y/x + 1", None, When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW),
            ),
            (
                "Simplify_Div.cpp:186",
                Rule::when("(x - y)/x", "(-y)/x + 1", None, When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW),
            ),
            (
                "Simplify_Div.cpp:187",
                Rule::when("(y - x)/x", "y/x - 1", None, When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW),
            ),
            (
                "Simplify_Div.cpp:188",
                Rule::when(
                    "((x + y) + z)/x",
                    "(y + z)/x + 1",
                    None,
                    When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:189",
                Rule::when(
                    "((y + x) + z)/x",
                    "(y + z)/x + 1",
                    None,
                    When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:190",
                Rule::when(
                    "(z + (x + y))/x",
                    "(z + y)/x + 1",
                    None,
                    When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:191",
                Rule::when(
                    "(z + (y + x))/x",
                    "(z + y)/x + 1",
                    None,
                    When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Div.cpp:192",
                Rule::when("(x*y)/x", "y", None, When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW),
            ),
            (
                "Simplify_Div.cpp:193",
                Rule::when("(y*x)/x", "y", None, When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW),
            ),
            (
                "Simplify_Div.cpp:194",
                Rule::when("(x*y + z)/x", "y + z/x", None, When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW),
            ),
            (
                "Simplify_Div.cpp:195",
                Rule::when("(y*x + z)/x", "y + z/x", None, When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW),
            ),
            (
                "Simplify_Div.cpp:196",
                Rule::when("(z + x*y)/x", "z/x + y", None, When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW),
            ),
            (
                "Simplify_Div.cpp:197",
                Rule::when("(z + y*x)/x", "z/x + y", None, When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW),
            ),
            (
                "Simplify_Div.cpp:198",
                Rule::when("(x*y - z)/x", "y + (-z)/x", None, When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW),
            ),
            (
                "Simplify_Div.cpp:199",
                Rule::when("(y*x - z)/x", "y + (-z)/x", None, When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW),
            ),
            (
                "Simplify_Div.cpp:200",
                Rule::when("(z - x*y)/x", "z/x - y", None, When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW),
            ),
            (
                "Simplify_Div.cpp:201",
                Rule::when("(z - y*x)/x", "z/x - y", None, When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW),
            ),
            (
                "Simplify_Div.cpp:204",
                Rule::when("x/c0", "x*fold(1/c0)", None, When::FLOAT | When::NO_OVERFLOW),
            ),
            ("Simplify_Div.cpp:211", Rule::when("x/-1", "-x", None, When::NO_OVERFLOW_SCALAR_INT)),
            (
                "Simplify_Div.cpp:212",
                Rule::when(
                    "c0/y",
                    "select(y < 0, fold(-c0), c0)",
                    Some(|b| b.c(0) == -1),
                    When::DENOMINATOR_NON_ZERO | When::NO_OVERFLOW_SCALAR_INT,
                ),
            ),
            (
                "Simplify_Div.cpp:213",
                Rule::when(
                    "(x*c0 + c1)/c2",
                    "(x + fold(c1/c0))/fold(c2/c0)",
                    Some(|b| b.c(2) > 0 && b.c(0) > 0 && rem(b.c(2), b.c(0)) == 0),
                    When::NO_OVERFLOW_SCALAR_INT,
                ),
            ),
            (
                "Simplify_Div.cpp:216",
                Rule::when(
                    "(x*c0 + c1)/c2",
                    "x*fold(c0/c2) + fold(c1/c2)",
                    Some(|b| b.c(2) > 0 && rem(b.c(0), b.c(2)) == 0),
                    When::NO_OVERFLOW_SCALAR_INT,
                ),
            ),
            (
                "Simplify_Div.cpp:220",
                Rule::when(
                    "(x % 2 + c0)/2",
                    "x % 2 + fold(c0/2)",
                    Some(|b| rem(b.c(0), 2) == 1),
                    When::NO_OVERFLOW_SCALAR_INT,
                ),
            ),
        ])
    })
}
