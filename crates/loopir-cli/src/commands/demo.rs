//! `loopir demo`: loopir's main job on a built-in pipeline, with no file at hand.

use std::fmt::Write;

use loopir::{parse_stmt, stmt_to_string};
use loopir_profiling::{FuncEnv, FuncInfo, ProfileOptions, inject_profiling};

use crate::error::{CliError, InFile};
use crate::streams::print;

/// A two-stage blur as Halide lowers it just before instrumentation: `blur_x` is computed
/// per row of `out` inside a parallel loop.
pub const DEMO_STMT: &str = include_str!("../demo.stmt");

/// Runs the demo.
pub fn run() -> Result<(), CliError> {
    // The whole text is built first and written once, so that a failed write is one
    // error (see `crate::streams`).
    let (text, result) = demo_text();
    print(text.as_bytes())?;
    result
}

/// The demo's output, and whether the demo went as it should (the built-in statement
/// reprints byte for byte and the passes accept it).
fn demo_text() -> (String, Result<(), CliError>) {
    let mut out = String::new();
    let result = write_demo(&mut out);
    (out, result)
}

fn write_demo(out: &mut String) -> Result<(), CliError> {
    let stmt = parse_stmt(DEMO_STMT).map_err(|e| CliError::input(e.render("demo.stmt")))?;
    let reprinted = stmt_to_string(&stmt);
    let identical = reprinted == DEMO_STMT;
    // Writing into a String cannot fail.
    let _ = writeln!(out, "== input: a two-stage blur, lowered (demo.stmt) ==\n{DEMO_STMT}");
    let _ = writeln!(
        out,
        "== parse and reprint: {} ({} bytes) ==",
        if identical { "byte-identical" } else { "DIFFERENT" },
        DEMO_STMT.len()
    );
    if !identical {
        return Err(CliError::input("demo.stmt: the built-in statement does not reprint byte for byte"));
    }
    out.push('\n');

    let env = FuncEnv::new()
        .with(FuncInfo::new("blur_x"))
        .with(FuncInfo::new("input_im").with_display_name("input (input)"))
        .with(FuncInfo::new("out"));
    let profiled = inject_profiling(&stmt, "blur", &env, &ProfileOptions::default()).in_file("demo.stmt")?;
    let _ = writeln!(out, "== inject_profiling: the instrumented statement ==");
    out.push_str(&stmt_to_string(&profiled.stmt));
    let _ = writeln!(out, "\n== inject_profiling: the profiler report's entries, with their stable keys ==");
    out.push_str(&profiled.entries.render_tree_with_keys());
    out.push('\n');

    let timing_only =
        ProfileOptions::level(1).ok_or_else(|| CliError::input("demo: level 1 is a profiling level"))?;
    let light = inject_profiling(&stmt, "blur", &env, &timing_only).in_file("demo.stmt")?;
    let count = |s: &loopir::Stmt| stmt_to_string(s).matches("halide_profiler_").count();
    let _ = writeln!(
        out,
        "== profiling level 1 (timing only): {} runtime calls instead of {} at level 3 ==",
        count(&light.stmt),
        count(&profiled.stmt)
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_reprints_its_statement_and_instruments_it() {
        let (text, result) = demo_text();
        assert!(result.is_ok());
        assert!(text.starts_with("== input: a two-stage blur"), "{text}");
        assert!(text.contains("== parse and reprint: byte-identical"), "{text}");
        assert!(text.contains("halide_profiler_instance_start"), "{text}");
        assert!(text.ends_with("8 runtime calls instead of 26 at level 3 ==\n"), "{text}");
    }
}
