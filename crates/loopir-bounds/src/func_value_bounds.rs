//! Func value bounds read from the text (`docs/reference/bounds.md` §2.3.3, last row): the range of values
//! each Func can produce, used when a Func's value indexes another Func.
//!
//! For a Func with exactly one stage (every Provide to it sits in loops of stage `s0`, or
//! it has a single Provide), the bounds of each value of its Provides with every variable
//! the statement binds around the Provide (loop variables, lets) unbounded, unioned over
//! the Provides (specialization branches), then CSE'd and simplified. Symbols (parameters
//! and outer values) stay symbolic. Funcs with updates get the bounds of their value type
//! (finite only for integers of at most 16 bits), which is what an absent entry means.
//!
//! The reference reads these bounds from its Func definitions, which predate the
//! parameter-check stage. That stage renamed every constrained parameter `p` of the text
//! to `p.constrained`, bound by a top-level `let p.constrained = min(max(p, lo), hi)`; a
//! definition still says `p`. So a `.constrained` let whose value mentions `p` maps back
//! to `p` in the values analysed here, and the bounds stay symbolic in `p` as the
//! reference's do (its clamp lets are not part of the definition).
//!
//! Each end is simplified after a CSE that first inlines every let (the reference's CSE
//! does), so lets of the definition that survive in an end are rebuilt under fresh `t`
//! names. The reference draws those after tracing and before computation bounds
//! inference, from its process-wide counter. Two ways to number them here:
//!
//! * **drawn before** ([`func_value_bounds_from_text`], [`func_value_bounds_of_definitions`],
//!   [`func_value_bounds_ending_before`]): the counter a caller has is the reference's at
//!   the start of computation bounds inference (a `bounds.env.json`'s), already past the
//!   table's names, so they are numbered to end just before a given number (from 0 if
//!   there are more names than that), and no counter moves. The table computes entries
//!   when first asked for, and no more of them than the numbering needs (see
//!   [`FuncValueBounds`]): a pass consults a few entries, and an entry's ends can be as
//!   long as the chain of Funcs before it.
//! * **drawn now** ([`func_value_bounds_drawn_from`]): the table draws its names from a
//!   run's generator, from where its `t` counter stands, as the reference does; the pass
//!   that draws next continues after them. Every entry is computed at once: the names of
//!   everything drawn after the table depend on how many the whole table draws.
//!
//! `docs/pipeline.md` says which a [`loopir::pipeline::Pipeline`] run uses.
//!
//! The stage that clamps unsafe data-dependent accesses (corpus stage 03) wrapped some
//! Func calls used as indices in `max(min(f(..), hi), lo)` with `[lo, hi]` the value
//! bounds of `f`. It changed the statement only: the reference's later analyses read the
//! definitions, which have the bare call. [`undo_access_clamps`] removes exactly those
//! wrappers (both bounds must equal the computed value bounds of `f` textually), and, as
//! a by-product, recovers the tuple index the text does not print: the element whose
//! bounds matched.

use std::cell::{Cell, RefCell};

use indexmap::IndexMap;
use loopir::mutate::{ExprMemo, Mutator};
use loopir::pipeline::NameGen;
use loopir::stack::with_stack;
use loopir::{BinOp, CallType, Expr, ExprKind, Name, Stmt, StmtKind};
use rustc_hash::FxHashMap;

use crate::bounds_of_expr::bounds_of_expr_in_scope;
use crate::env::BoundsEnv;
use loopir::equality::equal;
use loopir::free_vars::mentions_var;
use loopir::substitute::substitute;
use loopir_simplify::cse::cse;
use loopir_simplify::ctx::Ctx;
use loopir_simplify::interval::Interval;
use loopir_simplify::scope::Scope;
use loopir_simplify::simplify::simplify_expr;

/// One Provide with the names bound around it.
struct Site {
    /// The values with constrained parameters mapped back to the parameters.
    values: Vec<Expr>,
    bound: Vec<Name>,
    stage: Option<u32>,
}

/// The table the reference computes once, from the definitions, before computation bounds
/// inference, and hands to both bounds passes: the value bounds of `defs` (the
/// computation-bounds input) with `t` names drawn just before `env`'s counter.
pub fn func_value_bounds_of_definitions(defs: &Stmt, env: &BoundsEnv) -> FuncValueBounds {
    func_value_bounds_ending_before(defs, env.fresh_names.t.unwrap_or(0))
}

