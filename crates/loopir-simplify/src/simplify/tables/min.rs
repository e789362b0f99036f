//! The reference's rules for min (`src/Simplify_Min.cpp`), in its order, each named after the line
//! of that file it was taken from.

use std::sync::OnceLock;

use crate::simplify::pattern::{Rule, RuleTable, When, rem};

/// The rules, in the reference's order.
pub(in crate::simplify) fn min_rules() -> &'static RuleTable {
    static RULES: OnceLock<RuleTable> = OnceLock::new();
    super::build_once(&RULES, || {
        RuleTable::named([
            ("Simplify_Min.cpp:72", Rule::when("min(x, x)", "a", None, When::ALWAYS)),
            ("Simplify_Min.cpp:73", Rule::when("min(x, c0)", "b", Some(|b| b.is_type_min(0)), When::ALWAYS)),
            ("Simplify_Min.cpp:74", Rule::when("min(x, c0)", "a", Some(|b| b.is_type_max(0)), When::ALWAYS)),
            ("Simplify_Min.cpp:75", Rule::when("min((x/c0)*c0, x)", "a", Some(|b| b.c(0) > 0), When::ALWAYS)),
            ("Simplify_Min.cpp:76", Rule::when("min(x, (x/c0)*c0)", "b", Some(|b| b.c(0) > 0), When::ALWAYS)),
            ("Simplify_Min.cpp:77", Rule::when("min(min(x, y), x)", "a", None, When::ALWAYS)),
            ("Simplify_Min.cpp:78", Rule::when("min(min(x, y), y)", "a", None, When::ALWAYS)),
            ("Simplify_Min.cpp:79", Rule::when("min(min(min(x, y), z), x)", "a", None, When::ALWAYS)),
            ("Simplify_Min.cpp:80", Rule::when("min(min(min(x, y), z), y)", "a", None, When::ALWAYS)),
            ("Simplify_Min.cpp:81", Rule::when("min(min(min(min(x, y), z), w), x)", "a", None, When::ALWAYS)),
            ("Simplify_Min.cpp:82", Rule::when("min(min(min(min(x, y), z), w), y)", "a", None, When::ALWAYS)),
            (
                "Simplify_Min.cpp:83",
                Rule::when("min(min(min(min(min(x, y), z), w), u), x)", "a", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:84",
                Rule::when("min(min(min(min(min(x, y), z), w), u), y)", "a", None, When::ALWAYS),
            ),
            ("Simplify_Min.cpp:85", Rule::when("min(x, min(x, y))", "b", None, When::ALWAYS)),
            ("Simplify_Min.cpp:86", Rule::when("min(x, max(x, y))", "a", None, When::ALWAYS)),
            ("Simplify_Min.cpp:87", Rule::when("min(x, min(y, x))", "b", None, When::ALWAYS)),
            ("Simplify_Min.cpp:88", Rule::when("min(x, max(y, x))", "a", None, When::ALWAYS)),
            ("Simplify_Min.cpp:89", Rule::when("min(max(x, y), min(x, y))", "b", None, When::ALWAYS)),
            ("Simplify_Min.cpp:90", Rule::when("min(max(x, y), min(y, x))", "b", None, When::ALWAYS)),
            ("Simplify_Min.cpp:91", Rule::when("min(max(x, y), x)", "b", None, When::ALWAYS)),
            ("Simplify_Min.cpp:92", Rule::when("min(max(y, x), x)", "b", None, When::ALWAYS)),
            (
                "Simplify_Min.cpp:93",
                Rule::when("min(max(x, c0), c1)", "b", Some(|b| b.c(1) <= b.c(0)), When::ALWAYS),
            ),
            ("Simplify_Min.cpp:95", Rule::when("min(x, max(y, max(x, z)))", "a", None, When::ALWAYS)),
            ("Simplify_Min.cpp:96", Rule::when("min(x, max(y, max(z, x)))", "a", None, When::ALWAYS)),
            ("Simplify_Min.cpp:97", Rule::when("min(x, max(max(x, y), z))", "a", None, When::ALWAYS)),
            ("Simplify_Min.cpp:98", Rule::when("min(x, max(max(y, x), z))", "a", None, When::ALWAYS)),
            ("Simplify_Min.cpp:99", Rule::when("min(max(x, max(y, z)), y)", "b", None, When::ALWAYS)),
            ("Simplify_Min.cpp:100", Rule::when("min(max(x, max(y, z)), z)", "b", None, When::ALWAYS)),
            ("Simplify_Min.cpp:101", Rule::when("min(max(max(x, y), z), x)", "b", None, When::ALWAYS)),
            ("Simplify_Min.cpp:102", Rule::when("min(max(max(x, y), z), y)", "b", None, When::ALWAYS)),
            ("Simplify_Min.cpp:104", Rule::when("min(max(x, y), min(x, z))", "b", None, When::ALWAYS)),
            ("Simplify_Min.cpp:105", Rule::when("min(max(x, y), min(y, z))", "b", None, When::ALWAYS)),
            ("Simplify_Min.cpp:106", Rule::when("min(max(x, y), min(z, x))", "b", None, When::ALWAYS)),
            ("Simplify_Min.cpp:107", Rule::when("min(max(x, y), min(z, y))", "b", None, When::ALWAYS)),
            (
                "Simplify_Min.cpp:120",
                Rule::when(
                    "min(((x + c0)/c1)*c1 + c2, x)",
                    "b",
                    Some(|b| b.c(1) > 0 && b.c(0) + b.c(2) >= b.c(1) - 1),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:121",
                Rule::when(
                    "min(x, ((x + c0)/c1)*c1 + c2)",
                    "a",
                    Some(|b| b.c(1) > 0 && b.c(0) + b.c(2) >= b.c(1) - 1),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:122",
                Rule::when(
                    "min(((x + c0)/c1)*c1 + c2, x)",
                    "a",
                    Some(|b| b.c(1) > 0 && b.c(0) + b.c(2) <= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:123",
                Rule::when(
                    "min(x, ((x + c0)/c1)*c1 + c2)",
                    "b",
                    Some(|b| b.c(1) > 0 && b.c(0) + b.c(2) <= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:124",
                Rule::when(
                    "min((x/c0)*c0, (x/c1)*c1 + c2)",
                    "a",
                    Some(|b| b.c(2) >= b.c(1) && b.c(1) > 0 && b.c(0) != 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:126",
                Rule::when(
                    "min((x/c1)*c1 + c2, x)",
                    "b",
                    Some(|b| b.c(1) > 0 && b.c(2) >= b.c(1) - 1),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:127",
                Rule::when(
                    "min(x, (x/c1)*c1 + c2)",
                    "a",
                    Some(|b| b.c(1) > 0 && b.c(2) >= b.c(1) - 1),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:128",
                Rule::when(
                    "min(((x + c0)/c1)*c1, x)",
                    "b",
                    Some(|b| b.c(1) > 0 && b.c(0) >= b.c(1) - 1),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:129",
                Rule::when(
                    "min(x, ((x + c0)/c1)*c1)",
                    "a",
                    Some(|b| b.c(1) > 0 && b.c(0) >= b.c(1) - 1),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:130",
                Rule::when(
                    "min((x/c1)*c1 + c2, x)",
                    "a",
                    Some(|b| b.c(1) > 0 && b.c(2) <= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:131",
                Rule::when(
                    "min(x, (x/c1)*c1 + c2)",
                    "b",
                    Some(|b| b.c(1) > 0 && b.c(2) <= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:132",
                Rule::when(
                    "min(((x + c0)/c1)*c1, x)",
                    "a",
                    Some(|b| b.c(1) > 0 && b.c(0) <= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:133",
                Rule::when(
                    "min(x, ((x + c0)/c1)*c1)",
                    "b",
                    Some(|b| b.c(1) > 0 && b.c(0) <= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:135",
                Rule::when("min(x, max(x, y) + c0)", "a", Some(|b| 0 <= b.c(0)), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:136",
                Rule::when("min(x, max(y, x) + c0)", "a", Some(|b| 0 <= b.c(0)), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:137",
                Rule::when("min(max(x, y) + c0, x)", "b", Some(|b| 0 <= b.c(0)), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:138",
                Rule::when("min(max(x, y) + c0, y)", "b", Some(|b| 0 <= b.c(0)), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:139",
                Rule::when("min(max(x, y + c0), y)", "b", Some(|b| 0 <= b.c(0)), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:142",
                Rule::when(
                    "min(max(c0 - x, x), c1)",
                    "b",
                    Some(|b| 2 * b.c(1) <= b.c(0) + 1),
                    When::NO_OVERFLOW | When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Min.cpp:143",
                Rule::when(
                    "min(max(x, c0 - x), c1)",
                    "b",
                    Some(|b| 2 * b.c(1) <= b.c(0) + 1),
                    When::NO_OVERFLOW | When::NO_OVERFLOW_INT,
                ),
            ),
            ("Simplify_Min.cpp:160", Rule::when("min(c0, c1)", "fold(min(c0, c1))", None, When::ALWAYS)),
            (
                "Simplify_Min.cpp:161",
                Rule::when("min(min(x, c0), c1)", "min(x, fold(min(c0, c1)))", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:162",
                Rule::when("min(min(x, c0), y)", "min(min(x, y), c0)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:163",
                Rule::when("min(min(x, y), min(x, z))", "min(min(y, z), x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:164",
                Rule::when("min(min(y, x), min(x, z))", "min(min(y, z), x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:165",
                Rule::when("min(min(x, y), min(z, x))", "min(min(y, z), x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:166",
                Rule::when("min(min(y, x), min(z, x))", "min(min(y, z), x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:167",
                Rule::when("min(min(x, y), min(z, w))", "min(min(min(x, y), z), w)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:170",
                Rule::when("min(max(x, y), max(x, z))", "max(x, min(y, z))", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:171",
                Rule::when("min(max(x, y), max(z, x))", "max(x, min(y, z))", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:172",
                Rule::when("min(max(y, x), max(x, z))", "max(min(y, z), x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:173",
                Rule::when("min(max(y, x), max(z, x))", "max(min(y, z), x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:174",
                Rule::when("min(max(min(x, y), z), y)", "min(max(x, z), y)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:175",
                Rule::when("min(max(min(y, x), z), y)", "min(y, max(x, z))", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:176",
                Rule::when("min(min(x, c0), c1)", "min(x, fold(min(c0, c1)))", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:178",
                Rule::when(
                    "min(min(x/c0, y), z/c0)",
                    "min(min(x, z)/c0, y)",
                    Some(|b| b.c(0) > 0),
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Min.cpp:181",
                Rule::when(
                    "min(max(x, c0), c1)",
                    "max(min(x, c1), c0)",
                    Some(|b| b.c(0) <= b.c(1)),
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Min.cpp:183",
                Rule::when(
                    "min(x, select(x == c0, c1, x))",
                    "select(x == c0, c1, x)",
                    Some(|b| b.c(1) < b.c(0)),
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Min.cpp:184",
                Rule::when("min(x, select(x == c0, c1, x))", "x", Some(|b| b.c(0) <= b.c(1)), When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:185",
                Rule::when(
                    "min(select(x == c0, c1, x), c2)",
                    "min(x, c2)",
                    Some(|b| (b.c(2) <= b.c(0)) && (b.c(2) <= b.c(1))),
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Min.cpp:186",
                Rule::when(
                    "min(select(x == c0, c1, x), x)",
                    "select(x == c0, c1, x)",
                    Some(|b| b.c(1) < b.c(0)),
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Min.cpp:187",
                Rule::when("min(select(x == c0, c1, x), x)", "x", Some(|b| b.c(0) <= b.c(1)), When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:189",
                Rule::when("min(x, min(y, max(x, z)))", "min(y, x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:190",
                Rule::when("min(x, min(y, max(z, x)))", "min(y, x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:191",
                Rule::when("min(x, min(max(x, y), z))", "min(x, z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:192",
                Rule::when("min(x, min(max(y, x), z))", "min(x, z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:193",
                Rule::when("min(min(x, max(y, z)), y)", "min(x, y)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:194",
                Rule::when("min(min(x, max(y, z)), z)", "min(x, z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:195",
                Rule::when("min(min(max(x, y), z), x)", "min(z, x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:196",
                Rule::when("min(min(max(x, y), z), y)", "min(z, y)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:198",
                Rule::when("min(select(x, max(y, z), w), z)", "select(x, z, min(w, z))", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:199",
                Rule::when("min(select(x, max(z, y), w), z)", "select(x, z, min(w, z))", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:200",
                Rule::when("min(z, select(x, max(y, z), w))", "select(x, z, min(z, w))", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:201",
                Rule::when("min(z, select(x, max(z, y), w))", "select(x, z, min(z, w))", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:202",
                Rule::when("min(select(x, y, max(w, z)), z)", "select(x, min(y, z), z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:203",
                Rule::when("min(select(x, y, max(z, w)), z)", "select(x, min(y, z), z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:204",
                Rule::when("min(z, select(x, y, max(w, z)))", "select(x, min(z, y), z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:205",
                Rule::when("min(z, select(x, y, max(z, w)))", "select(x, min(z, y), z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:207",
                Rule::when(
                    "min(select(x, y, z), select(x, w, u))",
                    "select(x, min(y, w), min(z, u))",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Min.cpp:208",
                Rule::when("min(select(x, min(z, y), w), y)", "min(select(x, z, w), y)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:209",
                Rule::when("min(select(x, min(z, y), w), z)", "min(select(x, y, w), z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:210",
                Rule::when("min(select(x, w, min(z, y)), y)", "min(select(x, w, z), y)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:211",
                Rule::when("min(select(x, w, min(z, y)), z)", "min(select(x, w, y), z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Min.cpp:221",
                Rule::when(
                    "min(min(x, y) + c0, x)",
                    "min(x, y + c0)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:222",
                Rule::when(
                    "min(min(x, y) + c0, x)",
                    "min(x, y) + c0",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:223",
                Rule::when(
                    "min(min(y, x) + c0, x)",
                    "min(y + c0, x)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:224",
                Rule::when(
                    "min(min(y, x) + c0, x)",
                    "min(y, x) + c0",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:226",
                Rule::when(
                    "min(x, min(x, y) + c0)",
                    "min(x, y + c0)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:227",
                Rule::when(
                    "min(x, min(x, y) + c0)",
                    "min(x, y) + c0",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:228",
                Rule::when(
                    "min(x, min(y, x) + c0)",
                    "min(x, y + c0)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:229",
                Rule::when(
                    "min(x, min(y, x) + c0)",
                    "min(x, y) + c0",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:231",
                Rule::when("min(x + c0, c1)", "min(x, fold(c1 - c0)) + c0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:233",
                Rule::when(
                    "min(x + c0, y + c1)",
                    "min(x, y + fold(c1 - c0)) + c0",
                    Some(|b| b.c(1) > b.c(0)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:234",
                Rule::when(
                    "min(x + c0, y + c1)",
                    "min(x + fold(c0 - c1), y) + c1",
                    Some(|b| b.c(0) > b.c(1)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:236",
                Rule::when("min(min(x, y), x + c0)", "min(x, y)", Some(|b| b.c(0) > 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:237",
                Rule::when(
                    "min(min(x, y), x + c0)",
                    "min(x + c0, y)",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:238",
                Rule::when("min(min(y, x), x + c0)", "min(y, x)", Some(|b| b.c(0) > 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:239",
                Rule::when(
                    "min(min(y, x), x + c0)",
                    "min(y, x + c0)",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:241",
                Rule::when("min(max(x + c0, y), x)", "x", Some(|b| b.c(0) > 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:243",
                Rule::when("min(x + y, x + z)", "x + min(y, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:244",
                Rule::when("min(x + y, z + x)", "x + min(y, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:245",
                Rule::when("min(y + x, x + z)", "min(y, z) + x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:246",
                Rule::when("min(y + x, z + x)", "min(y, z) + x", None, When::NO_OVERFLOW),
            ),
            ("Simplify_Min.cpp:247", Rule::when("min(x, x + z)", "x + min(z, 0)", None, When::NO_OVERFLOW)),
            ("Simplify_Min.cpp:248", Rule::when("min(x, z + x)", "x + min(z, 0)", None, When::NO_OVERFLOW)),
            ("Simplify_Min.cpp:249", Rule::when("min(y + x, x)", "min(y, 0) + x", None, When::NO_OVERFLOW)),
            ("Simplify_Min.cpp:250", Rule::when("min(x + y, x)", "x + min(y, 0)", None, When::NO_OVERFLOW)),
            (
                "Simplify_Min.cpp:252",
                Rule::when(
                    "min((x*c0 + y)*c1, x*c2 + z)",
                    "min(y*c1, z) + x*c2",
                    Some(|b| b.c(0) * b.c(1) == b.c(2)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:253",
                Rule::when(
                    "min((y + x*c0)*c1, x*c2 + z)",
                    "min(y*c1, z) + x*c2",
                    Some(|b| b.c(0) * b.c(1) == b.c(2)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:254",
                Rule::when(
                    "min((x*c0 + y)*c1, z + x*c2)",
                    "min(y*c1, z) + x*c2",
                    Some(|b| b.c(0) * b.c(1) == b.c(2)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:255",
                Rule::when(
                    "min((y + x*c0)*c1, z + x*c2)",
                    "min(y*c1, z) + x*c2",
                    Some(|b| b.c(0) * b.c(1) == b.c(2)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:257",
                Rule::when("min(min(x + y, z), x + w)", "min(x + min(y, w), z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:258",
                Rule::when("min(min(z, x + y), x + w)", "min(x + min(y, w), z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:259",
                Rule::when("min(min(x + y, z), w + x)", "min(x + min(y, w), z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:260",
                Rule::when("min(min(z, x + y), w + x)", "min(x + min(y, w), z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:262",
                Rule::when("min(min(y + x, z), x + w)", "min(min(y, w) + x, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:263",
                Rule::when("min(min(z, y + x), x + w)", "min(min(y, w) + x, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:264",
                Rule::when("min(min(y + x, z), w + x)", "min(min(y, w) + x, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:265",
                Rule::when("min(min(z, y + x), w + x)", "min(min(y, w) + x, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:267",
                Rule::when("min((x + w) + y, x + z)", "x + min(w + y, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:268",
                Rule::when("min((w + x) + y, x + z)", "min(w + y, z) + x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:269",
                Rule::when("min((x + w) + y, z + x)", "x + min(w + y, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:270",
                Rule::when("min((w + x) + y, z + x)", "min(w + y, z) + x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:271",
                Rule::when("min((x + w) + y, x)", "x + min(w + y, 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:272",
                Rule::when("min((w + x) + y, x)", "x + min(w + y, 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:273",
                Rule::when("min(x + y, (w + x) + z)", "x + min(w + z, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:274",
                Rule::when("min(x + y, (x + w) + z)", "x + min(w + z, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:275",
                Rule::when("min(y + x, (w + x) + z)", "min(w + z, y) + x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:276",
                Rule::when("min(y + x, (x + w) + z)", "min(w + z, y) + x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:277",
                Rule::when("min(x, (w + x) + z)", "x + min(w + z, 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:278",
                Rule::when("min(x, (x + w) + z)", "x + min(w + z, 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:280",
                Rule::when("min(y - x, z - x)", "min(y, z) - x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:281",
                Rule::when("min(x - y, x - z)", "x - max(y, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:282",
                Rule::when("min(x - y, (z - y) + w)", "min(x, z + w) - y", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:283",
                Rule::when("min(x - y, w + (z - y))", "min(x, w + z) - y", None, When::NO_OVERFLOW),
            ),
            ("Simplify_Min.cpp:285", Rule::when("min(x, x - y)", "x - max(y, 0)", None, When::NO_OVERFLOW)),
            ("Simplify_Min.cpp:286", Rule::when("min(x - y, x)", "x - max(y, 0)", None, When::NO_OVERFLOW)),
            (
                "Simplify_Min.cpp:287",
                Rule::when("min(x, (x - y) + z)", "x + min(z - y, 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:288",
                Rule::when("min(x, z + (x - y))", "x + min(z - y, 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:289",
                Rule::when("min(x, (x - y) - z)", "x - max(y + z, 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:290",
                Rule::when("min((x - y) + z, x)", "min(z - y, 0) + x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:291",
                Rule::when("min(z + (x - y), x)", "min(z - y, 0) + x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:292",
                Rule::when("min((x - y) - z, x)", "x - max(y + z, 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:294",
                Rule::when(
                    "min(x*c0, c1)",
                    "min(x, fold(c1/c0))*c0",
                    Some(|b| b.c(0) > 0 && rem(b.c(1), b.c(0)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:295",
                Rule::when(
                    "min(x*c0, c1)",
                    "max(x, fold(c1/c0))*c0",
                    Some(|b| b.c(0) < 0 && rem(b.c(1), b.c(0)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:297",
                Rule::when(
                    "min(x*c0, y*c1)",
                    "min(x, y*fold(c1/c0))*c0",
                    Some(|b| b.c(0) > 0 && rem(b.c(1), b.c(0)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:298",
                Rule::when(
                    "min(x*c0, y*c1)",
                    "max(x, y*fold(c1/c0))*c0",
                    Some(|b| b.c(0) < 0 && rem(b.c(1), b.c(0)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:299",
                Rule::when(
                    "min(x*c0, y*c1)",
                    "min(x*fold(c0/c1), y)*c1",
                    Some(|b| b.c(1) > 0 && rem(b.c(0), b.c(1)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:300",
                Rule::when(
                    "min(x*c0, y*c1)",
                    "max(x*fold(c0/c1), y)*c1",
                    Some(|b| b.c(1) < 0 && rem(b.c(0), b.c(1)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:301",
                Rule::when(
                    "min(x*c0, y*c0 + c1)",
                    "min(x, y + fold(c1/c0))*c0",
                    Some(|b| b.c(0) > 0 && rem(b.c(1), b.c(0)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:302",
                Rule::when(
                    "min(x*c0, y*c0 + c1)",
                    "max(x, y + fold(c1/c0))*c0",
                    Some(|b| b.c(0) < 0 && rem(b.c(1), b.c(0)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:304",
                Rule::when("min(x/c0, y/c0)", "min(x, y)/c0", Some(|b| b.c(0) > 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:305",
                Rule::when("min(x/c0, y/c0)", "max(x, y)/c0", Some(|b| b.c(0) < 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:312",
                Rule::when(
                    "min(x/c0, y/c0 + c1)",
                    "min(x, y + fold(c1*c0))/c0",
                    Some(|b| b.c(0) > 0 && b.product_fits(1, 0)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:313",
                Rule::when(
                    "min(x/c0, y/c0 + c1)",
                    "max(x, y + fold(c1*c0))/c0",
                    Some(|b| b.c(0) < 0 && b.product_fits(1, 0)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:315",
                Rule::when(
                    "min(((x + c0)/c1)*c1, x + c2)",
                    "x + c2",
                    Some(|b| b.c(1) > 0 && b.c(0) + 1 >= b.c(1) + b.c(2)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:317",
                Rule::when("min(c0 - x, c1)", "c0 - max(x, fold(c0 - c1))", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Min.cpp:320",
                Rule::when(
                    "min((min(((y + c0)/c1), x)*c1), y + c2)",
                    "min(x*c1, y + c2)",
                    Some(|b| b.c(1) > 0 && b.c(1) + b.c(2) <= b.c(0) + 1),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:321",
                Rule::when(
                    "min((min(((y + c0)/c1), x)*c1) + c2, y)",
                    "min(x*c1 + c2, y)",
                    Some(|b| b.c(1) > 0 && b.c(1) <= b.c(0) + b.c(2) + 1),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:322",
                Rule::when(
                    "min(min(((y + c0)/c1), x)*c1, y)",
                    "min(x*c1, y)",
                    Some(|b| b.c(1) > 0 && b.c(1) <= b.c(0) + 1),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:324",
                Rule::when(
                    "min((x + c0)/c1, ((x + c2)/c3)*c4)",
                    "(x + c0)/c1",
                    Some(|b| {
                        b.c(0) + b.c(3) - b.c(1) <= b.c(2)
                            && b.c(1) > 0
                            && b.c(3) > 0
                            && b.c(1) * b.c(4) == b.c(3)
                    }),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:325",
                Rule::when(
                    "min((x + c0)/c1, ((x + c2)/c3)*c4)",
                    "((x + c2)/c3)*c4",
                    Some(|b| b.c(2) <= b.c(0) && b.c(1) > 0 && b.c(3) > 0 && b.c(1) * b.c(4) == b.c(3)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:326",
                Rule::when(
                    "min(x/c1, ((x + c2)/c3)*c4)",
                    "x/c1",
                    Some(|b| {
                        b.c(3) - b.c(1) <= b.c(2) && b.c(1) > 0 && b.c(3) > 0 && b.c(1) * b.c(4) == b.c(3)
                    }),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:327",
                Rule::when(
                    "min(x/c1, ((x + c2)/c3)*c4)",
                    "((x + c2)/c3)*c4",
                    Some(|b| b.c(2) <= 0 && b.c(1) > 0 && b.c(3) > 0 && b.c(1) * b.c(4) == b.c(3)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:328",
                Rule::when(
                    "min((x + c0)/c1, (x/c3)*c4)",
                    "(x + c0)/c1",
                    Some(|b| {
                        b.c(0) + b.c(3) - b.c(1) <= 0 && b.c(1) > 0 && b.c(3) > 0 && b.c(1) * b.c(4) == b.c(3)
                    }),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:329",
                Rule::when(
                    "min((x + c0)/c1, (x/c3)*c4)",
                    "(x/c3)*c4",
                    Some(|b| 0 <= b.c(0) && b.c(1) > 0 && b.c(3) > 0 && b.c(1) * b.c(4) == b.c(3)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Min.cpp:330",
                Rule::when(
                    "min(x/c1, (x/c3)*c4)",
                    "(x/c3)*c4",
                    Some(|b| b.c(1) > 0 && b.c(3) > 0 && b.c(1) * b.c(4) == b.c(3)),
                    When::NO_OVERFLOW,
                ),
            ),
        ])
    })
}
