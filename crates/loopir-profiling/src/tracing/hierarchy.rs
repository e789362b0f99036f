//! A checker for the parent hierarchy of the events in instrumented IR (`docs/reference/tracing.md` §6, §9).
//!
//! The rule it enforces: an event's parent argument names the id variable of the innermost
//! enclosing trace scope, where a trace scope is a `let <x>.trace_id = ...` statement whose
//! value is a begin event (begin_pipeline, begin_realization, produce, consume,
//! begin_parallel_task) or the literal 0 (a Func whose loads or stores are traced but not
//! its realization). In detail:
//!
//! | event | parent must be |
//! |---|---|
//! | begin_pipeline | the literal 0 |
//! | tag | the begin_pipeline scope |
//! | load, store, begin_realization, produce, consume, begin_parallel_task | the innermost enclosing scope |
//! | end_X | the innermost enclosing scope, which must be the matching begin_X of the same func |
//!
//! Besides, every begin event must be bound to a `.trace_id` variable (realizations,
//! produce and consume of `f` to `f.trace_id`, the pipeline to `pipeline.trace_id`), every
//! `.trace_id` variable must be bound to a begin event or 0, and every begin event must be
//! closed by exactly one end event inside its scope.
//!
//! Names are resolved lexically, so a shadowed `f.trace_id` (the produce event's binding
//! inside the realization's) refers to the innermost binding, as at run time.
//!
//! From the first simplification on, the reference substitutes `let f.trace_id = 0` into its
//! uses, so the events of an untraced scope carry the literal parent 0 and the scope itself
//! leaves no trace in the text. A literal 0 parent is therefore accepted (as the parent of
//! an untraced scope) in a statement that binds no trace id to 0; where such a binding is
//! still present, the untraced scope is visible and a literal 0 parent is reported.

use std::fmt;

use loopir::address_map::AddressSet;
use loopir::binder::Binder;
use loopir::expr::ExprNode;
use loopir::visit::Visitor;
use loopir::{Expr, ExprKind, Name, Stmt, StmtKind};

use super::error::{expr_text, shorten, stmt_head};
use super::event::{
    DecodedEvent, PIPELINE_SCOPE, TRACE_ID_SUFFIX, TraceEventCode, decode_event, trace_id_var_name,
};

/// One breach of the parent hierarchy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HierarchyViolation {
    /// The offending event, e.g. ``load of `f` at (g.s0.x, g.s0.y)``.
    pub event: String,
    /// Its parent argument as printed (e.g. `f.trace_id`), or the binding concerned.
    pub parent: String,
    /// What is wrong.
    pub kind: ViolationKind,
    /// The enclosing trace scopes, outermost first.
    pub within: Vec<String>,
    /// The first line of the statement the event sits in (shortened).
    pub site: String,
}

/// The kinds of [`HierarchyViolation`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ViolationKind {
    /// A trace call that cannot be read (argument count, non-constant event code, ...).
    Malformed(String),
    /// The parent is neither a variable nor the literal 0.
    ParentNotAnId,
    /// The parent is the literal 0 but the event is not begin_pipeline.
    ZeroParent,
    /// begin_pipeline has a parent other than the literal 0.
    PipelineHasParent,
    /// The parent variable is not bound by any enclosing trace scope.
    UnboundParent,
    /// The parent is an enclosing scope, but not the innermost one.
    NotInnermost {
        /// The scope the parent names.
        parent_scope: String,
        /// The innermost enclosing scope, which should have been the parent.
        innermost: String,
    },
    /// A tag is not parented by the begin_pipeline event.
    TagNotUnderPipeline {
        /// The scope the parent names.
        parent_scope: String,
    },
    /// An end event's parent is not the matching begin event of the same func.
    UnmatchedEnd {
        /// The scope the parent names.
        parent_scope: String,
    },
    /// An end event whose begin event encloses a scope that is still open.
    EndNotInnermost {
        /// The scope the end event closes.
        parent_scope: String,
        /// The inner scope still open.
        innermost: String,
    },
    /// A begin event whose id is not bound to a `.trace_id` variable, so that nothing can
    /// name it as parent.
    UnboundBegin,
    /// A begin event bound to a variable other than the one its kind requires.
    MisnamedBinding {
        /// The variable it should be bound to.
        expected: String,
    },
    /// A `.trace_id` variable bound to something other than a begin event or 0.
    NotAnEventBinding {
        /// The bound value, as printed.
        value: String,
    },
    /// A begin event whose scope contains no matching end event.
    MissingEnd,
    /// A second end event for one begin event.
    ExtraEnd,
}

