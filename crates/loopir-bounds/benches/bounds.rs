#![allow(missing_docs)] // criterion_group!/criterion_main! generate undocumented items
//! Criterion benches for the scaling workloads of spec §3.5. Each group uses N as the
//! `BenchmarkId`, so the report plots time against N directly; doubling N should at most
//! (about) double the time.
//!
//! Run: `cargo bench -p loopir-bounds` (add `-- <group>` to pick one).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use loopir_bounds::{
    Ctx, FuncValueBounds, Interval, Scope, bounds_of_expr_in_scope, boxes_provided, boxes_required,
    workloads as w,
};
use std::hint::black_box;
use std::time::Duration;

fn expr_group(
    c: &mut Criterion,
    name: &str,
    sizes: &[usize],
    make: fn(usize) -> loopir::Expr,
    scope: &Scope<'_, Interval>,
    const_bound: bool,
) {
    let mut g = c.benchmark_group(name);
    g.sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
    for &n in sizes {
        let e = make(n);
        g.bench_with_input(BenchmarkId::from_parameter(n), &e, |b, e| {
            b.iter(|| {
                let ctx = Ctx::new();
                black_box(bounds_of_expr_in_scope(&ctx, e, scope, &FuncValueBounds::default(), const_bound))
            })
        });
    }
    g.finish();
}

fn stmt_group(
    c: &mut Criterion,
    name: &str,
    sizes: &[usize],
    make: &dyn Fn(usize) -> loopir::Stmt,
    provides: bool,
) {
    let mut g = c.benchmark_group(name);
    g.sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
    for &n in sizes {
        let s = make(n);
        g.bench_with_input(BenchmarkId::from_parameter(n), &s, |b, s| {
            b.iter(|| {
                let ctx = Ctx::new();
                let scope = Scope::new();
                let fb = FuncValueBounds::default();
                let r = if provides {
                    boxes_provided(&ctx, s, &scope, &fb)
                } else {
                    boxes_required(&ctx, s, &scope, &fb)
                };
                black_box(r.map(|m| m.len()).unwrap_or(0))
            })
        });
    }
    g.finish();
}

fn benches(c: &mut Criterion) {
    let x100 = w::scope_x(0, 100);
    let x10 = w::scope_x(0, 10);
    let symbolic = Scope::new();
    expr_group(c, "B1_let_chain_expr", &[16, 64, 256, 1024, 4096], w::let_chain_expr, &x100, false);
    expr_group(c, "square_let_chain", &[500, 1000, 2000, 4000], w::square_let_chain, &symbolic, false);
    expr_group(c, "B3_nested_selects", &[250, 500, 1000, 2000], w::nested_selects, &x10, false);
    expr_group(c, "B5_fibonacci_dag", &[32, 64, 90, 1000, 10000], w::fibonacci_dag, &x10, false);
    let mut p = Scope::new();
    let f32t = loopir::Type::float(32, 1);
    let _ = p.push(
        "p",
        Interval::new(loopir_bounds::ir::make_float(f32t, 0.5), loopir_bounds::ir::make_float(f32t, 2.0)),
    );
    expr_group(c, "B10_horner", &[50, 100, 250, 500], w::horner, &p, false);
    expr_group(c, "B11_bitwise_chain", &[16, 64, 256, 1024], w::bitwise_chain, &x10, true);
    stmt_group(c, "B2_let_chain_stmt", &[16, 256, 4096, 65536], &w::let_chain_stmt, true);
    stmt_group(c, "B9_many_calls", &[16, 128, 1024, 8192], &w::many_calls, false);
    stmt_group(c, "stencil_chain", &[64, 128, 256, 512, 1024], &w::stencil_chain, false);
    stmt_group(c, "B12_if_dependents_m8", &[64, 256, 1024, 4096], &|n| w::if_dependents(n, 8), false);
    let mut g = c.benchmark_group("B15_wide_scope");
    g.sample_size(10).measurement_time(Duration::from_secs(1));
    for n in [1_000usize, 10_000, 100_000] {
        let s = w::wide_scope(n);
        let e = loopir_bounds::ir::add(loopir::Expr::var_i32("x"), loopir::Expr::i32(1));
        g.bench_with_input(BenchmarkId::from_parameter(n), &s, |b, s| {
            b.iter(|| {
                black_box(bounds_of_expr_in_scope(&Ctx::new(), &e, s, &FuncValueBounds::default(), false))
            })
        });
    }
    g.finish();
}

criterion_group!(bounds, benches);
criterion_main!(bounds);
