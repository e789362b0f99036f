//! Deep and long IR: a 1,000,000-statement block, a 300,000-binding LetStmt chain,
//! 100,000-deep expressions (`+`, `select`, `min`) and 3,000 nested ifs. Each runs on a
//! thread with an explicit 8 MiB stack and goes through parse, print, an identity
//! mutator, a mutator that changes one leaf (the rest must stay shared), a visitor,
//! structural equality and drop, none of which may overflow the stack.

use std::fmt::Write as _;

use loopir::mutate::TryMutator;
use loopir::{Expr, ExprKind, Mutator, Stmt, StmtKind, Visitor, parse_stmt};

/// Runs `f` on a thread with an 8 MiB stack and propagates its panic.
fn on_8mib_stack(name: &str, f: impl FnOnce() + Send + 'static) {
    let handle = std::thread::Builder::new()
        .name(name.to_owned())
        .stack_size(8 << 20)
        .spawn(f)
        .expect("spawn a test thread");
    if let Err(panic) = handle.join() {
        std::panic::resume_unwind(panic);
    }
}

/// Leaves everything as it is.
struct Identity;
impl Mutator for Identity {}

/// Renames one variable.
struct Rename {
    from: &'static str,
    to: &'static str,
    hits: usize,
}

impl Mutator for Rename {
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        match e.kind() {
            ExprKind::Variable(n) if n.as_ref() == self.from => {
                self.hits += 1;
                Expr::var(e.ty(), self.to)
            }
            _ => self.super_expr(e),
        }
    }
}

/// Counts nodes. The default walk of a LetStmt chain visits the chain's first LetStmt and
/// its final body as statements and reports each binding through `enter_scope`.
#[derive(Default)]
struct Count {
    exprs: usize,
    stmts: usize,
    lets: usize,
}

impl Visitor for Count {
    fn visit_expr(&mut self, e: &Expr) {
        self.exprs += 1;
        self.super_expr(e)
    }
    fn visit_stmt(&mut self, s: &Stmt) {
        self.stmts += 1;
        self.super_stmt(s)
    }
    fn enter_scope(&mut self, _binder: &loopir::Binder<'_>) {
        self.lets += 1;
    }
}

/// The common part of every case: parse, reprint exactly, identity mutation returns the
/// same handle, a second parse is structurally equal but not shared, a visitor counts the
/// expected nodes. Returns the parsed statement.
fn parse_print_identity_visit(text: &str, expected: (usize, usize, usize)) -> Stmt {
    let t0 = std::time::Instant::now();
    let s = parse_stmt(text).unwrap_or_else(|e| panic!("parse: {e}"));
    let printed = s.to_string();
    assert!(printed == text, "the reprint differs (lengths {} and {})", printed.len(), text.len());
    drop(printed);
    let same = Identity.mutate_stmt(&s);
    assert!(same.same_as(&s), "an identity mutator must return the original handle");
    let again = parse_stmt(text).expect("parses twice");
    assert!(!again.same_as(&s));
    assert!(again == s, "two parses of one text are structurally equal");
    drop(again);
    let mut count = Count::default();
    count.visit_stmt(&s);
    assert_eq!((count.stmts, count.lets, count.exprs), expected, "visited (stmts, let bindings, exprs)");
    eprintln!("parse, print, identity, equality, visit: {:?}", t0.elapsed());
    s
}

#[test]
fn a_million_statement_block_survives_every_walk() {
    on_8mib_stack("block", || {
        const N: usize = 1_000_000;
        let mut text = String::with_capacity(N * 12);
        for i in 0..N {
            let arg = if i == N / 2 { "x".to_owned() } else { i.to_string() };
            let _ = writeln!(text, "f({arg})");
        }
        // 1 Block + N Evaluates; each Evaluate holds a Call and its argument.
        let s = parse_print_identity_visit(&text, (N + 1, 0, 2 * N));
        let StmtKind::Block(stmts) = s.kind() else { panic!("expected a Block, got another node") };
        assert_eq!(stmts.len(), N);

        let mut m = Rename { from: "x", to: "y", hits: 0 };
        let t = m.mutate_stmt(&s);
        assert_eq!(m.hits, 1);
        let StmtKind::Block(new_stmts) = t.kind() else { panic!("the mutated block is a Block") };
        assert_eq!(new_stmts.len(), N);
        for (i, (a, b)) in stmts.iter().zip(new_stmts).enumerate() {
            assert_eq!(a.same_as(b), i != N / 2, "statement {i} shared iff unchanged");
        }
        assert!(t != s, "the renamed block differs structurally");
        drop(t);
        drop(s);
    });
}