/// Func value bounds of every Func with a single stage in `s`, computed on first use
/// (see [`FuncValueBounds`]), with `t` names drawn before `ctx`'s counter (see the module
/// docs); `ctx`'s options apply.
pub fn func_value_bounds_from_text(ctx: &Ctx, s: &Stmt) -> FuncValueBounds {
    lazy_table(Ctx::with_options(ctx.options()), s, ctx.next_t())
}

/// Func value bounds of every Func with a single stage in `s`, computed on first use
/// (see [`FuncValueBounds`]), with `t` names numbered to end just before `end` (from 0 if
/// there are more names than that; [`FuncValueBounds::names_end`] then says how far they
/// go).
pub fn func_value_bounds_ending_before(s: &Stmt, end: u64) -> FuncValueBounds {
    lazy_table(Ctx::new(), s, end)
}

fn lazy_table(ctx: Ctx, s: &Stmt, target: u64) -> FuncValueBounds {
    let sites = collect_sites(s);
    let table = FuncValueBounds::default();
    if !sites.is_empty() {
        *table.pending.borrow_mut() =
            Some(Box::new(Pending { sites, done: 0, ctx, any_bounded: false, target, settled: false }));
    }
    table
}

/// Func value bounds of every Func with a single stage in `s`, all computed now, with
/// every fresh name drawn from `names` (a run's generator), from where its counters
/// stand: the reference's table, drawn between tracing and computation bounds inference
/// (see the module docs). Afterwards `names`'s `t` counter is the table's
/// [`FuncValueBounds::names_end`].
pub fn func_value_bounds_drawn_from(names: &mut NameGen, s: &Stmt) -> FuncValueBounds {
    let sites = collect_sites(s);
    let table = FuncValueBounds::default();
    let ctx = Ctx::new();
    ctx.set_names(std::mem::take(names));
    let mut p = Pending { sites, done: 0, ctx, any_bounded: false, target: 0, settled: true };
    let all = p.sites.len();
    table.compute_until(&mut p, all);
    *names = p.ctx.take_names();
    table.names_end.set(names.next_char('t'));
    table
}

/// Value ranges of Funcs, keyed by (Func name, tuple index): used when a Func's value is
/// itself used as an index.
///
/// A table read from a statement with its names drawn before
/// ([`func_value_bounds_from_text`], [`func_value_bounds_ending_before`]) computes its
/// entries when they are first asked for, in the reference's order (text order, each Func seeing
/// only the Funcs before it), and stops after the Func asked for. A pass usually consults
/// a few Funcs, and an entry's ends can be as long as the chain of Funcs before it (B14:
/// Θ(L²) printed characters over L pyramid levels, most of them in Funcs no pass asks
/// for). The names an entry draws depend on how many the whole table draws (they end just
/// before the context's counter, or start at 0 if there are more), so entries are first
/// computed with names from 0, which are final once they number at least the counter;
/// until then an answer needs every entry computed, to count the names, and, if they
/// must start above 0, the entries computed again with that numbering, again only as far
/// as asked. Each answer is the one computing the whole table first would give. A table
/// drawn now ([`func_value_bounds_drawn_from`]) has every entry computed already.
#[derive(Default)]
pub struct FuncValueBounds {
    known: RefCell<FxHashMap<(Name, u32), Entry>>,
    pending: RefCell<Option<Box<Pending>>>,
    /// One past the highest `t` number the entries computed so far may hold.
    names_end: Cell<u64>,
}

/// One entry of a [`FuncValueBounds`].
#[derive(Clone)]
struct Entry {
    bounds: Interval,
    /// Whether the table computed it (rather than being given it): then each finite end
    /// is the result of a fact-free simplification.
    computed: bool,
}

/// The part of a table read from a statement that is not computed yet.
struct Pending {
    /// The Provides of each Func, in text order.
    sites: IndexMap<Name, Vec<Site>>,
    /// How many Funcs of `sites` (a prefix) have their entries in `known`.
    done: usize,
    /// The context drawing the entries' names.
    ctx: Ctx,
    /// Whether some entry so far is finite on both ends.
    any_bounded: bool,
    /// The counter the table's names end just before.
    target: u64,
    /// Whether the names of the entries computed so far are final.
    settled: bool,
}

