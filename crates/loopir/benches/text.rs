//! Parse and print throughput on the largest `.stmt` files of the oracle corpus.
//!
//! Run with `cargo bench -p loopir`; criterion reports throughput in bytes per second.
#![allow(missing_docs)] // criterion_group! generates undocumented items

use criterion::{BatchSize, Criterion, Throughput, criterion_group, criterion_main};

/// The largest oracle inputs (the profiling pass's inputs of the biggest apps).
const FILES: &[&str] = &[
    "app_stencil_chain.cpu/profile.input.stmt",
    "app_interpolate.cuda/profile.input.stmt",
    "app_lens_blur.cpu/profile.input.stmt",
];

fn oracle(rel: &str) -> Option<(String, String)> {
    let path = loopir_testkit::oracle::cases().join(rel);
    let text = std::fs::read_to_string(&path).ok()?;
    Some((rel.split('/').next().unwrap_or(rel).to_owned(), text))
}

fn bench_text(c: &mut Criterion) {
    let mut group = c.benchmark_group("stmt_text");
    for (name, text) in FILES.iter().filter_map(|f| oracle(f)) {
        group.throughput(Throughput::Bytes(text.len() as u64));
        group.bench_function(format!("parse/{name}"), |b| {
            // Dropping the tree is not part of parsing.
            b.iter_with_large_drop(|| loopir::parse_stmt(&text).expect("oracle text parses"))
        });
        let stmt = loopir::parse_stmt(&text).expect("oracle text parses");
        group.bench_function(format!("print/{name}"), |b| {
            b.iter_batched(|| (), |_| loopir::stmt_to_string(&stmt), BatchSize::SmallInput)
        });
    }
    group.finish();
}

criterion_group!(benches, bench_text);
criterion_main!(benches);
