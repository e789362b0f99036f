use super::*;
use loopir::Expr;
use loopir::constant;
use loopir::make;
use loopir::make::{add, cast, div, modulo, mul, sub};
use loopir::substitute;
use loopir_simplify::overflow;
use rustc_hash::FxHashMap;

fn x() -> Expr {
    Expr::var_i32("x")
}
fn y() -> Expr {
    Expr::var_i32("y")
}
fn c(v: i32) -> Expr {
    Expr::i32(v)
}
fn scope(bindings: &[(&str, Bound, Bound)]) -> Scope<'static, Interval> {
    let mut s = Scope::new();
    for (n, lo, hi) in bindings {
        let _ = s.push(*n, Interval { min: lo.clone(), max: hi.clone() });
    }
    s
}
fn fin(v: i32) -> Bound {
    Bound::Finite(c(v))
}
fn x_0_10() -> Scope<'static, Interval> {
    scope(&[("x", fin(0), fin(10))])
}
/// Simplified bounds of `e` in `s`, printed.
fn b(e: Expr, s: &Scope<'_, Interval>) -> String {
    bounds_of_expr_simplified(&Ctx::new(), &e, s, &FuncValueBounds::default()).pretty()
}
fn bc(e: Expr, s: &Scope<'_, Interval>) -> String {
    bounds_of_expr_in_scope(&Ctx::new(), &e, s, &FuncValueBounds::default(), true).pretty()
}
fn u8v(e: Expr) -> Expr {
    cast(Type::uint(8, 1), e)
}
fn i8v(e: Expr) -> Expr {
    cast(Type::int(8, 1), e)
}
fn call(ty: Type, name: &str, args: Vec<Expr>) -> Expr {
    match loopir::Intrinsic::from_name(name) {
        Some(intrinsic) => intrinsic.call(ty, args),
        None => panic!("{name} is not an intrinsic"),
    }
}

#[test]
fn e01_e03_basics() {
    let s = x_0_10();
    assert_eq!(b(x(), &s), "[0, 10]");
    assert_eq!(b(add(x(), c(1)), &s), "[1, 11]");
    assert_eq!(b(mul(add(x(), c(1)), c(2)), &s), "[2, 22]");
    assert_eq!(b(mul(x(), x()), &s), "[0, 100]");
    assert_eq!(b(sub(c(5), x()), &s), "[-5, 5]");
    assert_eq!(b(mul(x(), sub(c(5), x())), &s), "[-50, 50]");
    assert_eq!(b(make::select(make::lt(x(), c(4)), x(), add(x(), c(100))), &s), "[0, 110]");
}

#[test]
fn e04_e05_symbols_and_division() {
    let s = x_0_10();
    assert_eq!(b(add(x(), y()), &s), "[y, y + 10]");
    // Spec E04 (Halide): the factor leaves the min/max.
    assert_eq!(b(mul(x(), y()), &s), "[min(y, 0)*10, max(y, 0)*10]");
    assert_eq!(b(div(x(), add(x(), y())), &s), "[-10, 10]");
    assert_eq!(b(div(c(11), add(x(), c(1))), &s), "[1, 11]");
}

#[test]
fn e06_loads() {
    let s = x_0_10();
    let t = Type::int(8, 1);
    let ld = |i: Expr| {
        Expr::load(t, "buf", i, constant::make_bool(true, 1), Default::default())
            .unwrap_or_else(|e| panic!("{e}"))
    };
    assert_eq!(b(ld(x()), &s), "[-128_i8, 127_i8]");
    assert_eq!(b(ld(c(3)), &s), "[(int8)buf[3], (int8)buf[3]]");
}

#[test]
fn e07_e08_let_and_clamp() {
    let s = x_0_10();
    let inner = make::let_in(loopir::name("y"), add(x(), c(3)), add(sub(y(), x()), c(10)));
    assert_eq!(b(add(y(), inner), &s), "[y + 3, y + 23]");
    let clamp = make::min(make::max(div(c(1000), sub(x(), c(2))), sub(x(), c(10))), add(x(), c(10)));
    assert_eq!(b(clamp, &s), "[-10, 20]");
}

