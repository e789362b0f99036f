//! What a single-Func walk sees of a statement: the reference's filter before
//! `boxes_touched` for one Func (spec §1.7; `Filter` in Halide's Bounds.cpp).
//!
//! Before the reference computes the box one Func touches, provides or requires in a
//! statement, it replaces by a no-op (`0`) every statement that is not relevant to the
//! Func. That changes results, not only speed: the walk draws fresh `t` names at lets,
//! varying conditions and selects, and those names number what is printed afterwards, so
//! the walk must see what the reference's walk sees, no more and no less. It also keeps
//! each walk proportional to what concerns its Func: allocation bounds walks each
//! realize's body, and for nested root realizes that body holds every later stage.
//!
//! [`Relevance::new`] indexes a pass input once; [`Relevance::cut`] then cuts any of its
//! statements for a Func with one binary search per statement visited.

use loopir::equality::with_stack;
use loopir::mutate::{Mutator, walk_stmt};
use loopir::{Expr, ExprKind, Name, Stmt, StmtKind};
use rustc_hash::{FxHashMap, FxHashSet};

/// The relevance index of one pass input for a set of Funcs (see the module docs).
pub(crate) struct Relevance {
    positions: Positions,
    /// The relevant names each statement's own expressions mention, for statements
    /// outside the index (or when it has no spans), so that each expression is scanned
    /// once, not once per query.
    own: FxHashMap<*const StmtKind, Vec<Name>>,
}

impl Relevance {
    /// Indexes `input` for the Funcs in `funcs`. The statements later cut must be
    /// `input`'s own nodes or nodes alive as long as this index (it keys its caches by
    /// address).
    pub(crate) fn new(input: &Stmt, funcs: FxHashSet<Name>) -> Relevance {
        let mut positions = Positions { funcs, ..Positions::default() };
        loopir::visit::Visitor::visit_stmt(&mut positions, input);
        Relevance { positions, own: FxHashMap::default() }
    }

    /// An index for `funcs` that scans nothing in advance: each cut walks the statements
    /// it is given and scans the expressions of a statement only when nothing inside it
    /// is relevant (once per statement over all cuts). For a pass that cuts only a few
    /// bodies, each mostly relevant; a pass that cuts nested bodies wants [`Relevance::new`].
    pub(crate) fn lazy(funcs: FxHashSet<Name>) -> Relevance {
        let positions = Positions { funcs, shared: true, ..Positions::default() };
        Relevance { positions, own: FxHashMap::default() }
    }

    /// `s` with every statement not relevant to `func` replaced by a no-op.
    pub(crate) fn cut(&mut self, s: &Stmt, func: &str) -> Stmt {
        if self.positions.funcs.contains(func) {
            let (positions, own) = (&self.positions, &mut self.own);
            return Prune { func, keep: FxHashMap::default(), own, positions }.mutate_stmt(s);
        }
        // A Func the index was not built for: its names were not recorded.
        let funcs = std::iter::once(loopir::name(func)).collect();
        let positions = Positions { funcs, shared: true, ..Positions::default() };
        Prune { func, keep: FxHashMap::default(), own: &mut FxHashMap::default(), positions: &positions }
            .mutate_stmt(s)
    }
}

/// A statement cut down, as the reference does before a single-Func walk, to the statements
/// relevant to `func`; every other statement becomes a no-op (`0`). A statement is
/// relevant if one of its own expressions calls `func` or names the variable `func` or
/// `func.buffer`, if it provides `func`, or if a statement inside it is relevant. A chain
/// of directly nested LetStmts is kept or dropped as one unit: when any of its values or
/// its body is relevant, every binding of the chain stays (their bounds may draw fresh
/// `t` names, which number the printed result). What this drops is exactly what the
/// reference's walk never sees, so the walk draws the same names.
struct Prune<'f, 'c> {
    func: &'f str,
    /// Per statement node (by address, within one body): whether it is kept.
    keep: FxHashMap<*const StmtKind, bool>,
    /// Shared by all queries (see [`Relevance`]).
    own: &'c mut FxHashMap<*const StmtKind, Vec<Name>>,
    positions: &'c Positions,
}

/// The statements of the pass input numbered in pre-order (a LetStmt chain is one
/// statement), so that "is anything in this subtree relevant to `f`" is a binary search
/// instead of a walk of the subtree (each realize of a nested chain would walk all the
/// realizes inside it).
#[derive(Default)]
struct Positions {
    /// The Funcs the index is for: only their names are recorded.
    funcs: FxHashSet<Name>,
    /// Per statement node: the first and last pre-order numbers of its subtree.
    span: FxHashMap<*const StmtKind, (u32, u32)>,
    /// Per Func name: the numbers of the statements whose own expressions are relevant to
    /// it, ascending.
    sites: FxHashMap<Name, Vec<u32>>,
    next: u32,
    /// A node occurs at two places: spans are ambiguous, so none is used.
    shared: bool,
}

