//! Generators of the scaling workloads of spec §3.5 and §4.7, shared by the complexity
//! guards (tests) and the criterion benches. Each returns the IR and, where the workload
//! needs one, the scope to analyse it in.

use loopir::{CallType, DeviceApi, Expr, ForType, Stmt, Type};

use crate::interval::Interval;
use crate::ir;
use crate::scope::Scope;

fn x() -> Expr {
    Expr::var_i32("x")
}

/// `x` in `[lo, hi]`.
pub fn scope_x(lo: i32, hi: i32) -> Scope<'static, Interval> {
    let mut s = Scope::new();
    let _ = s.push("x", Interval::new(Expr::i32(lo), Expr::i32(hi)));
    s
}

fn chain(n: usize, first: Expr, step: impl Fn(&Expr) -> Expr) -> Expr {
    // Built from the inside out: the body is t_n, each let wraps the next.
    let names: Vec<_> = (1..=n).map(|k| loopir::name(&format!("t{k}"))).collect();
    let vars: Vec<Expr> = names.iter().map(|nm| Expr::var_i32(nm.clone())).collect();
    let mut body = vars.last().cloned().unwrap_or_else(x);
    for k in (0..n).rev() {
        let value = if k == 0 { first.clone() } else { step(&vars[k - 1]) };
        body = ir::let_in(names[k].clone(), value, body);
    }
    body
}

/// B1 `let_chain_expr`: `let t1 = x*2 + x in let t2 = max(t1, t1 + 3) - t1 in ... t_n`
/// (every value uses the previous let three times).
pub fn let_chain_expr(n: usize) -> Expr {
    let first = ir::add(ir::mul(x(), Expr::i32(2)), x());
    chain(n, first, |t| ir::sub(ir::max(t.clone(), ir::add(t.clone(), Expr::i32(3))), t.clone()))
}

/// The §4.7 let chain `t_k = (t_{k-1}*t_{k-1}) + t_{k-1}`.
pub fn square_let_chain(n: usize) -> Expr {
    let first = ir::add(ir::mul(x(), x()), x());
    chain(n, first, |t| ir::add(ir::mul(t.clone(), t.clone()), t.clone()))
}

/// `n` nested selects over one shared let:
/// `let s = x*3 in e_n` with `e_0 = s`, `e_i = select(p_i, e_{i-1} + s, e_{i-1} - 1)`.
pub fn nested_selects(n: usize) -> Expr {
    let s = Expr::var_i32("s");
    let mut e = s.clone();
    for i in 1..=n {
        let p = Expr::var(Type::BOOL, format!("p{i}").as_str());
        e = ir::select(p, ir::add(e.clone(), s.clone()), ir::sub(e, Expr::i32(1)));
    }
    ir::let_in(loopir::name("s"), ir::mul(x(), Expr::i32(3)), e)
}

/// B5 `fibonacci_dag`: `e_i = e_{i-1} + e_{i-2}`, `e_0 = e_1 = uint32(x)`, no lets.
pub fn fibonacci_dag(n: usize) -> Expr {
    let base = ir::cast(Type::uint(32, 1), x());
    let (mut a, mut b) = (base.clone(), base);
    for _ in 2..=n {
        let c = ir::add(b.clone(), a);
        a = b;
        b = c;
    }
    b
}

/// B9 `many_calls`: `g(x) = Σ_{i<k} f(x + i)` inside `for (x, 0, 99)`.
pub fn many_calls(k: usize) -> Stmt {
    let mut sum = Expr::i32(0);
    for i in 0..k {
        let call = Expr::call_func(Type::INT32, "f", vec![ir::add(x(), Expr::i32(i as i32))], 0);
        sum = ir::add(sum, call);
    }
    let provide = Stmt::provide("g", vec![sum], vec![x()], ir::make_bool(true, 1));
    let body = provide.unwrap_or_else(|_| Stmt::evaluate(Expr::i32(0)));
    serial("x", Expr::i32(0), Expr::i32(99), body)
}

/// B10 `horner`: `e = e*p + (i + 1)` for `i < n`, starting from `p` (non-strict floats).
pub fn horner(n: usize) -> Expr {
    let f = Type::float(32, 1);
    let p = Expr::var(f, "p");
    let mut e = p.clone();
    for i in 0..n {
        e = ir::add(ir::mul(e, p.clone()), ir::make_float(f, (i + 1) as f64));
    }
    e
}