#[test]
fn e09_e10_casts_and_comparisons() {
    let s = x_0_10();
    let u16t = Type::uint(16, 1);
    assert_eq!(
        b(cast(u16t, div(x(), c(2))), &s),
        "[(uint16)0, (uint16)5]".replace("(uint16)0", "0_u16").replace("(uint16)5", "5_u16")
    );
    assert_eq!(b(cast(u16t, div(add(x(), c(10)), c(2))), &s), "[5_u16, 10_u16]");
    assert_eq!(b(make::lt(x(), c(20)), &s), "[true, true]");
    assert_eq!(b(make::lt(x(), c(5)), &s), "[false, true]");
    let bc3 = Expr::broadcast(make::ge(x(), c(11)), 3).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(b(bc3, &s), "[false, false]");
    let ramp = Expr::ramp(add(x(), c(5)), c(1), 5).unwrap_or_else(|e| panic!("{e}"));
    let two = Expr::broadcast(c(2), 5).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(b(make::gt(ramp, two), &s), "[true, true]");
}

#[test]
fn e11_e14_calls_and_selects() {
    let s = x_0_10();
    assert_eq!(b(call(Type::INT32, "return_second", vec![x(), x()]), &s), "[0, 10]");
    let sel = make::select(make::eq(y(), c(5)), c(0), c(3));
    assert_eq!(b(sel, &s), "[select(y == 5, 0, 3), select(y == 5, 0, 3)]");
    let sel2 = make::select(make::eq(y(), c(5)), x(), add(mul(c(-3), x()), c(8)));
    assert_eq!(b(sel2, &s), "[select(y == 5, 0, -22), select(y == 5, 10, 8)]");
    let sel3 = make::select(make::eq(y(), x()), x(), add(mul(c(-3), x()), c(8)));
    assert_eq!(b(sel3, &s), "[-22, select((y <= 10) && (0 <= y), 10, 8)]");
    let s2 = scope(&[("x", fin(0), fin(10)), ("y", fin(17), Bound::PosInf)]);
    let e1 = make::select(make::eq(x(), mul(y(), c(2))), y(), sub(y(), c(10)));
    assert_eq!(b(e1, &s2), "[7, pos_inf]");
}

#[test]
fn e15_e17_abs() {
    let s = x_0_10();
    let a = |e: Expr| call(Type::uint(32, 1), "abs", vec![e]);
    assert_eq!(b(a(add(c(2), x())), &s), "[2_u32, 12_u32]");
    assert_eq!(b(a(sub(x(), c(11))), &s), "[1_u32, 11_u32]");
    assert_eq!(b(a(sub(x(), c(5))), &s), "[0_u32, 5_u32]");
    let s2 = scope(&[("x", fin(123), Bound::PosInf)]);
    assert_eq!(b(a(x()), &s2), "[123_u32, pos_inf]");
    let s3 = scope(&[("x", Bound::NegInf, fin(-123))]);
    assert_eq!(b(a(x()), &s3), "[123_u32, pos_inf]");
    let f = cast(Type::float(32, 1), x());
    assert_eq!(b(f, &s), "[0.000000f, 10.000000f]");
}

#[test]
fn e18_vectors() {
    let s = x_0_10();
    let r = Expr::ramp(mul(x(), c(2)), c(5), 5).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(b(r, &s), "[0, 40]");
    let bc = Expr::broadcast(mul(x(), c(2)), 5).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(b(bc, &s), "[0, 20]");
    let r1 = Expr::ramp(constant::make_bool(false, 1), constant::make_bool(true, 1), 3)
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(b(r1, &s), "[false, true]");
}