/// `let t0 = x`, then `let t<i> = t<i-1> + 1` up to `t<n-1>`, around `f(t<n-1>, last)`.
fn let_chain(n: usize, last: &str) -> String {
    let mut text = String::with_capacity(n * 24);
    text.push_str("let t0 = x\n");
    for i in 1..n {
        let _ = writeln!(text, "let t{i} = t{} + 1", i - 1);
    }
    let _ = writeln!(text, "f(t{}, {last})", n - 1);
    text
}

#[test]
fn a_300k_let_chain_survives_every_walk() {
    on_8mib_stack("lets", || {
        const N: usize = 300_000;
        let text = let_chain(N, "x");
        // The chain's head and the final Evaluate as statements, N bindings; values:
        // 1 + 3 (N-1); the call: 3.
        let s = parse_print_identity_visit(&text, (2, N, 1 + 3 * (N - 1) + 3));

        // Rename the `x` of the final call only: every binding's value stays shared.
        let mut m = Rename { from: "x", to: "y", hits: 0 };
        let t = m.mutate_stmt(&s);
        assert_eq!(m.hits, 2, "x occurs in t0's value and in the call");
        let (mut a, mut b) = (s.clone(), t.clone());
        let mut depth = 0;
        while let (
            StmtKind::LetStmt { value: va, body: ba, .. },
            StmtKind::LetStmt { value: vb, body: bb, .. },
        ) = (a.kind(), b.kind())
        {
            assert_eq!(va.same_as(vb), depth > 0, "value of binding {depth} shared iff unchanged");
            let (na, nb) = (ba.clone(), bb.clone());
            a = na;
            b = nb;
            depth += 1;
        }
        assert_eq!(depth, N);
        assert!(t != s);
        drop((a, b, t));
        drop(s);
    });
}

/// Checks a deep expression's spine: `next` gives the child that continues the spine and
/// the children that must be shared between the original and the mutated tree.
fn check_spine(orig: &Expr, new: &Expr, depth: usize, next: impl Fn(&Expr) -> Option<(Expr, Vec<Expr>)>) {
    let (mut a, mut b) = (orig.clone(), new.clone());
    for level in 0..depth {
        assert!(!a.same_as(&b), "level {level} is on the changed path");
        let (Some((na, sa)), Some((nb, sb))) = (next(&a), next(&b)) else {
            panic!("the spine ends early at level {level}")
        };
        assert_eq!(sa.len(), sb.len());
        for (x, y) in sa.iter().zip(&sb) {
            assert!(x.same_as(y), "an unchanged operand at level {level} is shared");
        }
        a = na;
        b = nb;
    }
    assert!(matches!(a.kind(), ExprKind::Variable(n) if n.as_ref() == "x"));
    assert!(matches!(b.kind(), ExprKind::Variable(n) if n.as_ref() == "y"));
}

fn deep_expression_case(
    text: &str,
    depth: usize,
    exprs: usize,
    next: impl Fn(&Expr) -> Option<(Expr, Vec<Expr>)>,
) {
    let s = parse_print_identity_visit(text, (1, 0, exprs));
    let StmtKind::Evaluate(e) = s.kind() else { panic!("an expression statement is an Evaluate") };
    let mut m = Rename { from: "x", to: "y", hits: 0 };
    let t = m.mutate_stmt(&s);
    assert_eq!(m.hits, 1);
    let StmtKind::Evaluate(e2) = t.kind() else { panic!("still an Evaluate") };
    check_spine(e, e2, depth, next);
    assert!(e != e2 && t != s);
    let printed = t.to_string();
    assert_eq!(printed.matches('y').count(), 1);
    drop(t);
    drop(s);
}

