//! Times `inject_profiling` alone on oracle inputs: minimum and median of many runs, which
//! are steadier than criterion's means on a shared machine.
//!
//! `cargo run --release -p loopir-profiling --example time_inject [case ...]`

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use loopir_profiling::{FuncEnv, ProfileOptions, inject_profiling};

fn cases_dir() -> PathBuf {
    if let Some(dir) = std::env::var_os("LOOPIR_ORACLE_CASES") {
        return PathBuf::from(dir);
    }
    let start = Path::new(env!("CARGO_MANIFEST_DIR"));
    start
        .ancestors()
        .map(|d| d.join("shared/oracle/cases"))
        .find(|d| d.is_dir())
        .unwrap_or_else(|| start.join("shared/oracle/cases"))
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut cases: Vec<String> = std::env::args().skip(1).collect();
    if cases.is_empty() {
        cases = [
            "app_stencil_chain.cpu",
            "app_lens_blur.cpu",
            "app_bgu.cpu",
            "app_interpolate.cpu",
            "app_local_laplacian.cpu",
        ]
        .map(String::from)
        .to_vec();
    }
    for case in cases {
        let dir = cases_dir().join(&case);
        let stmt = loopir::parse_stmt(&std::fs::read_to_string(dir.join("profile.input.stmt"))?)?;
        let env = FuncEnv::from_json(&std::fs::read_to_string(dir.join("profile.env.json"))?)?;
        let pipeline = env.pipeline_name().unwrap_or("pipeline").to_owned();
        let options = ProfileOptions::default();
        let mut times: Vec<Duration> = (0..300)
            .map(|_| {
                let t = Instant::now();
                let out = inject_profiling(&stmt, &pipeline, &env, &options);
                let d = t.elapsed();
                drop(out);
                d
            })
            .collect();
        times.sort();
        println!("{case:28} min {:>8.1?}  median {:>8.1?}", times[0], times[times.len() / 2]);
    }
    Ok(())
}
