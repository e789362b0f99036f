//! The analysis context: fresh-name counters, overflow tags, per-node caches and counters.
//!
//! Every public API takes a `&Ctx`. Fresh names (`t12`, `x.min$3`) and overflow-marker tags
//! come from counters owned by the context, so a test that builds a fresh [`Ctx`] gets
//! byte-identical output, and names are unique across every result computed with one
//! context (several results are often combined later and must not capture each other's
//! temporaries).

use loopir::free_vars;
use std::cell::{Cell, RefCell};

use loopir::address_map::AddressMap;
use loopir::pipeline::NameGen;
use loopir::{Expr, Name};
use rustc_hash::FxHashMap;

/// Options that switch between Halide's exact behaviour and the crate's sound defaults.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Halide's float-modulo rule `[0, max(b.hi, -b.lo)]` instead of the sound
    /// `[min(0, b.lo), max(0, b.hi)]` (`docs/reference/bounds.md` §1.5.6).
    pub compat_float_mod: bool,
    /// Replace overflow markers in `boxes_touched` results by zero, as Halide does, instead
    /// of widening the affected ends to infinity (`docs/reference/bounds.md` §1.5.12).
    pub compat_purify: bool,
    /// Halide's handling of varying `if` conditions in the box walker (`docs/reference/bounds.md` §1.7): the
    /// condition is not split at `&&`, only an outer `likely` tag is stripped, and every
    /// LetStmt that depends on a tightened variable is rebound to two fresh `t` names
    /// (drawn in Halide's order) whose definitions wrap the box ends on the way out,
    /// instead of being re-derived and substituted. The same switch makes the rest of the
    /// walk draw fresh names exactly where Halide does (so that `t` numbers match): the
    /// provides pass does not descend into a Provide's values, the calls pass visits its
    /// arguments first; a select's values are analysed before its condition and every
    /// non-trivial end pair draws its names (leaves included, equal ends compared by
    /// identity); a let end is substituted only when it is a constant as built.
    pub compat_conditions: bool,
}

/// Counters of work done, for complexity guards in tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Expression nodes on which an interval rule ran (memo misses).
    pub bounds_rule_applications: u64,
    /// Statement nodes visited by the box walker.
    pub box_walk_visits: u64,
    /// Expression nodes simplified (memo misses).
    pub simplify_visits: u64,
    /// Pairs of Provides of one stage compared to find a definition produced at several
    /// places (computation bounds inference).
    pub definitions_compared: u64,
    /// Expression nodes searched for the variable names they mention, where an
    /// expression's free variables are too many to track.
    pub name_search_nodes: u64,
    /// Conditions solved for one of their variables (Halide-compatible condition handling
    /// in the box walker).
    pub conditions_solved: u64,
}

/// Counters and caches shared by every analysis run with it (see the module docs).
#[derive(Default)]
pub struct Ctx {
    options: Options,
    /// The fresh-name generator: the run's own ([`Ctx::set_names`]) or a fresh one.
    names: RefCell<NameGen>,
    overflow_tag: Cell<i64>,
    /// Fresh names and tags drawn so far, of all three kinds (see [`Ctx::draws`]).
    draws: Cell<u64>,
    free_vars: RefCell<loopir::free_vars::FreeVarCache>,
    hashes: std::rc::Rc<RefCell<loopir::hash::HashCache>>,
    /// Results of fact-free simplification (no variable ranges, outside any let), which
    /// are their own fixed points: merging K boxes re-simplifies the growing min/max
    /// chain with a fresh simplifier each time, and without this every merge re-walked
    /// (and re-hashed) the whole chain. Each entry keeps its node alive, so the address
    /// cannot be reused by another node.
    simplified: RefCell<AddressMap<*const (), Expr>>,
    /// Constant ranges of nodes under fact-free simplification, shared for the same
    /// reason.
    constant_bounds: RefCell<AddressMap<*const (), (Expr, crate::ConstantInterval)>>,
    /// Results of fact-free simplification of divisions and remainders, found by
    /// structure rather than address (see [`crate::simplify::ByStructure`]).
    simplified_by_structure: RefCell<crate::simplify::ByStructure>,
    stats: Cell<Stats>,
    /// How often each rewrite rule fired, by name, once [`Ctx::record_rules`] was called.
    rules_fired: RefCell<Option<FxHashMap<&'static str, u64>>>,
}

