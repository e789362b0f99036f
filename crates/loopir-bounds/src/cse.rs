//! Let-introducing common-subexpression elimination, for printing results whose DAG is
//! small but whose tree is large (spec §3.1: "the printer must always CSE").
//!
//! Structurally equal nodes are first merged (hash-consing), then every non-trivial node
//! used more than once is bound to a fresh `t<N>` name, outermost first in dependency
//! order. Nodes that mention a name bound by a let inside the expression stay in place
//! (hoisting them would move them out of their binding's scope).

use loopir::equality::with_stack;
use loopir::{Expr, ExprKind, ExprNode, Name};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::ctx::Ctx;
use crate::ir;

/// A structural key of a node whose children are already canonical.
fn shape_key(e: &Expr, canon_children: &[Expr]) -> String {
    use std::fmt::Write as _;
    let mut k = format!("{:?}|", e.ty());
    match e.kind() {
        ExprKind::IntImm(v) => {
            let _ = write!(k, "i{v}");
        }
        ExprKind::UIntImm(v) => {
            let _ = write!(k, "u{v}");
        }
        ExprKind::FloatImm(v) => {
            let _ = write!(k, "f{}", v.to_bits());
        }
        ExprKind::StringImm(s) => {
            let _ = write!(k, "s{s:?}");
        }
        ExprKind::Variable(n) => {
            let _ = write!(k, "v{n}");
        }
        ExprKind::Cast(_) => k.push('c'),
        ExprKind::Reinterpret(_) => k.push('r'),
        ExprKind::Not(_) => k.push('!'),
        ExprKind::Binary(op, ..) => {
            let _ = write!(k, "b{op:?}");
        }
        ExprKind::Select(..) => k.push('?'),
        ExprKind::Load { name, alignment, .. } => {
            let _ = write!(k, "L{name}/{}/{}", alignment.modulus, alignment.remainder);
        }
        ExprKind::Ramp { lanes, .. } => {
            let _ = write!(k, "R{lanes}");
        }
        ExprKind::Broadcast { lanes, .. } => {
            let _ = write!(k, "B{lanes}");
        }
        ExprKind::Call { name, call_type, value_index, .. } => {
            let _ = write!(k, "C{name}/{call_type:?}/{value_index}");
        }
        ExprKind::Let { name, .. } => {
            let _ = write!(k, "l{name}");
        }
        ExprKind::Shuffle { indices, .. } => {
            let _ = write!(k, "S{indices:?}");
        }
        ExprKind::VectorReduce { op, .. } => {
            let _ = write!(k, "V{op:?}");
        }
    }
    for c in canon_children {
        let _ = write!(k, ",{:x}", c.as_ptr() as usize);
    }
    k
}

/// Hash-conses `e`: structurally equal subtrees become one node.
pub fn hash_cons(e: &Expr) -> Expr {
    struct H {
        by_shape: FxHashMap<String, Expr>,
        memo: FxHashMap<*const ExprNode, Expr>,
    }
    fn go(h: &mut H, e: &Expr) -> Expr {
        if let Some(r) = h.memo.get(&e.as_ptr()) {
            return r.clone();
        }
        let children: Vec<Expr> = with_stack(|| e.children().iter().map(|c| go(h, c)).collect());
        let key = shape_key(e, &children);
        let r = match h.by_shape.get(&key) {
            Some(r) => r.clone(),
            None => {
                let same = e.children().iter().zip(&children).all(|(a, b)| a.same_as(b));
                let node = if same { e.clone() } else { ir::with_children(e, children) };
                h.by_shape.insert(key, node.clone());
                node
            }
        };
        h.memo.insert(e.as_ptr(), r.clone());
        r
    }
    go(&mut H { by_shape: FxHashMap::default(), memo: FxHashMap::default() }, e)
}

fn trivial(e: &Expr) -> bool {
    matches!(
        e.kind(),
        ExprKind::Variable(_)
            | ExprKind::IntImm(_)
            | ExprKind::UIntImm(_)
            | ExprKind::FloatImm(_)
            | ExprKind::StringImm(_)
    ) || matches!(e.kind(), ExprKind::Broadcast { value, .. } if ir::is_const(value))
}

