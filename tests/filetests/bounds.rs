//! `#!test boxes` and `#!test bounds-of-expr`: the scenarios of
//! `docs/reference/bounds.md` §4 (`filetests/bounds`).
//!
//! * `boxes`: a statement; the snapshot is the statement followed by its required,
//!   provided and touched boxes, each end simplified. Directives declare what the text
//!   cannot: `#!funcs f g` (int32 Funcs), `#!images in` (int32 images), `#!scope
//!   x=[0,10]; y=[17,pos_inf]` (intervals of free variables; `neg_inf`/`pos_inf` for
//!   unbounded ends).
//! * `bounds-of-expr`: a table, one scenario a line, `ID | scope | expression` (scope as
//!   above, `sym` for none; blank and `#` lines skipped); the snapshot shows each
//!   expression's raw interval and its simplified one.

use loopir::Type;
use loopir::parse::{ParseEnv, parse_expr, parse_stmt_with_env};
use loopir_bounds::{
    BoxMap, FuncValueBounds, bounds_of_expr_in_scope, bounds_of_expr_simplified, boxes_provided,
    boxes_required, boxes_touched,
};
use loopir_simplify::{Bound, Ctx, Interval, Scope, simplify};

use crate::Output;
use crate::header::Fixture;

fn parse_end(s: &str) -> Result<Bound, String> {
    Ok(match s.trim() {
        "neg_inf" => Bound::NegInf,
        "pos_inf" => Bound::PosInf,
        v => Bound::Finite(parse_expr(v).map_err(|e| format!("bad scope end `{v}`: {e}"))?),
    })
}

/// `x=[0,10]; y=[17,pos_inf]` (or `sym`).
fn parse_scope(text: &str) -> Result<Scope<'static, Interval>, String> {
    let mut s = Scope::new();
    for item in text.split(';').map(str::trim).filter(|t| !t.is_empty() && *t != "sym") {
        let (name, range) = item.split_once('=').ok_or_else(|| format!("bad scope item `{item}`"))?;
        let inner = range.trim().trim_start_matches('[').trim_end_matches(']');
        let (lo, hi) = inner.split_once(',').ok_or_else(|| format!("bad range `{range}`"))?;
        let _ = s.push(name.trim(), Interval { min: parse_end(lo)?, max: parse_end(hi)? });
    }
    Ok(s)
}

pub fn run_exprs(f: &Fixture) -> Result<Output, String> {
    let mut out = String::new();
    let mut cases = 0;
    for line in f.body.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
        let parts: Vec<&str> = line.splitn(3, '|').map(str::trim).collect();
        let [id, scope, expr] = parts[..] else {
            return Err(format!("`{line}` is not `ID | scope | expression`"));
        };
        let e = parse_expr(expr).map_err(|err| format!("{id}: {err}"))?;
        let s = parse_scope(scope).map_err(|err| format!("{id}: {err}"))?;
        let raw = bounds_of_expr_in_scope(&Ctx::new(), &e, &s, &FuncValueBounds::default(), false);
        let simplified = bounds_of_expr_simplified(&Ctx::new(), &e, &s, &FuncValueBounds::default());
        out.push_str(&format!(
            "{id}: {expr}  with {scope}\n  raw:        {}\n  simplified: {}\n",
            raw.pretty(),
            simplified.pretty()
        ));
        cases += 1;
    }
    Ok(Output { snapshots: vec![(None, out)], cases })
}

fn show(map: &BoxMap, ctx: &Ctx) -> String {
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

pub fn run_boxes(f: &Fixture) -> Result<Output, String> {
    let mut env = ParseEnv::new();
    for d in f.values("funcs") {
        for name in d.value.split_whitespace() {
            env = env.with_func(name, vec![Type::INT32]);
        }
    }
    for d in f.values("images") {
        for name in d.value.split_whitespace() {
            env = env.with_image(name, Type::INT32);
        }
    }
    let scope = match f.values("scope").next() {
        Some(d) => {
            f.single("scope")?;
            parse_scope(&d.value).map_err(|e| format!("{}: {e}", f.at(d)))?
        }
        None => Scope::new(),
    };
    let stmt = parse_stmt_with_env(&f.body, &env)
        .map_err(|e| format!("the statement does not parse:\n{}", e.render(f.file_name())))?;
    let fb = FuncValueBounds::default();
    let ctx = Ctx::new();
    let req = boxes_required(&ctx, &stmt, &scope, &fb).map_err(|e| format!("boxes_required: {e}"))?;
    let prov = boxes_provided(&ctx, &stmt, &scope, &fb).map_err(|e| format!("boxes_provided: {e}"))?;
    let touched = boxes_touched(&ctx, &stmt, &scope, &fb).map_err(|e| format!("boxes_touched: {e}"))?;
    Ok(Output::snapshot(format!(
        "{}required:\n{}provided:\n{}touched:\n{}",
        f.body,
        show(&req, &ctx),
        show(&prov, &ctx),
        show(&touched, &ctx)
    )))
}
