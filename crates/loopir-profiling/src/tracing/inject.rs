//! The rewrite of `docs/reference/tracing.md` §6–7: load and store events, realization and produce/consume
//! events, parallel-task events, all parented by the current scope.
//!
//! The rewrite is bottom-up (children first) and visits children in the reference's order,
//! which fixes the numbering of the `t<N>` temporaries and task names: a Provide's
//! arguments before its values before its predicate; a Realize's bounds, then its body,
//! then its condition; an Allocate's extents, body, condition, then custom allocator.
//!
//! The pass is linear in the input's DAG. A traced load `f(args)` becomes
//! `let t = f(args) in return_second(trace(..., args), t)`: the rewritten arguments are one
//! node with two parents, so nested loads (`g(g(g(x)))`) make an output whose printed text
//! doubles per level (as the reference's does) while its node count grows by a constant.
//! An input node reached through several parents is rewritten once per trace scope (the
//! rewrite of an expression depends only on the scope whose id parents its events) and the
//! result shared; on a parsed tree, where nothing is shared, the memo stays empty.

use rustc_hash::FxHashMap;

use loopir::mutate::{ExprMemo, TryMutator, try_mutate_exprs, try_mutate_ranges};
use loopir::stack::with_stack;
use loopir::{CallType, Expr, ExprKind, ForType, Intrinsic, Name, Stmt, StmtKind, Type, name};

use super::env::{EnvIndex, FuncTracing};
use super::error::{TracingError, expr_text, stmt_text};
use super::event::{
    CURRENT_THREAD_ID, PIPELINE_SCOPE, TraceEvent, TraceEventCode, trace_id_var, trace_id_var_name,
};
use super::names::NameGen;
use super::tags::{TagRegistry, TouchTable};

/// The mutator. Errors cannot travel through [`Mutator`]'s signatures, so the first one
/// is kept and every later hook returns its input untouched.
pub(crate) struct Injector<'a> {
    env: &'a EnvIndex<'a>,
    trace_all_loads: bool,
    trace_all_stores: bool,
    trace_all_realizations: bool,
    /// The current scope name: events built now have `<scope>.trace_id` as parent.
    scope: Name,
    names: NameGen,
    pub(crate) tags: TagRegistry,
    pub(crate) funcs_touched: TouchTable,
    pub(crate) images_touched: TouchTable,
    /// Rewrites of shared expression nodes, per scope name.
    memos: FxHashMap<Name, ExprMemo>,
}

impl<'a> Injector<'a> {
    /// The name generator, with what the pass drew.
    pub(crate) fn into_names(self) -> NameGen {
        self.names
    }

