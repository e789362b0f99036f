//! A checker for the well-formedness of instrumented statements, independent of the pass.
//!
//! It walks every path of the statement (both branches of each `if`, each loop body once,
//! each task of a Fork, Acquire, parallel or device loop as a task of its own) and checks:
//!
//! * every `allocate` is freed exactly once on every path through its body, and never
//!   freed from a loop or task it was not allocated in (`profiler_instance` alone is
//!   exempt: the reference never frees it and relies on later stack placement);
//! * sampling tokens: `halide_profiler_acquire_sampling_token` and `_release_` alternate
//!   on every path, starting and ending released in every task, never nested;
//! * active threads: `halide_profiler_incr/decr_active_threads` keep each task's count in
//!   {0, 1}, starting and ending at 0; loop bodies and `if` branches leave it unchanged;
//! * every `profiler_*` / `hvx_profiler_*` variable (instances, tokens, tables) is bound
//!   by an enclosing `let` or `allocate`; every `halide_profiler_*` call that takes an
//!   instance names one that is in scope; the row ids passed to the runtime are below the
//!   row count given to `halide_profiler_instance_start`, whose instance allocation has
//!   the runtime's size (14 + 11·N words).
#![allow(dead_code)]

use loopir::{DeviceApi, Expr, ExprKind, ForType, Stmt, StmtKind};

/// The path state the checker carries.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct PathState {
    /// Allocations live on this path, innermost last.
    live: Vec<String>,
    /// Whether this task holds its sampling token.
    token_held: bool,
    /// This task's active-thread count.
    active: i64,
}

struct Checker {
    errors: Vec<String>,
    /// Names bound by enclosing lets, loops and allocations (with allocation extents).
    scope: Vec<(String, Option<Expr>)>,
    /// The row count passed to `halide_profiler_instance_start`.
    rows: Option<i64>,
}

/// The exempt allocation: the instance state, which the reference never frees.
const INSTANCE: &str = "profiler_instance";

fn is_profiler_name(name: &str) -> bool {
    name.starts_with("profiler_") || name.starts_with("hvx_profiler_instance")
}

/// Checks `s`; `Err` lists every problem found (at most 20).
pub fn check(s: &Stmt) -> Result<(), Vec<String>> {
    let mut c = Checker { errors: Vec::new(), scope: Vec::new(), rows: None };
    let mut st = PathState::default();
    c.stmt(s, &mut st);
    c.end_of_task("the pipeline", &st);
    if c.errors.is_empty() { Ok(()) } else { Err(c.errors) }
}

impl Checker {
    fn error(&mut self, msg: String) {
        if self.errors.len() < 20 {
            self.errors.push(msg);
        }
    }

    fn in_scope(&self, name: &str) -> bool {
        self.scope.iter().any(|(n, _)| n == name)
    }

    fn end_of_task(&mut self, what: &str, st: &PathState) {
        if st.token_held {
            self.error(format!("{what} ends holding its sampling token"));
        }
        if st.active != 0 {
            self.error(format!("{what} ends with active-thread count {}", st.active));
        }
        if !st.live.is_empty() {
            self.error(format!("{what} ends with live allocations {:?}", st.live));
        }
    }

    /// Runs `body` as a task of its own (a parallel or device loop body, a Fork child, an
    /// Acquire body): fresh token and thread state, no outer allocation can be freed.
    fn task(&mut self, what: &str, body: &Stmt) {
        let mut st = PathState::default();
        self.stmt(body, &mut st);
        self.end_of_task(what, &st);
    }

    fn stmt(&mut self, s: &Stmt, st: &mut PathState) {
        loopir::stack::with_stack(|| self.stmt_inner(s, st))
    }

