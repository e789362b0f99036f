//! Generators of the scaling workloads of `docs/reference/bounds.md` §3.5 and §4.7, shared by the complexity
//! guards (tests) and the criterion benches. Each returns the IR and, where the workload
//! needs one, the scope to analyse it in.

use loopir::constant;
use loopir::make;
use std::collections::BTreeMap;

use loopir::parse::parse_stmt_with_env;
use loopir::{DeviceApi, Expr, ForType, Intrinsic, MinMax, Stmt, Type};

use crate::allocation_bounds::allocation_bounds_inference;
use crate::compute_bounds::computation_bounds_inference;
use crate::env::{BoundsEnv, FreshNames, Func as EnvFunc, Output, Target, Update};
use crate::error::BoundsError;
use crate::func_value_bounds::func_value_bounds_from_text;
use loopir_simplify::ctx::Ctx;
use loopir_simplify::interval::Interval;
use loopir_simplify::scope::Scope;

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
        body = make::let_in(names[k].clone(), value, body);
    }
    body
}

/// B1 `let_chain_expr`: `let t1 = x*2 + x in let t2 = max(t1, t1 + 3) - t1 in ... t_n`
/// (every value uses the previous let three times).
pub fn let_chain_expr(n: usize) -> Expr {
    let first = make::add(make::mul(x(), Expr::i32(2)), x());
    chain(n, first, |t| make::sub(make::max(t.clone(), make::add(t.clone(), Expr::i32(3))), t.clone()))
}

/// The `docs/reference/bounds.md` §4.7 let chain `t_k = (t_{k-1}*t_{k-1}) + t_{k-1}`.
pub fn square_let_chain(n: usize) -> Expr {
    let first = make::add(make::mul(x(), x()), x());
    chain(n, first, |t| make::add(make::mul(t.clone(), t.clone()), t.clone()))
}

/// G02 `nested_arithmetic_selects` (not the spec's B3, which selects between calls: see
/// [`nested_select_calls`]): `n` nested selects over one shared let,
/// `let s = x*3 in e_n` with `e_0 = s`, `e_i = select(p_i, e_{i-1} + s, e_{i-1} - 1)`.
pub fn nested_arithmetic_selects(n: usize) -> Expr {
    let s = Expr::var_i32("s");
    let mut e = s.clone();
    for i in 1..=n {
        let p = Expr::var(Type::BOOL, format!("p{i}").as_str());
        e = make::select(p, make::add(e.clone(), s.clone()), make::sub(e, Expr::i32(1)));
    }
    make::let_in(loopir::name("s"), make::mul(x(), Expr::i32(3)), e)
}

/// B3 `nested_select`: `g(x) = select(p1, select(p2, ... f(x + n) ..., f(x - 2)), f(x + 1))`
/// nested `n` deep inside `for (x, 0, 99)`, the selects converted to `if_then_else` as
/// Halide's lowering does for selects over calls; level `i`'s false branch reads
/// `f(x + i)` for odd `i` and `f(x - i)` for even `i`, `p_i` are Bool parameters.
pub fn nested_select_calls(n: usize) -> Stmt {
    nested_calls(n, false)
}

/// B3b: the same nest with identical branches, `E_i = if_then_else(p_i, E_{i-1},
/// E_{i-1})`, `E_0 = f(x + n)` (one shared node per level).
pub fn nested_identical_select_calls(n: usize) -> Stmt {
    nested_calls(n, true)
}

fn nested_calls(n: usize, identical: bool) -> Stmt {
    let f = |off: i64| {
        let arg = if off >= 0 {
            make::add(x(), Expr::i32(off as i32))
        } else {
            make::sub(x(), Expr::i32(-off as i32))
        };
        Expr::call_func(Type::INT32, "f", vec![arg], 0)
    };
    let mut e = f(n as i64);
    for i in (1..=n).rev() {
        let p = Expr::var(Type::BOOL, format!("p{i}").as_str());
        let other = if identical { e.clone() } else { f(if i % 2 == 1 { i as i64 } else { -(i as i64) }) };
        e = Intrinsic::IfThenElse.call(Type::INT32, vec![p, e, other]);
    }
    let provide = Stmt::provide("g", vec![e], vec![x()], constant::make_bool(true, 1));
    let body = provide.unwrap_or_else(|_| Stmt::evaluate(Expr::i32(0)));
    serial("x", Expr::i32(0), Expr::i32(99), body)
}