/// B11 `bitwise_chain`: `acc_k = (acc_{k-1} << 1) | (v_k & 1)` over uint16 in lets.
pub fn bitwise_chain(n: usize) -> Expr {
    let u16t = Type::uint(16, 1);
    let v = ir::cast(u16t, x());
    let names: Vec<_> = (0..=n).map(|k| loopir::name(&format!("acc{k}"))).collect();
    let mut body = Expr::var(u16t, names[n].clone());
    for k in (1..=n).rev() {
        let prev = Expr::var(u16t, names[k - 1].clone());
        let shifted = ir::intrinsic(u16t, "shift_left", vec![prev, ir::make_const(u16t, 1)]);
        let bit = ir::intrinsic(u16t, "bitwise_and", vec![v.clone(), ir::make_const(u16t, 1)]);
        let value = Expr::call(u16t, "bitwise_or", vec![shifted, bit], CallType::PureIntrinsic);
        body = ir::let_in(names[k].clone(), value, body);
    }
    ir::let_in(names[0].clone(), v, body)
}

fn serial(name: &str, min: Expr, max: Expr, body: Stmt) -> Stmt {
    Stmt::for_loop(name, min, max, ForType::Serial, DeviceApi::None, body.clone()).unwrap_or(body)
}

/// B2 `let_chain_stmt`: the B1 chain as LetStmts around `f(t_n, t_n + 1) = g(t_n)` inside
/// a loop over `x` in `[0, 100]`.
pub fn let_chain_stmt(n: usize) -> Stmt {
    let names: Vec<_> = (1..=n).map(|k| loopir::name(&format!("t{k}"))).collect();
    let vars: Vec<Expr> = names.iter().map(|nm| Expr::var_i32(nm.clone())).collect();
    let last = vars.last().cloned().unwrap_or_else(x);
    let g = Expr::call_func(Type::INT32, "g", vec![last.clone()], 0);
    let provide =
        Stmt::provide("f", vec![g], vec![last.clone(), ir::add(last, Expr::i32(1))], ir::make_bool(true, 1));
    let mut body = provide.unwrap_or_else(|_| Stmt::evaluate(Expr::i32(0)));
    for k in (0..n).rev() {
        let value = if k == 0 {
            ir::add(ir::mul(x(), Expr::i32(2)), x())
        } else {
            let t = &vars[k - 1];
            ir::sub(ir::max(t.clone(), ir::add(t.clone(), Expr::i32(3))), t.clone())
        };
        body = Stmt::let_stmt(names[k].clone(), value, body);
    }
    serial("x", Expr::i32(0), Expr::i32(100), body)
}

/// A chain of `n` root stages: stage `i` loops over
/// `[f_i.s0.x.min, f_i.s0.x.max]` and reads `f_{i-1}(x - 1)` and `f_{i-1}(x + 1)`.
pub fn stencil_chain(n: usize) -> Stmt {
    let mut stages = Vec::with_capacity(n);
    for i in 1..=n {
        let v = format!("f{i}.s0.x");
        let xv = Expr::var_i32(v.as_str());
        let prev = format!("f{}", i - 1);
        let read =
            |d: i32| Expr::call_func(Type::INT32, prev.as_str(), vec![ir::add(xv.clone(), Expr::i32(d))], 0);
        let value = ir::add(read(-1), read(1));
        let provide =
            Stmt::provide(format!("f{i}").as_str(), vec![value], vec![xv.clone()], ir::make_bool(true, 1));
        let body = provide.unwrap_or_else(|_| Stmt::evaluate(Expr::i32(0)));
        let lo = Expr::var_i32(format!("{v}.min").as_str());
        let hi = Expr::var_i32(format!("{v}.max").as_str());
        stages.push(serial(&v, lo, hi, body));
    }
    Stmt::block(stages)
}

/// B12 `if_dependents`: `n` lets depending on the loop variable `x` (`x` in `[0, 999]`),
/// inside `m` nested `if (x < c_j)`, around `f(l_1, ..., l_n)`-style reads of each let.
pub fn if_dependents(n: usize, m: usize) -> Stmt {
    let names: Vec<_> = (0..n).map(|k| loopir::name(&format!("l{k}"))).collect();
    let mut reads = Vec::with_capacity(n);
    for nm in &names {
        reads.push(Stmt::evaluate(Expr::call_func(Type::INT32, "f", vec![Expr::var_i32(nm.clone())], 0)));
    }
    let mut body = Stmt::block(reads);
    for j in 0..m {
        let cond = ir::lt(x(), Expr::i32(900 - j as i32));
        body = Stmt::if_then_else(cond, body.clone(), None).unwrap_or(body);
    }
    for (k, nm) in names.iter().enumerate().rev() {
        let value = if k == 0 {
            ir::add(x(), Expr::i32(1))
        } else {
            ir::add(Expr::var_i32(names[k - 1].clone()), Expr::i32(2))
        };
        body = Stmt::let_stmt(nm.clone(), value, body);
    }
    serial("x", Expr::i32(0), Expr::i32(999), body)
}

/// B15 `wide_scope`: a scope of `n` bindings (besides `x`).
pub fn wide_scope(n: usize) -> Scope<'static, Interval> {
    let mut s = scope_x(0, 10);
    for i in 0..n {
        let _ = s.push(format!("v{i}").as_str(), Interval::new(Expr::i32(0), Expr::i32(i as i32)));
    }
    s
}
