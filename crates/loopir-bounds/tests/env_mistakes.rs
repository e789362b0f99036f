//! Every mistake of a bounds env that used to give wrong IR with exit 0 is an error naming
//! the field and, where there is one, the IR node (#19 item 8, #21).

use loopir::parse_stmt_with_env;
use loopir_bounds::env::BoundsEnv;
use loopir_bounds::error::BoundsError;

/// `f` (2-D) consumed by output `g`.
const STMT: &str = "realize f([f.x.min_realized, f.x.extent_realized], [f.y.min_realized, f.y.extent_realized]) {\n  produce f {\n   f(f.s0.x, f.s0.y) = 1\n  }\n  consume f {\n   produce g {\n    g(g.s0.x) = f(g.s0.x, 0)\n   }\n  }\n}\n";

fn env(order: &str, outputs: &str, f_args: &str) -> String {
    format!(
        r#"{{"order": {order}, "target": {{"profile": false}}, "outputs": {outputs},
            "funcs": {{"f": {{"types": ["int32"], "args": {f_args}}}, "g": {{"types": ["int32"], "args": ["x"]}}}}}}"#
    )
}

const GOOD_OUTPUTS: &str = r#"[{"func": "g", "buffer": "g"}]"#;

fn run(text: &str) -> Result<loopir::Stmt, BoundsError> {
    let env = BoundsEnv::from_json(text)?;
    let s = parse_stmt_with_env(STMT, &env.parse_env()).expect("parses");
    let ctx = loopir_simplify::Ctx::new();
    loopir_bounds::compute_bounds::computation_bounds_inference(&ctx, &s, &env)
}

fn error(text: &str) -> String {
    match run(text) {
        Ok(s) => panic!("accepted:\n{s}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn the_good_env_passes() {
    assert!(run(&env(r#"["f", "g"]"#, GOOD_OUTPUTS, r#"["x", "y"]"#)).is_ok());
}

#[test]
fn an_empty_order_is_an_error() {
    let e = error(&env("[]", GOOD_OUTPUTS, r#"["x", "y"]"#));
    assert!(
        e.contains("order: is empty, but the statement produces `f`") && e.contains("(at `produce f`)"),
        "{e}"
    );
}

#[test]
fn an_order_missing_a_produced_func_is_an_error() {
    let e = error(&env(r#"["g"]"#, GOOD_OUTPUTS, r#"["x", "y"]"#));
    assert!(e.contains("order: does not list `f`"), "{e}");
}

#[test]
fn duplicate_order_entries_are_an_error() {
    let e = error(&env(r#"["f", "g", "f"]"#, GOOD_OUTPUTS, r#"["x", "y"]"#));
    assert!(e.contains("order[2]: `f` is listed twice (also as order[0])"), "{e}");
}

#[test]
fn duplicate_keys_in_funcs_are_an_error() {
    let text = r#"{"order": ["f"], "target": {"profile": false}, "outputs": [],
        "funcs": {"f": {"types": ["int32"]}, "f": {"types": ["float32"]}}}"#;
    let e = BoundsEnv::from_json(text).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("Func `f` is described twice in `funcs`"), "{e}");
}

#[test]
fn missing_outputs_are_an_error() {
    let e = error(&env(r#"["f", "g"]"#, "[]", r#"["x", "y"]"#));
    assert!(e.contains("outputs: do not list `g`") && e.contains("(at `produce g`)"), "{e}");
}

#[test]
fn too_few_args_for_a_func_are_an_error() {
    let e = error(&env(r#"["f", "g"]"#, GOOD_OUTPUTS, r#"["x"]"#));
    assert!(
        e.contains("funcs[0].args: Func `f` has 1 pure argument(s)") && e.contains("2 dimension(s)"),
        "{e}"
    );
}

#[test]
fn the_default_env_is_an_error() {
    let s = parse_stmt_with_env(STMT, &loopir::ParseEnv::new()).expect("parses");
    let e = BoundsEnv::default().check_against(&s).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("order: is empty"), "{e}");
}

#[test]
fn types_that_disagree_with_the_ir_are_an_error() {
    let text = env(r#"["f", "g"]"#, GOOD_OUTPUTS, r#"["x", "y"]"#).replacen(
        r#""types": ["int32"], "args": ["x", "y"]"#,
        r#""types": ["float32"], "args": ["x", "y"]"#,
        1,
    );
    let env = BoundsEnv::from_json(&text).expect("reads");
    // Parsed with the right types, checked against the wrong ones.
    let s = parse_stmt_with_env(STMT, &loopir::ParseEnv::new().with_func("f", vec![loopir::Type::INT32]))
        .expect("parses");
    let e = env.check_against(&s).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(e.contains("funcs[0].types: Func `f` has types [float32]"), "{e}");
}

#[test]
fn the_bounds_passes_refuse_flattened_ir() {
    let env = BoundsEnv::from_json(&env(r#"["f", "g"]"#, GOOD_OUTPUTS, r#"["x", "y"]"#)).expect("reads");
    let flat = loopir::parse_stmt("allocate f[int32 * 4]\nf[0] = 1\nfree f\n").expect("parses");
    let ctx = loopir_simplify::Ctx::new();
    let e = loopir_bounds::compute_bounds::computation_bounds_inference(&ctx, &flat, &env)
        .err()
        .map(|e| e.to_string());
    assert!(
        e.as_deref().is_some_and(|e| e.contains("expects the schedule stage") && e.contains("allocate f")),
        "{e:?}"
    );
    let fb = loopir_bounds::FuncValueBounds::default();
    let e = loopir_bounds::allocation_bounds::allocation_bounds_inference(&flat, &env, &fb, 0)
        .err()
        .map(|e| e.to_string());
    assert!(e.as_deref().is_some_and(|e| e.contains("but got storage-flattened IR")), "{e:?}");
}

#[test]
fn a_malformed_nested_field_is_named_by_its_path() {
    let read = |text: &str| BoundsEnv::from_json(text).err().map(|e| e.to_string()).unwrap_or_default();
    let e = read(&env(r#"["f", "g"]"#, r#"[{"func": "g", "buffer": "g", "bogus": 1}]"#, r#"["x", "y"]"#));
    assert!(e.starts_with("bounds env: outputs[0].bogus: unknown field `bogus`"), "{e}");
    let e = read(&env(r#"["f", "g"]"#, GOOD_OUTPUTS, r#"["x", 2]"#));
    assert!(e.starts_with("bounds env: funcs.f.args[1]: invalid type"), "{e}");
}