impl fmt::Display for HierarchyViolation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ViolationKind as K;
        let ev = &self.event;
        let p = &self.parent;
        match &self.kind {
            K::Malformed(why) => write!(f, "malformed trace call {ev}: {why}")?,
            K::ParentNotAnId => {
                write!(f, "{ev} has parent `{p}`, which is neither an event id variable nor 0")?
            }
            K::ZeroParent => write!(f, "{ev} has parent 0; only begin_pipeline may be a root")?,
            K::PipelineHasParent => write!(f, "{ev} has parent `{p}`; begin_pipeline must have parent 0")?,
            K::UnboundParent => write!(f, "{ev} has parent `{p}`, which no enclosing trace scope binds")?,
            K::NotInnermost { parent_scope, innermost } => write!(
                f,
                "{ev} has parent `{p}` ({parent_scope}), but the innermost enclosing event is {innermost}"
            )?,
            K::TagNotUnderPipeline { parent_scope } => {
                write!(f, "{ev} has parent `{p}` ({parent_scope}); tags belong to begin_pipeline")?
            }
            K::UnmatchedEnd { parent_scope } => {
                write!(f, "{ev} has parent `{p}` ({parent_scope}), which is not its matching begin event")?
            }
            K::EndNotInnermost { parent_scope, innermost } => {
                write!(f, "{ev} closes `{p}` ({parent_scope}) while {innermost} is still open")?
            }
            K::UnboundBegin => {
                write!(f, "{ev} is not bound to a `.trace_id` variable, so no event can name it")?
            }
            K::MisnamedBinding { expected } => write!(f, "{ev} is bound to `{p}` instead of `{expected}`")?,
            K::NotAnEventBinding { value } => {
                write!(f, "`{p}` is bound to `{value}`, which is neither a begin event nor 0")?
            }
            K::MissingEnd => write!(f, "{ev} (bound to `{p}`) is never ended inside its scope")?,
            K::ExtraEnd => write!(f, "{ev} ends `{p}`, which was already ended")?,
        }
        if !self.site.is_empty() {
            write!(f, ", in `{}`", self.site)?;
        }
        if !self.within.is_empty() {
            write!(f, " [within: {}]", self.within.join(" > "))?;
        }
        Ok(())
    }
}

/// Checks that every trace event in `stmt` has an allowed, enclosing parent (see the
/// module documentation). Returns every violation found, in program order.
pub fn check_trace_hierarchy(stmt: &Stmt) -> Result<(), Vec<HierarchyViolation>> {
    let mut checker = Checker {
        stack: Vec::new(),
        sites: Vec::new(),
        violations: Vec::new(),
        forks: Vec::new(),
        generation: 0,
        checked: AddressSet::default(),
        zero_scopes_substituted: !binds_a_trace_id_to_zero(stmt),
    };
    checker.visit_stmt(stmt);
    if checker.violations.is_empty() { Ok(()) } else { Err(checker.violations) }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum ScopeKind {
    /// Bound to a begin event.
    Event(TraceEventCode),
    /// Bound to the literal 0.
    Silent,
    /// Bound to an id the caller passed in a closure (`load_typed_struct_member(...)` in
    /// a parallel task's function): a scope opened outside the function, whose kind and
    /// nesting among the other inherited ones the function does not show.
    Inherited,
    /// Bound to something else (already reported).
    Opaque,
}

struct Scope {
    var: Name,
    kind: ScopeKind,
    func: String,
    label: String,
    /// The begin event's description, for violations about its end.
    event: String,
    /// Whether its end event was seen. Nothing follows the end event inside a scope the
    /// pass builds, but text-derived IR extends a let over the statements after it, so an
    /// ended scope no longer counts as enclosing.
    ended: bool,
    /// The `let` that opened it.
    binding: Option<Stmt>,
    /// Whether it is the first scope of a fork task (see [`ForkFrame`]).
    opens_fork_task: bool,
}

/// The tasks of one `fork` being checked.
///
/// Forking asynchronous producers copies the `let f.trace_id = <begin_realization>` that
/// encloses a producer and its consumer into both tasks of the fork; only the consumer's
/// copy holds the end_realization. A realization scope that opens a fork task and is never
/// ended is therefore accepted when another task of the same fork opens the same variable
/// for the same realization and ends it.
#[derive(Default)]
struct ForkFrame {
    /// The stack height at the start of the task being visited.
    task_base: usize,
    /// Realization scopes that opened a task and were ended there: (variable, func).
    ended: Vec<(Name, String)>,
    /// Those never ended, with what is needed to report them if no sibling ends them.
    unended: Vec<(Name, String, String, Option<Stmt>)>,
}

struct Checker {
    stack: Vec<Scope>,
    /// The statements being visited, innermost last.
    sites: Vec<Stmt>,
    violations: Vec<HierarchyViolation>,
    /// The forks being visited, innermost last.
    forks: Vec<ForkFrame>,
    /// Bumped whenever the stack changes (a scope opened, closed or ended) and whenever the
    /// walk moves to another statement: an expression checked under one generation would
    /// give the same violations again under it.
    generation: u64,
    /// Shared expression nodes already checked, with the generation they were checked
    /// under, so that the expressions of a statement are checked in time linear in their
    /// DAG (the pass shares each traced load's arguments between the load and its event,
    /// doubling the printed size per nested load). A node shared by several statements is
    /// checked in each, so that each occurrence of a misplaced event is reported.
    checked: AddressSet<(*const ExprNode, u64)>,
    /// Whether the statement binds no trace id to 0, so that the untraced scopes (if any)
    /// were substituted away and a literal 0 parent stands for one of them.
    zero_scopes_substituted: bool,
}

/// Whether `stmt` has a `let <x>.trace_id = 0` statement: an untraced scope still visible.
fn binds_a_trace_id_to_zero(stmt: &Stmt) -> bool {
    struct Finder(bool);
    impl Visitor for Finder {
        // Untraced scopes are statements; their expressions need no visit.
        fn visit_expr(&mut self, _: &Expr) {}
        fn visit_stmt(&mut self, s: &Stmt) {
            if !self.0 {
                self.super_stmt(s);
            }
        }
        // A chain of lets is walked without a `visit_stmt` per let; each binds here.
        fn enter_scope(&mut self, binder: &Binder<'_>) {
            if let Binder::LetStmt { name, value } = binder
                && is_trace_id_name(name)
                && value.as_int() == Some(0)
            {
                self.0 = true;
            }
        }
    }
    let mut finder = Finder(false);
    finder.visit_stmt(stmt);
    finder.0
}

/// An expression as printed at statement level (without the outer parentheses that a
/// stand-alone expression gets).
fn bare(e: &Expr) -> String {
    let text = expr_text(e);
    match text.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        // Only strip when the two parentheses match each other.
        Some(inner) if balanced(inner) => inner.to_owned(),
        _ => text,
    }
}

