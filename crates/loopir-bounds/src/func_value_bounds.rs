//! Func value bounds read from the text (spec §2.3.3, last row): the range of values
//! each Func can produce, used when a Func's value indexes another Func.
//!
//! For a Func with exactly one stage (every Provide to it sits in loops of stage `s0`, or
//! it has a single Provide), the bounds of each value of its Provides with every variable
//! the statement binds around the Provide (loop variables, lets) unbounded, unioned over
//! the Provides (specialization branches), then CSE'd and simplified. Symbols (parameters
//! and outer values) stay symbolic. Funcs with updates get the bounds of their value type
//! (finite only for integers of at most 16 bits), which is what an absent entry means.

use indexmap::IndexMap;
use loopir::equality::with_stack;
use loopir::{Expr, Name, Stmt, StmtKind};

use crate::bounds_of_expr::{FuncValueBounds, bounds_of_expr_in_scope};
use crate::cse::cse;
use crate::ctx::Ctx;
use crate::interval::Interval;
use crate::scope::Scope;
use crate::simplify::simplify_expr;

/// One Provide with the names bound around it.
struct Site {
    values: Vec<Expr>,
    bound: Vec<Name>,
    stage: Option<u32>,
}

/// Func value bounds of every Func with a single stage in `s`.
pub fn func_value_bounds_from_text(ctx: &Ctx, s: &Stmt) -> FuncValueBounds {
    let mut sites: IndexMap<Name, Vec<Site>> = IndexMap::new();
    collect(s, &mut Vec::new(), &mut sites);
    let mut out = FuncValueBounds::default();
    for (func, list) in sites {
        let single_stage = list.iter().all(|site| site.stage.is_none_or(|k| k == 0)) || list.len() == 1;
        if !single_stage {
            continue;
        }
        let arity = list.first().map_or(0, |site| site.values.len());
        for k in 0..arity {
            let mut hull = Interval::nothing();
            for site in &list {
                let Some(v) = site.values.get(k) else { continue };
                let mut scope = Scope::new();
                // Only the bound names the value mentions matter (a Provide inside 10^5
                // lets would otherwise bind them all, per value).
                let free = ctx.free_vars(v);
                for n in &site.bound {
                    if free.as_ref().is_none_or(|f| f.binary_search(n).is_ok()) {
                        let _ = scope.push(n.clone(), Interval::everything());
                    }
                }
                let i = bounds_of_expr_in_scope(ctx, v, &scope, &FuncValueBounds::default(), false);
                hull.include(&i);
            }
            let tidy = |e: &Expr| simplify_expr(ctx, &cse(ctx, e));
            let hull = Interval { min: hull.min.map(tidy), max: hull.max.map(tidy) };
            out.insert((func.clone(), k as u32), hull);
        }
    }
    out
}

/// The stage number of a loop named `<func>.s<k>.…`.
fn stage_of(loop_name: &str, func: &str) -> Option<u32> {
    let rest = loop_name.strip_prefix(func)?.strip_prefix(".s")?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

fn collect(s: &Stmt, bound: &mut Vec<Name>, sites: &mut IndexMap<Name, Vec<Site>>) {
    with_stack(|| match s.kind() {
        StmtKind::LetStmt { .. } => {
            let mut cur = s.clone();
            let depth = bound.len();
            while let StmtKind::LetStmt { name, body, .. } = cur.kind() {
                bound.push(name.clone());
                let next = body.clone();
                cur = next;
            }
            collect(&cur, bound, sites);
            bound.truncate(depth);
        }
        StmtKind::For { name, body, .. } => {
            bound.push(name.clone());
            collect(body, bound, sites);
            bound.pop();
        }
        StmtKind::Provide { name, values, .. } => {
            let stage = bound.iter().rev().find_map(|n| stage_of(n, name));
            sites.entry(name.clone()).or_default().push(Site {
                values: values.clone(),
                bound: bound.clone(),
                stage,
            });
        }
        StmtKind::Block(stmts) => stmts.iter().for_each(|st| collect(st, bound, sites)),
        StmtKind::Fork { first, rest } => {
            collect(first, bound, sites);
            collect(rest, bound, sites);
        }
        StmtKind::IfThenElse { then_case, else_case, .. } => {
            collect(then_case, bound, sites);
            if let Some(e) = else_case {
                collect(e, bound, sites);
            }
        }
        StmtKind::ProducerConsumer { body, .. }
        | StmtKind::Atomic { body, .. }
        | StmtKind::HoistedStorage { body, .. }
        | StmtKind::Allocate { body, .. }
        | StmtKind::Realize { body, .. }
        | StmtKind::Prefetch { body, .. }
        | StmtKind::Acquire { body, .. } => collect(body, bound, sites),
        StmtKind::AssertStmt { .. }
        | StmtKind::Store { .. }
        | StmtKind::Free { .. }
        | StmtKind::Evaluate(_) => {}
    })
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
}