/// B5 `fibonacci_dag`: `e_i = e_{i-1} + e_{i-2}`, `e_0 = e_1 = uint32(x)`, no lets.
pub fn fibonacci_dag(n: usize) -> Expr {
    let base = make::cast(Type::uint(32, 1), x());
    let (mut a, mut b) = (base.clone(), base);
    for _ in 2..=n {
        let c = make::add(b.clone(), a);
        a = b;
        b = c;
    }
    b
}

/// B9 `many_calls`: `g(x) = Σ_{i<k} f(x + i)` inside `for (x, 0, 99)`.
pub fn many_calls(k: usize) -> Stmt {
    let mut sum = Expr::i32(0);
    for i in 0..k {
        let call = Expr::call_func(Type::INT32, "f", vec![make::add(x(), Expr::i32(i as i32))], 0);
        sum = make::add(sum, call);
    }
    let provide = Stmt::provide("g", vec![sum], vec![x()], constant::make_bool(true, 1));
    let body = provide.unwrap_or_else(|_| Stmt::evaluate(Expr::i32(0)));
    serial("x", Expr::i32(0), Expr::i32(99), body)
}

/// B10 `horner`: `e = e*p + (i + 1)` for `i < n`, starting from `p` (non-strict floats).
pub fn horner(n: usize) -> Expr {
    let f = Type::float(32, 1);
    let p = Expr::var(f, "p");
    let mut e = p.clone();
    for i in 0..n {
        e = make::add(make::mul(e, p.clone()), constant::make_float(f, (i + 1) as f64));
    }
    e
}

/// B11 `bitwise_chain`: `acc_k = (acc_{k-1} << 1) | (v_k & 1)` over uint16 in lets.
pub fn bitwise_chain(n: usize) -> Expr {
    let u16t = Type::uint(16, 1);
    let v = make::cast(u16t, x());
    let names: Vec<_> = (0..=n).map(|k| loopir::name(&format!("acc{k}"))).collect();
    let mut body = Expr::var(u16t, names[n].clone());
    for k in (1..=n).rev() {
        let prev = Expr::var(u16t, names[k - 1].clone());
        let shifted = Intrinsic::ShiftLeft.call(u16t, vec![prev, constant::make_const(u16t, 1)]);
        let bit = Intrinsic::BitwiseAnd.call(u16t, vec![v.clone(), constant::make_const(u16t, 1)]);
        let value = Intrinsic::BitwiseOr.call(u16t, vec![shifted, bit]);
        body = make::let_in(names[k].clone(), value, body);
    }
    make::let_in(names[0].clone(), v, body)
}

fn serial(name: &str, min: Expr, max: Expr, body: Stmt) -> Stmt {
    Stmt::for_loop(name, MinMax { min, max }, ForType::Serial, DeviceApi::None, body.clone()).unwrap_or(body)
}

/// B2b: [`let_chain_stmt`] with ten parameters `p0`..`p9` added to every value, so that
/// each let's bounds mention at least ten variables and are named with fresh `t` names
/// rather than substituted (`docs/reference/bounds.md` §3.3 (a)).
pub fn let_chain_stmt_wide(n: usize) -> Stmt {
    let params = (0..10).fold(Expr::i32(0), |acc, i| make::add(acc, Expr::var_i32(format!("p{i}").as_str())));
    // Not `t<k>`: the analysis draws `t` names of its own here.
    let_chain_stmt_of(n, "l", Some(&params))
}

/// B2 `let_chain_stmt`: the B1 chain as LetStmts around `f(t_n, t_n + 1) = g(t_n)` inside
/// a loop over `x` in `[0, 100]`.
pub fn let_chain_stmt(n: usize) -> Stmt {
    let_chain_stmt_of(n, "t", None)
}

