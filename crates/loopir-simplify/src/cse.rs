//! Let-introducing common-subexpression elimination, for printing results whose DAG is
//! small but whose tree is large (`docs/reference/bounds.md` §3.1: "the printer must always CSE").
//!
//! The reference's algorithm (see [`cse`]): lets are inlined, structurally equal nodes
//! merged (hash-consing), and every node worth a let that is used more than once is
//! bound to a fresh `t<N>` name, outermost first in dependency order.

use loopir::address_map::{AddressMap, AddressSet};
use loopir::equality;
use loopir::hash;
use loopir::make;
use loopir::stack::with_stack;
use loopir::substitute;
use loopir::{BinOp, Expr, ExprKind, ExprNode, Name};
use rustc_hash::{FxHashMap, FxHashSet};
use smallvec::SmallVec;

use crate::ctx::Ctx;

/// A structural key of a node whose children are already canonical: the node itself up
/// to its children ([`hash::hash_node`], [`equality::shallow_eq`]), and the addresses of its
/// canonical children.
struct ShapeKey {
    node: Expr,
    children: SmallVec<[usize; 3]>,
}

impl PartialEq for ShapeKey {
    fn eq(&self, other: &Self) -> bool {
        self.children == other.children
            && self.node.ty() == other.node.ty()
            && equality::shallow_eq(self.node.kind(), other.node.kind())
    }
}

impl Eq for ShapeKey {}

impl std::hash::Hash for ShapeKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        hash::hash_node(&self.node, state);
        self.children.hash(state);
    }
}

fn shape_key(e: &Expr, canon_children: &[Expr]) -> ShapeKey {
    ShapeKey { node: e.clone(), children: canon_children.iter().map(|c| c.as_ptr() as usize).collect() }
}

/// Hash-conses `e`: structurally equal subtrees become one node.
pub fn hash_cons(e: &Expr) -> Expr {
    struct H {
        by_shape: FxHashMap<ShapeKey, Expr>,
        memo: AddressMap<*const ExprNode, Expr>,
    }
    fn go(h: &mut H, e: &Expr) -> Expr {
        if let Some(r) = h.memo.get(&e.as_ptr()) {
            return r.clone();
        }
        let children: SmallVec<[Expr; 3]> = with_stack(|| e.children().iter().map(|c| go(h, c)).collect());
        let key = shape_key(e, &children);
        let r = match h.by_shape.get(&key) {
            Some(r) => r.clone(),
            None => {
                let same = e.children().iter().zip(&children).all(|(a, b)| a.same_as(b));
                let node = if same { e.clone() } else { e.with_children(children.into_vec()) };
                h.by_shape.insert(key, node.clone());
                node
            }
        };
        h.memo.insert(e.as_ptr(), r.clone());
        r
    }
    go(&mut H { by_shape: FxHashMap::default(), memo: AddressMap::default() }, e)
}

/// Whether a repeated `e` is worth a let. Constants and variables never are, nor is
/// arithmetic with a constant operand (or a cast or broadcast of such), nor a ramp with
/// a constant stride: these are cheap to recompute, and the simplifier would substitute
/// such a let straight back. `extract` holds the answer for the operand of a cast or
/// broadcast (decided before it: a chain of a million casts is decided in one step each).
fn should_extract(e: &Expr, extract: &AddressMap<*const ExprNode, bool>) -> bool {
    match e.kind() {
        _ if e.is_constant() => false,
        ExprKind::Variable(_) => false,
        ExprKind::Cast(v) | ExprKind::Broadcast { value: v, .. } => {
            extract.get(&v.as_ptr()).copied().unwrap_or_else(|| should_extract(v, extract))
        }
        ExprKind::Binary(BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div, a, b) => {
            !(a.is_constant() || b.is_constant())
        }
        ExprKind::Ramp { stride, .. } => !stride.is_constant(),
        _ => true,
    }
}

/// The children of `e` in the order the reference's mutators visit them (a load's
/// predicate before its index).
fn children_in_visit_order(e: &Expr) -> Vec<Expr> {
    match e.kind() {
        ExprKind::Load { index, predicate, .. } => vec![predicate.clone(), index.clone()],
        _ => e.children().into_iter().cloned().collect(),
    }
}

