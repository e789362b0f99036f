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

#[test]
fn the_verifier_and_the_stage_check_are_linear_in_the_dag() {
    // 200 levels of `e + e`: 2^200 paths, 201 nodes. A walk that printed or visited each
    // path would never end.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut e = loopir::Expr::call_func(loopir::Type::INT32, "g", vec![loopir::Expr::var_i32("x")], 0);
        for _ in 0..200 {
            e = loopir::Expr::add(e.clone(), e).expect("int32 add");
        }
        let s = loopir::Stmt::realize(
            "g",
            vec![loopir::Type::INT32],
            loopir::MemoryType::Auto,
            vec![loopir::MinExtent::new(loopir::Expr::i32(0), loopir::Expr::i32(4))],
            loopir::Expr::const_true(),
            loopir::Stmt::evaluate(e),
        )
        .expect("a realization");
        let verified = verify(&s, None).is_ok();
        let staged = loopir::pipeline::check_stage(&s, loopir::pipeline::IrStage::Schedule).is_ok();
        let _ = tx.send((verified, staged));
    });
    let got = rx.recv_timeout(std::time::Duration::from_secs(60)).expect("finishes: linear in the DAG");
    assert_eq!(got, (true, true));
}
