//! Reading and checking profiling environments (issue 19, item 8): unknown fields and
//! another pass's environment are reading errors naming the field; an environment the
//! statement contradicts is refused by the pass, at every level, naming the field and the
//! node.

use loopir_profiling::{EnvError, FuncEnv, ProfileOptions, ProfilingError, inject_profiling};

const STMT: &str = "\
produce f {
 allocate g[float32 * 4]
 produce g {
  g[0] = 1.000000f
 }
 consume g {
  f[0] = g[0]
 }
 free g
}
";

fn stmt() -> loopir::Stmt {
    loopir::parse_stmt(STMT).expect("parses")
}

fn profile(env: &str, options: ProfileOptions) -> Result<String, ProfilingError> {
    let env = FuncEnv::from_json(env).unwrap_or_else(|e| panic!("reads: {e}"));
    inject_profiling(&stmt(), "pipe", &env, &options).map(|p| p.stmt.to_string())
}

fn mismatch(e: ProfilingError) -> (String, String, Option<String>) {
    match e {
        ProfilingError::EnvMismatch { field, problem, node } => (field, problem, node),
        other => panic!("not an environment mismatch: {other}"),
    }
}

#[test]
fn a_fitting_env_is_accepted() {
    let out =
        profile(r#"{"funcs": [{"name": "f"}, {"name": "g"}]}"#, ProfileOptions::default()).expect("fits");
    assert!(out.contains("halide_profiler_set_current_func"));
    // A Func that does not occur (inlined, as in the oracle's envs) is fine, display name
    // and all.
    let inlined =
        r#"{"funcs": [{"name": "f"}, {"name": "g"}, {"name": "input_im", "display_name": "input (input)"}]}"#;
    profile(inlined, ProfileOptions::default()).expect("fits");
}

#[test]
fn a_misspelt_field_is_an_error_naming_it() {
    for (text, field, path) in [
        (r#"{"funcs": [{"name": "f", "profle": false}, {"name": "g"}]}"#, "profle", "funcs[0].profle"),
        (r#"{"pipline": "p", "funcs": [{"name": "f"}]}"#, "pipline", "pipline"),
        (r#"{"funcs": [{"name": "f"}, {"name": "g", "display": "F"}]}"#, "display", "funcs[1].display"),
    ] {
        let err = FuncEnv::from_json(text).expect_err("an unknown field");
        let msg = err.to_string();
        assert!(matches!(err, EnvError::Json { .. }), "{msg}");
        assert!(msg.contains(&format!("unknown field `{field}`")) && msg.contains("line 1"), "{msg}");
        assert!(msg.contains(&format!("JSON: {path}: ")), "{msg}");
    }
    // A value of the wrong type is named by its path too.
    let msg =
        FuncEnv::from_json(r#"{"funcs": [{"name": "f"}, {"name": 7}]}"#).expect_err("a number").to_string();
    assert!(msg.contains("funcs[1].name: invalid type: integer `7`, expected a string"), "{msg}");
}

#[test]
fn another_pass_s_env_is_named() {
    let trace = r#"{"pipeline": "f", "target": {"trace_loads": true},
                    "funcs": [{"name": "f", "args": ["x"], "types": ["float32"]}],
                    "outputs": [{"name": "f", "buffer": "f", "dimensions": 1, "types": ["float32"]}]}"#;
    let err = FuncEnv::from_json(trace).expect_err("a trace env").to_string();
    assert!(err.contains("unknown field `target`"), "{err}");
    assert!(
        err.contains("looks like a trace environment (trace.env.json), not a profiling environment"),
        "{err}"
    );
    // A trace env with only funcs still has fields a profiling env does not.
    let minimal = r#"{"pipeline": "f", "funcs": [{"name": "f", "types": ["float32"]}]}"#;
    let err = FuncEnv::from_json(minimal).expect_err("a trace env").to_string();
    assert!(err.contains("unknown field `types`") && err.contains("trace environment"), "{err}");
    let bounds = r#"{"order": ["f"], "target": {"profile": true}, "outputs": [{"func": "f", "buffer": "f"}], "funcs": {}}"#;
    let err = FuncEnv::from_json(bounds).expect_err("a bounds env").to_string();
    assert!(err.contains("looks like a bounds environment (bounds.env.json)"), "{err}");
}

#[test]
fn a_produce_of_no_func_is_an_error() {
    // `g` misspelt: its produce and consume would be counted but never instrumented.
    for options in [ProfileOptions::default(), ProfileOptions::NONE] {
        let err =
            profile(r#"{"funcs": [{"name": "f"}, {"name": "gg"}]}"#, options).expect_err("g is no Func");
        let (field, problem, node) = mismatch(err);
        assert_eq!(field, "funcs");
        assert!(problem.contains("`produce g` names no Func of the environment"), "{problem}");
        assert_eq!(node.as_deref(), Some("produce g"));
    }
}

#[test]
fn a_no_profiling_mark_that_cannot_take_effect_is_an_error() {
    let env = r#"{"funcs": [{"name": "f"}, {"name": "g"}, {"name": "h", "profile": false}]}"#;
    let (field, problem, node) =
        mismatch(profile(env, ProfileOptions::default()).expect_err("h does not occur"));
    assert_eq!(field, "funcs[2].profile");
    assert!(problem.contains("Func `h` is marked not to be profiled but does not occur"), "{problem}");
    assert_eq!(node, None);
    // Occurring through an allocation name (`g`, or `g.buffer` by its prefix) is enough.
    let marked = r#"{"funcs": [{"name": "f"}, {"name": "g", "profile": false}]}"#;
    profile(marked, ProfileOptions::default()).expect("g is allocated and produced");
}
