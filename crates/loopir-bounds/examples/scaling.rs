//! Prints wall times of the `docs/reference/bounds.md` §3.5 workloads for doubling N (a quick scaling check that
//! needs no criterion run): `cargo run --release -p loopir-bounds --example scaling`;
//! an argument picks the workloads whose name contains it (`... --example scaling -- B6`),
//! a second one runs only that size, once (`-- B6 512`, for `perf` or `valgrind`), and a
//! third that many times (`-- B6 512 20`, so that a profile is dominated by the pass).
//! Ratios are per doubling of N, whatever the step between the sizes. The sizes of a
//! workload are timed in interleaved rounds (each round runs every size once) and each
//! keeps its fastest run, so that a change in the machine's load between sizes does not
//! show up as a ratio.
//!
//! `SCALING_OUTPUT=1` times nothing and prints, per size, what `docs/reference/bounds.md` §3.5 asks to report
//! besides the time: the input's DAG nodes, the output's DAG nodes and the length of the
//! printed output (CSE'd ends as `loopir bounds` prints them; the statement as Halide
//! prints it), with the output's growth per doubling of the input.

/// The allocator the `loopir` command uses, so that timings match what users see.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

use loopir::constant;
use std::time::Instant;

use loopir::dag::{dag_size, dag_size_of};
use loopir_bounds::boxes::print_boxes;
use loopir_bounds::{
    FuncValueBounds, bounds_of_expr_in_scope, boxes_provided, boxes_required, workloads as w,
};
use loopir_simplify::cse::print_bound;
use loopir_simplify::{Ctx, Interval, Scope};

/// The size given as the second argument: run that size once (for profilers).
fn single_size() -> Option<usize> {
    std::env::args().nth(2).and_then(|a| a.parse().ok())
}

/// How many times to run each size: the third argument, else 1 with a size, else 5.
fn runs() -> usize {
    let given = std::env::args().nth(3).and_then(|a| a.parse().ok());
    given.unwrap_or(if single_size().is_some() { 1 } else { 5 })
}

/// One run of a workload at one size, returning the milliseconds it took.
type Run<'a> = Box<dyn Fn() -> f64 + 'a>;

fn timed<'a, R>(f: impl Fn() -> R + 'a) -> Run<'a> {
    Box::new(move || {
        let t = Instant::now();
        std::hint::black_box(f());
        t.elapsed().as_secs_f64() * 1e3
    })
}

/// A run that does nothing (the workload printed its result instead).
fn printed<'a>() -> Run<'a> {
    Box::new(|| 0.0)
}

/// Whether `name` is selected by the optional argument (a substring; all if absent).
fn selected(name: &str) -> bool {
    std::env::args().nth(1).is_none_or(|f| name.contains(&f))
}

fn report<'a>(name: &str, sizes: &[usize], prepare: impl Fn(usize) -> Run<'a>) {
    report_by(name, sizes, |n| n, "", prepare)
}