/// The B1 chain as LetStmts named `<prefix><k>`, with `extra` added to every value.
fn let_chain_stmt_of(n: usize, prefix: &str, extra: Option<&Expr>) -> Stmt {
    let names: Vec<_> = (1..=n).map(|k| loopir::name(&format!("{prefix}{k}"))).collect();
    let vars: Vec<Expr> = names.iter().map(|nm| Expr::var_i32(nm.clone())).collect();
    let last = vars.last().cloned().unwrap_or_else(x);
    let g = Expr::call_func(Type::INT32, "g", vec![last.clone()], 0);
    let provide = Stmt::provide(
        "f",
        vec![g],
        vec![last.clone(), make::add(last, Expr::i32(1))],
        constant::make_bool(true, 1),
    );
    let mut body = provide.unwrap_or_else(|_| Stmt::evaluate(Expr::i32(0)));
    for k in (0..n).rev() {
        let step = if k == 0 {
            make::add(make::mul(x(), Expr::i32(2)), x())
        } else {
            let t = &vars[k - 1];
            make::sub(make::max(t.clone(), make::add(t.clone(), Expr::i32(3))), t.clone())
        };
        let value = match extra {
            Some(e) => make::add(step, e.clone()),
            None => step,
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
        let read = |d: i32| {
            Expr::call_func(Type::INT32, prev.as_str(), vec![make::add(xv.clone(), Expr::i32(d))], 0)
        };
        let value = make::add(read(-1), read(1));
        let provide = Stmt::provide(
            format!("f{i}").as_str(),
            vec![value],
            vec![xv.clone()],
            constant::make_bool(true, 1),
        );
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
        let cond = make::lt(x(), Expr::i32(900 - j as i32));
        body = Stmt::if_then_else(cond, body.clone(), None).unwrap_or(body);
    }
    for (k, nm) in names.iter().enumerate().rev() {
        let value = if k == 0 {
            make::add(x(), Expr::i32(1))
        } else {
            make::add(Expr::var_i32(names[k - 1].clone()), Expr::i32(2))
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

// ---------------------------------------------------------------------------------------
// Text-only pass workloads (B4, B6, B7, B8, B13, B16). Each is `.stmt` text in the shape
// Halide's lowering gives at the pass's input stage (computation bounds: the initial loop
// nest of corpus stage 00; allocation bounds: stage 09, after uniquification and the first
// simplification), parsed, plus the bounds env. The generators write one statement per
// line without indentation and `indent` adds Halide's (the parser reads nesting from it);
// for the nested chains the text is then O(n²) in whitespace although the IR is O(n), which
// is why the benches time the passes, never the parse.

/// A generated input of the text-only passes.
#[derive(Clone, Debug)]
pub struct PassWorkload {
    /// The computation bounds inference input (stage 00 shape).
    pub input: Stmt,
    /// The bounds env of the pipeline.
    pub env: BoundsEnv,
    /// The allocation bounds inference input (stage 09 shape), where generated.
    pub alloc_input: Option<Stmt>,
}

impl PassWorkload {
    /// Runs computation bounds inference on `input` (with the env's fresh-name seed).
    pub fn run_compute(&self, ctx: &Ctx) -> Result<Stmt, BoundsError> {
        ctx.seed_t(self.env.fresh_names.t.unwrap_or(0));
        computation_bounds_inference(ctx, &self.input, &self.env)
    }

    /// Runs allocation bounds inference on `alloc_input`, if there is one.
    pub fn run_alloc(&self) -> Option<Result<Stmt, BoundsError>> {
        let s = self.alloc_input.as_ref()?;
        let fb = func_value_bounds_from_text(&Ctx::new(), s);
        Some(allocation_bounds_inference(s, &self.env, &fb, self.env.fresh_names.t.unwrap_or(0)))
    }
}

/// Indents one-statement-per-line text as Halide's printer does: one space per nested
/// braced body, two inside a `realize`.
fn indent(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let mut stack: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    for line in text.lines() {
        if line.starts_with('}') {
            depth -= stack.pop().unwrap_or(0);
        }
        out.extend(std::iter::repeat_n(' ', depth));
        out.push_str(line);
        out.push('\n');
        if line.ends_with('{') {
            let step = if line.starts_with("realize ") { 2 } else { 1 };
            stack.push(step);
            depth += step;
        }
    }
    out
}

fn parse_with(text: &str, env: &BoundsEnv) -> Result<Stmt, BoundsError> {
    parse_stmt_with_env(&indent(text), &env.parse_env())
        .map_err(|e| BoundsError::Env(format!("generated text: {e}")))
}

/// A bounds env for `order` (producers first; the last is the output), every Func
/// `float32` over `args`.
fn float_env(order: &[String], args: &[&str]) -> BoundsEnv {
    let mut funcs = BTreeMap::new();
    for f in order {
        let func = EnvFunc {
            types: vec!["float32".into()],
            args: args.iter().map(|a| (*a).to_string()).collect(),
            ..EnvFunc::default()
        };
        funcs.insert(f.clone(), func);
    }
    let output = order.last().cloned().unwrap_or_default();
    BoundsEnv {
        order: order.to_vec(),
        target: Target { profile: false },
        fresh_names: FreshNames { t: Some(0) },
        outputs: vec![Output { func: output.clone(), buffer: output, constraints: Vec::new() }],
        funcs,
    }
}

fn realize_2d(f: &str) -> String {
    format!(
        "realize {f}([{f}.x.min_realized, {f}.x.extent_realized], [{f}.y.min_realized, {f}.y.extent_realized]) {{\n"
    )
}

/// `produce f { ... }` of a pure 2-D definition over `f.s0.y` (outer) and `f.s0.x`, as
/// ScheduleFunctions writes it; `value` gets the two loop variables' names.
fn produce_2d(f: &str, value: &dyn Fn(&str, &str) -> String) -> String {
    let (x, y) = (format!("{f}.s0.x"), format!("{f}.s0.y"));
    format!(
        "produce {f} {{\nlet {y}.loop_max = {y}.max\nlet {y}.loop_min = {y}.min\nlet {x}.loop_max = {x}.max\nlet {x}.loop_min = {x}.min\nfor ({y}, {y}.loop_min, {y}.loop_max) {{\nfor ({x}, {x}.loop_min, {x}.loop_max) {{\n{f}({x}, {y}) = {}\n}}\n}}\n}}\n",
        value(&x, &y)
    )
}

/// The chain's stage `i` at `(x, y)`: `f0(x, y) = float32(x + y)`,
/// `f_i(x, y) = f_{i-1}(x, y)*0.5 + f_{i-1}(x + 1, y)` (`docs/reference/bounds.md` §3.5 `chain(n)`).
fn chain_value(i: usize, x: &str, y: &str) -> String {
    if i == 0 {
        format!("float32({x} + {y})")
    } else {
        let p = i - 1;
        format!("(f{p}({x}, {y})*0.500000f) + f{p}({x} + 1, {y})")
    }
}

fn chain_order(n: usize) -> Vec<String> {
    (0..n).map(|i| format!("f{i}")).chain(std::iter::once("out".to_string())).collect()
}

/// B6 `root_chain`: `n` stages `f0 .. f{n-1}` computed at root (each reading `x` and
/// `x + 1` of the previous one), and `out(x, y) = f{n-1}(x, y)`. Realizes nest as Halide
/// nests root Funcs: `realize f0 { produce f0 {..} consume f0 { realize f1 { ... } } }`.
/// The allocation input is the same pipeline after the first simplification (loop bounds
/// in terms of the output's `out.min.d` / `out.extent.d`, as in `serial_chain.cpu`).
pub fn root_chain(n: usize) -> Result<PassWorkload, BoundsError> {
    let env = float_env(&chain_order(n), &["x", "y"]);
    let mut text = String::new();
    for i in 0..n {
        let f = format!("f{i}");
        text.push_str(&realize_2d(&f));
        text.push_str(&produce_2d(&f, &|x, y| chain_value(i, x, y)));
        text.push_str(&format!("consume {f} {{\n"));
    }
    let last = n.checked_sub(1).map_or_else(|| "float32(0)".to_string(), |l| format!("f{l}"));
    text.push_str(&produce_2d("out", &|x, y| {
        if n == 0 { last.clone() } else { format!("{last}({x}, {y})") }
    }));
    text.push_str(&"}\n}\n".repeat(n));
    let input = parse_with(&text, &env)?;

    let mut alloc = String::from("add_image_checks_marker()\nskip_stages_marker()\n");
    let y_max = "(out.extent.1 + out.min.1) + -1";
    for i in 0..n {
        let f = format!("f{i}");
        // f_i is needed over x in [out.min.0, out.min.0 + out.extent.0 - 1 + (n - 1 - i)].
        let x_max = match n - 1 - i {
            1 => "out.extent.0 + out.min.0".to_string(),
            k => format!("(out.extent.0 + out.min.0) + {}", k as i64 - 1),
        };
        let (x, y) = (format!("{f}.s0.x"), format!("{f}.s0.y"));
        alloc.push_str(&realize_2d(&f));
        alloc.push_str(&format!(
            "produce {f} {{\nfor ({y}, out.min.1, {y_max}) {{\nfor ({x}, out.min.0, {x_max}) {{\n{f}({x}, {y}) = {}\n}}\n}}\n}}\nconsume {f} {{\n",
            chain_value(i, &x, &y)
        ));
    }
    alloc.push_str(&format!(
        "produce out {{\nfor (out.s0.y, out.min.1, {y_max}) {{\nfor (out.s0.x, out.min.0, (out.extent.0 + out.min.0) + -1) {{\nout(out.s0.x, out.s0.y) = {}\n}}\n}}\n}}\n",
        if n == 0 { "float32(0)".to_string() } else { format!("{last}(out.s0.x, out.s0.y)") }
    ));
    alloc.push_str(&"}\n}\n".repeat(n));
    let alloc_input = Some(parse_with(&alloc, &env)?);
    Ok(PassWorkload { input, env, alloc_input })
}

/// B4 `inline_chain`: the chain `s_i(x, y) = s_{i-1}(x, y)*0.5 + s_{i-1}(x + 1, y)` of
/// `n` stages fully inlined into `out`, over a root `f0(x, y) = float32(x + y)`.
///
/// The inlined tree has 2^n leaves; its DAG has one node per (stage, offset) pair,
/// Θ(n²). Text cannot share nodes, so the DAG is written the way CSE writes it: one `let`
/// per pair, `s<i>.<j>` being stage `i` at `x + j`, innermost stage first. The lets are
/// `LetStmt`s just inside the innermost loop rather than `Let` expressions in the value,
/// so that the parser's nesting depth stays O(1) per let.
pub fn inline_chain(n: usize) -> Result<PassWorkload, BoundsError> {
    let env = float_env(&["f0".to_string(), "out".to_string()], &["x", "y"]);
    let (x, y) = ("out.s0.x", "out.s0.y");
    let mut lets = String::new();
    for j in 0..=n {
        let xj = if j == 0 { x.to_string() } else { format!("{x} + {j}") };
        lets.push_str(&format!("let s0.{j} = f0({xj}, {y})\n"));
    }
    for i in 1..=n {
        for j in 0..=(n - i) {
            let (p, q) = (format!("s{}.{j}", i - 1), format!("s{}.{}", i - 1, j + 1));
            lets.push_str(&format!("let s{i}.{j} = ({p}*0.500000f) + {q}\n"));
        }
    }
    let mut text = realize_2d("f0");
    text.push_str(&produce_2d("f0", &|x, y| chain_value(0, x, y)));
    text.push_str(&format!(
        "consume f0 {{\nproduce out {{\nlet {y}.loop_max = {y}.max\nlet {y}.loop_min = {y}.min\nlet {x}.loop_max = {x}.max\nlet {x}.loop_min = {x}.min\nfor ({y}, {y}.loop_min, {y}.loop_max) {{\nfor ({x}, {x}.loop_min, {x}.loop_max) {{\n{lets}out({x}, {y}) = s{n}.0\n}}\n}}\n}}\n}}\n}}\n"
    ));
    let input = parse_with(&text, &env)?;
    Ok(PassWorkload { input, env, alloc_input: None })
}

/// B7 `tiled_chain`: the B6 chain with every stage computed at the output's tile loop
/// `out.s0.x.xo` (tiles of 64), as `app_stencil_chain` is: the realizes nest first, then
/// the produce/consume chain, the output's inner loop innermost.
pub fn tiled_chain(n: usize) -> Result<PassWorkload, BoundsError> {
    let env = float_env(&chain_order(n), &["x", "y"]);
    let (x, y, xo, xi) = ("out.s0.x", "out.s0.y", "out.s0.x.xo", "out.s0.x.xi");
    let mut text = format!(
        "produce out {{\nlet {y}.loop_max = {y}.max\nlet {y}.loop_min = {y}.min\nlet {x}.loop_max = {x}.max\nlet {x}.loop_min = {x}.min\nlet {xo}.loop_max = ((({x}.loop_max - {x}.loop_min) + 64)/64) - 1\nlet {xo}.loop_min = 0\nlet {xi}.loop_max = 64 - 1\nlet {xi}.loop_min = 0\nfor ({y}, {y}.loop_min, {y}.loop_max) {{\nfor ({xo}, {xo}.loop_min, {xo}.loop_max) {{\nlet {xi}.base = min(likely_if_innermost(({xo}*64) + {x}.loop_min), {x}.loop_max + (1 - 64))\n"
    );
    for i in 0..n {
        text.push_str(&realize_2d(&format!("f{i}")));
    }
    for i in 0..n {
        let f = format!("f{i}");
        text.push_str(&produce_2d(&f, &|x, y| chain_value(i, x, y)));
        text.push_str(&format!("consume {f} {{\n"));
    }
    let value = n.checked_sub(1).map_or_else(|| "float32(0)".to_string(), |l| format!("f{l}({x}, {y})"));
    text.push_str(&format!(
        "for ({xi}, {xi}.loop_min, {xi}.loop_max) {{\nlet {x} = {xi}.base + {xi}\nout({x}, {y}) = {value}\n}}\n"
    ));
    text.push_str(&"}\n".repeat(2 * n + 3));
    let input = parse_with(&text, &env)?;
    Ok(PassWorkload { input, env, alloc_input: None })
}

/// B8 `deep_nest`: `out(x, y) = g(x, y) + g(x + 1, y)` with `out.s0.x` split `d` times
/// (each time the inner variable, by 4, Halide's `<v>.o` / `<v>.i` naming), the innermost
/// loop vectorized, and `g` computed at the innermost serial loop.
pub fn deep_nest(d: usize) -> Result<PassWorkload, BoundsError> {
    let env = float_env(&["g".to_string(), "out".to_string()], &["x", "y"]);
    let y = "out.s0.y";
    // vars[k]: the variable split at level k+1 (vars[0] = out.s0.x); its parts are
    // `<v>.o` (a loop) and `<v>.i` (= vars[k+1]).
    let vars: Vec<String> = (0..=d)
        .map(|k| std::iter::once("out.s0.x").chain(std::iter::repeat_n("i", k)).collect::<Vec<_>>().join("."))
        .collect();
    let mut text = format!("produce out {{\nlet {y}.loop_max = {y}.max\nlet {y}.loop_min = {y}.min\n");
    text.push_str(&format!("let {v}.loop_max = {v}.max\nlet {v}.loop_min = {v}.min\n", v = vars[0]));
    for k in 0..d {
        let (v, o, i) = (&vars[k], format!("{}.o", vars[k]), &vars[k + 1]);
        text.push_str(&format!(
            "let {o}.loop_max = ((({v}.loop_max - {v}.loop_min) + 4)/4) - 1\nlet {o}.loop_min = 0\nlet {i}.loop_max = 4 - 1\nlet {i}.loop_min = 0\n"
        ));
    }
    text.push_str(&format!("for ({y}, {y}.loop_min, {y}.loop_max) {{\n"));
    for k in 0..d {
        let (v, o, i) = (&vars[k], format!("{}.o", vars[k]), &vars[k + 1]);
        text.push_str(&format!(
            "for ({o}, {o}.loop_min, {o}.loop_max) {{\nlet {i}.base = min(likely_if_innermost(({o}*4) + {v}.loop_min), {v}.loop_max + (1 - 4))\n"
        ));
    }
    text.push_str(&realize_2d("g"));
    text.push_str(&produce_2d("g", &|x, y| format!("float32({x} + {y})")));
    let inner = &vars[d];
    text.push_str(&format!("consume g {{\nvectorized ({inner}, {inner}.loop_min, {inner}.loop_max) {{\n"));
    for k in (0..d).rev() {
        text.push_str(&format!("let {v} = {i}.base + {i}\n", v = vars[k], i = vars[k + 1]));
    }
    let x = &vars[0];
    text.push_str(&format!("out({x}, {y}) = g({x}, {y}) + g({x} + 1, {y})\n"));
    text.push_str(&"}\n".repeat(d + 5));
    let input = parse_with(&text, &env)?;
    Ok(PassWorkload { input, env, alloc_input: None })
}

/// B13 `specialized_updates`: `f(x) = h(x)` with `u` update stages, update `k` being
/// `f(x) = f(x) + h(x + k)` specialized on the parameter `p<k>` to
/// `f(x) = f(x) + h(x - k)`; `h` is a root Func and `g(x) = f(x)` the output.
pub fn specialized_updates(u: usize) -> Result<PassWorkload, BoundsError> {
    let mut env = float_env(&["h".to_string(), "f".to_string(), "g".to_string()], &["x"]);
    if let Some(f) = env.funcs.get_mut("f") {
        f.updates = vec![Update::default(); u];
    }
    let mut text = String::from(
        "realize h([h.x.min_realized, h.x.extent_realized]) {\nproduce h {\nlet h.s0.x.loop_max = h.s0.x.max\nlet h.s0.x.loop_min = h.s0.x.min\nfor (h.s0.x, h.s0.x.loop_min, h.s0.x.loop_max) {\nh(h.s0.x) = float32(h.s0.x)\n}\n}\nconsume h {\nrealize f([f.x.min_realized, f.x.extent_realized]) {\nproduce f {\nlet f.s0.x.loop_max = f.s0.x.max\nlet f.s0.x.loop_min = f.s0.x.min\nfor (f.s0.x, f.s0.x.loop_min, f.s0.x.loop_max) {\nf(f.s0.x) = h(f.s0.x)\n}\n",
    );
    for k in 1..=u {
        let x = format!("f.s{k}.x");
        let def = |off: &str| format!("for ({x}, {x}.min, {x}.max) {{\nf({x}) = f({x}) + h({x} {off})\n}}\n");
        text.push_str(&format!(
            "if (p{k}) {{\n{}}} else {{\n{}}}\n",
            def(&format!("- {k}")),
            def(&format!("+ {k}"))
        ));
    }
    text.push_str(
        "}\nconsume f {\nproduce g {\nlet g.s0.x.loop_max = g.s0.x.max\nlet g.s0.x.loop_min = g.s0.x.min\nfor (g.s0.x, g.s0.x.loop_min, g.s0.x.loop_max) {\ng(g.s0.x) = f(g.s0.x)\n}\n}\n}\n}\n}\n}\n",
    );
    let input = parse_with(&text, &env)?;
    Ok(PassWorkload { input, env, alloc_input: None })
}

/// One corpus case's inputs (B16 `corpus_all`): `bounds.input.stmt` with
/// `bounds.env.json`, and `allocbounds.input.stmt` where the case has one.
/// The pyramid depths of B14, as the spec lists them.
pub const PYRAMID_LEVELS: [usize; 5] = [4, 8, 12, 16, 20];

/// B14 `truncated_pyramid`: Halide's test of that name (pyramid levels with `repeat_edge`,
/// masking selects on parameters, specializations and `GuardWithIf`) at `levels` levels,
/// read from `<dir>/truncated_pyramid.L<levels>` (made from Halide 21's lowering by
/// `tools/halide21-cases`; the shape is too intricate to write out by hand).
pub fn truncated_pyramid(
    dir: impl AsRef<std::path::Path>,
    levels: usize,
) -> Result<PassWorkload, BoundsError> {
    corpus_case(&dir.as_ref().join(format!("truncated_pyramid.L{levels}")))
}

/// One corpus case: its computation bounds input and env, and its allocation bounds
/// input where there is one.
pub fn corpus_case(dir: &std::path::Path) -> Result<PassWorkload, BoundsError> {
    let read =
        |f: &str| std::fs::read_to_string(dir.join(f)).map_err(|e| BoundsError::Env(format!("{f}: {e}")));
    let env = BoundsEnv::from_json(&read("bounds.env.json")?)?;
    let parse =
        |text: &str| parse_stmt_with_env(text, &env.parse_env()).map_err(|e| BoundsError::Env(e.to_string()));
    let input = parse(&read("bounds.input.stmt")?)?;
    let alloc_input = match read("allocbounds.input.stmt") {
        Ok(text) => Some(parse(&text)?),
        Err(_) => None,
    };
    Ok(PassWorkload { input, env, alloc_input })
}

/// The env of the two-Func pipelines of [`deep_select`] and [`add_chain`]: `g` is
/// computed at the root and read by the output `f`, both Int(32) over `x`.
const TWO_FUNC_ENV: &str = r#"{"order": ["g", "f"], "target": {"profile": false}, "outputs": [{"func": "f", "buffer": "f"}],
 "funcs": {"g": {"types": ["int32"], "args": ["x"]}, "f": {"types": ["int32"], "args": ["x"]}}}"#;

/// Where [`deep_select`] puts its nested `select`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectPlace {
    /// The index of `f`'s call to `g`: `f(f.s0.x) = g(<select>)`.
    CallIndex,
    /// The value of a let that index reads: `let t = <select>` around `f(f.s0.x) = g(t)`.
    LetValue,
    /// The condition of an `if` around `f`'s definition:
    /// `if (0 < <select>) { f(f.s0.x) = g(f.s0.x) }`.
    IfCondition,
}

/// B17 `deep_select`: `select(x < 0, select(x < 1, … x …, 1), 0)` nested `n` deep over
/// `f`'s loop variable, put at `place` in a pipeline where `f` reads `g` computed at the
/// root (issue 19's deep-IR shape). Each level's condition restricts the loop variable
/// again, the box of `g` nests `n` deep, and CSE names its ends with chains of about
/// `n` lets whose innermost body uses each of them. The allocation-bounds input is the
/// same statement. With the `if`, computation bounds inference refuses the input (a
/// conditional pure definition) and allocation bounds solves the condition for each of
/// its `n + 1` occurrences of the loop variable.
pub fn deep_select(place: SelectPlace, n: usize) -> Result<PassWorkload, BoundsError> {
    let v = "f.s0.x";
    let mut select = String::new();
    for i in 0..n {
        select.push_str(&format!("select({v} < {i}, "));
    }
    select.push_str(v);
    for i in (0..n).rev() {
        select.push_str(&format!(", {i})"));
    }
    let definition = match place {
        SelectPlace::CallIndex => format!("f({v}) = g({select})\n"),
        SelectPlace::LetValue => format!("let t = {select}\nf({v}) = g(t)\n"),
        SelectPlace::IfCondition => format!("if (0 < {select}) {{\nf({v}) = g({v})\n}}\n"),
    };
    let text = format!(
        "realize g([g.x.min_realized, g.x.extent_realized]) {{\nproduce g {{\nfor (g.s0.x, g.s0.x.min, g.s0.x.max) {{\ng(g.s0.x) = g.s0.x\n}}\n}}\nconsume g {{\nproduce f {{\nfor ({v}, {v}.min, {v}.max) {{\n{definition}}}\n}}\n}}\n}}\n"
    );
    let env = BoundsEnv::from_json(TWO_FUNC_ENV)?;
    let input = parse_with(&text, &env)?;
    Ok(PassWorkload { alloc_input: Some(input.clone()), input, env })
}

/// B18 `add_chain`: `produce f { f(f.s0.x) = ((x + 1) + 1) … }`, the sum nested `n`
/// deep on the left (issue 19's shape for deep values), for computation bounds.
pub fn add_chain(n: usize) -> Result<PassWorkload, BoundsError> {
    let mut text = String::from("produce f {\nf(f.s0.x) = ");
    text.push_str(&"(".repeat(n));
    text.push('x');
    text.push_str(&" + 1)".repeat(n));
    text.push_str("\n}\n");
    let env = BoundsEnv::from_json(TWO_FUNC_ENV)?;
    let input = parse_with(&text, &env)?;
    Ok(PassWorkload { input, env, alloc_input: None })
}

/// Every case directory under `cases` that has a `bounds.input.stmt`, sorted by name.
pub fn corpus_cases(cases: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut dirs: Vec<_> = std::fs::read_dir(cases)
        .map(|rd| rd.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    dirs.retain(|d| d.join("bounds.input.stmt").is_file());
    dirs.sort();
    dirs
}