fn balanced(text: &str) -> bool {
    let mut depth = 0i32;
    for ch in text.chars() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth < 0 {
                    return false;
                }
            }
            _ => {}
        }
    }
    depth == 0
}

fn describe(ev: &DecodedEvent) -> String {
    let mut s = format!("{} of `{}`", ev.event, ev.func);
    if !ev.coordinates.is_empty() && matches!(ev.event, TraceEventCode::Load | TraceEventCode::Store) {
        let coords: Vec<String> = ev.coordinates.iter().map(bare).collect();
        s.push_str(&shorten(format!(" at ({})", coords.join(", "))));
    }
    s
}

fn scope_label(code: TraceEventCode, func: &str) -> String {
    match code {
        TraceEventCode::BeginParallelTask => format!("parallel task of loop `{func}`"),
        _ => format!("{code} of `{func}`"),
    }
}

impl Checker {
    fn within(&self) -> Vec<String> {
        self.stack.iter().map(|s| format!("{} [{}]", s.label, s.var)).collect()
    }

    fn site(&self) -> String {
        self.sites.last().map(stmt_head).unwrap_or_default()
    }

    /// Reports a violation by the event `ev` (described only now: describing every event
    /// checked would print its coordinates).
    fn report_event(&mut self, ev: &DecodedEvent, kind: ViolationKind) {
        self.report(describe(ev), expr_text(&ev.parent), kind);
    }

    fn report(&mut self, event: String, parent: String, kind: ViolationKind) {
        let within = self.within();
        let site = self.site();
        self.violations.push(HierarchyViolation { event, parent, kind, within, site });
    }

    /// The stack index of the open scope the parent argument names.
    fn resolve(&self, parent: &Expr) -> Result<usize, ViolationKind> {
        match parent.kind() {
            ExprKind::Variable(v) => {
                self.stack.iter().rposition(|s| s.var == *v && !s.ended).ok_or(ViolationKind::UnboundParent)
            }
            _ if parent.as_int() == Some(0) => Err(ViolationKind::ZeroParent),
            _ => Err(ViolationKind::ParentNotAnId),
        }
    }

