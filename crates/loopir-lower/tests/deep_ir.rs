//! Storage flattening on deep and long IR: 100,000 nested loops, 100,000 nested
//! realizations, a 100,000-deep expression and a million statements, on a test thread's
//! default stack, each in time proportional to its size; the GPU passes on 100,000 loops
//! nested in a GPU kernel; the host-device copies of a buffer used on both sides inside
//! 100,000 nested host loops.

use std::time::Instant;

use loopir::visit::Visitor;
use loopir::{DeviceApi, Expr, ExprKind, ForType, MemoryType, MinExtent, MinMax, Stmt, StmtKind, Type, make};
use loopir_lower::{
    FlattenEnv, FlattenFunc, canonicalize_gpu_vars, inject_host_dev_buffer_copies, select_gpu_api,
    storage_flattening,
};

fn env() -> FlattenEnv {
    let mut env = FlattenEnv::default();
    for f in ["f", "out"] {
        env.funcs.insert(
            f.into(),
            FlattenFunc { args: vec!["x".into()], types: vec![Type::INT32], ..Default::default() },
        );
    }
    env.outputs.insert("out".into());
    env
}

fn call(f: &str, x: Expr) -> Expr {
    Expr::call_func(Type::INT32, f, vec![x], 0)
}

fn provide(f: &str, x: Expr, v: Expr) -> Stmt {
    Stmt::provide(f, vec![v], vec![x], Expr::const_true()).expect("a provide")
}

fn realize(body: Stmt) -> Stmt {
    Stmt::realize(
        "f",
        vec![Type::INT32],
        MemoryType::Auto,
        vec![MinExtent::new(Expr::i32(0), Expr::i32(4))],
        Expr::const_true(),
        body,
    )
    .expect("a realize")
}

/// `body` inside `n` serial loops over `[0, 1]`, `l0` the innermost.
fn in_serial_loops(body: Stmt, n: usize) -> Stmt {
    (0..n).fold(body, |s, i| {
        Stmt::for_loop(
            format!("l{i}"),
            MinMax::new(Expr::i32(0), Expr::i32(1)),
            ForType::Serial,
            DeviceApi::None,
            s,
        )
        .expect("a loop")
    })
}

/// `v + v + ... + v` with `n` additions, nested on the left.
fn deep_sum(v: &Expr, n: usize) -> Expr {
    (0..n).fold(v.clone(), |sum, _| make::add(sum, v.clone()))
}

#[derive(Default)]
struct Counts {
    loads: usize,
    stores: usize,
    allocations: usize,
    /// Calls to Funcs left.
    calls: usize,
    first_let: Option<String>,
    /// The name of the first shape met, the outermost's.
    outer_shape: Option<String>,
}

impl Visitor for Counts {
    fn visit_expr(&mut self, e: &Expr) {
        match e.kind() {
            ExprKind::Load { .. } => self.loads += 1,
            ExprKind::Call { call_type: loopir::CallType::Halide, .. } => self.calls += 1,
            ExprKind::Let { name, .. } if self.outer_shape.is_none() => {
                self.outer_shape = Some(name.to_string())
            }
            _ => {}
        }
        self.super_expr(e)
    }
    fn visit_stmt(&mut self, s: &Stmt) {
        match s.kind() {
            StmtKind::Store { .. } => self.stores += 1,
            StmtKind::Allocate { .. } => self.allocations += 1,
            StmtKind::LetStmt { name, value, .. } if self.first_let.is_none() => {
                self.first_let = Some(format!("let {name} = {value}\n"))
            }
            _ => {}
        }
        self.super_stmt(s)
    }
}

fn count(s: &Stmt) -> Counts {
    let mut c = Counts::default();
    c.visit_stmt(s);
    c
}

fn flatten(s: &Stmt) -> Stmt {
    let t = Instant::now();
    let out = storage_flattening(&loopir_simplify::Ctx::new(), s, &env()).expect("flattens");
    println!("storage_flattening: {:?}", t.elapsed());
    out
}

#[test]
fn a_hundred_thousand_nested_loops_around_a_deep_expression() {
    let x = Expr::var_i32("x");
    let mut value = call("f", x.clone());
    for _ in 0..100_000 {
        value = make::add(value, call("f", Expr::i32(1)));
    }
    let s = in_serial_loops(
        realize(Stmt::block(vec![provide("f", x.clone(), Expr::i32(1)), provide("out", x.clone(), value)])),
        100_000,
    );
    let out = flatten(&s);
    // (Printed, the nest would be indented by 10^10 spaces in all.)
    let counts = count(&out);
    assert_eq!((counts.loads, counts.stores, counts.allocations, counts.calls), (100_001, 2, 1, 0));
}

#[test]
fn a_hundred_thousand_nested_realizations() {
    let x = Expr::var_i32("x");
    let mut s = provide("out", x.clone(), call("f", x.clone()));
    for _ in 0..100_000 {
        s = realize(s);
    }
    let out = flatten(&s);
    let counts = count(&out);
    assert_eq!((counts.loads, counts.stores, counts.allocations, counts.calls), (1, 1, 100_000, 0));
    // Shapes are named innermost first: the outermost is the last drawn.
    assert!(counts.first_let.as_deref().is_some_and(|l| l.starts_with("let f.extent.0 = 4\n")));
    assert_eq!(counts.outer_shape.as_deref(), Some("t99999"));
}

