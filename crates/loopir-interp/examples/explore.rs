//! Exploration helper (temporary): runs stage files with the pipeline harness.
use loopir_interp::{HostRuntime, RunConfig, compile, run_pipeline};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    for path in &args {
        let text = std::fs::read_to_string(path).expect("read");
        let case_dir = std::path::Path::new(path).parent().and_then(|p| p.parent()).expect("case");
        let env = std::fs::read_to_string(case_dir.join("bounds.env.json")).ok();
        let penv = env
            .and_then(|e| loopir_bounds::env::BoundsEnv::from_json(&e).ok())
            .map(|e| e.parse_env())
            .unwrap_or_default();
        let stmt = match loopir::parse_stmt_with_env(&text, &penv) {
            Ok(s) => s,
            Err(e) => {
                println!("{path}: PARSE {e}");
                continue;
            }
        };
        let t0 = std::time::Instant::now();
        let program = match compile(&stmt) {
            Ok(p) => p,
            Err(e) => {
                println!("{path}: COMPILE {e}");
                continue;
            }
        };
        if std::env::var("LIST").is_ok() {
            let names: Vec<String> =
                program.interface().scalars.iter().map(|s| format!("{}:{}", s.name, s.ty)).collect();
            println!("{path}: PARAMS {}", names.join(" "));
            continue;
        }
        let mut rt = HostRuntime::new();
        let mut cfg = RunConfig::default();
        cfg.candidate_extents = vec![4, 8, 16, 32, 64, 128, 256];
        if let Ok(ps) = std::env::var("PARAMS") {
            for kv in ps.split(',').filter(|s| !s.is_empty()) {
                let (k, v) = kv.split_once('=').expect("k=v");
                if let Some(p) = program.interface().scalars.iter().find(|p| &*p.name == k) {
                    cfg.params.insert(
                        k.to_string(),
                        loopir_interp::pipeline::parse_scalar(v, p.ty).expect("value"),
                    );
                }
            }
        }
        cfg.limits.operations = std::env::var("OPS").ok().and_then(|v| v.parse().ok()).unwrap_or(300_000_000);
        match run_pipeline(&program, &mut rt, &cfg) {
            Ok(run) => {
                let outs: Vec<String> =
                    run.outputs.iter().map(|(n, b)| format!("{n}={b} {:016x}", b.content_hash())).collect();
                println!(
                    "{path}: OK {:?} ops={} {:?} {}",
                    run.shapes_from,
                    run.stats.operations,
                    t0.elapsed(),
                    outs.join(" ")
                );
            }
            Err(e) => println!("{path}: RUN {e}"),
        }
    }
}
