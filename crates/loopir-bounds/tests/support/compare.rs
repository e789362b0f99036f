//! Semantic comparison of two lowered Stmts for the oracle tests: the defined variables
//! (`let` names), their placement (the path of enclosing loops, pipelines, realizations
//! and branches) and their values (structurally equal, proved equal, or equal on many
//! random integer assignments of the free variables, each value evaluated in the context
//! of the lets that enclose it).

use loopir::equality;
use std::collections::BTreeMap;

use loopir::{BinOp, CallType, Expr, ExprKind, Stmt, StmtKind, Type};

/// One definition: where it is, its name and its value.
#[derive(Clone)]
pub struct Def {
    /// Enclosing statements, outermost first (`for x`, `produce f`, `if#0.then`, ...).
    pub path: String,
    /// The defined name.
    pub name: String,
    /// The defined value.
    pub value: Expr,
}

/// How two Stmts compare.
#[derive(Debug, Default)]
pub struct Verdict {
    /// Definitions on either side.
    pub defs: usize,
    /// Values structurally equal.
    pub structural: usize,
    /// Values proved equal by the simplifier.
    pub proved: usize,
    /// Values equal on every random assignment.
    pub sampled: usize,
    /// Values skipped because one side is not integer-evaluable on some assignment.
    pub skipped: usize,
    /// Human-readable differences (empty when the definitions agree).
    pub differences: Vec<String>,
}

/// Collects the definitions of `s`, in program order.
pub fn defs(s: &Stmt) -> Vec<Def> {
    let mut out = Vec::new();
    collect(s, &mut String::new(), &mut out);
    out
}

fn collect(s: &Stmt, path: &mut String, out: &mut Vec<Def>) {
    let push = |label: String, body: &Stmt, path: &mut String, out: &mut Vec<Def>| {
        let len = path.len();
        path.push_str(" / ");
        path.push_str(&label);
        collect(body, path, out);
        path.truncate(len);
    };
    match s.kind() {
        StmtKind::LetStmt { name, value, body } => {
            out.push(Def { path: path.clone(), name: name.to_string(), value: value.clone() });
            collect(body, path, out);
        }
        StmtKind::ProducerConsumer { name, is_producer, body } => {
            push(format!("{} {name}", if *is_producer { "produce" } else { "consume" }), body, path, out)
        }
        StmtKind::For { name, body, .. } => push(format!("for {name}"), body, path, out),
        StmtKind::Realize { name, body, .. } => push(format!("realize {name}"), body, path, out),
        StmtKind::Allocate { name, body, .. } => push(format!("allocate {name}"), body, path, out),
        StmtKind::HoistedStorage { name, body, .. } => {
            push(format!("hoisted {}", name.as_deref().unwrap_or("")), body, path, out)
        }
        StmtKind::Block(v) => {
            for (i, c) in v.iter().enumerate() {
                push(format!("#{i}"), c, path, out);
            }
        }
        StmtKind::IfThenElse { condition, then_case, else_case } => {
            push(format!("if ({condition})"), then_case, path, out);
            if let Some(e) = else_case {
                push(format!("else ({condition})"), e, path, out);
            }
        }
        StmtKind::Fork { first, rest } => {
            push("fork.0".into(), first, path, out);
            push("fork.1".into(), rest, path, out);
        }
        StmtKind::Prefetch { body, .. } | StmtKind::Acquire { body, .. } | StmtKind::Atomic { body, .. } => {
            push("wrapper".into(), body, path, out)
        }
        _ => {}
    }
}

/// A value of the evaluator.
#[derive(Clone, Copy, Debug, PartialEq)]
enum V {
    I(i64),
    F(f64),
}

impl V {
    fn int(self) -> Option<i64> {
        match self {
            V::I(i) => Some(i),
            V::F(_) => None,
        }
    }
}

fn hash(s: &str, seed: u64) -> u64 {
    // FNV-1a, then a mixer: deterministic per name and trial.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325 ^ seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^ (h >> 33)
}

fn wrap(ty: Type, v: i64) -> i64 {
    let bits = u32::from(ty.bits());
    if ty.is_bool() {
        return i64::from(v != 0);
    }
    if bits >= 64 || !(ty.is_int() || ty.is_uint()) {
        return v;
    }
    let m = v & ((1i64 << bits) - 1);
    if ty.is_int() && m >= (1i64 << (bits - 1)) { m - (1i64 << bits) } else { m }
}