#[test]
fn a_million_statements() {
    let x = Expr::var_i32("x");
    let stmts: Vec<Stmt> =
        (0..1_000_000).map(|i| provide("f", Expr::i32(i % 4), call("f", x.clone()))).collect();
    let out = flatten(&realize(Stmt::block(stmts)));
    let text = out.to_string();
    assert_eq!(text.matches("] = f[0 + ((x - f.min.0)*f.stride.0)]\n").count(), 1_000_000);
}

#[test]
fn the_gpu_passes_on_a_hundred_thousand_loops_in_a_kernel() {
    // gpu_block (b) { gpu_thread (t) { 100,000 serial loops { f[t] = b + b + ... } } }, the
    // sum 100,000 deep.
    let (b, t) = (Expr::var_i32("b"), Expr::var_i32("t"));
    let store = Stmt::store("f", deep_sum(&b, 100_000), t.clone(), Expr::const_true(), Default::default())
        .expect("a store");
    let mut s = in_serial_loops(store, 100_000);
    for (name, for_type) in [("t", ForType::GpuThread), ("b", ForType::GpuBlock)] {
        s = Stmt::for_loop(name, MinMax::new(Expr::i32(0), Expr::i32(7)), for_type, DeviceApi::DefaultGpu, s)
            .expect("a GPU loop");
    }
    let clock = Instant::now();
    let named = canonicalize_gpu_vars(&s).expect("a valid GPU schedule");
    let on_cuda = select_gpu_api(&named, DeviceApi::Cuda).expect("CUDA is a device API");
    println!("canonicalize_gpu_vars and select_gpu_api: {:?}", clock.elapsed());

    #[derive(Default)]
    struct Uses {
        gpu_loops: Vec<String>,
        block_uses: usize,
        old_uses: usize,
    }
    impl Visitor for Uses {
        fn visit_expr(&mut self, e: &Expr) {
            match e.kind() {
                ExprKind::Variable(v) if v.as_ref() == "b.block_id_x" => self.block_uses += 1,
                ExprKind::Variable(v) if v.as_ref() == "b" || v.as_ref() == "t" => self.old_uses += 1,
                _ => {}
            }
            self.super_expr(e)
        }
        fn visit_stmt(&mut self, s: &Stmt) {
            if let StmtKind::For { name, device_api: DeviceApi::Cuda, .. } = s.kind() {
                self.gpu_loops.push(name.to_string());
            }
            self.super_stmt(s)
        }
    }
    let mut uses = Uses::default();
    uses.visit_stmt(&on_cuda);
    assert_eq!(uses.gpu_loops, ["b.block_id_x", "t.thread_id_x"]);
    assert_eq!((uses.block_uses, uses.old_uses), (100_001, 0));
}

#[test]
fn host_dev_buffer_copies_through_a_hundred_thousand_host_loops() {
    // allocate f { let f.buffer = make(f) in produce out { 100,000 serial loops {
    //   gpu_block<CUDA> (b) { f[b] = b + b + ... }  out[0] = f[0] } } }, the sum 100,000 deep.
    let b = Expr::var_i32("b");
    let store = Stmt::store("f", deep_sum(&b, 100_000), b.clone(), Expr::const_true(), Default::default())
        .expect("a store");
    let kernel = Stmt::for_loop(
        "b",
        MinMax::new(Expr::i32(0), Expr::i32(7)),
        ForType::GpuBlock,
        DeviceApi::Cuda,
        store,
    )
    .expect("a GPU loop");
    let read =
        Expr::load(Type::INT32, "f", Expr::i32(0), Expr::const_true(), Default::default()).expect("a load");
    let host =
        Stmt::store("out", read, Expr::i32(0), Expr::const_true(), Default::default()).expect("a store");
    let mut s = in_serial_loops(Stmt::block(vec![kernel, host]), 100_000);
    let make_buffer = Expr::call(
        Type::buffer_ptr(),
        "make_buffer",
        vec![Expr::var(Type::void_ptr(), "f")],
        loopir::CallType::Extern,
    );
    s = Stmt::let_stmt("f.buffer", make_buffer, Stmt::produce("out", s));
    s = Stmt::allocate("f", Type::INT32, MemoryType::Auto, vec![Expr::i32(8)], Expr::const_true(), s)
        .expect("an allocation");

    let clock = Instant::now();
    let out = inject_host_dev_buffer_copies(&s, &mut loopir::pipeline::NameGen::new()).expect("the copies");
    println!("inject_host_dev_buffer_copies: {:?}", clock.elapsed());

    #[derive(Default)]
    struct Calls(std::collections::BTreeMap<String, usize>);
    impl Visitor for Calls {
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Call { name, call_type: loopir::CallType::Extern, .. } = e.kind() {
                *self.0.entry(name.to_string()).or_default() += 1;
            }
            self.super_expr(e)
        }
    }
    let mut calls = Calls::default();
    calls.visit_stmt(&out);
    let count = |n: &str| calls.0.get(n).copied().unwrap_or(0);
    // f: a combined allocation, copied to the device before the kernel (nothing is known
    // inside a loop that uses it on both sides) and back before the host reads it, freed
    // after the outermost loop. out: copied to the host before the outermost loop (an
    // output's state is unknown), marked host-dirty after it.
    assert_eq!(
        [
            "halide_device_and_host_malloc",
            "halide_device_and_host_free",
            "halide_copy_to_device",
            "halide_copy_to_host",
            "_halide_buffer_set_device_dirty",
            "_halide_buffer_set_host_dirty",
        ]
        .map(count),
        [1, 1, 1, 2, 1, 1],
        "{:?}",
        calls.0
    );
}
