//! `loopir demo`: loopir's main job on a built-in pipeline, with no file at hand.

use std::process::ExitCode;

use loopir::{parse_stmt, stmt_to_string};
use loopir_profiling::{FuncEnv, FuncInfo, ProfileOptions, inject_profiling};

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
    println!();

    let env = FuncEnv::new()
        .with(FuncInfo::new("blur_x"))
        .with(FuncInfo::new("input_im").with_display_name("input (input)"))
        .with(FuncInfo::new("out"));
    let profiled =
        inject_profiling(&stmt, "blur", &env, &ProfileOptions::default()).map_err(|e| e.to_string())?;
    println!("== inject_profiling: the instrumented statement ==");
    print!("{}", stmt_to_string(&profiled.stmt));
    println!();
    println!("== inject_profiling: the profiler report's entries, with their stable keys ==");
    print!("{}", profiled.entries.render_tree_with_keys());
    println!();

    let timing_only = ProfileOptions::level(1).ok_or("level 1 is a profiling level")?;
    let light = inject_profiling(&stmt, "blur", &env, &timing_only).map_err(|e| e.to_string())?;
    let count = |s: &loopir::Stmt| stmt_to_string(s).matches("halide_profiler_").count();
    println!(
        "== profiling level 1 (timing only): {} runtime calls instead of {} at level 3 ==",
        count(&light.stmt),
        count(&profiled.stmt)
    );
    Ok(ExitCode::SUCCESS)
}