#[test]
fn e19_e20_wrapping() {
    let s = x_0_10();
    let u = |v: i128| constant::make_const(Type::uint(8, 1), v);
    assert_eq!(b(add(u8v(x()), u(250)), &s), "[0_u8, 255_u8]");
    assert_eq!(b(add(u8v(x()), u(240)), &s), "[240_u8, 250_u8]");
    assert_eq!(b(mul(add(u8v(x()), u(10)), u(20)), &s), "[0_u8, 255_u8]");
    assert_eq!(b(mul(add(u8v(x()), u(10)), u(10)), &s), "[100_u8, 200_u8]");
    assert_eq!(b(mul(add(u8v(x()), u(10)), add(u8v(x()), u(5))), &s), "[0_u8, 255_u8]");
    assert_eq!(b(mul(add(u8v(x()), u(10)), u8v(x())), &s), "[0_u8, 200_u8]");
    assert_eq!(b(sub(add(u8v(x()), u(20)), add(u8v(x()), u(5))), &s), "[5_u8, 25_u8]");
    assert_eq!(b(sub(add(u8v(x()), u(10)), add(u8v(x()), u(5))), &s), "[0_u8, 255_u8]");
}

#[test]
fn e21_e23_division_and_modulo() {
    let none = scope(&[("x", Bound::NegInf, Bound::PosInf)]);
    assert_eq!(b(div(c(-3), x()), &none), "[-3, 3]");
    assert_eq!(b(div(c(3), x()), &none), "[-3, 3]");
    assert_eq!(b(div(y(), x()), &none), "[0 - int32((uint32)abs(y)), int32((uint32)abs(y))]");
    assert_eq!(b(modulo(c(-3), x()), &none), "[0, pos_inf]");
    assert_eq!(b(modulo(c(3), x()), &none), "[0, 3]");
    assert_eq!(b(modulo(y(), x()), &none), "[0, pos_inf]");
    assert_eq!(b(modulo(make::max(y(), c(0)), x()), &none), "[0, max(y, 0)]");
    let s = scope(&[("x", fin(-7), fin(7))]);
    assert_eq!(b(div(x(), c(2)), &s), "[-4, 3]");
    assert_eq!(b(div(x(), c(-2)), &s), "[-3, 4]");
    assert_eq!(b(modulo(x(), c(3)), &s), "[0, 2]");
    assert_eq!(b(modulo(x(), c(-3)), &s), "[0, 2]");
    assert_eq!(b(div(x(), c(0)), &s), "[0, 0]");
    assert_eq!(b(modulo(x(), c(0)), &s), "[0, 0]");
}

#[test]
fn e24_e27_bitwise_and_shifts() {
    let s = x_0_10();
    let u8t = Type::uint(8, 1);
    let i8t = Type::int(8, 1);
    let and = |t, a, b2| call(t, "bitwise_and", vec![a, b2]);
    let or = |t, a, b2| call(t, "bitwise_or", vec![a, b2]);
    assert_eq!(b(and(u8t, u8v(x()), constant::make_const(u8t, 7)), &s), "[0_u8, 7_u8]");
    assert_eq!(b(and(u8t, u8v(add(x(), c(5))), u8v(add(x(), c(3)))), &s), "[0_u8, 13_u8]");
    assert_eq!(b(and(i8t, i8v(sub(x(), c(5))), i8v(add(x(), c(3)))), &s), "[0_i8, 13_i8]");
    assert_eq!(b(and(i8t, i8v(sub(mul(c(2), x()), c(5))), i8v(sub(x(), c(3)))), &s), "[-128_i8, 15_i8]");
    assert_eq!(b(or(u8t, u8v(add(x(), c(5))), u8v(add(x(), c(3)))), &s), "[5_u8, 255_u8]");
    assert_eq!(b(or(i8t, i8v(add(x(), c(5))), i8v(add(x(), c(3)))), &s), "[3_i8, 127_i8]");
    assert_eq!(b(call(u8t, "bitwise_not", vec![u8v(x())]), &s), "[245_u8, 255_u8]");
    let three_and_two = and(u8t, constant::make_const(u8t, 3), constant::make_const(u8t, 2));
    assert_eq!(b(three_and_two, &s), "[2_u8, 2_u8]");
    let shr = |t, a, k| call(t, "shift_right", vec![a, k]);
    let shl = |t, a, k| call(t, "shift_left", vec![a, k]);
    assert_eq!(b(shr(u8t, u8v(x()), constant::make_const(u8t, 1)), &s), "[0_u8, 5_u8]");
    assert_eq!(b(shl(u8t, u8v(add(x(), c(3))), constant::make_const(u8t, 1)), &s), "[6_u8, 26_u8]");
    assert_eq!(b(shl(u8t, u8v(add(x(), c(3))), constant::make_const(u8t, 7)), &s), "[0_u8, 255_u8]");
    assert_eq!(b(shl(Type::INT32, x(), c(12)), &s), "[0, 40960]");
    assert_eq!(b(and(Type::INT32, x(), c(4095)), &s), "[0, 10]");
    assert_eq!(b(and(Type::INT32, sub(x(), c(1)), c(4095)), &s), "[0, 4095]");
    let sh = |lo: Bound, hi: Bound| {
        let s = scope(&[("x", fin(-123), Bound::PosInf), ("y", lo, hi)]);
        b(shl(Type::INT32, x(), y()), &s)
    };
    assert_eq!(sh(fin(-6), fin(0)), "[-123, pos_inf]");
    assert_eq!(sh(fin(-6), Bound::PosInf), "[neg_inf, pos_inf]");
    assert_eq!(sh(fin(-6), fin(4)), "[-1968, pos_inf]");
    // Spec E27 (Halide): `[min((-123) << c, -123), pos_inf]`.
    assert_eq!(sh(fin(-6), Bound::Finite(Expr::var_i32("c"))), "[min(shift_left(-123, c), -123), pos_inf]");
    let s = scope(&[("x", fin(24), Bound::PosInf), ("y", Bound::NegInf, fin(-1))]);
    assert_eq!(b(shl(Type::INT32, x(), y()), &s), "[0, pos_inf]");
}

