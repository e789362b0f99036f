//! Complexity guards (`docs/reference/bounds.md` §4.7): output sizes and work counters, never wall times, so
//! they are stable on a shared machine. Each doubles N and checks that sizes at most
//! (about) double, plus an absolute budget.

use loopir::constant;
use loopir::dag::{dag_size, tree_size};
use loopir::make;
use loopir_bounds::{
    FuncValueBounds, bounds_of_expr_in_scope, boxes_provided, boxes_required, workloads as w,
};
use loopir_simplify::cse::print_cse;
use loopir_simplify::{Bound, Ctx, Interval, Scope};

/// DAG size of both ends and the CSE'd printed length of both ends.
fn measure(ctx: &Ctx, i: &Interval) -> (usize, usize) {
    let mut dag = 0;
    let mut text = 0;
    for b in [&i.min, &i.max] {
        if let Bound::Finite(e) = b {
            dag += dag_size(e);
            text += print_cse(ctx, e).len();
        }
    }
    (dag, text)
}

fn expr_sizes(n: usize, make: fn(usize) -> loopir::Expr, scope: &Scope<'_, Interval>) -> (usize, usize, u64) {
    let ctx = Ctx::new();
    let e = make(n);
    let i = bounds_of_expr_in_scope(&ctx, &e, scope, &FuncValueBounds::default(), false);
    let (dag, text) = measure(&ctx, &i);
    (
        dag,
        text,
        ctx.stats().bounds_rule_applications + ctx.stats().simplify_visits + ctx.stats().name_search_nodes,
    )
}

fn assert_linear(name: &str, small: (usize, usize, u64), large: (usize, usize, u64)) {
    let ratio = |a: f64, b: f64| if a == 0.0 { 1.0 } else { b / a };
    let r_dag = ratio(small.0 as f64, large.0 as f64);
    let r_text = ratio(small.1 as f64, large.1 as f64);
    let r_work = ratio(small.2 as f64, large.2 as f64);
    assert!(
        r_dag <= 2.3 && r_text <= 2.3 && r_work <= 2.3,
        "{name}: doubling N grew dag {r_dag:.2}x, text {r_text:.2}x, work {r_work:.2}x ({small:?} -> {large:?})"
    );
}

#[test]
fn g01_let_chain_expr_is_linear() {
    let s = w::scope_x(0, 100);
    let (dag, text, _) = expr_sizes(64, w::let_chain_expr, &s);
    assert!(dag <= 20 * 64 && text <= 200 * 64, "dag {dag}, text {text}");
    assert_linear("B1", expr_sizes(1000, w::let_chain_expr, &s), expr_sizes(2000, w::let_chain_expr, &s));
}

#[test]
fn square_let_chain_of_2000_is_linear() {
    // x as a symbol keeps every end symbolic (the values would overflow otherwise).
    let symbol = Scope::new();
    let large = expr_sizes(2000, w::square_let_chain, &symbol);
    assert!(large.0 <= 20 * 2000 && large.1 <= 200 * 2000, "{large:?}");
    assert_linear("square chain (symbolic)", expr_sizes(1000, w::square_let_chain, &symbol), large);
    // With x in a range the ends fold to overflow markers and are widened, still linearly.
    let s = w::scope_x(0, 10);
    assert_linear(
        "square chain (ranged)",
        expr_sizes(1000, w::square_let_chain, &s),
        expr_sizes(2000, w::square_let_chain, &s),
    );
}

#[test]
fn nested_arithmetic_selects_over_a_shared_let_are_linear() {
    let s = w::scope_x(0, 10);
    let e = w::nested_arithmetic_selects(2000);
    assert!(tree_size(&e) > 1 << 60, "the tree is exponential");
    let small = expr_sizes(1000, w::nested_arithmetic_selects, &s);
    let large = expr_sizes(2000, w::nested_arithmetic_selects, &s);
    assert!(large.1 <= 150 * 2000, "{large:?}");
    assert_linear("nested selects", small, large);
}