/// As [`report`], with ratios per doubling of `measure(N)` (printed after N, with `unit`)
/// instead of N: for workloads whose input does not grow in proportion to N.
fn report_by<'a>(
    name: &str,
    sizes: &[usize],
    measure: impl Fn(usize) -> usize,
    unit: &str,
    prepare: impl Fn(usize) -> Run<'a>,
) {
    if !selected(name) {
        return;
    }
    // `SCALING_SIZES=16,64,256` replaces the sizes (e.g. by the benches' lists).
    let given: Option<Vec<usize>> = std::env::var("SCALING_SIZES")
        .ok()
        .map(|v| v.split(',').filter_map(|n| n.trim().parse().ok()).collect());
    let one = single_size().map(|n| vec![n]);
    let sizes = one.as_deref().or(given.as_deref()).unwrap_or(sizes);
    let runs: Vec<(usize, Run<'a>)> = sizes.iter().map(|&n| (n, prepare(n))).collect();
    if output_mode() {
        report_output(name, &runs.iter().map(|(n, _)| *n).collect::<Vec<_>>());
        return;
    }
    let mut best = vec![f64::MAX; runs.len()];
    for _ in 0..self::runs() {
        for ((_, run), b) in runs.iter().zip(&mut best) {
            *b = b.min(run());
        }
    }
    let mut prev: Option<(usize, f64)> = None;
    let mut line = format!("{name:<22}");
    for (&(n, _), &ms) in runs.iter().zip(&best) {
        // The ratio per doubling of N (or of its measure), whatever the step between sizes.
        let m = measure(n);
        let ratio = prev.map_or(String::new(), |(pm, p)| {
            let doublings = (m as f64 / pm as f64).log2();
            format!(" (x{:.2})", (ms / p.max(1e-6)).powf(1.0 / doublings.max(1e-9)))
        });
        let shown = if unit.is_empty() { String::new() } else { format!(" ({m} {unit})") };
        line.push_str(&format!("  N={n}{shown}: {ms:.2} ms{ratio}"));
        prev = Some((m, ms));
    }
    println!("{line}");
}

/// Whether `SCALING_OUTPUT` asks for output sizes instead of times.
fn output_mode() -> bool {
    std::env::var_os("SCALING_OUTPUT").is_some()
}

/// The sizes of one run: input DAG nodes, output DAG nodes, printed output characters.
#[derive(Clone, Copy)]
struct Sizes {
    input: usize,
    output: usize,
    chars: usize,
}

thread_local! {
    /// What the workloads prepared in output mode measured, in order.
    static MEASURED: std::cell::RefCell<Vec<Sizes>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Records a prepared workload's sizes (output mode) and returns a run that does nothing.
fn measured<'a>(sizes: Sizes) -> Run<'a> {
    MEASURED.with(|m| m.borrow_mut().push(sizes));
    printed()
}

/// Prints the sizes the workloads of `report_by` recorded, with the growth of the
/// output's DAG and text per doubling of the input's DAG.
fn report_output(name: &str, ns: &[usize]) {
    let all = MEASURED.with(|m| std::mem::take(&mut *m.borrow_mut()));
    // Workloads with no output of their own (table walks, B15) record nothing.
    if all.len() != ns.len() {
        return;
    }
    let mut line = format!("{name:<22}");
    let mut prev: Option<Sizes> = None;
    for (n, sz) in ns.iter().zip(&all) {
        line.push_str(&format!("  N={n}: {} -> {} nodes, {} chars", sz.input, sz.output, sz.chars));
        if let Some(p) = prev {
            let doublings = (sz.input as f64 / p.input.max(1) as f64).log2().max(1e-9);
            let per = |a: usize, b: usize| (a as f64 / b.max(1) as f64).powf(1.0 / doublings);
            line.push_str(&format!(" (x{:.2}, x{:.2})", per(sz.output, p.output), per(sz.chars, p.chars)));
        }
        prev = Some(*sz);
    }
    println!("{line}");
}

/// The finite ends of an interval.
fn ends(i: &Interval) -> impl Iterator<Item = &loopir::Expr> {
    [&i.min, &i.max].into_iter().filter_map(|b| b.as_expr())
}

/// A pass's result as text (its error's message if it failed).
fn result_text(r: Result<loopir::Stmt, loopir_bounds::BoundsError>) -> String {
    r.map_or_else(|e| format!("error: {e}"), |s| s.to_string())
}

fn expr<'a>(
    make: fn(usize) -> loopir::Expr,
    scope: &'a Scope<'_, Interval>,
    n: usize,
    const_bound: bool,
) -> Run<'a> {
    let e = make(n);
    // `SCALING_PRINT=1` prints the interval (to compare builds).
    if std::env::var_os("SCALING_PRINT").is_some() || output_mode() {
        // CSE'd: the tree of a nested workload is exponential.
        let ctx = Ctx::new();
        let i = bounds_of_expr_in_scope(&ctx, &e, scope, &FuncValueBounds::default(), const_bound);
        let text = [&i.min, &i.max].map(|b| print_bound(&ctx, b));
        if output_mode() {
            let chars = text.iter().map(String::len).sum();
            return measured(Sizes { input: dag_size(&e), output: dag_size_of(ends(&i)), chars });
        }
        text.iter().for_each(|t| println!("{t}"));
        return printed();
    }
    timed(move || bounds_of_expr_in_scope(&Ctx::new(), &e, scope, &FuncValueBounds::default(), const_bound))
}