    fn stmt_inner(&mut self, s: &Stmt, st: &mut PathState) {
        match s.kind() {
            StmtKind::Block(v) => {
                for x in v {
                    self.stmt(x, st);
                }
            }
            StmtKind::LetStmt { name, value, body } => {
                self.expr(value, st);
                self.scope.push((name.to_string(), None));
                self.stmt(body, st);
                self.scope.pop();
            }
            StmtKind::Allocate { name, extents, condition, new_expr, body, .. } => {
                for e in extents.iter().chain([condition]).chain(new_expr.iter()) {
                    self.expr(e, st);
                }
                self.scope.push((name.to_string(), extents.first().cloned()));
                st.live.push(name.to_string());
                self.stmt(body, st);
                self.scope.pop();
                match st.live.iter().rposition(|n| n == name.as_ref()) {
                    Some(i) if name.starts_with(INSTANCE) => {
                        st.live.remove(i);
                    }
                    Some(i) => {
                        st.live.remove(i);
                        self.error(format!("`allocate {name}` is not freed on some path through its body"));
                    }
                    None => {}
                }
            }
            StmtKind::Free { name } => match st.live.iter().rposition(|n| n == name.as_ref()) {
                Some(i) => {
                    st.live.remove(i);
                }
                None => self.error(format!("`free {name}` frees nothing live here (double free, or freed in a loop or task it was not allocated in)")),
            },
            StmtKind::IfThenElse { condition, then_case, else_case } => {
                self.expr(condition, st);
                let mut t = st.clone();
                self.stmt(then_case, &mut t);
                let mut e = st.clone();
                if let Some(x) = else_case {
                    self.stmt(x, &mut e);
                }
                if t != e {
                    self.error(format!("the branches of `if ({condition})` end in different states: {t:?} vs {e:?}"));
                }
                *st = t;
            }
            StmtKind::For { name, min, max, for_type, device_api, body, .. } => {
                self.expr(min, st);
                self.expr(max, st);
                self.scope.push((name.to_string(), None));
                let task = matches!(for_type, ForType::Parallel | ForType::GpuBlock | ForType::GpuThread)
                    || !matches!(device_api, DeviceApi::None | DeviceApi::Host);
                if task {
                    self.task(&format!("the body of loop {name}"), body);
                } else {
                    let before = st.clone();
                    self.stmt(body, st);
                    if *st != before {
                        self.error(format!("the body of serial loop {name} changes the state: {before:?} -> {st:?}"));
                        *st = before;
                    }
                }
                self.scope.pop();
            }
            StmtKind::Fork { first, rest } => {
                self.task("a fork task", first);
                self.task("a fork task", rest);
            }
            StmtKind::Acquire { semaphore, count, body } => {
                self.expr(semaphore, st);
                self.expr(count, st);
                self.task("an acquire body", body);
            }
            StmtKind::ProducerConsumer { body, .. }
            | StmtKind::Atomic { body, .. }
            | StmtKind::HoistedStorage { body, .. } => self.stmt(body, st),
            StmtKind::Realize { bounds, condition, body, .. } | StmtKind::Prefetch { bounds, condition, body, .. } => {
                for r in bounds {
                    self.expr(&r.min, st);
                    self.expr(&r.extent, st);
                }
                self.expr(condition, st);
                self.stmt(body, st);
            }
            StmtKind::AssertStmt { condition, message } => {
                self.expr(condition, st);
                self.expr(message, st);
            }
            StmtKind::Store { value, index, predicate, .. } => {
                self.expr(predicate, st);
                self.expr(value, st);
                self.expr(index, st);
            }
            StmtKind::Provide { values, args, predicate, .. } => {
                for e in values.iter().chain(args).chain([predicate]) {
                    self.expr(e, st);
                }
            }
            StmtKind::Evaluate(e) => self.expr(e, st),
        }
    }

    fn expr(&mut self, e: &Expr, st: &mut PathState) {
        let mut work = vec![e];
        while let Some(e) = work.pop() {
            match e.kind() {
                ExprKind::Variable(n) if is_profiler_name(n) && !self.in_scope(n) => {
                    self.error(format!("`{n}` is used outside the scope of its binding"));
                }
                ExprKind::Call { name, args, .. } => self.call(name, args, st),
                _ => {}
            }
            work.extend(e.children());
        }
    }

    fn call(&mut self, callee: &str, args: &[Expr], st: &mut PathState) {
        let Some(what) = callee.strip_prefix("halide_profiler_") else { return };
        let instance_arg = match what {
            "incr_active_threads" => {
                st.active += 1;
                if st.active > 1 {
                    self.error("a task counts itself active twice".into());
                }
                args.first()
            }
            "decr_active_threads" => {
                st.active -= 1;
                if st.active < 0 {
                    self.error("a task counts itself inactive while not active".into());
                }
                args.first()
            }
            "acquire_sampling_token" => {
                if std::mem::replace(&mut st.token_held, true) {
                    self.error("a sampling token is acquired while already held".into());
                }
                None
            }
            "release_sampling_token" => {
                if !std::mem::replace(&mut st.token_held, false) {
                    self.error("a sampling token is released while not held".into());
                }
                None
            }
            "init_sampling_token" => None,
            "instance_start" => {
                let rows = match args.get(1).map(|a| a.kind()) {
                    Some(ExprKind::IntImm(n)) => *n,
                    _ => {
                        self.error("instance_start without a constant row count".into());
                        return;
                    }
                };
                self.rows = Some(rows);
                if let Some(inst) = args.last().and_then(|a| a.as_variable()) {
                    let extent = self
                        .scope
                        .iter()
                        .rev()
                        .find(|(n, _)| n == inst.as_ref())
                        .and_then(|(_, e)| e.clone());
                    match extent.as_ref().map(|e| e.kind()) {
                        Some(ExprKind::IntImm(words)) if *words == 14 + 11 * rows => {}
                        other => self.error(format!(
                            "instance `{inst}` has extent {other:?}, expected {} words for {rows} rows",
                            14 + 11 * rows
                        )),
                    }
                }
                args.last()
            }
            "set_current_func" | "memory_allocate" | "memory_free" => {
                match (args.get(1).map(|a| a.kind()), self.rows) {
                    (Some(ExprKind::IntImm(id)), Some(rows)) if (0..rows).contains(id) => {}
                    (id, rows) => {
                        self.error(format!("{callee} with row {id:?} outside the table of {rows:?} rows"))
                    }
                }
                args.first()
            }
            _ => args.first(),
        };
        if let Some(arg) = instance_arg {
            match arg.as_variable() {
                Some(n)
                    if n.as_ref() == INSTANCE
                        || n.starts_with("hvx_profiler_instance")
                        || n.starts_with("profiler_instance") => {}
                _ => self.error(format!("{callee} does not name a profiler instance: {arg}")),
            }
        }
    }
}
