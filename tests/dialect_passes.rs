//! Every pass runs on either dialect, converting on the way in and out: each oracle case's
//! pass input, written in Halide 21.0.0's dialect, read back as such and run through the
//! pass, prints in Halide 21's dialect exactly what the reference's expected output does
//! when written in Halide 21's dialect. (Trace events with a thread id, which Halide 21's
//! trace calls lack, print with it: `check_writable` is what refuses them.)
//!
//! (Halide 21 text converted to the reference's dialect and back is unchanged, so the
//! loops the pass leaves alone print the same extents whichever dialect it ran on.)

mod support;

use loopir::dialect::{Dialect, check_writable};
use loopir::{
    ParseEnv, ParseOptions, PrintOptions, Stmt, parse_stmt_with_env, parse_stmt_with_options,
    stmt_to_string_with,
};
use loopir_profiling::{FuncEnv, ProfileOptions, TraceEnv, inject_profiling, inject_tracing};

fn in_21(s: &Stmt) -> String {
    stmt_to_string_with(s, PrintOptions::dialect(Dialect::Halide21))
}

/// `text` (the reference's) written in Halide 21's dialect and read back as such.
fn through_21(text: &str, env: &ParseEnv) -> Result<Stmt, String> {
    let s = parse_stmt_with_env(text, env).map_err(|e| e.to_string())?;
    let options = ParseOptions { dialect: Some(Dialect::Halide21), lenient: false };
    parse_stmt_with_options(in_21(&s).as_bytes(), env, options).map(|p| p.value).map_err(|e| e.to_string())
}

fn cases_with(file: &str) -> Vec<std::path::PathBuf> {
    let mut cases: Vec<_> = std::fs::read_dir(loopir_testkit::oracle::cases())
        .expect("readable oracle")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.join(file).is_file())
        .collect();
    cases.sort();
    cases
}

#[test]
fn profiling_runs_on_halide21_text() {
    let cases = cases_with("profile.input.stmt");
    assert!(cases.len() > 30, "expected the oracle's profiling cases, found {}", cases.len());
    let mut failures = Vec::new();
    for dir in &cases {
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect("readable");
        let env = FuncEnv::from_json(&read("profile.env.json")).expect("a valid env");
        let pipeline = env.pipeline_name().expect("a pipeline name").to_owned();
        let result = (|| {
            let input = through_21(&read("profile.input.stmt"), &ParseEnv::default())?;
            let out = inject_profiling(&input, &pipeline, &env, &ProfileOptions::default())
                .map_err(|e| e.to_string())?;
            let expected = parse_stmt_with_env(&read("profile.expected.stmt"), &ParseEnv::default())
                .map_err(|e| e.to_string())?;
            let (got, want) = (in_21(&out.stmt), in_21(&expected));
            // The reference's own name collisions (see the profiling oracle test) aside.
            if got == want || got.replace("$1", "") == want.replace("$1", "") {
                Ok(())
            } else {
                Err(loopir_testkit::text::first_difference(&want, &got))
            }
        })();
        if let Err(e) = result {
            failures.push(format!("{}: {e}", dir.display()));
        }
    }
    assert!(failures.is_empty(), "{} of {} cases:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

#[test]
fn tracing_runs_on_halide21_text() {
    let cases = cases_with("trace.input.stmt");
    assert!(cases.len() >= 12, "expected the oracle's tracing cases, found {}", cases.len());
    let mut failures = Vec::new();
    let mut unwritable = 0;
    for dir in &cases {
        let read = |f: &str| std::fs::read_to_string(dir.join(f)).expect("readable");
        let env = TraceEnv::from_json(&read("trace.env.json")).expect("a valid env");
        let penv = env.parse_env();
        let input_file = if dir.join("trace.input.lossless.stmt").is_file() {
            "trace.input.lossless.stmt"
        } else {
            "trace.input.stmt"
        };
        let result = (|| {
            let expected =
                parse_stmt_with_env(&read("trace.expected.stmt"), &penv).map_err(|e| e.to_string())?;
            // Parallel-task events carry thread ids, which Halide 21 has no place for: the
            // CLI refuses to write them in its dialect, the printer keeps the argument.
            unwritable += usize::from(check_writable(&expected, Dialect::Halide21).is_err());
            let s = parse_stmt_with_env(&read(input_file), &penv).map_err(|e| e.to_string())?;
            let lossless21 = PrintOptions { lossless: true, dialect: Dialect::Halide21 };
            let options = ParseOptions { dialect: Some(Dialect::Halide21), lenient: false };
            let input =
                parse_stmt_with_options(stmt_to_string_with(&s, lossless21).as_bytes(), &penv, options)
                    .map_err(|e| e.to_string())?
                    .value;
            let out = inject_tracing(&input, &env).map_err(|e| e.to_string())?;
            let (got, want) = (in_21(&out), in_21(&expected));
            if got == want { Ok(()) } else { Err(loopir_testkit::text::first_difference(&want, &got)) }
        })();
        if let Err(e) = result {
            failures.push(format!("{}: {e}", dir.display()));
        }
    }
    println!("{} tracing cases, {unwritable} with parallel-task events (no Halide 21 form)", cases.len());
    assert!(failures.is_empty(), "{} of {} cases:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
