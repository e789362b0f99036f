//! Storage flattening against the reference's oracle: every case's
//! `stages/NN.storage_flattening.stmt` is the reference's output for the stage file just
//! before it. The pass runs on that file with the case's bounds env and must print the
//! reference's text byte for byte; its output must reprint unchanged through the parser.
//!
//! The bounds env does not carry everything the pass needs. Images are inferred from the
//! IR ([`infer_images`]); the fresh-name counter at this pass is read from the reference's
//! first new `t<N>`; and the storage orders and alignments of the five cases whose
//! schedules set them are given by [`SCHEDULES`], copied from the apps' generators.

use std::path::{Path, PathBuf};

use loopir_bounds::env::BoundsEnv;
use loopir_lower::{FlattenEnv, StorageDim, infer_images, storage_flattening};
use loopir_testkit::text::first_difference;

fn cases_dir() -> PathBuf {
    loopir_testkit::oracle::cases()
}

/// The stage file of storage flattening and the one before it.
fn stage_files(case: &Path) -> Option<(PathBuf, PathBuf)> {
    let mut files: Vec<PathBuf> =
        std::fs::read_dir(case.join("stages")).ok()?.flatten().map(|e| e.path()).collect();
    files.sort();
    let k = files.iter().position(|p| p.to_string_lossy().ends_with(".storage_flattening.stmt"))?;
    Some((files.get(k.checked_sub(1)?)?.clone(), files[k].clone()))
}

/// The `t<N>` numbers of a text.
fn t_numbers(text: &str) -> std::collections::BTreeSet<u64> {
    let bytes = text.as_bytes();
    let mut out = std::collections::BTreeSet::new();
    for (i, _) in text.match_indices('t') {
        let boundary =
            i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_' || bytes[i - 1] == b'.');
        let digits: String = text[i + 1..].chars().take_while(char::is_ascii_digit).collect();
        let after = bytes.get(i + 1 + digits.len()).copied();
        let ends = !after.is_some_and(|b| b.is_ascii_alphanumeric() || b == b'_');
        if boundary
            && ends
            && let Ok(n) = digits.parse()
        {
            out.insert(n);
        }
    }
    out
}

