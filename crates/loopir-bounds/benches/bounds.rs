#![allow(missing_docs)] // criterion_group!/criterion_main! generate undocumented items
//! Criterion benches for the scaling workloads of `docs/reference/bounds.md` §3.5. Each group uses N as the
//! `BenchmarkId`, so the report plots time against N directly; doubling N should at most
//! (about) double the time.
//!
//! Run: `cargo bench -p loopir-bounds` (add `-- <group>` to pick one).

/// The allocator the `loopir` command uses, so that timings match what users see.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use loopir::constant;
use loopir::make;
use loopir_bounds::compute_bounds::computation_bounds_inference_with;
use loopir_bounds::func_value_bounds::func_value_bounds_from_text;
use loopir_bounds::{
    FuncValueBounds, bounds_of_expr_in_scope, boxes_provided, boxes_required, workloads as w,
};
use loopir_simplify::{Ctx, Interval, Scope};
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

type Gen = fn(usize) -> Result<w::PassWorkload, loopir_bounds::BoundsError>;

/// Computation bounds inference (or, with `alloc`, allocation bounds inference) on the
/// generated pipelines; the generator and parser run outside the timed loop.
fn pass_group(c: &mut Criterion, name: &str, sizes: &[usize], make: Gen, alloc: bool) {
    let mut g = c.benchmark_group(name);
    g.sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
    for &n in sizes {
        let wl = match make(n) {
            Ok(wl) => wl,
            Err(e) => panic!("{name} at n = {n}: {e}"),
        };
        g.bench_with_input(BenchmarkId::from_parameter(n), &wl, |b, wl| {
            b.iter(|| {
                if alloc {
                    black_box(wl.run_alloc().is_some_and(|r| r.is_ok()))
                } else {
                    black_box(wl.run_compute(&Ctx::new()).is_ok())
                }
            })
        });
    }
    g.finish();
}

/// B17 with the nested select in f's call index, a let value and an `if` condition.
fn select_in_index(n: usize) -> Result<w::PassWorkload, loopir_bounds::BoundsError> {
    w::deep_select(w::SelectPlace::CallIndex, n)
}

fn select_in_let(n: usize) -> Result<w::PassWorkload, loopir_bounds::BoundsError> {
    w::deep_select(w::SelectPlace::LetValue, n)
}

fn select_in_if(n: usize) -> Result<w::PassWorkload, loopir_bounds::BoundsError> {
    w::deep_select(w::SelectPlace::IfCondition, n)
}

/// B14's inputs, checked in under `fixtures/bounds/workloads`.
fn truncated_pyramid(levels: usize) -> Result<w::PassWorkload, loopir_bounds::BoundsError> {
    w::truncated_pyramid(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/bounds/workloads"),
        levels,
    )
}

/// B14's computation bounds in its two parts: the whole Func value-bounds table, and the
/// pass with the table given (the table reproduces the reference's, whose ends print in
/// Θ(L²) characters, and the pass computes only the entries it asks for; the pass proper
/// should be linear in the input).
fn pyramid_parts_group(c: &mut Criterion) {
    let mut table = c.benchmark_group("B14_value_bounds_table");
    table.sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
    let loaded: Vec<_> = w::PYRAMID_LEVELS
        .iter()
        .map(|&n| (n, truncated_pyramid(n).unwrap_or_else(|e| panic!("B14 at L = {n}: {e}"))))
        .collect();
    let seeded = |wl: &w::PassWorkload| {
        let ctx = Ctx::new();
        ctx.seed_t(wl.env.fresh_names.t.unwrap_or(0));
        ctx
    };
    for (n, wl) in &loaded {
        table.bench_with_input(BenchmarkId::from_parameter(n), wl, |b, wl| {
            b.iter(|| black_box(func_value_bounds_from_text(&seeded(wl), &wl.input).entries()))
        });
    }
    table.finish();
    let mut pass = c.benchmark_group("B14_truncated_pyramid_table_given");
    pass.sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
    for (n, wl) in &loaded {
        let fb = func_value_bounds_from_text(&seeded(wl), &wl.input);
        // Computed whole here, so that no iteration computes part of it.
        fb.entries();
        pass.bench_with_input(BenchmarkId::from_parameter(n), wl, |b, wl| {
            b.iter(|| {
                black_box(computation_bounds_inference_with(&seeded(wl), &wl.input, &wl.env, &fb).is_ok())
            })
        });
    }
    pass.finish();
}

/// B14's computation bounds as a [`loopir::pipeline::Pipeline`] pass, with the two
/// placings of the Func value-bounds table's names (`docs/pipeline.md`): drawn before
/// the run, ending at a counter past them (entries computed on first use, after a count
/// of the whole table's names), and drawn in the run from its counter (every entry at
/// once). The counters are chosen so that neither numbering starts at 0: the only case
/// where a table drawn before skips Funcs nobody asks for (`B14_truncated_pyramid`).
fn pyramid_pipeline_group(c: &mut Criterion) {
    use loopir::pipeline::{LowerCtx, Pipeline};
    let mut g = c.benchmark_group("B14_truncated_pyramid_pipeline");
    g.sample_size(10).warm_up_time(Duration::from_millis(300)).measurement_time(Duration::from_secs(2));
    for &n in &w::PYRAMID_LEVELS {
        let wl = truncated_pyramid(n).unwrap_or_else(|e| panic!("B14 at L = {n}: {e}"));
        let mut before = wl.env.to_pipeline_env();
        before.fresh_names.chars.insert('t', 100_000);
        before.fresh_names.func_value_bounds_end = Some(100_000);
        let mut now = before.clone();
        now.fresh_names.func_value_bounds_end = None;
        for (mode, env) in [("drawn_before", before), ("drawn_now", now)] {
            g.bench_with_input(BenchmarkId::new(mode, n), &env, |b, env| {
                b.iter(|| {
                    let mut ctx = LowerCtx::new(env.clone()).unwrap_or_else(|e| panic!("{e}"));
                    let pipeline = Pipeline::new().with(loopir_bounds::ComputationBounds);
                    black_box(pipeline.run(&wl.input, &mut ctx).is_ok())
                })
            });
        }
    }
    g.finish();
}