impl FuncValueBounds {
    /// An empty table.
    pub fn new() -> FuncValueBounds {
        FuncValueBounds::default()
    }

    /// Sets the bounds of value `index` of `func`, for a table built by hand (in a table
    /// read from a statement, an entry computed later replaces it).
    pub fn insert(&mut self, func: Name, index: u32, bounds: Interval) {
        self.known.get_mut().insert((func, index), Entry { bounds, computed: false });
    }

    /// The bounds of value `index` of `func`, if the table has them (else the bounds of
    /// the value's type apply).
    pub fn get(&self, func: &Name, index: u32) -> Option<Interval> {
        self.get_computed(func, index).map(|(bounds, _)| bounds)
    }

    /// As [`FuncValueBounds::get`], and whether the table computed the entry (then each
    /// finite end is the result of a fact-free simplification, which simplifying again
    /// leaves as it is), rather than being given it.
    pub(crate) fn get_computed(&self, func: &Name, index: u32) -> Option<(Interval, bool)> {
        self.settle(|sites| {
            sites.get_full(func).filter(|(_, _, list)| has_entry(list, index)).map(|(i, ..)| i)
        });
        self.known.borrow().get(&(func.clone(), index)).map(|e| (e.bounds.clone(), e.computed))
    }

    /// Whether some entry is finite on both ends, computing entries in order until one is.
    pub fn any_bounded(&self) -> bool {
        let mut next = 0;
        loop {
            let mut func = None;
            self.settle(|sites| {
                func = sites.get_index(next).map(|(f, _)| f.clone());
                func.as_ref().map(|_| next)
            });
            // Once nothing is pending, the table is complete and checked whole below.
            let Some(func) = func else { break };
            let known = self.known.borrow();
            let mut values = (0u32..).map_while(|k| known.get(&(func.clone(), k)));
            if values.any(|e| e.bounds.is_bounded()) {
                return true;
            }
            next += 1;
        }
        self.known.borrow().values().any(|e| e.bounds.is_bounded())
    }

    /// One past the highest `t` number the names of the entries computed so far can
    /// hold (0 for a table with none): for a table drawn now, the counter after it; for
    /// one drawn before, the number its names end before, or, if they start at 0 and
    /// outnumber it, further (the names computed so far then reach the run's own).
    pub fn names_end(&self) -> u64 {
        self.names_end.get()
    }

    /// Every entry, sorted by Func name and index (computing the whole table).
    pub fn entries(&self) -> Vec<((Name, u32), Interval)> {
        self.settle(|sites| sites.len().checked_sub(1));
        let mut all: Vec<_> =
            self.known.borrow().iter().map(|(k, e)| (k.clone(), e.bounds.clone())).collect();
        all.sort_by(|a, b| a.0.cmp(&b.0));
        all
    }

    /// Makes the entries of the Funcs of `sites` up to the one `wanted` picks (if any)
    /// known and final.
    fn settle(&self, wanted: impl FnOnce(&IndexMap<Name, Vec<Site>>) -> Option<usize>) {
        // Taken out while entries are computed: their own lookups see only the Funcs
        // before them, as in the reference.
        let Some(mut p) = self.pending.borrow_mut().take() else { return };
        if let Some(pos) = wanted(&p.sites)
            && !(p.settled && pos < p.done)
        {
            self.compute_until(&mut p, pos + 1);
            // Names from 0 are final once they reach the counter: compute further
            // entries until they do, or until all are computed and counted.
            while !p.settled && p.ctx.next_t() < p.target && p.done < p.sites.len() {
                let next = p.done + 1;
                self.compute_until(&mut p, next);
            }
            let drawn = p.ctx.next_t();
            if !p.settled && drawn > 0 && drawn < p.target {
                // The names end just before the counter: compute again from there.
                self.known.borrow_mut().clear();
                p.ctx = Ctx::with_options(p.ctx.options());
                p.ctx.seed_t(p.target - drawn);
                p.done = 0;
                p.any_bounded = false;
                p.settled = true;
                self.compute_until(&mut p, pos + 1);
            }
            p.settled = true;
        }
        if p.done < p.sites.len() || !p.settled {
            *self.pending.borrow_mut() = Some(p);
        }
    }