#[test]
fn e28_e29_wide_wrapping() {
    let u32t = Type::uint(32, 1);
    let a = Expr::var(u32t, "a");
    let bb = Expr::var(u32t, "b");
    let mut s: Scope<Interval> = Scope::new();
    let _ = s.push(
        "a",
        Interval::new(constant::make_const(u32t, 0), constant::make_const(u32t, u32::MAX as i128 / 4 + 2)),
    );
    let _ = s.push(
        "b",
        Interval::new(constant::make_const(u32t, 0), constant::make_const(u32t, u32::MAX as i128)),
    );
    assert_eq!(b(add(a.clone(), bb.clone()), &s), "[neg_inf, pos_inf]");
    assert_eq!(b(mul(a, bb), &s), "[neg_inf, pos_inf]");
    let i16t = Type::int(16, 1);
    let a16 = Expr::var(i16t, "a");
    let b16 = Expr::var(i16t, "b");
    let mut s: Scope<Interval> = Scope::new();
    let _ = s.push("a", type_bounds(i16t));
    let _ = s.push("b", Interval::new(constant::make_const(i16t, -4), constant::make_const(i16t, -1)));
    let m1 = constant::make_const(i16t, -1);
    assert_eq!(b(mul(a16.clone(), m1.clone()), &s), "[-32768_i16, 32767_i16]");
    assert_eq!(b(div(a16.clone(), m1), &s), "[-32768_i16, 32767_i16]");
    assert_eq!(b(div(a16, b16), &s), "[-32768_i16, 32767_i16]");
}

