//! Computation bounds inference, text-only (spec §2.1, §2.3), for pipelines whose Funcs
//! each have a single pure stage.
//!
//! **Assumes** the IR as ScheduleFunctions leaves it (corpus stage 00–03): loop nests
//! that refer to free `<f>.s<k>.<d>.min` / `.max` symbols, one `produce f` block per
//! non-inlined Func, a realize node per non-output Func.
//!
//! **Guarantees**: defines every `<f>.s0.<d>.min` / `.max` symbol at each loop level
//! where Halide's BoundsInference would (§2.1.4): the three markers are prepended; the
//! region each stage must compute is the merge of its consumers' required boxes (computed
//! once from each consumer's Provide, in the consumer's stage-qualified variables) and,
//! for outputs, the output buffer's region; production boxes are emitted at the levels
//! that produce inside a consumer's loop. Lets are emitted in Halide's order (§2.1.6).
//!
//! **Not supported** (reported as [`BoundsError::Unsupported`], never approximated):
//! update stages and reduction variables, specializations (several Provides to one
//! Func), extern Funcs, explicit `bound`s, output constraints, fused (`compute_with`)
//! loops.

use std::collections::BTreeMap;

use loopir::mutate::{Mutator, walk_stmt};
use loopir::{CallType, Expr, ExprKind, ForType, Name, Stmt, StmtKind, Type};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::bounds_of_expr::FuncValueBounds;
use crate::boxes::{Region, merge_boxes};
use crate::boxes_touched::{box_provided, boxes_required};
use crate::ctx::Ctx;
use crate::env::BoundsEnv;
use crate::error::BoundsError;
use crate::interval::{Bound, Interval};
use crate::ir;
use crate::scope::Scope;

/// One stage (`f.s0`) of a Func that is computed (has a produce block).
struct Stage {
    func: Name,
    /// Pure argument names, in dimension order.
    args: Vec<String>,
    /// The values of the stage's Provide.
    values: Vec<Expr>,
    /// Boxes required of this stage, keyed by (consumer Func, consumer stage).
    table: BTreeMap<(String, u32), Region>,
    /// Indices of consumer stages.
    consumers: Vec<usize>,
}

impl Stage {
    fn prefix(&self) -> String {
        format!("{}.s0", self.func)
    }
}

fn unsupported(what: impl Into<String>) -> BoundsError {
    BoundsError::Unsupported(what.into())
}

/// Runs computation bounds inference on `s` (see the module docs).
pub fn computation_bounds_inference(ctx: &Ctx, s: &Stmt, env: &BoundsEnv) -> Result<Stmt, BoundsError> {
    for (name, f) in &env.funcs {
        if !f.bounds.is_empty() {
            return Err(unsupported(format!("explicit bounds on {name}")));
        }
        if f.r#extern.is_some() {
            return Err(unsupported(format!("extern Func {name}")));
        }
    }
    if env.outputs.iter().any(|o| !o.constraints.is_empty()) {
        return Err(unsupported("output constraints"));
    }
    let facts = Facts::collect(s);
    if let Some(name) = facts.updated.first() {
        return Err(unsupported(format!("update stages of {name}")));
    }
    if facts.fused {
        return Err(unsupported("fused (compute_with) loops"));
    }
    let func_bounds = crate::func_value_bounds::func_value_bounds_from_text(ctx, s);
    let mut stages = Vec::new();
    for f in &env.order {
        if !facts.produced.contains(f.as_str()) {
            continue; // inlined or an input
        }
        let provides = facts.provides.get(f.as_str()).map_or(0, Vec::len);
        if provides != 1 {
            return Err(unsupported(format!("{provides} Provides to {f} (specializations)")));
        }
        let values = facts.provides.get(f.as_str()).and_then(|p| p.first()).cloned().unwrap_or_default();
        let args = facts
            .args
            .get(f.as_str())
            .cloned()
            .ok_or_else(|| unsupported(format!("no pure arguments for {f}")))?;
        stages.push(Stage {
            func: loopir::name(f),
            args,
            values,
            table: BTreeMap::new(),
            consumers: Vec::new(),
        });
    }
    consumer_analysis(ctx, &mut stages, env, &func_bounds)?;

    let markers: Vec<Stmt> = ["add_image_checks_marker"]
        .into_iter()
        .chain(env.target.profile.then_some("profiling_enable_instance_marker"))
        .chain(["skip_stages_marker"])
        .map(|m| Stmt::evaluate(Expr::call(Type::INT32, m, vec![], CallType::Intrinsic)))
        .collect();
    let body = Stmt::block(markers.into_iter().chain(std::iter::once(s.clone())).collect());
    let mut pass = Walk {
        ctx,
        stages: &stages,
        func_bounds: &func_bounds,
        in_pipeline: Vec::new(),
        inner: vec![FxHashSet::default()],
        error: None,
    };
    let out = pass.level(None, &body);
    match pass.error {
        Some(e) => Err(e),
        None => out,
    }
}

