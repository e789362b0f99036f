//! What a single-Func walk sees of a statement: the reference's filter before
//! `boxes_touched` for one Func (`docs/reference/bounds.md` §1.7; `Filter` in Halide's Bounds.cpp).
//!
//! Before the reference computes the box one Func touches, provides or requires in a
//! statement, it replaces by a no-op (`0`) every statement that is not relevant to the
//! Func. That changes results, not only speed: the walk draws fresh `t` names at lets,
//! varying conditions and selects, and those names number what is printed afterwards, so
//! the walk must see what the reference's walk sees, no more and no less. It also keeps
//! each walk proportional to what concerns its Func: allocation bounds walks each
//! realize's body, and for nested root realizes that body holds every later stage.
//!
//! The single-Func queries of [`crate::boxes_touched`] (`box_required`, `box_provided`,
//! `box_touched`) cut their statement with [`cut`] before the walk. A pass that asks for
//! many Funcs' boxes over parts of one input indexes it once instead ([`Relevance::new`],
//! one binary search per statement visited) or shares one lazy index ([`Relevance::lazy`])
//! across its queries.

use loopir::address_map::{AddressMap, AddressSet};
use loopir::mutate::Mutator;
use loopir::stack::with_stack;
use loopir::visit::Visitor;
use loopir::{Expr, ExprKind, Name, Stmt, StmtKind};
use rustc_hash::{FxHashMap, FxHashSet};

/// The relevance index of one pass input for a set of Funcs (see the module docs).
pub(crate) struct Relevance {
    positions: Positions,
    /// The relevant names each statement's own expressions mention, for statements
    /// outside the index (or when it has no spans), so that each expression is scanned
    /// once, not once per query.
    own: AddressMap<*const StmtKind, Vec<Name>>,
}

impl Relevance {
    /// Indexes `input` for the Funcs in `funcs`. The statements later cut must be
    /// `input`'s own nodes or nodes alive as long as this index (it keys its caches by
    /// address).
    pub(crate) fn new(input: &Stmt, funcs: FxHashSet<Name>) -> Relevance {
        let mut positions = Positions { funcs, ..Positions::default() };
        loopir::visit::Visitor::visit_stmt(&mut positions, input);
        Relevance { positions, own: AddressMap::default() }
    }

    /// An index for `funcs` that scans nothing in advance: each cut walks the statements
    /// it is given and scans the expressions of a statement only when nothing inside it
    /// is relevant (once per statement over all cuts). For a pass that cuts only a few
    /// bodies, each mostly relevant; a pass that cuts nested bodies wants [`Relevance::new`].
    pub(crate) fn lazy(funcs: FxHashSet<Name>) -> Relevance {
        let positions = Positions { funcs, shared: true, ..Positions::default() };
        Relevance { positions, own: AddressMap::default() }
    }

    /// `s` with every statement not relevant to `func` replaced by a no-op.
    pub(crate) fn cut(&mut self, s: &Stmt, func: &str) -> Stmt {
        if !self.positions.funcs.contains(func) {
            // A Func the index was not built for: its names were not recorded.
            return cut(s, func);
        }
        let (positions, own) = (&self.positions, &mut self.own);
        Prune { func, keep: AddressMap::default(), own, positions }.mutate_stmt(s)
    }
}

