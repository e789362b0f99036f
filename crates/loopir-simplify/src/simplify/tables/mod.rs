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

use std::sync::OnceLock;

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

/// The stack a table's construction may use. A table of a few hundred rules is built as
/// an array on the stack before it is collected (up to about 200 KiB for the largest in
/// an unoptimised build), more than the 64 KiB a walk keeps free before each step of its
/// recursion ([`loopir::stack::RED_ZONE`]); and a table is built at its first use, which
/// can come at any depth of a deep walk, or on an embedder's thread with a small stack.
const TABLE_STACK: usize = 1 << 20;

/// The table in `cell`, built by `build` at its first use on at least [`TABLE_STACK`]
/// bytes of stack (later uses only read the cell).
pub(super) fn build_once<T>(cell: &'static OnceLock<T>, build: impl FnOnce() -> T) -> &'static T {
    match cell.get() {
        Some(table) => table,
        None => loopir::stack::with_stack_of(TABLE_STACK, || cell.get_or_init(build)),
    }
}

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
