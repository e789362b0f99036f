//! Reading and checking trace environments (issue 19, items 5 and 8): unknown fields,
//! another pass's environment, counts the IR contradicts and settings that cannot take
//! effect are errors naming the field and the IR node; the `t` counter continues from the
//! environment's `fresh_names.t`.

use loopir::{Stmt, parse_stmt_with_env, stmt_to_string};
use loopir_profiling::tracing::{TraceEnv, TracingError, inject_tracing};

/// A two-stage pipeline: `g` realized and loaded by the output `f`.
const STMT: &str = "\
realize g([g.x.min_realized, g.x.extent_realized]) {
  produce g {
   for (g.s0.x, g.s0.x.min, g.s0.x.max) {
    g(g.s0.x) = g.s0.x*3
   }
  }
  consume g {
   produce f {
    for (f.s0.x, f.s0.x.min, f.s0.x.max) {
     f(f.s0.x) = g(f.s0.x) + g(f.s0.x + 1)
    }
   }
  }
}
";

/// The env of [`STMT`] as JSON, with `edit` applied to the text first (a plain
/// substring replacement, which must match).
fn env_json(edit: (&str, &str)) -> String {
    let text = r#"{"pipeline": "f",
 "funcs": [{"name": "g", "args": ["x"], "types": ["int32"], "trace_loads": true},
           {"name": "f", "args": ["x"], "types": ["int32"], "trace_stores": true}],
 "outputs": [{"name": "f", "buffer": "f", "dimensions": 1, "types": ["int32"]}],
 "order": ["g", "f"]}"#;
    assert!(text.contains(edit.0), "the edit `{}` does not apply", edit.0);
    text.replacen(edit.0, edit.1, 1)
}

fn env(edit: (&str, &str)) -> TraceEnv {
    TraceEnv::from_json(&env_json(edit)).unwrap_or_else(|e| panic!("reads: {e}"))
}

const NO_EDIT: (&str, &str) = ("", "");

fn parse(text: &str, env: &TraceEnv) -> Stmt {
    parse_stmt_with_env(text, &env.parse_env()).expect("parses")
}

fn trace(text: &str, env: &TraceEnv) -> Result<Stmt, TracingError> {
    inject_tracing(&parse(text, env), env)
}

/// The field and problem of an `InvalidEnv`, or of an `EnvMismatch` with its node.
fn env_error(e: TracingError) -> (String, String, Option<String>) {
    assert!(e.is_env_error(), "{e}");
    match e {
        TracingError::InvalidEnv { field, problem } => (field, problem, None),
        TracingError::EnvMismatch { field, problem, node } => (field, problem, node),
        other => panic!("not an environment error: {other}"),
    }
}

#[test]
fn the_unedited_env_fits() {
    let out = trace(STMT, &env(NO_EDIT)).expect("instruments");
    assert!(stmt_to_string(&out).contains("let t0 = g(f.s0.x)"));
}