    /// Checks one event against the current stack. `bound_to` is the variable its id is
    /// bound to, if it is the value of a `.trace_id` LetStmt.
    fn check(&mut self, ev: &DecodedEvent, bound_to: Option<&Name>) {
        use TraceEventCode as C;
        if ev.event.is_begin() && bound_to.is_none() {
            self.report_event(ev, ViolationKind::UnboundBegin);
        }
        if ev.event == C::BeginPipeline {
            if ev.parent.as_int() != Some(0) {
                self.report_event(ev, ViolationKind::PipelineHasParent);
            }
            return;
        }
        if let Some(begin) = ev.event.matching_begin() {
            let ended_already = match ev.parent.kind() {
                ExprKind::Variable(v) => self
                    .stack
                    .iter()
                    .rev()
                    .find(|s| s.var == *v)
                    .is_some_and(|s| s.ended && s.kind == ScopeKind::Event(begin) && s.func == ev.func),
                _ => false,
            };
            if ended_already {
                return self.report_event(ev, ViolationKind::ExtraEnd);
            }
        }
        if self.zero_scopes_substituted
            && ev.parent.as_int() == Some(0)
            && ev.event.matching_begin().is_none()
            && ev.event != C::Tag
        {
            // The parent of a substituted untraced scope (see the module documentation).
            return;
        }
        let idx = match self.resolve(&ev.parent) {
            Ok(i) => i,
            Err(kind) => return self.report_event(ev, kind),
        };
        let target = &self.stack[idx];
        if target.kind == ScopeKind::Opaque {
            return; // the binding itself was reported
        }
        if target.kind == ScopeKind::Inherited {
            // Only scopes opened inside the function can be more inner than it.
            let inner = self.stack[idx + 1..]
                .iter()
                .position(|s| !s.ended && !matches!(s.kind, ScopeKind::Inherited | ScopeKind::Opaque));
            if let Some(i) = inner {
                let parent_scope = target.label.clone();
                let s = &self.stack[idx + 1 + i];
                let innermost = format!("{} (`{}`)", s.label, s.var);
                self.report_event(ev, ViolationKind::NotInnermost { parent_scope, innermost });
            }
            return;
        }
        // Scopes already reported as non-event bindings are skipped to avoid cascades.
        let open = |s: &Scope| !s.ended && s.kind != ScopeKind::Opaque;
        let Some(innermost) = self.stack.iter().rposition(open) else { return };
        let describe_scope = |s: &Scope| format!("{} (`{}`)", s.label, s.var);
        match ev.event {
            C::Tag => {
                if target.kind != ScopeKind::Event(C::BeginPipeline) {
                    let parent_scope = target.label.clone();
                    self.report_event(ev, ViolationKind::TagNotUnderPipeline { parent_scope });
                }
            }
            C::EndRealization | C::EndProduce | C::EndConsume | C::EndPipeline | C::EndParallelTask => {
                let matching = ev.event.matching_begin().map(ScopeKind::Event) == Some(target.kind)
                    && target.func == ev.func;
                if !matching {
                    let parent_scope = target.label.clone();
                    return self.report_event(ev, ViolationKind::UnmatchedEnd { parent_scope });
                }
                // A scope bound to 0 has no end event of its own; at top level (an output's)
                // text-derived IR extends it over the end_pipeline event.
                let inner_event = self.stack.iter().rposition(|s| open(s) && s.kind != ScopeKind::Silent);
                if let Some(inner) = inner_event.filter(|&i| i != idx) {
                    let parent_scope = target.label.clone();
                    let innermost = describe_scope(&self.stack[inner]);
                    self.report_event(ev, ViolationKind::EndNotInnermost { parent_scope, innermost });
                }
                self.stack[idx].ended = true;
                self.generation += 1;
            }
            _ => {
                if idx != innermost {
                    let parent_scope = target.label.clone();
                    let innermost = describe_scope(&self.stack[innermost]);
                    self.report_event(ev, ViolationKind::NotInnermost { parent_scope, innermost });
                }
            }
        }
    }

