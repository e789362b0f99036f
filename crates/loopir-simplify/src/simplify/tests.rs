use super::*;
use crate::interval::Interval;
use loopir::Expr;
use loopir::constant;
use loopir::make;

fn x() -> Expr {
    Expr::var_i32("x")
}
fn y() -> Expr {
    Expr::var_i32("y")
}
fn c(v: i32) -> Expr {
    Expr::i32(v)
}
fn s(e: Expr) -> String {
    loopir::print::expr_to_string_implicit(&simplify_expr(&Ctx::new(), &e))
}
fn scope_x(lo: i32, hi: i32) -> Scope<'static, Interval> {
    let mut sc = Scope::new();
    let _ = sc.push("x", Interval::new(c(lo), c(hi)));
    sc
}

#[test]
fn canonical_forms() {
    assert_eq!(s(make::max(c(7), x())), "max(x, 7)");
    assert_eq!(s(make::min(y(), x())), "min(x, y)");
    let v = Expr::var_i32("v");
    assert_eq!(s(make::max(make::sub(v.clone(), c(1)), make::div(v.clone(), c(2)))), "max(v/2, v + -1)");
    assert_eq!(s(make::sub(x(), c(1))), "x + -1");
    assert_eq!(s(make::add(x(), make::sub(c(1), c(8)))), "x + -7");
    assert_eq!(s(make::max(v.clone(), make::add(v.clone(), c(2)))), "v + 2");
    assert_eq!(s(make::min(v.clone(), make::add(v.clone(), c(2)))), "v");
    assert_eq!(s(make::max(make::max(x(), c(255)), c(0))), "max(x, 255)");
    let u = Expr::from_node_unchecked(Type::uint(16, 1), ExprKind::UIntImm(65535));
    assert_eq!(s(make::cast(Type::INT32, u)), "65535");
    let a = Expr::var_i32("a");
    let b = Expr::var_i32("b");
    let d = Expr::var_i32("d");
    let untouched =
        make::add(make::min(make::add(make::mul(a, c(8)), b), make::add(Expr::var_i32("c"), c(-7))), d);
    assert_eq!(s(untouched), "min((a*8) + b, c + -7) + d");
}

#[test]
fn additive_rules() {
    assert_eq!(s(make::add(make::add(x(), c(3)), c(4))), "x + 7");
    assert_eq!(s(make::sub(x(), x())), "0");
    assert_eq!(s(make::mul(x(), c(0))), "0");
    assert_eq!(s(make::mul(x(), c(1))), "x");
    assert_eq!(s(make::sub(make::add(x(), c(3)), make::add(x(), c(1)))), "2");
    assert_eq!(s(make::add(make::add(x(), c(3)), y())), "(x + y) + 3");
    assert_eq!(s(make::mul(make::add(x(), c(3)), c(2))), "(x*2) + 6");
    assert_eq!(s(make::lt(make::add(x(), c(1)), make::add(x(), c(3)))), "true");
    assert_eq!(s(make::le(make::add(x(), c(4)), make::add(x(), c(3)))), "false");
}

#[test]
fn rounding_up_to_a_multiple_is_at_least_the_value() {
    let e = make::add(Expr::var_i32("e"), Expr::var_i32("m"));
    let up =
        make::add(make::mul(make::div(make::add(Expr::var_i32("e"), c(7)), c(8)), c(8)), Expr::var_i32("m"));
    assert_eq!(s(make::min(up.clone(), e.clone())), "e + m");
    assert_eq!(s(make::max(up.clone(), e)), "(((e + 7)/8)*8) + m");
}

#[test]
fn booleans_and_selects() {
    let p = Expr::var(Type::BOOL, "p");
    let q = Expr::var(Type::BOOL, "q");
    let t = constant::make_bool(true, 1);
    assert_eq!(s(make::and(p.clone(), t.clone())), "(uint1)p");
    assert_eq!(s(make::or(p.clone(), t.clone())), "true");
    assert_eq!(s(make::not(make::not(p.clone()))), "(uint1)p");
    let e = make::or(make::and(p.clone(), q.clone()), make::and(p.clone(), make::not(q.clone())));
    assert_eq!(s(e), "(uint1)p");
    assert_eq!(s(make::select(t, x(), y())), "x");
    assert_eq!(s(make::select(p.clone(), x(), x())), "x");
    assert_eq!(s(make::select(make::lt(x(), y()), x(), y())), "min(x, y)");
    assert_eq!(s(make::not(make::lt(x(), y()))), "y <= x");
    assert_eq!(s(make::ge(x(), y())), "y <= x");
    assert_eq!(s(make::gt(x(), y())), "y < x");
}