impl loopir::visit::Visitor for Positions {
    fn visit_expr(&mut self, _: &Expr) {}

    fn visit_stmt(&mut self, s: &Stmt) {
        let first = self.next;
        self.next += 1;
        for n in own_names(s, &self.funcs) {
            let list = self.sites.entry(n).or_default();
            if list.last() != Some(&first) {
                list.push(first);
            }
        }
        loopir::visit::walk_stmt(self, s);
        if self.span.insert(s.as_ptr(), (first, self.next - 1)).is_some() {
            self.shared = true;
        }
    }
}

impl Positions {
    /// Whether the subtree of `s` is relevant to `func`; `None` if `s` has no span.
    fn keeps(&self, s: &Stmt, func: &str) -> Option<bool> {
        if self.shared {
            return None;
        }
        let &(a, b) = self.span.get(&s.as_ptr())?;
        let any_in = |v: &[u32]| {
            let i = v.partition_point(|&x| x < a);
            i < v.len() && v[i] <= b
        };
        Some(self.sites.get(func).is_some_and(|v| any_in(v)))
    }
}

/// Collects the recorded names of the expressions a statement holds itself (for a
/// LetStmt chain, every value of the chain), not those of the statements inside it.
struct OwnNames<'f> {
    funcs: &'f FxHashSet<Name>,
    out: Vec<Name>,
    /// Shared interior nodes already scanned (leaves cost as little as a lookup).
    seen: FxHashSet<*const loopir::ExprNode>,
}

impl OwnNames<'_> {
    fn record(&mut self, n: &str) {
        self.out.extend(self.funcs.get(n).cloned());
    }
}

impl loopir::visit::Visitor for OwnNames<'_> {
    fn visit_expr(&mut self, e: &Expr) {
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            match e.kind() {
                ExprKind::Variable(v) => match v.strip_suffix(".buffer") {
                    Some(f) => self.record(f),
                    None => self.record(v),
                },
                _ if e.is_leaf() => {}
                _ if e.is_shared() && !self.seen.insert(e.as_ptr()) => {}
                ExprKind::Call { name, .. } => {
                    self.record(name);
                    stack.extend(e.children());
                }
                _ => stack.extend(e.children()),
            }
        }
    }
    fn visit_stmt(&mut self, _: &Stmt) {}
}

/// The Funcs of `funcs` a statement is relevant to by its own expressions and provided
/// name: the names of its calls and of its variables (`f.buffer` counting for `f`). Each
/// node is looked at once, so a DAG costs its size.
fn own_names(s: &Stmt, funcs: &FxHashSet<Name>) -> Vec<Name> {
    let mut names = OwnNames { funcs, out: Vec::new(), seen: FxHashSet::default() };
    if let StmtKind::Provide { name, .. } = s.kind() {
        names.record(name);
    }
    loopir::visit::walk_stmt(&mut names, s);
    let mut out = names.out;
    out.sort_unstable();
    out.dedup();
    out
}

impl Prune<'_, '_> {
    fn keeps(&mut self, s: &Stmt) -> bool {
        if let Some(k) = self.positions.keeps(s, self.func) {
            return k;
        }
        if let Some(&k) = self.keep.get(&s.as_ptr()) {
            return k;
        }
        // The statements inside first: one that is relevant settles it without a scan of
        // this statement's own expressions (a LetStmt chain around a relevant body is
        // kept whatever its values). A chain's own names are all of its values: its
        // inside is its final body.
        let mut inner = s;
        while let StmtKind::LetStmt { body, .. } = inner.kind() {
            inner = body;
        }
        let children = if inner.same_as(s) { s.children().into_vec() } else { vec![inner] };
        let mut k = false;
        for c in children {
            // Every child is classified (and cached) for the rewrite that follows.
            k |= with_stack(|| self.keeps(c));
        }
        if !k {
            let (func, funcs) = (self.func, &self.positions.funcs);
            let own = self.own.entry(s.as_ptr()).or_insert_with(|| own_names(s, funcs));
            k = own.iter().any(|n| n.as_ref() == func);
        }
        self.keep.insert(s.as_ptr(), k);
        k
    }
}