    /// Handles `let <var> = value` where `var` ends in `.trace_id`: checks the value and
    /// opens the scope.
    fn bind(&mut self, var: &Name, value: &Expr) {
        let mut scope = Scope {
            var: var.clone(),
            kind: ScopeKind::Opaque,
            func: String::new(),
            label: "a non-event binding".to_owned(),
            event: String::new(),
            ended: false,
            binding: self.sites.last().cloned(),
            opens_fork_task: self.forks.last().is_some_and(|f| f.task_base == self.stack.len()),
        };
        // Later lowering passes lift common subexpressions of the event's arguments into
        // lets around it: `let f.trace_id = let t1 = ... in halide_trace_helper(...)`. The
        // lets' values are evaluated first; the event is their innermost body.
        let mut event = value;
        while let ExprKind::Let { value: lifted, body, .. } = event.kind() {
            self.visit_expr(lifted);
            event = body;
        }
        match decode_event(event) {
            Ok(Some(ev)) if ev.event.is_begin() => {
                for c in event.children() {
                    self.visit_expr(c);
                }
                self.check(&ev, Some(var));
                let expected = match ev.event {
                    TraceEventCode::BeginParallelTask => None,
                    TraceEventCode::BeginPipeline => Some(trace_id_var_name(PIPELINE_SCOPE)),
                    _ => Some(trace_id_var_name(&ev.func)),
                };
                if let Some(expected) = expected.filter(|e| e.as_str() != uniquified_base(var)) {
                    self.report(describe(&ev), var.to_string(), ViolationKind::MisnamedBinding { expected });
                }
                scope.kind = ScopeKind::Event(ev.event);
                scope.label = scope_label(ev.event, &ev.func);
                scope.event = describe(&ev);
                scope.func = ev.func;
            }
            Err(why) => {
                self.report(expr_text(value), var.to_string(), ViolationKind::Malformed(why));
                self.super_expr(event);
            }
            _ if value.as_int() == Some(0) => {
                scope.kind = ScopeKind::Silent;
                scope.label = "an untraced scope (id 0)".to_owned();
            }
            _ if is_closure_load(event) => {
                scope.kind = ScopeKind::Inherited;
                scope.label = "a scope of the caller (passed in the closure)".to_owned();
            }
            _ => {
                let shown = shorten(bare(value));
                self.report(
                    format!("binding of `{var}`"),
                    var.to_string(),
                    ViolationKind::NotAnEventBinding { value: shown },
                );
                self.visit_expr(event);
            }
        }
        self.stack.push(scope);
        self.generation += 1;
    }

    fn close(&mut self) {
        let Some(scope) = self.stack.pop() else { return };
        self.generation += 1;
        if scope.opens_fork_task
            && scope.kind == ScopeKind::Event(TraceEventCode::BeginRealization)
            && let Some(frame) = self.forks.last_mut()
        {
            // Judged when the whole fork has been seen.
            if scope.ended {
                frame.ended.push((scope.var, scope.func));
            } else {
                frame.unended.push((scope.var, scope.func, scope.event, scope.binding));
            }
            return;
        }
        if matches!(scope.kind, ScopeKind::Event(_)) && !scope.ended {
            // Report it at the binding that opened the scope.
            let pushed = scope.binding.is_some();
            self.sites.extend(scope.binding);
            self.report(scope.event, scope.var.to_string(), ViolationKind::MissingEnd);
            if pushed {
                self.sites.pop();
            }
        }
    }
}

impl Visitor for Checker {
    fn visit_expr(&mut self, e: &Expr) {
        if e.is_shared() && !e.is_leaf() && !self.checked.insert((e.as_ptr(), self.generation)) {
            return;
        }
        // The arguments are evaluated before the event happens.
        self.super_expr(e);
        match decode_event(e) {
            Ok(Some(ev)) => self.check(&ev, None),
            Ok(None) => {}
            Err(why) => self.report(expr_text(e), String::new(), ViolationKind::Malformed(why)),
        }
    }

    fn visit_stmt(&mut self, s: &Stmt) {
        self.sites.push(s.clone());
        self.generation += 1;
        self.visit_stmt_here(s);
        self.sites.pop();
        self.generation += 1;
    }
}

/// Whether `e` loads a member of a closure struct: how a parallel task's function gets the
/// ids of the caller's trace scopes.
fn is_closure_load(e: &Expr) -> bool {
    matches!(e.kind(), ExprKind::Call { name, .. } if name.as_ref() == "load_typed_struct_member")
}

/// Whether `name` is a trace id variable: `<x>.trace_id`, or the `<x>.trace_id_<k>` that
/// later lowering passes make of it when they give shadowing names distinct spellings.
fn is_trace_id_name(name: &str) -> bool {
    uniquified_base(name).ends_with(TRACE_ID_SUFFIX)
}

/// `name` without the `_<k>` suffix the uniquifying pass appends, if it has one.
fn uniquified_base(name: &str) -> &str {
    match name.rsplit_once('_') {
        Some((base, k))
            if !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()) && base.ends_with(TRACE_ID_SUFFIX) =>
        {
            base
        }
        _ => name,
    }
}

