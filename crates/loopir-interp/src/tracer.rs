//! The tracing runtime: `halide_trace_helper` calls become a trace log, and every
//! event's parent id is checked against the documented hierarchy as the program runs.
//!
//! Event ids are handed out as the reference's default trace handler does (1, 2, 3, ...
//! in call order). Each thread (interpreter task) keeps the stack of its open events
//! (begin realization, produce, consume, begin pipeline, begin parallel task); a task
//! whose first event comes while it has no stack starts from the main task's open
//! events, which is where the interpreter starts its tasks from. The innermost
//! enclosing event of a begin event, a load, a store or a tag is the top of that stack
//! (0 when it is empty); an end event's parent must be the open event it ends, which
//! must be the innermost one.

use std::fmt::Write as _;

use loopir::mutate::Mutator;
use loopir::visit::Visitor;
use loopir::{Expr, ExprKind, Stmt, StmtKind};
use rustc_hash::FxHashMap;

use crate::runtime::TraceEvent;

/// The event names of `halide_trace_event_code_t`, by code.
pub const EVENT_NAMES: [&str; 13] = [
    "load",
    "store",
    "begin_realization",
    "end_realization",
    "produce",
    "end_produce",
    "consume",
    "end_consume",
    "begin_pipeline",
    "end_pipeline",
    "tag",
    "begin_parallel_task",
    "end_parallel_task",
];

fn event_name(code: i32) -> String {
    usize::try_from(code)
        .ok()
        .and_then(|k| EVENT_NAMES.get(k))
        .map_or_else(|| format!("event{code}"), |s| (*s).to_owned())
}

fn is_begin(code: i32) -> bool {
    matches!(code, 2 | 4 | 6 | 8 | 11)
}

fn is_end(code: i32) -> bool {
    matches!(code, 3 | 5 | 7 | 9 | 12)
}

/// One event of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoggedEvent {
    /// Its id (what `halide_trace_helper` returned).
    pub id: i32,
    /// The thread (interpreter task) that made it.
    pub thread: i32,
    /// The event as the program passed it.
    pub event: TraceEvent,
}

/// An event whose parent is not its innermost enclosing event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParentViolation {
    /// The event's id.
    pub id: i32,
    /// What it is, e.g. `store f(3, 4)`.
    pub what: String,
    /// The parent id it carries.
    pub parent: i32,
    /// The id of its innermost enclosing event (0: none).
    pub expected: i32,
    /// That event, e.g. `produce f` (empty when there is none).
    pub expected_what: String,
}

/// The trace log of a run, with the parent checks' findings.
#[derive(Clone, Debug, Default)]
pub struct TraceLog {
    events: Vec<LoggedEvent>,
    open: FxHashMap<i32, Vec<i32>>,
    violations: Vec<ParentViolation>,
    next_id: i32,
}

impl TraceLog {
    /// An empty log.
    pub fn new() -> TraceLog {
        TraceLog::default()
    }

    /// The events, in call order.
    pub fn events(&self) -> &[LoggedEvent] {
        &self.events
    }

    /// The events whose parent was not their innermost enclosing event, in call order.
    pub fn violations(&self) -> &[ParentViolation] {
        &self.violations
    }

    fn describe(&self, id: i32) -> String {
        usize::try_from(id - 1)
            .ok()
            .and_then(|k| self.events.get(k))
            .map_or_else(String::new, |e| describe(&e.event))
    }

    /// Records one event made by `thread`; returns its id.
    pub fn record(&mut self, event: &TraceEvent, thread: i32) -> i32 {
        self.next_id += 1;
        let id = self.next_id;
        if !self.open.contains_key(&thread) {
            let start = self.open.get(&0).cloned().unwrap_or_default();
            self.open.insert(thread, start);
        }
        let stack = self.open.entry(thread).or_default();
        let innermost = stack.last().copied().unwrap_or(0);
        if innermost != event.parent_id {
            let expected_what = self.describe(innermost);
            self.violations.push(ParentViolation {
                id,
                what: describe(event),
                parent: event.parent_id,
                expected: innermost,
                expected_what,
            });
        }
        let stack = self.open.entry(thread).or_default();
        if is_begin(event.event) {
            stack.push(id);
        } else if is_end(event.event) {
            // An end closes the event it names, wherever it is on the stack.
            if let Some(k) = stack.iter().rposition(|&o| o == event.parent_id) {
                stack.truncate(k);
            }
        }
        self.events.push(LoggedEvent { id, thread, event: event.clone() });
        id
    }

    /// The log, one line per event:
    /// `ID PARENT EVENT FUNC[.VALUE_INDEX](COORDINATES) = VALUE [tag]`.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for e in &self.events {
            let _ = writeln!(out, "{:>6} {:>6} {}", e.id, e.event.parent_id, describe_with_value(&e.event));
        }
        out
    }
}

/// An event without its value: `store f.1(3, 4)`, `produce f`.
pub fn describe(e: &TraceEvent) -> String {
    let mut s = format!("{} {}", event_name(e.event), e.func);
    if matches!(e.event, 0 | 1) && e.value_index != 0 {
        let _ = write!(s, ".{}", e.value_index);
    }
    if !e.coordinates.is_empty() || matches!(e.event, 0 | 1) {
        let coords: Vec<String> = e.coordinates.iter().map(i32::to_string).collect();
        let _ = write!(s, "({})", coords.join(", "));
    }
    s
}