#[test]
fn ranges_decide_and_absorb() {
    let ctx = Ctx::new();
    let sc = scope_x(0, 10);
    assert_eq!(simplify(&ctx, &make::lt(x(), c(20)), &sc).to_string(), "true");
    assert_eq!(loopir::print::expr_to_string_implicit(&simplify(&ctx, &make::lt(x(), c(5)), &sc)), "x < 5");
    assert_eq!(simplify(&ctx, &make::min(x(), c(20)), &sc).to_string(), "x");
    assert_eq!(simplify(&ctx, &make::max(x(), c(-1)), &sc).to_string(), "x");
    assert_eq!(simplify(&ctx, &make::modulo(x(), c(16)), &sc).to_string(), "x");
    assert_eq!(simplify(&ctx, &make::div(x(), c(16)), &sc).to_string(), "0");
}

#[test]
fn s01_can_prove() {
    let ctx = Ctx::new();
    let empty = Scope::new();
    assert!(can_prove(&ctx, &make::gt(make::add(x(), c(1)), x()), &empty));
    assert!(!can_prove(&ctx, &make::gt(make::mul(x(), c(2)), x()), &empty));
    assert!(can_prove(&ctx, &make::gt(make::mul(x(), c(2)), x()), &scope_x(1, 10)));
    // Needs associativity and distributivity: the equality-saturation path.
    let lhs = make::add(make::mul(x(), c(3)), y());
    let rhs = make::add(make::add(y(), make::mul(x(), c(2))), x());
    assert!(can_prove(&ctx, &make::eq(lhs.clone(), rhs.clone()), &empty));
    assert!(prove_equal(&lhs, &rhs));
    assert!(!prove_equal(&lhs, &make::add(rhs.clone(), c(1))));
    let m1 = make::add(make::min(x(), y()), c(5));
    let m2 = make::min(make::add(y(), c(5)), make::add(c(5), x()));
    assert!(prove_equal(&m1, &m2));
    assert!(can_prove(&ctx, &make::lt(rhs, make::add(lhs, c(1))), &empty));
}

#[test]
fn s02_s03_folding() {
    let ctx = Ctx::new();
    let e = make::add(c(i32::MAX), c(1));
    assert_eq!(simplify_expr(&ctx, &e).to_string(), "signed_integer_overflow(0)");
    let i8t = Type::int(8, 1);
    let e8 = make::add(constant::make_const(i8t, 127), constant::make_const(i8t, 1));
    assert_eq!(simplify_expr(&ctx, &e8).to_string(), "-128_i8");
    let d = make::div(c(i32::MIN), c(-1));
    assert!(simplify_expr(&ctx, &d).is_intrinsic(loopir::Intrinsic::SignedIntegerOverflow));
    assert_eq!(s(make::div(c(-7), c(2))), "-4");
    assert_eq!(s(make::div(c(7), c(-2))), "-3");
    assert_eq!(s(make::modulo(c(-7), c(-2))), "1");
    assert_eq!(s(make::div(c(9), c(0))), "0");
    assert_eq!(s(make::modulo(c(9), c(0))), "0");
}

#[test]
fn lets_are_substituted_or_kept() {
    let t = loopir::name("t");
    let tv = Expr::var_i32(t.clone());
    let e = make::let_in(t.clone(), make::add(x(), c(1)), make::sub(tv.clone(), x()));
    assert_eq!(s(e), "1");
    // Halide peels operations with a variable or constant operand off a let value...
    let peeled = make::let_in(t.clone(), make::mul(x(), y()), make::add(tv.clone(), tv.clone()));
    assert_eq!(s(peeled), "(x*y)*2");
    // ...binds what remains to `<name>.s`...
    let partly =
        make::let_in(t.clone(), make::add(make::div(x(), y()), c(3)), make::mul(tv.clone(), tv.clone()));
    assert_eq!(s(partly), "let t.s = (x/y) in ((t.s + 3)*(t.s + 3))");
    // ...and keeps a let whose value cannot be peeled.
    let kept = make::let_in(t.clone(), make::div(x(), y()), make::mul(tv.clone(), tv.clone()));
    assert_eq!(s(kept), "let t = (x/y) in (t*t)");
    let unused = make::let_in(t, make::mul(x(), y()), x());
    assert_eq!(s(unused), "x");
}

