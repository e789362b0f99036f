//! Allocation bounds inference, text-only (`docs/reference/bounds.md` §2.2, §2.4): defines the
//! `<f>.<d>.min_realized`, `.max_realized` and `.extent_realized` symbols of every
//! `realize f(...)` from the region the realize body touches.
//!
//! **Assumes** the IR after uniquification and simplification (Halide's input to this
//! pass: stage 10 or 09 of the corpus), with realize bounds named
//! `[<f>.<d>.min_realized, <f>.<d>.extent_realized]`.
//!
//! **Guarantees**: for each realize, outermost first, the touched box of `f` in the
//! realize's *original* body (before inner realizes got their own lets), cut down to the
//! statements relevant to `f` as the reference cuts it, is computed with an empty scope,
//! Halide's overflow-to-zero rule, Halide's handling of varying conditions (each
//! variable solved for and restricted, dependent lets rebound to fresh names; a
//! predicated Provide's calls walked outside its predicate), and calls and provides
//! merged (calls first). A realize
//! of a Func that nothing touches is dropped (its body kept). Per dimension, from the
//! first (so the last prints first), the realize is wrapped in the explicit-bound asserts,
//! then `extent_realized`, `min_realized`, `max_realized` lets. Ends are CSE'd and
//! simplified; an unbounded end is an error. Every
//! `declare_box_touched(...)` statement becomes `0`.

use loopir::make;
use loopir::mutate::TryMutator;
use loopir::{CallType, Expr, Intrinsic, Name, Stmt, StmtKind, Type};

use crate::bounds_of_expr::FuncValueBounds;
use crate::boxes::Region;
use crate::boxes_touched::box_touched_in;
use crate::env::{BoundsEnv, ExplicitBound};
use crate::error::BoundsError;
use crate::relevance::Relevance;
use loopir_simplify::cse::cse;
use loopir_simplify::ctx::{Ctx, Options};
use loopir_simplify::simplify::simplify_expr;

/// Runs allocation bounds inference on `s` (see the module docs). `fresh_t` seeds the
/// `t` counter used by CSE (Halide's counter at the start of this pass).
pub fn allocation_bounds_inference(
    s: &Stmt,
    env: &BoundsEnv,
    func_bounds: &FuncValueBounds,
    fresh_t: u64,
) -> Result<Stmt, BoundsError> {
    let ctx = allocation_bounds_ctx();
    ctx.seed_t(fresh_t);
    allocation_bounds_inference_in(&ctx, s, env, func_bounds)
}

/// The analysis context allocation bounds inference runs with: the reference's
/// overflow-to-zero rule and its handling of varying conditions.
pub fn allocation_bounds_ctx() -> Ctx {
    Ctx::with_options(Options { compat_purify: true, compat_conditions: true, ..Options::default() })
}

/// [`allocation_bounds_inference`] with a context from [`allocation_bounds_ctx`] whose
/// fresh names the caller has set up (the lowering pass hands it the run's generator).
pub fn allocation_bounds_inference_in(
    ctx: &Ctx,
    s: &Stmt,
    env: &BoundsEnv,
    func_bounds: &FuncValueBounds,
) -> Result<Stmt, BoundsError> {
    loopir::pipeline::check_stage(s, loopir::pipeline::IrStage::Schedule).map_err(BoundsError::WrongStage)?;
    env.check_against(s)?;
    let relevance = Relevance::new(s, realized_funcs(s));
    AllocationBounds { ctx, env, func_bounds, relevance }.try_mutate_stmt(s)
}

struct AllocationBounds<'a> {
    ctx: &'a Ctx,
    env: &'a BoundsEnv,
    func_bounds: &'a FuncValueBounds,
    /// What each realize's walk sees of its body (see [`Relevance`]).
    relevance: Relevance,
}

/// The argument name of a realize dimension, from its `<f>.<d>.min_realized` min.
fn dim_name(func: &str, min: &Expr, index: usize) -> String {
    min.as_variable()
        .and_then(|n| {
            n.strip_prefix(func)
                .and_then(|r| r.strip_prefix('.'))
                .and_then(|r| r.strip_suffix(".min_realized"))
        })
        .map_or_else(|| format!("_{index}"), str::to_owned)
}