fn random_of(ty: Type, key: &str, seed: u64) -> V {
    let h = hash(key, seed);
    if ty.is_float() {
        V::F((h % 2001) as f64 / 8.0 - 125.0)
    } else if ty.is_bool() {
        V::I((h & 1) as i64)
    } else {
        wrap(ty, (h % 257) as i64 - 128).pipe(V::I)
    }
}

trait Pipe: Sized {
    fn pipe<R>(self, f: impl FnOnce(Self) -> R) -> R {
        f(self)
    }
}
impl<T> Pipe for T {}

/// Evaluation context: let-bound names (None: bound to something not evaluable).
struct Eval<'a> {
    env: &'a BTreeMap<String, Vec<Option<V>>>,
    locals: Vec<(String, Option<V>)>,
    seed: u64,
}

fn div_euclid(a: i64, b: i64) -> i64 {
    if b == 0 { 0 } else { a.div_euclid(b) }
}
fn mod_euclid(a: i64, b: i64) -> i64 {
    if b == 0 { 0 } else { a.rem_euclid(b) }
}

impl Eval<'_> {
    fn lookup(&self, name: &str, ty: Type) -> Option<V> {
        if let Some((_, v)) = self.locals.iter().rev().find(|(n, _)| n == name) {
            return *v;
        }
        match self.env.get(name).and_then(|s| s.last()) {
            Some(v) => *v,
            None => Some(random_of(ty, name, self.seed)),
        }
    }

    fn eval(&mut self, e: &Expr) -> Option<V> {
        let ty = e.ty();
        if ty.lanes() != 1 {
            return None;
        }
        Some(match e.kind() {
            ExprKind::IntImm(i) => V::I(*i),
            ExprKind::UIntImm(u) => V::I(i64::try_from(*u).ok()?),
            ExprKind::FloatImm(f) => V::F(*f),
            ExprKind::Variable(n) => self.lookup(n, ty)?,
            ExprKind::Cast(a) => {
                let v = self.eval(a)?;
                match (v, ty.is_float()) {
                    (V::I(i), true) => V::F(i as f64),
                    (V::F(f), true) => V::F(f),
                    (V::I(i), false) => V::I(wrap(ty, i)),
                    (V::F(f), false) => V::I(wrap(ty, f.trunc() as i64)),
                }
            }
            ExprKind::Not(a) => V::I(i64::from(self.eval(a)?.int()? == 0)),
            ExprKind::Select(c, t, f) => {
                if self.eval(c)?.int()? != 0 {
                    self.eval(t)?
                } else {
                    self.eval(f)?
                }
            }
            ExprKind::Binary(op, a, b) => {
                let (x, y) = (self.eval(a)?, self.eval(b)?);
                match (x, y) {
                    (V::I(x), V::I(y)) => {
                        let r = match op {
                            BinOp::Add => x.wrapping_add(y),
                            BinOp::Sub => x.wrapping_sub(y),
                            BinOp::Mul => x.wrapping_mul(y),
                            BinOp::Div => div_euclid(x, y),
                            BinOp::Mod => mod_euclid(x, y),
                            BinOp::Min => x.min(y),
                            BinOp::Max => x.max(y),
                            BinOp::Eq => i64::from(x == y),
                            BinOp::Ne => i64::from(x != y),
                            BinOp::Lt => i64::from(x < y),
                            BinOp::Le => i64::from(x <= y),
                            BinOp::Gt => i64::from(x > y),
                            BinOp::Ge => i64::from(x >= y),
                            BinOp::And => i64::from(x != 0 && y != 0),
                            BinOp::Or => i64::from(x != 0 || y != 0),
                        };
                        V::I(if ty.is_bool() { r } else { wrap(ty, r) })
                    }
                    (V::F(x), V::F(y)) => match op {
                        BinOp::Add => V::F(x + y),
                        BinOp::Sub => V::F(x - y),
                        BinOp::Mul => V::F(x * y),
                        BinOp::Div => V::F(x / y),
                        BinOp::Min => V::F(x.min(y)),
                        BinOp::Max => V::F(x.max(y)),
                        BinOp::Eq => V::I(i64::from(x == y)),
                        BinOp::Ne => V::I(i64::from(x != y)),
                        BinOp::Lt => V::I(i64::from(x < y)),
                        BinOp::Le => V::I(i64::from(x <= y)),
                        BinOp::Gt => V::I(i64::from(x > y)),
                        BinOp::Ge => V::I(i64::from(x >= y)),
                        _ => return None,
                    },
                    _ => return None,
                }
            }
            ExprKind::Let { name, value, body } => {
                let v = self.eval(value);
                self.locals.push((name.to_string(), v));
                let r = self.eval(body);
                self.locals.pop();
                r?
            }
            ExprKind::Call { name, args, call_type, value_index } => match (name.as_ref(), call_type) {
                ("likely" | "likely_if_innermost" | "promise_clamped" | "unsafe_promise_clamped", _)
                    if !args.is_empty() =>
                {
                    self.eval(&args[0])?
                }
                ("if_then_else", _) if args.len() == 3 => {
                    if self.eval(&args[0])?.int()? != 0 {
                        self.eval(&args[1])?
                    } else {
                        self.eval(&args[2])?
                    }
                }
                ("shift_left" | "shift_right" | "bitwise_and" | "bitwise_or" | "bitwise_xor", _)
                    if args.len() == 2 =>
                {
                    let (a, b) = (self.eval(&args[0])?.int()?, self.eval(&args[1])?.int()?);
                    let left = |a: i64, b: i64| if b >= 64 { 0 } else { a.wrapping_shl(b as u32) };
                    let right = |a: i64, b: i64| if b >= 64 { a >> 63 } else { a >> b };
                    let r = match name.as_ref() {
                        "shift_left" if b >= 0 => left(a, b),
                        "shift_left" => right(a, -b),
                        "shift_right" if b >= 0 => right(a, b),
                        "shift_right" => left(a, -b),
                        "bitwise_and" => a & b,
                        "bitwise_or" => a | b,
                        _ => a ^ b,
                    };
                    V::I(wrap(ty, r))
                }
                (math, _)
                    if args.len() == 1
                        && ty.is_float()
                        && ["floor", "ceil", "round", "trunc", "sqrt"].iter().any(|b| {
                            math.strip_suffix("_f32").or_else(|| math.strip_suffix("_f64")) == Some(*b)
                        }) =>
                {
                    let V::F(x) = self.eval(&args[0])? else { return None };
                    V::F(match math.split('_').next().unwrap_or("") {
                        "floor" => x.floor(),
                        "ceil" => x.ceil(),
                        "round" => x.round_ties_even(),
                        "trunc" => x.trunc(),
                        _ => x.sqrt(),
                    })
                }
                ("abs", _) if args.len() == 1 => match self.eval(&args[0])? {
                    V::I(i) => V::I(wrap(ty, i.wrapping_abs())),
                    V::F(f) => V::F(f.abs()),
                },
                (_, CallType::Halide | CallType::Image | CallType::PureExtern)
                | ("_halide_buffer_get_min" | "_halide_buffer_get_max", _) => {
                    // Opaque but deterministic: keyed by the callee and the argument values.
                    let mut key = format!("{name}[{value_index}](");
                    for a in args {
                        match a.kind() {
                            ExprKind::Variable(n) if !a.ty().is_int() && !a.ty().is_uint() => {
                                key.push_str(n);
                            }
                            _ => key.push_str(&format!("{:?}", self.eval(a)?)),
                        }
                        key.push(',');
                    }
                    random_of(ty, &key, self.seed)
                }
                _ => return None,
            },
            _ => return None,
        })
    }
}