    /// Computes the entries of the Funcs of `p.sites` before `end`.
    fn compute_until(&self, p: &mut Pending, end: usize) {
        while p.done < end {
            let Some((func, list)) = p.sites.get_index(p.done) else { break };
            if single_stage(list) {
                let arity = list.first().map_or(0, |site| site.values.len());
                for k in 0..arity {
                    let hull = value_bounds(&p.ctx, list, k, self, p.any_bounded);
                    p.any_bounded |= hull.is_bounded();
                    self.known
                        .borrow_mut()
                        .insert((func.clone(), k as u32), Entry { bounds: hull, computed: true });
                }
            }
            p.done += 1;
            self.names_end.set(self.names_end.get().max(p.ctx.next_t()));
        }
    }
}

impl FromIterator<((Name, u32), Interval)> for FuncValueBounds {
    fn from_iter<I: IntoIterator<Item = ((Name, u32), Interval)>>(iter: I) -> Self {
        let known = iter.into_iter().map(|(k, bounds)| (k, Entry { bounds, computed: false })).collect();
        FuncValueBounds { known: RefCell::new(known), pending: RefCell::new(None), names_end: Cell::new(0) }
    }
}

impl std::fmt::Debug for FuncValueBounds {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let computed = self.known.borrow().len();
        let pending = self.pending.borrow().as_ref().map_or(0, |p| p.sites.len() - p.done);
        write!(f, "FuncValueBounds {{ {computed} entries computed, {pending} Funcs pending }}")
    }
}

fn collect_sites(s: &Stmt) -> IndexMap<Name, Vec<Site>> {
    let mut sites: IndexMap<Name, Vec<Site>> = IndexMap::new();
    let mut walk = Walk { bound: Vec::new(), constrained: FxHashMap::default(), sites: &mut sites };
    walk.collect(s);
    sites
}

/// Whether a Func with these Provides has a single stage (every Provide in loops of
/// stage `s0`, or a single Provide): only those get entries.
fn single_stage(list: &[Site]) -> bool {
    list.iter().all(|site| site.stage.is_none_or(|k| k == 0)) || list.len() == 1
}

/// Whether a Func with these Provides has an entry for value `index`.
fn has_entry(list: &[Site], index: u32) -> bool {
    single_stage(list) && list.first().is_some_and(|site| (index as usize) < site.values.len())
}

/// The bounds of value `k` of a single-stage Func: the union over its Provides, with the
/// entries computed so far (`before`: the Funcs before it, and its values before `k`).
fn value_bounds(ctx: &Ctx, list: &[Site], k: usize, before: &FuncValueBounds, any_bounded: bool) -> Interval {
    let mut hull = Interval::nothing();
    for site in list {
        let Some(v) = site.values.get(k) else { continue };
        // Only a Func finite on both ends can have been used for access clamps.
        let unclamped;
        let v = if any_bounded {
            unclamped = Unclamp { bounds: before, memo: ExprMemo::default() }.mutate_expr(v);
            &unclamped
        } else {
            v
        };
        let mut scope = Scope::new();
        // Only the bound names the value mentions matter (a Provide inside 10^5 lets would
        // otherwise bind them all, per value).
        let free = ctx.free_vars(v);
        for n in &site.bound {
            if free.as_ref().is_none_or(|f| f.binary_search(n).is_ok()) {
                let _ = scope.push(n.clone(), Interval::everything());
            }
        }
        let i = bounds_of_expr_in_scope(ctx, v, &scope, before, false);
        hull.include(&i);
    }
    // `cse` inlines every let first.
    let tidy = |e: &Expr| simplify_expr(ctx, &cse(ctx, e));
    let fixed = hull.is_single_point();
    let min = hull.min.map(tidy);
    let max = if fixed { min.clone() } else { hull.max.map(tidy) };
    Interval { min, max }
}

/// The walk's state: names bound around the current statement, the constrained
/// parameters seen so far (`p.constrained` -> `p`), and the Provides found.
struct Walk<'a> {
    bound: Vec<Name>,
    constrained: FxHashMap<Name, Expr>,
    sites: &'a mut IndexMap<Name, Vec<Site>>,
}