#[test]
fn e30_e31_casts() {
    let s = x_0_10();
    let xor = call(Type::INT32, "bitwise_xor", vec![x(), y()]);
    let f32t = Type::float(32, 1);
    let clamped = make::min(
        make::max(cast(f32t, xor.clone()), constant::make_float(f32t, 0.0)),
        constant::make_float(f32t, 4095.0),
    );
    assert_eq!(b(cast(Type::uint(16, 1), clamped), &s), "[0_u16, 4095_u16]");
    let u16t = Type::uint(16, 1);
    let c16 =
        make::min(make::max(cast(u16t, xor), constant::make_const(u16t, 0)), constant::make_const(u16t, 128));
    assert_eq!(b(u8v(c16), &s), "[0_u8, 128_u8]");
    let sat = |t, e| call(t, "saturating_cast", vec![e]);
    assert_eq!(b(sat(Type::uint(8, 1), make::min(make::max(x(), c(5)), c(10))), &s), "[5_u8, 10_u8]");
    let u32t = Type::uint(32, 1);
    let mut su: Scope<Interval> = Scope::new();
    let _ = su.push("x", Interval::everything());
    let ux = Expr::var(u32t, "x");
    assert_eq!(b(sat(Type::INT32, make::max(ux, constant::make_const(u32t, 5))), &su), "[5, 2147483647]");
    let mut sz: Scope<Interval> = Scope::new();
    let _ = sz.push("z", Interval::new(constant::make_float(f32t, -1.0), constant::make_float(f32t, 1.0)));
    let z = Expr::var(f32t, "z");
    assert_eq!(b(sat(Type::INT32, z.clone()), &sz), "[-1, 1]");
    assert_eq!(b(sat(Type::uint(8, 1), z), &sz), "[0_u8, 1_u8]");
}

#[test]
fn e32_e35_const_bound_mode() {
    let u16t = Type::uint(16, 1);
    let mut s: Scope<Interval> = Scope::new();
    let _ = s.push("x", Interval::new(constant::make_const(u16t, 0), constant::make_const(u16t, 10)));
    let _ = s.push("y", Interval::new(constant::make_const(u16t, 2), constant::make_const(u16t, 4)));
    let (xu, yu) = (Expr::var(u16t, "x"), Expr::var(u16t, "y"));
    let e = make::min(make::max(div(xu, yu), constant::make_const(u16t, 0)), constant::make_const(u16t, 128));
    assert_eq!(b(e.clone(), &s), "[0_u16, 5_u16]");
    assert_eq!(bc(e, &s), "[0_u16, 5_u16]");
    let s = scope(&[("x", fin(10), fin(20)), ("y", fin(5), fin(30))]);
    assert_eq!(bc(make::min(make::max(x(), c(5)), c(30)), &s), "[10, 20]");
    assert_eq!(bc(add(x(), y()), &s), "[15, 50]");
    assert_eq!(bc(sub(x(), y()), &s), "[-20, 15]");
    assert_eq!(bc(mul(x(), y()), &s), "[50, 600]");
    assert_eq!(bc(div(x(), y()), &s), "[0, 4]");
    let sel = make::select(
        make::gt(x(), c(4)),
        sub(mul(c(3), x()), div(y(), c(2))),
        make::max(add(add(x(), y()), c(2)), sub(x(), c(20))),
    );
    assert_eq!(bc(sel, &s), "[15, 58]");
    let u8t = Type::uint(8, 1);
    let mut s8: Scope<Interval> = Scope::new();
    let _ = s8.push("x", Interval::new(constant::make_const(u8t, 10), constant::make_const(u8t, 20)));
    let _ = s8.push("y", Interval::new(constant::make_const(u8t, 5), constant::make_const(u8t, 30)));
    let (x8, y8) = (Expr::var(u8t, "x"), Expr::var(u8t, "y"));
    assert_eq!(bc(sub(x8.clone(), y8.clone()), &s8), "[0_u8, 255_u8]");
    assert_eq!(bc(mul(x8.clone(), y8.clone()), &s8), "[0_u8, 255_u8]");
    assert_eq!(bc(call(u8t, "absd", vec![x8, y8]), &s8), "[0_u8, 20_u8]");
    let s = scope(&[("x", fin(2), fin(10))]);
    assert_eq!(bc(call(Type::INT32, "count_leading_zeros", vec![x()]), &s), "[28, 30]");
    let i16t = Type::int(16, 1);
    assert_eq!(bc(call(i16t, "count_leading_zeros", vec![cast(i16t, x())]), &s), "[12_i16, 14_i16]");
    assert_eq!(bc(call(Type::INT32, "count_leading_zeros", vec![y()]), &s), "[0, 32]");
}

