//! `loopir flatten`: storage flattening of a stage file with a bounds env, and the exit
//! codes of its mistakes.

mod support;

use loopir_testkit::oracle::case as oracle_case;
use support::{file, loopir, scratch, stderr, stdout};

fn stage(case: &str, prefix: &str) -> String {
    let dir = oracle_case(case).join("stages");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("an oracle case")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let name = names.into_iter().find(|n| n.starts_with(prefix)).expect("the stage");
    dir.join(name).to_string_lossy().into_owned()
}

#[test]
fn an_oracle_stage_is_flattened_byte_for_byte() {
    let env = oracle_case("two_parents.cpu").join("bounds.env.json");
    let env = env.to_string_lossy();
    let input = stage("two_parents.cpu", "19.");
    let out = loopir(&["flatten", "--env", &env, "--fresh-t", "6", &input], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let expected = std::fs::read_to_string(stage("two_parents.cpu", "22.")).expect("the expected stage");
    assert_eq!(stdout(&out), expected);
    // Without the counter, names start past every `t<N>` in use and the env's counter.
    let out = loopir(&["flatten", "--env", &env, &input], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("let f.buffer = let t4 = "), "{}", stdout(&out));
    // And `loopir lower` runs the same pass.
    let spec = format!("flatten={env}");
    let out = loopir(&["lower", "--passes", "flatten", "--env", &spec, &input], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(stdout(&out).contains("allocate g[uint16 * g.x.extent_realized * g.y.extent_realized]\n"));
}

#[test]
fn mistakes_are_input_errors_and_unreadable_files_io_errors() {
    let dir = scratch("flatten-errors");
    let env = file(&dir, "env.json", br#"{"order": ["f"], "target": {"profile": false}, "outputs": [], "funcs": {"f": {"types": ["int32"], "args": ["x"]}}}"#);
    let unknown = file(
        &dir,
        "unknown.json",
        br#"{"order": [], "target": {"profile": false}, "outputs": [], "layout": 1}"#,
    );
    let stmt = "realize g([0, 4]) {\n  g(0) = 1\n}\n";
    // IR the env does not describe: exit 1, naming the node.
    let out = loopir(&["flatten", "--env", &env], stmt.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("error: <stdin>: realize g: no Func of the env is stored in this buffer"),
        "{}",
        stderr(&out)
    );
    // An unknown env field: exit 1, naming the field.
    let out = loopir(&["flatten", "--env", &unknown], stmt.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("unknown field `layout`"), "{}", stderr(&out));
    // No --env: a usage mistake.
    let out = loopir(&["flatten"], stmt.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    // Text that does not parse.
    let out = loopir(&["flatten", "--env", &env], b"realize f(\n");
    assert_eq!(out.status.code(), Some(1));
    // An image that is a Func.
    let out = loopir(&["flatten", "--env", &env, "--image", "f"], stmt.as_bytes());
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("image `f` is also a Func of the env"), "{}", stderr(&out));
    // Files that cannot be read: exit 2.
    let missing = dir.join("missing.json").to_string_lossy().into_owned();
    let out = loopir(&["flatten", "--env", &missing], stmt.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    let out = loopir(&["flatten", "--env", &env, &missing], b"");
    assert_eq!(out.status.code(), Some(2));
}