impl Walk<'_> {
    fn collect(&mut self, s: &Stmt) {
        with_stack(|| match s.kind() {
            StmtKind::LetStmt { .. } => {
                let mut cur = s.clone();
                let depth = self.bound.len();
                let mut added = Vec::new();
                while let StmtKind::LetStmt { name, value, body } = cur.kind() {
                    if let Some(param) = constrained_parameter(name, value)
                        && !self.constrained.contains_key(name)
                    {
                        self.constrained.insert(name.clone(), param);
                        added.push(name.clone());
                    }
                    self.bound.push(name.clone());
                    let next = body.clone();
                    cur = next;
                }
                self.collect(&cur);
                self.bound.truncate(depth);
                for n in added {
                    self.constrained.remove(&n);
                }
            }
            StmtKind::For { name, body, .. } => {
                self.bound.push(name.clone());
                self.collect(body);
                self.bound.pop();
            }
            StmtKind::Provide { name, values, .. } => {
                let stage = self.bound.iter().rev().find_map(|n| crate::compute_bounds::stage_of(n, name));
                let values = values.iter().map(|v| substitute(&self.constrained, v)).collect();
                self.sites.entry(name.clone()).or_default().push(Site {
                    values,
                    bound: self.bound.clone(),
                    stage,
                });
            }
            _ => s.children().into_iter().for_each(|c| self.collect(c)),
        })
    }
}

/// `s` with the access clamps of the clamping stage removed (see the module docs); the
/// statement itself when there are none.
pub fn undo_access_clamps(s: &Stmt, bounds: &FuncValueBounds) -> Stmt {
    // The clamping stage only clamps with bounds finite on both ends. (A walk of a large
    // statement costs more than computing the entries of a few Funcs, which is what
    // finding one bounded entry usually takes.)
    if !bounds.any_bounded() {
        return s.clone();
    }
    Unclamp { bounds, memo: ExprMemo::default() }.mutate_stmt(s)
}

struct Unclamp<'a> {
    bounds: &'a FuncValueBounds,
    memo: ExprMemo,
}

impl Unclamp<'_> {
    /// `max(min(f(args), hi), lo)` with `[lo, hi]` the bounds of element `k` of `f`:
    /// the call to element `k`.
    fn bare_call(&self, e: &Expr) -> Option<Expr> {
        let ExprKind::Binary(BinOp::Max, inner, lo) = e.kind() else { return None };
        let ExprKind::Binary(BinOp::Min, call, hi) = inner.kind() else { return None };
        let ExprKind::Call { name, args, call_type: CallType::Halide, .. } = call.kind() else { return None };
        (0u32..)
            .map_while(|k| self.bounds.get(name, k).map(|i| (k, i)))
            .find(|(_, i)| i.lo().is_some_and(|m| equal(m, lo)) && i.hi().is_some_and(|m| equal(m, hi)))
            .map(|(k, _)| Expr::call_func(call.ty(), name.clone(), args.clone(), k))
    }
}

impl Mutator for Unclamp<'_> {
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        if e.is_leaf() {
            return e.clone();
        }
        if let Some(r) = self.memo.lookup(e) {
            return r;
        }
        let inner = self.super_expr(e);
        let r = self.bare_call(&inner).unwrap_or(inner);
        self.memo.record(e, &r);
        r
    }
}