/// (case, Func, storage order, alignment of one dimension).
type Schedule = (&'static str, &'static str, &'static [&'static str], Option<(&'static str, i32)>);

/// What the schedules of the oracle's apps say about storage that the bounds env does not
/// carry: (case, Func as the IR names it, storage order innermost first, alignment of a
/// dimension). From Halide's `apps/*/*_generator.cpp` at the reference commit:
/// bilateral_grid's CPU schedule has `blury.reorder_storage(c, z, x, y)`, its GPU schedule
/// `reorder_storage(c, x, y, z)` on `blurx` and `blury`; local_laplacian has
/// `gPyramid[j].reorder_storage(x, k, y)` for j = 1..4 (Funcs `f4`..`f7`, arguments
/// `v10, v11, v13` for x, y, k); iir_blur's CUDA schedule has
/// `blur.in().align_storage(x, 33)` (warp size + 1) on both blurs (`blur_in$0`,
/// `blur$1_in$0`, x is `v7`).
const SCHEDULES: &[Schedule] = &[
    ("app_bilateral_grid.cpu", "blury", &["c", "z", "x", "y"], None),
    ("app_bilateral_grid.cuda", "blurx", &["c", "x", "y", "z"], None),
    ("app_bilateral_grid.cuda", "blury", &["c", "x", "y", "z"], None),
    ("app_local_laplacian.cpu", "f4", &["v10", "v13", "v11"], None),
    ("app_local_laplacian.cpu", "f5", &["v10", "v13", "v11"], None),
    ("app_local_laplacian.cpu", "f6", &["v10", "v13", "v11"], None),
    ("app_local_laplacian.cpu", "f7", &["v10", "v13", "v11"], None),
    ("app_local_laplacian.trace", "f4", &["v10", "v13", "v11"], None),
    ("app_local_laplacian.trace", "f5", &["v10", "v13", "v11"], None),
    ("app_local_laplacian.trace", "f6", &["v10", "v13", "v11"], None),
    ("app_local_laplacian.trace", "f7", &["v10", "v13", "v11"], None),
    ("app_iir_blur.cuda", "blur_in$0", &["v7", "v8", "v9"], Some(("v7", 33))),
    ("app_iir_blur.cuda", "blur$1_in$0", &["v7", "v8", "v9"], Some(("v7", 33))),
];

/// The cases whose schedules set what [`SCHEDULES`] gives: not exact from the bounds
/// env alone.
fn needs_schedule(case: &str) -> bool {
    SCHEDULES.iter().any(|(c, ..)| *c == case)
}

/// Adds the storage schedules of `case` to `env`.
fn add_schedules(case: &str, env: &mut FlattenEnv) -> Result<(), String> {
    for (_, func, order, alignment) in SCHEDULES.iter().filter(|(c, ..)| *c == case) {
        let f = env.funcs.get_mut(*func).ok_or_else(|| format!("no Func {func} in the bounds env"))?;
        f.storage = order
            .iter()
            .map(|v| StorageDim {
                var: v.to_string(),
                alignment: alignment.filter(|(a, _)| a == v).map(|(_, k)| loopir::Expr::i32(k)),
                bound: None,
            })
            .collect();
    }
    env.validate().map_err(|e| e.to_string())
}

/// Runs the pass on one case, with the storage schedules of [`SCHEDULES`] or without:
/// (output, expected).
pub fn run_case(case: &Path, schedules: bool) -> Result<(String, String), String> {
    let (before, after) = stage_files(case).ok_or("no storage flattening stage")?;
    let input = std::fs::read_to_string(&before).map_err(|e| e.to_string())?;
    let expected = std::fs::read_to_string(&after).map_err(|e| e.to_string())?;
    let bounds_env = BoundsEnv::from_json(
        &std::fs::read_to_string(case.join("bounds.env.json")).map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;
    let mut env = FlattenEnv::from_bounds_env(&bounds_env).map_err(|e| e.to_string())?;
    let stmt = loopir::parse_stmt_with_env(&input, &env.parse_env()).map_err(|e| format!("parse: {e}"))?;
    env.images = infer_images(&stmt, &env);
    if schedules {
        add_schedules(
            &case.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
            &mut env,
        )?;
    }
    let before_t = t_numbers(&input);
    let first_new = t_numbers(&expected).into_iter().find(|n| !before_t.contains(n)).unwrap_or(0);
    let ctx = loopir_simplify::Ctx::new();
    ctx.seed_t(first_new);
    let out = storage_flattening(&ctx, &stmt, &env).map_err(|e| format!("pass: {e}"))?;
    let text = out.to_string();
    let reparsed = loopir::parse_stmt(&text).map_err(|e| format!("the output does not parse: {e}"))?;
    if reparsed.to_string() != text {
        return Err(format!(
            "the output does not reprint: {}",
            first_difference(&text, &reparsed.to_string())
        ));
    }
    Ok((text, expected))
}

#[test]
fn every_case_matches_the_reference() {
    let dir = cases_dir();
    let mut cases: Vec<PathBuf> =
        std::fs::read_dir(&dir).expect("readable").flatten().map(|e| e.path()).collect();
    cases.sort();
    let mut exact = Vec::new();
    let mut failures = Vec::new();
    for case in &cases {
        let name = case.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        match run_case(case, true) {
            Ok((out, expected)) if out == expected => exact.push(name),
            Ok((out, expected)) => failures.push(format!("{name}: {}", first_difference(&expected, &out))),
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    println!("exact: {}/{}", exact.len(), cases.len());
    for f in &failures {
        println!("{f}");
    }
    assert!(failures.is_empty(), "{} of {} cases differ", failures.len(), cases.len());
    assert_eq!(exact.len(), 60, "the oracle has 60 cases");
}

/// Without the schedules, exactly the cases that set a storage order or alignment
/// differ: the bounds env alone gives 55 of 60.
#[test]
fn the_bounds_env_alone_misses_only_storage_schedules() {
    let dir = cases_dir();
    let mut cases: Vec<PathBuf> =
        std::fs::read_dir(&dir).expect("readable").flatten().map(|e| e.path()).collect();
    cases.sort();
    let mut exact = 0;
    for case in &cases {
        let name = case.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let same = matches!(run_case(case, false), Ok((out, expected)) if out == expected);
        assert_eq!(same, !needs_schedule(&name), "{name}");
        exact += usize::from(same);
    }
    assert_eq!(exact, 55);
}