const DEPTH: usize = 100_000;

#[test]
fn a_100k_deep_sum_survives_every_walk() {
    on_8mib_stack("sum", || {
        // ((x + 1) + 1) + ... + 1 with DEPTH additions; the outermost one is bare.
        let mut text = String::with_capacity(DEPTH * 8);
        text.push_str(&"(".repeat(DEPTH - 1));
        text.push_str("x + 1");
        text.push_str(&") + 1".repeat(DEPTH - 1));
        text.push('\n');
        deep_expression_case(&text, DEPTH, 2 * DEPTH + 1, |e| match e.kind() {
            ExprKind::Binary(_, a, b) => Some((a.clone(), vec![b.clone()])),
            _ => None,
        });
    });
}

#[test]
fn a_100k_deep_select_nest_survives_every_walk() {
    on_8mib_stack("select", || {
        // select(c, select(c, ... x ..., 0), 0)
        let mut text = String::with_capacity(DEPTH * 24);
        text.push_str(&"select((uint1)c, ".repeat(DEPTH));
        text.push('x');
        text.push_str(&", 0)".repeat(DEPTH));
        text.push('\n');
        deep_expression_case(&text, DEPTH, 3 * DEPTH + 1, |e| match e.kind() {
            ExprKind::Select(c, t, f) => Some((t.clone(), vec![c.clone(), f.clone()])),
            _ => None,
        });
    });
}

#[test]
fn a_100k_deep_min_nest_survives_every_walk() {
    on_8mib_stack("min", || {
        // min(min(... min(x, 0) ..., 0), 0)
        let mut text = String::with_capacity(DEPTH * 10);
        text.push_str(&"min(".repeat(DEPTH));
        text.push('x');
        text.push_str(&", 0)".repeat(DEPTH));
        text.push('\n');
        deep_expression_case(&text, DEPTH, 2 * DEPTH + 1, |e| match e.kind() {
            ExprKind::Binary(_, a, b) => Some((a.clone(), vec![b.clone()])),
            _ => None,
        });
    });
}

#[test]
fn three_thousand_nested_ifs_survive_every_walk() {
    on_8mib_stack("ifs", || {
        const N: usize = 3_000;
        let mut text = String::new();
        for i in 0..N {
            let _ = writeln!(text, "{}if (c{i} < {i}) {{", " ".repeat(i));
        }
        let _ = writeln!(text, "{}f(x)", " ".repeat(N));
        for i in (0..N).rev() {
            let _ = writeln!(text, "{}}}", " ".repeat(i));
        }
        // N ifs + the Evaluate; each condition has 3 nodes; the call 2.
        let s = parse_print_identity_visit(&text, (N + 1, 0, 3 * N + 2));
        let mut m = Rename { from: "x", to: "y", hits: 0 };
        let t = m.mutate_stmt(&s);
        assert_eq!(m.hits, 1);
        let (mut a, mut b) = (s.clone(), t.clone());
        let mut depth = 0;
        while let (
            StmtKind::IfThenElse { condition: ca, then_case: ta, .. },
            StmtKind::IfThenElse { condition: cb, then_case: tb, .. },
        ) = (a.kind(), b.kind())
        {
            assert!(ca.same_as(cb), "the condition at depth {depth} is shared");
            assert!(!a.same_as(&b));
            let (na, nb) = (ta.clone(), tb.clone());
            a = na;
            b = nb;
            depth += 1;
        }
        assert_eq!(depth, N);
        assert!(t != s);
        drop((a, b, t));
        drop(s);
    });
}

/// Renames `x` to `y` and counts the nodes it rewrites, remembering shared ones.
struct MemoRename {
    memo: loopir::mutate::ExprMemo,
    rewritten: usize,
}
impl Mutator for MemoRename {
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        if let Some(r) = self.memo.lookup(e) {
            return r;
        }
        self.rewritten += 1;
        let r = match e.kind() {
            ExprKind::Variable(v) if v.as_ref() == "x" => Expr::var_i32("y"),
            _ => self.super_expr(e),
        };
        self.memo.record(e, &r);
        r
    }
}

