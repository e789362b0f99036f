//! Checking a [`TraceEnv`] against the statement it is used with, before anything is
//! rewritten: a setting the IR contradicts would otherwise change the output silently (a
//! realization with the wrong number of dimensions, a switch for a misspelt Func that
//! traces nothing) or make the pass build something absurd (a dummy realization of 2^40
//! dimensions, a touch table of 4 billion tuple elements).
//!
//! The environment lists every Func of the pipeline, inlined ones included (the oracle's
//! do), so a Func that does not occur in the IR is accepted, unless it asks for something
//! that cannot happen without it: a tracing switch of its own, or being an output.
//!
//! The walk visits a shared expression node once, so it is linear in the IR's DAG.

use loopir::address_map::AddressSet;
use loopir::expr::ExprNode;
use loopir::visit::Visitor;
use loopir::{CallType, Expr, ExprKind, Stmt, StmtKind, Type};

use super::env::{EnvIndex, FuncTracing, TraceEnv, type_list_text};
use super::error::{TracingError, expr_text, stmt_head, stmt_text};

impl TraceEnv {
    /// Checks that this environment is consistent in itself and fits `stmt`; the pass does
    /// this first. Errors name the field (as a path into the JSON form, e.g.
    /// `funcs[1].args`) and, where there is one, the IR node it disagrees with:
    ///
    /// * every Func the statement realizes, produces, consumes, stores to or calls is in
    ///   `funcs`, and every image it loads is in `images`;
    /// * a Func's pure argument count (`args`) is the number of dimensions of each of its
    ///   realizations, stores and calls; its `types` are its realizations' types, one per
    ///   value of each store, and the type of each call of a value (calls read one of its
    ///   values, an image's only value);
    /// * an output is a Func of `funcs` with as many `dimensions` as it has arguments and
    ///   the same `types`, occurs in the statement and is not realized there (the pass
    ///   adds its realization);
    /// * a Func with a tracing switch of its own, and an image with `trace_loads`, occur in
    ///   the statement;
    /// * no name is listed twice, `order` lists Funcs, `fresh_names.t` is at most
    ///   2^31 − 1.
    ///
    /// ```
    /// use loopir::{Type, parse_stmt_with_env};
    /// use loopir_profiling::tracing::{FuncTracing, OutputTracing, TraceEnv, TracingError};
    ///
    /// let env = TraceEnv::new("f")
    ///     .with_func(FuncTracing::new("f", &["x"], vec![Type::INT32]))
    ///     .with_output(OutputTracing::new("f", 1, vec![Type::INT32]));
    /// let s = parse_stmt_with_env("f(f.s0.x, f.s0.y) = 0\n", &env.parse_env()).unwrap();
    /// let err = env.check_against(&s).unwrap_err();
    /// assert!(matches!(&err, TracingError::EnvMismatch { field, .. } if field == "funcs[0].args"), "{err}");
    /// ```
    pub fn check_against(&self, stmt: &Stmt) -> Result<(), TracingError> {
        check_ir(&EnvIndex::new(self)?, stmt)
    }
}

/// [`TraceEnv::check_against`] with the environment already indexed.
pub(crate) fn check_ir(index: &EnvIndex<'_>, stmt: &Stmt) -> Result<(), TracingError> {
    let env = index.env;
    let mut walk = IrCheck {
        index,
        func_met: vec![false; env.funcs.len()],
        image_met: vec![false; env.images.len()],
        seen: AddressSet::default(),
        error: None,
    };
    walk.visit_stmt(stmt);
    if let Some(e) = walk.error {
        return Err(e);
    }
    for (i, o) in env.outputs.iter().enumerate() {
        if !index.func_at(&o.name).is_some_and(|(fi, _)| walk.func_met[fi]) {
            let problem =
                format!("output `{}` does not occur in the statement (no produce, store or call)", o.name);
            return Err(mismatch(format!("outputs[{i}].name"), problem, None));
        }
    }
    for (i, f) in env.funcs.iter().enumerate() {
        let switch = [
            ("trace_loads", f.trace_loads),
            ("trace_stores", f.trace_stores),
            ("trace_realizations", f.trace_realizations),
        ]
        .into_iter()
        .find(|(_, on)| *on);
        if let Some((switch, _)) = switch.filter(|_| !walk.func_met[i]) {
            let problem = format!(
                "Func `{}` does not occur in the statement (no realization, produce, consume, store or \
                 call), so its `{switch}` cannot take effect (is the name misspelt, or is the Func inlined?)",
                f.name
            );
            return Err(mismatch(format!("funcs[{i}].{switch}"), problem, None));
        }
    }
    for (i, img) in env.images.iter().enumerate() {
        if img.trace_loads && !walk.image_met[i] {
            let problem = format!(
                "image `{}` is never loaded in the statement, so its `trace_loads` cannot take effect",
                img.name
            );
            return Err(mismatch(format!("images[{i}].trace_loads"), problem, None));
        }
    }
    Ok(())
}

fn mismatch(field: String, problem: String, node: Option<String>) -> TracingError {
    TracingError::EnvMismatch { field, problem, node }
}

struct IrCheck<'e, 'a> {
    index: &'e EnvIndex<'a>,
    /// Whether each Func of `funcs` occurs in the statement.
    func_met: Vec<bool>,
    /// Whether each image of `images` is loaded in the statement.
    image_met: Vec<bool>,
    /// Shared expression nodes already checked.
    seen: AddressSet<*const ExprNode>,
    /// The first mismatch, in program order; the walk stops at it.
    error: Option<TracingError>,
}

