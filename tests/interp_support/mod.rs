//! Running oracle IR through the interpreter: parsing a case's files with its
//! environment, the scalar parameters each application needs, and one run.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use loopir::Stmt;
use loopir_bounds::env::BoundsEnv;
use loopir_interp::pipeline::parse_scalar;
use loopir_interp::{HostRuntime, InterpError, Limits, PipelineRun, Program, RunConfig, compile, run_pipeline};

/// The oracle's `cases` directory.
pub fn cases_dir() -> PathBuf {
    let dir = PathBuf::from(env!("LOOPIR_ORACLE_CASES"));
    assert!(dir.is_dir(), "the oracle corpus is missing: expected {}", dir.display());
    dir
}

/// Values of the scalar parameters of the oracle's applications (those of Halide's
/// `apps/*` drivers, with `levels` lowered to keep the runs short).
pub fn params_of(case: &str) -> &'static [(&'static str, &'static str)] {
    let app = case.split('.').next().unwrap_or(case);
    match app {
        "app_bgu" => &[("r_sigma", "0.125"), ("s_sigma", "8")],
        "app_bilateral_grid" => &[("r_sigma", "0.1")],
        "app_camera_pipe" => &[
            ("color_temp", "3700"),
            ("gamma", "2.0"),
            ("contrast", "50"),
            ("sharpen_strength", "1.0"),
            ("blackLevel", "25"),
            ("whiteLevel", "1023"),
        ],
        "app_iir_blur" => &[("alpha", "0.1")],
        "app_lens_blur" => &[("slices", "32"), ("focus_depth", "13"), ("blur_radius_scale", "0.5"), ("aperture_samples", "32")],
        "app_local_laplacian" => &[("levels", "4"), ("alpha", "1.0"), ("beta", "1.0")],
        "app_nl_means" => &[("patch_size", "7"), ("search_area", "7"), ("sigma", "0.12")],
        "heap_and_stack" => &[("k", "3")],
        _ => &[],
    }
}

/// The bounds env of a case (Func value types), if it has one.
pub fn env_of(dir: &Path) -> Option<BoundsEnv> {
    let text = std::fs::read_to_string(dir.join("bounds.env.json")).ok()?;
    BoundsEnv::from_json(&text).ok()
}

/// Parses a file of a case with the case's Func types.
pub fn parse(dir: &Path, file: &Path) -> Result<Stmt, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let penv = env_of(dir).map(|e| e.parse_env()).unwrap_or_default();
    loopir::parse_stmt_with_env(&text, &penv).map_err(|e| format!("{}: {e}", file.display()))
}

/// A run configuration with the case's parameters (those the program reads).
pub fn config_for(case: &str, program: &Program, limit: u64) -> Result<RunConfig, String> {
    let mut config = RunConfig { limits: Limits { operations: limit, ..Limits::default() }, ..RunConfig::default() };
    for (name, value) in params_of(case) {
        if let Some(p) = program.interface().scalars.iter().find(|s| &*s.name == *name) {
            config.params.insert((*name).to_owned(), parse_scalar(value, p.ty)?);
        }
    }
    Ok(config)
}

/// Compiles and runs a statement as a pipeline; `shaped` gives the buffers' shapes and
/// types (else the pipeline's own bounds query or a probe chooses them).
pub fn run(case: &str, stmt: &Stmt, shaped: Option<&PipelineRun>, limit: u64) -> Result<PipelineRun, InterpError> {
    let program = compile(stmt)?;
    let mut config = config_for(case, &program, limit)
        .map_err(|e| InterpError::new(loopir_interp::ErrorKind::BadArgument, e))?;
    if let Some(s) = shaped {
        for b in &program.interface().buffers {
            if let Some(d) = s.shapes.get(&*b.name) {
                config.shapes.insert(b.name.to_string(), d.clone());
            }
            if let Some(e) = s.elems.get(&*b.name) {
                config.elems.insert(b.name.to_string(), *e);
            }
        }
    }
    run_pipeline(&program, &mut HostRuntime::new(), &config)
}

/// The outputs of a run as `name=hash` pairs, sorted by name.
pub fn output_hashes(run: &PipelineRun) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> = run.outputs.iter().map(|(n, b)| (n.to_string(), b.content_hash())).collect();
    v.sort();
    v
}
