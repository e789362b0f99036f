//! Timing of `inject_profiling` alone on five application pipelines of the oracle.
// criterion's macros generate undocumented functions.
#![allow(missing_docs)]

use criterion::{Criterion, criterion_group, criterion_main};
use loopir_profiling::{FuncEnv, ProfileOptions, inject_profiling};

const CASES: [&str; 5] = [
    "app_stencil_chain.cpu",
    "app_lens_blur.cpu",
    "app_bgu.cpu",
    "app_interpolate.cpu",
    "app_local_laplacian.cpu",
];

use loopir_testkit::oracle::cases as cases_dir;

fn bench(c: &mut Criterion) {
    for case in CASES {
        let dir = cases_dir().join(case);
        let Ok(text) = std::fs::read_to_string(dir.join("profile.input.stmt")) else {
            eprintln!("skipping {case}: oracle input not found under {}", dir.display());
            continue;
        };
        let env_text = std::fs::read_to_string(dir.join("profile.env.json")).expect("env json");
        let env = FuncEnv::from_json(&env_text).expect("valid env");
        let pipeline = env.pipeline_name().unwrap_or("pipeline").to_owned();
        let stmt = loopir::parse_stmt(&text).expect("oracle input parses");
        let options = ProfileOptions::default();
        c.bench_function(case, |b| {
            b.iter(|| inject_profiling(&stmt, &pipeline, &env, &options).expect("instrumentable"))
        });
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