/// What the text says about the Funcs (§2.3.3).
#[derive(Default)]
struct Facts {
    produced: FxHashSet<String>,
    provides: FxHashMap<String, Vec<Vec<Expr>>>,
    args: FxHashMap<String, Vec<String>>,
    updated: Vec<String>,
    fused: bool,
}

impl Facts {
    fn collect(s: &Stmt) -> Facts {
        let mut f = Facts::default();
        let mut stack = vec![s.clone()];
        while let Some(st) = stack.pop() {
            match st.kind() {
                StmtKind::ProducerConsumer { name, is_producer: true, body } => {
                    f.produced.insert(name.to_string());
                    // Outputs: pure arguments from the leading `.loop_max` lets, reversed.
                    let mut names = Vec::new();
                    let mut cur = body.clone();
                    while let StmtKind::LetStmt { name: ln, body: b, .. } = cur.kind() {
                        let prefix = format!("{name}.s0.");
                        if let Some(d) =
                            ln.strip_prefix(prefix.as_str()).and_then(|r| r.strip_suffix(".loop_max"))
                            && !d.contains('.')
                        {
                            names.push(d.to_owned());
                        }
                        let next = b.clone();
                        cur = next;
                    }
                    names.reverse();
                    f.args.entry(name.to_string()).or_insert(names);
                    stack.push(body.clone());
                }
                StmtKind::Realize { name, bounds, body, .. } => {
                    let dims = bounds
                        .iter()
                        .enumerate()
                        .map(|(i, r)| {
                            r.min
                                .as_variable()
                                .and_then(|v| v.strip_prefix(name.as_ref()))
                                .and_then(|v| v.strip_prefix('.'))
                                .and_then(|v| v.strip_suffix(".min_realized"))
                                .map_or_else(|| format!("_{i}"), str::to_owned)
                        })
                        .collect();
                    f.args.insert(name.to_string(), dims);
                    stack.push(body.clone());
                }
                StmtKind::For { name, body, .. } => {
                    if name.contains(".fused.") {
                        f.fused = true;
                    }
                    if let Some((func, rest)) = name.split_once(".s")
                        && rest.chars().next().is_some_and(|c| c.is_ascii_digit() && c != '0')
                    {
                        f.updated.push(func.to_owned());
                    }
                    stack.push(body.clone());
                }
                StmtKind::Provide { name, values, .. } => {
                    f.provides.entry(name.to_string()).or_default().push(values.clone());
                }
                _ => {
                    let mut children = Vec::new();
                    collect_children(&st, &mut children);
                    stack.extend(children);
                }
            }
        }
        f
    }
}

fn collect_children(s: &Stmt, out: &mut Vec<Stmt>) {
    match s.kind() {
        StmtKind::LetStmt { body, .. }
        | StmtKind::ProducerConsumer { body, .. }
        | StmtKind::For { body, .. }
        | StmtKind::Allocate { body, .. }
        | StmtKind::Realize { body, .. }
        | StmtKind::Prefetch { body, .. }
        | StmtKind::Acquire { body, .. }
        | StmtKind::Atomic { body, .. }
        | StmtKind::HoistedStorage { body, .. } => out.push(body.clone()),
        StmtKind::Block(v) => out.extend(v.iter().cloned()),
        StmtKind::Fork { first, rest } => out.extend([first.clone(), rest.clone()]),
        StmtKind::IfThenElse { then_case, else_case, .. } => {
            out.push(then_case.clone());
            out.extend(else_case.iter().cloned());
        }
        _ => {}
    }
}

/// `select(c, t, f)` with a pure condition becomes `if_then_else(c, t, f)`, so that the
/// untaken side need not be covered (§2.1.2).
fn selects_to_if_then_else(e: &Expr) -> Expr {
    let inner = ir::rebuild_with(e, selects_to_if_then_else);
    match inner.kind() {
        ExprKind::Select(c, t, f) if t.ty().is_scalar() && is_pure(c) => {
            Expr::call(t.ty(), "if_then_else", vec![c.clone(), t.clone(), f.clone()], CallType::PureIntrinsic)
        }
        _ => inner,
    }
}

