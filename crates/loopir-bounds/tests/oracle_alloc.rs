//! Allocation bounds inference against the oracle corpus (spec §4.6 P15–P17): every case
//! with `allocbounds.input.stmt` is run; the cases whose ends need only the linear
//! simplifier rules must match the reference byte for byte.

use std::path::{Path, PathBuf};

use loopir::parse::{ParseEnv, parse_stmt_with_env};
use loopir_bounds::FuncValueBounds;
use loopir_bounds::allocation_bounds::allocation_bounds_inference;
use loopir_bounds::env::BoundsEnv;

fn cases_dir() -> PathBuf {
    PathBuf::from("/work/shared/oracle/cases")
}

fn parse_env(env: &BoundsEnv) -> ParseEnv {
    let mut p = ParseEnv::new();
    for name in env.funcs.keys() {
        p = p.with_func(name, env.func_types(name));
    }
    p
}

/// Runs the pass on one case: Ok(true) if the output equals the reference text.
fn run_case(dir: &Path) -> Result<(bool, String), String> {
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{f}: {e}"));
    let env = BoundsEnv::from_json(&read("bounds.env.json")?).map_err(|e| e.to_string())?;
    let input =
        parse_stmt_with_env(&read("allocbounds.input.stmt")?, &parse_env(&env)).map_err(|e| e.to_string())?;
    let expected = read("allocbounds.expected.stmt")?;
    let out = allocation_bounds_inference(&input, &env, &FuncValueBounds::default(), 0)
        .map_err(|e| e.to_string())?;
    let text = out.to_string();
    Ok((text == expected, first_difference(&text, &expected)))
}

fn first_difference(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}:\n  got:      {x}\n  expected: {y}", i + 1);
        }
    }
    if a.lines().count() != b.lines().count() { "different line counts".into() } else { String::new() }
}

const EXACT: &[&str] = &[
    "serial_chain.cpu",
    "hoist_storage.cpu",
    "sliding_window.cpu",
    "tuple_func.cpu",
    "update_stages.cpu",
    "two_parents.cpu",
    "wrapper_in.cpu",
    "multi_output.cpu",
    "extern_stage.cpu",
    "heap_and_stack.cpu",
];

#[test]
fn p15_p17_linear_cases_are_byte_exact() {
    if !cases_dir().exists() {
        eprintln!("oracle corpus not present; skipping");
        return;
    }
    let mut failures = Vec::new();
    for case in EXACT {
        match run_case(&cases_dir().join(case)) {
            Ok((true, _)) => {}
            Ok((false, diff)) => failures.push(format!("{case}: {diff}")),
            Err(e) => failures.push(format!("{case}: error {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn whole_corpus_runs() {
    if !cases_dir().exists() {
        return;
    }
    let mut exact = 0;
    let mut differ = Vec::new();
    let mut errors = Vec::new();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    dirs.sort();
    for dir in dirs.iter().filter(|d| d.join("allocbounds.input.stmt").exists()) {
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_owned();
        match run_case(dir) {
            Ok((true, _)) => exact += 1,
            Ok((false, diff)) => differ.push(format!("{name}: {diff}")),
            Err(e) => errors.push(format!("{name}: {e}")),
        }
    }
    eprintln!("allocation bounds: {exact} exact, {} differ, {} errors", differ.len(), errors.len());
    for d in differ.iter().chain(&errors) {
        eprintln!("  {d}");
    }
}