#[test]
fn g03_fibonacci_dag_is_exact_then_everything() {
    let s = w::scope_x(0, 10);
    let ctx = Ctx::new();
    let fib = |n: usize| {
        let (mut a, mut b) = (1u128, 1u128);
        for _ in 2..=n {
            let c = a + b;
            a = b;
            b = c;
        }
        b
    };
    for n in [30usize, 44, 45, 90] {
        let i = loopir_bounds::bounds_of_expr_simplified(
            &ctx,
            &w::fibonacci_dag(n),
            &s,
            &FuncValueBounds::default(),
        );
        if 10 * fib(n) <= u32::MAX as u128 {
            assert_eq!(i.pretty(), format!("[0_u32, {}_u32]", 10 * fib(n)), "n = {n}");
        } else {
            assert!(i.is_everything(), "n = {n}: {}", i.pretty());
        }
    }
    let small = expr_sizes(5000, w::fibonacci_dag, &s);
    let large = expr_sizes(10000, w::fibonacci_dag, &s);
    assert_linear("fibonacci", small, large);
}

#[test]
fn g04_horner_500_finishes_linearly() {
    let mut s = Scope::new();
    let f = loopir::Type::float(32, 1);
    let _ = s.push("p", Interval::new(constant::make_float(f, 0.5), constant::make_float(f, 2.0)));
    assert_linear("horner", expr_sizes(250, w::horner, &s), expr_sizes(500, w::horner, &s));
}

#[test]
fn bitwise_chain_const_bound_is_linear() {
    let s = w::scope_x(0, 10);
    let run = |n: usize| {
        let ctx = Ctx::new();
        let i = bounds_of_expr_in_scope(&ctx, &w::bitwise_chain(n), &s, &FuncValueBounds::default(), true);
        assert!(i.lo().is_some_and(constant::is_const) || !i.has_lower_bound());
        (0, 0, ctx.stats().bounds_rule_applications)
    };
    assert_linear("bitwise chain", run(512), run(1024));
}

#[test]
fn g05_wide_scope_queries_never_iterate_the_scope() {
    let s = w::wide_scope(100_000);
    let ctx = Ctx::new();
    let e = make::add(loopir::Expr::var_i32("x"), loopir::Expr::i32(1));
    let i = bounds_of_expr_in_scope(&ctx, &e, &s, &FuncValueBounds::default(), false);
    assert!(i.is_bounded());
    assert_eq!(s.iterations(), 0);
    assert!(ctx.stats().bounds_rule_applications <= 4);
}

fn walk_work(make: impl Fn(usize) -> loopir::Stmt, n: usize, provides: bool) -> (usize, usize, u64) {
    let ctx = Ctx::new();
    let s = make(n);
    let m = if provides {
        boxes_provided(&ctx, &s, &Scope::new(), &FuncValueBounds::default())
    } else {
        boxes_required(&ctx, &s, &Scope::new(), &FuncValueBounds::default())
    };
    let m = m.unwrap_or_else(|e| panic!("{e}"));
    let mut dag = 0;
    let mut text = 0;
    for r in m.values() {
        for i in &r.bounds {
            let (d, t) = measure(&ctx, i);
            dag += d;
            text += t;
        }
    }
    (
        dag,
        text,
        ctx.stats().box_walk_visits
            + ctx.stats().bounds_rule_applications
            + ctx.stats().simplify_visits
            + ctx.stats().name_search_nodes,
    )
}

#[test]
fn g06_stencil_chain_of_512_is_linear() {
    let large = walk_work(w::stencil_chain, 512, false);
    assert!(large.1 <= 200 * 512, "{large:?}");
    assert_linear("stencil chain", walk_work(w::stencil_chain, 256, false), large);
}

#[test]
fn g02_nested_select_calls_are_linear() {
    for (name, make) in [
        ("B3", w::nested_select_calls as fn(usize) -> loopir::Stmt),
        ("B3b", w::nested_identical_select_calls),
    ] {
        // Spec G02: at N = 32 the printed ends and `used` predicate take at most 100·N bytes.
        let ctx = Ctx::new();
        let m = boxes_required(&ctx, &make(32), &Scope::new(), &FuncValueBounds::default())
            .unwrap_or_else(|e| panic!("{e}"));
        let text: usize = m
            .values()
            .map(|r| {
                r.bounds.iter().map(|i| measure(&ctx, i).1).sum::<usize>()
                    + r.used.as_ref().map_or(0, |u| print_cse(&ctx, u).len())
            })
            .sum();
        assert!(text <= 100 * 32, "{name}: {text} bytes");
        // B3b walked each branch of `select(p, E, E)` separately: 2^N.
        assert_linear(name, walk_work(make, 64, false), walk_work(make, 128, false));
    }
}

