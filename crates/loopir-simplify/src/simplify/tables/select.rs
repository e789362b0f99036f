//! The reference's rules for `select` (`src/Simplify_Select.cpp`), in its order, each named
//! after the line of that file it was taken from: those that hold for every type, those
//! for types whose arithmetic does not overflow, and those for boolean values.

use loopir::constant;
use std::sync::OnceLock;

use crate::simplify::pattern::{Guard, Rule, RuleTable};

/// The three lists of select rules.
pub(in crate::simplify) struct SelectRules {
    /// Rules for every type.
    pub general: RuleTable,
    /// Rules for Int(32) and Int(64), whose arithmetic does not overflow.
    pub no_overflow_int: RuleTable,
    /// Rules for boolean values.
    pub boolean: RuleTable,
}

/// The rules, in the reference's order.
pub(in crate::simplify) fn select_rules() -> &'static SelectRules {
    static RULES: OnceLock<SelectRules> = OnceLock::new();
    super::build_once(&RULES, || {
        let r = |l: &str, rr: &str| Rule::new(l, rr, None);
        let g = |l: &str, rr: &str, guard: Guard| Rule::new(l, rr, Some(guard));
        let not_const_y: Guard = |b| b.wild(1).is_some_and(|y| !constant::is_const(y));
        let general = RuleTable::named([
            ("Simplify_Select.cpp:46", r("select(x != y, z, w)", "select(x == y, w, z)")),
            ("Simplify_Select.cpp:47", r("select(x <= y, z, w)", "select(y < x, w, z)")),
            ("Simplify_Select.cpp:48", r("select(x, select(y, z, w), z)", "select(x && !y, w, z)")),
            ("Simplify_Select.cpp:49", r("select(x, select(y, z, w), w)", "select(x && y, z, w)")),
            ("Simplify_Select.cpp:50", r("select(x, y, select(z, y, w))", "select(x || z, y, w)")),
            ("Simplify_Select.cpp:51", r("select(x, y, select(z, w, y))", "select(x || !z, y, w)")),
            ("Simplify_Select.cpp:52", r("select(x, select(x, y, z), w)", "select(x, y, w)")),
            ("Simplify_Select.cpp:53", r("select(x, y, select(x, z, w))", "select(x, y, w)")),
            ("Simplify_Select.cpp:54", r("select(x, y + z, y + w)", "y + select(x, z, w)")),
            ("Simplify_Select.cpp:55", r("select(x, y + z, w + y)", "y + select(x, z, w)")),
            ("Simplify_Select.cpp:56", r("select(x, z + y, y + w)", "y + select(x, z, w)")),
            ("Simplify_Select.cpp:57", r("select(x, z + y, w + y)", "select(x, z, w) + y")),
            ("Simplify_Select.cpp:58", r("select(x, y - z, y - w)", "y - select(x, z, w)")),
            ("Simplify_Select.cpp:59", r("select(x, y - z, y + w)", "y + select(x, 0 - z, w)")),
            ("Simplify_Select.cpp:60", r("select(x, y + z, y - w)", "y + select(x, z, 0 - w)")),
            ("Simplify_Select.cpp:61", r("select(x, y - z, w + y)", "y + select(x, 0 - z, w)")),
            ("Simplify_Select.cpp:62", r("select(x, z + y, y - w)", "y + select(x, z, 0 - w)")),
            ("Simplify_Select.cpp:63", r("select(x, z - y, w - y)", "select(x, z, w) - y")),
            ("Simplify_Select.cpp:64", r("select(x, y*z, y*w)", "y*select(x, z, w)")),
            ("Simplify_Select.cpp:65", r("select(x, y*z, w*y)", "y*select(x, z, w)")),
            ("Simplify_Select.cpp:66", r("select(x, z*y, y*w)", "y*select(x, z, w)")),
            ("Simplify_Select.cpp:67", r("select(x, z*y, w*y)", "select(x, z, w)*y")),
            ("Simplify_Select.cpp:68", r("select(x, 0 - y*z, y*w)", "y*select(x, 0 - z, w)")),
            ("Simplify_Select.cpp:69", r("select(x, 0 - y*z, w*y)", "y*select(x, 0 - z, w)")),
            ("Simplify_Select.cpp:70", r("select(x, 0 - z*y, y*w)", "y*select(x, 0 - z, w)")),
            ("Simplify_Select.cpp:71", r("select(x, 0 - z*y, w*y)", "select(x, 0 - z, w)*y")),
            ("Simplify_Select.cpp:72", r("select(x, y*z, 0 - y*w)", "y*select(x, z, 0 - w)")),
            ("Simplify_Select.cpp:73", r("select(x, y*z, 0 - w*y)", "y*select(x, z, 0 - w)")),
            ("Simplify_Select.cpp:74", r("select(x, z*y, 0 - y*w)", "y*select(x, z, 0 - w)")),
            ("Simplify_Select.cpp:75", r("select(x, z*y, 0 - w*y)", "select(x, z, 0 - w)*y")),
            ("Simplify_Select.cpp:77", r("select(x, z/y, w/y)", "select(x, z, w)/y")),
            ("Simplify_Select.cpp:78", r("select(x, z % y, w % y)", "select(x, z, w) % y")),
            ("Simplify_Select.cpp:80", r("select(x, (y + z) + u, y + w)", "y + select(x, z + u, w)")),
            ("Simplify_Select.cpp:81", r("select(x, (y + z) - u, y + w)", "y + select(x, z - u, w)")),
            ("Simplify_Select.cpp:82", r("select(x, u + (y + z), y + w)", "y + select(x, u + z, w)")),
            ("Simplify_Select.cpp:83", r("select(x, y + z, (y + w) + u)", "y + select(x, z, w + u)")),
            ("Simplify_Select.cpp:84", r("select(x, y + z, (y + w) - u)", "y + select(x, z, w - u)")),
            ("Simplify_Select.cpp:85", r("select(x, y + z, u + (y + w))", "y + select(x, z, u + w)")),
            ("Simplify_Select.cpp:87", r("select(x, (y + z) + u, w + y)", "y + select(x, z + u, w)")),
            ("Simplify_Select.cpp:88", r("select(x, (y + z) - u, w + y)", "y + select(x, z - u, w)")),
            ("Simplify_Select.cpp:89", r("select(x, u + (y + z), w + y)", "y + select(x, u + z, w)")),
            ("Simplify_Select.cpp:90", r("select(x, y + z, (w + y) + u)", "y + select(x, z, w + u)")),
            ("Simplify_Select.cpp:91", r("select(x, y + z, (w + y) - u)", "y + select(x, z, w - u)")),
            ("Simplify_Select.cpp:92", r("select(x, y + z, u + (w + y))", "y + select(x, z, u + w)")),
            ("Simplify_Select.cpp:94", r("select(x, (z + y) + u, y + w)", "y + select(x, z + u, w)")),
            ("Simplify_Select.cpp:95", r("select(x, (z + y) - u, y + w)", "y + select(x, z - u, w)")),
            ("Simplify_Select.cpp:96", r("select(x, u + (z + y), y + w)", "y + select(x, u + z, w)")),
            ("Simplify_Select.cpp:97", r("select(x, z + y, (y + w) + u)", "y + select(x, z, w + u)")),
            ("Simplify_Select.cpp:98", r("select(x, z + y, (y + w) - u)", "y + select(x, z, w - u)")),
            ("Simplify_Select.cpp:99", r("select(x, z + y, u + (y + w))", "y + select(x, z, u + w)")),
            ("Simplify_Select.cpp:101", r("select(x, (z + y) + u, w + y)", "select(x, z + u, w) + y")),
            ("Simplify_Select.cpp:102", r("select(x, (z + y) - u, w + y)", "select(x, z - u, w) + y")),
            ("Simplify_Select.cpp:103", r("select(x, u + (z + y), w + y)", "select(x, u + z, w) + y")),
            ("Simplify_Select.cpp:104", r("select(x, z + y, (w + y) + u)", "select(x, z, w + u) + y")),
            ("Simplify_Select.cpp:105", r("select(x, z + y, (w + y) - u)", "select(x, z, w - u) + y")),
            ("Simplify_Select.cpp:106", r("select(x, z + y, u + (w + y))", "select(x, z, u + w) + y")),
            ("Simplify_Select.cpp:107", r("select(x, y + (z - w), u - w)", "select(x, y + z, u) - w")),
            ("Simplify_Select.cpp:108", r("select(x, (y - z) + w, u - z)", "select(x, w + y, u) - z")),
            ("Simplify_Select.cpp:110", r("select(x, (y + z) + u, y)", "y + select(x, z + u, 0)")),
            ("Simplify_Select.cpp:111", r("select(x, (z + y) + u, y)", "y + select(x, z + u, 0)")),
            ("Simplify_Select.cpp:112", r("select(x, (y + z) - u, y)", "y + select(x, z - u, 0)")),
            ("Simplify_Select.cpp:113", r("select(x, (z + y) - u, y)", "y + select(x, z - u, 0)")),
            ("Simplify_Select.cpp:114", r("select(x, u + (y + z), y)", "y + select(x, u + z, 0)")),
            ("Simplify_Select.cpp:115", r("select(x, u + (z + y), y)", "y + select(x, u + z, 0)")),
            ("Simplify_Select.cpp:117", r("select(x, y, (y + z) + u)", "y + select(x, 0, z + u)")),
            ("Simplify_Select.cpp:118", r("select(x, y, (z + y) + u)", "y + select(x, 0, z + u)")),
            ("Simplify_Select.cpp:119", r("select(x, y, (y + z) - u)", "y + select(x, 0, z - u)")),
            ("Simplify_Select.cpp:120", r("select(x, y, (z + y) - u)", "y + select(x, 0, z - u)")),
            ("Simplify_Select.cpp:121", r("select(x, y, u + (y + z))", "y + select(x, 0, u + z)")),
            ("Simplify_Select.cpp:122", r("select(x, y, u + (z + y))", "y + select(x, 0, u + z)")),
            (
                "Simplify_Select.cpp:124",
                r("select(x, (y + z) + w, (u + y) + v)", "y + select(x, z + w, u + v)"),
            ),
            (
                "Simplify_Select.cpp:125",
                r("select(x, (y - z) + w, (u + y) + v)", "y + select(x, w - z, u + v)"),
            ),
            (
                "Simplify_Select.cpp:127",
                r("select(x, y + (z + w), u + (v + w))", "w + select(x, z + y, u + v)"),
            ),
            (
                "Simplify_Select.cpp:128",
                r("select(x, y + (z + w), u + (v + z))", "z + select(x, y + w, u + v)"),
            ),
            (
                "Simplify_Select.cpp:129",
                r("select(x, y + (z + w), u + (w + v))", "w + select(x, z + y, u + v)"),
            ),
            (
                "Simplify_Select.cpp:130",
                r("select(x, y + (z + w), u + (z + v))", "z + select(x, y + w, u + v)"),
            ),
            (
                "Simplify_Select.cpp:131",
                r("select(x, y + (z + w), (u + w) + v)", "w + select(x, z + y, u + v)"),
            ),
            (
                "Simplify_Select.cpp:132",
                r("select(x, y + (z + w), (u + z) + v)", "z + select(x, y + w, u + v)"),
            ),
            (
                "Simplify_Select.cpp:133",
                r("select(x, y + (z + w), (w + u) + v)", "w + select(x, z + y, v + u)"),
            ),
            (
                "Simplify_Select.cpp:134",
                r("select(x, y + (z + w), (z + u) + v)", "z + select(x, y + w, v + u)"),
            ),
            (
                "Simplify_Select.cpp:135",
                r("select(x, (y + z) + w, u + (v + y))", "y + select(x, z + w, u + v)"),
            ),
            (
                "Simplify_Select.cpp:136",
                r("select(x, (y + z) + w, u + (v + z))", "z + select(x, y + w, u + v)"),
            ),
            (
                "Simplify_Select.cpp:137",
                r("select(x, (y + z) + w, u + (y + v))", "y + select(x, z + w, u + v)"),
            ),
            (
                "Simplify_Select.cpp:138",
                r("select(x, (y + z) + w, u + (z + v))", "z + select(x, y + w, u + v)"),
            ),
            (
                "Simplify_Select.cpp:139",
                r("select(x, (y + z) + w, (u + y) + v)", "y + select(x, z + w, u + v)"),
            ),
            (
                "Simplify_Select.cpp:140",
                r("select(x, (y + z) + w, (u + z) + v)", "z + select(x, y + w, u + v)"),
            ),
            (
                "Simplify_Select.cpp:141",
                r("select(x, (y + z) + w, (y + u) + v)", "y + select(x, z + w, v + u)"),
            ),
            (
                "Simplify_Select.cpp:142",
                r("select(x, (y + z) + w, (z + u) + v)", "z + select(x, y + w, v + u)"),
            ),
            (
                "Simplify_Select.cpp:144",
                r("select(x, select(y, z, w), select(y, u, w))", "select(y, select(x, z, u), w)"),
            ),
            (
                "Simplify_Select.cpp:145",
                r("select(x, select(y, z, w), select(y, z, u))", "select(y, z, select(x, w, u))"),
            ),
            ("Simplify_Select.cpp:147", r("select(x < y, x, y)", "min(x, y)")),
            ("Simplify_Select.cpp:148", r("select(x < y, y, x)", "max(x, y)")),
            ("Simplify_Select.cpp:149", r("select(x < 0, x*y, 0)", "min(x, 0)*y")),
            ("Simplify_Select.cpp:150", r("select(x < 0, 0, x*y)", "max(x, 0)*y")),
            ("Simplify_Select.cpp:152", r("select(x, min(y, w), min(z, w))", "min(select(x, y, z), w)")),
            ("Simplify_Select.cpp:153", r("select(x, min(y, w), min(w, z))", "min(select(x, y, z), w)")),
            ("Simplify_Select.cpp:154", r("select(x, min(w, y), min(z, w))", "min(w, select(x, y, z))")),
            ("Simplify_Select.cpp:155", r("select(x, min(w, y), min(w, z))", "min(w, select(x, y, z))")),
            ("Simplify_Select.cpp:156", r("select(x, max(y, w), max(z, w))", "max(select(x, y, z), w)")),
            ("Simplify_Select.cpp:157", r("select(x, max(y, w), max(w, z))", "max(select(x, y, z), w)")),
            ("Simplify_Select.cpp:158", r("select(x, max(w, y), max(z, w))", "max(w, select(x, y, z))")),
            ("Simplify_Select.cpp:159", r("select(x, max(w, y), max(w, z))", "max(w, select(x, y, z))")),
            (
                "Simplify_Select.cpp:161",
                g("select(0 < x, min(x*c0, c1), x*c0)", "min(x*c0, c1)", |b| b.c(1) >= 0 && b.c(0) >= 0),
            ),
            ("Simplify_Select.cpp:162", g("select(x < c0, 0, min(x, c0) + c1)", "0", |b| b.c(0) == -b.c(1))),
            (
                "Simplify_Select.cpp:163",
                g("select(0 < x, ((x*c0) + c1)/x, y)", "select(0 < x, c0 - 1, y)", |b| b.c(1) == -1),
            ),
            (
                "Simplify_Select.cpp:165",
                r("select(x, select(y, z, min(w, z)), min(u, z))", "min(select(x, select(y, z, w), u), z)"),
            ),
            (
                "Simplify_Select.cpp:166",
                r("select(x, select(y, min(w, z), z), min(u, z))", "min(select(x, select(y, w, z), u), z)"),
            ),
            (
                "Simplify_Select.cpp:167",
                r("select(x, min(u, z), select(y, z, min(w, z)))", "min(select(x, u, select(y, z, w)), z)"),
            ),
            (
                "Simplify_Select.cpp:168",
                r("select(x, min(u, z), select(y, min(w, z), z))", "min(select(x, u, select(y, w, z)), z)"),
            ),
            (
                "Simplify_Select.cpp:169",
                r("select(x, select(y, z, min(w, z)), min(z, u))", "min(select(x, select(y, z, w), u), z)"),
            ),
            (
                "Simplify_Select.cpp:170",
                r("select(x, select(y, min(w, z), z), min(z, u))", "min(select(x, select(y, w, z), u), z)"),
            ),
            (
                "Simplify_Select.cpp:171",
                r("select(x, min(z, u), select(y, z, min(w, z)))", "min(select(x, u, select(y, z, w)), z)"),
            ),
            (
                "Simplify_Select.cpp:172",
                r("select(x, min(z, u), select(y, min(w, z), z))", "min(select(x, u, select(y, w, z)), z)"),
            ),
            (
                "Simplify_Select.cpp:173",
                r("select(x, select(y, z, min(z, w)), min(u, z))", "min(select(x, select(y, z, w), u), z)"),
            ),
            (
                "Simplify_Select.cpp:174",
                r("select(x, select(y, min(z, w), z), min(u, z))", "min(select(x, select(y, w, z), u), z)"),
            ),
            (
                "Simplify_Select.cpp:175",
                r("select(x, min(u, z), select(y, z, min(z, w)))", "min(select(x, u, select(y, z, w)), z)"),
            ),
            (
                "Simplify_Select.cpp:176",
                r("select(x, min(u, z), select(y, min(z, w), z))", "min(select(x, u, select(y, w, z)), z)"),
            ),
            (
                "Simplify_Select.cpp:177",
                r("select(x, select(y, z, min(z, w)), min(z, u))", "min(select(x, select(y, z, w), u), z)"),
            ),
            (
                "Simplify_Select.cpp:178",
                r("select(x, select(y, min(z, w), z), min(z, u))", "min(select(x, select(y, w, z), u), z)"),
            ),
            (
                "Simplify_Select.cpp:179",
                r("select(x, min(z, u), select(y, z, min(z, w)))", "min(select(x, u, select(y, z, w)), z)"),
            ),
            (
                "Simplify_Select.cpp:180",
                r("select(x, min(z, u), select(y, min(z, w), z))", "min(select(x, u, select(y, w, z)), z)"),
            ),
            (
                "Simplify_Select.cpp:182",
                r("select(x, select(y, z, max(w, z)), max(u, z))", "max(select(x, select(y, z, w), u), z)"),
            ),
            (
                "Simplify_Select.cpp:183",
                r("select(x, select(y, max(w, z), z), max(u, z))", "max(select(x, select(y, w, z), u), z)"),
            ),
            (
                "Simplify_Select.cpp:184",
                r("select(x, max(u, z), select(y, z, max(w, z)))", "max(select(x, u, select(y, z, w)), z)"),
            ),
            (
                "Simplify_Select.cpp:185",
                r("select(x, max(u, z), select(y, max(w, z), z))", "max(select(x, u, select(y, w, z)), z)"),
            ),
            (
                "Simplify_Select.cpp:186",
                r("select(x, select(y, z, max(w, z)), max(z, u))", "max(select(x, select(y, z, w), u), z)"),
            ),
            (
                "Simplify_Select.cpp:187",
                r("select(x, select(y, max(w, z), z), max(z, u))", "max(select(x, select(y, w, z), u), z)"),
            ),
            (
                "Simplify_Select.cpp:188",
                r("select(x, max(z, u), select(y, z, max(w, z)))", "max(select(x, u, select(y, z, w)), z)"),
            ),
            (
                "Simplify_Select.cpp:189",
                r("select(x, max(z, u), select(y, max(w, z), z))", "max(select(x, u, select(y, w, z)), z)"),
            ),
            (
                "Simplify_Select.cpp:190",
                r("select(x, select(y, z, max(z, w)), max(u, z))", "max(select(x, select(y, z, w), u), z)"),
            ),
            (
                "Simplify_Select.cpp:191",
                r("select(x, select(y, max(z, w), z), max(u, z))", "max(select(x, select(y, w, z), u), z)"),
            ),
            (
                "Simplify_Select.cpp:192",
                r("select(x, max(u, z), select(y, z, max(z, w)))", "max(select(x, u, select(y, z, w)), z)"),
            ),
            (
                "Simplify_Select.cpp:193",
                r("select(x, max(u, z), select(y, max(z, w), z))", "max(select(x, u, select(y, w, z)), z)"),
            ),
            (
                "Simplify_Select.cpp:194",
                r("select(x, select(y, z, max(z, w)), max(z, u))", "max(select(x, select(y, z, w), u), z)"),
            ),
            (
                "Simplify_Select.cpp:195",
                r("select(x, select(y, max(z, w), z), max(z, u))", "max(select(x, select(y, w, z), u), z)"),
            ),
            (
                "Simplify_Select.cpp:196",
                r("select(x, max(z, u), select(y, z, max(z, w)))", "max(select(x, u, select(y, z, w)), z)"),
            ),
            (
                "Simplify_Select.cpp:197",
                r("select(x, max(z, u), select(y, max(z, w), z))", "max(select(x, u, select(y, w, z)), z)"),
            ),
            ("Simplify_Select.cpp:203", r("select(x, y + z, y)", "y + select(x, z, 0)")),
            ("Simplify_Select.cpp:204", r("select(x, y, y + z)", "y + select(x, 0, z)")),
            ("Simplify_Select.cpp:206", g("select(x, y - z, y)", "y + select(x, 0 - z, 0)", not_const_y)),
            ("Simplify_Select.cpp:207", g("select(x, y, y - z)", "y + select(x, 0, 0 - z)", not_const_y)),
        ]);
        let no_overflow_int = RuleTable::named([
            (
                "Simplify_Select.cpp:210",
                g("select(x, y*c0, c1)", "select(x, y, fold(c1/c0))*c0", |b| {
                    b.c(0) != 0 && b.c(1) % b.c(0) == 0
                }),
            ),
            (
                "Simplify_Select.cpp:211",
                g("select(x, c0, y*c1)", "select(x, fold(c0/c1), y)*c1", |b| {
                    b.c(1) != 0 && b.c(0) % b.c(1) == 0
                }),
            ),
            ("Simplify_Select.cpp:212", r("select(x, y + c0, c1)", "select(x, y, fold(c1 - c0)) + c0")),
            (
                "Simplify_Select.cpp:215",
                g("select(c0 < x, x + c1, c2)", "max(x + c1, c2)", |b| {
                    b.c(2) == b.c(0) + b.c(1) || b.c(2) == b.c(0) + b.c(1) + 1
                }),
            ),
            (
                "Simplify_Select.cpp:216",
                g("select(x < c0, c1, x + c2)", "max(x + c2, c1)", |b| {
                    b.c(1) == b.c(0) + b.c(2) || b.c(1) + 1 == b.c(0) + b.c(2)
                }),
            ),
            (
                "Simplify_Select.cpp:217",
                g("select(c0 < x, c1, x + c2)", "min(x + c2, c1)", |b| {
                    b.c(1) == b.c(0) + b.c(2) || b.c(1) == b.c(0) + b.c(2) + 1
                }),
            ),
            (
                "Simplify_Select.cpp:218",
                g("select(x < c0, x + c1, c2)", "min(x + c1, c2)", |b| {
                    b.c(2) == b.c(0) + b.c(1) || b.c(2) + 1 == b.c(0) + b.c(1)
                }),
            ),
            ("Simplify_Select.cpp:220", g("select(c0 < x, x, c1)", "max(x, c1)", |b| b.c(1) == b.c(0) + 1)),
            ("Simplify_Select.cpp:221", g("select(x < c0, c1, x)", "max(x, c1)", |b| b.c(1) + 1 == b.c(0))),
            ("Simplify_Select.cpp:222", g("select(c0 < x, c1, x)", "min(x, c1)", |b| b.c(1) == b.c(0) + 1)),
            ("Simplify_Select.cpp:223", g("select(x < c0, x, c1)", "min(x, c1)", |b| b.c(1) + 1 == b.c(0))),
        ]);
        let boolean = RuleTable::named([
            ("Simplify_Select.cpp:226", r("select(x, true, false)", "x")),
            ("Simplify_Select.cpp:227", r("select(x, false, true)", "!x")),
            ("Simplify_Select.cpp:228", r("select(x, y, false)", "x && y")),
            ("Simplify_Select.cpp:229", r("select(x, y, true)", "!x || y")),
            ("Simplify_Select.cpp:230", r("select(x, false, y)", "!x && y")),
            ("Simplify_Select.cpp:231", r("select(x, true, y)", "x || y")),
        ]);
        SelectRules { general, no_overflow_int, boolean }
    })
}