#[test]
fn a_misspelt_field_is_an_error_naming_it() {
    for (edit, field, path) in [
        ((r#""trace_loads": true"#, r#""trace_load": true"#), "trace_load", "funcs[0].trace_load"),
        (
            (r#""pipeline": "f","#, r#""pipeline": "f", "trace_pipline": true,"#),
            "trace_pipline",
            "trace_pipline",
        ),
        ((r#""dimensions": 1"#, r#""dimension": 1"#), "dimension", "outputs[0].dimension"),
        ((r#""order""#, r#""target": {"trace_all": true}, "order""#), "trace_all", "target.trace_all"),
        ((r#""order""#, r#""fresh_names": {"u": 3}, "order""#), "u", "fresh_names.u"),
    ] {
        let err = TraceEnv::from_json(&env_json(edit)).expect_err("an unknown field");
        let text = err.to_string();
        assert!(matches!(err, TracingError::EnvJson(_)), "{text}");
        assert!(text.contains(&format!("unknown field `{field}`")) && text.contains("line "), "{text}");
        assert!(text.contains(&format!("{path}: unknown field")), "{text}");
    }
}

#[test]
fn another_pass_s_env_is_named() {
    let profile = r#"{"pipeline": "f", "funcs": [{"name": "g", "display_name": "g (input)"}]}"#;
    let err = TraceEnv::from_json(profile).expect_err("a profile env").to_string();
    assert!(err.contains("unknown field `display_name`"), "{err}");
    assert!(err.contains("looks like a profiling environment (profile.env.json)"), "{err}");
    let bounds = r#"{"order": ["f"], "target": {"profile": false}, "outputs": [{"func": "f", "buffer": "f"}],
                     "funcs": {"f": {"types": ["int32"], "args": ["x"]}}}"#;
    let err = TraceEnv::from_json(bounds).expect_err("a bounds env").to_string();
    assert!(err.contains("looks like a bounds environment (bounds.env.json)"), "{err}");
}

/// Item 5: `"dimensions": 100000000` made the pass build a realization of 10^8
/// dimensions (9.8 GB at 60 s); 2^40 fails to allocate; 0 was accepted and changed the
/// output.
#[test]
fn an_output_s_dimensions_must_match_its_func() {
    for dims in ["1099511627776", "100000000", "0", "2"] {
        let err = TraceEnv::from_json(&env_json((r#""dimensions": 1"#, &format!(r#""dimensions": {dims}"#))))
            .map(|e| trace(STMT, &e))
            .expect("reads")
            .expect_err("dimensions that disagree");
        let (field, problem, _) = env_error(err);
        assert_eq!(field, "outputs[0].dimensions");
        assert!(problem.contains(&format!("{dims} dimension(s)")) && problem.contains("1 pure argument(s)"));
    }
}

#[test]
fn a_func_s_args_must_match_the_ir() {
    // Longer than the Func's dimensions in the IR, output and Func agreeing.
    let e = env((
        r#""args": ["x"], "types": ["int32"], "trace_loads""#,
        r#""args": ["x", "y"], "types": ["int32"], "trace_loads""#,
    ));
    let (field, problem, node) = env_error(trace(STMT, &e).expect_err("g has one dimension"));
    assert_eq!(field, "funcs[0].args");
    assert!(
        problem.contains("Func `g` has 2 pure argument(s)") && problem.contains("its realization has 1"),
        "{problem}"
    );
    assert_eq!(node.as_deref(), Some("realize g([g.x.min_realized, g.x.extent_realized]) {"));
    // Shorter: the store says so.
    let e = env((
        r#""args": ["x"], "types": ["int32"], "trace_stores": true}],
 "outputs": [{"name": "f", "buffer": "f", "dimensions": 1"#,
        r#""args": [], "types": ["int32"], "trace_stores": true}],
 "outputs": [{"name": "f", "buffer": "f", "dimensions": 0"#,
    ));
    let (field, _, node) = env_error(trace(STMT, &e).expect_err("f has one dimension"));
    assert_eq!(field, "funcs[1].args");
    assert_eq!(node.as_deref(), Some("f(f.s0.x) = g(f.s0.x) + g(f.s0.x + 1)"));
}

#[test]
fn value_counts_and_types_must_match_the_ir() {
    // A call of value 3 of a one-value Func made the pass record 4 tuple elements (and
    // with `[4000000000]`, 4 billion of them).
    let text = STMT.replace("g(f.s0.x) + g(f.s0.x + 1)", "g(f.s0.x)[3]");
    let (field, problem, node) = env_error(trace(&text, &env(NO_EDIT)).expect_err("g has one value"));
    assert_eq!(field, "funcs[0].types");
    assert!(problem.contains("has 1 value(s), but this call reads value 3"), "{problem}");
    assert_eq!(node.as_deref(), Some("g(f.s0.x)"));
    // Two value types against a one-value realization.
    let e = env((r#""types": ["int32"], "trace_loads""#, r#""types": ["int32", "int32"], "trace_loads""#));
    let (field, problem, _) = env_error(trace(STMT, &e).expect_err("g has one value"));
    assert_eq!(field, "funcs[0].types");
    assert!(problem.contains("[int32, int32], but its realization has [int32]"), "{problem}");
}

#[test]
fn a_func_of_the_ir_must_be_in_the_env() {
    // A misspelt name: the IR's `g` is described by no entry.
    let e = env((r#"{"name": "g""#, r#"{"name": "gg""#));
    let err = TraceEnv::from_json(&env_json((r#"{"name": "g""#, r#"{"name": "gg""#)))
        .map(|e| e.check_against(&parse(STMT, &e)))
        .expect("reads")
        .expect_err("g is not described");
    let (field, problem, node) = env_error(err);
    assert_eq!(field, "order[0]");
    assert!(problem.contains("`g` is not a Func of `funcs`"), "{problem}");
    assert_eq!(node, None);
    let e = TraceEnv { order: vec!["gg".into(), "f".into()], ..e.clone() };
    let (field, problem, node) =
        env_error(e.check_against(&parse(STMT, &e)).expect_err("g is not described"));
    assert_eq!(field, "funcs");
    assert!(problem.contains("Func `g`, which is not a Func of `funcs`"), "{problem}");
    assert_eq!(node.as_deref(), Some("realize g([g.x.min_realized, g.x.extent_realized]) {"));
}

#[test]
fn a_switch_for_a_func_the_ir_never_mentions_is_an_error() {
    let e = env((
        r#"{"name": "f", "args""#,
        r#"{"name": "h", "args": ["x"], "types": ["int32"], "trace_realizations": true}, {"name": "f", "args""#,
    ));
    let (field, problem, _) = env_error(trace(STMT, &e).expect_err("h does not occur"));
    assert_eq!(field, "funcs[1].trace_realizations");
    assert!(problem.contains("Func `h` does not occur in the statement"), "{problem}");
    // Without a switch (an inlined Func with tags, as in the oracle), it is accepted.
    let e = env((
        r#"{"name": "f", "args""#,
        r#"{"name": "h", "args": ["x"], "types": ["int32"], "tags": ["a"]}, {"name": "f", "args""#,
    ));
    trace(STMT, &e).expect("an inlined Func is fine");
}

#[test]
fn outputs_and_order_are_checked() {
    let cases = [
        ((r#""outputs": [{"name": "f""#, r#""outputs": [{"name": "g""#), "outputs[0].name", "realizes it"),
        (
            (r#""outputs": [{"name": "f""#, r#""outputs": [{"name": "e""#),
            "outputs[0].name",
            "not a Func of `funcs`",
        ),
        (
            (r#""dimensions": 1, "types": ["int32"]"#, r#""dimensions": 1, "types": ["float32"]"#),
            "outputs[0].types",
            "has [int32]",
        ),
        (
            (r#""order": ["g", "f"]"#, r#""order": ["g", "f", "g"]"#),
            "order[2]",
            "listed twice (also as order[0])",
        ),
        (
            (r#""order": ["g", "f"]"#, r#""order": ["g", "f"], "fresh_names": {"t": 4294967296}"#),
            "fresh_names.t",
            "out of range",
        ),
    ];
    for (edit, want_field, want_problem) in cases {
        let (field, problem, _) = env_error(trace(STMT, &env(edit)).expect_err(want_field));
        assert_eq!(field, want_field);
        assert!(problem.contains(want_problem), "{field}: {problem}");
    }
    // An output the statement never produces.
    let text = "realize g([0, 10]) {\n  produce g {\n   g(0) = 1\n  }\n}\n";
    let (field, problem, _) = env_error(trace(text, &env(NO_EDIT)).expect_err("f does not occur"));
    assert_eq!(field, "outputs[0].name");
    assert!(problem.contains("does not occur"), "{problem}");
}

#[test]
fn images_are_checked() {
    let with_image = |image: &str| env((r#""order""#, &format!(r#""images": [{image}], "order""#)));
    let unused = with_image(r#"{"name": "input", "is_param": true, "trace_loads": true, "type": "uint8"}"#);
    let (field, _, _) = env_error(trace(STMT, &unused).expect_err("input is never loaded"));
    assert_eq!(field, "images[0].trace_loads");
    let text = STMT.replace("g(f.s0.x + 1)", "int32((uint8)input(f.s0.x))");
    let e = with_image(r#"{"name": "input", "is_param": true, "trace_loads": true, "type": "uint8"}"#);
    let out = trace(&text, &e).expect("input is loaded");
    assert!(stmt_to_string(&out).contains("halide_trace_helper(\"input\""));
    let clash = with_image(r#"{"name": "g", "type": "uint8"}"#);
    let (field, problem, _) = env_error(trace(STMT, &clash).expect_err("g is a Func"));
    assert_eq!(field, "images[0].name");
    assert!(problem.contains("both as an image and as a Func"), "{problem}");
}

/// The reference's `t` counter is process-wide: when it stood at 7 before tracing, its
/// temporaries start at t7 where ours started at t0.
#[test]
fn fresh_names_t_continues_the_reference_s_counter() {
    let counted = env((r#""order": ["g", "f"]"#, r#""order": ["g", "f"], "fresh_names": {"t": 7}"#));
    assert_eq!(counted.fresh_names.t, Some(7));
    let printed = stmt_to_string(&trace(STMT, &counted).expect("instruments"));
    assert!(printed.contains("let t7 = g(f.s0.x)") && printed.contains("let t9 = "), "{printed}");
    assert!(!printed.contains("t0"), "{printed}");
    // An input name above the counter wins: a temporary must not capture it.
    let text = format!("let t11 = 2\n{STMT}");
    let printed = stmt_to_string(&trace(&text, &counted).expect("instruments"));
    assert!(printed.contains("let t12 = g(f.s0.x)"), "{printed}");
    // The counter survives a round trip and is left out when unset.
    assert_eq!(TraceEnv::from_json(&counted.to_json()).expect("reads"), counted);
    assert!(!env(NO_EDIT).to_json().contains("fresh_names"));
    assert_eq!(TraceEnv::new("f").with_fresh_t(3).fresh_names.t, Some(3));
}
