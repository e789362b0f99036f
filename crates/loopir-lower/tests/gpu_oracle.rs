//! The GPU passes against the reference's oracle, on every `*.cuda` case (target
//! `host-cuda-profile`): `canonicalize_gpu_vars` on the stage file before
//! `21.canonicalizing_gpu_var_names.stmt` must print that file byte for byte, and
//! `select_gpu_api` with CUDA on the stage file before `26.selecting_a_gpu_api.stmt`
//! likewise; `inject_host_dev_buffer_copies` on the stage file before
//! `27.injecting_host_dev_buffer_copies.stmt` likewise (every case has that file). A case
//! without the stage file is one where the reference's pass changed
//! nothing (identical stages are left out of the oracle): there the pass must return its
//! input unchanged.

use std::path::{Path, PathBuf};

use loopir::{DeviceApi, Stmt};
use loopir_bounds::env::BoundsEnv;
use loopir_lower::{FlattenEnv, canonicalize_gpu_vars, select_gpu_api};
use loopir_testkit::text::first_difference;

/// The `*.cuda` cases, sorted.
fn cuda_cases() -> Vec<PathBuf> {
    let dir = loopir_testkit::oracle::cases();
    let mut cases: Vec<PathBuf> = std::fs::read_dir(&dir)
        .expect("the oracle's cases directory is readable")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "cuda"))
        .collect();
    cases.sort();
    cases
}

/// The stage file numbered `number` (if the reference's pass changed anything) and the
/// last one before it: (input, expected output, whether the stage file exists).
fn stage_pair(case: &Path, number: u32, stage: &str) -> Result<(PathBuf, PathBuf, bool), String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(case.join("stages"))
        .map_err(|e| e.to_string())?
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    let number_of = |p: &PathBuf| -> Option<u32> { p.file_name()?.to_str()?.split('.').next()?.parse().ok() };
    let before = files
        .iter()
        .rfind(|p| number_of(p).is_some_and(|n| n < number))
        .ok_or("no stage before the pass")?
        .clone();
    match files.iter().find(|p| number_of(p) == Some(number)) {
        Some(after) => {
            let name = after.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            if name != format!("{number}.{stage}.stmt") {
                return Err(format!("stage {number} is `{name}`, not {stage}"));
            }
            Ok((before, after.clone(), true))
        }
        None => Ok((before.clone(), before, false)),
    }
}

/// Parses a stage file with the case's Funcs (so that calls keep their kinds).
fn parse(case: &Path, file: &Path) -> Result<(Stmt, String), String> {
    let text = std::fs::read_to_string(file).map_err(|e| e.to_string())?;
    let bounds = BoundsEnv::from_json(
        &std::fs::read_to_string(case.join("bounds.env.json")).map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;
    let env = FlattenEnv::from_bounds_env(&bounds).map_err(|e| e.to_string())?;
    let stmt = loopir::parse_stmt_with_env(&text, &env.parse_env()).map_err(|e| format!("parse: {e}"))?;
    Ok((stmt, text))
}

/// Runs `pass` on every case at stage `number`; returns how many cases had the stage.
fn check_all(number: u32, stage: &str, pass: impl Fn(&Stmt) -> Result<Stmt, String>) -> usize {
    let cases = cuda_cases();
    assert!(cases.len() >= 17, "the oracle has {} cuda cases, expected at least 17", cases.len());
    let mut failures = Vec::new();
    let mut changed = 0;
    for case in &cases {
        let name = case.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let result = stage_pair(case, number, stage).and_then(|(before, after, exists)| {
            let (input, _) = parse(case, &before)?;
            let expected = std::fs::read_to_string(&after).map_err(|e| e.to_string())?;
            let out = pass(&input)?;
            if exists {
                changed += 1;
            } else if !out.same_as(&input) {
                return Err("the reference changed nothing, but the pass rebuilt the statement".into());
            }
            let text = out.to_string();
            if text == expected { Ok(()) } else { Err(first_difference(&text, &expected)) }
        });
        if let Err(e) = result {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
    changed
}

#[test]
fn canonicalizing_gpu_var_names_matches_the_reference_on_every_cuda_case() {
    let changed = check_all(21, "canonicalizing_gpu_var_names", |s| {
        canonicalize_gpu_vars(s).map_err(|e| format!("pass: {e}"))
    });
    assert_eq!(changed, 15, "cases where the reference renamed loops");
}

#[test]
fn selecting_a_gpu_api_matches_the_reference_on_every_cuda_case() {
    let changed = check_all(26, "selecting_a_gpu_api", |s| {
        select_gpu_api(s, DeviceApi::Cuda).map_err(|e| format!("pass: {e}"))
    });
    assert_eq!(changed, 15, "cases where the reference chose the API of Default_GPU loops");
}

/// The cases where `inject_host_dev_buffer_copies` does not print the reference's stage
/// file, each with why (see the test below).
const HOST_DEV_COPIES_DIFFER: &[(&str, &str)] = &[];

#[test]
fn injecting_host_dev_buffer_copies_matches_the_reference_on_the_cuda_cases() {
    let cases = cuda_cases();
    let mut exact = 0;
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let result =
            stage_pair(case, 27, "injecting_host_dev_buffer_copies").and_then(|(before, after, exists)| {
                if !exists {
                    return Err("the reference's stage file is missing".into());
                }
                let (input, _) = parse(case, &before)?;
                let expected = std::fs::read_to_string(&after).map_err(|e| e.to_string())?;
                let mut names = loopir::pipeline::NameGen::new();
                let out = loopir_lower::inject_host_dev_buffer_copies(&input, &mut names)
                    .map_err(|e| format!("pass: {e}"))?
                    .to_string();
                if out == expected { Ok(()) } else { Err(first_difference(&out, &expected)) }
            });
        match result {
            Ok(()) => exact += 1,
            Err(e) => failures.push((name, e)),
        }
    }
    let listed: Vec<&str> = HOST_DEV_COPIES_DIFFER.iter().map(|(c, _)| *c).collect();
    let differing: Vec<&str> = failures.iter().map(|(c, _)| c.as_str()).collect();
    assert_eq!(
        differing,
        listed,
        "the cases that differ are not the listed ones:\n{}",
        failures.iter().map(|(c, e)| format!("{c}: {e}")).collect::<Vec<_>>().join("\n")
    );
    assert_eq!(exact, 17 - HOST_DEV_COPIES_DIFFER.len(), "cases matching the reference byte for byte");
}