#[test]
fn cancelling_addend_moves_into_min_max() {
    let m = Expr::var_i32("m");
    let big = Expr::var_i32("M");
    // ((M - m)/8)*8 + m: the start of the last vector of a split.
    let start = make::add(make::mul(make::div(make::sub(big.clone(), m.clone()), c(8)), c(8)), m.clone());
    let base_max = make::min(start.clone(), make::add(big.clone(), c(-7)));
    assert_eq!(s(make::add(base_max.clone(), c(7))), "min(((((M - m)/8)*8) + m) + 7, M)");
    // The max of the last lane, then two more taps: nothing cancels any more.
    let lane = make::add(base_max, c(7));
    assert_eq!(s(make::add(lane, c(2))), "min(((((M - m)/8)*8) + m) + 7, M) + 2");
    assert_eq!(s(make::add(make::min(make::add(x(), c(3)), y()), c(-3))), "min(y + -3, x)");
    assert_eq!(s(make::add(make::max(x(), make::sub(y(), m.clone())), m.clone())), "max(m + x, y)");
    assert_eq!(s(make::add(make::max(x(), make::add(y(), c(2))), c(-2))), "max(x + -2, y)");
    // No cancellation: left as built.
    assert_eq!(s(make::add(make::min(x(), make::add(y(), c(2))), c(3))), "min(y + 2, x) + 3");
}

#[test]
fn min_max_regrouping() {
    let v = |n: &str| Expr::var_i32(n);
    let (mo, mb, lo, lb) = (v("out.max"), v("b.max"), v("out.min"), v("b.min"));
    // Two merged boxes' lower ends: the shared `+ -7` is pulled out and the maxes meet.
    let a = make::min(make::add(mo.clone(), c(-7)), lo.clone());
    let b = make::min(make::add(mb.clone(), c(-7)), lb.clone());
    assert_eq!(s(make::min(a, b)), "min(min(min(b.max, out.max) + -7, out.min), b.min)");
    // A common operand of two mins.
    assert_eq!(s(make::min(make::min(x(), y()), make::min(x(), v("z")))), "min(min(y, z), x)");
    // Two maxes under a min share `x`.
    assert_eq!(s(make::min(make::max(x(), y()), make::max(x(), v("z")))), "max(min(y, z), x)");
    // Constants: out of a min with a constant, and the smaller one leaves.
    assert_eq!(s(make::min(make::add(x(), c(3)), c(10))), "min(x, 7) + 3");
    assert_eq!(s(make::max(make::add(x(), c(1)), make::add(y(), c(4)))), "max(y + 3, x) + 1");
    assert_eq!(s(make::min(make::add(x(), c(4)), make::add(y(), c(1)))), "min(x + 3, y) + 1");
    // A stencil's taps fold into one.
    let taps = make::min(make::min(v("a"), make::add(x(), c(-1))), make::add(x(), c(1)));
    assert_eq!(s(taps), "min(x + -1, a)");
    let taps = make::max(make::max(v("a"), make::add(x(), c(-1))), make::add(x(), c(1)));
    assert_eq!(s(taps), "max(x + 1, a)");
    // min(min(x, y), x + c): the sum is dominated, or replaces x.
    assert_eq!(s(make::min(make::min(x(), y()), make::add(x(), c(2)))), "min(x, y)");
    assert_eq!(s(make::min(make::min(x(), y()), make::add(x(), c(-2)))), "min(x + -2, y)");
    // min(min(x, y) + c, x).
    assert_eq!(s(make::min(make::add(make::min(x(), y()), c(2)), x())), "min(y + 2, x)");
    assert_eq!(s(make::max(make::add(make::max(x(), y()), c(2)), x())), "max(x, y) + 2");
    // Shared summands.
    let z = v("z");
    assert_eq!(s(make::max(make::add(x(), y()), make::add(x(), z.clone()))), "max(y, z) + x");
    assert_eq!(
        s(make::min(make::add(make::mul(x(), c(2)), y()), make::add(make::mul(x(), c(2)), z))),
        "min(y, z) + (x*2)"
    );
}