fn is_pure(e: &Expr) -> bool {
    let own = !matches!(
        e.kind(),
        ExprKind::Call { call_type: CallType::Extern | CallType::ExternCPlusPlus | CallType::Intrinsic, .. }
    );
    own && e.children().iter().all(|c| is_pure(c))
}

fn consumer_analysis(
    ctx: &Ctx,
    stages: &mut [Stage],
    env: &BoundsEnv,
    func_bounds: &FuncValueBounds,
) -> Result<(), BoundsError> {
    for c in 0..stages.len() {
        let prefix = stages[c].prefix();
        let mut scope: Scope<Interval> = Scope::new();
        for d in &stages[c].args {
            let v = format!("{prefix}.{d}");
            let (lo, hi) =
                (Expr::var_i32(format!("{v}.min").as_str()), Expr::var_i32(format!("{v}.max").as_str()));
            let _ = scope.push(v.as_str(), Interval::new(lo, hi));
        }
        let mut boxes: FxHashMap<Name, Region> = FxHashMap::default();
        for value in &stages[c].values.clone() {
            let e = selects_to_if_then_else(value);
            for (callee, mut b) in boxes_required(ctx, &e, &scope, func_bounds)? {
                b.used = Some(ir::make_bool(true, 1));
                match boxes.get_mut(&callee) {
                    Some(existing) => merge_boxes(ctx, existing, &b)?,
                    None => {
                        boxes.insert(callee, b);
                    }
                }
            }
        }
        let consumer_func = stages[c].func.clone();
        for producer in stages[..c].iter_mut() {
            let Some(b) = boxes.get(&producer.func) else { continue };
            if b.bounds.is_empty() {
                continue;
            }
            if let Some(k) = b.bounds.iter().position(|i| !i.is_bounded()) {
                // Halide's message, two spaces after "definition" included.
                return Err(BoundsError::UnboundedCall(format!(
                    "The pure definition  of Function {consumer_func} calls function {} in an unbounded way in dimension {k}",
                    producer.func
                )));
            }
            let mut b = b.clone();
            b.used = None;
            producer.table.insert((consumer_func.to_string(), 0), b);
            producer.consumers.push(c);
        }
    }
    // Each output stage gets the output buffer's region under its own key.
    for o in &env.outputs {
        let Some(stage) = stages.iter_mut().find(|s| s.func.as_ref() == o.func) else { continue };
        let bounds = (0..stage.args.len())
            .map(|d| {
                let min = Expr::var_i32(format!("{}.min.{d}", o.buffer).as_str());
                let extent = Expr::var_i32(format!("{}.extent.{d}", o.buffer).as_str());
                Interval::new(min.clone(), ir::sub(ir::add(min, extent), Expr::i32(1)))
            })
            .collect();
        stage.table.insert((o.func.clone(), 0), Region::new(bounds));
    }
    Ok(())
}

struct Walk<'a> {
    ctx: &'a Ctx,
    stages: &'a [Stage],
    func_bounds: &'a FuncValueBounds,
    /// Funcs whose produce or consume block encloses the current node.
    in_pipeline: Vec<Name>,
    /// Inner productions of each enclosing loop level (innermost last).
    inner: Vec<FxHashSet<Name>>,
    error: Option<BoundsError>,
}

/// Whether `e` mentions a bounds symbol (`….min`, `….max`, not `.loop_min`/`.loop_max`)
/// or queries a buffer's bounds.
fn depends_on_bounds(e: &Expr) -> bool {
    let mut stack = vec![e.clone()];
    let mut seen = FxHashSet::default();
    while let Some(n) = stack.pop() {
        if !seen.insert(n.as_ptr()) {
            continue;
        }
        match n.kind() {
            ExprKind::Variable(v) if v.ends_with(".min") || v.ends_with(".max") => return true,
            ExprKind::Call { name, .. }
                if matches!(name.as_ref(), "_halide_buffer_get_min" | "_halide_buffer_get_max") =>
            {
                return true;
            }
            _ => stack.extend(n.children().into_iter().cloned()),
        }
    }
    false
}

enum Peeled {
    Let(Name, Expr),
    If(Expr),
}

