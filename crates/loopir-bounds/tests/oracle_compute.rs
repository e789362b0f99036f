//! Computation bounds inference against the oracle corpus (spec §4.6 P01–P10): the cases
//! whose Funcs have single pure stages must match the reference byte for byte; the whole
//! corpus is run and summarised (exact, unsupported, or differing).

use std::path::{Path, PathBuf};

use loopir::parse::{ParseEnv, parse_stmt_with_env};
use loopir_bounds::compute_bounds::computation_bounds_inference;
use loopir_bounds::env::BoundsEnv;
use loopir_bounds::{BoundsError, Ctx};

fn cases_dir() -> PathBuf {
    PathBuf::from("/work/shared/oracle/cases")
}

fn run_case(dir: &Path) -> Result<Result<(bool, String), BoundsError>, String> {
    let read = |f: &str| std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{f}: {e}"));
    let env = BoundsEnv::from_json(&read("bounds.env.json")?).map_err(|e| e.to_string())?;
    let mut penv = ParseEnv::new();
    for name in env.funcs.keys() {
        penv = penv.with_func(name, env.func_types(name));
    }
    let input = parse_stmt_with_env(&read("bounds.input.stmt")?, &penv).map_err(|e| e.to_string())?;
    let expected = read("bounds.expected.stmt")?;
    let ctx = Ctx::new();
    ctx.seed_t(env.fresh_names.t.unwrap_or(0));
    Ok(computation_bounds_inference(&ctx, &input, &env).map(|out| {
        let text = out.to_string();
        let diff = text
            .lines()
            .zip(expected.lines())
            .enumerate()
            .find(|(_, (a, b))| a != b)
            .map(|(i, (a, b))| format!("line {}:\n  got:      {a}\n  expected: {b}", i + 1))
            .unwrap_or_else(|| if text == expected { String::new() } else { "different lengths".into() });
        (text == expected, diff)
    }))
}

const EXACT: &[&str] = &[
    "two_stage_root.cpu",
    "compute_at_nesting.cpu",
    "serial_chain.cpu",
    "hoist_storage.cpu",
    "sliding_window.cpu",
    "tuple_func.cpu",
    "wrapper_in.cpu",
    "multi_output.cpu",
];

#[test]
fn p01_p10_pure_cases_are_byte_exact() {
    if !cases_dir().exists() {
        return;
    }
    let mut failures = Vec::new();
    for case in EXACT {
        match run_case(&cases_dir().join(case)) {
            Ok(Ok((true, _))) => {}
            Ok(Ok((false, diff))) => failures.push(format!("{case}: {diff}")),
            Ok(Err(e)) => failures.push(format!("{case}: {e}")),
            Err(e) => failures.push(format!("{case}: {e}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn other_cases_are_exact_or_unsupported() {
    if !cases_dir().exists() {
        return;
    }
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(cases_dir())
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    dirs.sort();
    let (mut exact, mut unsupported, mut differ) = (0, 0, Vec::new());
    for dir in dirs.iter().filter(|d| d.join("bounds.input.stmt").exists()) {
        let name = dir.file_name().and_then(|n| n.to_str()).unwrap_or("?").to_owned();
        match run_case(dir) {
            Ok(Ok((true, _))) => exact += 1,
            Ok(Err(BoundsError::Unsupported(_))) => unsupported += 1,
            Ok(Ok((false, diff))) => differ.push(format!("{name}: {diff}")),
            Ok(Err(e)) => differ.push(format!("{name}: error {e}")),
            Err(e) => differ.push(format!("{name}: {e}")),
        }
    }
    eprintln!("computation bounds: {exact} exact, {unsupported} unsupported, {} differ", differ.len());
    for d in &differ {
        eprintln!("  {d}");
    }
}