impl Checker {
    fn visit_stmt_here(&mut self, s: &Stmt) {
        if matches!(s.kind(), StmtKind::Fork { .. }) {
            return self.visit_fork(s);
        }
        if !matches!(s.kind(), StmtKind::LetStmt { .. }) {
            return self.super_stmt(s);
        }
        // Walk the chain of lets in a loop, opening a scope for each `.trace_id` binding.
        let mut opened = 0usize;
        let mut cur = s.clone();
        while let StmtKind::LetStmt { name, value, body } = cur.kind() {
            if let Some(site) = self.sites.last_mut() {
                *site = cur.clone();
                self.generation += 1;
            }
            if !is_trace_id_name(name) {
                self.visit_expr(value);
            } else {
                self.bind(name, value);
                opened += 1;
                if let Some((node, rest)) = self.split_producer_consumer(body) {
                    // `let f.trace_id = <produce f>` covers only the produce node; in parsed
                    // text the statements after it land in the let's body too.
                    self.visit_stmt(node);
                    // The end event is normally the node's last statement. Later passes
                    // may move it out, after the node (an `end_consume` next to the
                    // `free` of the buffer), still inside the let: then the scope stays
                    // open until that event ends it, and any other event before it is
                    // checked with this scope as the innermost one.
                    if self.stack.last().is_some_and(|s| s.ended) {
                        self.close();
                        opened -= 1;
                    }
                    for r in rest {
                        self.visit_stmt(r);
                    }
                    break;
                }
            }
            let next = body.clone();
            cur = next;
        }
        if !matches!(cur.kind(), StmtKind::LetStmt { .. }) {
            self.visit_stmt(&cur);
        }
        for _ in 0..opened {
            self.close();
        }
    }
}

impl Checker {
    /// Visits the tasks of a fork (the chain `fork(a, fork(b, c))` as one fork of three),
    /// then reports the realization scopes that opened a task and that no task ended.
    fn visit_fork(&mut self, s: &Stmt) {
        let mut tasks = Vec::new();
        let mut cur = s;
        while let StmtKind::Fork { first, rest } = cur.kind() {
            tasks.push(first);
            cur = rest;
        }
        tasks.push(cur);
        self.forks.push(ForkFrame::default());
        for task in tasks {
            if let Some(frame) = self.forks.last_mut() {
                frame.task_base = self.stack.len();
            }
            self.visit_stmt(task);
        }
        let Some(frame) = self.forks.pop() else { return };
        for (var, func, event, binding) in frame.unended {
            if frame.ended.iter().any(|(v, f)| *v == var && *f == func) {
                continue;
            }
            let pushed = binding.is_some();
            self.sites.extend(binding);
            self.report(event, var.to_string(), ViolationKind::MissingEnd);
            if pushed {
                self.sites.pop();
            }
        }
    }