#[test]
fn e36_e37_loads_and_regressions() {
    let s = x_0_10();
    let ld = |t: Type, i: Expr| {
        Expr::load(t, "buf", i, constant::make_bool(true, 1), Default::default())
            .unwrap_or_else(|e| panic!("{e}"))
    };
    assert_eq!(bc(mul(ld(Type::INT32, x()), c(20)), &s), "[neg_inf, pos_inf]");
    let xn = loopir::name("x");
    let e1 = make::let_in(xn.clone(), c(37), ld(Type::INT32, make::max(x(), sub(c(0), x()))));
    let i1 = bounds_of_expr_in_scope(&Ctx::new(), &e1, &s, &FuncValueBounds::default(), false);
    assert!(i1.is_single_point(), "{}", i1.pretty());
    let e2 = make::let_in(xn, c(37), ld(Type::INT32, div(sub(c(0), x()), x())));
    let i2 = bounds_of_expr_in_scope(&Ctx::new(), &e2, &s, &FuncValueBounds::default(), false);
    assert!(i2.is_single_point(), "{}", i2.pretty());
}

#[test]
fn e38_e39_lets_are_named_not_copied() {
    let s = x_0_10();
    let t = loopir::name("t");
    let tv = Expr::var_i32(t.clone());
    let e = make::let_in(t.clone(), add(x(), y()), mul(tv.clone(), c(2)));
    let ctx = Ctx::new();
    let raw = bounds_of_expr_in_scope(&ctx, &e, &s, &FuncValueBounds::default(), false);
    assert_eq!(raw.pretty(), "[let t.min = (0 + y) in (t.min*2), let t.max = (10 + y) in (t.max*2)]");
    assert_eq!(b(e, &s), "[y*2, (y*2) + 20]");
    let e39 = make::let_in(t, mul(x(), c(3)), add(tv.clone(), tv));
    let raw = bounds_of_expr_in_scope(&Ctx::new(), &e39, &s, &FuncValueBounds::default(), false);
    assert_eq!(b(e39, &s), "[0, 60]");
    assert!(!raw.pretty().contains("let"), "{}", raw.pretty());
}