fn stmt<'a>(make: &dyn Fn(usize) -> loopir::Stmt, n: usize, provides: bool) -> Run<'a> {
    let s = make(n);
    // `SCALING_PRINT=1` prints the boxes (to compare builds).
    if std::env::var_os("SCALING_PRINT").is_some() || output_mode() {
        let (ctx, scope, fb) = (Ctx::new(), Scope::new(), FuncValueBounds::default());
        let r = if provides {
            boxes_provided(&ctx, &s, &scope, &fb)
        } else {
            boxes_required(&ctx, &s, &scope, &fb)
        };
        match r {
            Ok(m) if output_mode() => {
                let output = dag_size_of(m.values().flat_map(|b| b.bounds.iter().flat_map(ends)));
                return measured(Sizes { input: dag_nodes(&s), output, chars: print_boxes(&ctx, &m).len() });
            }
            Ok(m) => m.iter().for_each(|(f, b)| println!("{f}: {b}")),
            Err(e) => println!("error: {e}"),
        }
        return printed();
    }
    timed(move || {
        let (ctx, scope, fb) = (Ctx::new(), Scope::new(), FuncValueBounds::default());
        if provides {
            boxes_provided(&ctx, &s, &scope, &fb).map(|m| m.len())
        } else {
            boxes_required(&ctx, &s, &scope, &fb).map(|m| m.len())
        }
    })
}

/// Distinct statement and expression nodes of `s` (by identity): its DAG size.
fn dag_nodes(s: &loopir::Stmt) -> usize {
    #[derive(Default)]
    struct Count {
        exprs: std::collections::HashSet<*const loopir::ExprNode>,
        stmts: usize,
    }
    impl loopir::visit::Visitor for Count {
        fn visit_expr(&mut self, e: &loopir::Expr) {
            if self.exprs.insert(e.as_ptr()) {
                self.super_expr(e)
            }
        }
        fn visit_stmt(&mut self, s: &loopir::Stmt) {
            // A LetStmt chain's statements are counted as they are entered.
            if !matches!(s.kind(), loopir::StmtKind::LetStmt { .. }) {
                self.stmts += 1;
            }
            self.super_stmt(s)
        }
        fn enter_scope(&mut self, binder: &loopir::Binder<'_>) {
            if let loopir::Binder::LetStmt { .. } = binder {
                self.stmts += 1;
            }
        }
    }
    let mut c = Count::default();
    loopir::visit::Visitor::visit_stmt(&mut c, s);
    c.exprs.len() + c.stmts
}

/// A walk of B2's chain that records every expression node in a table keyed by address
/// (the shape of the analyses' per-node caches), with the table's hasher `S`: the
/// measurement behind `loopir::address_map`.
fn table_walk<'a, S: std::hash::BuildHasher + Default + 'a>(n: usize) -> Run<'a> {
    struct Record<S>(std::collections::HashMap<*const loopir::ExprNode, loopir::Expr, S>);
    impl<S: std::hash::BuildHasher> loopir::visit::Visitor for Record<S> {
        fn visit_expr(&mut self, e: &loopir::Expr) {
            self.0.insert(e.as_ptr(), e.clone());
            self.super_expr(e)
        }
    }
    let s = w::let_chain_stmt(n);
    timed(move || {
        let mut r = Record(std::collections::HashMap::<_, _, S>::default());
        loopir::visit::Visitor::visit_stmt(&mut r, &s);
        r.0.len()
    })
}