#[test]
fn min_max_of_quotients_and_differences() {
    let v = Expr::var_i32("v");
    let half = |e: Expr| make::div(e, c(2));
    assert_eq!(s(make::min(half(v.clone()), half(make::add(v.clone(), c(1))))), "v/2");
    assert_eq!(s(make::max(half(v.clone()), half(make::add(v.clone(), c(1))))), "(v + 1)/2");
    assert_eq!(s(make::min(half(x()), half(y()))), "min(x, y)/2");
    assert_eq!(s(make::max(make::div(x(), c(-2)), make::div(y(), c(-2)))), "min(x, y)/-2");
    assert_eq!(s(make::min(half(x()), make::add(half(y()), c(3)))), "min(y + 6, x)/2");
    assert_eq!(s(make::min(make::sub(x(), v.clone()), make::sub(y(), v.clone()))), "min(x, y) - v");
    assert_eq!(s(make::max(make::sub(v.clone(), x()), make::sub(v.clone(), y()))), "v - min(x, y)");
}

#[test]
fn min_max_chains_absorb_and_gather_quotients() {
    let v = |n: &str| Expr::var_i32(n);
    let (p, q) = (make::div(make::add(v("m"), c(1)), c(2)), make::div(make::add(v("m"), c(-1)), c(2)));
    // Two taps of a downsampling stencil, with another operand between them.
    let e = make::min(make::min(p.clone(), v("g")), q.clone());
    assert_eq!(s(e.clone()), "min((m + -1)/2, g)");
    assert_eq!(s(make::min(e, p.clone())), "min((m + -1)/2, g)");
    let e = make::max(make::max(q, v("g")), p);
    assert_eq!(s(e), "max((m + 1)/2, g)");
    // An operand found deeper in a left-nested chain.
    let chain = make::min(make::min(make::min(make::min(x(), y()), v("z")), v("w")), v("u"));
    assert_eq!(s(make::min(chain.clone(), y())), loopir::print::expr_to_string_implicit(&chain));
}

#[test]
fn ranges_decide_and_drop_likely() {
    let likely = |v: i32| loopir::Intrinsic::Likely.call(Type::INT32, vec![c(v)]);
    let x_ = make::add(Expr::var_i32("e"), c(-1));
    // Three taps of a clamp with likely constant indices, merged as box ends are.
    let tap = |k: i32| make::min(likely(k), x_.clone());
    assert_eq!(s(make::min(likely(0), likely(1))), "0");
    assert_eq!(s(make::max(likely(0), likely(1))), "1");
    assert_eq!(s(make::min(tap(0), tap(1))), "min(e, 1) + -1");
    assert_eq!(s(make::max(tap(0), tap(1))), "min(e, 2) + -1");
    // Undecided: the tag stays.
    assert_eq!(s(tap(2)), "min(likely(2), e + -1)");
}

#[test]
fn no_overflow_ranges_clamp() {
    let likely = |v: i32| loopir::Intrinsic::Likely.call(Type::INT32, vec![c(v)]);
    let e = Expr::var_i32("e");
    let q = make::add(make::min(e.clone(), c(1)), c(-1));
    assert_eq!(s(make::min(q.clone(), likely(2))), "min(e, 1) + -1");
    let xm = make::add(e.clone(), c(-1));
    assert_eq!(s(make::min(q, make::min(likely(2), xm))), "min(e, 1) + -1");
}

#[test]
fn min_max_of_products() {
    let l = Expr::var_i32("levels");
    assert_eq!(s(make::max(make::mul(l.clone(), c(256)), c(256))), "max(levels, 1)*256");
    assert_eq!(s(make::max(make::mul(l.clone(), c(256)), c(300))), "max(levels*256, 300)");
    assert_eq!(s(make::min(make::mul(x(), c(-2)), c(8))), "max(x, -4)*-2");
    assert_eq!(s(make::max(make::mul(x(), c(2)), make::mul(y(), c(6)))), "max(y*3, x)*2");
    assert_eq!(s(make::min(make::mul(x(), c(6)), make::mul(y(), c(2)))), "min(x*3, y)*2");
    assert_eq!(s(make::min(make::mul(x(), c(4)), make::add(make::mul(y(), c(4)), c(8)))), "min(y + 2, x)*4");
    // (levels - 1)*256 clamped at 0: Halide's form of a let's upper bound.
    let e = make::max(make::mul(make::sub(l, c(1)), c(256)), c(0));
    assert_eq!(s(e), "(max(levels, 1)*256) + -256");
}