const TRIALS: u64 = 24;

/// Compares the definitions of `got` with those of `expected`.
pub fn compare(ctx: &loopir_simplify::Ctx, got: &Stmt, expected: &Stmt) -> Verdict {
    let (g, e) = (defs(got), defs(expected));
    let mut v = Verdict { defs: e.len(), ..Verdict::default() };
    // Placement: the same names at the same paths, in the same number.
    let key = |d: &Def| (d.path.clone(), d.name.clone());
    let mut gk: Vec<_> = g.iter().map(key).collect();
    let mut ek: Vec<_> = e.iter().map(key).collect();
    gk.sort();
    ek.sort();
    if gk != ek {
        let (mut i, mut j) = (0, 0);
        while (i < gk.len() || j < ek.len()) && v.differences.len() < 8 {
            match (gk.get(i), ek.get(j)) {
                (Some(a), Some(b)) if a == b => {
                    i += 1;
                    j += 1;
                }
                (Some(a), Some(b)) if a < b => {
                    v.differences.push(format!("extra `{}` at{}", a.1, a.0));
                    i += 1;
                }
                (Some(a), None) => {
                    v.differences.push(format!("extra `{}` at{}", a.1, a.0));
                    i += 1;
                }
                (_, Some(b)) => {
                    v.differences.push(format!("missing `{}` at{}", b.1, b.0));
                    j += 1;
                }
                (None, None) => break,
            }
        }
        return v;
    }
    // Values: pair the k-th occurrence of (path, name) on each side.
    let mut index: BTreeMap<(String, String), Vec<usize>> = BTreeMap::new();
    for (i, d) in e.iter().enumerate() {
        index.entry(key(d)).or_default().push(i);
    }
    let mut seen: BTreeMap<(String, String), usize> = BTreeMap::new();
    let pairing: Vec<usize> = g
        .iter()
        .map(|d| {
            let k = key(d);
            let n = seen.entry(k.clone()).or_default();
            *n += 1;
            index[&k][*n - 1]
        })
        .collect();
    let empty = loopir_simplify::Scope::new();
    let mut status = vec![0u8; g.len()]; // 1 structural, 2 proved, 3 sampled so far, 4 skipped, 5 differs
    for (gi, &ei) in pairing.iter().enumerate() {
        if equality::equal(&g[gi].value, &e[ei].value) {
            status[gi] = 1;
        } else if g[gi].value.ty().is_int()
            && loopir_simplify::prove_equal(
                &loopir_simplify::simplify(ctx, &g[gi].value, &empty),
                &loopir_simplify::simplify(ctx, &e[ei].value, &empty),
            )
        {
            status[gi] = 2;
        } else {
            status[gi] = 3;
        }
    }
    for seed in 0..TRIALS {
        let gv = evaluate_all(got, seed);
        let ev = evaluate_all(expected, seed);
        for (gi, &ei) in pairing.iter().enumerate() {
            match (gv[gi], ev[ei]) {
                (Some(a), Some(b))
                    if a == b || matches!((a, b), (V::F(x), V::F(y)) if x.is_nan() && y.is_nan()) => {}
                (Some(a), Some(b)) => {
                    if status[gi] != 5 && v.differences.len() < 8 {
                        v.differences.push(format!(
                            "`{}` at{}: {a:?} vs {b:?} (trial {seed})\n    got:      {}\n    expected: {}",
                            g[gi].name, g[gi].path, g[gi].value, e[ei].value
                        ));
                    }
                    status[gi] = 5;
                }
                _ => {
                    if status[gi] == 3 {
                        status[gi] = 4;
                    }
                }
            }
        }
    }
    for s in status {
        match s {
            1 => v.structural += 1,
            2 => v.proved += 1,
            3 => v.sampled += 1,
            4 => v.skipped += 1,
            _ => {}
        }
    }
    v
}

/// Evaluates every definition of `s` (in program order) on one random assignment.
fn evaluate_all(s: &Stmt, seed: u64) -> Vec<Option<V>> {
    let mut env: BTreeMap<String, Vec<Option<V>>> = BTreeMap::new();
    let mut out = Vec::new();
    walk(s, seed, &mut env, &mut out);
    out
}

fn walk(s: &Stmt, seed: u64, env: &mut BTreeMap<String, Vec<Option<V>>>, out: &mut Vec<Option<V>>) {
    match s.kind() {
        StmtKind::LetStmt { name, value, body } => {
            let v = Eval { env, locals: Vec::new(), seed }.eval(value);
            out.push(v);
            env.entry(name.to_string()).or_default().push(v);
            walk(body, seed, env, out);
            if let Some(stack) = env.get_mut(name.as_ref()) {
                stack.pop();
            }
        }
        _ => {
            for c in s.children() {
                walk(c, seed, env, out);
            }
        }
    }
}
