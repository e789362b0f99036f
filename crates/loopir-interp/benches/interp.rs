//! Interpreter speed on oracle applications: operations executed per second.
//!
//! Each bench runs one lowering stage of an oracle application (before vectorization,
//! so that every operation is a scalar one) on fixed buffers, and reports throughput in
//! elements, one element per executed instruction: criterion's "elem/s" is the
//! interpreter's scalar operations per second.
// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use std::path::PathBuf;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use loopir_interp::{HostRuntime, RunConfig, compile, pipeline::parse_scalar, run_pipeline};

/// Scalar parameters as (name, value).
type Params = &'static [(&'static str, &'static str)];

/// (case, stage file, scalar parameters)
const STAGES: &[(&str, &str, Params)] = &[
    ("app_harris.cpu", "25.second_simplification.stmt", &[]),
    ("app_unsharp.cpu", "25.second_simplification.stmt", &[]),
    ("app_bilateral_grid.cpu", "25.second_simplification.stmt", &[("r_sigma", "0.1")]),
    (
        "app_local_laplacian.cpu",
        "25.second_simplification.stmt",
        &[("levels", "4"), ("alpha", "1.0"), ("beta", "1.0")],
    ),
    // iir_blur (a fixed 1536x2560x3 image, 30 s a run) is left out: criterion's ten
    // samples would take five minutes.
    (
        "app_nl_means.cpu",
        "25.second_simplification.stmt",
        &[("patch_size", "7"), ("search_area", "7"), ("sigma", "0.12")],
    ),
];

fn cases_dir() -> PathBuf {
    loopir_testkit::oracle::cases()
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("interp");
    group.sample_size(10);
    for (case, stage, params) in STAGES {
        let dir = cases_dir().join(case);
        let Ok(text) = std::fs::read_to_string(dir.join("stages").join(stage)) else {
            eprintln!("skipping {case}: oracle stage not found under {}", dir.display());
            continue;
        };
        let env = std::fs::read_to_string(dir.join("bounds.env.json")).expect("bounds env");
        let env = loopir_bounds::env::BoundsEnv::from_json(&env).expect("valid env");
        let stmt = loopir::parse_stmt_with_env(&text, &env.parse_env()).expect("stage parses");
        let program = compile(&stmt).expect("stage compiles");
        let mut config = RunConfig::default();
        for (name, value) in *params {
            let ty = program.interface().scalars.iter().find(|s| &*s.name == *name).expect("parameter").ty;
            config.params.insert((*name).to_owned(), parse_scalar(value, ty).expect("value"));
        }
        // Choose the shapes once; the timed runs reuse them.
        let mut runtime = HostRuntime::new();
        let first = run_pipeline(&program, &mut runtime, &config).expect("stage runs");
        config.shapes = first.shapes.clone();
        config.elems = first.elems.clone();
        group.throughput(Throughput::Elements(first.stats.operations));
        group.bench_function(*case, |b| {
            b.iter(|| {
                let mut runtime = HostRuntime::new();
                run_pipeline(&program, &mut runtime, &config).expect("stage runs")
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
