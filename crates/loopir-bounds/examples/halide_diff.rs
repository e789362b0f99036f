//! Differential check of our simplifier against Halide's: reads lines
//! `input<TAB>halide's simplified output` (as printed by `tools/halide-diff/gen.cpp`),
//! simplifies each input and prints the lines whose result is printed differently.
//! Usage: `cargo run -p loopir-bounds --example halide_diff -- pairs.tsv`.

use std::process::ExitCode;

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: halide_diff PAIRS.tsv");
        return ExitCode::FAILURE;
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("{path}: {e}");
            return ExitCode::FAILURE;
        }
    };
    let ctx = loopir_simplify::Ctx::new();
    let (mut same, mut differ, mut unparsed) = (0usize, 0usize, 0usize);
    for line in text.lines() {
        let Some((input, want)) = line.split_once('\t') else { continue };
        let Ok(e) = loopir::parse_expr(input) else {
            unparsed += 1;
            continue;
        };
        let got = loopir_simplify::simplify_expr(&ctx, &e).to_string();
        if got == want {
            same += 1;
        } else {
            differ += 1;
            println!("input:   {input}\nhalide:  {want}\nloopir:  {got}\n");
        }
    }
    eprintln!("{same} same, {differ} differ, {unparsed} unparsed");
    ExitCode::SUCCESS
}
