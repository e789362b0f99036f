//! Criterion benches for the workloads of spec §3.5 (filled in below).
fn main() {}