impl Ctx {
    /// A context with default (sound) options and all counters at zero.
    pub fn new() -> Ctx {
        Ctx::default()
    }

    /// A context with the given options.
    pub fn with_options(options: Options) -> Ctx {
        Ctx { options, ..Ctx::default() }
    }

    /// The options.
    pub fn options(&self) -> Options {
        self.options
    }

    /// Uses `names` for every fresh name from now on: a lowering pass hands the run's
    /// generator ([`loopir::pipeline::LowerCtx::take_names`]) to the context it analyses
    /// with, and takes it back with [`Ctx::take_names`], so that names stay unique across
    /// the passes of a run.
    pub fn set_names(&self, names: NameGen) {
        *self.names.borrow_mut() = names;
    }

    /// The fresh-name generator, as it stands; the context keeps a fresh one.
    pub fn take_names(&self) -> NameGen {
        std::mem::take(&mut *self.names.borrow_mut())
    }

    /// Sets the next number drawn by [`Ctx::fresh_t`] (Halide's `t` counter). Numbers
    /// above [`loopir::pipeline::MAX_COUNTER`] (the reference's `int`) are clamped to it.
    pub fn seed_t(&self, next: u64) {
        let next = next.min(loopir::pipeline::MAX_COUNTER);
        // In range after the clamp.
        let _ = self.names.borrow_mut().set_next_char('t', next);
    }

    /// The number the next [`Ctx::fresh_t`] will draw.
    pub fn next_t(&self) -> u64 {
        self.names.borrow().next_char('t')
    }

    /// A fresh `t<N>` name (the reference's `unique_name('t')`); numbers are never reused.
    pub fn fresh_t(&self) -> Name {
        self.draws.set(self.draws.get() + 1);
        self.names.borrow_mut().unique_char('t')
    }

    /// A fresh name from the family of `prefix` (the reference's `unique_name(prefix)`):
    /// the prefix itself the first time, then `<prefix with '$' turned into '_'>$<k>` for
    /// k = 1, 2, ...
    pub fn fresh_keyed(&self, prefix: &str) -> Name {
        self.draws.set(self.draws.get() + 1);
        self.names.borrow_mut().unique(prefix)
    }

    /// A fresh tag for a `signed_integer_overflow` marker.
    pub fn overflow_tag(&self) -> i64 {
        let k = self.overflow_tag.get();
        self.overflow_tag.set(k + 1);
        self.draws.set(self.draws.get() + 1);
        k
    }

    /// How many fresh names and overflow tags have been drawn so far. A computation that
    /// leaves it unchanged drew nothing, so repeating it on the same input gives the same
    /// result (what lets a walk skip a branch identical to one it has just walked).
    pub fn draws(&self) -> u64 {
        self.draws.get()
    }

    /// Starts counting how often each rewrite rule of the simplifier fires (see
    /// [`Ctx::rules_fired`]); off by default, as it costs a table update per rewrite.
    pub fn record_rules(&self) {
        self.rules_fired.borrow_mut().get_or_insert_with(FxHashMap::default);
    }