#[test]
fn difference_of_products_shares_the_factor() {
    let (l, f) = (Expr::var_i32("l"), Expr::var_i32("f"));
    let e = make::sub(make::mul(make::max(l.clone(), c(1)), c(256)), make::mul(f.clone(), c(256)));
    assert_eq!(s(e), "(max(l, 1) - f)*256");
    assert_eq!(s(make::sub(make::mul(x(), y()), make::mul(y(), f.clone()))), "(x - f)*y");
    assert_eq!(s(make::sub(make::mul(x(), c(3)), make::mul(x(), c(5)))), "x*-2");
}

#[test]
fn dominated_max_operand() {
    let e = loopir::parse::parse_expr(
        "max(max(min(levels + -2, int32(max(float32(levels + -1), 0.000000f))), max(min(levels + -2, int32(max(float32(levels + -1), 0.000000f))), 0) + 1), 0)",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s(e), "max(min(levels + -2, int32(max(float32(levels + -1), 0.000000f))), 0) + 1");
}

#[test]
fn repeated_division_folds() {
    let d = make::sub(Expr::var_i32("M"), Expr::var_i32("m"));
    let e = make::mul(make::div(make::div(d.clone(), c(2)), c(16)), c(32));
    assert_eq!(s(e), "((M - m)/32)*32");
    assert_eq!(s(make::div(make::add(make::div(x(), c(4)), c(3)), c(2))), "(x + 12)/8");
    assert_eq!(s(make::div(make::mul(x(), c(2)), c(8))), "x/4");
    assert_eq!(s(make::div(make::div(x(), c(-2)), c(3))), "(x/-2)/3");
}

/// Halide has no rule collapsing `let t = v in t`: the let is kept (also for the `.s`
/// name of a peeled value).
#[test]
fn let_of_its_own_name_is_kept() {
    let t = loopir::name("t");
    let tv = Expr::var_i32(t.clone());
    assert_eq!(s(make::let_in(t.clone(), make::min(x(), y()), tv.clone())), "let t = min(x, y) in t");
    assert_eq!(s(make::let_in(t, make::add(make::div(x(), y()), c(3)), tv)), "let t.s = (x/y) in (t.s + 3)");
}

#[test]
fn subtracting_a_difference_adds_its_negation() {
    // x - (y - z) → x + (z - y), which cancels when x is y (Halide's canonical form)
    assert_eq!(s(make::sub(x(), make::sub(x(), y()))), "y");
    assert_eq!(s(make::sub(c(0), make::sub(c(0), x()))), "x");
}

#[test]
fn halide_constant_guards_on_min_max_differences() {
    // x - min(x, y) → max(x - y, 0) only for a non-constant x
    assert_eq!(s(make::sub(c(0), make::min(x(), c(0)))), "0 - min(x, 0)");
    assert_eq!(s(make::sub(y(), make::min(y(), x()))), "max(y - x, 0)");
    // z - max(x - y, c0) → z + min(y - x, -c0)
    let w = Expr::var_i32("w");
    assert_eq!(s(make::sub(w, make::max(make::sub(c(0), x()), c(0)))), "min(x, 0) + w");
    // (c0 - x)*c1 → x*(-c1) + c0*c1
    assert_eq!(s(make::mul(make::sub(c(0), make::min(x(), c(0))), c(64))), "min(x, 0)*-64");
}

fn sp(text: &str) -> String {
    s(loopir::parse_expr(text).expect("parses"))
}

#[test]
fn unsigned_min_is_not_decided_by_a_wrapping_difference() {
    // In uint8, `a - b` is never negative; that must not make `b` the smaller operand.
    assert_eq!(
        sp("min(select(w < a, 255_u8, 0_u8), select(w < b, 255_u8, 0_u8))"),
        "min(select(w < a, 255_u8, 0_u8), select(w < b, 255_u8, 0_u8))"
    );
}

#[test]
fn comparisons_move_subtractions_across() {
    // Halide: (x - y) + z < w → x + z < y + w, so the condition solves to (f + l) - m.
    assert_eq!(sp("f <= ((x - l) + m)"), "(f + l) <= (m + x)");
    assert_eq!(sp("(x - y) < z"), "x < (y + z)");
    assert_eq!(sp("(a + b) < (a + c)"), "b < c");
}

