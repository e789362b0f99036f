//! Typed errors of the tracing pass: each names the offending node, Func or image, and
//! none of them is a panic.

use loopir::{CallType, Expr, Stmt, Type, parse_stmt_with_env};
use loopir_profiling::tracing::{
    FuncTracing, ImageTracing, OutputTracing, RecordedBoxes, TargetTracing, TouchedBox, TouchedInterval,
    TraceEnv, TraceOptions, TracingError, inject_tracing_with,
};

fn f_env() -> TraceEnv {
    TraceEnv::new("f")
        .with_func(FuncTracing::new("f", &["x"], vec![Type::INT32]).trace_stores())
        .with_output(OutputTracing::new("f", 1, vec![Type::INT32]))
}

fn body() -> &'static str {
    "for (f.s0.x, 0, 9) {\n f(f.s0.x) = f.s0.x\n}\n"
}

fn f_box() -> RecordedBoxes {
    RecordedBoxes::new()
        .with("f", TouchedBox { dims: vec![TouchedInterval::bounded(Expr::i32(0), Expr::i32(9))] })
}

fn run(s: &Stmt, env: &TraceEnv, boxes: &RecordedBoxes) -> Result<Stmt, TracingError> {
    inject_tracing_with(s, env, &TraceOptions { boxes, ..TraceOptions::default() })
}

#[test]
fn unknown_func_names_the_call() {
    let env = f_env();
    let call = Expr::call_func(Type::INT32, "g", vec![Expr::var_i32("f.s0.x")], 0);
    let s = Stmt::provide("f", vec![call], vec![Expr::var_i32("f.s0.x")], Expr::const_true()).expect("valid");
    let err = run(&s, &env, &f_box()).expect_err("g is unknown");
    assert!(matches!(&err, TracingError::UnknownFunc { name, .. } if name == "g"), "{err}");
    assert!(err.to_string().contains("`g(f.s0.x)`"), "{err}");
}

#[test]
fn unknown_image_names_the_load() {
    let env = f_env().with_target(TargetTracing::trace_all());
    let load = Expr::call(Type::uint(8, 1), "img", vec![Expr::var_i32("f.s0.x")], CallType::Image);
    let value = Expr::cast(Type::INT32, load).expect("valid cast");
    let s =
        Stmt::provide("f", vec![value], vec![Expr::var_i32("f.s0.x")], Expr::const_true()).expect("valid");
    let err = run(&s, &env, &f_box()).expect_err("img is unknown");
    assert!(matches!(&err, TracingError::UnknownImage { name, .. } if name == "img"), "{err}");
    assert!(err.to_string().contains("(uint8)img(f.s0.x)"), "{err}");
}

#[test]
fn nul_in_a_tag_is_reported() {
    let env = TraceEnv::new("f")
        .with_func(FuncTracing::new("f", &["x"], vec![Type::INT32]).trace_realizations().tag("bad\0tag"))
        .with_output(OutputTracing::new("f", 1, vec![Type::INT32]));
    let s = parse_stmt_with_env(body(), &env.parse_env()).expect("parses");
    let err = run(&s, &env, &f_box()).expect_err("NUL");
    assert!(matches!(&err, TracingError::NulInTag { name, .. } if name == "f"), "{err}");
}

#[test]
fn a_missing_box_is_reported() {
    let env = f_env();
    let s = parse_stmt_with_env(body(), &env.parse_env()).expect("parses");
    let err = run(&s, &env, &RecordedBoxes::new()).expect_err("no box");
    assert_eq!(err, TracingError::MissingBox { name: "f".into() });
}

#[test]
fn the_default_analysis_gives_the_box() {
    let env = f_env();
    let s = parse_stmt_with_env(body(), &env.parse_env()).expect("parses");
    let out = loopir_profiling::inject_tracing(&s, &env).expect("instruments");
    assert!(out.to_string().contains("\" \", 1, \" \", 0, \" \", (9 - 0) + 1))"), "{out}");
}

#[test]
fn a_tuple_hole_conflict_names_the_access() {
    let env = TraceEnv::new("g")
        .with_func(FuncTracing::new("f", &["x"], vec![Type::INT32, Type::INT32]).trace_loads())
        .with_func(FuncTracing::new("g", &["x"], vec![Type::INT32]))
        .with_output(OutputTracing::new("g", 1, vec![Type::INT32]));
    let s = parse_stmt_with_env("g(g.s0.x) = f(g.s0.x)[1] + f(g.s0.x)\n", &env.parse_env()).expect("parses");
    let err = run(&s, &env, &RecordedBoxes::new()).expect_err("hole");
    assert!(matches!(&err, TracingError::TypeConflict { name, value_index: 0, .. } if name == "f"), "{err}");
}

#[test]
fn bad_environments_are_rejected() {
    assert!(matches!(TraceEnv::from_json("{"), Err(TracingError::EnvJson(_))));
    assert!(matches!(TraceEnv::from_json(r#"{"pipeline": 3}"#), Err(TracingError::EnvJson(_))));
    let dup = TraceEnv::new("p")
        .with_image(ImageTracing::param("i", Type::INT32))
        .with_image(ImageTracing::embedded("i", Type::INT32));
    let s = Stmt::evaluate(Expr::i32(0));
    let err = run(&s, &dup, &RecordedBoxes::new()).expect_err("duplicate");
    assert!(
        matches!(&err, TracingError::InvalidEnv { field, problem } if field == "images[1].name" && problem.contains("`i`")),
        "{err}"
    );
}
