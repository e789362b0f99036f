//! The reference's rules for `==` (on non-boolean operands) (`src/Simplify_EQ.cpp`), in its order, each named after the line
//! of that file it was taken from.

use loopir::constant;
use std::sync::OnceLock;

use crate::simplify::pattern::{Rule, RuleTable, When, rem};

/// The rules, in the reference's order.
pub(in crate::simplify) fn eq_rules() -> &'static RuleTable {
    static RULES: OnceLock<RuleTable> = OnceLock::new();
    super::build_once(&RULES, || {
        RuleTable::named([
            ("Simplify_EQ.cpp:34", Rule::when("x == x", "true", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:64", Rule::when("c0 == c1", "fold(c0 == c1)", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:65", Rule::when("min(x, y) == min(y, x)", "true", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:66", Rule::when("max(x, y) == max(y, x)", "true", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:67", Rule::when("x + y == y + x", "true", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:68", Rule::when("x*y == y*x", "true", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:70", Rule::when("x + c0 == c1", "x == fold(c1 - c0)", None, When::ALWAYS)),
            (
                "Simplify_EQ.cpp:71",
                Rule::when("x + c0 == y + c1", "x == y + fold(c1 - c0)", None, When::ALWAYS),
            ),
            ("Simplify_EQ.cpp:74", Rule::when("x - y == z", "x == y + z", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:75", Rule::when("x == y - z", "x + z == y", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:77", Rule::when("(x + (y - z)) == w", "x + y == w + z", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:78", Rule::when("((y - z) + x) == w", "x + y == w + z", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:79", Rule::when("w == (x + (y - z))", "w + z == x + y", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:80", Rule::when("w == ((y - z) + x)", "w + z == x + y", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:83", Rule::when("(x + y) == x", "y == 0", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:84", Rule::when("(x + y) == y", "x == 0", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:85", Rule::when("x == (x + y)", "y == 0", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:86", Rule::when("y == (x + y)", "x == 0", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:88", Rule::when("(x + y) == (x + z)", "y == z", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:89", Rule::when("(x + y) == (z + x)", "y == z", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:90", Rule::when("(y + x) == (x + z)", "y == z", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:91", Rule::when("(y + x) == (z + x)", "y == z", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:93", Rule::when("((x + y) + z) == x", "y + z == 0", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:94", Rule::when("((y + x) + z) == x", "y + z == 0", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:95", Rule::when("(z + (x + y)) == x", "z + y == 0", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:96", Rule::when("(z + (y + x)) == x", "z + y == 0", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:97", Rule::when("x == ((x + y) + z)", "y + z == 0", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:98", Rule::when("x == ((y + x) + z)", "y + z == 0", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:99", Rule::when("x == (z + (x + y))", "z + y == 0", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:100", Rule::when("x == (z + (y + x))", "z + y == 0", None, When::ALWAYS)),
            (
                "Simplify_EQ.cpp:102",
                Rule::when("(x + y) == (z + (w + x))", "y == (z + w)", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:103",
                Rule::when("(x + y) == (z + (w + y))", "x == (z + w)", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:104",
                Rule::when("(x + y) == (z + (x + w))", "y == (z + w)", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:105",
                Rule::when("(x + y) == (z + (y + w))", "x == (z + w)", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:106",
                Rule::when("(x + y) == ((x + z) + w)", "y == (z + w)", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:107",
                Rule::when("(x + y) == ((y + z) + w)", "x == (z + w)", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:108",
                Rule::when("(x + y) == ((z + x) + w)", "y == (z + w)", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:109",
                Rule::when("(x + y) == ((z + y) + w)", "x == (z + w)", None, When::ALWAYS),
            ),
            ("Simplify_EQ.cpp:114", Rule::when("max(x, y) == y", "x <= y", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:115", Rule::when("min(x, y) == y", "y <= x", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:116", Rule::when("max(y, x) == y", "x <= y", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:117", Rule::when("min(y, x) == y", "y <= x", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:118", Rule::when("y == max(x, y)", "x <= y", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:119", Rule::when("y == min(x, y)", "y <= x", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:120", Rule::when("y == max(y, x)", "x <= y", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:121", Rule::when("y == min(y, x)", "y <= x", None, When::ALWAYS)),
            (
                "Simplify_EQ.cpp:123",
                Rule::when("max(x, c0) == c1", "false", Some(|b| b.c(1) < b.c(0)), When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:124",
                Rule::when("max(x, c0) == c1", "x == c1", Some(|b| b.c(0) < b.c(1)), When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:125",
                Rule::when("min(x, c0) == c1", "false", Some(|b| b.c(0) < b.c(1)), When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:126",
                Rule::when("min(x, c0) == c1", "x == c1", Some(|b| b.c(1) < b.c(0)), When::ALWAYS),
            ),
            ("Simplify_EQ.cpp:148", Rule::when("select(x, y, z) == y", "x || (z == y)", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:149", Rule::when("select(x, y, z) == z", "!x || (y == z)", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:150", Rule::when("y == select(x, y, z)", "x || (y == z)", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:151", Rule::when("z == select(x, y, z)", "!x || (z == y)", None, When::ALWAYS)),
            (
                "Simplify_EQ.cpp:152",
                Rule::when(
                    "select(x, c0, y) == c1",
                    "!x && (y == c1)",
                    Some(|b| b.c(0) != b.c(1)),
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_EQ.cpp:153",
                Rule::when(
                    "select(x, y, c0) == c1",
                    "x && (y == c1)",
                    Some(|b| b.c(0) != b.c(1)),
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_EQ.cpp:154",
                Rule::when(
                    "select(x, y, z) == select(x, w, u)",
                    "select(x, y == w, z == u)",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_EQ.cpp:156",
                Rule::when("select(x, y + w, z) == y", "select(x, w == 0, z == y)", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:157",
                Rule::when("select(x, w + y, z) == y", "select(x, w == 0, z == y)", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:158",
                Rule::when("select(x, y, z + w) == z", "select(x, y == z, w == 0)", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:159",
                Rule::when("select(x, y, w + z) == z", "select(x, y == z, w == 0)", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:160",
                Rule::when("y == select(x, y + w, z)", "select(x, w == 0, z == y)", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:161",
                Rule::when("y == select(x, w + y, z)", "select(x, w == 0, z == y)", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:162",
                Rule::when("z == select(x, y, z + w)", "select(x, y == z, w == 0)", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:163",
                Rule::when("z == select(x, y, w + z)", "select(x, y == z, w == 0)", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:165",
                Rule::when(
                    "select(x, y + (z + w), u) == w",
                    "select(x, y + z == 0, u == w)",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_EQ.cpp:166",
                Rule::when(
                    "select(x, y + (z + w), u) == z",
                    "select(x, y + w == 0, u == z)",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_EQ.cpp:167",
                Rule::when(
                    "select(x, (y + z) + w, u) == y",
                    "select(x, w + z == 0, u == y)",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_EQ.cpp:168",
                Rule::when(
                    "select(x, (y + z) + w, u) == z",
                    "select(x, w + y == 0, u == z)",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_EQ.cpp:169",
                Rule::when(
                    "w == select(x, y + (z + w), u)",
                    "select(x, y + z == 0, u == w)",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_EQ.cpp:170",
                Rule::when(
                    "z == select(x, y + (z + w), u)",
                    "select(x, y + w == 0, u == z)",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_EQ.cpp:171",
                Rule::when(
                    "y == select(x, (y + z) + w, u)",
                    "select(x, w + z == 0, u == y)",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_EQ.cpp:172",
                Rule::when(
                    "z == select(x, (y + z) + w, u)",
                    "select(x, w + y == 0, u == z)",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_EQ.cpp:174",
                Rule::when("select(x, y + z, w) == (u + y)", "select(x, z, w - y) == u", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:175",
                Rule::when("select(x, z + y, w) == (u + y)", "select(x, z, w - y) == u", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:176",
                Rule::when("select(x, y + z, w) == (y + u)", "select(x, z, w - y) == u", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:177",
                Rule::when("select(x, z + y, w) == (y + u)", "select(x, z, w - y) == u", None, When::ALWAYS),
            ),
            (
                "Simplify_EQ.cpp:179",
                Rule::when(
                    "select(x, y, z) == select(x, u, v) + w",
                    "select(x, y - u, z - v) == w",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_EQ.cpp:180",
                Rule::when(
                    "select(x, y, z) == w + select(x, u, v)",
                    "select(x, y - u, z - v) == w",
                    None,
                    When::ALWAYS,
                ),
            ),
            ("Simplify_EQ.cpp:182", Rule::when("x*y == z*y", "(x - z)*y == 0", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:183", Rule::when("x*y == y*z", "(x - z)*y == 0", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:184", Rule::when("y*x == z*y", "(x - z)*y == 0", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:185", Rule::when("y*x == y*z", "(x - z)*y == 0", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:187", Rule::when("z*y == (x*y + u)", "(z - x)*y == u", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:188", Rule::when("y*z == (x*y + u)", "(z - x)*y == u", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:189", Rule::when("z*y == (y*x + u)", "(z - x)*y == u", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:190", Rule::when("y*z == (y*x + u)", "(z - x)*y == u", None, When::ALWAYS)),
            ("Simplify_EQ.cpp:201", Rule::when("x*y == 0", "(x == 0) || (y == 0)", None, When::NO_OVERFLOW)),
            ("Simplify_EQ.cpp:202", Rule::when("x*y == x", "(x == 0) || (y == 1)", None, When::NO_OVERFLOW)),
            ("Simplify_EQ.cpp:203", Rule::when("x == x*y", "(x == 0) || (y == 1)", None, When::NO_OVERFLOW)),
            ("Simplify_EQ.cpp:204", Rule::when("y*x == x", "(x == 0) || (y == 1)", None, When::NO_OVERFLOW)),
            ("Simplify_EQ.cpp:205", Rule::when("x == y*x", "(x == 0) || (y == 1)", None, When::NO_OVERFLOW)),
            (
                "Simplify_EQ.cpp:206",
                Rule::when(
                    "x*c0 == c1",
                    "x == fold(c1/c0)",
                    Some(|b| rem(b.c(1), b.c(0)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:207",
                Rule::when("x*c0 == c1", "false", Some(|b| rem(b.c(1), b.c(0)) != 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:209",
                Rule::when("x == min(x - y, 0)", "max(x, y) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:210",
                Rule::when("x == max(x - y, 0)", "min(x, y) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:211",
                Rule::when("min(x - y, 0) == x", "max(x, y) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:212",
                Rule::when("max(x - y, 0) == x", "min(x, y) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:213",
                Rule::when("min(x, y) == x + y", "max(x, y) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:214",
                Rule::when("min(y, x) == x + y", "max(y, x) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:215",
                Rule::when("max(x, y) == x + y", "min(x, y) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:216",
                Rule::when("max(y, x) == x + y", "min(y, x) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:218",
                Rule::when("min(z, x + y) == x", "min(z - x, y) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:219",
                Rule::when("min(x + y, z) == x", "min(y, z - x) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:220",
                Rule::when(
                    "min(z, y + x) == x",
                    "min(z - x, y) == 0",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:221",
                Rule::when(
                    "min(y + x, z) == x",
                    "min(y, z - x) == 0",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:222",
                Rule::when("x == min(z, x + y)", "min(z - x, y) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:223",
                Rule::when("x == min(x + y, z)", "min(y, z - x) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:224",
                Rule::when("x == min(z, y + x)", "min(z - x, y) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:225",
                Rule::when("x == min(y + x, z)", "min(y, z - x) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:227",
                Rule::when("max(z, x + y) == x", "max(z - x, y) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:228",
                Rule::when("max(x + y, z) == x", "max(y, z - x) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:229",
                Rule::when(
                    "max(z, y + x) == x",
                    "max(z - x, y) == 0",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:230",
                Rule::when(
                    "max(y + x, z) == x",
                    "max(y, z - x) == 0",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:231",
                Rule::when("x == max(z, x + y)", "max(z - x, y) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:232",
                Rule::when("x == max(x + y, z)", "max(y, z - x) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:233",
                Rule::when("x == max(z, y + x)", "max(z - x, y) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:234",
                Rule::when("x == max(y + x, z)", "max(y, z - x) == 0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_EQ.cpp:262",
                Rule::when(
                    "min(x, c0) == min(y, c1)",
                    "x == min(y, c1)",
                    Some(|b| b.c(0) > b.c(1)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:263",
                Rule::when(
                    "min(x, c0) == min(y, c1)",
                    "min(x, c0) == y",
                    Some(|b| b.c(0) < b.c(1)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:265",
                Rule::when(
                    "min(x + c0, y) == min(x, z)",
                    "y == min(x, z)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:266",
                Rule::when(
                    "min(y, x + c0) == min(x, z)",
                    "y == min(x, z)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:267",
                Rule::when(
                    "min(x + c0, y) == min(z, x)",
                    "y == min(z, x)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:268",
                Rule::when(
                    "min(y, x + c0) == min(z, x)",
                    "y == min(z, x)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:270",
                Rule::when(
                    "min(x, z) == min(x + c0, y)",
                    "min(x, z) == y",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:271",
                Rule::when(
                    "min(x, z) == min(y, x + c0)",
                    "min(x, z) == y",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:272",
                Rule::when(
                    "min(z, x) == min(x + c0, y)",
                    "min(z, x) == y",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:273",
                Rule::when(
                    "min(z, x) == min(y, x + c0)",
                    "min(z, x) == y",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:275",
                Rule::when(
                    "min(x + c0, y) == min(x, z)",
                    "min(x + c0, y) == z",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:276",
                Rule::when(
                    "min(y, x + c0) == min(x, z)",
                    "min(y, x + c0) == z",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:277",
                Rule::when(
                    "min(x + c0, y) == min(z, x)",
                    "min(x + c0, y) == z",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:278",
                Rule::when(
                    "min(y, x + c0) == min(z, x)",
                    "min(y, x + c0) == z",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:280",
                Rule::when(
                    "min(x, z) == min(x + c0, y)",
                    "z == min(x + c0, y)",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:281",
                Rule::when(
                    "min(x, z) == min(y, x + c0)",
                    "z == min(y, x + c0)",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:282",
                Rule::when(
                    "min(z, x) == min(x + c0, y)",
                    "z == min(x + c0, y)",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:283",
                Rule::when(
                    "min(z, x) == min(y, x + c0)",
                    "z == min(y, x + c0)",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:286",
                Rule::when(
                    "max(x, c0) == max(y, c1)",
                    "x == max(y, c1)",
                    Some(|b| b.c(0) < b.c(1)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:287",
                Rule::when(
                    "max(x, c0) == max(y, c1)",
                    "max(x, c0) == y",
                    Some(|b| b.c(0) > b.c(1)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:289",
                Rule::when(
                    "max(x + c0, y) == max(x, z)",
                    "y == max(x, z)",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:290",
                Rule::when(
                    "max(y, x + c0) == max(x, z)",
                    "y == max(x, z)",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:291",
                Rule::when(
                    "max(x + c0, y) == max(z, x)",
                    "y == max(z, x)",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:292",
                Rule::when(
                    "max(y, x + c0) == max(z, x)",
                    "y == max(z, x)",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:294",
                Rule::when(
                    "max(x, z) == max(x + c0, y)",
                    "max(x, z) == y",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:295",
                Rule::when(
                    "max(x, z) == max(y, x + c0)",
                    "max(x, z) == y",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:296",
                Rule::when(
                    "max(z, x) == max(x + c0, y)",
                    "max(z, x) == y",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:297",
                Rule::when(
                    "max(z, x) == max(y, x + c0)",
                    "max(z, x) == y",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:299",
                Rule::when(
                    "max(x + c0, y) == max(x, z)",
                    "max(x + c0, y) == z",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:300",
                Rule::when(
                    "max(y, x + c0) == max(x, z)",
                    "max(y, x + c0) == z",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:301",
                Rule::when(
                    "max(x + c0, y) == max(z, x)",
                    "max(x + c0, y) == z",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:302",
                Rule::when(
                    "max(y, x + c0) == max(z, x)",
                    "max(y, x + c0) == z",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:304",
                Rule::when(
                    "max(x, z) == max(x + c0, y)",
                    "z == max(x + c0, y)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:305",
                Rule::when(
                    "max(x, z) == max(y, x + c0)",
                    "z == max(y, x + c0)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:306",
                Rule::when(
                    "max(z, x) == max(x + c0, y)",
                    "z == max(x + c0, y)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:307",
                Rule::when(
                    "max(z, x) == max(y, x + c0)",
                    "z == max(y, x + c0)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_EQ.cpp:311",
                Rule::when("x == x % c0", "x/c0 == 0", Some(|b| b.c(0) != 0), When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_EQ.cpp:312",
                Rule::when("x % c0 == x", "x/c0 == 0", Some(|b| b.c(0) != 0), When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_EQ.cpp:313",
                Rule::when("x == (x/c0)*c0", "x % c0 == 0", Some(|b| b.c(0) != 0), When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_EQ.cpp:314",
                Rule::when("(x/c0)*c0 == x", "x % c0 == 0", Some(|b| b.c(0) != 0), When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_EQ.cpp:315",
                Rule::when(
                    "x*c0 == y*c1",
                    "x*fold(c0/c1) == y",
                    Some(|b| rem(b.c(0), b.c(1)) == 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_EQ.cpp:316",
                Rule::when(
                    "x*c0 == y*c1",
                    "x == y*fold(c1/c0)",
                    Some(|b| rem(b.c(1), b.c(0)) == 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
        ])
    })
}
