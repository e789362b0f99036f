//! Debug helper (temporary): runs stage A to get shapes, then A and B, prints diffs.
use loopir_interp::{HostRuntime, RunConfig, compile, run_pipeline};

fn load(path: &str) -> loopir::Stmt {
    let text = std::fs::read_to_string(path).expect("read");
    let dir = std::path::Path::new(path).parent().and_then(|p| p.parent()).expect("dir");
    let penv = std::fs::read_to_string(dir.join("bounds.env.json"))
        .ok()
        .and_then(|e| loopir_bounds::env::BoundsEnv::from_json(&e).ok())
        .map(|e| e.parse_env())
        .unwrap_or_default();
    loopir::parse_stmt_with_env(&text, &penv).expect("parse")
}

fn params(program: &loopir_interp::Program, cfg: &mut RunConfig) {
    if let Ok(ps) = std::env::var("PARAMS") {
        for kv in ps.split(',').filter(|s| !s.is_empty()) {
            let (k, v) = kv.split_once('=').expect("k=v");
            if let Some(p) = program.interface().scalars.iter().find(|p| &*p.name == k) {
                cfg.params
                    .insert(k.to_string(), loopir_interp::pipeline::parse_scalar(v, p.ty).expect("value"));
            }
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pa = compile(&load(&args[0])).expect("compile a");
    let pb = compile(&load(&args[1])).expect("compile b");
    let mut cfg = RunConfig::default();
    params(&pa, &mut cfg);
    let ra = run_pipeline(&pa, &mut HostRuntime::new(), &cfg).expect("run a");
    let mut cfg2 = RunConfig::default();
    params(&pb, &mut cfg2);
    cfg2.shapes = ra.shapes.clone();
    cfg2.elems = ra.elems.clone();
    let rb = run_pipeline(&pb, &mut HostRuntime::new(), &cfg2).expect("run b");
    for ((n, a), (_, b)) in ra.outputs.iter().zip(&rb.outputs) {
        let mut shown = 0;
        let mut count = 0;
        for i in 0..a.len() {
            if a.values[i] != b.values[i] {
                count += 1;
                if shown < 10 {
                    shown += 1;
                    println!(
                        "{n}{:?}: {} vs {}",
                        a.coords_of(i),
                        a.elem.to_f64(a.values[i]),
                        b.elem.to_f64(b.values[i])
                    );
                }
            }
        }
        println!("{n}: {count} of {} differ", a.len());
    }
}
