//! The reference's rules for `!` that re-simplify (after its direct flips of comparisons) (`src/Simplify_Not.cpp`), in its order, each named after the line
//! of that file it was taken from.

use std::sync::OnceLock;

use crate::simplify::pattern::{Rule, RuleTable, When};

/// The rules, in the reference's order.
pub(in crate::simplify) fn not_rules() -> &'static RuleTable {
    static RULES: OnceLock<RuleTable> = OnceLock::new();
    super::build_once(&RULES, || {
        RuleTable::named([
            ("Simplify_Not.cpp:31", Rule::when("!(!x && y)", "x || !y", None, When::ALWAYS)),
            ("Simplify_Not.cpp:32", Rule::when("!(!x || y)", "x && !y", None, When::ALWAYS)),
            ("Simplify_Not.cpp:33", Rule::when("!(x && !y)", "!x || y", None, When::ALWAYS)),
            ("Simplify_Not.cpp:34", Rule::when("!(x || !y)", "!x && y", None, When::ALWAYS)),
        ])
    })
}