    pub(crate) fn new(env: &'a EnvIndex<'a>, names: NameGen) -> Injector<'a> {
        let t = env.env.target;
        Injector {
            env,
            trace_all_loads: t.trace_loads,
            trace_all_stores: t.trace_stores,
            trace_all_realizations: t.trace_loads || t.trace_stores || t.trace_realizations,
            scope: name(PIPELINE_SCOPE),
            names,
            tags: TagRegistry::default(),
            funcs_touched: TouchTable::default(),
            images_touched: TouchTable::default(),
            memos: FxHashMap::default(),
        }
    }

    /// Rewrites `s`, or reports the first error met.
    pub(crate) fn run(&mut self, s: &Stmt) -> Result<Stmt, TracingError> {
        self.try_mutate_stmt(s)
    }

    /// The generator the pass draws from (the box analysis behind the tags draws from it
    /// too, after the pass's own temporaries).
    pub(crate) fn names_mut(&mut self) -> &mut NameGen {
        &mut self.names
    }

    /// Runs `f` with the scope name switched to `scope`, restoring it afterwards.
    fn in_scope<R>(&mut self, scope: Name, f: impl FnOnce(&mut Self) -> R) -> R {
        let outer = std::mem::replace(&mut self.scope, scope);
        let r = f(self);
        self.scope = outer;
        r
    }

    fn parent(&self) -> Expr {
        trace_id_var(&self.scope)
    }

    fn realization_traced(&self, f: &FuncTracing) -> bool {
        f.trace_realizations || self.trace_all_realizations
    }

    // ---- loads ----

    fn call(&mut self, original: &Expr) -> Result<Expr, TracingError> {
        let e = self.try_super_expr(original)?;
        let ExprKind::Call { name: callee, args, call_type, value_index } = e.kind() else { return Ok(e) };
        let ty = e.ty();
        let describe = || expr_text(&e);
        let traced = match call_type {
            CallType::Halide => {
                let f = self.env.func(callee).ok_or_else(|| TracingError::UnknownFunc {
                    name: callee.to_string(),
                    call: describe(),
                })?;
                let traced = self.trace_all_loads || f.trace_loads;
                if traced {
                    self.tags.register(callee, &f.tags);
                    self.funcs_touched.touch(callee, *value_index, ty, describe)?;
                }
                traced
            }
            CallType::Image => {
                let img = self.env.image(callee).ok_or_else(|| TracingError::UnknownImage {
                    name: callee.to_string(),
                    call: describe(),
                })?;
                let traced = self.trace_all_loads || (img.is_param && img.trace_loads);
                if traced {
                    if img.is_param {
                        self.tags.register(callee, &img.tags);
                    }
                    self.images_touched.touch(callee, *value_index, ty, describe)?;
                }
                traced
            }
            _ => false,
        };
        if !traced {
            return Ok(e);
        }
        let temp = self.names.temp()?;
        let value = Expr::var(ty, temp.clone());
        let mut ev = TraceEvent::new(callee, TraceEventCode::Load, self.parent());
        ev.values = vec![value.clone()];
        ev.coordinates = args.clone();
        ev.ty = Some(ty);
        ev.value_index = *value_index;
        let trace = ev.build()?;
        let body = Intrinsic::ReturnSecond.call(ty, vec![trace, value]);
        Ok(Expr::let_in(temp, e.clone(), body))
    }

    // ---- stores ----

    fn provide(&mut self, s: &Stmt) -> Result<Stmt, TracingError> {
        let StmtKind::Provide { name: func, values, args, predicate } = s.kind() else {
            return Ok(s.clone());
        };
        let new_args = try_mutate_exprs(self, args)?;
        let new_values = try_mutate_exprs(self, values)?;
        let new_predicate = self.try_mutate_expr(predicate)?;
        let unchanged = new_args.is_none() && new_values.is_none() && new_predicate.same_as(predicate);
        let args = new_args.unwrap_or_else(|| args.clone());
        let values = new_values.unwrap_or_else(|| values.clone());
        let rebuilt = || {
            if unchanged {
                s.clone()
            } else {
                Stmt::from_kind_unchecked(StmtKind::Provide {
                    name: func.clone(),
                    values: values.clone(),
                    args: args.clone(),
                    predicate: new_predicate.clone(),
                })
            }
        };
        let Some(f) = self.env.func(func) else { return Ok(rebuilt()) };
        if !(f.trace_stores || self.trace_all_stores) {
            return Ok(rebuilt());
        }

        let mut traced_values = Vec::with_capacity(values.len());
        for (i, value) in values.iter().enumerate() {
            let ty = value.ty();
            let index = u32::try_from(i).unwrap_or(u32::MAX);
            self.funcs_touched.touch(func, index, ty, || stmt_text(&rebuilt()))?;
            let temp = self.names.temp()?;
            let var = Expr::var(ty, temp.clone());
            let mut ev = TraceEvent::new(func, TraceEventCode::Store, self.parent());
            ev.values = vec![var.clone()];
            ev.coordinates = args.clone();
            ev.ty = Some(ty);
            ev.value_index = index;
            let mut trace = ev.build()?;
            if !is_const_one(&new_predicate) {
                trace = Intrinsic::IfThenElse.call(Type::INT32, vec![new_predicate.clone(), trace]);
            }
            let body = Intrinsic::ReturnSecond.call(ty, vec![trace, var]);
            traced_values.push(Expr::let_in(temp, value.clone(), body));
        }

        // Lift computed coordinates into lets so that loads inside them are traced before
        // the store; the trace itself keeps the original coordinate expressions.
        let mut lifted = Vec::new();
        let mut store_args = Vec::with_capacity(args.len());
        for arg in &args {
            if arg.as_variable().is_some() || arg.is_constant() {
                store_args.push(arg.clone());
            } else {
                let temp = self.names.temp()?;
                store_args.push(Expr::var(arg.ty(), temp.clone()));
                lifted.push((temp, arg.clone()));
            }
        }
        let mut out = Stmt::provide(func.clone(), traced_values, store_args, new_predicate.clone()).map_err(
            |source| TracingError::Ir { what: format!("the traced store `{}`", stmt_text(s)), source },
        )?;
        for (temp, arg) in lifted {
            out = Stmt::let_stmt(temp, arg, out);
        }
        Ok(out)
    }

    // ---- loops ----

    fn for_loop(&mut self, s: &Stmt) -> Result<Stmt, TracingError> {
        let StmtKind::For { name: var, min, max, for_type, device_api, partition_policy, body } = s.kind()
        else {
            return Ok(s.clone());
        };
        let new_min = self.try_mutate_expr(min)?;
        let new_max = self.try_mutate_expr(max)?;
        let new_body = if *for_type == ForType::Parallel {
            let task = self.names.task()?;
            let traced_body = self.in_scope(task.clone(), |me| me.try_mutate_stmt(body))?;
            if traced_body.same_as(body) {
                traced_body
            } else {
                let ir_err =
                    |source| TracingError::Ir { what: format!("the task events of loop `{var}`"), source };
                let extent = Expr::sub(new_max.clone(), new_min.clone())
                    .and_then(|d| Expr::add(d, Expr::i32(1)))
                    .map_err(ir_err)?;
                let coordinates = vec![new_min.clone(), extent];
                let mut begin = TraceEvent::new(var, TraceEventCode::BeginParallelTask, self.parent());
                begin.coordinates = coordinates.clone();
                begin.thread_id =
                    Some(Expr::call(Type::INT32, CURRENT_THREAD_ID, Vec::new(), CallType::Extern));
                let mut end = TraceEvent::new(var, TraceEventCode::EndParallelTask, trace_id_var(&task));
                end.coordinates = coordinates;
                Stmt::let_stmt(
                    trace_id_var_name(&task),
                    begin.build()?,
                    Stmt::block(vec![traced_body, Stmt::evaluate(end.build()?)]),
                )
            }
        } else {
            self.try_mutate_stmt(body)?
        };
        if new_min.same_as(min) && new_max.same_as(max) && new_body.same_as(body) {
            return Ok(s.clone());
        }
        Ok(Stmt::from_kind_unchecked(StmtKind::For {
            name: var.clone(),
            min: new_min,
            max: new_max,
            for_type: *for_type,
            device_api: *device_api,
            partition_policy: *partition_policy,
            body: new_body,
        }))
    }

    // ---- realizations ----

    /// The realize with its bounds, body and condition rewritten (in that order) in the
    /// current scope; the original handle if nothing changed.
    fn walk_realize(&mut self, s: &Stmt) -> Result<Stmt, TracingError> {
        let StmtKind::Realize { name: func, types, memory_type, bounds, condition, body } = s.kind() else {
            return Ok(s.clone());
        };
        let new_bounds = try_mutate_ranges(self, bounds)?;
        let new_body = self.try_mutate_stmt(body)?;
        let new_condition = self.try_mutate_expr(condition)?;
        if new_bounds.is_none() && new_body.same_as(body) && new_condition.same_as(condition) {
            return Ok(s.clone());
        }
        Ok(Stmt::from_kind_unchecked(StmtKind::Realize {
            name: func.clone(),
            types: types.clone(),
            memory_type: *memory_type,
            bounds: new_bounds.unwrap_or_else(|| bounds.clone()),
            condition: new_condition,
            body: new_body,
        }))
    }

    fn realize(&mut self, s: &Stmt) -> Result<Stmt, TracingError> {
        let StmtKind::Realize { name: func, .. } = s.kind() else { return Ok(s.clone()) };
        let Some(f) = self.env.func(func) else { return self.walk_realize(s) };
        let traced = self.realization_traced(f);
        if !(traced || f.trace_loads || f.trace_stores) {
            return self.walk_realize(s);
        }
        let rewritten = self.in_scope(func.clone(), |me| me.walk_realize(s))?;
        let StmtKind::Realize { name: func, types, memory_type, bounds, condition, body } = rewritten.kind()
        else {
            return Ok(rewritten);
        };
        let new_body = if traced {
            self.tags.register(func, &f.tags);
            for (i, ty) in types.iter().enumerate() {
                let index = u32::try_from(i).unwrap_or(u32::MAX);
                self.funcs_touched.touch(func, index, *ty, || format!("realize {func}"))?;
            }
            let coordinates: Vec<Expr> =
                bounds.iter().flat_map(|r| [r.min.clone(), r.extent.clone()]).collect();
            let mut begin = TraceEvent::new(func, TraceEventCode::BeginRealization, self.parent());
            begin.coordinates = coordinates.clone();
            let mut end = TraceEvent::new(func, TraceEventCode::EndRealization, trace_id_var(func));
            end.coordinates = coordinates;
            Stmt::let_stmt(
                trace_id_var_name(func),
                begin.build()?,
                Stmt::block(vec![body.clone(), Stmt::evaluate(end.build()?)]),
            )
        } else {
            // Loads or stores of f are traced but its realization is not: give them a
            // parent id of 0.
            Stmt::let_stmt(trace_id_var_name(func), Expr::i32(0), body.clone())
        };
        Ok(Stmt::from_kind_unchecked(StmtKind::Realize {
            name: func.clone(),
            types: types.clone(),
            memory_type: *memory_type,
            bounds: bounds.clone(),
            condition: condition.clone(),
            body: new_body,
        }))
    }

    // ---- produce / consume ----

    fn producer_consumer(&mut self, s: &Stmt) -> Result<Stmt, TracingError> {
        let StmtKind::ProducerConsumer { name: func, is_producer, body } = s.kind() else {
            return Ok(s.clone());
        };
        let Some(f) = self.env.func(func).filter(|f| self.realization_traced(f)) else {
            return self.try_super_stmt(s);
        };
        let new_body = self.in_scope(func.clone(), |me| me.try_mutate_stmt(body))?;
        let ir_err =
            |source| TracingError::Ir { what: format!("the produce/consume events of `{func}`"), source };
        let mut coordinates = Vec::with_capacity(2 * f.args.len());
        for arg in &f.args {
            let min = Expr::var_i32(format!("{func}.s0.{arg}.min"));
            let max = Expr::var_i32(format!("{func}.s0.{arg}.max"));
            let extent =
                Expr::add(max, Expr::i32(1)).and_then(|m| Expr::sub(m, min.clone())).map_err(ir_err)?;
            coordinates.extend([min, extent]);
        }
        let (begin_code, end_code) = if *is_producer {
            (TraceEventCode::Produce, TraceEventCode::EndProduce)
        } else {
            (TraceEventCode::Consume, TraceEventCode::EndConsume)
        };
        let mut begin = TraceEvent::new(func, begin_code, self.parent());
        begin.coordinates = coordinates.clone();
        let mut end = TraceEvent::new(func, end_code, trace_id_var(func));
        end.coordinates = coordinates;
        let node = Stmt::from_kind_unchecked(StmtKind::ProducerConsumer {
            name: func.clone(),
            is_producer: *is_producer,
            body: Stmt::block(vec![new_body, Stmt::evaluate(end.build()?)]),
        });
        Ok(Stmt::let_stmt(trace_id_var_name(func), begin.build()?, node))
    }
}