#[test]
fn b2_let_chain_stmt_and_b9_many_calls_are_linear() {
    assert_linear(
        "let chain stmt",
        walk_work(w::let_chain_stmt, 2048, true),
        walk_work(w::let_chain_stmt, 4096, true),
    );
    assert_linear("many calls", walk_work(w::many_calls, 1024, false), walk_work(w::many_calls, 2048, false));
    // B2b: every let's bounds are named, so every box end is wrapped in the whole chain of
    // named lets; the printed ends must still grow linearly.
    let large = walk_work(w::let_chain_stmt_wide, 512, true);
    assert!(large.1 <= 600 * 512, "{large:?}");
    assert_linear("wide let chain stmt", walk_work(w::let_chain_stmt_wide, 256, true), large);
}

#[test]
fn b12_condition_refinement_is_not_exponential_in_nesting() {
    let one = walk_work(|n| w::if_dependents(n, 1), 256, false);
    let eight = walk_work(|n| w::if_dependents(n, 8), 256, false);
    // Each if re-derives each dependent once: work grows linearly in the nesting depth.
    assert!(eight.2 <= 10 * one.2, "{one:?} vs {eight:?}");
}

#[test]
fn deep_inputs_do_not_overflow_the_stack() {
    // A 100,000-deep left-nested sum as an index, and a 50,000-long LetStmt chain.
    let x = loopir::Expr::var_i32("x");
    let mut e = x.clone();
    for _ in 0..100_000 {
        e = make::add(e, loopir::Expr::i32(1));
    }
    let call = loopir::Expr::call_func(loopir::Type::INT32, "f", vec![e.clone()], 0);
    let s = loopir::Stmt::evaluate(call);
    let ctx = Ctx::new();
    let mut scope = Scope::new();
    let _ = scope.push("x", Interval::new(loopir::Expr::i32(0), loopir::Expr::i32(9)));
    let m = boxes_required(&ctx, &s, &scope, &FuncValueBounds::default()).unwrap_or_else(|e| panic!("{e}"));
    let i = &m["f"].bounds[0];
    let simplified = loopir_simplify::simplify(&ctx, i.lo().unwrap_or(&x), &Scope::new());
    assert_eq!(loopir::print::expr_to_string_implicit(&simplified), "100000");
    let chain = w::let_chain_stmt(50_000);
    assert!(boxes_provided(&Ctx::new(), &chain, &Scope::new(), &FuncValueBounds::default()).is_ok());
}

/// Output text length and the Ctx's work counters of computation bounds inference on a
/// generated pipeline.
fn compute_work(
    make: fn(usize) -> Result<w::PassWorkload, loopir_bounds::BoundsError>,
    n: usize,
) -> (usize, usize, u64) {
    let wl = make(n).unwrap_or_else(|e| panic!("generator at n = {n}: {e}"));
    let ctx = Ctx::new();
    let out = wl.run_compute(&ctx).unwrap_or_else(|e| panic!("n = {n}: {e}"));
    let s = ctx.stats();
    // Text sizes without indentation, which is O(n²) for the nested chains.
    let chars = |t: String| t.chars().filter(|c| *c != ' ').count();
    (
        chars(out.to_string()),
        chars(wl.input.to_string()),
        s.box_walk_visits + s.bounds_rule_applications + s.simplify_visits + s.name_search_nodes,
    )
}

fn alloc_text(make: fn(usize) -> Result<w::PassWorkload, loopir_bounds::BoundsError>, n: usize) -> usize {
    let wl = make(n).unwrap_or_else(|e| panic!("generator at n = {n}: {e}"));
    let out = wl.run_alloc().unwrap_or_else(|| panic!("no allocation input"));
    out.unwrap_or_else(|e| panic!("n = {n}: {e}")).to_string().chars().filter(|c| *c != ' ').count()
}

