//! Func value bounds read from the text (spec §2.3.3, last row): the range of values
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
//! names. The reference draws those before the pass starts, so they are numbered to end
//! just before the context's next `t`, and the context's counter is left where it was.
//!
//! The stage that clamps unsafe data-dependent accesses (corpus stage 03) wrapped some
//! Func calls used as indices in `max(min(f(..), hi), lo)` with `[lo, hi]` the value
//! bounds of `f`. It changed the statement only: the reference's later analyses read the
//! definitions, which have the bare call. [`undo_access_clamps`] removes exactly those
//! wrappers (both bounds must equal the computed value bounds of `f` textually), and, as
//! a by-product, recovers the tuple index the text does not print: the element whose
//! bounds matched.

use indexmap::IndexMap;
use loopir::equality::with_stack;
use loopir::mutate::{ExprMemo, Mutator, walk_expr};
use loopir::{BinOp, CallType, Expr, ExprKind, Name, Stmt, StmtKind};
use rustc_hash::FxHashMap;

use crate::bounds_of_expr::{FuncValueBounds, bounds_of_expr_in_scope};
use crate::cse::cse;
use crate::ctx::Ctx;
use crate::env::BoundsEnv;
use crate::interval::Interval;
use crate::ir::{equal, inline_lets, mentions_var, substitute, var};
use crate::scope::Scope;
use crate::simplify::simplify_expr;

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
    let ctx = Ctx::new();
    ctx.seed_t(env.fresh_names.t.unwrap_or(0));
    func_value_bounds_from_text(&ctx, defs)
}

/// Func value bounds of every Func with a single stage in `s`.
pub fn func_value_bounds_from_text(ctx: &Ctx, s: &Stmt) -> FuncValueBounds {
    let sites = collect_sites(s);
    let counting = Ctx::with_options(ctx.options());
    let out = value_bounds(&counting, &sites);
    let drawn = counting.next_t();
    // The counting run numbered its names from 0; when the names cannot end before the
    // context's counter (it is at most `drawn`), they start at 0 in the numbered run too,
    // which would then repeat the counting run exactly.
    let start = ctx.next_t().saturating_sub(drawn);
    if start == 0 {
        return out;
    }
    let numbered = Ctx::with_options(ctx.options());
    numbered.seed_t(start);
    value_bounds(&numbered, &sites)
}

fn collect_sites(s: &Stmt) -> IndexMap<Name, Vec<Site>> {
    let mut sites: IndexMap<Name, Vec<Site>> = IndexMap::new();
    let mut walk = Walk { bound: Vec::new(), constrained: FxHashMap::default(), sites: &mut sites };
    walk.collect(s);
    sites
}

/// The bounds of each single-stage Func, in text order (producers before consumers, so a
/// value that calls an earlier Func uses that Func's bounds, as the reference's walk over
/// the realization order does).
fn value_bounds(ctx: &Ctx, sites: &IndexMap<Name, Vec<Site>>) -> FuncValueBounds {
    let mut out = FuncValueBounds::default();
    // Whether some Func's bounds are finite on both ends (only those can have been used
    // for access clamps). Kept as the table grows: asking the table for each value
    // scanned every earlier Func (quadratic in a 1,000-stage chain).
    let mut any_bounded = false;
    for (func, list) in sites {
        let func = func.clone();
        let single_stage = list.iter().all(|site| site.stage.is_none_or(|k| k == 0)) || list.len() == 1;
        if !single_stage {
            continue;
        }
        let arity = list.first().map_or(0, |site| site.values.len());
        for k in 0..arity {
            let mut hull = Interval::nothing();
            for site in list {
                let Some(v) = site.values.get(k) else { continue };
                let unclamped;
                let v = if any_bounded {
                    unclamped = Unclamp { bounds: &out, memo: ExprMemo::default() }.mutate_expr(v);
                    &unclamped
                } else {
                    v
                };
                let mut scope = Scope::new();
                // Only the bound names the value mentions matter (a Provide inside 10^5
                // lets would otherwise bind them all, per value).
                let free = ctx.free_vars(v);
                for n in &site.bound {
                    if free.as_ref().is_none_or(|f| f.binary_search(n).is_ok()) {
                        let _ = scope.push(n.clone(), Interval::everything());
                    }
                }
                let i = bounds_of_expr_in_scope(ctx, v, &scope, &out, false);
                hull.include(&i);
            }
            let tidy = |e: &Expr| simplify_expr(ctx, &cse(ctx, &inline_lets(e, |_| true)));
            let fixed = hull.is_single_point();
            let min = hull.min.map(tidy);
            let max = if fixed { min.clone() } else { hull.max.map(tidy) };
            let hull = Interval { min, max };
            any_bounded |= hull.is_bounded();
            out.insert((func.clone(), k as u32), hull);
        }
    }
    out
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
    // The clamping stage only clamps with bounds finite on both ends.
    if !bounds.values().any(Interval::is_bounded) {
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
            .map_while(|k| self.bounds.get(&(name.clone(), k)).map(|i| (k, i)))
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
        let inner = walk_expr(self, e);
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
    Some(var(value.ty(), loopir::name(param)))
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
        assert_eq!(fb.get(&(loopir::name("g"), 0)).map(Interval::pretty), Some("[0, 255]".to_owned()));
        assert!(!fb.contains_key(&(loopir::name("h"), 0)));
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
            let g = fb.get(&(loopir::name("g"), 0)).map(|i| i.max.clone());
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
}
