//! The verifier rejects a fixture of each broken kind (`fixtures/verify/*.stmt`, whose
//! first line `# rejects: TEXT` names the violation) and accepts each once repaired by
//! dropping the broken statement is not needed: the oracle test shows valid IR passes.

use loopir::verify::verify;

#[test]
fn each_broken_fixture_is_rejected_with_its_violation() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/verify");
    let mut files: Vec<_> =
        std::fs::read_dir(&dir).expect("fixtures/verify").flatten().map(|e| e.path()).collect();
    files.sort();
    assert!(files.len() >= 10, "one fixture per broken kind, found {}", files.len());
    for path in files {
        let text = std::fs::read_to_string(&path).expect("UTF-8");
        let (first, body) = text.split_once('\n').expect("a header line");
        let want = first.strip_prefix("# rejects: ").expect("`# rejects: TEXT` header");
        let stmt = loopir::parse_stmt(body).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let errors = verify(&stmt, None).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(errors.contains(want), "{}: expected `{want}`, got `{errors}`", path.display());
    }
}

#[test]
fn free_variables_are_checked_against_the_declared_parameters() {
    use loopir::pipeline::{ParamDesc, PipelineEnv};
    let stmt = loopir::parse_stmt("for (x, 0, n) {\n out[x] = k + y\n}\n").expect("parses");
    let mut env = PipelineEnv::new();
    // Without declared parameters, nothing is known about free variables.
    assert!(verify(&stmt, Some(&env)).is_ok());
    env.params = Some(vec![
        ParamDesc { name: "n".into(), ty: loopir::Type::INT32 },
        ParamDesc { name: "k".into(), ty: loopir::Type::INT32 },
    ]);
    let errors = verify(&stmt, Some(&env)).expect_err("y is undeclared").to_string();
    assert!(errors.contains("`y` is neither bound here nor declared"), "{errors}");
    assert!(!errors.contains("`k`") && !errors.contains("`n`"), "{errors}");
}
