//! The reference's rules for `-` (`src/Simplify_Sub.cpp`), in its order, each named after the line
//! of that file it was taken from.

use loopir::constant;
use std::sync::OnceLock;

use crate::simplify::pattern::{Rule, RuleTable, When, rem};

/// The rules, in the reference's order.
pub(in crate::simplify) fn sub_rules() -> &'static RuleTable {
    static RULES: OnceLock<RuleTable> = OnceLock::new();
    super::build_once(&RULES, || {
        RuleTable::named([
            ("Simplify_Sub.cpp:25", Rule::when("x - 0", "a", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:38", Rule::when("c0 - c1", "fold(c0 - c1)", None, When::ALWAYS)),
            (
                "Simplify_Sub.cpp:39",
                Rule::when("x - c0", "x + fold(-c0)", Some(|b| b.fits(b.c(0).checked_neg())), When::NOT_UINT),
            ),
            ("Simplify_Sub.cpp:40", Rule::when("x - x", "0", None, When::ALWAYS)),
            (
                "Simplify_Sub.cpp:53",
                Rule::when(
                    "select(x, y, z) - select(x, w, u)",
                    "select(x, y - w, z - u)",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Sub.cpp:54",
                Rule::when("select(x, y, z) - y", "select(x, 0, z - y)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:55",
                Rule::when("select(x, y, z) - z", "select(x, y - z, 0)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:56",
                Rule::when("y - select(x, y, z)", "select(x, 0, y - z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:57",
                Rule::when("z - select(x, y, z)", "select(x, z - y, 0)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:59",
                Rule::when("select(x, y + w, z) - y", "select(x, w, z - y)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:60",
                Rule::when("select(x, w + y, z) - y", "select(x, w, z - y)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:61",
                Rule::when("select(x, y, z + w) - z", "select(x, y - z, w)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:62",
                Rule::when("select(x, y, w + z) - z", "select(x, y - z, w)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:63",
                Rule::when("select(x, y + (z + w), u) - w", "select(x, y + z, u - w)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:64",
                Rule::when("select(x, y + (z + w), u) - z", "select(x, y + w, u - z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:65",
                Rule::when("select(x, (y + z) + w, u) - y", "select(x, w + z, u - y)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:66",
                Rule::when("select(x, (y + z) + w, u) - z", "select(x, w + y, u - z)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:67",
                Rule::when("select(x, y + z, w) - (u + y)", "select(x, z, w - y) - u", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:68",
                Rule::when("select(x, y + z, w) - (u + z)", "select(x, y, w - z) - u", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:69",
                Rule::when("select(x, y + z, w) - (y + u)", "select(x, z, w - y) - u", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:70",
                Rule::when("select(x, y + z, w) - (z + u)", "select(x, y, w - z) - u", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:71",
                Rule::when("y - select(x, y + w, z)", "0 - select(x, w, z - y)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:72",
                Rule::when("y - select(x, w + y, z)", "0 - select(x, w, z - y)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:73",
                Rule::when("z - select(x, y, z + w)", "0 - select(x, y - z, w)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:74",
                Rule::when("z - select(x, y, w + z)", "0 - select(x, y - z, w)", None, When::ALWAYS),
            ),
            ("Simplify_Sub.cpp:76", Rule::when("(x + y) - x", "y", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:77", Rule::when("(x + y) - y", "x", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:78", Rule::when("x - (x + y)", "-y", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:79", Rule::when("y - (x + y)", "-x", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:80", Rule::when("(x - y) - x", "-y", None, When::ALWAYS)),
            (
                "Simplify_Sub.cpp:81",
                Rule::when(
                    "(select(x, y, z) + w) - select(x, u, v)",
                    "select(x, y - u, z - v) + w",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Sub.cpp:82",
                Rule::when(
                    "(w + select(x, y, z)) - select(x, u, v)",
                    "select(x, y - u, z - v) + w",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Sub.cpp:83",
                Rule::when(
                    "select(x, y, z) - (select(x, u, v) + w)",
                    "select(x, y - u, z - v) - w",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Sub.cpp:84",
                Rule::when(
                    "select(x, y, z) - (w + select(x, u, v))",
                    "select(x, y - u, z - v) - w",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Sub.cpp:85",
                Rule::when(
                    "(select(x, y, z) - w) - select(x, u, v)",
                    "select(x, y - u, z - v) - w",
                    None,
                    When::ALWAYS,
                ),
            ),
            (
                "Simplify_Sub.cpp:86",
                Rule::when(
                    "c0 - select(x, c1, c2)",
                    "select(x, fold(c0 - c1), fold(c0 - c2))",
                    None,
                    When::ALWAYS,
                ),
            ),
            ("Simplify_Sub.cpp:87", Rule::when("(x + c0) - c1", "x + fold(c0 - c1)", None, When::ALWAYS)),
            (
                "Simplify_Sub.cpp:88",
                Rule::when("(x + c0) - (c1 - y)", "(x + y) + fold(c0 - c1)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:89",
                Rule::when("(x + c0) - (y + c1)", "(x - y) + fold(c0 - c1)", None, When::ALWAYS),
            ),
            ("Simplify_Sub.cpp:90", Rule::when("(x + c0) - y", "(x - y) + c0", None, When::ALWAYS)),
            (
                "Simplify_Sub.cpp:91",
                Rule::when("(c0 - x) - (c1 - y)", "(y - x) + fold(c0 - c1)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:92",
                Rule::when("(c0 - x) - (y + c1)", "fold(c0 - c1) - (x + y)", None, When::ALWAYS),
            ),
            ("Simplify_Sub.cpp:93", Rule::when("x - (y - z)", "x + (z - y)", None, When::ALWAYS)),
            (
                "Simplify_Sub.cpp:94",
                Rule::when("x - y*c0", "x + y*fold(-c0)", Some(|b| b.c(0) < 0 && -b.c(0) > 0), When::ALWAYS),
            ),
            ("Simplify_Sub.cpp:95", Rule::when("x - (y + c0)", "(x - y) - c0", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:96", Rule::when("(c0 - x) - c1", "fold(c0 - c1) - x", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:97", Rule::when("x*y - z*y", "(x - z)*y", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:98", Rule::when("x*y - y*z", "(x - z)*y", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:99", Rule::when("y*x - z*y", "y*(x - z)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:100", Rule::when("y*x - y*z", "y*(x - z)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:101", Rule::when("(u + x*y) - z*y", "u + (x - z)*y", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:102", Rule::when("(u + x*y) - y*z", "u + (x - z)*y", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:103", Rule::when("(u + y*x) - z*y", "u + y*(x - z)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:104", Rule::when("(u + y*x) - y*z", "u + y*(x - z)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:105", Rule::when("(u - x*y) - z*y", "u - (x + z)*y", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:106", Rule::when("(u - x*y) - y*z", "u - (x + z)*y", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:107", Rule::when("(u - y*x) - z*y", "u - y*(x + z)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:108", Rule::when("(u - y*x) - y*z", "u - y*(x + z)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:109", Rule::when("(x*y + u) - z*y", "u + (x - z)*y", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:110", Rule::when("(x*y + u) - y*z", "u + (x - z)*y", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:111", Rule::when("(y*x + u) - z*y", "u + y*(x - z)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:112", Rule::when("(y*x + u) - y*z", "u + y*(x - z)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:113", Rule::when("(x*y - u) - z*y", "(x - z)*y - u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:114", Rule::when("(x*y - u) - y*z", "(x - z)*y - u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:115", Rule::when("(y*x - u) - z*y", "y*(x - z) - u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:116", Rule::when("(y*x - u) - y*z", "y*(x - z) - u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:117", Rule::when("x*y - (u + z*y)", "(x - z)*y - u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:118", Rule::when("x*y - (u + y*z)", "(x - z)*y - u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:119", Rule::when("y*x - (u + z*y)", "y*(x - z) - u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:120", Rule::when("y*x - (u + y*z)", "y*(x - z) - u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:121", Rule::when("x*y - (u - z*y)", "(x + z)*y - u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:122", Rule::when("x*y - (u - y*z)", "(x + z)*y - u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:123", Rule::when("y*x - (u - z*y)", "y*(x + z) - u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:124", Rule::when("y*x - (u - y*z)", "y*(x + z) - u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:125", Rule::when("x*y - (z*y + u)", "(x - z)*y - u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:126", Rule::when("x*y - (y*z + u)", "(x - z)*y - u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:127", Rule::when("y*x - (z*y + u)", "y*(x - z) - u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:128", Rule::when("y*x - (y*z + u)", "y*(x - z) - u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:129", Rule::when("x*y - (z*y - u)", "(x - z)*y + u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:130", Rule::when("x*y - (y*z - u)", "(x - z)*y + u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:131", Rule::when("y*x - (z*y - u)", "y*(x - z) + u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:132", Rule::when("y*x - (y*z - u)", "y*(x - z) + u", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:133", Rule::when("(x + y) - (x + z)", "y - z", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:134", Rule::when("(x + y) - (z + x)", "y - z", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:135", Rule::when("(y + x) - (x + z)", "y - z", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:136", Rule::when("(y + x) - (z + x)", "y - z", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:137", Rule::when("((x + y) + z) - x", "y + z", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:138", Rule::when("((y + x) + z) - x", "y + z", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:139", Rule::when("(z + (x + y)) - x", "z + y", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:140", Rule::when("(z + (y + x)) - x", "z + y", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:142", Rule::when("x - (y + (x - z))", "z - y", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:143", Rule::when("x - ((x - y) + z)", "y - z", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:144", Rule::when("(x + (y - z)) - y", "x - z", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:145", Rule::when("((x - y) + z) - x", "z - y", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:147", Rule::when("x - (y + (x + z))", "0 - (y + z)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:148", Rule::when("x - (y + (z + x))", "0 - (y + z)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:149", Rule::when("x - ((x + y) + z)", "0 - (y + z)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:150", Rule::when("x - ((y + x) + z)", "0 - (y + z)", None, When::ALWAYS)),
            (
                "Simplify_Sub.cpp:151",
                Rule::when("(x + y) - (z + (w + x))", "y - (z + w)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:152",
                Rule::when("(x + y) - (z + (w + y))", "x - (z + w)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:153",
                Rule::when("(x + y) - (z + (x + w))", "y - (z + w)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:154",
                Rule::when("(x + y) - (z + (y + w))", "x - (z + w)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:155",
                Rule::when("(x + y) - ((x + z) + w)", "y - (z + w)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:156",
                Rule::when("(x + y) - ((y + z) + w)", "x - (z + w)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:157",
                Rule::when("(x + y) - ((z + x) + w)", "y - (z + w)", None, When::ALWAYS),
            ),
            (
                "Simplify_Sub.cpp:158",
                Rule::when("(x + y) - ((z + y) + w)", "x - (z + w)", None, When::ALWAYS),
            ),
            ("Simplify_Sub.cpp:160", Rule::when("(x - y) - (x + z)", "0 - y - z", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:161", Rule::when("(x - y) - (z + x)", "0 - y - z", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:163", Rule::when("((x + y) - z) - x", "y - z", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:164", Rule::when("((x + y) - z) - y", "x - z", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:166", Rule::when("x - min(x - y, 0)", "max(x, y)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:167", Rule::when("x - max(x - y, 0)", "min(x, y)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:168", Rule::when("(x + y) - min(x, y)", "max(y, x)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:169", Rule::when("(x + y) - min(y, x)", "max(y, x)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:170", Rule::when("(x + y) - max(x, y)", "min(y, x)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:171", Rule::when("(x + y) - max(y, x)", "min(x, y)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:173", Rule::when("0 - (x + (y - z))", "z - (x + y)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:174", Rule::when("0 - ((x - y) + z)", "y - (x + z)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:175", Rule::when("((x - y) - z) - x", "0 - (y + z)", None, When::ALWAYS)),
            ("Simplify_Sub.cpp:177", Rule::when("x - x % c0", "(x/c0)*c0", None, When::ALWAYS)),
            (
                "Simplify_Sub.cpp:178",
                Rule::when("x - ((x + c0)/c1)*c1", "(x + c0) % c1 - c0", Some(|b| b.c(1) > 0), When::ALWAYS),
            ),
            ("Simplify_Sub.cpp:191", Rule::when("max(x, y) - x", "max(y - x, 0)", None, When::NO_OVERFLOW)),
            ("Simplify_Sub.cpp:192", Rule::when("min(x, y) - x", "min(y - x, 0)", None, When::NO_OVERFLOW)),
            ("Simplify_Sub.cpp:193", Rule::when("max(x, y) - y", "max(x - y, 0)", None, When::NO_OVERFLOW)),
            ("Simplify_Sub.cpp:194", Rule::when("min(x, y) - y", "min(x - y, 0)", None, When::NO_OVERFLOW)),
            (
                "Simplify_Sub.cpp:196",
                Rule::when(
                    "x - max(x, y)",
                    "min(x - y, 0)",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:197",
                Rule::when(
                    "x - min(x, y)",
                    "max(x - y, 0)",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:198",
                Rule::when(
                    "y - max(x, y)",
                    "min(y - x, 0)",
                    Some(|b| b.wild(1).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:199",
                Rule::when(
                    "y - min(x, y)",
                    "max(y - x, 0)",
                    Some(|b| b.wild(1).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:201",
                Rule::when("x - min(y, x - z)", "max(x - y, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:202",
                Rule::when("x - min(x - y, z)", "max(y, x - z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:203",
                Rule::when("x - max(y, x - z)", "min(x - y, z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:204",
                Rule::when("x - max(x - y, z)", "min(y, x - z)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:206",
                Rule::when("min(x - y, 0) - x", "0 - max(x, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:207",
                Rule::when("max(x - y, 0) - x", "0 - min(x, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:208",
                Rule::when("min(x, y) - (x + y)", "0 - max(y, x)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:209",
                Rule::when("min(x, y) - (y + x)", "0 - max(x, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:210",
                Rule::when("max(x, y) - (x + y)", "0 - min(x, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:211",
                Rule::when("max(x, y) - (y + x)", "0 - min(y, x)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:214",
                Rule::when("z - max(x - y, c0)", "z + min(y - x, fold(-c0))", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:215",
                Rule::when("z - min(x - y, c0)", "z + max(y - x, fold(-c0))", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:216",
                Rule::when(
                    "z - max(min(x - y, c0), c1)",
                    "z + min(max(y - x, fold(-c0)), fold(-c1))",
                    None,
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:217",
                Rule::when(
                    "z - min(max(x - y, c0), c1)",
                    "z + max(min(y - x, fold(-c0)), fold(-c1))",
                    None,
                    When::NO_OVERFLOW,
                ),
            ),
            ("Simplify_Sub.cpp:219", Rule::when("x*y - x", "x*(y - 1)", None, When::NO_OVERFLOW)),
            ("Simplify_Sub.cpp:220", Rule::when("x*y - y", "(x - 1)*y", None, When::NO_OVERFLOW)),
            ("Simplify_Sub.cpp:221", Rule::when("x - x*y", "x*(1 - y)", None, When::NO_OVERFLOW)),
            ("Simplify_Sub.cpp:222", Rule::when("x - y*x", "(1 - y)*x", None, When::NO_OVERFLOW)),
            (
                "Simplify_Sub.cpp:230",
                Rule::when(
                    "(x - min(z, (x + y)))",
                    "(0 - min(z - x, y))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:231",
                Rule::when(
                    "(x - min(z, (y + x)))",
                    "(0 - min(z - x, y))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:232",
                Rule::when(
                    "(x - min((x + y), z))",
                    "(0 - min(z - x, y))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:233",
                Rule::when(
                    "(x - min((y + x), z))",
                    "(0 - min(z - x, y))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:234",
                Rule::when(
                    "(x - min(y, (w + (x + z))))",
                    "(0 - min(y - x, w + z))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:235",
                Rule::when(
                    "(x - min(y, (w + (z + x))))",
                    "(0 - min(y - x, z + w))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:236",
                Rule::when(
                    "(x - min(y, ((x + z) + w)))",
                    "(0 - min(y - x, z + w))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:237",
                Rule::when(
                    "(x - min(y, ((z + x) + w)))",
                    "(0 - min(y - x, z + w))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:238",
                Rule::when(
                    "(x - min((w + (x + z)), y))",
                    "(0 - min(y - x, w + z))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:239",
                Rule::when(
                    "(x - min((w + (z + x)), y))",
                    "(0 - min(y - x, z + w))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:240",
                Rule::when(
                    "(x - min(((x + z) + w), y))",
                    "(0 - min(y - x, w + z))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:241",
                Rule::when(
                    "(x - min(((z + x) + w), y))",
                    "(0 - min(y - x, w + z))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:243",
                Rule::when("min(x + y, z) - x", "min(z - x, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:244",
                Rule::when("min(y + x, z) - x", "min(z - x, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:245",
                Rule::when("min(z, x + y) - x", "min(z - x, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:246",
                Rule::when("min(z, y + x) - x", "min(z - x, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:247",
                Rule::when("(min(x, (w + (y + z))) - z)", "min(x - z, w + y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:248",
                Rule::when("(min(x, (w + (z + y))) - z)", "min(x - z, w + y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:249",
                Rule::when("(min(x, ((y + z) + w)) - z)", "min(x - z, y + w)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:250",
                Rule::when("(min(x, ((z + y) + w)) - z)", "min(x - z, y + w)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:251",
                Rule::when("(min((w + (y + z)), x) - z)", "min(x - z, w + y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:252",
                Rule::when("(min((w + (z + y)), x) - z)", "min(x - z, w + y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:253",
                Rule::when("(min(((y + z) + w), x) - z)", "min(x - z, y + w)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:254",
                Rule::when("(min(((z + y) + w), x) - z)", "min(x - z, y + w)", None, When::NO_OVERFLOW),
            ),
            ("Simplify_Sub.cpp:256", Rule::when("min(x, y) - min(y, x)", "0", None, When::NO_OVERFLOW)),
            (
                "Simplify_Sub.cpp:257",
                Rule::proved("min(x, y) - min(z, w)", "y - w", "x - y == z - w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:258",
                Rule::proved("min(x, y) - min(w, z)", "y - w", "x - y == z - w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:259",
                Rule::when(
                    "min(x*c0, c1) - min(x, c2)*c0",
                    "min(c1 - min(x, c2)*c0, 0)",
                    Some(|b| b.c(0) > 0 && b.c(1) <= b.c(2) * b.c(0)),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:261",
                Rule::when(
                    "(x - max(z, (x + y)))",
                    "(0 - max(z - x, y))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:262",
                Rule::when(
                    "(x - max(z, (y + x)))",
                    "(0 - max(z - x, y))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:263",
                Rule::when(
                    "(x - max((x + y), z))",
                    "(0 - max(z - x, y))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:264",
                Rule::when(
                    "(x - max((y + x), z))",
                    "(0 - max(z - x, y))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:265",
                Rule::when(
                    "(x - max(y, (w + (x + z))))",
                    "(0 - max(y - x, w + z))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:266",
                Rule::when(
                    "(x - max(y, (w + (z + x))))",
                    "(0 - max(y - x, z + w))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:267",
                Rule::when(
                    "(x - max(y, ((x + z) + w)))",
                    "(0 - max(y - x, z + w))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:268",
                Rule::when(
                    "(x - max(y, ((z + x) + w)))",
                    "(0 - max(y - x, z + w))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:269",
                Rule::when(
                    "(x - max((w + (x + z)), y))",
                    "(0 - max(y - x, w + z))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:270",
                Rule::when(
                    "(x - max((w + (z + x)), y))",
                    "(0 - max(y - x, z + w))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:271",
                Rule::when(
                    "(x - max(((x + z) + w), y))",
                    "(0 - max(y - x, w + z))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:272",
                Rule::when(
                    "(x - max(((z + x) + w), y))",
                    "(0 - max(y - x, w + z))",
                    Some(|b| b.wild(0).is_some_and(|e| !constant::is_const(e))),
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:274",
                Rule::when("max(x + y, z) - x", "max(z - x, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:275",
                Rule::when("max(y + x, z) - x", "max(z - x, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:276",
                Rule::when("max(z, x + y) - x", "max(z - x, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:277",
                Rule::when("max(z, y + x) - x", "max(z - x, y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:278",
                Rule::when("(max(x, (w + (y + z))) - z)", "max(x - z, w + y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:279",
                Rule::when("(max(x, (w + (z + y))) - z)", "max(x - z, w + y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:280",
                Rule::when("(max(x, ((y + z) + w)) - z)", "max(x - z, y + w)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:281",
                Rule::when("(max(x, ((z + y) + w)) - z)", "max(x - z, y + w)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:282",
                Rule::when("(max((w + (y + z)), x) - z)", "max(x - z, w + y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:283",
                Rule::when("(max((w + (z + y)), x) - z)", "max(x - z, w + y)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:284",
                Rule::when("(max(((y + z) + w), x) - z)", "max(x - z, y + w)", None, When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:285",
                Rule::when("(max(((z + y) + w), x) - z)", "max(x - z, y + w)", None, When::NO_OVERFLOW),
            ),
            ("Simplify_Sub.cpp:287", Rule::when("max(x, y) - max(y, x)", "0", None, When::NO_OVERFLOW)),
            (
                "Simplify_Sub.cpp:288",
                Rule::proved("max(x, y) - max(z, w)", "y - w", "x - y == z - w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:289",
                Rule::proved("max(x, y) - max(w, z)", "y - w", "x - y == z - w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:318",
                Rule::proved("min(x, y) - min(x, w)", "min(y - min(x, w), 0)", "y <= w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:319",
                Rule::proved("min(x, y) - min(x, w)", "max(min(x, y) - w, 0)", "y >= w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:320",
                Rule::proved(
                    "min(x + c0, y) - min(x, w)",
                    "min(y - min(x, w), c0)",
                    "y <= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:321",
                Rule::proved(
                    "min(x + c0, y) - min(x, w)",
                    "max(min(x + c0, y) - w, c0)",
                    "y >= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:322",
                Rule::proved(
                    "min(x, y) - min(x + c1, w)",
                    "min(y - min(x + c1, w), fold(-c1))",
                    "y + c1 <= w",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:323",
                Rule::proved(
                    "min(x, y) - min(x + c1, w)",
                    "max(min(x, y) - w, fold(-c1))",
                    "y + c1 >= w",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:324",
                Rule::proved(
                    "min(x + c0, y) - min(x + c1, w)",
                    "min(y - min(x + c1, w), fold(c0 - c1))",
                    "y + c1 <= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:325",
                Rule::proved(
                    "min(x + c0, y) - min(x + c1, w)",
                    "max(min(x + c0, y) - w, fold(c0 - c1))",
                    "y + c1 >= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:327",
                Rule::proved("min(y, x) - min(w, x)", "min(y - min(x, w), 0)", "y <= w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:328",
                Rule::proved("min(y, x) - min(w, x)", "max(min(x, y) - w, 0)", "y >= w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:329",
                Rule::proved(
                    "min(y, x + c0) - min(w, x)",
                    "min(y - min(x, w), c0)",
                    "y <= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:330",
                Rule::proved(
                    "min(y, x + c0) - min(w, x)",
                    "max(min(x + c0, y) - w, c0)",
                    "y >= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:331",
                Rule::proved(
                    "min(y, x) - min(w, x + c1)",
                    "min(y - min(x + c1, w), fold(-c1))",
                    "y + c1 <= w",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:332",
                Rule::proved(
                    "min(y, x) - min(w, x + c1)",
                    "max(min(x, y) - w, fold(-c1))",
                    "y + c1 >= w",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:333",
                Rule::proved(
                    "min(y, x + c0) - min(w, x + c1)",
                    "min(y - min(x + c1, w), fold(c0 - c1))",
                    "y + c1 <= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:334",
                Rule::proved(
                    "min(y, x + c0) - min(w, x + c1)",
                    "max(min(x + c0, y) - w, fold(c0 - c1))",
                    "y + c1 >= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:336",
                Rule::proved("min(x, y) - min(w, x)", "min(y - min(x, w), 0)", "y <= w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:337",
                Rule::proved("min(x, y) - min(w, x)", "max(min(x, y) - w, 0)", "y >= w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:338",
                Rule::proved(
                    "min(x + c0, y) - min(w, x)",
                    "min(y - min(x, w), c0)",
                    "y <= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:339",
                Rule::proved(
                    "min(x + c0, y) - min(w, x)",
                    "max(min(x + c0, y) - w, c0)",
                    "y >= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:340",
                Rule::proved(
                    "min(x, y) - min(w, x + c1)",
                    "min(y - min(x + c1, w), fold(-c1))",
                    "y + c1 <= w",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:341",
                Rule::proved(
                    "min(x, y) - min(w, x + c1)",
                    "max(min(x, y) - w, fold(-c1))",
                    "y + c1 >= w",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:342",
                Rule::proved(
                    "min(x + c0, y) - min(w, x + c1)",
                    "min(y - min(x + c1, w), fold(c0 - c1))",
                    "y + c1 <= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:343",
                Rule::proved(
                    "min(x + c0, y) - min(w, x + c1)",
                    "max(min(x + c0, y) - w, fold(c0 - c1))",
                    "y + c1 >= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:345",
                Rule::proved("min(y, x) - min(x, w)", "min(y - min(x, w), 0)", "y <= w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:346",
                Rule::proved("min(y, x) - min(x, w)", "max(min(x, y) - w, 0)", "y >= w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:347",
                Rule::proved(
                    "min(y, x + c0) - min(x, w)",
                    "min(y - min(x, w), c0)",
                    "y <= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:348",
                Rule::proved(
                    "min(y, x + c0) - min(x, w)",
                    "max(min(x + c0, y) - w, c0)",
                    "y >= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:349",
                Rule::proved(
                    "min(y, x) - min(x + c1, w)",
                    "min(y - min(x + c1, w), fold(-c1))",
                    "y + c1 <= w",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:350",
                Rule::proved(
                    "min(y, x) - min(x + c1, w)",
                    "max(min(x, y) - w, fold(-c1))",
                    "y + c1 >= w",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:351",
                Rule::proved(
                    "min(y, x + c0) - min(x + c1, w)",
                    "min(y - min(x + c1, w), fold(c0 - c1))",
                    "y + c1 <= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:352",
                Rule::proved(
                    "min(y, x + c0) - min(x + c1, w)",
                    "max(min(x + c0, y) - w, fold(c0 - c1))",
                    "y + c1 >= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:357",
                Rule::proved("max(x, y) - max(x, w)", "max(y - max(x, w), 0)", "y >= w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:358",
                Rule::proved("max(x, y) - max(x, w)", "min(max(x, y) - w, 0)", "y <= w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:359",
                Rule::proved(
                    "max(x + c0, y) - max(x, w)",
                    "max(y - max(x, w), c0)",
                    "y >= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:360",
                Rule::proved(
                    "max(x + c0, y) - max(x, w)",
                    "min(max(x + c0, y) - w, c0)",
                    "y <= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:361",
                Rule::proved(
                    "max(x, y) - max(x + c1, w)",
                    "max(y - max(x + c1, w), fold(-c1))",
                    "y + c1 >= w",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:362",
                Rule::proved(
                    "max(x, y) - max(x + c1, w)",
                    "min(max(x, y) - w, fold(-c1))",
                    "y + c1 <= w",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:363",
                Rule::proved(
                    "max(x + c0, y) - max(x + c1, w)",
                    "max(y - max(x + c1, w), fold(c0 - c1))",
                    "y + c1 >= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:364",
                Rule::proved(
                    "max(x + c0, y) - max(x + c1, w)",
                    "min(max(x + c0, y) - w, fold(c0 - c1))",
                    "y + c1 <= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:366",
                Rule::proved("max(y, x) - max(w, x)", "max(y - max(x, w), 0)", "y >= w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:367",
                Rule::proved("max(y, x) - max(w, x)", "min(max(x, y) - w, 0)", "y <= w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:368",
                Rule::proved(
                    "max(y, x + c0) - max(w, x)",
                    "max(y - max(x, w), c0)",
                    "y >= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:369",
                Rule::proved(
                    "max(y, x + c0) - max(w, x)",
                    "min(max(x + c0, y) - w, c0)",
                    "y <= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:370",
                Rule::proved(
                    "max(y, x) - max(w, x + c1)",
                    "max(y - max(x + c1, w), fold(-c1))",
                    "y + c1 >= w",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:371",
                Rule::proved(
                    "max(y, x) - max(w, x + c1)",
                    "min(max(x, y) - w, fold(-c1))",
                    "y + c1 <= w",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:372",
                Rule::proved(
                    "max(y, x + c0) - max(w, x + c1)",
                    "max(y - max(x + c1, w), fold(c0 - c1))",
                    "y + c1 >= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:373",
                Rule::proved(
                    "max(y, x + c0) - max(w, x + c1)",
                    "min(max(x + c0, y) - w, fold(c0 - c1))",
                    "y + c1 <= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:375",
                Rule::proved("max(x, y) - max(w, x)", "max(y - max(x, w), 0)", "y >= w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:376",
                Rule::proved("max(x, y) - max(w, x)", "min(max(x, y) - w, 0)", "y <= w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:377",
                Rule::proved(
                    "max(x + c0, y) - max(w, x)",
                    "max(y - max(x, w), c0)",
                    "y >= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:378",
                Rule::proved(
                    "max(x + c0, y) - max(w, x)",
                    "min(max(x + c0, y) - w, c0)",
                    "y <= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:379",
                Rule::proved(
                    "max(x, y) - max(w, x + c1)",
                    "max(y - max(x + c1, w), fold(-c1))",
                    "y + c1 >= w",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:380",
                Rule::proved(
                    "max(x, y) - max(w, x + c1)",
                    "min(max(x, y) - w, fold(-c1))",
                    "y + c1 <= w",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:381",
                Rule::proved(
                    "max(x + c0, y) - max(w, x + c1)",
                    "max(y - max(x + c1, w), fold(c0 - c1))",
                    "y + c1 >= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:382",
                Rule::proved(
                    "max(x + c0, y) - max(w, x + c1)",
                    "min(max(x + c0, y) - w, fold(c0 - c1))",
                    "y + c1 <= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:384",
                Rule::proved("max(y, x) - max(x, w)", "max(y - max(x, w), 0)", "y >= w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:385",
                Rule::proved("max(y, x) - max(x, w)", "min(max(x, y) - w, 0)", "y <= w", When::NO_OVERFLOW),
            ),
            (
                "Simplify_Sub.cpp:386",
                Rule::proved(
                    "max(y, x + c0) - max(x, w)",
                    "max(y - max(x, w), c0)",
                    "y >= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:387",
                Rule::proved(
                    "max(y, x + c0) - max(x, w)",
                    "min(max(x + c0, y) - w, c0)",
                    "y <= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:388",
                Rule::proved(
                    "max(y, x) - max(x + c1, w)",
                    "max(y - max(x + c1, w), fold(-c1))",
                    "y + c1 >= w",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:389",
                Rule::proved(
                    "max(y, x) - max(x + c1, w)",
                    "min(max(x, y) - w, fold(-c1))",
                    "y + c1 <= w",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:390",
                Rule::proved(
                    "max(y, x + c0) - max(x + c1, w)",
                    "max(y - max(x + c1, w), fold(c0 - c1))",
                    "y + c1 >= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:391",
                Rule::proved(
                    "max(y, x + c0) - max(x + c1, w)",
                    "min(max(x + c0, y) - w, fold(c0 - c1))",
                    "y + c1 <= w + c0",
                    When::NO_OVERFLOW,
                ),
            ),
            (
                "Simplify_Sub.cpp:394",
                Rule::when(
                    "c0 - (c1 - x)/c2",
                    "(fold(c0*c2 - c1 + c2 - 1) + x)/c2",
                    Some(|b| b.c(2) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:395",
                Rule::when(
                    "c0 - (x + c1)/c2",
                    "(fold(c0*c2 - c1 + c2 - 1) - x)/c2",
                    Some(|b| b.c(2) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:396",
                Rule::when(
                    "x - x/c0",
                    "(x*fold(c0 - 1) + fold(c0 - 1))/c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:397",
                Rule::when(
                    "x - (x + y)/c0",
                    "(x*fold(c0 - 1) - y + fold(c0 - 1))/c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:398",
                Rule::when(
                    "x - (x - y)/c0",
                    "(x*fold(c0 - 1) + y + fold(c0 - 1))/c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:399",
                Rule::when(
                    "x - (y + x)/c0",
                    "(x*fold(c0 - 1) - y + fold(c0 - 1))/c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:400",
                Rule::when(
                    "x - (y - x)/c0",
                    "(x*fold(c0 + 1) - y + fold(c0 - 1))/c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:401",
                Rule::when("x/c0 - x", "(x*fold(1 - c0))/c0", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Sub.cpp:402",
                Rule::when("(x + y)/c0 - x", "(x*fold(1 - c0) + y)/c0", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Sub.cpp:403",
                Rule::when("(y + x)/c0 - x", "(y + x*fold(1 - c0))/c0", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Sub.cpp:404",
                Rule::when("(x - y)/c0 - x", "(x*fold(1 - c0) - y)/c0", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Sub.cpp:405",
                Rule::when("(y - x)/c0 - x", "(y - x*fold(1 + c0))/c0", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Sub.cpp:407",
                Rule::when("(x/c0)*c0 - x", "-(x % c0)", Some(|b| b.c(0) > 0), When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Sub.cpp:408",
                Rule::when("x - (x/c0)*c0", "x % c0", Some(|b| b.c(0) > 0), When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Sub.cpp:409",
                Rule::when(
                    "((x + c0)/c1)*c1 - x",
                    "(-x) % c1",
                    Some(|b| b.c(1) > 0 && b.c(0) + 1 == b.c(1)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:410",
                Rule::when(
                    "x - ((x + c0)/c1)*c1",
                    "((x + c0) % c1) + fold(-c0)",
                    Some(|b| b.c(1) > 0 && b.c(0) + 1 == b.c(1)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:411",
                Rule::when(
                    "x*c0 - y*c1",
                    "(x*fold(c0/c1) - y)*c1",
                    Some(|b| rem(b.c(0), b.c(1)) == 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:412",
                Rule::when(
                    "x*c0 - y*c1",
                    "(x - y*fold(c1/c0))*c0",
                    Some(|b| rem(b.c(1), b.c(0)) == 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:417",
                Rule::when(
                    "((x + y) + z)/c0 - ((y + x) + w)/c0",
                    "((x + y) + z)/c0 - ((x + y) + w)/c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:418",
                Rule::when("(x + y)/c0 - (y + x)/c0", "0", Some(|b| b.c(0) != 0), When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Sub.cpp:419",
                Rule::when(
                    "(x + y)/c0 - (x + c1)/c0",
                    "(((x + fold(c1 % c0)) % c0) + (y - c1))/c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:420",
                Rule::when(
                    "(x + c1)/c0 - (x + y)/c0",
                    "((fold(c0 + c1 - 1) - y) - ((x + fold(c1 % c0)) % c0))/c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:421",
                Rule::when(
                    "(x - y)/c0 - (x + c1)/c0",
                    "(((x + fold(c1 % c0)) % c0) - y - c1)/c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:422",
                Rule::when(
                    "(x + c1)/c0 - (x - y)/c0",
                    "((y + fold(c0 + c1 - 1)) - ((x + fold(c1 % c0)) % c0))/c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:423",
                Rule::when(
                    "x/c0 - (x + y)/c0",
                    "((fold(c0 - 1) - y) - (x % c0))/c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:424",
                Rule::when(
                    "(x + y)/c0 - x/c0",
                    "((x % c0) + y)/c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:425",
                Rule::when(
                    "x/c0 - (x - y)/c0",
                    "((y + fold(c0 - 1)) - (x % c0))/c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:426",
                Rule::when(
                    "(x - y)/c0 - x/c0",
                    "((x % c0) - y)/c0",
                    Some(|b| b.c(0) > 0),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:437",
                Rule::when("(min(x + y, z) + w) - x", "min(z - x, y) + w", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Sub.cpp:438",
                Rule::when("min((x + y) + w, z) - x", "min(z - x, y + w)", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Sub.cpp:439",
                Rule::when("min(min(x + z, y), w) - x", "min(min(y, w) - x, z)", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Sub.cpp:440",
                Rule::when("min(min(y, x + z), w) - x", "min(min(y, w) - x, z)", None, When::NO_OVERFLOW_INT),
            ),
            (
                "Simplify_Sub.cpp:442",
                Rule::when(
                    "min((x + y)*u + z, w) - x*u",
                    "min(w - x*u, y*u + z)",
                    None,
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:443",
                Rule::when(
                    "min((y + x)*u + z, w) - x*u",
                    "min(w - x*u, y*u + z)",
                    None,
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:446",
                Rule::when(
                    "min(x*c0 + y, z)/c1 - x*c2",
                    "min(y, z - x*c0)/c1",
                    Some(|b| b.c(0) == b.c(1) * b.c(2)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:447",
                Rule::when(
                    "min(z, x*c0 + y)/c1 - x*c2",
                    "min(y, z - x*c0)/c1",
                    Some(|b| b.c(0) == b.c(1) * b.c(2)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:450",
                Rule::when(
                    "(min(x*c0 + y, z) + w)/c1 - x*c2",
                    "(min(y, z - x*c0) + w)/c1",
                    Some(|b| b.c(0) == b.c(1) * b.c(2)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
            (
                "Simplify_Sub.cpp:451",
                Rule::when(
                    "(min(z, x*c0 + y) + w)/c1 - x*c2",
                    "(min(z - x*c0, y) + w)/c1",
                    Some(|b| b.c(0) == b.c(1) * b.c(2)),
                    When::NO_OVERFLOW_INT,
                ),
            ),
        ])
    })
}