/// B14's checked-in inputs.
fn pyramid(levels: usize) -> Result<w::PassWorkload, loopir_bounds::BoundsError> {
    w::truncated_pyramid(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/bounds/workloads"),
        levels,
    )
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

/// Computation bounds inference on a generated pipeline (the generator's time excluded).
fn compute<'a>(make: fn(usize) -> Result<w::PassWorkload, loopir_bounds::BoundsError>, n: usize) -> Run<'a> {
    match make(n) {
        Ok(wl) if output_mode() => match wl.run_compute(&Ctx::new()) {
            Ok(out) => pass_sizes(&wl.input, &out),
            Err(e) => panic!("computation bounds at n = {n}: {e}"),
        },
        // `SCALING_PRINT=1` prints the result (to look at its shape).
        Ok(wl) if std::env::var_os("SCALING_PRINT").is_some() => {
            println!("{}", wl.run_compute(&Ctx::new()).map_or_else(|e| e.to_string(), |s| s.to_string()));
            printed()
        }
        // The pass only: printing a deeply nested result is O(n²) in indentation alone.
        Ok(wl) => timed(move || wl.run_compute(&Ctx::new()).is_ok()),
        Err(e) => panic!("generator at n = {n}: {e}"),
    }
}

/// Records the sizes of a pass's input and output (output mode).
fn pass_sizes<'a>(input: &loopir::Stmt, output: &loopir::Stmt) -> Run<'a> {
    measured(Sizes { input: dag_nodes(input), output: dag_nodes(output), chars: output.to_string().len() })
}

/// Allocation bounds inference on a generated pipeline.
fn alloc<'a>(make: fn(usize) -> Result<w::PassWorkload, loopir_bounds::BoundsError>, n: usize) -> Run<'a> {
    match make(n) {
        Ok(wl) if output_mode() => match (&wl.alloc_input, wl.run_alloc()) {
            (Some(input), Some(Ok(out))) => pass_sizes(input, &out),
            (_, Some(Err(e))) => panic!("allocation bounds at n = {n}: {e}"),
            _ => printed(),
        },
        Ok(wl) => timed(move || wl.run_alloc().map(|r| r.is_ok())),
        Err(e) => panic!("generator at n = {n}: {e}"),
    }
}

fn main() {
    let x100 = w::scope_x(0, 100);
    let x10 = w::scope_x(0, 10);
    let sym = Scope::new();
    let mut p = Scope::new();
    let f32t = loopir::Type::float(32, 1);
    let _ = p.push("p", Interval::new(constant::make_float(f32t, 0.5), constant::make_float(f32t, 2.0)));
    report("B1 let_chain_expr", &[1024, 2048, 4096, 8192], |n| expr(w::let_chain_expr, &x100, n, false));
    report("square_let_chain", &[1000, 2000, 4000, 8000], |n| expr(w::square_let_chain, &sym, n, false));
    report("G02 nested_arith_sel", &[500, 1000, 2000, 4000], |n| {
        expr(w::nested_arithmetic_selects, &x10, n, false)
    });
    report("B3 nested_select_calls", &[128, 256, 512, 1024], |n| stmt(&w::nested_select_calls, n, false));
    report("B3b nested_ident_calls", &[128, 256, 512, 1024], |n| {
        stmt(&w::nested_identical_select_calls, n, false)
    });
    report("B5 fibonacci_dag", &[2500, 5000, 10000, 20000], |n| expr(w::fibonacci_dag, &x10, n, false));
    report("B10 horner", &[250, 500, 1000, 2000], |n| expr(w::horner, &p, n, false));
    report("B11 bitwise_chain", &[256, 512, 1024, 2048], |n| expr(w::bitwise_chain, &x10, n, true));
    report("B2 let_chain_stmt", &[8192, 16384, 32768, 65536], |n| stmt(&w::let_chain_stmt, n, true));
    report("table walk, FxHashMap", &[8192, 16384, 32768, 65536], table_walk::<rustc_hash::FxBuildHasher>);
    report("table walk, AddressMap", &[8192, 16384, 32768, 65536], |n| {
        table_walk::<std::hash::BuildHasherDefault<loopir::address_map::AddressHasher>>(n)
    });
    report("B2b let_chain_stmt_wide", &[8192, 16384, 32768, 65536], |n| {
        stmt(&w::let_chain_stmt_wide, n, true)
    });
    report("B9 many_calls", &[1024, 2048, 4096, 8192], |n| stmt(&w::many_calls, n, false));
    report("stencil_chain", &[256, 512, 1024, 2048], |n| stmt(&w::stencil_chain, n, false));
    report("B12 if_dependents m=1", &[512, 1024, 2048, 4096], |n| {
        stmt(&|k| w::if_dependents(k, 1), n, false)
    });
    report("B12 if_dependents m=8", &[512, 1024, 2048, 4096], |n| {
        stmt(&|k| w::if_dependents(k, 8), n, false)
    });
    report("B12 if_dependents m=32", &[512, 1024, 2048, 4096], |n| {
        stmt(&|k| w::if_dependents(k, 32), n, false)
    });
    report("B4 inline_chain", &[64, 128, 256, 512], |n| compute(w::inline_chain, n));
    report("B6 root_chain", &[128, 256, 512, 1024], |n| compute(w::root_chain, n));
    report("B6a root_chain alloc", &[64, 128, 256, 512], |n| alloc(w::root_chain, n));
    report("B7 tiled_chain", &[64, 128, 256, 512], |n| compute(w::tiled_chain, n));
    report("B8 deep_nest", &[8, 16, 32, 64], |n| compute(w::deep_nest, n));
    report("B13 specialized_upd", &[32, 64, 128, 256], |n| compute(w::specialized_updates, n));
    report("B17 sel_index alloc", &[1000, 2000, 4000, 8000], |n| alloc(select_in_index, n));
    report("B17 sel_let alloc", &[1000, 2000, 4000, 8000], |n| alloc(select_in_let, n));
    report("B17 sel_if alloc", &[1000, 2000, 4000, 8000], |n| alloc(select_in_if, n));
    report("B18 add_chain", &[25_000, 50_000, 100_000, 200_000], |n| compute(w::add_chain, n));
    report("B14 truncated_pyramid", &w::PYRAMID_LEVELS, |n| compute(pyramid, n));
    report("B14a truncated_pyramid alloc", &w::PYRAMID_LEVELS, |n| alloc(pyramid, n));
    // `SCALING_DUMP=DIR` writes both passes' results at every level (to compare builds).
    if let Some(dir) = std::env::var_os("SCALING_DUMP").filter(|_| selected("B14 truncated_pyramid")) {
        for l in w::PYRAMID_LEVELS {
            let wl = pyramid(l).unwrap_or_else(|e| panic!("B14 at L = {l}: {e}"));
            let path = |pass: &str| std::path::Path::new(&dir).join(format!("truncated_pyramid.L{l}.{pass}"));
            let _ = std::fs::write(path("compute"), result_text(wl.run_compute(&Ctx::new())));
            if let Some(r) = wl.run_alloc() {
                let _ = std::fs::write(path("alloc"), result_text(r));
            }
        }
    }
    // B14's input grows faster than its level count; the spec's "linear" is per doubling
    // of the input DAG.
    let input_nodes = |alloc: bool| {
        move |n| {
            pyramid(n).ok().map_or(0, |wl| {
                if alloc { wl.alloc_input.as_ref().map_or(0, dag_nodes) } else { dag_nodes(&wl.input) }
            })
        }
    };
    report_by("B14 pyramid by input DAG", &w::PYRAMID_LEVELS, input_nodes(false), "nodes", |n| {
        compute(pyramid, n)
    });
    report_by("B14a pyramid alloc by input DAG", &w::PYRAMID_LEVELS, input_nodes(true), "nodes", |n| {
        alloc(pyramid, n)
    });
    // Computation bounds in its two parts: the whole Func value-bounds table (Θ(L²)
    // printed characters at the reference, whose text it reproduces; the pass computes
    // only the entries it asks for), then the pass given it.
    report_by("B14 value-bounds table", &w::PYRAMID_LEVELS, input_nodes(false), "nodes", |n| {
        let wl = pyramid(n).unwrap_or_else(|e| panic!("B14 at L = {n}: {e}"));
        timed(move || {
            let ctx = Ctx::new();
            ctx.seed_t(wl.env.fresh_names.t.unwrap_or(0));
            loopir_bounds::func_value_bounds::func_value_bounds_from_text(&ctx, &wl.input).entries().len()
        })
    });
    report_by("B14 pass, table given", &w::PYRAMID_LEVELS, input_nodes(false), "nodes", |n| {
        let wl = pyramid(n).unwrap_or_else(|e| panic!("B14 at L = {n}: {e}"));
        let seed = wl.env.fresh_names.t.unwrap_or(0);
        let table = {
            let ctx = Ctx::new();
            ctx.seed_t(seed);
            let table = loopir_bounds::func_value_bounds::func_value_bounds_from_text(&ctx, &wl.input);
            // Computed whole here, so that no run computes part of it.
            table.entries();
            table
        };
        timed(move || {
            let ctx = Ctx::new();
            ctx.seed_t(seed);
            loopir_bounds::compute_bounds::computation_bounds_inference_with(&ctx, &wl.input, &wl.env, &table)
                .is_ok()
        })
    });
    if !selected("B16 corpus_all") {
        return;
    }
    let cases = w::corpus_cases(&loopir_testkit::oracle::cases());
    let loaded: Vec<_> = cases.iter().filter_map(|d| Some((d, w::corpus_case(d).ok()?))).collect();
    // `SCALING_DUMP=DIR` writes every case's two results (to compare builds).
    if let Some(dir) = std::env::var_os("SCALING_DUMP") {
        let dir = std::path::Path::new(&dir);
        for (case, wl) in &loaded {
            let name = case.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let _ =
                std::fs::write(dir.join(format!("{name}.compute")), result_text(wl.run_compute(&Ctx::new())));
            if let Some(r) = wl.run_alloc() {
                let _ = std::fs::write(dir.join(format!("{name}.alloc")), result_text(r));
            }
        }
    }
    let once = timed(|| {
        let mut out = 0usize;
        for (_, wl) in &loaded {
            out += usize::from(wl.run_compute(&Ctx::new()).is_ok());
            out += usize::from(wl.run_alloc().is_some_and(|r| r.is_ok()));
        }
        out
    });
    let ms = (0..runs()).map(|_| once()).fold(f64::MAX, f64::min);
    println!("B16 corpus_all           {} cases: {ms:.2} ms", loaded.len());
}