    /// If the scope just opened is a produce/consume event of `f` and `body` is a block
    /// starting with the `produce f` / `consume f` node, that node and the statements
    /// after it. The printed form of `{let x = v in produce f {...}}; s` and
    /// `let x = v in {produce f {...}; s}` is the same, so text-derived IR has the second
    /// shape where the pass built the first.
    fn split_producer_consumer<'s>(&self, body: &'s Stmt) -> Option<(&'s Stmt, &'s [Stmt])> {
        let scope = self.stack.last()?;
        let is_producer = match scope.kind {
            ScopeKind::Event(TraceEventCode::Produce) => true,
            ScopeKind::Event(TraceEventCode::Consume) => false,
            _ => return None,
        };
        let StmtKind::Block(stmts) = body.kind() else { return None };
        let (first, rest) = stmts.split_first()?;
        match first.kind() {
            StmtKind::ProducerConsumer { name, is_producer: p, .. }
                if name.as_ref() == scope.func && *p == is_producer =>
            {
                Some((first, rest))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn violations(text: &str) -> Vec<HierarchyViolation> {
        let s = loopir::parse_stmt(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        check_trace_hierarchy(&s).err().unwrap_or_default()
    }

    const BEGIN: &str = "let pipeline.trace_id = halide_trace_helper(\"p\", (void *)make_struct(), (int32_t *)make_struct(), 3, 0, 0, 8, 0, 0, 0, 0, \"\")\n";
    const END: &str = "halide_trace_helper(\"p\", (void *)make_struct(), (int32_t *)make_struct(), 3, 0, 0, 9, pipeline.trace_id, 0, 0, 0, \"\")\n";

    fn ev(func: &str, code: i32, parent: &str) -> String {
        format!(
            "halide_trace_helper(\"{func}\", (void *)make_struct(), (int32_t *)make_struct(), 3, 0, 0, {code}, {parent}, 0, 0, 0, \"\")"
        )
    }

    #[test]
    fn accepts_the_pass_shape() {
        let text = format!(
            "{BEGIN}let f.trace_id = {}\nproduce f {{\n f(x) = 1\n {}\n}}\n{END}",
            ev("f", 4, "pipeline.trace_id"),
            ev("f", 5, "f.trace_id")
        );
        assert_eq!(violations(&text), vec![]);
    }

    #[test]
    fn accepts_names_made_distinct_by_later_passes() {
        // Lowering passes after tracing rename shadowing lets `f.trace_id` to
        // `f.trace_id_1`, `f.trace_id_2`, ...; dumps of those stages still check.
        let text = format!(
            "{BEGIN}let f.trace_id_1 = {}\nproduce f {{\n f(x) = 1\n {}\n}}\n{END}",
            ev("f", 4, "pipeline.trace_id"),
            ev("f", 5, "f.trace_id_1")
        );
        assert_eq!(violations(&text), vec![]);
        // A suffix that is not a number is not such a name.
        let text = format!("{BEGIN}let f.trace_id_x = {}\n{END}", ev("f", 2, "pipeline.trace_id"));
        assert!(!violations(&text).is_empty());
    }

    #[test]
    fn end_must_close_the_innermost_scope() {
        let text = format!(
            "{BEGIN}let f.trace_id = {}\nlet g.trace_id = {}\n{}\n{}\n{END}",
            ev("f", 2, "pipeline.trace_id"),
            ev("g", 2, "f.trace_id"),
            ev("f", 3, "f.trace_id"),
            ev("g", 3, "g.trace_id"),
        );
        let v = violations(&text);
        assert_eq!(v.len(), 1, "{v:#?}");
        assert!(matches!(v[0].kind, ViolationKind::EndNotInnermost { .. }), "{}", v[0]);
        assert!(v[0].to_string().contains("while begin_realization of `g`"), "{}", v[0]);
    }

    #[test]
    fn accepts_an_event_wrapped_in_lets() {
        // CSE lifts parts of the event's arguments into lets around the call.
        let wrapped = |code: i32, parent: &str| {
            let call = ev("f", code, parent).replace("make_struct(), 3", "make_struct(t1), 3");
            format!("let t1 = max(x, 0) in (let t2 = (t1 + 1) in {call})")
        };
        let text = format!(
            "{BEGIN}let f.trace_id = {}\nproduce f {{\n f(x) = 1\n {}\n}}\n{END}",
            wrapped(4, "pipeline.trace_id"),
            ev("f", 5, "f.trace_id")
        );
        assert_eq!(violations(&text), vec![]);
        // Still checked: the wrapped event's parent must be the innermost scope.
        let text = format!(
            "{BEGIN}let g.trace_id = {}\nlet f.trace_id = {}\nproduce f {{\n f(x) = 1\n {}\n}}\n{}\n{END}",
            ev("g", 2, "pipeline.trace_id"),
            wrapped(4, "pipeline.trace_id"),
            ev("f", 5, "f.trace_id"),
            ev("g", 3, "g.trace_id"),
        );
        let v = violations(&text);
        assert_eq!(v.len(), 1, "{v:#?}");
        assert!(matches!(v[0].kind, ViolationKind::NotInnermost { .. }), "{}", v[0]);
    }

    /// A consume of `f` whose end event a later pass moved out of the block, after the
    /// `free f`, still inside the `let f.trace_id`; `between` goes between the block and
    /// the end event.
    fn moved_end(between: &str, end_parent: &str) -> String {
        format!(
            "{BEGIN}let f.trace_id = {}\nlet f.trace_id_1 = {}\nconsume f {{\n g(x) = f(x)\n}}\nfree f\n{between}{}\n{}\n{END}",
            ev("f", 2, "pipeline.trace_id"),
            ev("f", 6, "f.trace_id"),
            ev("f", 7, end_parent),
            ev("f", 3, "f.trace_id"),
        )
    }

    #[test]
    fn accepts_an_end_event_moved_after_its_block() {
        assert_eq!(violations(&moved_end("", "f.trace_id_1")), vec![]);
    }

    #[test]
    fn a_moved_end_event_is_still_checked() {
        // Its parent must be the consume it ends.
        let v = violations(&moved_end("", "f.trace_id"));
        assert!(v.iter().any(|x| matches!(x.kind, ViolationKind::UnmatchedEnd { .. })), "{v:#?}");
        assert!(v.iter().any(|x| x.kind == ViolationKind::MissingEnd), "{v:#?}");
        // Until it comes, the consume is the innermost scope: an event parented by the
        // realization before it is reported.
        let between = format!("{}\n", ev("f", 0, "f.trace_id"));
        let v = violations(&moved_end(&between, "f.trace_id_1"));
        assert_eq!(v.len(), 1, "{v:#?}");
        assert!(matches!(v[0].kind, ViolationKind::NotInnermost { .. }), "{}", v[0]);
    }

    /// A realization of `f` split by forking asynchronous producers: both tasks open
    /// `f.trace_id`; `producer_end` and `consumer_end` say which ends it.
    fn forked(producer_end: bool, consumer_end: bool) -> String {
        let begin = format!("let f.trace_id = {}\n", ev("f", 2, "pipeline.trace_id"));
        let end = |yes: bool| if yes { format!("  {}\n", ev("f", 3, "f.trace_id")) } else { String::new() };
        format!(
            "{BEGIN}fork {{\n {begin} let f.trace_id_1 = {}\n produce f {{\n  f(x) = 1\n  {}\n }}\n{}}} {{\n acquire (f.semaphore_0, 1) {{\n  {begin}  consume f {{\n   g(x) = f(x)\n  }}\n{} }}\n}} \n{END}",
            ev("f", 4, "f.trace_id"),
            ev("f", 5, "f.trace_id_1"),
            end(producer_end).replacen("  ", " ", 1),
            end(consumer_end),
        )
    }

    #[test]
    fn accepts_a_realization_split_by_an_async_fork() {
        assert_eq!(violations(&forked(false, true)), vec![]);
    }

    #[test]
    fn a_forked_realization_ended_nowhere_is_reported() {
        let v = violations(&forked(false, false));
        assert_eq!(v.len(), 2, "{v:#?}");
        assert!(v.iter().all(|x| x.kind == ViolationKind::MissingEnd), "{v:#?}");
    }

    #[test]
    fn a_closure_inherits_the_caller_s_scopes() {
        // A parallel task's function gets the caller's ids from its closure.
        let load =
            |k: i32| format!("load_typed_struct_member((void *)closure_arg, (void *)closure_prototype, {k})");
        let text = format!(
            "let pipeline.trace_id = {}\nlet f.trace_id_1 = {}\n{}\nlet g.trace_id = {}\nproduce g {{\n {}\n {}\n}}\n",
            load(9),
            load(7),
            ev("f", 1, "f.trace_id_1"),
            ev("g", 4, "f.trace_id_1"),
            ev("f", 0, "g.trace_id"),
            ev("g", 5, "g.trace_id"),
        );
        assert_eq!(violations(&text), vec![]);
        // A scope opened in the function is still innermost: parenting to the caller's
        // past it is reported.
        let text = text.replace(&ev("f", 0, "g.trace_id"), &ev("f", 0, "pipeline.trace_id"));
        let v = violations(&text);
        assert_eq!(v.len(), 1, "{v:#?}");
        assert!(matches!(v[0].kind, ViolationKind::NotInnermost { .. }), "{}", v[0]);
    }

    #[test]
    fn a_second_end_is_reported() {
        let text = format!(
            "{BEGIN}let f.trace_id = {}\n{}\n{}\n{END}",
            ev("f", 2, "pipeline.trace_id"),
            ev("f", 3, "f.trace_id"),
            ev("f", 3, "f.trace_id"),
        );
        let v = violations(&text);
        assert_eq!(v.len(), 1, "{v:#?}");
        assert_eq!(v[0].kind, ViolationKind::ExtraEnd);
    }

    /// `out` is untraced: the pass binds `out.trace_id` to 0 and parents `a`'s realization
    /// by it; the first simplification substitutes the 0 (traced_funcs, stage 09).
    fn untraced_parent(substituted: bool) -> String {
        let parent = if substituted { "0" } else { "out.trace_id" };
        let silent = if substituted { "" } else { "let out.trace_id = 0\n" };
        format!(
            "{BEGIN}{silent}let a.trace_id = {}\nproduce a {{\n a(x) = 1\n}}\n{}\n{END}",
            ev("a", 2, parent),
            ev("a", 3, "a.trace_id")
        )
    }

    #[test]
    fn accepts_a_zero_parent_once_untraced_scopes_are_substituted() {
        assert_eq!(violations(&untraced_parent(false)), vec![]);
        assert_eq!(violations(&untraced_parent(true)), vec![]);
    }

    #[test]
    fn a_zero_parent_beside_a_visible_untraced_scope_is_reported() {
        let text =
            untraced_parent(true).replacen("let a.trace_id", "let out.trace_id = 0\nlet a.trace_id", 1);
        let found = violations(&text);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!(found[0].kind, ViolationKind::ZeroParent);
    }

    #[test]
    fn a_zero_parent_never_ends_a_scope() {
        let text = untraced_parent(true).replace(&ev("a", 3, "a.trace_id"), &ev("a", 3, "0"));
        let kinds: Vec<_> = violations(&text).into_iter().map(|v| v.kind).collect();
        assert!(kinds.contains(&ViolationKind::ZeroParent), "{kinds:?}");
    }
}