impl Walk<'_> {
    /// One loop level (`None`: the synthetic root), with its body.
    fn level(&mut self, loop_name: Option<&Name>, body: &Stmt) -> Result<Stmt, BoundsError> {
        // 1. Peel lets and else-less ifs that do not depend on bounds symbols.
        let mut peeled = Vec::new();
        let mut rest = body.clone();
        loop {
            let next = match rest.kind() {
                StmtKind::LetStmt { name, value, body } if !depends_on_bounds(value) => {
                    peeled.push(Peeled::Let(name.clone(), value.clone()));
                    body.clone()
                }
                StmtKind::IfThenElse { condition, then_case, else_case: None }
                    if !depends_on_bounds(condition) =>
                {
                    peeled.push(Peeled::If(condition.clone()));
                    then_case.clone()
                }
                _ => break,
            };
            rest = next;
        }
        // 2. A level whose remaining body is directly a loop defines nothing.
        let can_define =
            !matches!(rest.kind(), StmtKind::For { for_type, .. } if *for_type != ForType::Extern);
        // 3. The producing stage.
        let producing = loop_name
            .and_then(|l| self.stages.iter().position(|s| l.starts_with(&format!("{}.", s.prefix()))));
        // 4. Its production box, on the body before anything is inserted.
        let production = match producing {
            Some(p) if can_define => {
                box_provided(self.ctx, &rest, &self.stages[p].func, &Scope::new(), self.func_bounds)?
            }
            _ => None,
        };
        // 5. Recurse with a fresh set of inner productions.
        self.inner.push(FxHashSet::default());
        let mut new_body = self.mutate_stmt(&rest);
        let inner = self.inner.pop().unwrap_or_default();
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if can_define {
            // 6. Needed stages wrap the body, consumers outermost.
            let mut needed = vec![false; self.stages.len()];
            for i in 0..self.stages.len() {
                let stage = &self.stages[i];
                if inner.contains(&stage.func) {
                    needed[i] = true;
                }
                if self.in_pipeline.contains(&stage.func) {
                    needed[i] = false;
                }
                if needed[i] {
                    for &c in &stage.consumers {
                        needed[c] = true;
                    }
                    new_body = self.define_bounds(i, producing, &inner, new_body)?;
                }
            }
            // 7. The production box, if something is produced inside this level.
            if let (Some(p), Some(region)) = (producing, &production)
                && !inner.is_empty()
            {
                let prefix = self.stages[p].prefix();
                for (d, i) in self.stages[p].args.iter().zip(&region.bounds) {
                    let (Bound::Finite(lo), Bound::Finite(hi)) = (&i.min, &i.max) else {
                        return Err(BoundsError::Unbounded {
                            func: self.stages[p].func.clone(),
                            dim: d.clone(),
                        });
                    };
                    let min_name = loopir::name(&format!("{prefix}.{d}.min"));
                    let max_value =
                        if i.is_single_point() { Expr::var_i32(min_name.clone()) } else { hi.clone() };
                    new_body = Stmt::let_stmt(format!("{prefix}.{d}.max").as_str(), max_value, new_body);
                    new_body = Stmt::let_stmt(min_name, lo.clone(), new_body);
                }
            }
        }
        // 9. Put the peeled lets and ifs back, outermost.
        for p in peeled.into_iter().rev() {
            new_body = match p {
                Peeled::Let(n, v) => Stmt::let_stmt(n, v, new_body),
                Peeled::If(c) => {
                    Stmt::if_then_else(c, new_body, None).map_err(|e| BoundsError::IllTyped(e.to_string()))?
                }
            };
        }
        if let Some(parent) = self.inner.last_mut() {
            parent.extend(inner);
        }
        Ok(new_body)
    }

    /// Wraps `body` in the definitions of stage `s` at this level (§2.1.5).
    fn define_bounds(
        &self,
        s: usize,
        producing: Option<usize>,
        inner: &FxHashSet<Name>,
        body: Stmt,
    ) -> Result<Stmt, BoundsError> {
        let stage = &self.stages[s];
        let mut merged: Option<Region> = None;
        for ((consumer, _), b) in &stage.table {
            let consumer_stage = self.stages.iter().position(|st| st.func.as_ref() == consumer);
            let relevant =
                consumer_stage.is_some() && consumer_stage == producing || inner.contains(consumer.as_str());
            if !relevant {
                continue;
            }
            match merged.as_mut() {
                Some(m) => merge_boxes(self.ctx, m, b)?,
                None => merged = Some(b.clone()),
            }
        }
        let Some(region) = merged.filter(|r| !r.bounds.is_empty()) else { return Ok(body) };
        let prefix = stage.prefix();
        let mut out = body;
        for (d, i) in stage.args.iter().zip(&region.bounds) {
            let (Bound::Finite(lo), Bound::Finite(hi)) = (&i.min, &i.max) else {
                return Err(BoundsError::Unbounded { func: stage.func.clone(), dim: d.clone() });
            };
            let max_name = loopir::name(&format!("{prefix}.{d}.max"));
            let min_value = if i.is_single_point() { Expr::var_i32(max_name.clone()) } else { lo.clone() };
            out = Stmt::let_stmt(format!("{prefix}.{d}.min").as_str(), min_value, out);
            out = Stmt::let_stmt(max_name, hi.clone(), out);
        }
        Ok(out)
    }
}