#[test]
fn halide_factoring_of_a_difference() {
    // Expected forms are what Halide's own simplifier prints for the same inputs.
    assert_eq!(s(make::sub(x(), make::mul(x(), y()))), "(1 - y)*x");
    assert_eq!(s(make::sub(x(), make::mul(y(), x()))), "(1 - y)*x");
    assert_eq!(s(make::sub(make::mul(x(), y()), x())), "(y + -1)*x");
    assert_eq!(s(make::sub(make::mul(x(), y()), y())), "(x + -1)*y");
    assert_eq!(s(make::sub(x(), make::mul(x(), c(3)))), "x*-2");
    assert_eq!(s(make::sub(make::mul(x(), c(3)), x())), "x*2");
    // `x - y*x` matches with `x` a constant: only when the constant is the factor.
    assert_eq!(s(make::sub(c(8), make::mul(y(), c(8)))), "(y*-8) + 8");
    assert_eq!(s(make::sub(c(-8), make::mul(y(), c(-8)))), "(y*8) + -8");
    assert_eq!(s(make::sub(c(512), make::mul(y(), c(256)))), "512 - (y*256)");
    // app_local_laplacian's f0 box end
    let m = make::max(y(), c(2));
    let raw = make::sub(c(0), make::mul(make::add(make::add(m, c(-2)), c(1)), c(256)));
    assert_eq!(s(raw), "(max(y, 2)*-256) + 256");
}

#[test]
fn halide_add_sub_mul_forms() {
    // Inputs and outputs as Halide's own simplifier prints them.
    let cases = [
        ("3 - (-256*x)", "(x*256) + 3"),
        ("y + (x*-1)", "y - x"),
        ("(x - y)*(-2 - 1)", "(y - x)*3"),
        ("(0 - y)*max(y, 8)", "0 - (max(y, 8)*y)"),
        ("(z*256)*x", "(x*z)*256"),
        ("(0 - y) - (x + 2)", "-2 - (x + y)"),
        ("(3 - x) - (-256 + y)", "259 - (x + y)"),
        ("(4 - z) + (8 - x)", "(12 - z) - x"),
        ("(y - z) - (y - x)", "x - z"),
        ("(y*8) - (x + x)", "((y*4) - x)*2"),
        ("(8 + z) + (z*x)", "((x + 1)*z) + 8"),
    ];
    for (input, want) in cases {
        assert_eq!(sp(input), want, "{input}");
    }
}

/// What a simplifier was given once is not kept alive by it: a node with one handle is
/// reached through its one parent, so a memo entry for it would only hold it (and its
/// result) until the simplifier is dropped; nor is a constant result kept by the
/// context's table of fact-free results, which a constant never consults.
#[test]
fn unshared_input_and_constant_results_are_not_retained() {
    let ctx = Ctx::new();
    let scope = scope_x(0, 10);
    let mut with_ranges = Simplifier::new(&ctx, &scope);
    let e = make::add(make::add(x(), c(1)), c(2));
    let r = with_ranges.simplify(&e);
    assert_eq!(s(r.clone()), "x + 3");
    assert!(!e.is_shared(), "the input is held by the simplifier's memo");
    let mut fact_free = Simplifier::without_bounds(&ctx);
    let folded = fact_free.simplify(&make::mul(make::add(c(2), c(3)), c(4)));
    assert_eq!(s(folded.clone()), "20");
    assert!(!folded.is_shared(), "the constant is held by the context's table");
    // A shared input is memoised: simplifying it again returns the same node.
    let shared = make::add(make::add(y(), c(1)), c(2));
    let keep = shared.clone();
    let first = fact_free.simplify(&shared);
    assert!(first.same_as(&fact_free.simplify(&keep)));
}

/// A float operand with an integer one is text the reference never prints; no rule is
/// meant for them (some rewrote such nodes back and forth forever), so the node stays as
/// it is.
#[test]
fn operands_of_two_types_stay_as_written() {
    let ctx = Ctx::new();
    let mut simp = Simplifier::without_bounds(&ctx);
    let minus_one = constant::make_float(loopir::Type::float(64, 1), -1.0);
    let e = simp.binary(loopir::BinOp::Add, make::add(x(), c(3)), minus_one.clone());
    assert_eq!(loopir::print::expr_to_string_implicit(&e), "(x + 3) + -1.000000");
    let m = simp.binary(loopir::BinOp::Max, minus_one, x());
    assert_eq!(loopir::print::expr_to_string_implicit(&m), "max(-1.000000, x)");
}