#[test]
fn a_memo_rewrites_each_node_of_a_dag_once() {
    // `e_{k+1} = e_k + e_k`: 10,001 nodes, a tree of 2^10001 - 1 of them.
    let mut e = Expr::var_i32("x");
    for _ in 0..10_000 {
        e = Expr::add(e.clone(), e).expect("int32 + int32");
    }
    let mut m = MemoRename { memo: loopir::mutate::ExprMemo::default(), rewritten: 0 };
    let r = m.mutate_expr(&e);
    // Each interior node once, and the leaf once per parent that reaches it (leaves are
    // not remembered): 10,000 + 2.
    assert_eq!(m.rewritten, 10_002);
    let ExprKind::Binary(_, a, b) = r.kind() else { panic!("expected a sum, got {r}") };
    assert!(a.same_as(b), "the rewrite keeps the sharing");
    // An unshared tree is rewritten without remembering anything, and nothing is
    // rewritten twice.
    let tree = Expr::add(Expr::var_i32("x"), Expr::i32(1)).expect("int32 + int32");
    let mut m = MemoRename { memo: loopir::mutate::ExprMemo::default(), rewritten: 0 };
    assert_eq!(m.mutate_expr(&tree).to_string(), "(y + 1)");
    assert_eq!(m.rewritten, 3);
}

/// Refuses one variable; counts the LetStmt bindings it is inside.
struct Refuse {
    name: &'static str,
    depth: usize,
    deepest: usize,
}

impl TryMutator for Refuse {
    type Error = String;
    fn try_mutate_expr(&mut self, e: &Expr) -> Result<Expr, String> {
        match e.kind() {
            ExprKind::Variable(n) if n.as_ref() == self.name => Err(format!("{n} at depth {}", self.depth)),
            _ => self.try_super_expr(e),
        }
    }
    fn try_enter_scope(&mut self, _binder: &loopir::Binder<'_>) -> Result<(), String> {
        self.depth += 1;
        self.deepest = self.deepest.max(self.depth);
        Ok(())
    }
    fn try_leave_scope(&mut self, _binder: &loopir::Binder<'_>) {
        self.depth -= 1;
    }
}

#[test]
fn a_failing_rewrite_stops_inside_a_300k_let_chain_and_leaves_every_binding() {
    on_8mib_stack("failing lets", || {
        const N: usize = 300_000;
        let text = let_chain(N, "z");
        let s = parse_stmt(&text).unwrap_or_else(|e| panic!("parse: {e}"));
        // `z` is in the final body, inside every binding: each one left on the way out.
        let mut m = Refuse { name: "z", depth: 0, deepest: 0 };
        assert_eq!(m.try_mutate_stmt(&s).expect_err("z is refused"), format!("z at depth {N}"));
        assert_eq!((m.depth, m.deepest), (0, N));
        // `x` is in the first value, before any binding is entered.
        let mut m = Refuse { name: "x", depth: 0, deepest: 0 };
        assert_eq!(m.try_mutate_stmt(&s).expect_err("x is refused"), "x at depth 0");
        assert_eq!((m.depth, m.deepest), (0, 0));
        // Nothing refused: the original handle comes back.
        let mut m = Refuse { name: "w", depth: 0, deepest: 0 };
        assert!(m.try_mutate_stmt(&s).is_ok_and(|t| t.same_as(&s)));
        // A 100,000-deep sum fails from its innermost leaf without overflowing the stack.
        let mut e = Expr::var_i32("z");
        for _ in 0..100_000 {
            e = Expr::add(e, Expr::i32(1)).unwrap_or_else(|err| panic!("{err}"));
        }
        let mut m = Refuse { name: "z", depth: 0, deepest: 0 };
        assert_eq!(m.try_mutate_expr(&e).expect_err("z is refused"), "z at depth 0");
    });
}