impl TryMutator for Injector<'_> {
    type Error = TracingError;

    fn try_mutate_expr(&mut self, e: &Expr) -> Result<Expr, TracingError> {
        // Only a node with another handle can be met again (see `ExprMemo`).
        let shared = e.is_shared() && !e.is_leaf();
        if shared && let Some(r) = self.memos.get(&self.scope).and_then(|m| m.lookup(e)) {
            return Ok(r);
        }
        let r = with_stack(|| {
            if matches!(e.kind(), ExprKind::Call { .. }) { self.call(e) } else { self.try_super_expr(e) }
        })?;
        if shared {
            self.memos.entry(self.scope.clone()).or_default().record(e, &r);
        }
        Ok(r)
    }

    fn try_mutate_stmt(&mut self, s: &Stmt) -> Result<Stmt, TracingError> {
        with_stack(|| match s.kind() {
            StmtKind::Provide { .. } => self.provide(s),
            StmtKind::For { .. } => self.for_loop(s),
            StmtKind::Realize { .. } => self.realize(s),
            StmtKind::ProducerConsumer { .. } => self.producer_consumer(s),
            _ => self.try_super_stmt(s),
        })
    }
}

/// Halide's `is_const_one`: the constant one (true), possibly cast, broadcast or wrapped
/// in a mask conversion.
fn is_const_one(e: &Expr) -> bool {
    match e.kind() {
        ExprKind::IntImm(v) => *v == 1,
        ExprKind::UIntImm(v) => *v == 1,
        ExprKind::FloatImm(v) => *v == 1.0,
        ExprKind::Cast(v) | ExprKind::Broadcast { value: v, .. } => is_const_one(v),
        ExprKind::Call { .. } => {
            matches!(e.as_intrinsic(), Some((Intrinsic::BoolToMask | Intrinsic::CastMask, [first, ..])) if is_const_one(first))
        }
        _ => false,
    }
}
