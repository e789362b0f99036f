//! `#!test trace` and `#!test trace-check`: the tracing pass and its hierarchy checker
//! (`filetests/tracing`).
//!
//! Directives:
//!
//! * `#!env <json>` — the [`TraceEnv`] (several lines are concatenated; default: a
//!   pipeline named `pipeline` with nothing traced);
//! * `#!box <name>: [min, max], [min, max], ...` — the touched box of a traced name, for
//!   its `func_type_and_dim` tag (`[*, *]` for an unbounded dimension). The box component
//!   is isolated this way (`docs/reference/tracing.md` §8.4), so that these snapshots pin
//!   the pass and not the simplifier (the oracle tests cover the real analysis);
//! * `#!options first_temp=N first_task=N` — name counters.
//!
//! The input is a statement in printed (lossless) form. Snapshots print the output
//! losslessly too, so reads of tuple elements above 0 show as `f(x)[1]`. Every pass
//! output is run through the checker, and its verdict is part of the snapshot;
//! `trace-check` fixtures hold already instrumented IR and pin the checker's verdict alone.

use loopir::{PrintOptions, Stmt, parse_expr, parse_stmt_with_env, stmt_to_string_with};
use loopir_profiling::tracing::{
    HierarchyViolation, RecordedBoxes, TouchedBox, TouchedInterval, TraceEnv, TraceOptions,
    check_trace_hierarchy, inject_tracing_with,
};

use crate::Output;
use crate::header::Fixture;

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
fn split_pair(text: &str) -> Option<(String, String)> {
    let mut depth = 0i32;
    for (i, ch) in text.char_indices() {
        match ch {
            '(' | '[' => depth += 1,
            ')' | ']' => depth -= 1,
            ',' if depth == 0 => return Some((text[..i].trim().to_owned(), text[i + 1..].trim().to_owned())),
            _ => {}
        }
    }
    None
}

fn trace_env(f: &Fixture) -> Result<TraceEnv, String> {
    let json: String = f.values("env").map(|d| d.value.as_str()).collect();
    if json.is_empty() {
        return Ok(TraceEnv::new("pipeline"));
    }
    TraceEnv::from_json(&json).map_err(|e| format!("`#!env`: {e}"))
}

fn touched_box(spec: &str) -> Result<(String, TouchedBox), String> {
    let (name, dims) = spec.split_once(':').ok_or("expected `#!box name: [min, max], ...`")?;
    let mut out = Vec::new();
    for g in bracket_groups(dims) {
        let (lo, hi) = split_pair(&g).ok_or_else(|| format!("`[{g}]` is not `[min, max]`"))?;
        if lo == "*" && hi == "*" {
            out.push(TouchedInterval::everything());
        } else {
            let lo = parse_expr(&lo).map_err(|e| format!("box min `{lo}`: {e}"))?;
            let hi = parse_expr(&hi).map_err(|e| format!("box max `{hi}`: {e}"))?;
            out.push(TouchedInterval::bounded(lo, hi));
        }
    }
    Ok((name.trim().to_owned(), TouchedBox { dims: out }))
}

/// The input, parsed in the env's terms; it must be in printed (lossless) form.
fn input(f: &Fixture, env: &TraceEnv) -> Result<Stmt, String> {
    let stmt = parse_stmt_with_env(&f.body, &env.parse_env())
        .map_err(|e| format!("the statement does not parse:\n{}", e.render(f.file_name())))?;
    if lossless(&stmt) != f.body {
        return Err("the statement is not in printed (lossless) form".into());
    }
    Ok(stmt)
}

fn lossless(s: &Stmt) -> String {
    stmt_to_string_with(s, PrintOptions { lossless: true, ..PrintOptions::default() })
}

fn verdict(result: Result<(), Vec<HierarchyViolation>>) -> String {
    match result {
        Ok(()) => "hierarchy: ok".to_owned(),
        Err(v) => {
            let lines: Vec<String> = v.iter().map(|x| format!("- {x}")).collect();
            format!("hierarchy: {} violation(s)\n{}", v.len(), lines.join("\n"))
        }
    }
}

pub fn run(f: &Fixture) -> Result<Output, String> {
    let env = trace_env(f)?;
    let mut boxes = RecordedBoxes::new();
    for d in f.values("box") {
        let (name, b) = touched_box(&d.value).map_err(|e| format!("{}: {e}", f.at(d)))?;
        boxes = boxes.with(&name, b);
    }
    let (mut first_temp, mut first_task) = (None, 0);
    for d in f.values("options") {
        for kv in d.value.split_whitespace() {
            let number = |v: &str| v.parse::<u64>().map_err(|e| format!("{}: `{kv}`: {e}", f.at(d)));
            match kv.split_once('=') {
                Some(("first_temp", v)) => first_temp = Some(number(v)?),
                Some(("first_task", v)) => first_task = number(v)?,
                _ => return Err(format!("{}: unknown option `{kv}` (first_temp=N, first_task=N)", f.at(d))),
            }
        }
    }
    let stmt = input(f, &env)?;
    let options = TraceOptions { first_temp, first_task, boxes: &boxes };
    let text = match inject_tracing_with(&stmt, &env, &options) {
        Ok(out) => {
            let unchanged = if out.same_as(&stmt) { "(the input statement itself)\n" } else { "" };
            format!("{unchanged}{}--- {}", lossless(&out), verdict(check_trace_hierarchy(&out)))
        }
        Err(e) => format!("error: {e}"),
    };
    Ok(Output::snapshot(text))
}

pub fn run_check(f: &Fixture) -> Result<Output, String> {
    let stmt = input(f, &trace_env(f)?)?;
    Ok(Output::snapshot(verdict(check_trace_hierarchy(&stmt))))
}
