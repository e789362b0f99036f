//! The reference's rules for max (`src/Simplify_Max.cpp`), in its order, each named after the line
//! of that file it was taken from.

use std::sync::OnceLock;

use crate::simplify::pattern::{Rule, RuleTable, When, rem};

/// The rules, in the reference's order.
pub(in crate::simplify) fn max_rules() -> &'static RuleTable {
    static RULES: OnceLock<RuleTable> = OnceLock::new();
    super::build_once(&RULES, || {
        RuleTable::named([
            ("Simplify_Max.cpp:73", Rule::when("max(x, x)", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:74", Rule::when("max(x, c0)", "b", Some(|b| b.is_type_max(0)), When::ALWAYS)),
            ("Simplify_Max.cpp:75", Rule::when("max(x, c0)", "a", Some(|b| b.is_type_min(0)), When::ALWAYS)),
            ("Simplify_Max.cpp:76", Rule::when("max((x/c0)*c0, x)", "b", Some(|b| b.c(0) > 0), When::ALWAYS)),
            ("Simplify_Max.cpp:77", Rule::when("max(x, (x/c0)*c0)", "a", Some(|b| b.c(0) > 0), When::ALWAYS)),
            ("Simplify_Max.cpp:78", Rule::when("max(max(x, y), x)", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:79", Rule::when("max(max(x, y), y)", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:80", Rule::when("max(max(max(x, y), z), x)", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:81", Rule::when("max(max(max(x, y), z), y)", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:82", Rule::when("max(max(max(max(x, y), z), w), x)", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:83", Rule::when("max(max(max(max(x, y), z), w), y)", "a", None, When::ALWAYS)),
            (
                "Simplify_Max.cpp:84",
                Rule::when("max(max(max(max(max(x, y), z), w), u), x)", "a", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:85",
                Rule::when("max(max(max(max(max(x, y), z), w), u), y)", "a", None, When::ALWAYS),
            ),
            ("Simplify_Max.cpp:86", Rule::when("max(x, max(x, y))", "b", None, When::ALWAYS)),
            ("Simplify_Max.cpp:87", Rule::when("max(x, min(x, y))", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:88", Rule::when("max(x, max(y, x))", "b", None, When::ALWAYS)),
            ("Simplify_Max.cpp:89", Rule::when("max(x, min(y, x))", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:90", Rule::when("max(max(x, y), min(x, y))", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:91", Rule::when("max(max(x, y), min(y, x))", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:92", Rule::when("max(min(x, y), x)", "b", None, When::ALWAYS)),
            ("Simplify_Max.cpp:93", Rule::when("max(min(y, x), x)", "b", None, When::ALWAYS)),
            (
                "Simplify_Max.cpp:94",
                Rule::when("max(min(x, c0), c1)", "b", Some(|b| b.c(1) >= b.c(0)), When::ALWAYS),
            ),
            ("Simplify_Max.cpp:96", Rule::when("max(x, min(y, min(x, z)))", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:97", Rule::when("max(x, min(y, min(z, x)))", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:98", Rule::when("max(x, min(min(x, y), z))", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:99", Rule::when("max(x, min(min(y, x), z))", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:100", Rule::when("max(min(x, min(y, z)), y)", "b", None, When::ALWAYS)),
            ("Simplify_Max.cpp:101", Rule::when("max(min(x, min(y, z)), z)", "b", None, When::ALWAYS)),
            ("Simplify_Max.cpp:102", Rule::when("max(min(min(x, y), z), x)", "b", None, When::ALWAYS)),
            ("Simplify_Max.cpp:103", Rule::when("max(min(min(x, y), z), y)", "b", None, When::ALWAYS)),
            ("Simplify_Max.cpp:105", Rule::when("max(max(x, y), min(x, z))", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:106", Rule::when("max(max(x, y), min(y, z))", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:107", Rule::when("max(max(x, y), min(z, x))", "a", None, When::ALWAYS)),
            ("Simplify_Max.cpp:108", Rule::when("max(max(x, y), min(z, y))", "a", None, When::ALWAYS)),
            (
                "Simplify_Max.cpp:121",
                Rule::when(
                    "max(((x + c0)/c1)*c1 + c2, x)",
                    "a",
                    Some(|b| b.c(1) > 0 && b.c(0) + b.c(2) >= b.c(1) - 1),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:122",
                Rule::when(
                    "max(x, ((x + c0)/c1)*c1 + c2)",
                    "b",
                    Some(|b| b.c(1) > 0 && b.c(0) + b.c(2) >= b.c(1) - 1),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:123",
                Rule::when(
                    "max(((x + c0)/c1)*c1 + c2, x)",
                    "b",
                    Some(|b| b.c(1) > 0 && b.c(0) + b.c(2) <= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:124",
                Rule::when(
                    "max(x, ((x + c0)/c1)*c1 + c2)",
                    "a",
                    Some(|b| b.c(1) > 0 && b.c(0) + b.c(2) <= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:125",
                Rule::when(
                    "max((x/c0)*c0, (x/c1)*c1 + c2)",
                    "b",
                    Some(|b| b.c(2) >= b.c(1) && b.c(1) > 0 && b.c(0) != 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:127",
                Rule::when(
                    "max((x/c1)*c1 + c2, x)",
                    "a",
                    Some(|b| b.c(1) > 0 && b.c(2) >= b.c(1) - 1),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:128",
                Rule::when(
                    "max(x, (x/c1)*c1 + c2)",
                    "b",
                    Some(|b| b.c(1) > 0 && b.c(2) >= b.c(1) - 1),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:129",
                Rule::when(
                    "max(((x + c0)/c1)*c1, x)",
                    "a",
                    Some(|b| b.c(1) > 0 && b.c(0) >= b.c(1) - 1),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:130",
                Rule::when(
                    "max(x, ((x + c0)/c1)*c1)",
                    "b",
                    Some(|b| b.c(1) > 0 && b.c(0) >= b.c(1) - 1),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:131",
                Rule::when(
                    "max((x/c1)*c1 + c2, x)",
                    "b",
                    Some(|b| b.c(1) > 0 && b.c(2) <= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:132",
                Rule::when(
                    "max(x, (x/c1)*c1 + c2)",
                    "a",
                    Some(|b| b.c(1) > 0 && b.c(2) <= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:133",
                Rule::when(
                    "max(((x + c0)/c1)*c1, x)",
                    "b",
                    Some(|b| b.c(1) > 0 && b.c(0) <= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:134",
                Rule::when(
                    "max(x, ((x + c0)/c1)*c1)",
                    "a",
                    Some(|b| b.c(1) > 0 && b.c(0) <= 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:136",
                Rule::when("max(x, min(x, y) + c0)", "a", Some(|b| b.c(0) <= 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:137",
                Rule::when("max(x, min(y, x) + c0)", "a", Some(|b| b.c(0) <= 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:138",
                Rule::when("max(min(x, y) + c0, x)", "b", Some(|b| b.c(0) <= 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:139",
                Rule::when("max(min(x, y) + c0, y)", "b", Some(|b| b.c(0) <= 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:140",
                Rule::when("max(min(x, y + c0), y)", "b", Some(|b| b.c(0) <= 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:143",
                Rule::when(
                    "max(min(c0 - x, x), c1)",
                    "b",
                    Some(|b| 2 * b.c(1) >= b.c(0) - 1),
                    When::NO_OVERFLOW | When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Max.cpp:144",
                Rule::when(
                    "max(min(x, c0 - x), c1)",
                    "b",
                    Some(|b| 2 * b.c(1) >= b.c(0) - 1),
                    When::NO_OVERFLOW | When::NO_OVERFLOW_INT,
                ),
            ),
            ("Simplify_Max.cpp:162", Rule::when("max(c0, c1)", "fold(max(c0, c1))", None, When::ALWAYS)),
            (
                "Simplify_Max.cpp:163",
                Rule::when("max(max(x, c0), c1)", "max(x, fold(max(c0, c1)))", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:164",
                Rule::when("max(max(x, c0), y)", "max(max(x, y), c0)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:165",
                Rule::when("max(max(x, y), max(x, z))", "max(max(y, z), x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:166",
                Rule::when("max(max(y, x), max(x, z))", "max(max(y, z), x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:167",
                Rule::when("max(max(x, y), max(z, x))", "max(max(y, z), x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:168",
                Rule::when("max(max(y, x), max(z, x))", "max(max(y, z), x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:169",
                Rule::when("max(max(x, y), max(z, w))", "max(max(max(x, y), z), w)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:172",
                Rule::when("max(min(x, y), min(x, z))", "min(x, max(y, z))", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:173",
                Rule::when("max(min(x, y), min(z, x))", "min(x, max(y, z))", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:174",
                Rule::when("max(min(y, x), min(x, z))", "min(max(y, z), x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:175",
                Rule::when("max(min(y, x), min(z, x))", "min(max(y, z), x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:176",
                Rule::when("max(min(max(x, y), z), y)", "max(min(x, z), y)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:177",
                Rule::when("max(min(max(y, x), z), y)", "max(y, min(x, z))", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:178",
                Rule::when("max(max(x, c0), c1)", "max(x, fold(max(c0, c1)))", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:180",
                Rule::when(
                    "max(max(x/c0, y), z/c0)",
                    "max(max(x, z)/c0, y)",
                    Some(|b| b.c(0) > 0),
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Max.cpp:182",
                Rule::when(
                    "max(x, select(x == c0, c1, x))",
                    "select(x == c0, c1, x)",
                    Some(|b| b.c(0) < b.c(1)),
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Max.cpp:183",
                Rule::when("max(x, select(x == c0, c1, x))", "x", Some(|b| b.c(1) <= b.c(0)), When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:184",
                Rule::when(
                    "max(select(x == c0, c1, x), c2)",
                    "max(x, c2)",
                    Some(|b| (b.c(0) <= b.c(2)) && (b.c(1) <= b.c(2))),
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Max.cpp:185",
                Rule::when(
                    "max(select(x == c0, c1, x), x)",
                    "select(x == c0, c1, x)",
                    Some(|b| b.c(0) < b.c(1)),
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Max.cpp:186",
                Rule::when("max(select(x == c0, c1, x), x)", "x", Some(|b| b.c(1) <= b.c(0)), When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:188",
                Rule::when("max(max(x, min(y, z)), y)", "max(x, y)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:189",
                Rule::when("max(max(x, min(y, z)), z)", "max(x, z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:190",
                Rule::when("max(max(min(x, y), z), x)", "max(z, x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:191",
                Rule::when("max(max(min(x, y), z), y)", "max(z, y)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:192",
                Rule::when("max(x, max(y, min(x, z)))", "max(y, x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:193",
                Rule::when("max(x, max(y, min(z, x)))", "max(y, x)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:194",
                Rule::when("max(x, max(min(x, y), z))", "max(x, z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:195",
                Rule::when("max(x, max(min(y, x), z))", "max(x, z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:197",
                Rule::when("max(select(x, min(y, z), w), z)", "select(x, z, max(w, z))", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:198",
                Rule::when("max(select(x, min(z, y), w), z)", "select(x, z, max(w, z))", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:199",
                Rule::when("max(z, select(x, min(y, z), w))", "select(x, z, max(z, w))", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:200",
                Rule::when("max(z, select(x, min(z, y), w))", "select(x, z, max(z, w))", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:201",
                Rule::when("max(select(x, y, min(w, z)), z)", "select(x, max(y, z), z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:202",
                Rule::when("max(select(x, y, min(z, w)), z)", "select(x, max(y, z), z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:203",
                Rule::when("max(z, select(x, y, min(w, z)))", "select(x, max(z, y), z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:204",
                Rule::when("max(z, select(x, y, min(z, w)))", "select(x, max(z, y), z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:206",
                Rule::when(
                    "max(select(x, y, z), select(x, w, u))",
                    "select(x, max(y, w), max(z, u))",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Max.cpp:207",
                Rule::when("max(select(x, max(z, y), w), z)", "max(select(x, y, w), z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:208",
                Rule::when("max(select(x, max(z, y), w), y)", "max(select(x, z, w), y)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:209",
                Rule::when("max(select(x, w, max(z, y)), z)", "max(select(x, w, y), z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:210",
                Rule::when("max(select(x, w, max(z, y)), y)", "max(select(x, w, z), y)", None, When::ALWAYS),
            ),
            (
                "Simplify_Max.cpp:221",
                Rule::when(
                    "max(max(x, y) + c0, x)",
                    "max(x, y + c0)",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:222",
                Rule::when(
                    "max(max(x, y) + c0, x)",
                    "max(x, y) + c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:223",
                Rule::when(
                    "max(max(y, x) + c0, x)",
                    "max(y + c0, x)",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:224",
                Rule::when(
                    "max(max(y, x) + c0, x)",
                    "max(y, x) + c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:226",
                Rule::when(
                    "max(x, max(x, y) + c0)",
                    "max(x, y + c0)",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:227",
                Rule::when(
                    "max(x, max(x, y) + c0)",
                    "max(x, y) + c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:228",
                Rule::when(
                    "max(x, max(y, x) + c0)",
                    "max(x, y + c0)",
                    Some(|b| b.c(0) < 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:229",
                Rule::when(
                    "max(x, max(y, x) + c0)",
                    "max(x, y) + c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:231",
                Rule::when("max(x + c0, c1)", "max(x, fold(c1 - c0)) + c0", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:233",
                Rule::when(
                    "max(x + c0, y + c1)",
                    "max(x, y + fold(c1 - c0)) + c0",
                    Some(|b| b.c(1) > b.c(0)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:234",
                Rule::when(
                    "max(x + c0, y + c1)",
                    "max(x + fold(c0 - c1), y) + c1",
                    Some(|b| b.c(0) > b.c(1)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:236",
                Rule::when(
                    "max(max(x, y), x + c0)",
                    "max(x + c0, y)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:237",
                Rule::when("max(max(x, y), x + c0)", "max(x, y)", Some(|b| b.c(0) < 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:238",
                Rule::when(
                    "max(max(y, x), x + c0)",
                    "max(y, x + c0)",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:239",
                Rule::when("max(max(y, x), x + c0)", "max(y, x)", Some(|b| b.c(0) < 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:241",
                Rule::when("max(x + y, x + z)", "x + max(y, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:242",
                Rule::when("max(x + y, z + x)", "x + max(y, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:243",
                Rule::when("max(y + x, x + z)", "max(y, z) + x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:244",
                Rule::when("max(y + x, z + x)", "max(y, z) + x", None, When::NO_OVERFLOW),
            ),
            ("Simplify_Max.cpp:245", Rule::when("max(x, x + z)", "x + max(z, 0)", None, When::NO_OVERFLOW)),
            ("Simplify_Max.cpp:246", Rule::when("max(x, z + x)", "x + max(z, 0)", None, When::NO_OVERFLOW)),
            ("Simplify_Max.cpp:247", Rule::when("max(y + x, x)", "max(y, 0) + x", None, When::NO_OVERFLOW)),
            ("Simplify_Max.cpp:248", Rule::when("max(x + y, x)", "x + max(y, 0)", None, When::NO_OVERFLOW)),
            (
                "Simplify_Max.cpp:250",
                Rule::when(
                    "max((x*c0 + y)*c1, x*c2 + z)",
                    "max(y*c1, z) + x*c2",
                    Some(|b| b.c(0) * b.c(1) == b.c(2)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:251",
                Rule::when(
                    "max((y + x*c0)*c1, x*c2 + z)",
                    "max(y*c1, z) + x*c2",
                    Some(|b| b.c(0) * b.c(1) == b.c(2)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:252",
                Rule::when(
                    "max((x*c0 + y)*c1, z + x*c2)",
                    "max(y*c1, z) + x*c2",
                    Some(|b| b.c(0) * b.c(1) == b.c(2)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:253",
                Rule::when(
                    "max((y + x*c0)*c1, z + x*c2)",
                    "max(y*c1, z) + x*c2",
                    Some(|b| b.c(0) * b.c(1) == b.c(2)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:255",
                Rule::when("max(max(x + y, z), x + w)", "max(x + max(y, w), z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:256",
                Rule::when("max(max(z, x + y), x + w)", "max(x + max(y, w), z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:257",
                Rule::when("max(max(x + y, z), w + x)", "max(x + max(y, w), z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:258",
                Rule::when("max(max(z, x + y), w + x)", "max(x + max(y, w), z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:260",
                Rule::when("max(max(y + x, z), x + w)", "max(max(y, w) + x, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:261",
                Rule::when("max(max(z, y + x), x + w)", "max(max(y, w) + x, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:262",
                Rule::when("max(max(y + x, z), w + x)", "max(max(y, w) + x, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:263",
                Rule::when("max(max(z, y + x), w + x)", "max(max(y, w) + x, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:265",
                Rule::when("max((x + w) + y, x + z)", "x + max(w + y, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:266",
                Rule::when("max((w + x) + y, x + z)", "max(w + y, z) + x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:267",
                Rule::when("max((x + w) + y, z + x)", "x + max(w + y, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:268",
                Rule::when("max((w + x) + y, z + x)", "max(w + y, z) + x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:269",
                Rule::when("max((x + w) + y, x)", "x + max(w + y, 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:270",
                Rule::when("max((w + x) + y, x)", "x + max(w + y, 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:271",
                Rule::when("max(x + y, (w + x) + z)", "x + max(w + z, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:272",
                Rule::when("max(x + y, (x + w) + z)", "x + max(w + z, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:273",
                Rule::when("max(y + x, (w + x) + z)", "max(w + z, y) + x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:274",
                Rule::when("max(y + x, (x + w) + z)", "max(w + z, y) + x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:275",
                Rule::when("max(x, (w + x) + z)", "x + max(w + z, 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:276",
                Rule::when("max(x, (x + w) + z)", "x + max(w + z, 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:278",
                Rule::when("max(y - x, z - x)", "max(y, z) - x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:279",
                Rule::when("max(x - y, x - z)", "x - min(y, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:280",
                Rule::when("max(x - y, (z - y) + w)", "max(x, z + w) - y", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:281",
                Rule::when("max(x - y, w + (z - y))", "max(x, w + z) - y", None, When::NO_OVERFLOW),
            ),
            ("Simplify_Max.cpp:283", Rule::when("max(x, x - y)", "x - min(y, 0)", None, When::NO_OVERFLOW)),
            ("Simplify_Max.cpp:284", Rule::when("max(x - y, x)", "x - min(y, 0)", None, When::NO_OVERFLOW)),
            (
                "Simplify_Max.cpp:285",
                Rule::when("max(x, (x - y) + z)", "x + max(z - y, 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:286",
                Rule::when("max(x, z + (x - y))", "x + max(z - y, 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:287",
                Rule::when("max(x, (x - y) - z)", "x - min(y + z, 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:288",
                Rule::when("max((x - y) + z, x)", "max(z - y, 0) + x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:289",
                Rule::when("max(z + (x - y), x)", "max(z - y, 0) + x", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:290",
                Rule::when("max((x - y) - z, x)", "x - min(y + z, 0)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:292",
                Rule::when(
                    "max(x*c0, c1)",
                    "max(x, fold(c1/c0))*c0",
                    Some(|b| b.c(0) > 0 && rem(b.c(1), b.c(0)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:293",
                Rule::when(
                    "max(x*c0, c1)",
                    "min(x, fold(c1/c0))*c0",
                    Some(|b| b.c(0) < 0 && rem(b.c(1), b.c(0)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:295",
                Rule::when(
                    "max(x*c0, y*c1)",
                    "max(x, y*fold(c1/c0))*c0",
                    Some(|b| b.c(0) > 0 && rem(b.c(1), b.c(0)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:296",
                Rule::when(
                    "max(x*c0, y*c1)",
                    "min(x, y*fold(c1/c0))*c0",
                    Some(|b| b.c(0) < 0 && rem(b.c(1), b.c(0)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:297",
                Rule::when(
                    "max(x*c0, y*c1)",
                    "max(x*fold(c0/c1), y)*c1",
                    Some(|b| b.c(1) > 0 && rem(b.c(0), b.c(1)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:298",
                Rule::when(
                    "max(x*c0, y*c1)",
                    "min(x*fold(c0/c1), y)*c1",
                    Some(|b| b.c(1) < 0 && rem(b.c(0), b.c(1)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:299",
                Rule::when(
                    "max(x*c0, y*c0 + c1)",
                    "max(x, y + fold(c1/c0))*c0",
                    Some(|b| b.c(0) > 0 && rem(b.c(1), b.c(0)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:300",
                Rule::when(
                    "max(x*c0, y*c0 + c1)",
                    "min(x, y + fold(c1/c0))*c0",
                    Some(|b| b.c(0) < 0 && rem(b.c(1), b.c(0)) == 0),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:302",
                Rule::when("max(x/c0, y/c0)", "max(x, y)/c0", Some(|b| b.c(0) > 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:303",
                Rule::when("max(x/c0, y/c0)", "min(x, y)/c0", Some(|b| b.c(0) < 0), When::NO_OVERFLOW),
            ),
            (
                "Simplify_Max.cpp:310",
                Rule::when(
                    "max(x/c0, y/c0 + c1)",
                    "max(x, y + fold(c1*c0))/c0",
                    Some(|b| b.c(0) > 0 && b.product_fits(1, 0)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:311",
                Rule::when(
                    "max(x/c0, y/c0 + c1)",
                    "min(x, y + fold(c1*c0))/c0",
                    Some(|b| b.c(0) < 0 && b.product_fits(1, 0)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:313",
                Rule::when(
                    "max(((x + c0)/c1)*c1, x + c2)",
                    "((x + c0)/c1)*c1",
                    Some(|b| b.c(1) > 0 && b.c(0) + 1 >= b.c(1) + b.c(2)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:315",
                Rule::when(
                    "max((x + c0)/c1, ((x + c2)/c3)*c4)",
                    "(x + c0)/c1",
                    Some(|b| b.c(2) <= b.c(0) && b.c(1) > 0 && b.c(3) > 0 && b.c(1) * b.c(4) == b.c(3)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:316",
                Rule::when(
                    "max((x + c0)/c1, ((x + c2)/c3)*c4)",
                    "((x + c2)/c3)*c4",
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
                "Simplify_Max.cpp:317",
                Rule::when(
                    "max(x/c1, ((x + c2)/c3)*c4)",
                    "x/c1",
                    Some(|b| b.c(2) <= 0 && b.c(1) > 0 && b.c(3) > 0 && b.c(1) * b.c(4) == b.c(3)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:318",
                Rule::when(
                    "max(x/c1, ((x + c2)/c3)*c4)",
                    "((x + c2)/c3)*c4",
                    Some(|b| {
                        b.c(3) - b.c(1) <= b.c(2) && b.c(1) > 0 && b.c(3) > 0 && b.c(1) * b.c(4) == b.c(3)
                    }),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:319",
                Rule::when(
                    "max((x + c0)/c1, (x/c3)*c4)",
                    "(x + c0)/c1",
                    Some(|b| 0 <= b.c(0) && b.c(1) > 0 && b.c(3) > 0 && b.c(1) * b.c(4) == b.c(3)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:320",
                Rule::when(
                    "max((x + c0)/c1, (x/c3)*c4)",
                    "(x/c3)*c4",
                    Some(|b| {
                        b.c(0) + b.c(3) - b.c(1) <= 0 && b.c(1) > 0 && b.c(3) > 0 && b.c(1) * b.c(4) == b.c(3)
                    }),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:321",
                Rule::when(
                    "max(x/c1, (x/c3)*c4)",
                    "x/c1",
                    Some(|b| b.c(1) > 0 && b.c(3) > 0 && b.c(1) * b.c(4) == b.c(3)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Max.cpp:323",
                Rule::when("max(c0 - x, c1)", "c0 - min(x, fold(c0 - c1))", None, When::NO_OVERFLOW),
            ),
        ])
    })
}