fn describe_with_value(e: &TraceEvent) -> String {
    let mut s = describe(e);
    if matches!(e.event, 0 | 1) && !e.value.is_empty() {
        let _ = write!(s, " = {}", value_text(e));
    }
    if e.event == 10 {
        let _ = write!(s, " {:?}", e.tag);
    }
    s
}

/// The value of a load or store, lane by lane, as its `halide_type_t` says.
fn value_text(e: &TraceEvent) -> String {
    let code = e.ty & 0xff;
    let bits = ((e.ty >> 8) & 0xff) as usize;
    let bytes = bits.div_ceil(8).max(1);
    let lanes: Vec<String> = e
        .value
        .chunks(bytes)
        .map(|c| {
            let mut raw = [0u8; 8];
            raw[..c.len().min(8)].copy_from_slice(&c[..c.len().min(8)]);
            let u = u64::from_le_bytes(raw);
            match (code, bits) {
                // int
                (0, b) if b < 64 => {
                    let shift = 64 - b as u32;
                    (((u << shift) as i64) >> shift).to_string()
                }
                (0, _) => (u as i64).to_string(),
                (2, 32) => format!("{}", f32::from_bits(u as u32)),
                (2, 64) => format!("{}", f64::from_bits(u)),
                // uint, handles, float16/bfloat16 as their bits
                _ => u.to_string(),
            }
        })
        .collect();
    if lanes.len() == 1 {
        lanes.into_iter().next().unwrap_or_default()
    } else {
        format!("<{}>", lanes.join(", "))
    }
}

/// Gives the produce and consume events' lets back the scope the tracing pass gave them.
///
/// The pass binds `let f.trace_id = <produce f event>` around the `produce f` node
/// only, but Halide's text prints `{let x = v in produce f {...}}; s` and `let x = v in
/// {produce f {...}; s}` alike, and the parser reads the second: the statements after
/// the node (the `consume f` event, whose parent is `f.trace_id`) would see the produce
/// event's id instead of the realization's. This rewrites each such let back to the
/// first shape (the static `trace --check` reads the text the same way), so that a run
/// of parsed text makes the events the compiled pipeline makes.
pub fn scope_trace_lets(s: &Stmt) -> Stmt {
    ScopeTraceLets.mutate_stmt(s)
}

struct ScopeTraceLets;

impl Mutator for ScopeTraceLets {
    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        let s = self.super_stmt(s);
        if !matches!(s.kind(), StmtKind::LetStmt { .. }) {
            return s;
        }
        // The walk hands over a chain of lets as one statement: rewrite each link,
        // innermost first.
        let mut chain = Vec::new();
        let mut cur = &s;
        while let StmtKind::LetStmt { name, value, body } = cur.kind() {
            chain.push((name, value));
            cur = body;
        }
        let mut changed = false;
        let mut out = cur.clone();
        for (name, value) in chain.into_iter().rev() {
            out = match split_event_let(name, value, &out) {
                Some(split) => {
                    changed = true;
                    split
                }
                None => Stmt::let_stmt(name.clone(), value.clone(), out),
            };
        }
        if changed { out } else { s }
    }
}

/// `{let name = value in PC}; rest` for `let name = value in {PC; rest}` where `value` is
/// the produce or consume event of the node `PC`.
fn split_event_let(name: &loopir::Name, value: &Expr, body: &Stmt) -> Option<Stmt> {
    let ExprKind::Call { name: callee, args, .. } = value.kind() else { return None };
    if &**callee != "halide_trace_helper" || !name.contains(".trace_id") {
        return None;
    }
    let is_producer = match args.get(6).map(Expr::kind) {
        Some(ExprKind::IntImm(4)) => true,
        Some(ExprKind::IntImm(6)) => false,
        _ => return None,
    };
    let StmtKind::Block(stmts) = body.kind() else { return None };
    let (first, rest) = stmts.split_first()?;
    match first.kind() {
        // Later passes may move the end event after the node, still inside the let: then
        // the let covers it, as printed.
        StmtKind::ProducerConsumer { is_producer: p, .. }
            if *p == is_producer
                && !rest.is_empty()
                && !rest.iter().any(|r| ends_event(r, name, is_producer)) =>
        {
            let mut out = Vec::with_capacity(stmts.len());
            out.push(Stmt::let_stmt(name.clone(), value.clone(), first.clone()));
            out.extend(rest.iter().cloned());
            Some(Stmt::block(out))
        }
        _ => None,
    }
}

/// Whether `s` makes the end_produce (or end_consume) event whose parent is `name`.
fn ends_event(s: &Stmt, name: &str, is_producer: bool) -> bool {
    struct Ends<'a> {
        name: &'a str,
        code: i64,
        found: bool,
    }
    impl Visitor for Ends<'_> {
        fn visit_expr(&mut self, e: &Expr) {
            if self.found {
                return;
            }
            if let ExprKind::Call { name: callee, args, .. } = e.kind()
                && &**callee == "halide_trace_helper"
                && matches!(args.get(6).map(Expr::kind), Some(ExprKind::IntImm(c)) if *c == self.code)
                && matches!(args.get(7).map(Expr::kind), Some(ExprKind::Variable(v)) if &**v == self.name)
            {
                self.found = true;
                return;
            }
            self.super_expr(e);
        }
    }
    let mut m = Ends { name, code: if is_producer { 5 } else { 7 }, found: false };
    m.visit_stmt(s);
    m.found
}
