//! `loopir demo`: loopir's passes, one after another, on a built-in pipeline, with no file
//! at hand.
//!
//! The pipeline is the two-stage blur of `examples/blur_frontend.rs` at the schedule stage
//! (as Halide's "creating initial loop nests" leaves it), with that example's pipeline
//! environment: the demo shows what each pass does to it, in the reference's order.

use std::fmt::Write;
use std::time::Duration;

use loopir::pipeline::{Cause, LowerCtx, Pass, Pipeline, PipelineEnv, PipelineObserver};
use loopir::{Stmt, parse_stmt_with_env, stmt_to_string};
use loopir_bounds::{AllocationBounds, ComputationBounds};
use loopir_lower::StorageFlattening;
use loopir_profiling::{
    EntryTable, FuncEnv, InjectProfiling, InjectTracing, ProfileOptions, inject_profiling,
};

use crate::error::{CliError, InFile};
use crate::streams::print;

/// A two-stage blur at the schedule stage: `blur_x` is computed per row of `out` inside a
/// parallel loop over the rows.
pub const DEMO_STMT: &str = include_str!("../demo.stmt");

/// The blur's pipeline environment (`docs/pipeline.md`): its Funcs, image, output, order,
/// a target that profiles, and `blur_x`'s realizations traced.
pub const DEMO_ENV: &str = include_str!("../demo.env.json");

/// What each step shows, in one line, by pass name.
const STEPS: &[(&str, &str)] = &[
    (
        "trace",
        "tracing: halide_trace_helper calls for the pipeline, the parallel loop and blur_x's realizations",
    ),
    (
        "bounds",
        "computation bounds: lets defining each stage's min/max, and the markers later passes replace",
    ),
    ("allocation_bounds", "allocation bounds: lets defining blur_x's min_realized/extent_realized per row"),
    ("flatten", "storage flattening: realize -> allocate, Func and image accesses -> flat loads and stores"),
    ("profile", "profiling (level 3): the profiler's tables, instance start, per-Func marks, thread counts"),
];

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

/// Keeps each pass's output.
#[derive(Default)]
struct Steps(Vec<(&'static str, Stmt)>);

impl PipelineObserver for Steps {
    fn after(&mut self, _: usize, pass: Option<&dyn Pass>, stmt: &Stmt, _: Duration) -> Result<(), Cause> {
        if let Some(p) = pass {
            self.0.push((p.name(), stmt.clone()));
        }
        Ok(())
    }
}

fn write_demo(out: &mut String) -> Result<(), CliError> {
    let env = PipelineEnv::from_json(DEMO_ENV).in_file("demo.env.json")?;
    let stmt = parse_stmt_with_env(DEMO_STMT, &env.parse_env())
        .map_err(|e| CliError::input(e.render("demo.stmt")))?;
    let identical = stmt_to_string(&stmt) == DEMO_STMT;
    // Writing into a String cannot fail.
    let _ = writeln!(
        out,
        "== input (demo.stmt): a two-stage blur as a frontend builds it, before any pass ==\n{DEMO_STMT}"
    );
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

    let mut ctx = LowerCtx::new(env.clone()).in_file("demo.env.json")?;
    ctx.options.verify = true;
    let pipeline = Pipeline::new()
        .with(InjectTracing)
        .with(ComputationBounds)
        .with(AllocationBounds)
        .with(StorageFlattening)
        .with(InjectProfiling::default());
    let mut steps = Steps::default();
    pipeline.run_observed(&stmt, &mut ctx, &mut [&mut steps]).in_file("demo.stmt")?;
    for (k, (name, ir)) in steps.0.iter().enumerate() {
        let what = STEPS.iter().find(|(n, _)| n == name).map_or(*name, |(_, w)| *w);
        let _ = writeln!(out, "== {}. {what} ==", k + 1);
        out.push_str(&stmt_to_string(ir));
        out.push('\n');
    }

    let entries = ctx
        .analysis::<EntryTable>()
        .ok_or_else(|| CliError::input("demo: the profiling pass left no entry table"))?;
    let _ = writeln!(
        out,
        "== the profiler report's entries (blur_x under out, where it is computed), with their stable keys =="
    );
    out.push_str(&entries.render_tree_with_keys());
    out.push('\n');

    // Level 1 on the same flattened IR: only the timing marks.
    let flattened = steps
        .0
        .iter()
        .find(|(n, _)| *n == "flatten")
        .map(|(_, s)| s)
        .ok_or_else(|| CliError::input("demo: no flattened IR"))?;
    let timing_only =
        ProfileOptions::level(1).ok_or_else(|| CliError::input("demo: level 1 is a profiling level"))?;
    let func_env = FuncEnv::from_pipeline_env(&env);
    let light = inject_profiling(flattened, "blur", &func_env, &timing_only).in_file("demo.stmt")?;
    let full = steps.0.last().map(|(_, s)| stmt_to_string(s)).unwrap_or_default();
    let light_text = stmt_to_string(&light.stmt);
    let runtime_calls = |text: &str| -> Vec<String> {
        text.lines().map(str::trim).filter(|l| l.contains("halide_profiler_")).map(str::to_owned).collect()
    };
    let calls = runtime_calls(&light_text);
    let _ = writeln!(
        out,
        "== profiling level 1 (timing only): the {} statements that call the profiler's runtime, in order ({} at level 3) ==",
        calls.len(),
        runtime_calls(&full).len()
    );
    for call in calls {
        let _ = writeln!(out, "{call}");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_demo_runs_every_pass_on_its_statement() {
        let (text, result) = demo_text();
        assert!(result.is_ok(), "{text}");
        assert!(text.starts_with("== input (demo.stmt): a two-stage blur"), "{text}");
        assert!(text.contains("== parse and reprint: byte-identical"), "{text}");
        // One section per pass, in the reference's order, each with what the pass added.
        let sections: Vec<&str> =
            text.lines().filter(|l| l.starts_with("== ") && l.as_bytes()[3].is_ascii_digit()).collect();
        assert_eq!(sections.len(), 5, "{sections:?}");
        for ((k, section), (_, what)) in sections.iter().enumerate().zip(STEPS) {
            assert_eq!(*section, format!("== {}. {what} ==", k + 1));
        }
        assert!(text.contains("let blur_x.trace_id = halide_trace_helper(\"blur_x\""), "{text}");
        assert!(text.contains("let blur_x.s0.y.min = out.s0.y.min + -1\n"), "{text}");
        assert!(text.contains("let blur_x.y.extent_realized = "), "{text}");
        assert!(
            text.contains("allocate blur_x[uint16 * blur_x.x.extent_realized * blur_x.y.extent_realized]"),
            "{text}"
        );
        assert!(text.contains("halide_profiler_enable_instance(profiler_instance)\n"), "{text}");
        assert!(text.contains("  out\n"), "{text}");
        assert!(text.contains("  └blur_x\n"), "{text}");
        // The level-1 section lists its calls: the header is followed by them, not by the end.
        let level1 = text.split("== profiling level 1").nth(1).unwrap_or_default();
        assert!(
            level1.starts_with(
                " (timing only): the 8 statements that call the profiler's runtime, in order (23 at level 3) ==\n"
            ),
            "{level1}"
        );
        assert_eq!(level1.lines().skip(1).filter(|l| l.contains("halide_profiler_")).count(), 8, "{level1}");
    }
}
