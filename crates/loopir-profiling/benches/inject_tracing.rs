//! Timing of `inject_tracing` (with the default boxes-touched analysis) on nested loads
//! `f(x) = g(g(...g(x)))` of growing depth, whose output's printed text doubles per level
//! (issue 19): the time must grow linearly with the depth. Run with
//! `cargo bench -p loopir-profiling --bench inject_tracing`.
// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use loopir::{DeviceApi, Expr, ForType, MemoryType, MinExtent, MinMax, Stmt, Type};
use loopir_profiling::tracing::{FuncTracing, OutputTracing, TargetTracing, TraceEnv, inject_tracing};

fn var(name: &str) -> Expr {
    Expr::var_i32(name)
}

fn serial_loop(name: &str, body: Stmt) -> Stmt {
    let (min, max) = (var(&format!("{name}.min")), var(&format!("{name}.max")));
    Stmt::for_loop(name, MinMax { min, max }, ForType::Serial, DeviceApi::None, body).expect("loop")
}

/// `realize g { produce g { g(x) = x*3 } consume g { produce f { f(x) = g(g(...g(x))) } } }`.
fn nested_loads(depth: usize) -> Stmt {
    let mut value = var("f.s0.x");
    for _ in 0..depth {
        value = Expr::call_func(Type::INT32, "g", vec![value], 0);
    }
    let x = var("g.s0.x");
    let g_value = Expr::mul(x.clone(), Expr::i32(3)).expect("int32 mul");
    let g_def = Stmt::provide("g", vec![g_value], vec![x], Expr::const_true()).expect("provide g");
    let f_def = Stmt::provide("f", vec![value], vec![var("f.s0.x")], Expr::const_true()).expect("provide f");
    let body = Stmt::block(vec![
        Stmt::produce("g", serial_loop("g.s0.x", g_def)),
        Stmt::consume("g", Stmt::produce("f", serial_loop("f.s0.x", f_def))),
    ]);
    let range = MinExtent { min: var("g.x.min_realized"), extent: var("g.x.extent_realized") };
    Stmt::realize("g", vec![Type::INT32], MemoryType::Auto, vec![range], Expr::const_true(), body)
        .expect("realize g")
}

fn bench(c: &mut Criterion) {
    let env = TraceEnv::new("f")
        .with_target(TargetTracing::trace_all())
        .with_func(FuncTracing::new("g", &["x"], vec![Type::INT32]))
        .with_func(FuncTracing::new("f", &["x"], vec![Type::INT32]))
        .with_output(OutputTracing::new("f", 1, vec![Type::INT32]));
    let mut group = c.benchmark_group("nested_loads");
    for depth in [250, 500, 1_000, 2_000, 4_000] {
        let stmt = nested_loads(depth);
        group.bench_with_input(BenchmarkId::from_parameter(depth), &stmt, |b, s| {
            b.iter(|| inject_tracing(s, &env).expect("instruments"))
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