impl AllocationBounds<'_> {
    fn simplified(&self, e: &Expr) -> Expr {
        simplify_expr(self.ctx, &cse(self.ctx, e))
    }

    fn explicit_bound(&self, func: &str, dim: &str) -> Option<&ExplicitBound> {
        self.env.funcs.get(func)?.bounds.iter().find(|b| b.var == dim)
    }

    fn realize(&mut self, s: &Stmt) -> Result<Stmt, BoundsError> {
        let StmtKind::Realize { name, bounds, body, .. } = s.kind() else { return self.try_super_stmt(s) };
        // The index over the whole input makes each realize's cut cheap: nested
        // realizes (one per root stage) would otherwise each walk all those inside them.
        let touched = box_touched_in(self.ctx, &mut self.relevance, body, name, self.func_bounds)?;
        let new_body = self.try_mutate_stmt(body)?;
        let Some(region) = touched.filter(|r| !r.bounds.is_empty()) else {
            if bounds.is_empty() {
                return Ok(rebuild_realize(s, new_body));
            }
            return Ok(new_body);
        };
        let mut current = rebuild_realize(s, new_body);
        for (i, range) in bounds.iter().enumerate() {
            let dim = dim_name(name, &range.min, i);
            current = self.wrap_dimension(name, &dim, i, &region, current)?;
        }
        Ok(current)
    }

    fn wrap_dimension(
        &mut self,
        func: &Name,
        dim: &str,
        i: usize,
        region: &Region,
        body: Stmt,
    ) -> Result<Stmt, BoundsError> {
        let unbounded = || BoundsError::Unbounded { func: func.clone(), dim: dim.to_owned() };
        let interval = region.bounds.get(i).ok_or_else(unbounded)?;
        let (Some(lo), Some(hi)) = (interval.lo(), interval.hi()) else { return Err(unbounded()) };
        let (touched_min, touched_max) = (self.simplified(lo), self.simplified(hi));
        let explicit = self.explicit_bound(func, dim).map(ExplicitBound::parse).transpose()?;
        let mut min = touched_min.clone();
        let mut max = touched_max.clone();
        // As the reference: an explicit min and extent are taken as written, the max
        // derived from them simplified; alignment rounds the result (its min and max
        // unsimplified when there is a remainder).
        let mut extent = None;
        if let Some(b) = &explicit {
            if let Some(m) = &b.min {
                min = m.clone();
            }
            if let Some(x) = &b.extent {
                max = self.simplified(&make::sub(make::add(min.clone(), x.clone()), Expr::i32(1)));
                extent = Some(x.clone());
            }
        }
        let mut extent = extent.unwrap_or_else(|| {
            self.simplified(&make::add(make::sub(max.clone(), min.clone()), Expr::i32(1)))
        });
        if let Some(b) = &explicit
            && let Some(modulus) = &b.modulus
        {
            match &b.remainder {
                Some(r) => {
                    let (lo, plus_one) = crate::align::aligned_min_and_max_plus_one(&min, &max, modulus, r);
                    extent = self.simplified(&make::sub(plus_one.clone(), lo.clone()));
                    min = lo;
                    max = make::sub(plus_one, Expr::i32(1));
                }
                None => {
                    extent = self.simplified(&crate::align::rounded_up(&extent, modulus));
                    max = self.simplified(&make::sub(make::add(min.clone(), extent.clone()), Expr::i32(1)));
                }
            }
        }
        let var = |suffix: &str| loopir::name(&format!("{func}.{dim}.{suffix}"));
        let (min_name, max_name, extent_name) =
            (var("min_realized"), var("max_realized"), var("extent_realized"));
        let mut current = body;
        if let Some(b) = &explicit {
            let error = || {
                Expr::call(
                    Type::INT32,
                    "halide_error_explicit_bounds_too_small",
                    vec![
                        Expr::string(dim),
                        Expr::string(func.as_bytes()),
                        Expr::var_i32(min_name.clone()),
                        Expr::var_i32(max_name.clone()),
                        touched_min.clone(),
                        touched_max.clone(),
                    ],
                    CallType::Extern,
                )
            };
            if b.min.is_some() {
                let cond = make::le(Expr::var_i32(min_name.clone()), touched_min.clone());
                let a = Stmt::assert_stmt(cond, error()).map_err(|e| BoundsError::IllTyped(e.to_string()))?;
                current = Stmt::block(vec![a, current]);
            }
            if b.extent.is_some() {
                let cond = make::ge(Expr::var_i32(max_name.clone()), touched_max.clone());
                let a = Stmt::assert_stmt(cond, error()).map_err(|e| BoundsError::IllTyped(e.to_string()))?;
                current = Stmt::block(vec![a, current]);
            }
        }
        current = Stmt::let_stmt(extent_name, extent, current);
        current = Stmt::let_stmt(min_name, min, current);
        Ok(Stmt::let_stmt(max_name, max, current))
    }
}