impl Mutator for Walk<'_> {
    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        if self.error.is_some() {
            return s.clone();
        }
        match s.kind() {
            StmtKind::For { name, for_type, body, .. } if *for_type != ForType::Extern => {
                match self.level(Some(name), body) {
                    Ok(b) if b.same_as(body) => s.clone(),
                    Ok(b) => match s.kind() {
                        StmtKind::For { name, min, max, for_type, device_api, partition_policy, .. } => {
                            Stmt::from_kind_unchecked(StmtKind::For {
                                name: name.clone(),
                                min: min.clone(),
                                max: max.clone(),
                                for_type: *for_type,
                                device_api: *device_api,
                                partition_policy: *partition_policy,
                                body: b,
                            })
                        }
                        _ => s.clone(),
                    },
                    Err(e) => {
                        self.error = Some(e);
                        s.clone()
                    }
                }
            }
            StmtKind::For { .. } => s.clone(),
            StmtKind::ProducerConsumer { name, .. } => {
                for set in &mut self.inner {
                    set.insert(name.clone());
                }
                self.in_pipeline.push(name.clone());
                let r = walk_stmt(self, s);
                self.in_pipeline.pop();
                r
            }
            _ => walk_stmt(self, s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loopir::parse::{ParseEnv, parse_stmt_with_env};

    const ENV: &str =
        r#"{"order": ["f", "g"], "target": {"profile": false}, "outputs": [{"func": "g", "buffer": "g"}]}"#;

    fn run(text: &str) -> Result<String, BoundsError> {
        let env = BoundsEnv::from_json(ENV)?;
        let penv = ParseEnv::new().with_func("f", vec![Type::INT32]).with_func("g", vec![Type::INT32]);
        let s = parse_stmt_with_env(text, &penv).map_err(|e| BoundsError::Env(e.to_string()))?;
        computation_bounds_inference(&Ctx::new(), &s, &env).map(|s| s.to_string())
    }

    fn pipeline(consumer_value: &str) -> String {
        format!(
            "realize f([f.x.min_realized, f.x.extent_realized]) {{\n  produce f {{\n   let f.s0.x.loop_max = f.s0.x.max\n   let f.s0.x.loop_min = f.s0.x.min\n   for (f.s0.x, f.s0.x.loop_min, f.s0.x.loop_max) {{\n    f(f.s0.x) = f.s0.x\n   }}\n  }}\n  consume f {{\n   produce g {{\n    let g.s0.x.loop_max = g.s0.x.max\n    let g.s0.x.loop_min = g.s0.x.min\n    for (g.s0.x, g.s0.x.loop_min, g.s0.x.loop_max) {{\n     g(g.s0.x) = {consumer_value}\n    }}\n   }}\n  }}\n}}\n"
        )
    }

    #[test]
    fn p20_root_definitions_in_halide_order() {
        let out = run(&pipeline("f(g.s0.x/2) + f(g.s0.x - 1)")).unwrap_or_else(|e| panic!("{e}"));
        let expected_head = "let g.s0.x.max = (g.min.0 + g.extent.0) - 1\nlet g.s0.x.min = g.min.0\nlet f.s0.x.max = max(g.s0.x.max/2, g.s0.x.max + -1)\nlet f.s0.x.min = min(g.s0.x.min/2, g.s0.x.min + -1)\nadd_image_checks_marker()\nskip_stages_marker()\n";
        assert!(out.starts_with(expected_head), "{out}");
    }

    #[test]
    fn single_access_keeps_the_raw_interval() {
        let out = run(&pipeline("f(g.s0.x - 1)")).unwrap_or_else(|e| panic!("{e}"));
        assert!(out.contains("let f.s0.x.max = g.s0.x.max - 1\nlet f.s0.x.min = g.s0.x.min - 1\n"), "{out}");
    }

    #[test]
    fn p28_unbounded_consumer_is_an_error() {
        let r = run(&pipeline("f(int32(float32(g.s0.x)*(float32)f(0)))"));
        assert!(
            matches!(r, Err(BoundsError::UnboundedCall(ref m)) if m.contains("calls function f in an unbounded way in dimension 0")),
            "{r:?}"
        );
    }

    #[test]
    fn update_stages_are_unsupported() {
        let text = "produce f {\n for (f.s1.x, 0, 9) {\n  f(f.s1.x) = 1\n }\n}\n";
        assert!(matches!(run(text), Err(BoundsError::Unsupported(_))));
    }
}
