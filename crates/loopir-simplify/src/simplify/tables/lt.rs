//! The reference's rules for `<` (`src/Simplify_LT.cpp`), in its order, each named after the line
//! of that file it was taken from.

use std::sync::OnceLock;

use crate::simplify::pattern::{Rule, RuleTable, When, rem};

/// The rules, in the reference's order.
pub(in crate::simplify) fn lt_rules() -> &'static RuleTable {
    static RULES: OnceLock<RuleTable> = OnceLock::new();
    super::build_once(&RULES, || {
        RuleTable::named([
            ("Simplify_LT.cpp:34", Rule::when("c0 < c1", "fold(c0 < c1)", None, When::ALWAYS)),
            ("Simplify_LT.cpp:35", Rule::when("x < x", "false", None, When::ALWAYS)),
            ("Simplify_LT.cpp:39", Rule::when("max(x, y) < x", "false", None, When::ALWAYS)),
            ("Simplify_LT.cpp:40", Rule::when("max(y, x) < x", "false", None, When::ALWAYS)),
            ("Simplify_LT.cpp:41", Rule::when("x < min(x, y)", "false", None, When::ALWAYS)),
            ("Simplify_LT.cpp:42", Rule::when("x < min(y, x)", "false", None, When::ALWAYS)),
            ("Simplify_LT.cpp:45", Rule::when("(max(y, z) < min(x, y))", "false", None, When::ALWAYS)),
            ("Simplify_LT.cpp:46", Rule::when("(max(y, z) < min(y, x))", "false", None, When::ALWAYS)),
            ("Simplify_LT.cpp:47", Rule::when("(max(z, y) < min(x, y))", "false", None, When::ALWAYS)),
            ("Simplify_LT.cpp:48", Rule::when("(max(z, y) < min(y, x))", "false", None, When::ALWAYS)),
            ("Simplify_LT.cpp:54", Rule::when("x % y < 1", "x % y == 0", None, When::NOT_FLOAT)),
            ("Simplify_LT.cpp:55", Rule::when("0 < x % y", "x % y != 0", None, When::NOT_FLOAT)),
            (
                "Simplify_LT.cpp:56",
                Rule::when(
                    "x % c0 < c1",
                    "x % c0 != fold(c0 - 1)",
                    Some(|b| b.c(1) + 1 == b.c(0) && b.c(0) > 0),
                    When::NOT_FLOAT,
                ),
            ),
            (
                "Simplify_LT.cpp:57",
                Rule::when(
                    "c0 < x % c1",
                    "x % c1 == fold(c1 - 1)",
                    Some(|b| b.c(0) + 2 == b.c(1) && b.c(1) > 0),
                    When::NOT_FLOAT,
                ),
            ),
            ("Simplify_LT.cpp:62", Rule::when("x + c0 < y", "x < y + fold(-c0)", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:63", Rule::when("c0 < c1 - x", "x < fold(c1 - c0)", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:66", Rule::when("c0 < x + c1", "fold(c0 - c1) < x", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:69", Rule::when("x - y < z", "x < z + y", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:70", Rule::when("z < x - y", "z + y < x", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:72", Rule::when("(x - y) + z < w", "x + z < y + w", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:73", Rule::when("z + (x - y) < w", "x + z < y + w", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:74", Rule::when("w < (x - y) + z", "w + y < x + z", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:75", Rule::when("w < z + (x - y)", "w + y < x + z", None, When::NO_OVERFLOW)),
            (
                "Simplify_LT.cpp:77",
                Rule::when("((x - y) + z) + u < w", "x + z + u < w + y", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:78",
                Rule::when("(z + (x - y)) + u < w", "x + z + u < w + y", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:79",
                Rule::when("u + ((x - y) + z) < w", "x + z + u < w + y", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:80",
                Rule::when("u + (z + (x - y)) < w", "x + z + u < w + y", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:82",
                Rule::when("w < ((x - y) + z) + u", "w + y < x + z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:83",
                Rule::when("w < (z + (x - y)) + u", "w + y < x + z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:84",
                Rule::when("w < u + ((x - y) + z)", "w + y < x + z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:85",
                Rule::when("w < u + (z + (x - y))", "w + y < x + z + u", None, When::NO_OVERFLOW),
            ),
            ("Simplify_LT.cpp:89", Rule::when("x < x + y", "0 < y", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:90", Rule::when("x < y + x", "0 < y", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:93", Rule::when("x + y < x", "y < 0", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:94", Rule::when("y + x < x", "y < 0", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:97", Rule::when("x < (x + y) + z", "0 < y + z", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:98", Rule::when("x < (y + x) + z", "0 < y + z", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:99", Rule::when("x < z + (x + y)", "0 < z + y", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:100", Rule::when("x < z + (y + x)", "0 < z + y", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:103", Rule::when("(x + y) + z < x", "y + z < 0", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:104", Rule::when("(y + x) + z < x", "y + z < 0", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:105", Rule::when("z + (x + y) < x", "z + y < 0", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:106", Rule::when("z + (y + x) < x", "z + y < 0", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:109", Rule::when("x + y < x + z", "y < z", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:110", Rule::when("x + y < z + x", "y < z", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:111", Rule::when("y + x < x + z", "y < z", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:112", Rule::when("y + x < z + x", "y < z", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:115", Rule::when("(x + y) + w < x + z", "y + w < z", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:116", Rule::when("(y + x) + w < x + z", "y + w < z", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:117", Rule::when("w + (x + y) < x + z", "y + w < z", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:118", Rule::when("w + (y + x) < x + z", "y + w < z", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:119", Rule::when("(x + y) + w < z + x", "y + w < z", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:120", Rule::when("(y + x) + w < z + x", "y + w < z", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:121", Rule::when("w + (x + y) < z + x", "y + w < z", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:122", Rule::when("w + (y + x) < z + x", "y + w < z", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:125", Rule::when("x + z < (x + y) + w", "z < y + w", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:126", Rule::when("x + z < (y + x) + w", "z < y + w", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:127", Rule::when("x + z < w + (x + y)", "z < y + w", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:128", Rule::when("x + z < w + (y + x)", "z < y + w", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:129", Rule::when("z + x < (x + y) + w", "z < y + w", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:130", Rule::when("z + x < (y + x) + w", "z < y + w", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:131", Rule::when("z + x < w + (x + y)", "z < y + w", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:132", Rule::when("z + x < w + (y + x)", "z < y + w", None, When::NO_OVERFLOW)),
            (
                "Simplify_LT.cpp:135",
                Rule::when("(x + y) + w < (x + z) + u", "y + w < z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:136",
                Rule::when("(y + x) + w < (x + z) + u", "y + w < z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:137",
                Rule::when("(x + y) + w < (z + x) + u", "y + w < z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:138",
                Rule::when("(y + x) + w < (z + x) + u", "y + w < z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:139",
                Rule::when("w + (x + y) < (x + z) + u", "y + w < z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:140",
                Rule::when("w + (y + x) < (x + z) + u", "y + w < z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:141",
                Rule::when("w + (x + y) < (z + x) + u", "y + w < z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:142",
                Rule::when("w + (y + x) < (z + x) + u", "y + w < z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:143",
                Rule::when("(x + y) + w < u + (x + z)", "y + w < z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:144",
                Rule::when("(y + x) + w < u + (x + z)", "y + w < z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:145",
                Rule::when("(x + y) + w < u + (z + x)", "y + w < z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:146",
                Rule::when("(y + x) + w < u + (z + x)", "y + w < z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:147",
                Rule::when("w + (x + y) < u + (x + z)", "y + w < z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:148",
                Rule::when("w + (y + x) < u + (x + z)", "y + w < z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:149",
                Rule::when("w + (x + y) < u + (z + x)", "y + w < z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:150",
                Rule::when("w + (y + x) < u + (z + x)", "y + w < z + u", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:153",
                Rule::when("x*c0 < y*c0", "x < y", Some(|b| b.c(0) > 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:154",
                Rule::when("x*c0 < y*c0", "y < x", Some(|b| b.c(0) < 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:156",
                Rule::when(
                    "x*c0 < c1",
                    "x < fold((c1 + c0 - 1)/c0)",
                    Some(|b| b.c(0) > 0),
                    When::INT | When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:157",
                Rule::when(
                    "x*c0 < c1",
                    "x < fold(c1/c0)",
                    Some(|b| b.c(0) > 0),
                    When::FLOAT | When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:158",
                Rule::when(
                    "x*c0 < c1",
                    "fold(c1/c0) < x",
                    Some(|b| b.c(0) < 0),
                    When::FLOAT | When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:159",
                Rule::when("c1 < x*c0", "fold(c1/c0) < x", Some(|b| b.c(0) > 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:162",
                Rule::when(
                    "x/c0 < c1",
                    "x < fold(c1*c0)",
                    Some(|b| b.c(0) > 0 && b.product_fits(1, 0)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:163",
                Rule::when(
                    "c0 < x/c1",
                    "fold((c0 + 1)*c1 - 1) < x",
                    Some(|b| {
                        let product = (b.c(0) + 1).checked_mul(b.c(1));
                        b.c(1) > 0
                            && b.fits(Some(b.c(0) + 1))
                            && b.fits(product)
                            && b.fits(product.map(|v| v - 1))
                    }),
                    When::INT | When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:164",
                Rule::when(
                    "c0 < x/c1",
                    "fold(c0*c1) < x",
                    Some(|b| b.c(1) > 0),
                    When::FLOAT | When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:165",
                Rule::when(
                    "c0 < x/c1",
                    "x < fold(c0*c1)",
                    Some(|b| b.c(1) < 0),
                    When::FLOAT | When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:170",
                Rule::when("min(x + c0, y) < x + c1", "y < x + c1 || fold(c0 < c1)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:171",
                Rule::when("min(y, x + c0) < x + c1", "y < x + c1 || fold(c0 < c1)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:172",
                Rule::when("max(x + c0, y) < x + c1", "y < x + c1 && fold(c0 < c1)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:173",
                Rule::when("max(y, x + c0) < x + c1", "y < x + c1 && fold(c0 < c1)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:175",
                Rule::when(
                    "x < min(x + c0, y) + c1",
                    "x < y + c1 && fold(0 < c0 + c1)",
                    None,
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:176",
                Rule::when(
                    "x < min(y, x + c0) + c1",
                    "x < y + c1 && fold(0 < c0 + c1)",
                    None,
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:177",
                Rule::when(
                    "x < max(x + c0, y) + c1",
                    "x < y + c1 || fold(0 < c0 + c1)",
                    None,
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:178",
                Rule::when(
                    "x < max(y, x + c0) + c1",
                    "x < y + c1 || fold(0 < c0 + c1)",
                    None,
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:181",
                Rule::when("min(x, y) < x + c1", "y < x + c1 || fold(0 < c1)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:182",
                Rule::when("min(y, x) < x + c1", "y < x + c1 || fold(0 < c1)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:183",
                Rule::when("max(x, y) < x + c1", "y < x + c1 && fold(0 < c1)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:184",
                Rule::when("max(y, x) < x + c1", "y < x + c1 && fold(0 < c1)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:186",
                Rule::when("x < min(x, y) + c1", "x < y + c1 && fold(0 < c1)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:187",
                Rule::when("x < min(y, x) + c1", "x < y + c1 && fold(0 < c1)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:188",
                Rule::when("x < max(x, y) + c1", "x < y + c1 || fold(0 < c1)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:189",
                Rule::when("x < max(y, x) + c1", "x < y + c1 || fold(0 < c1)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:192",
                Rule::when("min(x + c0, y) < x", "y < x || fold(c0 < 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:193",
                Rule::when("min(y, x + c0) < x", "y < x || fold(c0 < 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:194",
                Rule::when("max(x + c0, y) < x", "y < x && fold(c0 < 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:195",
                Rule::when("max(y, x + c0) < x", "y < x && fold(c0 < 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:197",
                Rule::when("x < min(x + c0, y)", "x < y && fold(0 < c0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:198",
                Rule::when("x < min(y, x + c0)", "x < y && fold(0 < c0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:199",
                Rule::when("x < max(x + c0, y)", "x < y || fold(0 < c0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:200",
                Rule::when("x < max(y, x + c0)", "x < y || fold(0 < c0)", None, When::NO_OVERFLOW),
            ),
            ("Simplify_LT.cpp:203", Rule::when("min(x, y) < x", "y < x", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:204", Rule::when("min(y, x) < x", "y < x", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:205", Rule::when("x < max(x, y)", "x < y", None, When::NO_OVERFLOW)),
            ("Simplify_LT.cpp:206", Rule::when("x < max(y, x)", "x < y", None, When::NO_OVERFLOW)),
            (
                "Simplify_LT.cpp:209",
                Rule::when("min(y, c0) < c1", "y < c1 || fold(c0 < c1)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:210",
                Rule::when("max(y, c0) < c1", "y < c1 && fold(c0 < c1)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:211",
                Rule::when("c1 < min(y, c0)", "c1 < y && fold(c1 < c0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:212",
                Rule::when("c1 < max(y, c0)", "c1 < y || fold(c1 < c0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:217",
                Rule::when("min(z, y) < min(x, y)", "z < min(x, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:218",
                Rule::when("min(z, y) < min(y, x)", "z < min(y, x)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:219",
                Rule::when(
                    "min(z, y) < min(x, y + c0)",
                    "min(z, y) < x",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:220",
                Rule::when(
                    "min(z, y) < min(y + c0, x)",
                    "min(z, y) < x",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:221",
                Rule::when(
                    "min(z, y + c0) < min(x, y)",
                    "min(z, y + c0) < x",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:222",
                Rule::when(
                    "min(z, y + c0) < min(y, x)",
                    "min(z, y + c0) < x",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:224",
                Rule::when("min(y, z) < min(x, y)", "z < min(x, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:225",
                Rule::when("min(y, z) < min(y, x)", "z < min(y, x)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:226",
                Rule::when(
                    "min(y, z) < min(x, y + c0)",
                    "min(z, y) < x",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:227",
                Rule::when(
                    "min(y, z) < min(y + c0, x)",
                    "min(z, y) < x",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:228",
                Rule::when(
                    "min(y + c0, z) < min(x, y)",
                    "min(z, y + c0) < x",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:229",
                Rule::when(
                    "min(y + c0, z) < min(y, x)",
                    "min(z, y + c0) < x",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:232",
                Rule::when("max(z, y) < max(x, y)", "max(z, y) < x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:233",
                Rule::when("max(z, y) < max(y, x)", "max(z, y) < x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:234",
                Rule::when(
                    "max(z, y) < max(x, y + c0)",
                    "max(z, y) < x",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:235",
                Rule::when(
                    "max(z, y) < max(y + c0, x)",
                    "max(z, y) < x",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:236",
                Rule::when(
                    "max(z, y + c0) < max(x, y)",
                    "max(z, y + c0) < x",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:237",
                Rule::when(
                    "max(z, y + c0) < max(y, x)",
                    "max(z, y + c0) < x",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:239",
                Rule::when("max(y, z) < max(x, y)", "max(z, y) < x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:240",
                Rule::when("max(y, z) < max(y, x)", "max(z, y) < x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_LT.cpp:241",
                Rule::when(
                    "max(y, z) < max(x, y + c0)",
                    "max(z, y) < x",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:242",
                Rule::when(
                    "max(y, z) < max(y + c0, x)",
                    "max(z, y) < x",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:243",
                Rule::when(
                    "max(y + c0, z) < max(x, y)",
                    "max(z, y + c0) < x",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:244",
                Rule::when(
                    "max(y + c0, z) < max(y, x)",
                    "max(z, y + c0) < x",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:249",
                Rule::when(
                    "x < select(y, x + c0, z)",
                    "!y && (x < z)",
                    Some(|b| b.c(0) <= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:250",
                Rule::when(
                    "x < select(y, x + c0, z)",
                    "y || (x < z)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:251",
                Rule::when(
                    "x < select(y, z, x + c0)",
                    "y && (x < z)",
                    Some(|b| b.c(0) <= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:252",
                Rule::when(
                    "x < select(y, z, x + c0)",
                    "!y || (x < z)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:254",
                Rule::when(
                    "x < select(y, x + c0, z) + c1",
                    "!y && (x < z + c1)",
                    Some(|b| b.c(0) + b.c(1) <= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:255",
                Rule::when(
                    "x < select(y, x + c0, z) + c1",
                    "y || (x < z + c1)",
                    Some(|b| b.c(0) + b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:256",
                Rule::when(
                    "x < select(y, z, x + c0) + c1",
                    "y && (x < z + c1)",
                    Some(|b| b.c(0) + b.c(1) <= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:257",
                Rule::when(
                    "x < select(y, z, x + c0) + c1",
                    "!y || (x < z + c1)",
                    Some(|b| b.c(0) + b.c(1) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:259",
                Rule::when(
                    "select(y, x + c0, z) < x",
                    "!y && (z < x)",
                    Some(|b| b.c(0) >= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:260",
                Rule::when(
                    "select(y, x + c0, z) < x",
                    "y || (z < x)",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:261",
                Rule::when(
                    "select(y, z, x + c0) < x",
                    "y && (z < x)",
                    Some(|b| b.c(0) >= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:262",
                Rule::when(
                    "select(y, z, x + c0) < x",
                    "!y || (z < x)",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:264",
                Rule::when(
                    "select(y, x + c0, z) < x + c1",
                    "!y && (z < x + c1)",
                    Some(|b| b.c(0) >= b.c(1)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:265",
                Rule::when(
                    "select(y, x + c0, z) < x + c1",
                    "y || (z < x + c1)",
                    Some(|b| b.c(0) < b.c(1)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:266",
                Rule::when(
                    "select(y, z, x + c0) < x + c1",
                    "y && (z < x + c1)",
                    Some(|b| b.c(0) >= b.c(1)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:267",
                Rule::when(
                    "select(y, z, x + c0) < x + c1",
                    "!y || (z < x + c1)",
                    Some(|b| b.c(0) < b.c(1)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:269",
                Rule::when(
                    "c0 < select(x, c1, c2)",
                    "select(x, fold(c0 < c1), fold(c0 < c2))",
                    None,
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:270",
                Rule::when(
                    "select(x, c1, c2) < c0",
                    "select(x, fold(c1 < c0), fold(c2 < c0))",
                    None,
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_LT.cpp:327",
                Rule::when(
                    "x*c0 < y*c1",
                    "x < y*fold(c1/c0)",
                    Some(|b| rem(b.c(1), b.c(0)) == 0 && b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:328",
                Rule::when(
                    "x*c0 < y*c1",
                    "x*fold(c0/c1) < y",
                    Some(|b| rem(b.c(0), b.c(1)) == 0 && b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:330",
                Rule::when(
                    "x*c0 < y*c0 + c1",
                    "x < y + fold((c1 + c0 - 1)/c0)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:331",
                Rule::when(
                    "x*c0 + c1 < y*c0",
                    "x + fold(c1/c0) < y",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:341",
                Rule::when(
                    "((x + c0)/c1)*c1 + w < x + z",
                    "(w + c0) < ((x + c0) % c1) + z",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:342",
                Rule::when(
                    "w + ((x + c0)/c1)*c1 < x + z",
                    "(w + c0) < ((x + c0) % c1) + z",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:343",
                Rule::when(
                    "((x + c0)/c1)*c1 + w < z + x",
                    "(w + c0) < ((x + c0) % c1) + z",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:344",
                Rule::when(
                    "w + ((x + c0)/c1)*c1 < z + x",
                    "(w + c0) < ((x + c0) % c1) + z",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:345",
                Rule::when(
                    "x + z < ((x + c0)/c1)*c1 + w",
                    "((x + c0) % c1) + z < w + c0",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:346",
                Rule::when(
                    "x + z < w + ((x + c0)/c1)*c1",
                    "((x + c0) % c1) + z < w + c0",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:347",
                Rule::when(
                    "z + x < ((x + c0)/c1)*c1 + w",
                    "((x + c0) % c1) + z < w + c0",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:348",
                Rule::when(
                    "z + x < w + ((x + c0)/c1)*c1",
                    "((x + c0) % c1) + z < w + c0",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:351",
                Rule::when(
                    "((x + c0)/c1)*c1 < x + z",
                    "c0 < ((x + c0) % c1) + z",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:352",
                Rule::when(
                    "((x + c0)/c1)*c1 < z + x",
                    "c0 < ((x + c0) % c1) + z",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:353",
                Rule::when(
                    "x + z < ((x + c0)/c1)*c1",
                    "((x + c0) % c1) + z < c0",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:354",
                Rule::when(
                    "z + x < ((x + c0)/c1)*c1",
                    "((x + c0) % c1) + z < c0",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:357",
                Rule::when(
                    "((x + c0)/c1)*c1 + w < x",
                    "(w + c0) < ((x + c0) % c1)",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:358",
                Rule::when(
                    "w + ((x + c0)/c1)*c1 < x",
                    "(w + c0) < ((x + c0) % c1)",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:359",
                Rule::when(
                    "x < ((x + c0)/c1)*c1 + w",
                    "((x + c0) % c1) < w + c0",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:360",
                Rule::when(
                    "x < w + ((x + c0)/c1)*c1",
                    "((x + c0) % c1) < w + c0",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:363",
                Rule::when(
                    "(x/c1)*c1 + w < x + z",
                    "w < (x % c1) + z",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:364",
                Rule::when(
                    "w + (x/c1)*c1 < x + z",
                    "w < (x % c1) + z",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:365",
                Rule::when(
                    "(x/c1)*c1 + w < z + x",
                    "w < (x % c1) + z",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:366",
                Rule::when(
                    "w + (x/c1)*c1 < z + x",
                    "w < (x % c1) + z",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:367",
                Rule::when(
                    "x + z < (x/c1)*c1 + w",
                    "(x % c1) + z < w",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:368",
                Rule::when(
                    "x + z < w + (x/c1)*c1",
                    "(x % c1) + z < w",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:369",
                Rule::when(
                    "z + x < (x/c1)*c1 + w",
                    "(x % c1) + z < w",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:370",
                Rule::when(
                    "z + x < w + (x/c1)*c1",
                    "(x % c1) + z < w",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:373",
                Rule::when(
                    "((x + c0)/c1)*c1 < x",
                    "c0 < ((x + c0) % c1)",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:374",
                Rule::when(
                    "x < ((x + c0)/c1)*c1",
                    "((x + c0) % c1) < c0",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:377",
                Rule::when(
                    "(x/c1)*c1 < x + z",
                    "0 < (x % c1) + z",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:378",
                Rule::when(
                    "(x/c1)*c1 < z + x",
                    "0 < (x % c1) + z",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:379",
                Rule::when(
                    "x + z < (x/c1)*c1",
                    "(x % c1) + z < 0",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:380",
                Rule::when(
                    "z + x < (x/c1)*c1",
                    "(x % c1) + z < 0",
                    Some(|b| b.c(1) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:383",
                Rule::when("(x/c1)*c1 + w < x", "w < (x % c1)", Some(|b| b.c(1) > 0), When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_LT.cpp:384",
                Rule::when("w + (x/c1)*c1 < x", "w < (x % c1)", Some(|b| b.c(1) > 0), When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_LT.cpp:385",
                Rule::when("x < (x/c1)*c1 + w", "(x % c1) < w", Some(|b| b.c(1) > 0), When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_LT.cpp:386",
                Rule::when("x < w + (x/c1)*c1", "(x % c1) < w", Some(|b| b.c(1) > 0), When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_LT.cpp:389",
                Rule::when("(x/c1)*c1 < x", "(x % c1) != 0", Some(|b| b.c(1) > 0), When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_LT.cpp:390",
                Rule::when("x < (x/c1)*c1", "false", Some(|b| b.c(1) > 0), When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_LT.cpp:393",
                Rule::when(
                    "(x + c1)/c0 < (x + c2)/c0",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(1) >= b.c(2)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:394",
                Rule::when(
                    "(x + c1)/c0 < (x + c2)/c0",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(1) <= b.c(2) - b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:396",
                Rule::when(
                    "x/c0 < (x + c2)/c0",
                    "false",
                    Some(|b| b.c(0) > 0 && 0 >= b.c(2)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:397",
                Rule::when(
                    "x/c0 < (x + c2)/c0",
                    "true",
                    Some(|b| b.c(0) > 0 && 0 <= b.c(2) - b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:399",
                Rule::when(
                    "(x + c1)/c0 < x/c0",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(1) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:400",
                Rule::when(
                    "(x + c1)/c0 < x/c0",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(1) <= 0 - b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:403",
                Rule::when(
                    "(x + c1)/c0 < x/c0 + c2",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(1) >= b.c(2) * b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:404",
                Rule::when(
                    "(x + c1)/c0 < x/c0 + c2",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(1) <= b.c(2) * b.c(0) - b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:407",
                Rule::when(
                    "(x + c1)/c0 < (min(x/c0, y) + c2)",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(1) >= b.c(2) * b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:408",
                Rule::when(
                    "(x + c1)/c0 < (max(x/c0, y) + c2)",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(1) <= b.c(2) * b.c(0) - b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:409",
                Rule::when(
                    "(x + c1)/c0 < min((x + c2)/c0, y)",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(1) >= b.c(2)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:410",
                Rule::when(
                    "(x + c1)/c0 < max((x + c2)/c0, y)",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(1) <= b.c(2) - b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:411",
                Rule::when(
                    "(x + c1)/c0 < min(x/c0, y)",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(1) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:412",
                Rule::when(
                    "(x + c1)/c0 < max(x/c0, y)",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(1) <= 0 - b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:414",
                Rule::when(
                    "(x + c1)/c0 < (min(y, x/c0) + c2)",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(1) >= b.c(2) * b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:415",
                Rule::when(
                    "(x + c1)/c0 < (max(y, x/c0) + c2)",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(1) <= b.c(2) * b.c(0) - b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:416",
                Rule::when(
                    "(x + c1)/c0 < min(y, (x + c2)/c0)",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(1) >= b.c(2)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:417",
                Rule::when(
                    "(x + c1)/c0 < max(y, (x + c2)/c0)",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(1) <= b.c(2) - b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:418",
                Rule::when(
                    "(x + c1)/c0 < min(y, x/c0)",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(1) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:419",
                Rule::when(
                    "(x + c1)/c0 < max(y, x/c0)",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(1) <= 0 - b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:421",
                Rule::when(
                    "max((x + c2)/c0, y) < (x + c1)/c0",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(2) >= b.c(1)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:422",
                Rule::when(
                    "min((x + c2)/c0, y) < (x + c1)/c0",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(2) <= b.c(1) - b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:423",
                Rule::when(
                    "max(x/c0, y) < (x + c1)/c0",
                    "false",
                    Some(|b| b.c(0) > 0 && 0 >= b.c(1)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:424",
                Rule::when(
                    "min(x/c0, y) < (x + c1)/c0",
                    "true",
                    Some(|b| b.c(0) > 0 && 0 <= b.c(1) - b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:425",
                Rule::when(
                    "max(y, (x + c2)/c0) < (x + c1)/c0",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(2) >= b.c(1)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:426",
                Rule::when(
                    "min(y, (x + c2)/c0) < (x + c1)/c0",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(2) <= b.c(1) - b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:427",
                Rule::when(
                    "max(y, x/c0) < (x + c1)/c0",
                    "false",
                    Some(|b| b.c(0) > 0 && 0 >= b.c(1)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:428",
                Rule::when(
                    "min(y, x/c0) < (x + c1)/c0",
                    "true",
                    Some(|b| b.c(0) > 0 && 0 <= b.c(1) - b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:431",
                Rule::when(
                    "max((x + c2)/c0, y) < x/c0 + c1",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(2) >= b.c(1) * b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:432",
                Rule::when(
                    "min((x + c2)/c0, y) < x/c0 + c1",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(2) <= b.c(1) * b.c(0) - b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:433",
                Rule::when(
                    "max(y, (x + c2)/c0) < x/c0 + c1",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(2) >= b.c(1) * b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:434",
                Rule::when(
                    "min(y, (x + c2)/c0) < x/c0 + c1",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(2) <= b.c(1) * b.c(0) - b.c(0)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:437",
                Rule::when(
                    "x/c0 < min((x + c2)/c0, y)",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(2) < 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:438",
                Rule::when(
                    "x/c0 < max((x + c2)/c0, y)",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(0) <= b.c(2)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:439",
                Rule::when(
                    "x/c0 < min(y, (x + c2)/c0)",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(2) < 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:440",
                Rule::when(
                    "x/c0 < max(y, (x + c2)/c0)",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(0) <= b.c(2)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:441",
                Rule::when(
                    "max((x + c2)/c0, y) < x/c0",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(2) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:442",
                Rule::when(
                    "min((x + c2)/c0, y) < x/c0",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(2) + b.c(0) <= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:443",
                Rule::when(
                    "max(y, (x + c2)/c0) < x/c0",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(2) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:444",
                Rule::when(
                    "min(y, (x + c2)/c0) < x/c0",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(2) + b.c(0) <= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:446",
                Rule::when(
                    "((max(x, (y*c0) + c1) + c2)/c0) < y",
                    "((x + c2)/c0) < y",
                    Some(|b| b.c(0) > 0 && (b.c(1) + b.c(2)) < 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:447",
                Rule::when(
                    "((max(x, (y*c0) + c1) + c2)/c0) < y",
                    "false",
                    Some(|b| b.c(0) > 0 && (b.c(1) + b.c(2)) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:448",
                Rule::when(
                    "((max(x, y*c0) + c1)/c0) < y",
                    "((x + c1)/c0) < y",
                    Some(|b| b.c(0) > 0 && b.c(1) < 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:449",
                Rule::when(
                    "((max(x, y*c0) + c1)/c0) < y",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(1) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:450",
                Rule::when(
                    "((max((x*c0) + c1, y) + c2)/c0) < x",
                    "((y + c2)/c0) < x",
                    Some(|b| b.c(0) > 0 && (b.c(1) + b.c(2)) < 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:451",
                Rule::when(
                    "((max((x*c0) + c1, y) + c2)/c0) < x",
                    "false",
                    Some(|b| b.c(0) > 0 && (b.c(1) + b.c(2)) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:452",
                Rule::when(
                    "((max(x*c0, y) + c1)/c0) < x",
                    "((y + c1)/c0) < x",
                    Some(|b| b.c(0) > 0 && b.c(1) < 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:453",
                Rule::when(
                    "((max(x*c0, y) + c1)/c0) < x",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(1) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:454",
                Rule::when(
                    "(max(x, (y*c0) + c1)/c0) < y",
                    "(x/c0) < y",
                    Some(|b| b.c(0) > 0 && b.c(1) < 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:455",
                Rule::when(
                    "(max(x, (y*c0) + c1)/c0) < y",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(1) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:456",
                Rule::when("(max(x, y*c0)/c0) < y", "false", Some(|b| b.c(0) > 0), When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_LT.cpp:457",
                Rule::when(
                    "(max((x*c0) + c1, y)/c0) < x",
                    "(y/c0) < x",
                    Some(|b| b.c(0) > 0 && b.c(1) < 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:458",
                Rule::when(
                    "(max((x*c0) + c1, y)/c0) < x",
                    "false",
                    Some(|b| b.c(0) > 0 && b.c(1) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:459",
                Rule::when("(max(x*c0, y)/c0) < x", "false", Some(|b| b.c(0) > 0), When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_LT.cpp:461",
                Rule::when(
                    "((min(x, (y*c0) + c1) + c2)/c0) < y",
                    "true",
                    Some(|b| b.c(0) > 0 && (b.c(1) + b.c(2)) < 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:462",
                Rule::when(
                    "((min(x, (y*c0) + c1) + c2)/c0) < y",
                    "((x + c2)/c0) < y",
                    Some(|b| b.c(0) > 0 && (b.c(1) + b.c(2)) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:463",
                Rule::when(
                    "((min(x, y*c0) + c1)/c0) < y",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(1) < 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:464",
                Rule::when(
                    "((min(x, y*c0) + c1)/c0) < y",
                    "((x + c1)/c0) < y",
                    Some(|b| b.c(0) > 0 && b.c(1) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:465",
                Rule::when(
                    "((min((x*c0) + c1, y) + c2)/c0) < x",
                    "true",
                    Some(|b| b.c(0) > 0 && (b.c(1) + b.c(2)) < 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:466",
                Rule::when(
                    "((min((x*c0) + c1, y) + c2)/c0) < x",
                    "((y + c2)/c0) < x",
                    Some(|b| b.c(0) > 0 && (b.c(1) + b.c(2)) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:467",
                Rule::when(
                    "((min(x*c0, y) + c1)/c0) < x",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(1) < 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:468",
                Rule::when(
                    "((min(x*c0, y) + c1)/c0) < x",
                    "((y + c1)/c0) < x",
                    Some(|b| b.c(0) > 0 && b.c(1) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:469",
                Rule::when(
                    "(min(x, (y*c0) + c1)/c0) < y",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(1) < 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:470",
                Rule::when(
                    "(min(x, (y*c0) + c1)/c0) < y",
                    "(x/c0) < y",
                    Some(|b| b.c(0) > 0 && b.c(1) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:471",
                Rule::when(
                    "(min(x, y*c0)/c0) < y",
                    "(x/c0) < y",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:472",
                Rule::when(
                    "(min((x*c0) + c1, y)/c0) < x",
                    "true",
                    Some(|b| b.c(0) > 0 && b.c(1) < 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:473",
                Rule::when(
                    "(min((x*c0) + c1, y)/c0) < x",
                    "(y/c0) < x",
                    Some(|b| b.c(0) > 0 && b.c(1) >= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:474",
                Rule::when(
                    "(min(x*c0, y)/c0) < x",
                    "(y/c0) < x",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:477",
                Rule::when(
                    "min(x, c0) < min(x, c1)",
                    "false",
                    Some(|b| b.c(0) >= b.c(1)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:478",
                Rule::when(
                    "min(x, c0) < min(x, c1) + c2",
                    "false",
                    Some(|b| b.c(0) >= b.c(1) + b.c(2) && b.c(2) <= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:479",
                Rule::when(
                    "max(x, c0) < max(x, c1)",
                    "false",
                    Some(|b| b.c(0) >= b.c(1)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_LT.cpp:480",
                Rule::when(
                    "max(x, c0) < max(x, c1) + c2",
                    "false",
                    Some(|b| b.c(0) >= b.c(1) + b.c(2) && b.c(2) <= 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
        ])
    })
}