/// The same holds below a well-typed node: an `==` of two integer sums, one holding
/// `+ 463.000000` and the other `- 463.000000`, made the rules that move a constant across
/// `==` carry the float from side to side forever (found by fuzzing allocation bounds
/// inference on `loop_max + (1 - 463.)`). A rule's pattern does not look inside a node
/// whose operands differ in kind.
#[test]
fn a_mixed_node_under_a_comparison_is_opaque_to_the_rules() {
    let text = "(((a*4) + b) + 463.000000) == ((((c - 463.000000) - ((d*4) + b)) + c) + 2)";
    let e = loopir::parse_expr(text).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(s(e), text);
}

/// The reference's rules that fold a product of constants into a new constant apply only
/// when the product does not overflow the expression's own type (`!overflows(...)`):
/// a 32-bit signed product past 2^31 must leave the expression as it was, not produce an
/// overflow marker that a later bounds query widens to infinity. Found on a 32-level
/// pyramid, where `((w + 1073741823)/1073741824 + 1)/2` became a division by the marker and
/// made a Func's box unbounded.
#[test]
fn constant_products_fold_only_within_the_type() {
    let i64t = Type::int(64, 1);
    let x64 = Expr::var(i64t, "x");
    let k64 = |v: i64| constant::make_const(i64t, i128::from(v));
    // (x/c0 + c1)/c2 and (x/c0)/c2: c0*c2 = 2^31.
    assert_eq!(s(make::div(make::add(make::div(x(), c(1 << 30)), c(1)), c(2))), "((x/1073741824) + 1)/2");
    assert_eq!(s(make::div(make::div(x(), c(1 << 30)), c(2))), "(x/1073741824)/2");
    assert_eq!(s(make::div(make::add(make::div(x(), c(1 << 29)), c(1)), c(2))), "(x + 536870912)/1073741824");
    let folded = s(make::div(make::add(make::div(x64.clone(), k64(1 << 30)), k64(1)), k64(2)));
    assert_eq!(folded, "((int64)x + 1073741824_i64)/2147483648_i64");
    // (x*c0)*c1 and (x + c0)*c1.
    assert_eq!(s(make::mul(make::mul(x(), c(65536)), c(32768))), "(x*65536)*32768");
    assert_eq!(s(make::mul(make::mul(x64, k64(65536)), k64(32768))), "(int64)x*2147483648_i64");
    assert_eq!(s(make::mul(make::add(x(), c(1 << 30)), c(2))), "(x + 1073741824)*2");
    assert_eq!(s(make::mul(make::add(x(), c((1 << 30) - 1)), c(2))), "(x*2) + 2147483646");
    // x - c0 with c0 = INT_MIN: its negation overflows.
    assert_eq!(s(make::sub(x(), c(i32::MIN))), "x - -2147483648");
    // x/c0 < c1 (for Int(32) operands, a c1*c0 past 2^31 is decided by x's type range
    // before the rule is tried).
    assert_eq!(s(make::lt(make::div(x(), c(2)), c(1000))), "x < 2000");
    // min(x/c0, y/c0 + c1): c1*c0 = 2^31.
    let m = make::min(make::div(x(), c(2)), make::add(make::div(y(), c(2)), c(1 << 30)));
    assert!(!s(m).contains("signed_integer_overflow"));
}

/// An Int(32) variable has no constant range of its own (it is assumed not to overflow,
/// so the reference does not take its type's range): `(x + 2^30)/2^30` is not known to
/// be below 4, while a UInt(8) variable's range still decides the same comparison.
#[test]
fn no_overflow_integers_get_no_range_from_their_type() {
    let e = make::max(make::div(make::add(x(), c(1 << 30)), c(1 << 30)), c(4));
    assert_eq!(s(e), "max(x/1073741824, 3) + 1");
    let u8t = Type::uint(8, 1);
    let b = Expr::var(u8t, "b");
    let k = |v: i128| constant::make_const(u8t, v);
    assert_eq!(s(make::max(make::div(b, k(64)), k(4))), "4_u8");
}

