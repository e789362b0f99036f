//! The reference's rules for `+` (`src/Simplify_Add.cpp`), in its order, each named after the line
//! of that file it was taken from.

use loopir::constant;
use std::sync::OnceLock;

use crate::simplify::pattern::{Rule, RuleTable, When, rem};

/// The rules, in the reference's order.
pub(in crate::simplify) fn add_rules() -> &'static RuleTable {
    static RULES: OnceLock<RuleTable> = OnceLock::new();
    super::build_once(&RULES, || {
        RuleTable::named([
            ("Simplify_Add.cpp:28", Rule::when("x + 0", "a", None, When::ALWAYS)),
            ("Simplify_Add.cpp:29", Rule::when("0 + x", "b", None, When::ALWAYS)),
            ("Simplify_Add.cpp:42", Rule::when("c0 + c1", "fold(c0 + c1)", None, When::ALWAYS)),
            ("Simplify_Add.cpp:43", Rule::when("x + x", "x*2", None, When::ALWAYS)),
            (
                "Simplify_Add.cpp:57",
                Rule::when(
                    "select(x, y, z) + select(x, w, u)",
                    "select(x, y + w, z + u)",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Add.cpp:58",
                Rule::when(
                    "select(x, c0, c1) + c2",
                    "select(x, fold(c0 + c2), fold(c1 + c2))",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Add.cpp:59",
                Rule::when(
                    "select(x, y + c0, c1) + c2",
                    "select(x, y + fold(c0 + c2), fold(c1 + c2))",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Add.cpp:60",
                Rule::when(
                    "select(x, c0, z + c1) + c2",
                    "select(x, fold(c0 + c2), z + fold(c1 + c2))",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Add.cpp:61",
                Rule::when(
                    "select(x, y + c0, z + c1) + c2",
                    "select(x, y + fold(c0 + c2), z + fold(c1 + c2))",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Add.cpp:65",
                Rule::when(
                    "select(x, y, z) + (select(x, u, v) + w)",
                    "select(x, y + u, z + v) + w",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Add.cpp:66",
                Rule::when(
                    "select(x, y, z) + (w + select(x, u, v))",
                    "select(x, y + u, z + v) + w",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Add.cpp:67",
                Rule::when(
                    "select(x, y, z) + (select(x, u, v) - w)",
                    "select(x, y + u, z + v) - w",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Add.cpp:68",
                Rule::when(
                    "select(x, y, z) + (w - select(x, u, v))",
                    "select(x, y - u, z - v) + w",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Add.cpp:69",
                Rule::when(
                    "select(x, c0 - y, c1) + c2",
                    "select(x, fold(c0 + c2) - y, fold(c1 + c2))",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Add.cpp:70",
                Rule::when(
                    "select(x, y, z + c0) + c1",
                    "select(x, y + c1, z)",
                    Some(|b| (b.c(0) + b.c(1)) == 0),
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Add.cpp:71",
                Rule::when(
                    "select(x, c0 - y, c1) + c2",
                    "fold(c0 + c2) - select(x, y, fold(c0 - c1))",
                    None,
                    When::ALWAYS,
                ),
            ),
            ("Simplify_Add.cpp:73", Rule::when("x + y*(-1)", "x - y", None, When::ALWAYS)),
            ("Simplify_Add.cpp:74", Rule::when("x*(-1) + y", "y - x", None, When::ALWAYS)),
            ("Simplify_Add.cpp:76", Rule::when("(x + c0) + c1", "x + fold(c0 + c1)", None, When::ALWAYS)),
            ("Simplify_Add.cpp:77", Rule::when("(x + c0) + y", "(x + y) + c0", None, When::ALWAYS)),
            ("Simplify_Add.cpp:78", Rule::when("x + (y + c0)", "(x + y) + c0", None, When::ALWAYS)),
            ("Simplify_Add.cpp:79", Rule::when("(c0 - x) + c1", "fold(c0 + c1) - x", None, When::ALWAYS)),
            ("Simplify_Add.cpp:80", Rule::when("(c0 - x) + y", "(y - x) + c0", None, When::ALWAYS)),
            (
                "Simplify_Add.cpp:81",
                Rule::when("max(x, y*c0 + z) + (u - y)*c0", "max(x - y*c0, z) + u*c0", None, When::ALWAYS),
            ),
            ("Simplify_Add.cpp:83", Rule::when("(x - y) + y", "x", None, When::ALWAYS)),
            ("Simplify_Add.cpp:84", Rule::when("x + (y - x)", "y", None, When::ALWAYS)),
            ("Simplify_Add.cpp:86", Rule::when("((x - y) + z) + y", "x + z", None, When::ALWAYS)),
            ("Simplify_Add.cpp:87", Rule::when("(z + (x - y)) + y", "z + x", None, When::ALWAYS)),
            ("Simplify_Add.cpp:88", Rule::when("x + ((y - x) + z)", "y + z", None, When::ALWAYS)),
            ("Simplify_Add.cpp:89", Rule::when("x + (z + (y - x))", "z + y", None, When::ALWAYS)),
            ("Simplify_Add.cpp:91", Rule::when("x + (c0 - y)", "(x - y) + c0", None, When::ALWAYS)),
            ("Simplify_Add.cpp:92", Rule::when("(x - y) + (y - z)", "x - z", None, When::ALWAYS)),
            ("Simplify_Add.cpp:93", Rule::when("(x - y) + (z - x)", "z - y", None, When::ALWAYS)),
            ("Simplify_Add.cpp:95", Rule::when("(x - y) + (y + z)", "x + z", None, When::ALWAYS)),
            ("Simplify_Add.cpp:96", Rule::when("(x - y) + (z + y)", "x + z", None, When::ALWAYS)),
            ("Simplify_Add.cpp:98", Rule::when("x + ((y - x) - z)", "y - z", None, When::ALWAYS)),
            ("Simplify_Add.cpp:99", Rule::when("((x - y) - z) + y", "x - z", None, When::ALWAYS)),
            ("Simplify_Add.cpp:101", Rule::when("x + (y - (x + z))", "y - z", None, When::ALWAYS)),
            ("Simplify_Add.cpp:102", Rule::when("x + (y - (z + x))", "y - z", None, When::ALWAYS)),
            ("Simplify_Add.cpp:103", Rule::when("(x - (y + z)) + y", "x - z", None, When::ALWAYS)),
            ("Simplify_Add.cpp:104", Rule::when("(x - (y + z)) + z", "x - y", None, When::ALWAYS)),
            ("Simplify_Add.cpp:106", Rule::when("x + ((0 - y) - z)", "x - (y + z)", None, When::ALWAYS)),
            ("Simplify_Add.cpp:107", Rule::when("((0 - x) - y) + z", "z - (x + y)", None, When::ALWAYS)),
            (
                "Simplify_Add.cpp:108",
                Rule::when("((c0 - x) - y) + c1", "(fold(c0 + c1) - y) - x", None, When::ALWAYS),
            ),
            ("Simplify_Add.cpp:110", Rule::when("x*y + z*y", "(x + z)*y", None, When::ALWAYS)),
            ("Simplify_Add.cpp:111", Rule::when("x*y + y*z", "(x + z)*y", None, When::ALWAYS)),
            ("Simplify_Add.cpp:112", Rule::when("y*x + z*y", "y*(x + z)", None, When::ALWAYS)),
            ("Simplify_Add.cpp:113", Rule::when("y*x + y*z", "y*(x + z)", None, When::ALWAYS)),
            (
                "Simplify_Add.cpp:115",
                Rule::when("(x*y) + (z - (w*x))", "z + (x*(y - w))", None, When::ALWAYS),
            ),
            (
                "Simplify_Add.cpp:116",
                Rule::when("(x*y) + (z - (w*y))", "z + (y*(x - w))", None, When::ALWAYS),
            ),
            (
                "Simplify_Add.cpp:117",
                Rule::when("(x*y) + (z - (x*w))", "z + (x*(y - w))", None, When::ALWAYS),
            ),
            (
                "Simplify_Add.cpp:118",
                Rule::when("(x*y) + (z - (y*w))", "z + (y*(x - w))", None, When::ALWAYS),
            ),
            (
                "Simplify_Add.cpp:120",
                Rule::when(
                    "x*c0 + y*c1",
                    "(x + y*fold(c1/c0))*c0",
                    Some(|b| rem(b.c(1), b.c(0)) == 0),
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Add.cpp:121",
                Rule::when(
                    "x*c0 + y*c1",
                    "(x*fold(c0/c1) + y)*c1",
                    Some(|b| rem(b.c(0), b.c(1)) == 0),
                    When::ALWAYS,
                ),
            ),
            ("Simplify_Add.cpp:134", Rule::when("x + x*y", "x*(y + 1)", None, When::NO_OVERFLOW)),
            ("Simplify_Add.cpp:135", Rule::when("x + y*x", "(y + 1)*x", None, When::NO_OVERFLOW)),
            ("Simplify_Add.cpp:136", Rule::when("x*y + x", "x*(y + 1)", None, When::NO_OVERFLOW)),
            (
                "Simplify_Add.cpp:137",
                Rule::when(
                    "y*x + x",
                    "(y + 1)*x",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:138",
                Rule::when(
                    "x + (x + y)/c0",
                    "(fold(c0 + 1)*x + y)/c0",
                    Some(|b| b.c(0) != 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:139",
                Rule::when(
                    "x + (y + x)/c0",
                    "(fold(c0 + 1)*x + y)/c0",
                    Some(|b| b.c(0) != 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:140",
                Rule::when(
                    "x + (y - x)/c0",
                    "(fold(c0 - 1)*x + y)/c0",
                    Some(|b| b.c(0) != 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:141",
                Rule::when(
                    "x + (x - y)/c0",
                    "(fold(c0 + 1)*x - y)/c0",
                    Some(|b| b.c(0) != 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:142",
                Rule::when(
                    "(x - y)/c0 + x",
                    "(fold(c0 + 1)*x - y)/c0",
                    Some(|b| b.c(0) != 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:143",
                Rule::when(
                    "(y - x)/c0 + x",
                    "(y + fold(c0 - 1)*x)/c0",
                    Some(|b| b.c(0) != 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:144",
                Rule::when(
                    "(x + y)/c0 + x",
                    "(fold(c0 + 1)*x + y)/c0",
                    Some(|b| b.c(0) != 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:145",
                Rule::when(
                    "(y + x)/c0 + x",
                    "(y + fold(c0 + 1)*x)/c0",
                    Some(|b| b.c(0) != 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:146",
                Rule::when("min(x, y - z) + z", "min(x + z, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Add.cpp:147",
                Rule::when("min(y - z, x) + z", "min(y, x + z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Add.cpp:148",
                Rule::when(
                    "min(x, y + c0) + c1",
                    "min(x + c1, y)",
                    Some(|b| b.c(0) + b.c(1) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:149",
                Rule::when(
                    "min(y + c0, x) + c1",
                    "min(y, x + c1)",
                    Some(|b| b.c(0) + b.c(1) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:150",
                Rule::when("z + min(x, y - z)", "min(z + x, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Add.cpp:151",
                Rule::when("z + min(y - z, x)", "min(y, z + x)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Add.cpp:152",
                Rule::when("z + max(x, y - z)", "max(z + x, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Add.cpp:153",
                Rule::when("z + max(y - z, x)", "max(y, z + x)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Add.cpp:154",
                Rule::when("max(x, y - z) + z", "max(x + z, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Add.cpp:155",
                Rule::when("max(y - z, x) + z", "max(y, x + z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Add.cpp:156",
                Rule::when(
                    "max(x, y + c0) + c1",
                    "max(x + c1, y)",
                    Some(|b| b.c(0) + b.c(1) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:157",
                Rule::when(
                    "max(y + c0, x) + c1",
                    "max(y, x + c1)",
                    Some(|b| b.c(0) + b.c(1) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            ("Simplify_Add.cpp:158", Rule::when("max(x, y) + min(x, y)", "x + y", None, When::NO_OVERFLOW)),
            ("Simplify_Add.cpp:159", Rule::when("max(x, y) + min(y, x)", "x + y", None, When::NO_OVERFLOW)),
            (
                "Simplify_Add.cpp:161",
                Rule::when(
                    "min(x, y + (z*c0)) + (z*c1)",
                    "min(x + (z*c1), y)",
                    Some(|b| (b.c(0) + b.c(1)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:162",
                Rule::when(
                    "min(x, (y*c0) + z) + (y*c1)",
                    "min(x + (y*c1), z)",
                    Some(|b| (b.c(0) + b.c(1)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:163",
                Rule::when(
                    "min(x, y*c0) + (y*c1)",
                    "min(x + (y*c1), 0)",
                    Some(|b| (b.c(0) + b.c(1)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:164",
                Rule::when(
                    "min(x + (y*c0), z) + (y*c1)",
                    "min((y*c1) + z, x)",
                    Some(|b| (b.c(0) + b.c(1)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:165",
                Rule::when(
                    "min((x*c0) + y, z) + (x*c1)",
                    "min(y, (x*c1) + z)",
                    Some(|b| (b.c(0) + b.c(1)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:166",
                Rule::when(
                    "min(x*c0, y) + (x*c1)",
                    "min((x*c1) + y, 0)",
                    Some(|b| (b.c(0) + b.c(1)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:167",
                Rule::when(
                    "max(x, y + (z*c0)) + (z*c1)",
                    "max(x + (z*c1), y)",
                    Some(|b| (b.c(0) + b.c(1)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:168",
                Rule::when(
                    "max(x, (y*c0) + z) + (y*c1)",
                    "max(x + (y*c1), z)",
                    Some(|b| (b.c(0) + b.c(1)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:169",
                Rule::when(
                    "max(x, y*c0) + (y*c1)",
                    "max(x + (y*c1), 0)",
                    Some(|b| (b.c(0) + b.c(1)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:170",
                Rule::when(
                    "max(x + (y*c0), z) + (y*c1)",
                    "max(x, (y*c1) + z)",
                    Some(|b| (b.c(0) + b.c(1)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:171",
                Rule::when(
                    "max((x*c0) + y, z) + (x*c1)",
                    "max((x*c1) + z, y)",
                    Some(|b| (b.c(0) + b.c(1)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:172",
                Rule::when(
                    "max(x*c0, y) + (x*c1)",
                    "max((x*c1) + y, 0)",
                    Some(|b| (b.c(0) + b.c(1)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Add.cpp:176",
                Rule::when("(x*(y/x)) + (y % x)", "select(x == 0, 0, y)", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:177",
                Rule::when("((x/y)*y) + (x % y)", "select(y == 0, 0, x)", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:178",
                Rule::when("w*(z + x/w) + x % w", "select(w == 0, 0, z*w + x)", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:179",
                Rule::when("(z + x/w)*w + x % w", "select(w == 0, 0, z*w + x)", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:180",
                Rule::when("w*(x/w + z) + x % w", "select(w == 0, 0, x + z*w)", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:181",
                Rule::when("(x/w + z)*w + x % w", "select(w == 0, 0, x + z*w)", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:182",
                Rule::when("x % w + (w*(x/w) + z)", "select(w == 0, 0, x) + z", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:183",
                Rule::when("x % w + ((x/w)*w + z)", "select(w == 0, 0, x) + z", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:184",
                Rule::when("x % w + (w*(x/w) - z)", "select(w == 0, 0, x) - z", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:185",
                Rule::when("x % w + ((x/w)*w - z)", "select(w == 0, 0, x) - z", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:186",
                Rule::when("x % w + (z + w*(x/w))", "select(w == 0, 0, x) + z", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:187",
                Rule::when("x % w + (z + (x/w)*w)", "select(w == 0, 0, x) + z", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:188",
                Rule::when("w*(x/w) + (x % w + z)", "select(w == 0, 0, x) + z", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:189",
                Rule::when("(x/w)*w + (x % w + z)", "select(w == 0, 0, x) + z", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:190",
                Rule::when("w*(x/w) + (x % w - z)", "select(w == 0, 0, x) - z", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:191",
                Rule::when("(x/w)*w + (x % w - z)", "select(w == 0, 0, x) - z", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:192",
                Rule::when("w*(x/w) + (z + x % w)", "select(w == 0, 0, x) + z", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Add.cpp:193",
                Rule::when("(x/w)*w + (z + x % w)", "select(w == 0, 0, x) + z", None, When::NO_OVERFLOW_INT),
            ),
            ("Simplify_Add.cpp:194", Rule::when("x/2 + x % 2", "(x + 1)/2", None, When::NO_OVERFLOW_INT)),
            (
                "Simplify_Add.cpp:196",
                Rule::when(
                    "x + ((c0 - x)/c1)*c1",
                    "c0 - ((c0 - x) % c1)",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Add.cpp:197",
                Rule::when(
                    "x + ((c0 - x)/c1 + y)*c1",
                    "y*c1 - ((c0 - x) % c1) + c0",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Add.cpp:198",
                Rule::when(
                    "x + (y + (c0 - x)/c1)*c1",
                    "y*c1 - ((c0 - x) % c1) + c0",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
        ])
    })
}
