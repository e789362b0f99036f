//! `loopir demo`: loopir's main job on a built-in pipeline, with no file at hand.

use std::process::ExitCode;

use loopir::{parse_stmt, stmt_to_string};

/// A two-stage blur as Halide lowers it just before instrumentation: `blur_x` is computed
/// per row of `out` inside a parallel loop.
pub const DEMO_STMT: &str = include_str!("../demo.stmt");

/// Runs the demo.
pub fn run() -> Result<ExitCode, String> {
    let stmt = parse_stmt(DEMO_STMT).map_err(|e| e.render("demo.stmt"))?;
    let reprinted = stmt_to_string(&stmt);
    println!("== input: a two-stage blur, lowered (demo.stmt) ==");
    print!("{DEMO_STMT}");
    println!();
    println!(
        "== parse and reprint: {} ({} bytes) ==",
        if reprinted == DEMO_STMT { "byte-identical" } else { "DIFFERENT" },
        DEMO_STMT.len()
    );
    if reprinted != DEMO_STMT {
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}