impl Mutator for Prune<'_, '_> {
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        e.clone()
    }

    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        if !self.keeps(s) {
            return Stmt::evaluate(Expr::i32(0));
        }
        let StmtKind::LetStmt { .. } = s.kind() else { return walk_stmt(self, s) };
        // A kept chain keeps every binding: only its final body can change, and the
        // chain is rebuilt only if it does (a chain of 10^5 lets around a relevant body
        // is not walked binding by binding).
        let mut links = Vec::new();
        let mut inner = s;
        while let StmtKind::LetStmt { name, value, body } = inner.kind() {
            links.push((name, value));
            inner = body;
        }
        let new_inner = self.mutate_stmt(inner);
        if new_inner.same_as(inner) {
            return s.clone();
        }
        links
            .into_iter()
            .rev()
            .fold(new_inner, |body, (name, value)| Stmt::let_stmt(name.clone(), value.clone(), body))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loopir::Type;
    use loopir::parse::{ParseEnv, parse_stmt_with_env};

    /// The body `box_touched` walks for `func`, by both ways of deciding relevance.
    fn pruned(text: &str, func: &str) -> (String, String) {
        let penv = ParseEnv::new().with_func("f", vec![Type::INT32]).with_func("g", vec![Type::INT32]);
        let s = parse_stmt_with_env(text, &penv).unwrap_or_else(|e| panic!("{e}"));
        let funcs: FxHashSet<Name> = ["f", "g"].into_iter().map(loopir::name).collect();
        let by_span = Relevance::new(&s, funcs.clone()).cut(&s, func).to_string();
        // An input with a statement at two places has no spans: the recursive fallback.
        let mut fallback = Relevance::lazy(funcs.clone());
        (by_span, fallback.cut(&s, func).to_string())
    }

    #[test]
    fn the_walk_sees_what_the_reference_filter_keeps() {
        // The chain is kept whole because one of its values calls `f`; the `if` and the
        // loop that only read `g` (or name `f.x.min_realized`, which is not `f`) go, as
        // in the reference, although their selects would draw fresh names.
        let text = "let a = g(1)\nlet b = f(a)\nlet c = select(0 < a, 1, 2)\nif (0 < c) {\n g(c) = select(0 < b, 1, 2)\n}\nfor (g.s0.x, 0, f.x.min_realized) {\n g(g.s0.x) = select(0 < g.s0.x, 1, 2)\n}\nf(3) = f.buffer\n";
        let want = "let a = g(1)\nlet b = f(a)\nlet c = select(0 < a, 1, 2)\n0\n0\nf(3) = f.buffer\n";
        let (by_span, by_walk) = pruned(text, "f");
        assert_eq!(by_span, want);
        assert_eq!(by_walk, want);
        // For `g` everything but the last Provide stays; for a Func nothing names,
        // nothing does.
        let (by_span, by_walk) = pruned(text, "g");
        let want_g = "let a = g(1)\nlet b = f(a)\nlet c = select(0 < a, 1, 2)\nif (0 < c) {\n g(c) = select(0 < b, 1, 2)\n}\nfor (g.s0.x, 0, f.x.min_realized) {\n g(g.s0.x) = select(0 < g.s0.x, 1, 2)\n}\n0\n";
        assert_eq!(by_span, want_g);
        assert_eq!(by_span, by_walk);
        assert_eq!(pruned(text, "h"), ("0\n".to_owned(), "0\n".to_owned()));
    }

    #[test]
    fn deep_nests_are_cut_without_running_out_of_stack() {
        // 200,000 nested ifs around a block of a relevant and an irrelevant statement.
        let provide = |f: &str| {
            Stmt::provide(f, vec![Expr::i32(1)], vec![Expr::i32(0)], Expr::bool(true))
                .unwrap_or_else(|e| panic!("{e}"))
        };
        let mut s = Stmt::block(vec![provide("f"), provide("g")]);
        for _ in 0..200_000 {
            s = Stmt::if_then_else(Expr::var(Type::BOOL, "p"), s, None).unwrap_or_else(|e| panic!("{e}"));
        }
        let funcs: FxHashSet<Name> = ["f", "g"].into_iter().map(loopir::name).collect();
        for mut relevance in [Relevance::new(&s, funcs.clone()), Relevance::lazy(funcs)] {
            let cut = relevance.cut(&s, "f");
            let mut inner = &cut;
            while let StmtKind::IfThenElse { then_case, .. } = inner.kind() {
                inner = then_case;
            }
            let StmtKind::Block(v) = inner.kind() else { panic!("not a block: {inner}") };
            assert_eq!(v.iter().map(|s| s.to_string()).collect::<Vec<_>>(), ["f(0) = 1\n", "0\n"]);
            // Nothing there concerns `h`: the whole nest goes.
            assert_eq!(relevance.cut(&s, "h").to_string(), "0\n");
        }
    }
}