    /// The rewrite rules that fired since [`Ctx::record_rules`], each with its count, most
    /// frequent first. A rule is named after the line of the reference's simplifier it
    /// was taken from (`Simplify_Min.cpp:57`).
    ///
    /// ```
    /// use loopir_simplify::{Ctx, simplify_expr};
    /// let ctx = Ctx::new();
    /// ctx.record_rules();
    /// let e = loopir::parse_expr("min(x, x)").unwrap();
    /// assert_eq!(simplify_expr(&ctx, &e).to_string(), "x");
    /// let fired = ctx.rules_fired();
    /// assert_eq!(fired.len(), 1);
    /// assert!(fired[0].0.starts_with("Simplify_Min.cpp:"));
    /// ```
    pub fn rules_fired(&self) -> Vec<(&'static str, u64)> {
        let mut fired: Vec<(&'static str, u64)> =
            self.rules_fired.borrow().iter().flatten().map(|(n, k)| (*n, *k)).collect();
        fired.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        fired
    }

    /// Counts one firing of the rule `name`, if rules are being recorded.
    pub(crate) fn note_rule(&self, name: &'static str) {
        if let Some(counts) = self.rules_fired.borrow_mut().as_mut() {
            *counts.entry(name).or_insert(0) += 1;
        }
    }

    /// The work counters so far.
    pub fn stats(&self) -> Stats {
        self.stats.get()
    }

    /// Adds to the work counters (the analyses built on the simplifier count their own
    /// work here too, for the complexity guards).
    pub fn count(&self, f: impl FnOnce(&mut Stats)) {
        let mut s = self.stats.get();
        f(&mut s);
        self.stats.set(s);
    }

    /// Whether `e` is known to be the result of a fact-free simplification.
    pub fn is_simplified(&self, e: &Expr) -> bool {
        self.simplified.borrow().contains_key(&e.as_ptr().cast::<()>())
    }

    /// The fact-free simplification of an expression equal to `e`, whose structural hash
    /// is `hash`, if one was recorded (fact-free simplification is outside any let:
    /// epoch 0).
    pub(crate) fn simplified_like(&self, hash: u64, e: &Expr) -> Option<Expr> {
        self.simplified_by_structure.borrow().get(hash, 0, e)
    }

    /// Records `r` as the fact-free simplification of `e`, whose structural hash is
    /// `hash`.
    pub(crate) fn note_simplified_like(&self, hash: u64, e: &Expr, r: &Expr) {
        self.simplified_by_structure.borrow_mut().insert(hash, 0, e, r);
    }

    /// Records `e` as the result of a fact-free simplification.
    pub fn note_simplified(&self, e: &Expr) {
        self.simplified.borrow_mut().entry(e.as_ptr().cast::<()>()).or_insert_with(|| e.clone());
    }

    /// The fact-free constant range of `e`, if known.
    pub(crate) fn shared_constant_bounds(&self, e: &Expr) -> Option<crate::ConstantInterval> {
        self.constant_bounds.borrow().get(&e.as_ptr().cast::<()>()).map(|(_, ci)| *ci)
    }

    /// Records the fact-free constant range of `e`.
    pub(crate) fn note_constant_bounds(&self, e: &Expr, ci: crate::ConstantInterval) {
        self.constant_bounds.borrow_mut().entry(e.as_ptr().cast::<()>()).or_insert_with(|| (e.clone(), ci));
    }

    /// Installs this context's structural-hash cache for [`loopir::equality::equal`] on the
    /// current thread until the returned guard drops.
    pub fn hash_scope(&self) -> loopir::hash::HashScope {
        loopir::hash::HashScope::install(&self.hashes)
    }

    /// The free variables of `e` (sorted, deduplicated), cached per node so that repeated
    /// queries over a DAG cost O(1) amortised per node; `None` when there are more than
    /// [`free_vars::MAX_TRACKED_FREE_VARS`].
    pub fn free_vars(&self, e: &Expr) -> free_vars::FreeVars {
        loopir::free_vars::free_vars_cached(e, &self.free_vars)
    }

    /// Whether `e` mentions the variable `name` freely (conservatively true for an
    /// occurrence under a shadowing let when the set is not tracked).
    pub fn uses_var(&self, e: &Expr, name: &str) -> bool {
        match self.free_vars(e) {
            Some(fv) => fv.binary_search_by(|n| n.as_ref().cmp(name)).is_ok(),
            None => {
                let walked = Cell::new(0);
                let found = loopir::dag::any_node(e, |n| {
                    walked.set(walked.get() + 1);
                    n.as_variable().is_some_and(|v| v.as_ref() == name)
                });
                self.count(|s| s.name_search_nodes += walked.get());
                found
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loopir::Expr;

    /// The interval memo skips unshared nodes; a cache that held them would make every
    /// node it has seen look shared, and the memo would record all of them.
    #[test]
    fn caching_free_variables_leaves_nodes_unshared() {
        let ctx = Ctx::new();
        let inner = Expr::add(Expr::var_i32("x"), Expr::i32(1)).unwrap_or_else(|e| panic!("{e}"));
        let e = Expr::mul(inner, Expr::var_i32("y")).unwrap_or_else(|e| panic!("{e}"));
        let names =
            |e: &Expr| ctx.free_vars(e).map(|fv| fv.iter().map(|n| n.to_string()).collect::<Vec<_>>());
        assert_eq!(names(&e), Some(vec!["x".to_owned(), "y".to_owned()]));
        let loopir::ExprKind::Binary(_, inner, _) = e.kind() else { unreachable!() };
        assert!(!e.is_shared() && !inner.is_shared());
        // Still answered from the cache, and still right.
        assert_eq!(names(inner), Some(vec!["x".to_owned()]));
    }
}