/// Let-introducing CSE with fresh names from `ctx`.
pub fn cse(ctx: &Ctx, e: &Expr) -> Expr {
    let e = hash_cons(e);
    // Names bound by lets inside the expression: nodes mentioning them are not hoisted.
    let mut inner_bound: FxHashSet<Name> = FxHashSet::default();
    let mut uses: FxHashMap<*const ExprNode, usize> = FxHashMap::default();
    let mut order: Vec<Expr> = Vec::new(); // post-order, each node once
    let mut stack: Vec<(Expr, bool)> = vec![(e.clone(), false)];
    let mut seen: FxHashSet<*const ExprNode> = FxHashSet::default();
    while let Some((n, expanded)) = stack.pop() {
        if expanded {
            order.push(n);
            continue;
        }
        *uses.entry(n.as_ptr()).or_insert(0) += 1;
        if !seen.insert(n.as_ptr()) {
            continue;
        }
        if let ExprKind::Let { name, .. } = n.kind() {
            inner_bound.insert(name.clone());
        }
        stack.push((n.clone(), true));
        for c in n.children() {
            stack.push((c.clone(), false));
        }
    }
    // Whether a node mentions a name bound inside (children come first in `order`).
    let mut mentions_inner: FxHashMap<*const ExprNode, bool> = FxHashMap::default();
    for n in &order {
        let own = n.as_variable().is_some_and(|v| inner_bound.contains(v));
        let m = own || n.children().iter().any(|c| mentions_inner.get(&c.as_ptr()).copied().unwrap_or(true));
        mentions_inner.insert(n.as_ptr(), m);
    }
    let hoistable = |n: &Expr| {
        !trivial(n)
            && uses.get(&n.as_ptr()).copied().unwrap_or(0) > 1
            && !mentions_inner.get(&n.as_ptr()).copied().unwrap_or(true)
    };
    // Rebuild bottom-up, replacing hoisted nodes by their names.
    let mut replaced: FxHashMap<*const ExprNode, Expr> = FxHashMap::default();
    let mut lets: Vec<(Name, Expr)> = Vec::new();
    for n in &order {
        let rebuilt =
            ir::rebuild_with(n, |c| replaced.get(&c.as_ptr()).cloned().unwrap_or_else(|| c.clone()));
        let out = if hoistable(n) {
            let name = ctx.fresh_t();
            lets.push((name.clone(), rebuilt));
            ir::var(n.ty(), name)
        } else {
            rebuilt
        };
        replaced.insert(n.as_ptr(), out);
    }
    let body = replaced.get(&e.as_ptr()).cloned().unwrap_or(e);
    lets.into_iter().rev().fold(body, |acc, (name, v)| ir::let_in(name, v, acc))
}

/// Prints `e` after CSE (statement-level form): the text length is proportional to the
/// DAG size, however large the tree.
pub fn print_cse(ctx: &Ctx, e: &Expr) -> String {
    ir::pretty(&cse(ctx, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use loopir::Expr;

    #[test]
    fn shared_subtrees_are_named_once() {
        let ctx = Ctx::new();
        let x = Expr::var_i32("x");
        let a = ir::add(x.clone(), Expr::i32(1));
        let b = ir::add(x.clone(), Expr::i32(1)); // structurally equal, separately built
        let e = ir::mul(a, b);
        assert_eq!(print_cse(&ctx, &e), "let t0 = (x + 1) in (t0*t0)");
        // Exponential tree, linear text.
        let mut d = x.clone();
        for _ in 0..60 {
            d = ir::add(d.clone(), d);
        }
        let text = print_cse(&Ctx::new(), &d);
        assert!(text.len() < 60 * 40, "{}", text.len());
        assert_eq!(ir::tree_size(&d), (1u64 << 61) - 1);
    }

    #[test]
    fn inner_let_names_are_not_hoisted() {
        let ctx = Ctx::new();
        let y = Expr::var_i32("y");
        let sq = ir::mul(y.clone(), y.clone());
        let e = ir::let_in(loopir::name("y"), Expr::i32(3), ir::add(sq.clone(), sq));
        assert_eq!(print_cse(&ctx, &e), "let y = 3 in ((y*y) + (y*y))");
    }
}