/// For a parameter-check let `p.constrained = ...` whose value mentions `p`: the
/// parameter `p` as a variable of the let's type.
fn constrained_parameter(name: &Name, value: &Expr) -> Option<Expr> {
    let param = name.strip_suffix(".constrained")?;
    if param.is_empty() || !mentions_var(value, param) {
        return None;
    }
    Some(Expr::var(value.ty(), loopir::name(param)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use loopir::Type;
    use loopir::parse::{ParseEnv, parse_stmt_with_env};

    #[test]
    fn pure_funcs_get_value_bounds_and_updated_ones_do_not() {
        let env = ParseEnv::new().with_func("g", vec![Type::INT32]).with_func("h", vec![Type::INT32]);
        let text = "for (g.s0.x, 0, 99) {\n g(g.s0.x) = max(min(g.s0.x, 255), 0)\n}\nfor (h.s0.x, 0, 9) {\n h(h.s0.x) = 0\n}\nfor (h.s1.x, 0, 9) {\n h(h.s1.x) = h(h.s1.x) + 1\n}\n";
        let s = parse_stmt_with_env(text, &env).unwrap_or_else(|e| panic!("{e}"));
        let fb = func_value_bounds_from_text(&Ctx::new(), &s);
        assert_eq!(fb.get(&loopir::name("g"), 0).map(|i| i.pretty()), Some("[0, 255]".to_owned()));
        assert!(fb.get(&loopir::name("h"), 0).is_none());
    }

    /// The table's `t` names end just before the context's counter, as the reference drew
    /// them just before the pass; a counter too low for that numbers them from 0 (the
    /// counting run's numbering, returned as it is).
    #[test]
    fn names_end_before_the_context_counter_or_start_at_zero() {
        let env =
            ParseEnv::new().with_func("f", vec![Type::float(32, 1)]).with_func("g", vec![Type::float(32, 1)]);
        let text = "for (f.s0.x, 0, 99) {\n f(f.s0.x) = select(10 < max(h, w), 2.000000f, 0.000000f)\n}\nfor (g.s0.x, 0, 99) {\n g(g.s0.x) = select(20 < max(h, w), f(g.s0.x) + f(g.s0.x + 1), 0.000000f)\n}\n";
        let s = parse_stmt_with_env(text, &env).unwrap_or_else(|e| panic!("{e}"));
        let max_of_g = |next: u64| {
            let ctx = Ctx::new();
            ctx.seed_t(next);
            let fb = func_value_bounds_from_text(&ctx, &s);
            assert_eq!(ctx.next_t(), next, "the context's counter is left where it was");
            let g = fb.get(&loopir::name("g"), 0).map(|i| i.max);
            g.and_then(|b| b.as_expr().map(|e| e.to_string())).unwrap_or_default()
        };
        let named = |a: u32, b: u32| {
            format!(
                "(let t{a} = max(h, w) in (let t{b} = select(10 < t{a}, 2.000000f, 0.000000f) in select(20 < t{a}, t{b} + t{b}, 0.000000f)))"
            )
        };
        assert_eq!(max_of_g(100), named(98, 99));
        assert_eq!(max_of_g(2), named(0, 1));
        assert_eq!(max_of_g(1), named(0, 1));
        assert_eq!(max_of_g(0), named(0, 1));
    }

    /// A chain of six Funcs, each reading the one before twice under a select, so that
    /// every entry draws names.
    fn chain_of_funcs() -> Stmt {
        let mut env = ParseEnv::new();
        let mut text = String::from(
            "for (f0.s0.x, 0, 99) {\n f0(f0.s0.x) = select(10 < max(h, w), 2.000000f, 0.000000f)\n}\n",
        );
        env = env.with_func("f0", vec![Type::float(32, 1)]);
        for i in 1..6 {
            let x = format!("f{i}.s0.x");
            let p = i - 1;
            text.push_str(&format!(
                "for ({x}, 0, 99) {{\n f{i}({x}) = select({} < max(h, w), f{p}({x}) + f{p}({x} + 1), 0.000000f)\n}}\n",
                10 << i
            ));
            env = env.with_func(&format!("f{i}"), vec![Type::float(32, 1)]);
        }
        parse_stmt_with_env(&text, &env).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A computed entry's ends are results of fact-free simplification, and the context
    /// of a query that reads them is told so (a simplifier of that context then leaves
    /// them as they are instead of walking a chain as long as the Funcs before them); an
    /// entry given by hand is not vouched for.
    #[test]
    fn computed_entries_are_known_simplified_where_they_are_read() {
        let s = chain_of_funcs();
        let mut x = Scope::new();
        let _ = x.push("x", Interval::new(Expr::i32(0), Expr::i32(10)));
        let call = Expr::call_func(Type::float(32, 1), "f4", vec![Expr::var_i32("x")], 0);
        let max_end = |table: &FuncValueBounds, ctx: &Ctx| {
            let i = bounds_of_expr_in_scope(ctx, &call, &x, table, false);
            i.max.as_expr().cloned().unwrap_or_else(|| Expr::i32(0))
        };
        let computed = func_value_bounds_from_text(&Ctx::new(), &s);
        let ctx = Ctx::new();
        let end = max_end(&computed, &ctx);
        assert!(!end.is_leaf() && ctx.is_simplified(&end), "{end}");
        let given: FuncValueBounds = computed.entries().into_iter().collect();
        let ctx = Ctx::new();
        let end = max_end(&given, &ctx);
        assert!(!end.is_leaf() && !ctx.is_simplified(&end), "{end}");
    }

    /// Drawn from a run's generator, the table computes every entry at once and leaves
    /// the counter past its names, which are those of a table numbered to end there; the
    /// generator records them.
    #[test]
    fn a_table_drawn_now_continues_the_counter_and_ends_where_one_drawn_before_would() {
        let s = chain_of_funcs();
        let mut names = NameGen::new();
        names.set_next_char('t', 1000).expect("in range");
        names.record();
        let drawn = func_value_bounds_drawn_from(&mut names, &s);
        assert_eq!(format!("{drawn:?}"), "FuncValueBounds { 6 entries computed, 0 Funcs pending }");
        let end = names.next_char('t');
        assert!(end > 1000 && drawn.names_end() == end, "{end}");
        let minted: Vec<&str> = names.minted().iter().map(|n| n.as_ref()).collect();
        assert_eq!(minted.first(), Some(&"t1000"), "{minted:?}");
        assert!((1000..end).all(|k| minted.contains(&format!("t{k}").as_str())), "{minted:?}");
        let text = |t: &FuncValueBounds| format!("{:?}", t.entries());
        assert_eq!(text(&drawn), text(&func_value_bounds_ending_before(&s, end)));
        assert!(text(&drawn).contains(&format!("t{}", end - 1)));
    }

    /// How far a table's names go: to the end it was given, or past it when they outnumber
    /// it and start at 0.
    #[test]
    fn names_end_says_how_far_the_names_go() {
        let s = chain_of_funcs();
        let before = func_value_bounds_ending_before(&s, 1000);
        assert_eq!(before.names_end(), 0, "nothing computed yet");
        let _ = before.entries();
        assert_eq!(before.names_end(), 1000);
        let from_zero = func_value_bounds_ending_before(&s, 3);
        let _ = from_zero.get(&loopir::name("f1"), 0);
        let reached = from_zero.names_end();
        let _ = from_zero.entries();
        assert!(reached > 3 && from_zero.names_end() > reached, "{reached} {}", from_zero.names_end());
    }

    #[test]
    fn entries_are_computed_as_far_as_asked_with_the_whole_tables_answers() {
        let s = chain_of_funcs();
        let f = |i: usize| loopir::name(&format!("f{i}"));
        // 0: names from 0 at once; 3: fewer than the table draws, so from 0 too, once
        // counted; 1000: more, so the names end at t999 and are computed twice.
        for next in [0u64, 3, 1000] {
            let table = || {
                let ctx = Ctx::new();
                ctx.seed_t(next);
                func_value_bounds_from_text(&ctx, &s)
            };
            let whole = table().entries();
            assert_eq!(whole.len(), 6);
            let expected = |i: usize| whole.iter().find(|(k, _)| k.0 == f(i)).map(|(_, v)| format!("{v:?}"));
            let lazy = table();
            assert_eq!(lazy.get(&f(2), 0).map(|v| format!("{v:?}")), expected(2), "seed {next}");
            assert_eq!(
                format!("{lazy:?}"),
                "FuncValueBounds { 3 entries computed, 3 Funcs pending }",
                "seed {next}"
            );
            assert!(lazy.get(&f(2), 1).is_none());
            assert!(lazy.get(&loopir::name("h"), 0).is_none());
            for i in [5, 0, 3, 1, 4] {
                assert_eq!(lazy.get(&f(i), 0).map(|v| format!("{v:?}")), expected(i), "seed {next}, f{i}");
            }
            assert_eq!(format!("{lazy:?}"), "FuncValueBounds { 6 entries computed, 0 Funcs pending }");
        }
        // Finding a bounded entry stops at the first one (f0 is [0.0f, 2.0f]).
        let first = func_value_bounds_from_text(&Ctx::new(), &s);
        assert!(first.any_bounded());
        assert_eq!(format!("{first:?}"), "FuncValueBounds { 1 entries computed, 5 Funcs pending }");
        let ctx = Ctx::new();
        ctx.seed_t(1000);
        let last =
            func_value_bounds_from_text(&ctx, &s).get(&f(5), 0).map(|v| format!("{v:?}")).unwrap_or_default();
        assert!(last.contains("t999") && !last.contains("t1000"), "{last}");
    }
}
