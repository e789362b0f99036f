//! Snapshot fixtures of the tracing pass: `fixtures/tracing/*.stmt`.
//!
//! A fixture starts with `#` comment lines: the first says what it pins; lines starting
//! with `#!` configure the run:
//!
//! * `#!env <json>` — the [`TraceEnv`] (several lines are concatenated);
//! * `#!box <name>: [min, max], [min, max], ...` — the touched box of a traced name, for its
//!   `func_type_and_dim` tag (`[*, *]` for an unbounded dimension). The box component is
//!   isolated this way (`docs/reference/tracing.md` §8.4), so that these snapshots pin the pass and not the
//!   simplifier of `loopir-bounds` (the oracle test covers the real analysis);
//! * `#!options first_temp=N first_task=N` — name counters.
//!
//! The rest is the input statement, in printed (lossless) form. Snapshots print the output
//! losslessly too, so reads of tuple elements above 0 show as `f(x)[1]`. Fixtures named
//! `checker_*` hold already instrumented IR and pin the hierarchy checker's verdict
//! instead. Every pass output is also run through the checker, and its verdict is part of
//! the snapshot.

mod tracing_support;

use std::path::Path;

use loopir::{PrintOptions, parse_expr, parse_stmt_with_env, stmt_to_string_with};
use loopir_profiling::tracing::{
    RecordedBoxes, TouchedBox, TouchedInterval, TraceEnv, TraceOptions, check_trace_hierarchy,
    inject_tracing_with,
};
use tracing_support::{fixtures_dir, read_fixture};

struct Fixture {
    env: TraceEnv,
    boxes: RecordedBoxes,
    first_temp: Option<u64>,
    first_task: u64,
    body: String,
}

/// Splits `[a, b], [c, d]` at the top-level commas between brackets.
fn bracket_groups(text: &str) -> Vec<String> {
    let mut groups = Vec::new();
    let mut depth = 0i32;
    let mut cur = String::new();
    for ch in text.chars() {
        match ch {
            '[' if depth == 0 => {
                depth = 1;
                cur.clear();
            }
            '[' | '(' => {
                depth += 1;
                cur.push(ch);
            }
            ']' if depth == 1 => {
                depth = 0;
                groups.push(cur.clone());
            }
            ']' | ')' => {
                depth -= 1;
                cur.push(ch);
            }
            _ if depth > 0 => cur.push(ch),
            _ => {}
        }
    }
    groups
}

/// Splits `a, b` at its top-level comma.
fn split_pair(text: &str) -> (String, String) {
    let mut depth = 0i32;
    for (i, ch) in text.char_indices() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => return (text[..i].trim().to_owned(), text[i + 1..].trim().to_owned()),
            _ => {}
        }
    }
    panic!("`{text}` is not a pair")
}

fn parse_fixture(path: &Path) -> Fixture {
    let text = std::fs::read_to_string(path).expect("readable fixture");
    let (_, body) = read_fixture(path);
    let mut env_json = String::new();
    let mut boxes = RecordedBoxes::new();
    let mut first_temp = None;
    let mut first_task = 0;
    for line in text.lines().take_while(|l| l.starts_with('#')) {
        if let Some(json) = line.strip_prefix("#!env ") {
            env_json.push_str(json);
        } else if let Some(spec) = line.strip_prefix("#!box ") {
            let (name, dims) = spec.split_once(':').expect("`#!box name: dims`");
            let dims = bracket_groups(dims)
                .iter()
                .map(|g| {
                    let (lo, hi) = split_pair(g);
                    if lo == "*" && hi == "*" {
                        TouchedInterval::everything()
                    } else {
                        let lo = parse_expr(&lo).expect("box min parses");
                        let hi = parse_expr(&hi).expect("box max parses");
                        TouchedInterval::bounded(lo, hi)
                    }
                })
                .collect();
            boxes = boxes.with(name.trim(), TouchedBox { dims });
        } else if let Some(opts) = line.strip_prefix("#!options ") {
            for kv in opts.split_whitespace() {
                match kv.split_once('=') {
                    Some(("first_temp", v)) => first_temp = Some(v.parse().expect("number")),
                    Some(("first_task", v)) => first_task = v.parse().expect("number"),
                    _ => panic!("unknown option `{kv}` in {}", path.display()),
                }
            }
        }
    }
    let env = if env_json.is_empty() {
        TraceEnv::new("pipeline")
    } else {
        TraceEnv::from_json(&env_json).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    };
    Fixture { env, boxes, first_temp, first_task, body }
}

fn verdict(result: Result<(), Vec<loopir_profiling::tracing::HierarchyViolation>>) -> String {
    match result {
        Ok(()) => "hierarchy: ok".to_owned(),
        Err(v) => {
            let lines: Vec<String> = v.iter().map(|x| format!("- {x}")).collect();
            format!("hierarchy: {} violation(s)\n{}", v.len(), lines.join("\n"))
        }
    }
}

fn run(path: &Path) -> String {
    let fx = parse_fixture(path);
    let stem = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let stmt = parse_stmt_with_env(&fx.body, &fx.env.parse_env())
        .unwrap_or_else(|e| panic!("{}: the statement does not parse: {e}", path.display()));
    let lossless = stmt_to_string_with(&stmt, PrintOptions { lossless: true, ..PrintOptions::default() });
    assert_eq!(lossless, fx.body, "{}: the statement is not in printed form", path.display());
    if stem.starts_with("checker_") {
        return verdict(check_trace_hierarchy(&stmt));
    }
    let options = TraceOptions { first_temp: fx.first_temp, first_task: fx.first_task, boxes: &fx.boxes };
    match inject_tracing_with(&stmt, &fx.env, &options) {
        Ok(out) => {
            let unchanged = if out.same_as(&stmt) { "(the input statement itself)\n" } else { "" };
            let text = stmt_to_string_with(&out, PrintOptions { lossless: true, ..PrintOptions::default() });
            format!("{unchanged}{text}--- {}", verdict(check_trace_hierarchy(&out)))
        }
        Err(e) => format!("error: {e}"),
    }
}

#[test]
fn fixtures() {
    let dir = fixtures_dir();
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("fixtures/tracing exists")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "stmt"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no fixtures in {}", dir.display());
    for path in &paths {
        let (comment, _) = read_fixture(path);
        let first = std::fs::read_to_string(path).unwrap_or_default();
        assert!(first.starts_with("# "), "{}: the first line must say what the fixture pins", path.display());
        let name = path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let output = run(path);
        insta::with_settings!({
            snapshot_path => dir.join("snapshots"),
            prepend_module_to_snapshot => false,
            description => comment,
            omit_expression => true,
        }, {
            insta::assert_snapshot!(name, output);
        });
    }
}