/// As the reference, an overflow marker swallows the arithmetic and min/max around it
/// (its value is undefined whatever the other operand), and a cast or broadcast of one is
/// a fresh marker of the new type.
#[test]
fn overflow_markers_propagate() {
    let ctx = Ctx::new();
    let over = make::add(c(i32::MAX), c(1));
    for e in [
        make::add(over.clone(), c(1)),
        make::sub(x(), over.clone()),
        make::mul(over.clone(), x()),
        make::div(x(), over.clone()),
        make::modulo(over.clone(), c(3)),
        make::min(x(), over.clone()),
        make::max(over.clone(), y()),
    ] {
        assert_eq!(
            simplify_expr(&ctx, &e).to_string(),
            format!("signed_integer_overflow({})", ctx.draws() - 1)
        );
    }
    let wide = simplify_expr(&ctx, &make::cast(Type::int(64, 1), over.clone()));
    assert!(wide.is_intrinsic(loopir::Intrinsic::SignedIntegerOverflow));
    assert_eq!(wide.ty(), Type::int(64, 1));
}

/// Shifts by a constant are multiplications and divisions by a power of two, as the
/// reference simplifies them; a shift amount of known sign becomes unsigned, a negated one
/// reverses the shift, and a shift by the type's width or more is an overflow marker.
#[test]
fn constant_shifts_become_arithmetic() {
    let u32c = |v: i128| constant::make_const(Type::uint(32, 1), v);
    let shl = |a: Expr, b: Expr| loopir::Intrinsic::ShiftLeft.call(Type::INT32, vec![a, b]);
    let shr = |a: Expr, b: Expr| loopir::Intrinsic::ShiftRight.call(Type::INT32, vec![a, b]);
    assert_eq!(s(shr(x(), u32c(1))), "x/2");
    assert_eq!(s(make::add(shl(y(), u32c(2)), c(1))), "(y*4) + 1");
    assert_eq!(s(shr(make::mul(y(), c(2)), u32c(1))), "y");
    assert_eq!(s(shl(x(), c(3))), "x*8");
    assert_eq!(s(shl(x(), c(-3))), "x/8");
    assert_eq!(s(shl(x(), make::sub(c(0), y()))), "shift_right(x, y)");
    assert_eq!(s(shr(x(), u32c(31))), "select(x < 0, -1, 0)");
    assert!(s(shl(x(), u32c(40))).starts_with("signed_integer_overflow("));
    assert_eq!(s(shl(x(), y())), "shift_left(x, y)");
}

/// The reference's multiplication rules apply to floats too: constant factors fold into
/// one (a product of exactly one disappears) and a negative factor swaps a difference.
#[test]
fn float_products_fold_their_constants() {
    let f32t = Type::float(32, 1);
    let fx = Expr::var(f32t, "fx");
    let fy = Expr::var(f32t, "fy");
    let k = |v: f64| constant::make_const_value(f32t, constant::Const::Float(v));
    assert_eq!(s(make::mul(make::mul(fx.clone(), k(4.0)), k(0.25))), "(float32)fx");
    assert_eq!(s(make::mul(make::sub(fx.clone(), fy), k(-2.0))), "((float32)fy - (float32)fx)*2.000000f");
    assert_eq!(s(make::mul(make::add(fx, k(1.5)), k(2.0))), "((float32)fx*2.000000f) + 3.000000f");
}

/// Pure math calls of constants fold as the reference folds them (in double precision,
/// rounded to the argument's type), and a rounding function of another is the inner one.
#[test]
fn pure_math_calls_fold() {
    let f32t = Type::float(32, 1);
    let k = |v: f64| constant::make_const_value(f32t, constant::Const::Float(v));
    let math = |n: &str, args: Vec<Expr>| Expr::call(f32t, n, args, CallType::Extern);
    assert_eq!(s(math("floor_f32", vec![k(8.5)])), "8.000000f");
    assert_eq!(s(math("ceil_f32", vec![k(-0.5)])), "-0.000000f");
    assert_eq!(s(math("sqrt_f32", vec![k(16.0)])), "4.000000f");
    assert_eq!(s(math("pow_f32", vec![k(2.0), k(10.0)])), "1024.000000f");
    let fx = Expr::var(f32t, "fx");
    let inner = math("ceil_f32", vec![fx.clone()]);
    assert_eq!(s(math("floor_f32", vec![inner])), "(float32)ceil_f32((float32)fx)");
    assert_eq!(s(math("floor_f32", vec![fx])), "(float32)floor_f32((float32)fx)");
    // An extern that is not a math function is left alone.
    assert_eq!(s(math("my_floor_f32x", vec![k(1.5)])), "(float32)my_floor_f32x(1.500000f)");
}