impl<'a> IrCheck<'_, 'a> {
    fn fail(&mut self, e: TracingError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    /// The Func `name` that `node` (a realization, produce, consume or store) names.
    fn func_of_stmt(&mut self, name: &str, s: &Stmt) -> Option<(usize, &'a FuncTracing)> {
        let found = self.index.func_at(name);
        match found {
            Some((i, _)) => self.func_met[i] = true,
            None => {
                let problem = format!("the statement names Func `{name}`, which is not a Func of `funcs`");
                self.fail(mismatch("funcs".to_owned(), problem, Some(stmt_head(s))));
            }
        }
        found
    }

    /// Checks that `f` (funcs[i]) has `dims` pure arguments, as `what` of `node` says.
    fn dimensions(
        &mut self,
        i: usize,
        f: &FuncTracing,
        dims: usize,
        what: &str,
        node: impl FnOnce() -> String,
    ) {
        if dims != f.args.len() {
            let problem = format!(
                "Func `{}` has {} pure argument(s) {:?}, but {what} has {dims} dimension(s)",
                f.name,
                f.args.len(),
                f.args
            );
            self.fail(mismatch(format!("funcs[{i}].args"), problem, Some(node())));
        }
    }

    /// Checks that `f` (funcs[i]) has the value types `types`, as `what` of `node` says.
    fn value_types(
        &mut self,
        i: usize,
        f: &FuncTracing,
        types: &[Type],
        what: &str,
        node: impl FnOnce() -> String,
    ) {
        if types != f.types.as_slice() {
            let problem = format!(
                "Func `{}` has value types {}, but {what} has {}",
                f.name,
                type_list_text(&f.types),
                type_list_text(types)
            );
            self.fail(mismatch(format!("funcs[{i}].types"), problem, Some(node())));
        }
    }

    fn stmt(&mut self, s: &Stmt) {
        match s.kind() {
            StmtKind::Realize { name, types, bounds, .. } => {
                if let Some(o) = self.index.env.outputs.iter().position(|o| o.name == name.as_ref()) {
                    let problem = format!(
                        "`{name}` is an output, but the statement realizes it (the pass adds the outputs' \
                         realizations; an output's storage is the pipeline's buffer)"
                    );
                    return self.fail(mismatch(format!("outputs[{o}].name"), problem, Some(stmt_head(s))));
                }
                let Some((i, f)) = self.func_of_stmt(name, s) else { return };
                self.dimensions(i, f, bounds.len(), "its realization", || stmt_head(s));
                self.value_types(i, f, types, "its realization", || stmt_head(s));
            }
            StmtKind::ProducerConsumer { name, .. } => {
                self.func_of_stmt(name, s);
            }
            StmtKind::Provide { name, values, args, .. } => {
                let Some((i, f)) = self.func_of_stmt(name, s) else { return };
                self.dimensions(i, f, args.len(), "this store", || stmt_text(s));
                let types: Vec<Type> = values.iter().map(Expr::ty).collect();
                self.value_types(i, f, &types, "this store", || stmt_text(s));
            }
            _ => {}
        }
    }

    fn call(&mut self, e: &Expr) {
        let ExprKind::Call { name, args, call_type, value_index } = e.kind() else { return };
        let vi = *value_index as usize;
        match call_type {
            CallType::Halide => {
                let Some((i, f)) = self.index.func_at(name) else {
                    return self
                        .fail(TracingError::UnknownFunc { name: name.to_string(), call: expr_text(e) });
                };
                self.func_met[i] = true;
                self.dimensions(i, f, args.len(), "this call", || expr_text(e));
                match f.types.get(vi) {
                    None => {
                        let problem = format!(
                            "Func `{}` has {} value(s), but this call reads value {vi}",
                            f.name,
                            f.types.len()
                        );
                        self.fail(mismatch(format!("funcs[{i}].types"), problem, Some(expr_text(e))));
                    }
                    Some(&ty) if ty != e.ty() => {
                        let problem = format!(
                            "value {vi} of Func `{}` is {ty}, but this call reads it as {}",
                            f.name,
                            e.ty()
                        );
                        self.fail(mismatch(format!("funcs[{i}].types"), problem, Some(expr_text(e))));
                    }
                    Some(_) => {}
                }
            }
            CallType::Image => {
                let Some((i, img)) = self.index.image_at(name) else {
                    return self
                        .fail(TracingError::UnknownImage { name: name.to_string(), call: expr_text(e) });
                };
                self.image_met[i] = true;
                if vi != 0 || img.ty != e.ty() {
                    let problem = format!(
                        "image `{}` has one value, of type {}, but this load reads value {vi} as {}",
                        img.name,
                        img.ty,
                        e.ty()
                    );
                    self.fail(mismatch(format!("images[{i}].type"), problem, Some(expr_text(e))));
                }
            }
            _ => {}
        }
    }
}

impl Visitor for IrCheck<'_, '_> {
    fn visit_stmt(&mut self, s: &Stmt) {
        if self.error.is_some() {
            return;
        }
        self.stmt(s);
        self.super_stmt(s);
    }

    fn visit_expr(&mut self, e: &Expr) {
        if self.error.is_some() || (e.is_shared() && !e.is_leaf() && !self.seen.insert(e.as_ptr())) {
            return;
        }
        if matches!(e.kind(), ExprKind::Call { .. }) {
            self.call(e);
        }
        self.super_expr(e);
    }
}