/// Let-introducing CSE with fresh names from `ctx`, as the reference does it:
///
/// 1. every let inside `e` is inlined (the result is a DAG, not the tree);
/// 2. structurally equal subexpressions are merged, and numbered in the order a
///    left-to-right post-order walk first completes them;
/// 3. uses are counted from the root: an expression worth a let (`should_extract`)
///    counts one use per reference and is entered once; any other is looked through
///    each time it is reached, so its children count once per reference to it;
/// 4. each expression used more than once gets a fresh `t<N>` (skipping names the input
///    already uses), in numbering order, and the lets are nested in that order
///    (outermost first).
pub fn cse(ctx: &Ctx, e: &Expr) -> Expr {
    if e.is_constant() || e.as_variable().is_some() {
        return e.clone();
    }
    let e = hash_cons(&substitute::inline_lets(e, |_| true));
    // 2. Numbering: post-order, each node once (deciding which are worth a let).
    let mut order: Vec<Expr> = Vec::new();
    let mut extract: AddressMap<*const ExprNode, bool> = Default::default();
    let mut seen: AddressSet<*const ExprNode> = Default::default();
    let mut taken: FxHashSet<Name> = FxHashSet::default();
    let mut stack: Vec<(Expr, bool)> = vec![(e.clone(), false)];
    while let Some((n, expanded)) = stack.pop() {
        if expanded {
            extract.insert(n.as_ptr(), should_extract(&n, &extract));
            order.push(n);
            continue;
        }
        if !seen.insert(n.as_ptr()) {
            continue;
        }
        if let Some(v) = n.as_variable()
            && v.strip_prefix('t').is_some_and(|d| d.starts_with(|c: char| c.is_ascii_digit()))
        {
            taken.insert(v.clone());
        }
        stack.push((n.clone(), true));
        for c in children_in_visit_order(&n).into_iter().rev() {
            stack.push((c, false));
        }
    }
    // 3. Use counts.
    let mut uses: AddressMap<*const ExprNode, usize> = Default::default();
    let mut entered: AddressSet<*const ExprNode> = Default::default();
    let mut work: Vec<Expr> = vec![e.clone()];
    while let Some(n) = work.pop() {
        if extract.get(&n.as_ptr()).copied().unwrap_or(false) {
            *uses.entry(n.as_ptr()).or_insert(0) += 1;
            if !entered.insert(n.as_ptr()) {
                continue;
            }
        }
        work.extend(n.children().into_iter().cloned());
    }
    // 4. Rebuild bottom-up, replacing extracted nodes by their names.
    let mut replaced: AddressMap<*const ExprNode, Expr> = Default::default();
    let mut lets: Vec<(Name, Expr)> = Vec::new();
    for n in &order {
        let rebuilt = n.map_children(|c| replaced.get(&c.as_ptr()).cloned().unwrap_or_else(|| c.clone()));
        let out = if uses.get(&n.as_ptr()).copied().unwrap_or(0) > 1 {
            let name = loop {
                let name = ctx.fresh_t();
                if !taken.contains(&name) {
                    break name;
                }
            };
            lets.push((name.clone(), rebuilt));
            loopir::Expr::var(n.ty(), name)
        } else {
            rebuilt
        };
        replaced.insert(n.as_ptr(), out);
    }
    let body = replaced.get(&e.as_ptr()).cloned().unwrap_or(e);
    lets.into_iter().rev().fold(body, |acc, (name, v)| make::let_in(name, v, acc))
}

/// Prints `e` after CSE (statement-level form): the text length is proportional to the
/// DAG size, however large the tree.
pub fn print_cse(ctx: &Ctx, e: &Expr) -> String {
    loopir::print::expr_to_string_implicit(&cse(ctx, e))
}

/// Prints an interval end: a finite one after CSE, an infinite one by name.
pub fn print_bound(ctx: &Ctx, b: &crate::Bound) -> String {
    match b {
        crate::Bound::Finite(e) => print_cse(ctx, e),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loopir::Expr;

    #[test]
    fn shared_subtrees_are_named_once() {
        let ctx = Ctx::new();
        let (x, y) = (Expr::var_i32("x"), Expr::var_i32("y"));
        let a = make::add(x.clone(), y.clone());
        let b = make::add(x.clone(), y.clone()); // structurally equal, separately built
        let e = make::mul(a, b);
        assert_eq!(print_cse(&ctx, &e), "let t0 = (x + y) in (t0*t0)");
        // Exponential tree, linear text.
        let mut d = x.clone();
        for _ in 0..60 {
            d = make::add(d.clone(), d);
        }
        let text = print_cse(&Ctx::new(), &d);
        assert!(text.len() < 60 * 40, "{}", text.len());
        assert_eq!(loopir::dag::tree_size(&d), (1u64 << 61) - 1);
    }

    #[test]
    fn hash_consing_merges_only_what_is_equal() {
        let (x, y) = (Expr::var_i32("x"), Expr::var_i32("y"));
        let same = |a: &Expr, b: &Expr| {
            let consed = hash_cons(&make::add(a.clone(), b.clone()));
            let ExprKind::Binary(_, p, q) = consed.kind() else { unreachable!() };
            p.same_as(q)
        };
        assert!(same(&make::add(x.clone(), y.clone()), &make::add(x.clone(), y.clone())));
        // Operand order, operator, name, type and the sign of a zero all tell nodes apart.
        assert!(!same(&make::add(x.clone(), y.clone()), &make::add(y.clone(), x.clone())));
        assert!(!same(&make::add(x.clone(), y.clone()), &make::sub(x.clone(), y.clone())));
        assert!(!same(&x, &Expr::var_i32("x2")));
        assert!(!same(&x, &Expr::var(loopir::Type::int(16, 1), "x")));
        assert!(!same(&Expr::f32(0.0), &Expr::f32(-0.0)));
        assert!(same(&Expr::f32(-0.0), &Expr::f32(-0.0)));
    }

    #[test]
    fn cheap_expressions_are_not_extracted() {
        // Arithmetic with a constant operand is recomputed rather than named, but its
        // operands still count once per use.
        let ctx = Ctx::new();
        let (x, y) = (Expr::var_i32("x"), Expr::var_i32("y"));
        let e = make::mul(make::add(x.clone(), Expr::i32(1)), make::add(x.clone(), Expr::i32(1)));
        assert_eq!(print_cse(&ctx, &e), "(x + 1)*(x + 1)");
        let xy = make::mul(x.clone(), y.clone());
        let e = make::add(make::add(xy.clone(), Expr::i32(1)), make::add(xy, Expr::i32(2)));
        assert_eq!(print_cse(&ctx, &e), "let t0 = (x*y) in ((t0 + 1) + (t0 + 2))");
    }

    #[test]
    fn lets_are_inlined_first_and_names_in_use_are_skipped() {
        let ctx = Ctx::new();
        let (y, z) = (Expr::var_i32("y"), Expr::var_i32("z"));
        let sq = make::mul(y.clone(), z.clone());
        let e = make::let_in(loopir::name("y"), Expr::var_i32("t0"), make::add(sq.clone(), sq));
        // `t0` is taken by the input, so the first fresh name is `t1`.
        assert_eq!(print_cse(&ctx, &e), "let t1 = (t0*z) in (t1 + t1)");
    }
}
