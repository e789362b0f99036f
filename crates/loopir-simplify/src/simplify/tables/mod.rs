//! The reference's rewrite rules, one file per operator as its `src/Simplify_*.cpp`, each
//! list in the reference's order and written in our notation ([`super::pattern`]). Rules
//! for the operators whose output forms matter most to bounds inference are here;
//! vector-only rules (ramps, broadcasts, shuffles) are left out, since bounds are scalar.
//! A rule whose right-hand side is `a` or `b` keeps that operand as it is.
//!
//! Every rule is named after the line of the reference's source it was taken from
//! (`Simplify_Min.cpp:57`), so that a rule seen firing can be read where it came from. The
//! tables are maintained by hand: they began as the output of a converter, then took the
//! fixes the converter could not make (each noted at its table).

mod add;
mod and;
mod div;
mod eq;
mod lt;
mod max;
mod min;
mod modulo;
mod mul;
mod not;
mod or;
mod select;
mod sub;

pub(super) use add::add_rules;
pub(super) use and::and_rules;
pub(super) use div::div_rules;
pub(super) use eq::eq_rules;
pub(super) use lt::lt_rules;
pub(super) use max::max_rules;
pub(super) use min::min_rules;
pub(super) use modulo::mod_rules;
pub(super) use mul::mul_rules;
pub(super) use not::not_rules;
pub(super) use or::or_rules;
pub(super) use select::select_rules;
pub(super) use sub::sub_rules;

/// Every table, for the tests.
#[cfg(test)]
pub(super) fn all() -> [&'static super::pattern::RuleTable; 15] {
    [
        &select_rules().general,
        &select_rules().no_overflow_int,
        &select_rules().boolean,
        min_rules(),
        max_rules(),
        lt_rules(),
        div_rules(),
        add_rules(),
        sub_rules(),
        mul_rules(),
        mod_rules(),
        eq_rules(),
        not_rules(),
        and_rules(),
        or_rules(),
    ]
}