/// `s` with every statement not relevant to `func` replaced by a no-op, with no index
/// kept (a lazy one for `func` alone).
pub(crate) fn cut(s: &Stmt, func: &str) -> Stmt {
    Relevance::lazy(std::iter::once(loopir::name(func)).collect()).cut(s, func)
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
    keep: AddressMap<*const StmtKind, bool>,
    /// Shared by all queries (see [`Relevance`]).
    own: &'c mut AddressMap<*const StmtKind, Vec<Name>>,
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
    span: AddressMap<*const StmtKind, (u32, u32)>,
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
        self.super_stmt(s);
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
    seen: AddressSet<*const loopir::ExprNode>,
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
    let mut names = OwnNames { funcs, out: Vec::new(), seen: AddressSet::default() };
    if let StmtKind::Provide { name, .. } = s.kind() {
        names.record(name);
    }
    names.super_stmt(s);
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
        let inner = chain_body(s);
        let mut k = false;
        if inner.same_as(s) {
            for c in s.children() {
                // Every child is classified (and cached) for the rewrite that follows.
                k |= with_stack(|| self.keeps(c));
            }
        } else {
            k = with_stack(|| self.keeps(inner));
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

/// The body below a chain of directly nested LetStmts (`s` itself if it is not a let).
fn chain_body(s: &Stmt) -> &Stmt {
    let mut inner = s;
    while let StmtKind::LetStmt { body, .. } = inner.kind() {
        inner = body;
    }
    inner
}

impl Mutator for Prune<'_, '_> {
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        e.clone()
    }

    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        if !self.keeps(s) {
            return Stmt::evaluate(Expr::i32(0));
        }
        let StmtKind::LetStmt { .. } = s.kind() else { return self.super_stmt(s) };
        // A kept chain keeps every binding: only its final body can change, and the
        // chain is rebuilt only if it does (a chain of 10^5 lets around a relevant body
        // is not walked binding by binding).
        let inner = chain_body(s);
        let new_inner = self.mutate_stmt(inner);
        if new_inner.same_as(inner) {
            return s.clone();
        }
        let mut links = Vec::new();
        let mut at = s;
        while let StmtKind::LetStmt { name, value, body } = at.kind() {
            links.push((name, value));
            at = body;
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

    /// A random statement over Funcs `f` and `g` and the extern `h`, from a list of
    /// choices (each decision takes the next one; past the end, the simplest option).
    struct RandomStmt<'a> {
        choices: &'a [u32],
        at: usize,
        fresh: usize,
    }

    impl RandomStmt<'_> {
        fn pick(&mut self, n: u32) -> u32 {
            let c = self.choices.get(self.at).copied().unwrap_or(0);
            self.at += 1;
            c % n
        }

        fn expr(&mut self, depth: u32) -> Expr {
            let x = || Expr::var_i32("x");
            match if depth == 0 { self.pick(3) } else { self.pick(7) } {
                0 => Expr::i32(1),
                1 => x(),
                2 => Expr::var_i32("f.buffer"),
                3 => Expr::call_func(Type::INT32, "f", vec![self.expr(depth - 1)], 0),
                4 => Expr::call_func(Type::INT32, "g", vec![self.expr(depth - 1)], 0),
                5 => Expr::call(Type::INT32, "h", vec![self.expr(depth - 1)], loopir::CallType::Extern),
                _ => loopir::make::add(self.expr(depth - 1), self.expr(depth - 1)),
            }
        }

        fn int(&mut self, depth: u32) -> Expr {
            let e = self.expr(depth);
            if e.ty() == Type::INT32 { e } else { Expr::i32(0) }
        }

        fn stmt(&mut self, depth: u32) -> Stmt {
            let choice = if depth == 0 { self.pick(2) } else { self.pick(6) };
            match choice {
                0 => {
                    let f = if self.pick(2) == 0 { "f" } else { "g" };
                    let (v, a) = (self.int(2), self.int(2));
                    Stmt::provide(f, vec![v], vec![a], Expr::bool(true)).unwrap_or_else(|e| panic!("{e}"))
                }
                1 => Stmt::evaluate(self.expr(2)),
                2 => {
                    let n = 2 + self.pick(2) as usize;
                    Stmt::block((0..n).map(|_| self.stmt(depth - 1)).collect())
                }
                3 => {
                    let (min, max) = (self.int(1), self.int(1));
                    let body = self.stmt(depth - 1);
                    Stmt::for_loop(
                        "x",
                        loopir::MinMax { min, max },
                        loopir::ForType::Serial,
                        loopir::DeviceApi::None,
                        body,
                    )
                    .unwrap_or_else(|e| panic!("{e}"))
                }
                4 => {
                    let cond = loopir::make::lt(self.int(1), Expr::i32(3));
                    let then = self.stmt(depth - 1);
                    let other = if self.pick(2) == 0 { None } else { Some(self.stmt(depth - 1)) };
                    Stmt::if_then_else(cond, then, other).unwrap_or_else(|e| panic!("{e}"))
                }
                _ => {
                    let n = 1 + self.pick(3);
                    let values: Vec<Expr> = (0..n).map(|_| self.int(2)).collect();
                    let mut body = self.stmt(depth - 1);
                    for v in values.into_iter().rev() {
                        self.fresh += 1;
                        body = Stmt::let_stmt(format!("l{}", self.fresh).as_str(), v, body);
                    }
                    body
                }
            }
        }
    }

    /// The reference's rule as plainly as it can be said: a statement is kept if its own
    /// expressions mention `func` (a call, or the variable `func` or `func.buffer`), it
    /// provides `func`, or something kept is inside it; a LetStmt chain as a whole.
    fn plain_cut(s: &Stmt, func: &str) -> (Stmt, bool) {
        fn mentions(e: &Expr, func: &str) -> bool {
            let here = match e.kind() {
                ExprKind::Variable(v) => v.as_ref() == func || v.strip_suffix(".buffer") == Some(func),
                ExprKind::Call { name, .. } => name.as_ref() == func,
                _ => false,
            };
            here || e.children().into_iter().any(|c| mentions(c, func))
        }
        let no_op = || Stmt::evaluate(Expr::i32(0));
        match s.kind() {
            StmtKind::LetStmt { .. } => {
                let mut links = Vec::new();
                let mut inner = s;
                while let StmtKind::LetStmt { name, value, body } = inner.kind() {
                    links.push((name.clone(), value.clone()));
                    inner = body;
                }
                let (body, body_kept) = plain_cut(inner, func);
                let kept = body_kept || links.iter().any(|(_, v)| mentions(v, func));
                if !kept {
                    return (no_op(), false);
                }
                (links.into_iter().rev().fold(body, |b, (n, v)| Stmt::let_stmt(n, v, b)), true)
            }
            StmtKind::Provide { name, values, args, .. } => {
                let kept = name.as_ref() == func || values.iter().chain(args).any(|e| mentions(e, func));
                (if kept { s.clone() } else { no_op() }, kept)
            }
            StmtKind::Evaluate(e) => {
                let kept = mentions(e, func);
                (if kept { s.clone() } else { no_op() }, kept)
            }
            StmtKind::Block(v) => {
                let parts: Vec<(Stmt, bool)> = v.iter().map(|c| plain_cut(c, func)).collect();
                let kept = parts.iter().any(|(_, k)| *k);
                let rebuilt =
                    Stmt::from_kind_unchecked(StmtKind::Block(parts.into_iter().map(|(c, _)| c).collect()));
                (if kept { rebuilt } else { no_op() }, kept)
            }
            StmtKind::For { name, min, max, for_type, device_api, body, .. } => {
                let (b, body_kept) = plain_cut(body, func);
                let kept = body_kept || mentions(min, func) || mentions(max, func);
                let rebuilt = Stmt::for_loop(
                    name.clone(),
                    loopir::MinMax { min: min.clone(), max: max.clone() },
                    *for_type,
                    *device_api,
                    b,
                )
                .unwrap_or_else(|e| panic!("{e}"));
                (if kept { rebuilt } else { no_op() }, kept)
            }
            StmtKind::IfThenElse { condition, then_case, else_case } => {
                let (t, tk) = plain_cut(then_case, func);
                let e = else_case.as_ref().map(|e| plain_cut(e, func));
                let kept = tk || e.as_ref().is_some_and(|(_, k)| *k) || mentions(condition, func);
                let rebuilt = Stmt::if_then_else(condition.clone(), t, e.map(|(e, _)| e))
                    .unwrap_or_else(|e| panic!("{e}"));
                (if kept { rebuilt } else { no_op() }, kept)
            }
            _ => panic!("not generated: {s}"),
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]
        #[test]
        fn cuts_follow_the_reference_rule(choices in proptest::collection::vec(0u32..1000, 0..120)) {
            let s = RandomStmt { choices: &choices, at: 0, fresh: 0 }.stmt(4);
            let funcs: FxHashSet<Name> = ["f", "g"].into_iter().map(loopir::name).collect();
            for func in ["f", "g", "h"] {
                let want = plain_cut(&s, func).0.to_string();
                proptest::prop_assert_eq!(&Relevance::new(&s, funcs.clone()).cut(&s, func).to_string(), &want, "{}", s);
                proptest::prop_assert_eq!(&Relevance::lazy(funcs.clone()).cut(&s, func).to_string(), &want, "{}", s);
            }
        }
    }
}