#[test]
fn e40_e42_intrinsics_and_vectors() {
    let s = x_0_10();
    assert_eq!(b(call(Type::INT32, "likely", vec![x()]), &s), "[0, 10]");
    assert_eq!(b(call(Type::INT32, "promise_clamped", vec![x(), c(2), c(5)]), &s), "[2, 5]");
    let upc = call(Type::INT32, "unsafe_promise_clamped", vec![y(), c(2), c(5)]);
    assert_eq!(b(upc, &s), "[unsafe_promise_clamped(y, 2, 5), unsafe_promise_clamped(y, 2, 5)]");
    let f32t = Type::float(32, 1);
    let sq = Expr::call(f32t, "sqrt_f32", vec![cast(f32t, x())], CallType::PureExtern);
    // The ends are sqrt_f32 of 0 and 10; the simplifier folds math calls of constants as
    // the reference's does (spec E41 allows either form).
    assert_eq!(b(sq, &s), "[0.000000f, 3.162278f]");
    assert_eq!(b(call(Type::uint(8, 1), "popcount", vec![u8v(x())]), &s), "[0_u8, 8_u8]");
    let r0 = Expr::ramp(c(0), c(1), 4).unwrap_or_else(|e| panic!("{e}"));
    let rx = Expr::ramp(x(), c(1), 4).unwrap_or_else(|e| panic!("{e}"));
    let sh =
        Expr::shuffle(vec![r0, rx.clone()], vec![0, 1, 2, 3, 4, 5, 6, 7]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(b(sh, &s), "[0, 13]");
    let vr = Expr::vector_reduce(loopir::VectorReduceOp::Add, rx, 1).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(b(vr, &s), "[0, 52]");
}

#[test]
fn o01_o05_overflow_soundness() {
    let ctx = Ctx::new();
    let s = scope(&[("x", fin(0), fin(1 << 30))]);
    let i = bounds_of_expr_in_scope(&ctx, &mul(x(), c(4)), &s, &FuncValueBounds::default(), false);
    assert_eq!(i.pretty(), "[0*4, pos_inf]");
    assert_eq!(find_constant_bounds(&ctx, &mul(x(), c(4)), &s).pretty(), "[0, pos_inf]");
    let marker = overflow::overflow_marker(Type::INT32, 0);
    assert_eq!(b(marker, &s), "[neg_inf, pos_inf]");
    // O03: a narrowing constant cast must not wrap to 0.
    let i64t = Type::int(64, 1);
    let mut s64: Scope<Interval> = Scope::new();
    let _ = s64.push("y", Interval::new(constant::make_const(i64t, 0), constant::make_const(i64t, 1 << 40)));
    assert_eq!(b(cast(Type::INT32, Expr::var(i64t, "y")), &s64), "[0, pos_inf]");
    // O04: UInt(64) sums checked in wider arithmetic.
    let u64t = Type::uint(64, 1);
    let mut su: Scope<Interval> = Scope::new();
    for n in ["a", "b"] {
        let _ = su.push(n, Interval::new(constant::make_const(u64t, 0), constant::make_const(u64t, 1 << 63)));
    }
    assert_eq!(b(add(Expr::var(u64t, "a"), Expr::var(u64t, "b")), &su), "[neg_inf, pos_inf]");
    // O05: float remainders follow the divisor's sign.
    let f32t = Type::float(32, 1);
    let mut sf: Scope<Interval> = Scope::new();
    let _ = sf.push("a", Interval::everything());
    let _ = sf.push("b", Interval::new(constant::make_float(f32t, -8.0), constant::make_float(f32t, -3.0)));
    let e = modulo(Expr::var(f32t, "a"), Expr::var(f32t, "b"));
    assert_eq!(b(e.clone(), &sf), "[-8.000000f, 0.000000f]");
    let compat = Ctx::with_options(loopir_simplify::Options { compat_float_mod: true, ..Default::default() });
    let i = bounds_of_expr_simplified(&compat, &e, &sf, &FuncValueBounds::default());
    assert_eq!(i.pretty(), "[0.000000f, 8.000000f]");
}

mod soundness {
    use super::*;
    use proptest::prelude::*;

    /// A small random integer expression over `x` and `y`.
    fn arb_expr() -> impl Strategy<Value = Expr> {
        let leaf = prop_oneof![Just(x()), Just(y()), (-6i32..7).prop_map(c),];
        leaf.prop_recursive(4, 24, 2, |inner| {
            (inner.clone(), inner, 0u8..8).prop_map(|(a, b2, op)| match op {
                0 => add(a, b2),
                1 => sub(a, b2),
                2 => mul(a, b2),
                3 => div(a, b2),
                4 => modulo(a, b2),
                5 => make::min(a, b2),
                6 => make::max(a, b2),
                _ => make::select(make::lt(a.clone(), b2.clone()), a, b2),
            })
        })
    }

    fn eval(e: &Expr, xv: i64, yv: i64) -> Option<i64> {
        Some(match e.kind() {
            ExprKind::IntImm(v) => *v,
            ExprKind::UIntImm(v) => *v as i64,
            ExprKind::Not(a) => (eval(a, xv, yv)? == 0) as i64,
            ExprKind::Variable(n) => {
                if n.as_ref() == "x" {
                    xv
                } else {
                    yv
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (p, q) = (eval(a, xv, yv)?, eval(b, xv, yv)?);
                match op {
                    BinOp::Add => p.checked_add(q)?,
                    BinOp::Sub => p.checked_sub(q)?,
                    BinOp::Mul => p.checked_mul(q)?,
                    BinOp::Div => {
                        if q == 0 {
                            0
                        } else {
                            p.checked_div_euclid(q)?
                        }
                    }
                    BinOp::Mod => {
                        if q == 0 {
                            0
                        } else {
                            p.checked_rem_euclid(q)?
                        }
                    }
                    BinOp::Min => p.min(q),
                    BinOp::Max => p.max(q),
                    BinOp::Lt => (p < q) as i64,
                    BinOp::Le => (p <= q) as i64,
                    BinOp::Gt => (p > q) as i64,
                    BinOp::Ge => (p >= q) as i64,
                    BinOp::Eq => (p == q) as i64,
                    BinOp::Ne => (p != q) as i64,
                    BinOp::And => (p != 0 && q != 0) as i64,
                    BinOp::Or => (p != 0 || q != 0) as i64,
                }
            }
            ExprKind::Select(cnd, t, f) => {
                if eval(cnd, xv, yv)? != 0 {
                    eval(t, xv, yv)?
                } else {
                    eval(f, xv, yv)?
                }
            }
            _ => return None,
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]
        /// For random assignments inside the scope, the value lies in the computed bounds
        /// (evaluated numerically, the symbol `y` fixed per case).
        #[test]
        fn value_lies_in_bounds(e in arb_expr(), lo in -8i32..8, w in 0i32..8, pick in 0i32..8, yv in -5i64..6) {
            let xv = (lo + pick.min(w)) as i64;
            let s = scope(&[("x", fin(lo), fin(lo + w))]);
            let i = bounds_of_expr_simplified(&Ctx::new(), &e, &s, &FuncValueBounds::default());
            let Some(v) = eval(&e, xv, yv) else { return Ok(()) };
            let ctx = Ctx::new();
            let mut sub_y: FxHashMap<Name, Expr> = FxHashMap::default();
            sub_y.insert(loopir::name("y"), Expr::i32(yv as i32));
            let end = |b: &Bound| b.as_expr().map(|e| {
                let s = loopir_simplify::simplify::simplify_expr(&ctx, &substitute::substitute(&sub_y, e));
                constant::as_const_int(&s)
            });
            if let Some(lo_v) = end(&i.min) {
                let lo_v = lo_v.ok_or_else(|| TestCaseError::fail(format!("lower end not constant: {}", i.pretty())))?;
                prop_assert!(lo_v <= v, "{} = {} below {} for x={}, y={}", loopir::print::expr_to_string_implicit(&e), v, i.pretty(), xv, yv);
            }
            if let Some(hi_v) = end(&i.max) {
                let hi_v = hi_v.ok_or_else(|| TestCaseError::fail(format!("upper end not constant: {}", i.pretty())))?;
                prop_assert!(v <= hi_v, "{} = {} above {} for x={}, y={}", loopir::print::expr_to_string_implicit(&e), v, i.pretty(), xv, yv);
            }
        }

        /// The simplifier preserves values (where the evaluation does not overflow).
        #[test]
        fn simplify_preserves_values(e in arb_expr(), xv in -9i64..10, yv in -9i64..10) {
            let ctx = Ctx::new();
            let s = loopir_simplify::simplify::simplify_expr(&ctx, &e);
            if let (Some(a), Some(b2)) = (eval(&e, xv, yv), eval(&s, xv, yv)) {
                prop_assert_eq!(a, b2, "{} simplified to {}", loopir::print::expr_to_string_implicit(&e), loopir::print::expr_to_string_implicit(&s));
            }
        }
    }
}

/// A query made once under the current bindings leaves nothing behind: the answer's ends
/// have no handle but the caller's (a memo entry would hold them until the analysis is
/// dropped), while an ordinary query of the same node is memoised.
#[test]
fn a_query_made_once_is_not_memoised() {
    let ctx = Ctx::new();
    let outer = x_0_10();
    let fb = FuncValueBounds::default();
    let mut analysis = BoundsOfExpr::new(&ctx, &outer, &fb, false);
    let e = add(x(), y());
    let shared = e.clone();
    let once = analysis.bounds_once(&e);
    assert_eq!(once.pretty(), "[0 + y, 10 + y]");
    let max = once.max.as_expr().cloned().unwrap_or_else(|| c(0));
    drop(once);
    assert!(!max.is_shared(), "the answer is held by the memo");
    // Asked again, it is computed again, to the same answer.
    assert_eq!(analysis.bounds_once(&shared).pretty(), "[0 + y, 10 + y]");
    let memoised = analysis.bounds(&e);
    assert!(memoised.max.as_expr().is_some_and(Expr::is_shared));
    assert!(
        analysis
            .bounds_once(&shared)
            .max
            .as_expr()
            .zip(memoised.max.as_expr())
            .is_some_and(|(a, b)| a.same_as(b))
    );
}
