//! Deep and long IR: the pass and the checker must not overflow the stack or go
//! quadratic on long let chains, deep loop nests, long blocks and deep expressions.

use std::time::Instant;

use loopir::{DeviceApi, Expr, ForType, Stmt, Type};
use loopir_profiling::tracing::{
    FuncTracing, OutputTracing, RecordedBoxes, TouchedBox, TraceEnv, TraceOptions, check_trace_hierarchy,
    inject_tracing_with,
};

/// The pipeline's env; `g`'s loads are traced where the statement loads it (a switch for
/// a Func the statement never mentions is an error).
fn env(loads_g: bool) -> TraceEnv {
    let g = FuncTracing::new("g", &["x"], vec![Type::INT32]);
    TraceEnv::new("f")
        .with_func(FuncTracing::new("f", &["x"], vec![Type::INT32]).trace_stores().trace_realizations())
        .with_func(if loads_g { g.trace_loads() } else { g })
        .with_output(OutputTracing::new("f", 1, vec![Type::INT32]))
}

fn boxes() -> RecordedBoxes {
    RecordedBoxes::new().with("f", TouchedBox::default()).with("g", TouchedBox::default())
}

fn store(value: Expr) -> Stmt {
    Stmt::provide("f", vec![value], vec![Expr::var_i32("x")], Expr::const_true()).expect("valid provide")
}

fn check(s: &Stmt, loads_g: bool) {
    let start = Instant::now();
    let options = TraceOptions { boxes: &boxes(), ..TraceOptions::default() };
    let out = inject_tracing_with(s, &env(loads_g), &options).expect("instruments");
    check_trace_hierarchy(&out).expect("hierarchy holds");
    assert!(start.elapsed().as_secs() < 60, "took {:?}", start.elapsed());
}

#[test]
fn deep_loop_nest() {
    let mut s = store(Expr::var_i32("x"));
    for i in 0..5_000 {
        let kind = if i % 100 == 0 { ForType::Parallel } else { ForType::Serial };
        s = Stmt::for_loop(
            format!("l{i}"),
            loopir::MinMax { min: Expr::i32(0), max: Expr::i32(1) },
            kind,
            DeviceApi::None,
            s,
        )
        .expect("loop");
    }
    check(&s, false);
}

#[test]
fn long_let_chain() {
    let mut s = store(Expr::var_i32("v0"));
    for i in 0..20_000 {
        s = Stmt::let_stmt(format!("v{i}"), Expr::i32(i), s);
    }
    check(&s, false);
}

#[test]
fn long_block() {
    let stmts: Vec<Stmt> = (0..100_000).map(|i| store(Expr::i32(i))).collect();
    check(&Stmt::block(stmts), false);
}

#[test]
fn deep_expression() {
    let load = Expr::call_func(Type::INT32, "g", vec![Expr::var_i32("x")], 0);
    let mut e = load;
    for i in 0..10_000 {
        e = Expr::add(e, Expr::i32(i)).expect("int32 add");
    }
    check(&store(e), true);
}