#[test]
fn text_pass_workloads_run_and_grow_linearly() {
    // Output text of the root and tiled chains (4 definitions per stage and level), the
    // deep nest and the specialized updates is O(n); doubling n at most about doubles it.
    // The Ctx's counters only see the analyses, so they bound the pass's work too.
    type Gen = fn(usize) -> Result<w::PassWorkload, loopir_bounds::BoundsError>;
    // The work bound per doubling: 2.3 (linear), except B13: as in Halide, every update
    // stage of a Func consumes every earlier stage of it (U² boxes to merge, each merge
    // simplified in compat mode), so its work may grow 4x.
    let cases: [(&str, Gen, usize, f64); 4] = [
        ("B6 root_chain", w::root_chain, 64, 2.3),
        ("B7 tiled_chain", w::tiled_chain, 32, 2.3),
        ("B8 deep_nest", w::deep_nest, 8, 2.3),
        ("B13 specialized_updates", w::specialized_updates, 16, 4.6),
    ];
    for (name, make, n, work_ratio) in cases {
        let small = compute_work(make, n);
        let large = compute_work(make, 2 * n);
        assert!(large.0 <= 1000 * 2 * n + 4000, "{name}: output {} chars at n = {}", large.0, 2 * n);
        // (output length, input length, work). Work grows at most linearly; the output
        // at most as fast as the input (B8's input is O(d²) text: its names grow with d).
        let r = |a: usize, b: usize| b as f64 / a.max(1) as f64;
        let (r_out, r_in) = (r(small.0, large.0), r(small.1, large.1));
        assert!(r_out <= 2.3f64.max(1.1 * r_in), "{name}: output grew {r_out:.2}x, input {r_in:.2}x");
        assert!(large.2 as f64 <= work_ratio * small.2 as f64, "{name}: work {small:?} -> {large:?}");
    }
    // Allocation bounds on the root chain: 3 lets per realize dimension.
    let (a, b) = (alloc_text(w::root_chain, 64), alloc_text(w::root_chain, 128));
    assert!(b as f64 <= 2.3 * a as f64, "root chain allocation output {a} -> {b}");
}

#[test]
fn b4_inline_chain_is_linear_in_its_dag() {
    // The DAG (one let per stage and offset) is Θ(n²): doubling n quadruples it, so
    // "linear" allows a factor of about 4.6 (2.3²) per doubling.
    let small = compute_work(w::inline_chain, 16);
    let large = compute_work(w::inline_chain, 32);
    let r = |a: usize, b: usize| b as f64 / a.max(1) as f64;
    assert!(r(small.0, large.0) <= 4.6 && r(small.1, large.1) <= 4.6, "{small:?} -> {large:?}");
    assert!(large.2 as f64 <= 4.6 * small.2 as f64, "{small:?} -> {large:?}");
}

