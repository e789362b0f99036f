//! Complexity guards of the tracing pass: it is linear in the DAG of its input, and so is
//! what it hands on (its output shares each traced load's arguments between the load and
//! its event, so the boxes-touched analysis and the hierarchy checker meet a DAG whose
//! printed text doubles per nesting level).
//!
//! Each guard runs a size at which an exponential walk would never finish, under a
//! deadline that a linear one meets with a wide margin even in a debug build on a loaded
//! machine, and counts the output's distinct nodes, which must grow linearly.

use std::sync::mpsc;
use std::time::Duration;

use loopir::address_map::AddressSet;
use loopir::expr::ExprNode;
use loopir::visit::Visitor;
use loopir::{DeviceApi, Expr, ForType, MemoryType, MinExtent, MinMax, Stmt, Type};
use loopir_profiling::tracing::{
    FuncTracing, OutputTracing, TargetTracing, TraceEnv, check_trace_hierarchy, inject_tracing,
};

/// Runs `work` on another thread and fails the test if it has not finished after
/// `seconds` (the thread is left behind; the test process ends with the test run).
fn within<T: Send + 'static>(seconds: u64, what: &str, work: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || {
            let _ = tx.send(work());
        })
        .expect("spawn a worker");
    match rx.recv_timeout(Duration::from_secs(seconds)) {
        Ok(v) => v,
        Err(_) => panic!("{what} did not finish within {seconds} s: not linear in the DAG"),
    }
}

/// The number of distinct expression nodes reachable from `s`.
fn distinct_expr_nodes(s: &Stmt) -> usize {
    struct Count(AddressSet<*const ExprNode>);
    impl Visitor for Count {
        fn visit_expr(&mut self, e: &Expr) {
            if self.0.insert(e.as_ptr()) {
                self.super_expr(e);
            }
        }
    }
    let mut c = Count(AddressSet::default());
    c.visit_stmt(s);
    c.0.len()
}

fn env() -> TraceEnv {
    TraceEnv::new("f")
        .with_target(TargetTracing::trace_all())
        .with_func(FuncTracing::new("g", &["x"], vec![Type::INT32]))
        .with_func(FuncTracing::new("f", &["x"], vec![Type::INT32]))
        .with_output(OutputTracing::new("f", 1, vec![Type::INT32]))
}

fn var(name: &str) -> Expr {
    Expr::var_i32(name)
}

fn serial_loop(name: &str, body: Stmt) -> Stmt {
    let (min, max) = (var(&format!("{name}.min")), var(&format!("{name}.max")));
    Stmt::for_loop(name, MinMax { min, max }, ForType::Serial, DeviceApi::None, body).expect("loop")
}

/// `realize g { produce g { g(x) = x*3 } consume g { produce f { f(x) = <value> } } }`.
fn pipeline(value: Expr) -> Stmt {
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

fn g(arg: Expr) -> Expr {
    Expr::call_func(Type::INT32, "g", vec![arg], 0)
}

/// `f(x) = g(g(...g(x)))`, `n` loads deep.
fn nested_loads(n: usize) -> Stmt {
    let mut e = var("f.s0.x");
    for _ in 0..n {
        e = g(e);
    }
    pipeline(e)
}

/// Instruments `s`, checks the hierarchy of the result and returns its distinct node
/// count.
fn trace_and_check(s: &Stmt) -> usize {
    let out = inject_tracing(s, &env()).expect("instruments");
    check_trace_hierarchy(&out).expect("hierarchy holds");
    distinct_expr_nodes(&out)
}

/// Issue 19, item 3: each level of `g(g(...))` doubles the output's text; the pass, the
/// boxes-touched analysis it calls and the checker must still take linear time.
#[test]
fn nested_loads_are_linear() {
    // First the output's size at small depths, so that a pass that stopped sharing fails
    // here rather than filling the memory at the large depth.
    let [small, large] = [10, 20].map(|n| trace_and_check(&nested_loads(n)));
    // Each level adds a load, its event and a let: a fixed number of nodes.
    let per_level = (large - small) / 10;
    assert!((5..=50).contains(&per_level), "{small} nodes at 10 levels, {large} at 20");
    let deep = within(120, "tracing 2,000 nested loads", || trace_and_check(&nested_loads(2_000)));
    assert_eq!(deep - large, (2_000 - 20) * per_level, "{large} nodes at 20 levels, {deep} at 2,000");
}

/// A DAG input: `e_{k+1} = e_k + e_k` over a load of `g`, printed size 2^k. Every shared
/// node is rewritten once per trace scope, and the temporary scan and the checker visit it
/// once.
#[test]
fn shared_input_nodes_are_rewritten_once() {
    fn doubling(levels: usize) -> Stmt {
        let mut e = g(var("f.s0.x"));
        for _ in 0..levels {
            e = Expr::add(e.clone(), e).expect("int32 add");
        }
        pipeline(e)
    }
    let run = |levels: usize| {
        let s = doubling(levels);
        assert_eq!(loopir::pipeline::first_unused_temp(&s), 0);
        (distinct_expr_nodes(&s), trace_and_check(&s))
    };
    // Small depths first: a pass that rewrote each path separately would make 2^16
    // nodes here rather than 2^200 below.
    let [(in_small, out_small), (in_large, out_large)] = [8, 16].map(run);
    // The 8 more levels of the input are 8 more nodes, each rewritten once.
    assert_eq!(in_large - in_small, 8);
    assert_eq!(out_large - out_small, 8, "{out_small} nodes out at 8 levels, {out_large} at 16");
    let (in_deep, out_deep) = within(120, "tracing a 200-level DAG", move || run(200));
    assert_eq!(out_deep - in_deep, out_large - in_large);
}
