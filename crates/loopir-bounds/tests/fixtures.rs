//! Snapshot fixtures of `docs/reference/bounds.md` §4 (`fixtures/bounds/`): expression scenarios from
//! `exprs.txt` and statement scenarios from `boxes/*.stmt`. Each fixture says in its
//! leading `#` lines what it pins and declares what the text cannot (Funcs, images, the
//! scope); the snapshots live in `fixtures/bounds/snapshots/`.

use std::path::{Path, PathBuf};

use loopir::Type;
use loopir::parse::{ParseEnv, parse_expr, parse_stmt_with_env};
use loopir_bounds::{
    FuncValueBounds, bounds_of_expr_in_scope, bounds_of_expr_simplified, boxes_provided, boxes_required,
    boxes_touched,
};
use loopir_simplify::{Bound, Ctx, Interval, Scope, simplify};

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures/bounds")
}

fn parse_end(s: &str) -> Bound {
    match s.trim() {
        "neg_inf" => Bound::NegInf,
        "pos_inf" => Bound::PosInf,
        v => Bound::Finite(parse_expr(v).unwrap_or_else(|e| panic!("bad scope end {v}: {e}"))),
    }
}

/// `x=[0,10]; y=[17,pos_inf]` (or `sym`).
fn parse_scope(text: &str) -> Scope<'static, Interval> {
    let mut s = Scope::new();
    for item in text.split(';').map(str::trim).filter(|t| !t.is_empty() && *t != "sym") {
        let (name, range) = item.split_once('=').unwrap_or_else(|| panic!("bad scope item {item}"));
        let inner = range.trim().trim_start_matches('[').trim_end_matches(']');
        let (lo, hi) = inner.split_once(',').unwrap_or_else(|| panic!("bad range {range}"));
        let _ = s.push(name.trim(), Interval { min: parse_end(lo), max: parse_end(hi) });
    }
    s
}

fn snapshot(name: &str, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(fixtures_dir().join("snapshots"));
    settings.set_prepend_module_to_snapshot(false);
    settings.bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn expression_scenarios() {
    let text = std::fs::read_to_string(fixtures_dir().join("exprs.txt")).unwrap_or_else(|e| panic!("{e}"));
    let mut out = String::new();
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let parts: Vec<&str> = line.splitn(3, '|').map(str::trim).collect();
        let [id, scope, expr] = parts[..] else { panic!("bad line {line}") };
        let e = parse_expr(expr).unwrap_or_else(|err| panic!("{id}: {err}"));
        let s = parse_scope(scope);
        let ctx = Ctx::new();
        let raw = bounds_of_expr_in_scope(&ctx, &e, &s, &FuncValueBounds::default(), false);
        let simplified = bounds_of_expr_simplified(&Ctx::new(), &e, &s, &FuncValueBounds::default());
        out.push_str(&format!(
            "{id}: {expr}  with {scope}\n  raw:        {}\n  simplified: {}\n",
            raw.pretty(),
            simplified.pretty()
        ));
    }
    snapshot("exprs", &out);
}

struct Fixture {
    env: ParseEnv,
    scope: Scope<'static, Interval>,
    body: String,
}

fn load(path: &Path) -> Fixture {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{e}"));
    let mut env = ParseEnv::new();
    let mut scope_text = String::new();
    let mut body = String::new();
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("# funcs:") {
            for f in rest.split_whitespace() {
                env = env.with_func(f, vec![Type::INT32]);
            }
        } else if let Some(rest) = line.strip_prefix("# images:") {
            for f in rest.split_whitespace() {
                env = env.with_image(f, Type::INT32);
            }
        } else if let Some(rest) = line.strip_prefix("# scope:") {
            scope_text = rest.to_owned();
        } else if !line.starts_with('#') {
            body.push_str(line);
            body.push('\n');
        }
    }
    Fixture { env, scope: parse_scope(&scope_text), body }
}

fn show(map: &loopir_bounds::BoxMap, ctx: &Ctx) -> String {
    let empty = Scope::new();
    let mut out = String::new();
    for (name, r) in map {
        let simplified = r.map_exprs(|e| simplify(ctx, e, &empty));
        out.push_str(&format!("  {name}: {simplified}\n"));
    }
    if map.is_empty() {
        out.push_str("  (nothing)\n");
    }
    out
}

#[test]
fn statement_scenarios() {
    let dir = fixtures_dir().join("boxes");
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "stmt"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty());
    for path in paths {
        let f = load(&path);
        let stmt = parse_stmt_with_env(&f.body, &f.env).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let fb = FuncValueBounds::default();
        let ctx = Ctx::new();
        let req = boxes_required(&ctx, &stmt, &f.scope, &fb).unwrap_or_else(|e| panic!("{e}"));
        let prov = boxes_provided(&ctx, &stmt, &f.scope, &fb).unwrap_or_else(|e| panic!("{e}"));
        let touched = boxes_touched(&ctx, &stmt, &f.scope, &fb).unwrap_or_else(|e| panic!("{e}"));
        let text = format!(
            "{}required:\n{}provided:\n{}touched:\n{}",
            f.body,
            show(&req, &ctx),
            show(&prov, &ctx),
            show(&touched, &ctx)
        );
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("fixture").to_owned();
        snapshot(&name, &text);
    }
}