#[test]
fn allocation_bounds_on_deep_nests_do_not_overflow_the_stack() {
    // A realize of f around 200,000 nested ifs, at the bottom of which f and g are
    // provided: the cut of the body for f and the walk both go 200,000 deep.
    use loopir::{Expr, MemoryType, MinExtent, Stmt, Type};
    let provide = |f: &str, x: i32| {
        Stmt::provide(f, vec![Expr::i32(1)], vec![Expr::i32(x)], Expr::bool(true))
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let mut body = Stmt::block(vec![provide("f", 3), provide("g", 0)]);
    for _ in 0..200_000 {
        body = Stmt::if_then_else(Expr::var(Type::BOOL, "p"), body, None).unwrap_or_else(|e| panic!("{e}"));
    }
    let bounds = vec![MinExtent {
        min: Expr::var_i32("f.x.min_realized"),
        extent: Expr::var_i32("f.x.extent_realized"),
    }];
    let s = Stmt::realize("f", vec![Type::INT32], MemoryType::Auto, bounds, Expr::bool(true), body)
        .unwrap_or_else(|e| panic!("{e}"));
    let env = loopir_bounds::env::BoundsEnv::from_json(
        r#"{"order": ["f", "g"], "target": {"profile": false}, "outputs": [{"func": "g", "buffer": "g"}]}"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let out = loopir_bounds::allocation_bounds::allocation_bounds_inference(
        &s,
        &env,
        &FuncValueBounds::default(),
        0,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let loopir::StmtKind::LetStmt { name, value, .. } = out.kind() else { panic!("no realized bounds") };
    assert_eq!((name.as_ref(), value.to_string().as_str()), ("f.x.max_realized", "3"));
}

/// Simplifier visits for `f(c_1, c_2, … c_n)`, where `c_k` is the pyramid extent
/// `((w + 1)/2 + 1)/2 …` nested `k` deep and every `c_k` is a tree of its own (as lowered
/// text repeats them): Θ(n²) nodes, n distinct chains.
fn division_chain_visits(n: usize) -> (u64, String) {
    use loopir::{BinOp, Expr};
    use make::binary;
    let chain = |k: usize| {
        let mut e = binary(BinOp::Add, Expr::var_i32("w"), Expr::i32(1));
        e = binary(BinOp::Div, e, Expr::i32(2));
        for _ in 1..k {
            e = binary(BinOp::Div, binary(BinOp::Add, e, Expr::i32(1)), Expr::i32(2));
        }
        e
    };
    let e = Expr::call_func(loopir::Type::INT32, "f", (1..=n).map(chain).collect(), 0);
    let ctx = Ctx::new();
    let r = loopir_simplify::simplify_expr(&ctx, &e);
    (ctx.stats().simplify_visits, loopir::print::expr_to_string_implicit(&r))
}

#[test]
fn repeated_division_chains_are_simplified_once_each() {
    let (small, text) = division_chain_visits(4);
    assert_eq!(text, "f((w + 1)/2, (w + 3)/4, (w + 7)/8, (w + 15)/16)");
    // Up to 28 levels, so that 2^k - 1 stays in Int(32): past it the folds draw overflow
    // markers, whose tags a copy must draw anew.
    let (a, _) = division_chain_visits(14);
    let (b, _) = division_chain_visits(28);
    assert!(small > 0 && b as f64 <= 2.2 * a as f64, "visits {a} -> {b} when the chains doubled");
    assert!(b <= 5 * 28, "{b} visits for 28 chains");
}

/// `(let a0 = (let a1 = (… (x + 1) …) in (a1 + 1)) in (a0 + 1))`, `n` lets deep: each let
/// sits in the value of the one outside it.
fn lets_in_value_position(n: usize) -> String {
    let mut text = String::new();
    for i in 0..n {
        text.push_str(&format!("(let a{i} = "));
    }
    text.push_str("(x + 1)");
    for i in (0..n).rev() {
        text.push_str(&format!(" in (a{i} + 1))"));
    }
    text
}

/// Issue 19 item 2: `boxes_touched` on `f[0] = select(x < 0, <lets>, 0)` and on the same
/// lets in an index of `g`. The walker asks for the interval of each let value it binds,
/// innermost first, and each value is the let inside it, whose interval was computed
/// again from scratch at every level (only shared nodes were memoised): N(N+1)/2 rule
/// applications, 15 s and 1.1 GB at N = 1,000.
#[test]
fn lets_nested_in_value_position_are_linear() {
    let run = |n: usize, text: &str| {
        let env = loopir::parse::ParseEnv::new().with_func("g", vec![loopir::Type::INT32]);
        let s = loopir::parse::parse_stmt_with_env(text, &env).unwrap_or_else(|e| panic!("n = {n}: {e}"));
        let ctx = Ctx::new();
        let boxes = loopir_bounds::boxes_touched(&ctx, &s, &Scope::new(), &FuncValueBounds::default())
            .unwrap_or_else(|e| panic!("n = {n}: {e}"));
        let text: usize = boxes.values().flat_map(|r| &r.bounds).map(|i| measure(&ctx, i).1).sum();
        let st = ctx.stats();
        (boxes.len(), text, st.box_walk_visits + st.bounds_rule_applications + st.simplify_visits)
    };
    let store = |n: usize| run(n, &format!("f[0] = select(x < 0, {}, 0)\n", lets_in_value_position(n)));
    let (small, large) = (store(500), store(1000));
    assert!(large.2 <= 30 * 1000, "{large:?}");
    assert_linear("lets in value position (store)", small, large);
    let call = |n: usize| run(n, &format!("f(0) = g(select(x < 0, {}, 0))\n", lets_in_value_position(n)));
    let (small, large) = (call(500), call(1000));
    assert_eq!(large.0, 2, "boxes of f and g");
    assert!(large.2 <= 30 * 1000, "{large:?}");
    assert_linear("lets in value position (call)", small, large);
}

/// Issue 19 item 4: a `produce` block of N different Provides of f's pure stage, each
/// written twice, is refused (they are not one definition, and not a specialization
/// tree). Repeated definitions are merged first, and each Provide was compared with
/// every one kept before it (N²/2 comparisons, over 60 s at N = 32,000 before the
/// refusal); now only with those of its fingerprint: its twin.
#[test]
fn many_provides_of_one_stage_are_refused_in_linear_time() {
    let run = |n: usize| {
        let mut text = String::from("produce f {\n");
        for i in 0..n {
            let line = format!(" f(f.s0.x) = g({i}) + x\n");
            text.push_str(&line);
            text.push_str(&line);
        }
        text.push_str("}\n");
        let env = loopir_bounds::env::BoundsEnv::from_json(
            r#"{"order": ["g", "f"], "target": {"profile": false}, "outputs": [{"func": "f", "buffer": "f"}],
                "funcs": {"f": {"types": ["int32"], "args": ["x"]}, "g": {"types": ["int32"], "args": ["x"]}}}"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let s = loopir::parse::parse_stmt_with_env(&text, &env.parse_env()).unwrap_or_else(|e| panic!("{e}"));
        let ctx = Ctx::new();
        let r = loopir_bounds::compute_bounds::computation_bounds_inference(&ctx, &s, &env);
        assert!(
            matches!(&r, Err(loopir_bounds::BoundsError::Unsupported(m)) if m.starts_with("specializations of f.s0")),
            "{r:?}"
        );
        ctx.stats().definitions_compared
    };
    assert_eq!((run(2000), run(4000)), (2000, 4000));
}

/// The work counters of allocation bounds inference (and computation bounds inference,
/// where the pass accepts the input) on `wl`: every counter summed, and the conditions
/// the box walker solved.
fn pass_work(wl: &w::PassWorkload) -> (u64, u64) {
    let total = |s: loopir_simplify::Stats| {
        s.box_walk_visits + s.bounds_rule_applications + s.simplify_visits + s.name_search_nodes
    };
    let compute = Ctx::new();
    // With the `if`, computation bounds inference refuses a conditional pure definition.
    let _ = wl.run_compute(&compute);
    let alloc = loopir_bounds::allocation_bounds::allocation_bounds_ctx();
    let s = wl.alloc_input.as_ref().unwrap_or_else(|| panic!("no allocation input"));
    let fb = loopir_bounds::func_value_bounds::func_value_bounds_from_text(&Ctx::new(), s);
    loopir_bounds::allocation_bounds::allocation_bounds_inference_in(&alloc, s, &wl.env, &fb)
        .unwrap_or_else(|e| panic!("{e}"));
    (total(compute.stats()) + total(alloc.stats()), alloc.stats().conditions_solved)
}

/// Issue 19: a `select` on the loop variable nested N deep in a call's index, a let value
/// or an `if` condition (B17). Two causes of O(N²) work, both in allocation bounds:
/// * CSE names the box ends with a chain of ~N lets whose innermost body uses each of
///   them; past 32 free variables a body's set is not tracked, and the simplifier
///   searched the whole body anew to decide whether each let of the chain is used
///   (`name_search_nodes`: 4.5 million at N = 1,000 for the call index);
/// * Halide's condition rule solves the condition for every occurrence of a varying
///   variable, against the same scope: N + 1 solves of the whole condition for the `if`.
///   A repeat that draws no fresh name is the first solve's result, so the condition is
///   solved once per variable.
#[test]
fn deep_selects_of_the_loop_variable_are_linear() {
    use w::SelectPlace as P;
    for place in [P::CallIndex, P::LetValue, P::IfCondition] {
        let run = |n: usize| pass_work(&w::deep_select(place, n).unwrap_or_else(|e| panic!("{e}")));
        let (small, large) = (run(500), run(1000));
        assert!(
            large.0 as f64 <= 2.3 * small.0 as f64 && large.0 <= 600 * 1000,
            "{place:?}: work {} -> {} when N doubled",
            small.0,
            large.0
        );
        // Once in the walk of the calls and once in that of the provides.
        assert!(small.1 <= 2 && large.1 <= 2, "{place:?}: {} and {} conditions solved", small.1, large.1);
        eprintln!("{place:?}: work {} -> {}", small.0, large.0);
    }
}

/// Issue 19: computation bounds inference of a left-nested sum `((x + 1) + 1) …` as a
/// Func's value (B18). Its work was already linear (instructions 1.76 G at N = 100,000,
/// 3.53 G at 200,000, 7.02 G at 400,000); this keeps it so.
#[test]
fn a_deep_sum_as_a_value_is_linear() {
    let run = |n: usize| pass_work_compute(&w::add_chain(n).unwrap_or_else(|e| panic!("{e}")));
    let (small, large) = (run(5_000), run(10_000));
    assert!(large as f64 <= 2.3 * small as f64 && large <= 20 * 10_000, "work {small} -> {large}");
}

fn pass_work_compute(wl: &w::PassWorkload) -> u64 {
    let ctx = Ctx::new();
    wl.run_compute(&ctx).unwrap_or_else(|e| panic!("{e}"));
    let s = ctx.stats();
    s.box_walk_visits + s.bounds_rule_applications + s.simplify_visits + s.name_search_nodes
}
