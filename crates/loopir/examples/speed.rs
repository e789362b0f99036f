//! Rough parse/print throughput on a file (the criterion bench is authoritative).
fn main() {
    let path = std::env::args().nth(1).expect("path");
    let text = std::fs::read_to_string(path).expect("read");
    let n = 20;
    let t0 = std::time::Instant::now();
    let mut s = None;
    for _ in 0..n {
        s = Some(loopir::parse_stmt(&text).expect("parse"));
    }
    let parse = t0.elapsed().as_secs_f64() / n as f64;
    let s = s.expect("parsed");
    let t1 = std::time::Instant::now();
    let mut len = 0;
    for _ in 0..n {
        len += s.to_string().len();
    }
    let print = t1.elapsed().as_secs_f64() / n as f64;
    let mb = text.len() as f64 / 1e6;
    println!("{} bytes: parse {:.1} MB/s, print {:.1} MB/s ({len})", text.len(), mb / parse, mb / print);
}