/// The names of the Funcs realized in `s`.
fn realized_funcs(s: &Stmt) -> rustc_hash::FxHashSet<Name> {
    struct Realized(rustc_hash::FxHashSet<Name>);
    impl loopir::visit::Visitor for Realized {
        fn visit_expr(&mut self, _: &Expr) {}
        fn visit_stmt(&mut self, s: &Stmt) {
            if let StmtKind::Realize { name, .. } = s.kind() {
                self.0.insert(name.clone());
            }
            self.super_stmt(s);
        }
    }
    let mut r = Realized(rustc_hash::FxHashSet::default());
    loopir::visit::Visitor::visit_stmt(&mut r, s);
    r.0
}

fn rebuild_realize(s: &Stmt, body: Stmt) -> Stmt {
    s.with_body(body).unwrap_or_else(|| s.clone())
}

impl TryMutator for AllocationBounds<'_> {
    type Error = BoundsError;
    fn try_mutate_stmt(&mut self, s: &Stmt) -> Result<Stmt, BoundsError> {
        match s.kind() {
            StmtKind::Realize { .. } => self.realize(s),
            StmtKind::Evaluate(e) if e.is_intrinsic(Intrinsic::DeclareBoxTouched) => {
                Ok(Stmt::evaluate(Expr::i32(0)))
            }
            _ => self.try_super_stmt(s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loopir::parse::{ParseEnv, parse_stmt_with_env};

    fn run(text: &str, env_json: &str) -> Result<String, BoundsError> {
        let env = BoundsEnv::from_json(env_json)?;
        let penv = ParseEnv::new().with_func("f", vec![Type::INT32]).with_func("g", vec![Type::INT32]);
        let s = parse_stmt_with_env(text, &penv).map_err(|e| BoundsError::Env(e.to_string()))?;
        allocation_bounds_inference(&s, &env, &FuncValueBounds::default(), 0).map(|s| s.to_string())
    }

    // No output: these statements are fragments without one (an output the statement
    // does not contain is an env mistake).
    const ENV: &str = r#"{"order": ["f", "g"], "target": {"profile": false}, "outputs": []}"#;

    #[test]
    fn realized_region_and_extent() {
        let text = "realize f([f.x.min_realized, f.x.extent_realized]) {\n  for (g.s0.x, 0, 9) {\n   f(g.s0.x + 2) = 0\n  }\n}\n";
        let out = run(text, ENV).unwrap_or_else(|e| panic!("{e}"));
        assert!(
            out.starts_with(
                "let f.x.max_realized = 11\nlet f.x.min_realized = 2\nlet f.x.extent_realized = 10\n"
            ),
            "{out}"
        );
    }

    #[test]
    fn p29_untouched_realize_is_dropped() {
        let text = "realize f([f.x.min_realized, f.x.extent_realized]) {\n  g(0) = 1\n}\n";
        let out = run(text, ENV).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(out, "g(0) = 1\n");
    }

    #[test]
    fn unbounded_access_is_an_error() {
        // A Func value used as an index, with no value bounds known: unbounded.
        let text = "realize f([f.x.min_realized, f.x.extent_realized]) {\n  g(0) = f(g(1))\n}\n";
        assert!(matches!(run(text, ENV), Err(BoundsError::Unbounded { .. })));
    }

    #[test]
    fn explicit_bounds_add_asserts() {
        let env = r#"{"order": ["f", "g"], "target": {"profile": false}, "outputs": [],
                      "funcs": {"f": {"bounds": [{"var": "x", "min": "0", "extent": "8"}]}}}"#;
        let text = "realize f([f.x.min_realized, f.x.extent_realized]) {\n  for (g.s0.x, 0, 6) {\n   f(g.s0.x) = 0\n  }\n}\n";
        let out = run(text, env).unwrap_or_else(|e| panic!("{e}"));
        assert!(out.contains("let f.x.max_realized = 7\nlet f.x.min_realized = 0\nlet f.x.extent_realized = 8\nassert(f.x.max_realized >= 6,"), "{out}");
    }

    #[test]
    fn bad_env_is_an_error() {
        assert!(matches!(BoundsEnv::from_json("{\"order\": 3}"), Err(BoundsError::Env(_))));
    }
}