/// B16: every oracle case's computation and allocation bounds inputs, one iteration
/// running them all.
fn corpus_group(c: &mut Criterion) {
    let cases = w::corpus_cases(&loopir_testkit::oracle::cases());
    let loaded: Vec<_> = cases.iter().filter_map(|d| w::corpus_case(d).ok()).collect();
    if loaded.is_empty() {
        eprintln!("B16_corpus_all: oracle corpus not present; skipped");
        return;
    }
    let mut g = c.benchmark_group("B16_corpus_all");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    g.bench_function(BenchmarkId::from_parameter(loaded.len()), |b| {
        b.iter(|| {
            let mut ok = 0usize;
            for wl in &loaded {
                ok += usize::from(wl.run_compute(&Ctx::new()).is_ok());
                ok += usize::from(wl.run_alloc().is_some_and(|r| r.is_ok()));
            }
            black_box(ok)
        })
    });
    g.finish();
}

fn benches(c: &mut Criterion) {
    let x100 = w::scope_x(0, 100);
    let x10 = w::scope_x(0, 10);
    let symbolic = Scope::new();
    expr_group(c, "B1_let_chain_expr", &[16, 64, 256, 1024, 4096], w::let_chain_expr, &x100, false);
    expr_group(c, "square_let_chain", &[500, 1000, 2000, 4000], w::square_let_chain, &symbolic, false);
    expr_group(
        c,
        "G02_nested_arithmetic_selects",
        &[250, 500, 1000, 2000],
        w::nested_arithmetic_selects,
        &x10,
        false,
    );
    stmt_group(c, "B3_nested_select_calls", &[4, 8, 16, 32, 64, 128], &w::nested_select_calls, false);
    stmt_group(
        c,
        "B3b_nested_identical_select_calls",
        &[4, 8, 16, 32, 64, 128],
        &w::nested_identical_select_calls,
        false,
    );
    expr_group(c, "B5_fibonacci_dag", &[32, 64, 90, 1000, 10000], w::fibonacci_dag, &x10, false);
    let mut p = Scope::new();
    let f32t = loopir::Type::float(32, 1);
    let _ = p.push("p", Interval::new(constant::make_float(f32t, 0.5), constant::make_float(f32t, 2.0)));
    expr_group(c, "B10_horner", &[50, 100, 250, 500], w::horner, &p, false);
    expr_group(c, "B11_bitwise_chain", &[16, 64, 256, 1024], w::bitwise_chain, &x10, true);
    stmt_group(c, "B2_let_chain_stmt", &[16, 256, 4096, 65536], &w::let_chain_stmt, true);
    stmt_group(c, "B2b_let_chain_stmt_wide", &[16, 256, 4096, 65536], &w::let_chain_stmt_wide, true);
    stmt_group(c, "B9_many_calls", &[16, 128, 1024, 8192], &w::many_calls, false);
    stmt_group(c, "stencil_chain", &[64, 128, 256, 512, 1024], &w::stencil_chain, false);
    // The spec's three nest depths: O(N·M), never exponential in M.
    stmt_group(c, "B12_if_dependents_m1", &[64, 256, 1024, 4096], &|n| w::if_dependents(n, 1), false);
    stmt_group(c, "B12_if_dependents_m8", &[64, 256, 1024, 4096], &|n| w::if_dependents(n, 8), false);
    stmt_group(c, "B12_if_dependents_m32", &[64, 256, 1024, 4096], &|n| w::if_dependents(n, 32), false);
    pass_group(c, "B4_inline_chain", &[32, 64, 128, 256, 512], w::inline_chain, false);
    pass_group(c, "B6_root_chain", &[64, 128, 256, 512, 1024], w::root_chain, false);
    pass_group(c, "B6_root_chain_alloc", &[64, 128, 256], w::root_chain, true);
    pass_group(c, "B7_tiled_chain", &[8, 24, 64, 128], w::tiled_chain, false);
    pass_group(c, "B8_deep_nest", &[4, 8, 16, 32], w::deep_nest, false);
    pass_group(c, "B13_specialized_updates", &[8, 32, 128], w::specialized_updates, false);
    pass_group(c, "B17_deep_select_index_alloc", &[1000, 2000, 4000], select_in_index, true);
    pass_group(c, "B17_deep_select_let_alloc", &[1000, 2000, 4000], select_in_let, true);
    pass_group(c, "B17_deep_select_if_alloc", &[1000, 2000, 4000], select_in_if, true);
    pass_group(c, "B18_add_chain", &[10_000, 20_000, 40_000], w::add_chain, false);
    pass_group(c, "B14_truncated_pyramid", &w::PYRAMID_LEVELS, truncated_pyramid, false);
    pass_group(c, "B14_truncated_pyramid_alloc", &w::PYRAMID_LEVELS, truncated_pyramid, true);
    pyramid_parts_group(c);
    pyramid_pipeline_group(c);
    corpus_group(c);
    let mut g = c.benchmark_group("B15_wide_scope");
    g.sample_size(10).measurement_time(Duration::from_secs(1));
    for n in [1_000usize, 10_000, 100_000] {
        let s = w::wide_scope(n);
        let e = make::add(loopir::Expr::var_i32("x"), loopir::Expr::i32(1));
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
