//! Substitution: replacing variables by expressions, and inlining lets.
//!
//! Halide's `substitute` and `substitute_in_all_lets`: memoised on node identity, so a DAG
//! is rewritten in time proportional to its size and the result shares what did not
//! change.
//!
//! ```
//! use loopir::substitute::{inline_lets, substitute_one};
//! use loopir::{name, parse_expr};
//!
//! let e = parse_expr("min(x + 1, let x = 2 in (x*y))").unwrap();
//! let r = substitute_one(&name("x"), &parse_expr("z").unwrap(), &e);
//! assert_eq!(r.to_string(), "min(z + 1, let x = 2 in (x*y))");
//! let inlined = inline_lets(&parse_expr("let t = (a + b) in (t*t)").unwrap(), |_| true);
//! assert_eq!(inlined.to_string(), "((a + b)*(a + b))");
//! ```

use rustc_hash::FxHashMap;

use crate::address_map::AddressMap;
use crate::expr::{Expr, ExprKind, ExprNode, Name};
use crate::stack::with_stack;

/// Replaces free occurrences of the variables in `map` (capture-avoiding with respect to
/// lets of the same name; the replacements are assumed not to mention names bound by lets
/// inside `e`). Memoised on node identity; unchanged subtrees stay shared.
pub fn substitute(map: &FxHashMap<Name, Expr>, e: &Expr) -> Expr {
    fn go(
        e: &Expr,
        map: &FxHashMap<Name, Expr>,
        shadowed: &mut Vec<Name>,
        memo: &mut AddressMap<*const ExprNode, Expr>,
    ) -> Expr {
        let memoable = shadowed.is_empty();
        if memoable && let Some(r) = memo.get(&e.as_ptr()) {
            return r.clone();
        }
        let result = with_stack(|| match e.kind() {
            ExprKind::Variable(n) => match map.get(n) {
                Some(r) if !shadowed.contains(n) => r.clone(),
                _ => e.clone(),
            },
            ExprKind::Let { name, value, body } => {
                let nv = go(value, map, shadowed, memo);
                let shadows = map.contains_key(name);
                if shadows {
                    shadowed.push(name.clone());
                }
                let nb = go(body, map, shadowed, memo);
                if shadows {
                    shadowed.pop();
                }
                if nv.same_as(value) && nb.same_as(body) {
                    e.clone()
                } else {
                    Expr::let_in(name.clone(), nv, nb)
                }
            }
            _ => e.map_children(|c| go(c, map, shadowed, memo)),
        });
        if memoable {
            memo.insert(e.as_ptr(), result.clone());
        }
        result
    }
    if map.is_empty() {
        return e.clone();
    }
    go(e, map, &mut Vec::new(), &mut AddressMap::default())
}

/// `e` with every let whose name satisfies `inline` replaced by its value. Shared nodes
/// stay shared (the result is a DAG of the same size, not the tree). Let names are
/// assumed unique within `e`, as CSE and lowering make them, so one memo over node
/// identity serves the whole walk.
pub fn inline_lets(e: &Expr, inline: impl Fn(&str) -> bool) -> Expr {
    fn go(
        e: &Expr,
        inline: &dyn Fn(&str) -> bool,
        values: &mut FxHashMap<Name, Expr>,
        memo: &mut AddressMap<*const ExprNode, Expr>,
    ) -> Expr {
        if let Some(r) = memo.get(&e.as_ptr()) {
            return r.clone();
        }
        let result = with_stack(|| match e.kind() {
            ExprKind::Variable(n) => values.get(n).cloned().unwrap_or_else(|| e.clone()),
            ExprKind::Let { name, value, body } if inline(name) => {
                let v = go(value, inline, values, memo);
                values.insert(name.clone(), v);
                go(body, inline, values, memo)
            }
            _ => e.map_children(|c| go(c, inline, values, memo)),
        });
        memo.insert(e.as_ptr(), result.clone());
        result
    }
    go(e, &inline, &mut FxHashMap::default(), &mut AddressMap::default())
}

/// Replaces free occurrences of `name` in `e` by `replacement`.
pub fn substitute_one(name: &Name, replacement: &Expr, e: &Expr) -> Expr {
    let mut map = FxHashMap::default();
    map.insert(name.clone(), replacement.clone());
    substitute(&map, e)
}
