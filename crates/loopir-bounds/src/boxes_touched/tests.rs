use super::*;
use loopir::Type;
use loopir::constant;
use loopir::parse::{ParseEnv, parse_stmt_with_env};

fn env() -> ParseEnv {
    let mut e = ParseEnv::new();
    for f in ["f", "g", "h", "output"] {
        e = e.with_func(f, vec![Type::INT32]);
    }
    e.with_image("input", Type::INT32)
}

fn stmt(text: &str) -> Stmt {
    parse_stmt_with_env(text, &env()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn show(map: &BoxMap) -> String {
    map.iter().map(|(k, v)| format!("{k}: {v}")).collect::<Vec<_>>().join("; ")
}

fn simplified(map: &BoxMap) -> String {
    let ctx = Ctx::new();
    let mut s = Simplifier::without_bounds(&ctx);
    let m: BoxMap = map.iter().map(|(k, v)| (k.clone(), v.map_exprs(|e| s.simplify(e)))).collect();
    show(&m)
}

fn required(text: &str) -> String {
    let s = stmt(text);
    simplified(
        &boxes_required(&Ctx::new(), &s, &Scope::new(), &FuncValueBounds::default())
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

fn provided(text: &str) -> String {
    let s = stmt(text);
    simplified(
        &boxes_provided(&Ctx::new(), &s, &Scope::new(), &FuncValueBounds::default())
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

fn touched(text: &str) -> String {
    let s = stmt(text);
    simplified(
        &boxes_touched(&Ctx::new(), &s, &Scope::new(), &FuncValueBounds::default())
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

#[test]
fn w01_loop_reads_and_writes() {
    let text = "for (x, 3, 12) {\n output(x + 1) = input(x*2) + input((x*2) + 1)\n}\n";
    assert_eq!(required(text), "input: {[6, 25]}");
    assert_eq!(provided(text), "output: {[4, 13]}");
}

#[test]
fn w03_loop_lets_bound_like_any_other() {
    let text =
        "let x.loop_max = x.max\nlet x.loop_min = x.min\nfor (x, x.loop_min, x.loop_max) {\n f(x) = 0\n}\n";
    assert_eq!(provided(text), "f: {[x.min, x.max]}");
}

#[test]
fn w04_condition_refinement_rederives_dependents() {
    let text = "let x = y + 10\nlet z = x + 2\nlet w = z + 3\nif (z > 18) {\n if (y > 4) {\n  f(x, y, z, w) = 10\n }\n}\n";
    let s = stmt(text);
    let mut scope = Scope::new();
    let _ = scope.push("y", Interval::new(Expr::i32(0), Expr::i32(10)));
    let m = boxes_provided(&Ctx::new(), &s, &scope, &FuncValueBounds::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(simplified(&m), "f: {[15, 20], [5, 10], [19, 22], [22, 25]}");
}

#[test]
fn w05_w07_symbolic_conditions() {
    let w05 = "for (x, 0, 9) {\n if (p) {\n  f(x) = 0\n } else {\n  f(x + 10) = 0\n }\n}\n";
    assert_eq!(provided(w05), "f: {[select(p, 0, 10), select(p, 9, 19)]}");
    let w06 = "for (x, 0, 9) {\n if (p) {\n  f(x) = 0\n }\n}\n";
    assert_eq!(provided(w06), "f: {[0, 9]} if p");
    let w07 = "for (x, 0, 9) {\n if (p) {\n  f(x) = 0\n } else {\n  assert(false, 0)\n }\n}\n";
    assert_eq!(provided(w07), "f: {[0, 9]}");
}

#[test]
fn w08_w09_predicates_and_likely() {
    let w08 = "for (x, 0, 99) {\n predicate (x < n)\n  f(x) = 0\n}\n";
    // Spec W08 prints `min(n + -1, 99)`; Halide's simplifier pulls the constant out of
    // `min(x + c0, c1)` (the corpus is full of `min(input.extent.0, 16) + -16`).
    assert_eq!(provided(w08), "f: {[0, min(n, 100) + -1]}");
    let w09 = "for (x, 0, 99) {\n if (likely(x < 10)) {\n  f(x) = 0\n }\n}\n";
    assert_eq!(provided(w09), "f: {[0, 9]}");
}

#[test]
fn w10_if_then_else_versus_select() {
    let ite = "for (x, 0, 10) {\n g(x) = if_then_else(x < 5, f(x), f(x - 5))\n}\n";
    assert_eq!(required(ite), "f: {[0, 5]}");
    let sel = "for (x, 0, 10) {\n g(x) = select(x < 5, f(x), f(x - 5))\n}\n";
    assert_eq!(required(sel), "f: {[-5, 10]}");
}

#[test]
fn w11_func_values_as_indices() {
    let s = stmt("for (x, 0, 10) {\n h(x) = f(g(x))\n}\n");
    let mut fb = FuncValueBounds::default();
    fb.insert(loopir::name("g"), 0, Interval::new(Expr::i32(0), Expr::i32(255)));
    let m = boxes_required(&Ctx::new(), &s, &Scope::new(), &fb).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(simplified(&m), "g: {[0, 10]}; f: {[0, 255]}");
    let m = boxes_required(&Ctx::new(), &s, &Scope::new(), &FuncValueBounds::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(simplified(&m), "g: {[0, 10]}; f: {[neg_inf, pos_inf]}");
}

#[test]
fn w13_w14_touched_and_shared_nodes() {
    let text = "for (x, 0, 9) {\n f(x) = f(x + 1)\n}\n";
    assert_eq!(touched(text), "f: {[0, 10]}");
    assert_eq!(required(text), "f: {[1, 10]}");
    assert_eq!(provided(text), "f: {[0, 9]}");
    // One call node shared by two loops over different ranges.
    let x = Expr::var_i32("x");
    let call = Expr::call_func(Type::INT32, "f", vec![x.clone()], 0);
    let body = Stmt::evaluate(call);
    let mk = |lo: i32, hi: i32| {
        Stmt::for_loop(
            "x",
            loopir::MinMax { min: Expr::i32(lo), max: Expr::i32(hi) },
            loopir::ForType::Serial,
            loopir::DeviceApi::None,
            body.clone(),
        )
        .unwrap_or_else(|e| panic!("{e}"))
    };
    let s = Stmt::block(vec![mk(0, 4), mk(10, 14)]);
    let m = boxes_required(&Ctx::new(), &s, &Scope::new(), &FuncValueBounds::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(simplified(&m), "f: {[0, 14]}");
}

#[test]
fn w15_large_let_values_are_named() {
    let text = "for (x, 0, 9) {\n let t = ((((((((((a + b) + c) + d) + e) + f0) + g0) + h0) + i) + j) + x)\n f(t) = 0\n}\n";
    let s = stmt(text);
    let ctx = Ctx::new();
    let raw = boxes_provided(&ctx, &s, &Scope::new(), &FuncValueBounds::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let shown = show(&raw);
    assert!(shown.contains("let t"), "{shown}");
    assert_eq!(
        simplified(&raw),
        "f: {[((((((((a + b) + c) + d) + e) + f0) + g0) + h0) + i) + j, (((((((((a + b) + c) + d) + e) + f0) + g0) + h0) + i) + j) + 9]}"
    );
}

#[test]
fn w16_w18_shadowing_and_conditions() {
    assert_eq!(provided("let x = 1\nlet x = x + 1\nf(x) = 0\n"), "f: {[2, 2]}");
    assert_eq!(
        required("for (x, 0, 99) {\n let y = x*2\n if (x < 10) {\n  g(0) = f(y)\n }\n}\n"),
        "f: {[0, 18]}"
    );
    assert_eq!(provided("for (x, 0, 99) {\n if (x == 5) {\n  f(x) = 0\n }\n}\n"), "f: {[5, 5]}");
    assert_eq!(provided("for (x, 0, 99) {\n if ((2 <= x) && (x < 5)) {\n  f(x) = 0\n }\n}\n"), "f: {[2, 4]}");
}

#[test]
fn w19_single_func_queries_agree() {
    let text = "let a = 3\nfor (x, 0, 9) {\n let b = x + a\n if (q) {\n  g(x) = f(b) + h(x)\n }\n}\n";
    let s = stmt(text);
    let ctx = Ctx::new();
    let all = boxes_required(&ctx, &s, &Scope::new(), &FuncValueBounds::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let one = box_required(&ctx, &s, "f", &Scope::new(), &FuncValueBounds::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(all.get("f").map(|r| r.to_string()), one.map(|r| r.to_string()));
}

#[test]
fn w20_allocate_and_realize_expressions() {
    let call = |n: &str, v: i32| Expr::call_func(Type::INT32, n, vec![Expr::i32(v)], 0);
    let t = constant::make_bool(true, 1);
    let provide = Stmt::provide("g", vec![Expr::i32(0)], vec![Expr::i32(0)], t.clone())
        .unwrap_or_else(|e| panic!("{e}"));
    let alloc =
        Stmt::allocate("buf", Type::INT32, loopir::MemoryType::Auto, vec![call("h", 2)], t.clone(), provide)
            .unwrap_or_else(|e| panic!("{e}"));
    let range = loopir::MinExtent { min: Expr::i32(0), extent: call("f", 3) };
    let s = Stmt::realize("g", vec![Type::INT32], loopir::MemoryType::Auto, vec![range], t, alloc)
        .unwrap_or_else(|e| panic!("{e}"));
    let m = boxes_required(&Ctx::new(), &s, &Scope::new(), &FuncValueBounds::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(simplified(&m), "f: {[3, 3]}; h: {[2, 2]}");
}

#[test]
fn w21_w22_euclidean_indices() {
    assert_eq!(required("for (x, -3, 3) {\n g(x) = f(x/2)\n}\n"), "f: {[-2, 1]}");
    let s = stmt("g(x) = f(x % 4) + f(x % -4)\n");
    let mut scope = Scope::new();
    let _ = scope.push("x", Interval::everything());
    let m = boxes_required(&Ctx::new(), &s, &scope, &FuncValueBounds::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(simplified(&m), "f: {[0, 3]}");
}

#[test]
fn o02_overflow_is_widened_or_purified() {
    let text = "for (x, 0, 1073741824) {\n f(x*4) = 0\n}\n";
    assert_eq!(provided(text), "f: {[0, pos_inf]}");
    let s = stmt(text);
    let ctx = Ctx::with_options(loopir_simplify::Options { compat_purify: true, ..Default::default() });
    let m =
        boxes_touched(&ctx, &s, &Scope::new(), &FuncValueBounds::default()).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(simplified(&m), "f: {[0, 0]}");
}

#[test]
fn dimension_mismatch_is_an_error() {
    let s = stmt("f(0) = 0\nf(0, 1) = 0\n");
    let r = boxes_provided(&Ctx::new(), &s, &Scope::new(), &FuncValueBounds::default());
    assert!(matches!(r, Err(BoundsError::DimensionMismatch { .. })));
}

/// Halide counts the variables of a let's interval over the expression tree: a shared
/// sub-expression counts at every use, so ten uses of `a*b` make a large interval even
/// though the DAG holds two variables.
#[test]
fn let_size_counts_tree_occurrences() {
    let p = "(a*b)";
    let value = format!("((((({p}*{p})*{p})*{p})*{p}) + x)");
    let text = format!("for (x, 0, 9) {{\n let t = {value}\n f(t) = 0\n}}\n");
    let s = stmt(&text);
    let raw = boxes_provided(&Ctx::new(), &s, &Scope::new(), &FuncValueBounds::default())
        .unwrap_or_else(|e| panic!("{e}"));
    let shown = show(&raw);
    assert!(shown.contains("let t"), "{shown}");
    let small = "for (x, 0, 9) {\n let t = ((a*b)*(a*b)) + x\n f(t) = 0\n}\n";
    let raw = boxes_provided(&Ctx::new(), &stmt(small), &Scope::new(), &FuncValueBounds::default())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!show(&raw).contains("let t"), "{}", show(&raw));
}

/// A fused loop's guard `loop_min <= v` compares two varying variables: Halide solves it
/// for each of them, so the loop variable is tightened too (not only the let-bound limit).
#[test]
fn guard_between_two_varying_variables_tightens_both() {
    let text = "let lm = m\nfor (y, min(lm, k), max(lm, 99)) {\n if (lm <= y) {\n  f(y) = 0\n }\n}\n";
    assert_eq!(provided(text), "f: {[m, max(m, 99)]}");
}

fn touched_compat(text: &str, first_t: u64) -> String {
    let s = stmt(text);
    let ctx =
        Ctx::with_options(loopir_simplify::ctx::Options { compat_conditions: true, ..Default::default() });
    ctx.seed_t(first_t);
    show(
        &boxes_provided(&ctx, &s, &Scope::new(), &FuncValueBounds::default())
            .unwrap_or_else(|e| panic!("{e}")),
    )
}

/// Halide's guard handling in fused loops (`compat_conditions`): every LetStmt depending
/// on the guarded loop variable is rebound to two fresh names, however small its interval,
/// in Halide's order (dependents sorted by name, the last visited first, max name before
/// min name); nested guards rebind it again; the names are defined around the box ends on
/// the way out, from the let's bounds under the guard intersected with the enclosing
/// binding. A `likely` guard keeps the loop's own end as `likely(end)` in a plain
/// `max`/`min` node beside the solved bound, as Halide writes it.
#[test]
fn compat_guards_rebind_dependent_lets_to_fresh_names() {
    let text = "for (fx, 0, 9) {\n let a = fx\n let base = (fx*16) + m\n if ((uint1)likely(j <= fx)) {\n  if ((uint1)likely(fx <= k)) {\n   f(base) = 0\n  }\n }\n}\n";
    // `base` (t100/t101, then t104/t105) is rebound before `a` (t102/t103, t106/t107).
    assert_eq!(
        touched_compat(text, 100),
        "f: {[let t101 = ((max(likely(0), j)*16) + m) in (let t105 = max((max(likely(0), j)*16) + m, t101) in t105), \
         let t100 = (m + 144) in (let t104 = min((min(likely(9), k)*16) + m, t100) in t104)]}"
    );
    // Without the option the dependent let is re-derived (under both guards) and
    // substituted.
    assert_eq!(provided(text), "f: {[(max(j, 0)*16) + m, (min(k, 9)*16) + m]}");
}

#[test]
fn single_func_queries_walk_only_what_concerns_the_func() {
    // A loop that does not concern `f`, around a let whose bounds are wide enough that
    // walking it draws two fresh names; then a read of `f`. The region of `f` is the same
    // with or without the loop, and, as in the reference, the loop is not walked for it.
    let wide = (1..12).map(|k| format!("p{k}")).fold("k".to_owned(), |acc, p| format!("({acc} + {p})"));
    let read = "for (x, 0, 9) {\n h(f(x + 1))\n}\n";
    let with_loop = format!("for (k, 0, 9) {{\n let junk = {wide}\n g(junk)\n}}\n{read}");
    let run = |text: &str, query: fn(&Ctx, &Stmt) -> Option<Region>| {
        let ctx = Ctx::new();
        let r = query(&ctx, &stmt(text)).map(|r| r.to_string());
        (r, ctx.next_t())
    };
    let scope = || Scope::new();
    let fb = FuncValueBounds::default();
    let required: fn(&Ctx, &Stmt) -> Option<Region> = |ctx, s| {
        box_required(ctx, s, "f", &Scope::new(), &FuncValueBounds::default())
            .unwrap_or_else(|e| panic!("{e}"))
    };
    let touched: fn(&Ctx, &Stmt) -> Option<Region> = |ctx, s| {
        box_touched(ctx, s, "f", &Scope::new(), &FuncValueBounds::default()).unwrap_or_else(|e| panic!("{e}"))
    };
    for query in [required, touched] {
        let (plain, with) = (run(read, query), run(&with_loop, query));
        assert_eq!(plain, with);
        assert_eq!(with.0.as_deref(), Some("{[0 + 1, 9 + 1]}"));
    }
    // Asked for `g`, the loop is walked, and its let draws its two names.
    let ctx = Ctx::new();
    let g = box_required(&ctx, &stmt(&with_loop), "g", &scope(), &fb).unwrap_or_else(|e| panic!("{e}"));
    assert!(g.is_some());
    assert_eq!(ctx.next_t(), 2);
}

/// Found by fuzzing: a loop bound adding a float constant to an int loop variable (text
/// the reference never prints; the parser keeps it as written) sent the simplifier into
/// an endless rewrite of the box ends. Such operands are now left alone.
#[test]
fn operands_of_two_types_are_left_alone_and_the_walk_ends() {
    let text = "for (out.s0.y, out.min.1, (out.min.1 + out.extent.1) - 1) {
 realize blur([blur.x.min_realized, blur.x.extent_realized], [blur.y.min_realized, blur.y.extent_realized]) {
   produce blur {
    for (blur.s0.y, out.s0.y + -1, ((out.s0.y + -1.) + 3) - 1) {
     for (blur.s0.x, 0, (0 + 64) - 1) {
      blur(blur.s0.x, blur.s0.y) = 0_u16
     }
    }
   }
   consume blur {
    for (out.s0.x, 0, (0 + 64) - 1) {
     output(out.s0.x, out.s0.y) = uint8(blur(out.s0.x, out.s0.y + 1))
    }
   }
 }
}
";
    let boxes = touched(text);
    // The mixed node `y + -1.` is opaque: the constants around it fold (`+ 3 - 1`), the
    // float stays inside it.
    assert!(boxes.contains("+ -1.000000) + 2)"), "the mixed-type sum stays as written: {boxes}");
    assert!(boxes.starts_with("blur: {[0, 63], [out.min.1 + -1, "), "{boxes}");
}

/// Found by fuzzing: a Func written at an int32 index and read at a uint2 one (text the
/// reference never prints) merged two constant ends of two types, which do not fold, and
/// `make_min_max_expr` swapped them back and forth forever.
#[test]
fn constant_ends_of_two_types_are_merged_as_they_are() {
    let text = "for (r, 0, 9) {\n f(int32(input(r)) % 64) = f(uint2(input(r)) % 64) + 1\n}\n";
    let boxes = touched(text);
    assert!(boxes.ends_with("f: {[0_u2, 63]}"), "{boxes}");
}
