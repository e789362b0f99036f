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
use crate::binder::Binder;
use crate::expr::{Expr, ExprKind, ExprNode, Name};
use crate::mutate::Mutator;
use crate::stack::with_stack;
use crate::stmt::Stmt;

/// Replaces free occurrences of the variables in `map` (capture-avoiding with respect to
/// lets of the same name; the replacements are assumed not to mention names bound by lets
/// inside `e`). Memoised on node identity; unchanged subtrees stay shared.
pub fn substitute(map: &FxHashMap<Name, Expr>, e: &Expr) -> Expr {
    if map.is_empty() {
        return e.clone();
    }
    substitute_with_memo(map, e, &mut AddressMap::default())
}

/// [`substitute`] with the memo of its results given: the expressions of one statement
/// share nodes, and one memo rewrites each shared node once for all of them.
fn substitute_with_memo(
    map: &FxHashMap<Name, Expr>,
    e: &Expr,
    memo: &mut AddressMap<*const ExprNode, Expr>,
) -> Expr {
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
    go(e, map, &mut Vec::new(), memo)
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

/// `stmt` with the free uses of variable `name` in its expressions replaced by
/// `replacement`. A use under a node that binds `name` (a let, loop, allocation or
/// realization; see [`crate::binder`]) is another variable's and stays. The expressions
/// share one memo, so the statement is rewritten in time proportional to its DAG, and
/// what does not change stays shared.
///
/// ```
/// use loopir::substitute::substitute_in_stmt;
/// use loopir::{name, parse_expr, parse_stmt};
/// let s = parse_stmt("f(x) = x + 1\nfor (x, 0, 3) {\n f(x) = x\n}\n").unwrap();
/// let r = substitute_in_stmt(&name("x"), &parse_expr("y").unwrap(), &s);
/// assert_eq!(r.to_string(), "f(y) = y + 1\nfor (x, 0, 3) {\n f(x) = x\n}\n");
/// ```
pub fn substitute_in_stmt(name: &Name, replacement: &Expr, stmt: &Stmt) -> Stmt {
    struct InStmt {
        map: FxHashMap<Name, Expr>,
        /// How many binders of the name enclose the current node: inside one, the name
        /// is another variable.
        shadowed: usize,
        memo: AddressMap<*const ExprNode, Expr>,
    }
    impl Mutator for InStmt {
        fn mutate_expr(&mut self, e: &Expr) -> Expr {
            if self.shadowed > 0 { e.clone() } else { substitute_with_memo(&self.map, e, &mut self.memo) }
        }
        fn enter_scope(&mut self, binder: &Binder<'_>) {
            if self.map.contains_key(binder.name()) {
                self.shadowed += 1;
            }
        }
        fn leave_scope(&mut self, binder: &Binder<'_>) {
            if self.map.contains_key(binder.name()) {
                self.shadowed -= 1;
            }
        }
    }
    let mut map = FxHashMap::default();
    map.insert(name.clone(), replacement.clone());
    InStmt { map, shadowed: 0, memo: AddressMap::default() }.mutate_stmt(stmt)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{name, parse_expr, parse_stmt};

    #[test]
    fn every_binder_of_the_name_hides_it_and_what_does_not_change_stays_shared() {
        let by_y = |text: &str| {
            let s = parse_stmt(text).expect("parses");
            substitute_in_stmt(&name("x"), &parse_expr("y").expect("parses"), &s).to_string()
        };
        // A loop's bounds, a let's value and an allocation's extents are outside the
        // binder's scope; its body is inside.
        assert_eq!(
            by_y("f(x) = x\nfor (x, x, 3) {\n f(x) = x\n}\nlet x = x + 1\nf(x) = x\n"),
            "f(y) = y\nfor (x, y, 3) {\n f(x) = x\n}\nlet x = y + 1\nf(x) = x\n"
        );
        assert_eq!(
            by_y("allocate x[int32 * x]\nx[0] = x\nfree x\n"),
            "allocate x[int32 * y]\nx[0] = x\nfree x\n"
        );
        let unchanged = parse_stmt("f(z) = z + 1\n").expect("parses");
        assert!(
            substitute_in_stmt(&name("x"), &parse_expr("y").expect("parses"), &unchanged).same_as(&unchanged)
        );
    }
}
