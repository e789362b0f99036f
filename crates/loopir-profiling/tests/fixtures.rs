//! Snapshot fixtures of `inject_profiling` (`fixtures/profiling/*.stmt`).
//!
//! Each fixture starts with a `# …` line saying what it pins; an optional `# env: {…}`
//! line gives the Func environment in the `profile.env.json` schema (otherwise the Funcs
//! are inferred from the produce/consume nodes). The pipeline is named `pipe`. Fixtures
//! named `error_*` must be refused; their snapshot is the error message. Others snapshot
//! the instrumented statement followed by the entry tree.

mod common;

use loopir_profiling::{FuncEnv, ProfileOptions, inject_profiling};

/// Splits a fixture into its Func environment and its statement text.
fn load(text: &str) -> (Option<FuncEnv>, String) {
    let mut env = None;
    let mut body = String::new();
    for line in text.lines() {
        if let Some(json) = line.strip_prefix("# env:") {
            env = Some(FuncEnv::from_json(json.trim()).expect("fixture env is valid JSON"));
        } else if !line.starts_with('#') {
            body.push_str(line);
            body.push('\n');
        }
    }
    (env, body)
}

fn render(path: &std::path::Path) -> String {
    let text = std::fs::read_to_string(path).expect("readable fixture");
    assert!(text.starts_with("# "), "{}: a fixture starts with a `# what it pins` line", path.display());
    let (env, body) = load(&text);
    let stmt = loopir::parse_stmt(&body).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let env = env.unwrap_or_else(|| FuncEnv::infer_from_stmt(&stmt));
    let result = inject_profiling(&stmt, "pipe", &env, &ProfileOptions::default());
    let is_error_fixture = path.file_stem().is_some_and(|s| s.to_string_lossy().starts_with("error_"));
    match result {
        Ok(out) => {
            assert!(!is_error_fixture, "{}: expected the pass to refuse this input", path.display());
            format!("{}--- entries ---\n{}", out.stmt, out.entries.render_tree())
        }
        Err(e) => {
            assert!(is_error_fixture, "{}: unexpected error: {e}", path.display());
            format!("{e}\n")
        }
    }
}

#[test]
fn fixtures() {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(common::fixtures_dir().join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| {
        insta::glob!("../../../fixtures/profiling", "*.stmt", |path| {
            insta::assert_snapshot!(render(path));
        });
    });
}

#[test]
fn entry_table_json() {
    let text = std::fs::read_to_string(common::fixtures_dir().join("non_profiled_and_temporaries.stmt"))
        .expect("fixture exists");
    let (env, body) = load(&text);
    let stmt = loopir::parse_stmt(&body).expect("fixture parses");
    let out = inject_profiling(&stmt, "pipe", &env.expect("fixture has an env"), &ProfileOptions::default())
        .expect("instrumentable");
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(common::fixtures_dir().join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!("entry_table_json", out.entries.to_json()));
}
