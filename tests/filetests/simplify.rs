//! `#!test simplify`: Halide-compatible simplification of box ends
//! (`filetests/bounds_exact`, entries taken from the oracle's tracing cases). The
//! expected output is in the file: a line `in:` with the expression as the box merge
//! builds it, a line `out:` with Halide's printed result (blank and `#` lines skipped).
//! Every entry must print exactly as Halide printed it; there is no snapshot.

use loopir_simplify::{Ctx, simplify_expr};

use crate::Output;
use crate::header::Fixture;

pub fn run(f: &Fixture) -> Result<Output, String> {
    let mut entries = Vec::new();
    let mut pending: Option<&str> = None;
    for line in f.body.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        if let Some(rest) = line.strip_prefix("in:") {
            pending = Some(rest.trim());
        } else if let Some(rest) = line.strip_prefix("out:") {
            let input = pending.take().ok_or_else(|| format!("`out:` without `in:`: {line}"))?;
            entries.push((input, rest.trim()));
        } else {
            return Err(format!("unexpected line (not `in:` or `out:`): {line}"));
        }
    }
    let mut failures = Vec::new();
    for (input, expected) in &entries {
        let e = loopir::parse::parse_expr(input).map_err(|err| format!("{input}: {err}"))?;
        let got = loopir::print::expr_to_string_implicit(&simplify_expr(&Ctx::new(), &e));
        if &got != expected {
            failures.push(format!("  in:       {input}\n  expected: {expected}\n  got:      {got}"));
        }
    }
    if !failures.is_empty() {
        return Err(format!("{} of {} differ:\n{}", failures.len(), entries.len(), failures.join("\n")));
    }
    Ok(Output { snapshots: Vec::new(), cases: entries.len() })
}
