//! The tracing runtime: `halide_trace_helper` calls become a trace log, and every
//! event's parent id is checked against the documented hierarchy.
//!
//! Event ids are handed out as the reference's default trace handler does (1, 2, 3, ...
//! in call order). Each thread (interpreter task) keeps the stack of its open events
//! (begin realization, produce, consume, begin pipeline, begin parallel task); a task
//! starts from the open events of the task that started it (a fork's or a GPU thread
//! loop's), which are those of the code it runs in. The innermost enclosing event of a
//! begin event, a load, a store or a tag is the top of that stack (0 when it is
//! empty); an end event's parent must be the open event it ends, which must be the
//! innermost one.
//!
//! A begin event whose end event never runs stays on the stack. The reference's later
//! lowering makes such events: sliding window guards the body of a `consume` node,
//! its end event included, so the warm-up iterations of the loop make a consume event
//! and no end (`SlidingWindow.cpp`); forking asynchronous producers copies the
//! `let f.trace_id = <begin_realization f>` into the producer's task, which never ends
//! it (`AsyncProducers.cpp`). Left on the stack, such an event would make every later
//! event of its thread look misparented. So the check runs on the whole log
//! ([`TraceLog::check`]): an event whose parent is an open event deeper in the stack is
//! well parented when every event above its parent is one that never ends (its scope
//! was left without the end event); those are reported apart, as [`UnendedEvent`]s.
//! If any event above the parent ends later, it was still open, and the event's
//! parent is wrong ([`ParentViolation`]).

use std::fmt::Write as _;

use loopir::mutate::Mutator;
use loopir::visit::Visitor;
use loopir::{Expr, ExprKind, Stmt, StmtKind};
use rustc_hash::{FxHashMap, FxHashSet};

use crate::error::{ErrorKind, InterpError};
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

/// A begin event whose end event never ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnendedEvent {
    /// The event's id.
    pub id: i32,
    /// What it is, e.g. `consume f(0, 16, 3, 1)`.
    pub what: String,
    /// The thread that made it.
    pub thread: i32,
    /// The first event of the thread whose parent lies below it on the stack: the scope
    /// was left there. `None`: it was still open at its thread's last event (the task
    /// or the run ended with it open).
    pub passed_by: Option<i32>,
}

/// What [`TraceLog::check`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TraceCheck {
    /// The events whose parent was not their innermost enclosing event, in call order.
    pub violations: Vec<ParentViolation>,
    /// The begin events that were never ended, in call order.
    pub unended: Vec<UnendedEvent>,
}

/// The trace log of a run.
///
/// A traced run makes millions of events over a few dozen Func names, so the log keeps
/// each event as a fixed-size record: its Func name and tag as indices into a table
/// of the distinct strings, its coordinates and value bytes in two arrays shared by all
/// events. [`TraceLog::events`] gives them back as [`LoggedEvent`]s.
#[derive(Clone, Debug, Default)]
pub struct TraceLog {
    /// The events, in call order: the event with id `k` is `records[k - 1]`.
    records: Vec<Record>,
    /// The coordinates of every event, in call order.
    coordinates: Vec<i32>,
    /// The value bytes of every event, in call order.
    values: Vec<u8>,
    /// The distinct Func names and tags, in order of first use.
    strings: Vec<String>,
    /// The index in `strings` of each of them.
    string_index: FxHashMap<String, u32>,
    /// The thread that started each thread other than the main one.
    spawners: FxHashMap<i32, i32>,
    /// The bytes of the distinct strings (each held twice: in `strings` and as a key).
    string_bytes: usize,
}

/// One event as [`TraceLog`] keeps it: a [`TraceEvent`] whose strings are indices into
/// the log's table and whose coordinates and value end where the next event's begin.
#[derive(Clone, Copy, Debug)]
struct Record {
    thread: i32,
    event: i32,
    parent_id: i32,
    thread_id: i32,
    value_index: i32,
    ty: u32,
    func: u32,
    tag: u32,
    /// Where its coordinates end in [`TraceLog::coordinates`].
    coordinates_end: usize,
    /// Where its value ends in [`TraceLog::values`].
    value_end: usize,
}

/// A [`TraceEvent`] read back from the log, its strings and arrays borrowed.
struct EventRef<'a> {
    event: i32,
    parent_id: i32,
    func: &'a str,
    value_index: i32,
    coordinates: &'a [i32],
    ty: u32,
    value: &'a [u8],
    tag: &'a str,
}

impl<'a> From<&'a TraceEvent> for EventRef<'a> {
    fn from(e: &'a TraceEvent) -> EventRef<'a> {
        EventRef {
            event: e.event,
            parent_id: e.parent_id,
            func: &e.func,
            value_index: e.value_index,
            coordinates: &e.coordinates,
            ty: e.ty,
            value: &e.value,
            tag: &e.tag,
        }
    }
}

fn log_full() -> InterpError {
    InterpError::new(
        ErrorKind::Limit,
        format!("the trace log holds {} events, the most its int32 event ids can number", i32::MAX),
    )
}

impl TraceLog {
    /// An empty log.
    pub fn new() -> TraceLog {
        TraceLog::default()
    }

    /// The number of events.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// The memory the log holds, in bytes (its events' records, coordinates and values,
    /// and its strings): what a run's memory limit counts besides the program's heap.
    pub fn bytes(&self) -> usize {
        self.records.len() * std::mem::size_of::<Record>()
            + self.coordinates.len() * std::mem::size_of::<i32>()
            + self.values.len()
            + self.string_bytes
    }

    /// Whether the log has no events.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// The events, in call order.
    pub fn events(&self) -> impl ExactSizeIterator<Item = LoggedEvent> + '_ {
        (0..self.records.len()).map(|k| {
            let e = self.event(k);
            let r = &self.records[k];
            LoggedEvent {
                id: id_of(k),
                thread: r.thread,
                event: TraceEvent {
                    func: e.func.to_owned(),
                    event: e.event,
                    parent_id: e.parent_id,
                    thread_id: r.thread_id,
                    value_index: e.value_index,
                    coordinates: e.coordinates.to_vec(),
                    ty: e.ty,
                    value: e.value.to_vec(),
                    tag: e.tag.to_owned(),
                },
            }
        })
    }

    /// Records one event made by `thread`, which `parent_thread` started (`None`: the
    /// main thread, or unknown); returns its id. A log holds at most `i32::MAX` events
    /// (the ids are int32, as the reference's); recording one more is a
    /// [`Limit`](ErrorKind::Limit) error.
    pub fn record(
        &mut self,
        event: &TraceEvent,
        thread: i32,
        parent_thread: Option<i32>,
    ) -> Result<i32, InterpError> {
        let id = i32::try_from(self.records.len() + 1).map_err(|_| log_full())?;
        if let Some(p) = parent_thread
            && p != thread
        {
            self.spawners.entry(thread).or_insert(p);
        }
        let (func, tag) = (self.intern(&event.func)?, self.intern(&event.tag)?);
        self.coordinates.extend_from_slice(&event.coordinates);
        self.values.extend_from_slice(&event.value);
        self.records.push(Record {
            thread,
            event: event.event,
            parent_id: event.parent_id,
            thread_id: event.thread_id,
            value_index: event.value_index,
            ty: event.ty,
            func,
            tag,
            coordinates_end: self.coordinates.len(),
            value_end: self.values.len(),
        });
        Ok(id)
    }

    /// The index of `s` in the table of strings, adding it if it is new.
    fn intern(&mut self, s: &str) -> Result<u32, InterpError> {
        if let Some(&k) = self.string_index.get(s) {
            return Ok(k);
        }
        // Two strings per event at most, and at most `i32::MAX` events: this fits.
        let k = u32::try_from(self.strings.len()).map_err(|_| log_full())?;
        self.strings.push(s.to_owned());
        self.string_index.insert(s.to_owned(), k);
        self.string_bytes += 2 * s.len();
        Ok(k)
    }

    /// The event at index `k` (id `k + 1`).
    fn event(&self, k: usize) -> EventRef<'_> {
        let r = &self.records[k];
        let (coordinates_start, value_start) =
            k.checked_sub(1).map_or((0, 0), |p| (self.records[p].coordinates_end, self.records[p].value_end));
        EventRef {
            event: r.event,
            parent_id: r.parent_id,
            func: &self.strings[r.func as usize],
            value_index: r.value_index,
            coordinates: &self.coordinates[coordinates_start..r.coordinates_end],
            ty: r.ty,
            value: &self.values[value_start..r.value_end],
            tag: &self.strings[r.tag as usize],
        }
    }

    /// The events whose parent was not their innermost enclosing event, in call order
    /// (those of [`TraceLog::check`]).
    pub fn violations(&self) -> Vec<ParentViolation> {
        self.check().violations
    }

    /// The event with id `id` without its value (empty when there is none).
    fn describe(&self, id: i32) -> String {
        usize::try_from(id - 1)
            .ok()
            .filter(|&k| k < self.records.len())
            .map_or_else(String::new, |k| describe_ref(&self.event(k)))
    }

    /// Checks every event's parent against the stack of open events of its thread (see
    /// the module documentation), and lists the begin events that never ended.
    pub fn check(&self) -> TraceCheck {
        let ended: FxHashSet<i32> =
            self.records.iter().filter(|r| is_end(r.event)).map(|r| r.parent_id).collect();
        let mut stacks: FxHashMap<i32, Vec<i32>> = FxHashMap::default();
        let mut passed: FxHashMap<i32, i32> = FxHashMap::default();
        let mut out = TraceCheck::default();
        for (k, r) in self.records.iter().enumerate() {
            let id = id_of(k);
            if !stacks.contains_key(&r.thread) {
                let start = self.starting_stack(r.thread, &stacks);
                stacks.insert(r.thread, start);
            }
            let stack = stacks.entry(r.thread).or_default();
            let parent = r.parent_id;
            let innermost = stack.last().copied().unwrap_or(0);
            if parent != innermost {
                // Where the events above the parent start (all of them for parent 0).
                let above = if parent == 0 {
                    Some(0)
                } else {
                    stack.iter().rposition(|&o| o == parent).map(|k| k + 1)
                };
                match above {
                    Some(k) if stack[k..].iter().all(|o| !ended.contains(o)) => {
                        for o in &stack[k..] {
                            passed.entry(*o).or_insert(id);
                        }
                        stack.truncate(k);
                    }
                    _ => out.violations.push(ParentViolation {
                        id,
                        what: describe_ref(&self.event(k)),
                        parent,
                        expected: innermost,
                        expected_what: self.describe(innermost),
                    }),
                }
            }
            let stack = stacks.entry(r.thread).or_default();
            if is_begin(r.event) {
                stack.push(id);
            } else if is_end(r.event) {
                // An end closes the event it names, wherever it is on the stack.
                if let Some(k) = stack.iter().rposition(|&o| o == parent) {
                    stack.truncate(k);
                }
            }
        }
        out.unended = self
            .records
            .iter()
            .enumerate()
            .filter(|&(k, r)| is_begin(r.event) && !ended.contains(&id_of(k)))
            .map(|(k, r)| UnendedEvent {
                id: id_of(k),
                what: describe_ref(&self.event(k)),
                thread: r.thread,
                passed_by: passed.get(&id_of(k)).copied(),
            })
            .collect();
        out
    }

    /// The open events a thread starts from: those of the nearest thread up its chain of
    /// spawners that has made events (the main thread's for a thread of unknown origin).
    fn starting_stack(&self, thread: i32, stacks: &FxHashMap<i32, Vec<i32>>) -> Vec<i32> {
        let mut t = thread;
        // A chain longer than the number of threads would be a cycle.
        for _ in 0..=self.spawners.len() {
            match self.spawners.get(&t) {
                Some(&p) => {
                    if let Some(s) = stacks.get(&p) {
                        return s.clone();
                    }
                    t = p;
                }
                None => break,
            }
        }
        if thread == 0 { Vec::new() } else { stacks.get(&0).cloned().unwrap_or_default() }
    }

    /// The log, one line per event:
    /// `ID PARENT EVENT FUNC[.VALUE_INDEX](COORDINATES) = VALUE [tag]`.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for k in 0..self.records.len() {
            self.write_line(&mut out, k);
        }
        out
    }

    /// Writes what [`TraceLog::render`] returns to `w`, line by line: a long log need
    /// not be held twice, as events and as text.
    pub fn write_to(&self, w: &mut impl std::io::Write) -> std::io::Result<()> {
        let mut line = String::new();
        for k in 0..self.records.len() {
            line.clear();
            self.write_line(&mut line, k);
            w.write_all(line.as_bytes())?;
        }
        Ok(())
    }

    /// Appends the line of the event at index `k` to `out`.
    fn write_line(&self, out: &mut String, k: usize) {
        let e = self.event(k);
        let _ = write!(out, "{:>6} {:>6} ", id_of(k), e.parent_id);
        write_description(out, &e);
        if matches!(e.event, 0 | 1) && !e.value.is_empty() {
            out.push_str(" = ");
            write_value(out, e.ty, e.value);
        }
        if e.event == 10 {
            let _ = write!(out, " {:?}", e.tag);
        }
        out.push('\n');
    }
}

/// The id of the event at index `k` of the log. The log refuses events past `i32::MAX`
/// ([`TraceLog::record`]), so every index it holds converts.
fn id_of(k: usize) -> i32 {
    i32::try_from(k + 1).unwrap_or(i32::MAX)
}

/// An event without its value: `store f.1(3, 4)`, `produce f`.
pub fn describe(e: &TraceEvent) -> String {
    describe_ref(&EventRef::from(e))
}

fn describe_ref(e: &EventRef<'_>) -> String {
    let mut s = String::new();
    write_description(&mut s, e);
    s
}

/// Writes what [`describe`] returns.
fn write_description(out: &mut String, e: &EventRef<'_>) {
    match usize::try_from(e.event).ok().and_then(|k| EVENT_NAMES.get(k)) {
        Some(name) => out.push_str(name),
        None => {
            let _ = write!(out, "event{}", e.event);
        }
    }
    out.push(' ');
    out.push_str(e.func);
    if matches!(e.event, 0 | 1) && e.value_index != 0 {
        let _ = write!(out, ".{}", e.value_index);
    }
    if !e.coordinates.is_empty() || matches!(e.event, 0 | 1) {
        out.push('(');
        for (k, c) in e.coordinates.iter().enumerate() {
            if k > 0 {
                out.push_str(", ");
            }
            let _ = write!(out, "{c}");
        }
        out.push(')');
    }
}

/// Writes the value of a load or store, lane by lane, as its `halide_type_t` says.
fn write_value(out: &mut String, ty: u32, value: &[u8]) {
    let code = ty & 0xff;
    let bits = ((ty >> 8) & 0xff) as usize;
    let bytes = bits.div_ceil(8).max(1);
    let several = value.len() > bytes;
    if several {
        out.push('<');
    }
    for (k, c) in value.chunks(bytes).enumerate() {
        if k > 0 {
            out.push_str(", ");
        }
        let mut raw = [0u8; 8];
        raw[..c.len().min(8)].copy_from_slice(&c[..c.len().min(8)]);
        let u = u64::from_le_bytes(raw);
        let _ = match (code, bits) {
            // int
            (0, b) if b < 64 => {
                let shift = 64 - b as u32;
                write!(out, "{}", ((u << shift) as i64) >> shift)
            }
            (0, _) => write!(out, "{}", u as i64),
            (2, 32) => write!(out, "{}", f32::from_bits(u as u32)),
            (2, 64) => write!(out, "{}", f64::from_bits(u)),
            // uint, handles, float16/bfloat16 as their bits
            _ => write!(out, "{u}"),
        };
    }
    if several {
        out.push('>');
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
        fn visit_stmt(&mut self, s: &Stmt) {
            if !self.found {
                self.super_stmt(s);
            }
        }
        // Each expression as a DAG, each shared node once.
        fn visit_expr(&mut self, e: &Expr) {
            self.found = self.found
                || loopir::dag::any_node(e, |n| {
                    matches!(n.kind(), ExprKind::Call { name: callee, args, .. }
                        if &**callee == "halide_trace_helper"
                            && matches!(args.get(6).map(Expr::kind), Some(ExprKind::IntImm(c)) if *c == self.code)
                            && matches!(args.get(7).map(Expr::kind), Some(ExprKind::Variable(v)) if &**v == self.name))
                });
        }
    }
    let mut m = Ends { name, code: if is_producer { 5 } else { 7 }, found: false };
    m.visit_stmt(s);
    m.found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(code: i32, func: &str, parent: i32) -> TraceEvent {
        TraceEvent {
            func: func.to_owned(),
            event: code,
            parent_id: parent,
            thread_id: 0,
            value_index: 0,
            coordinates: Vec::new(),
            ty: 0,
            value: Vec::new(),
            tag: String::new(),
        }
    }

    /// Records `(code, func, parent)` events on the main thread.
    fn log_of(events: &[(i32, &str, i32)]) -> TraceLog {
        let mut log = TraceLog::new();
        for &(code, func, parent) in events {
            log.record(&ev(code, func, parent), 0, None).expect("a small log");
        }
        log
    }

    /// The log keeps events in shared arrays: each comes back as it was recorded, and
    /// its line is the same whether the log is rendered or written.
    #[test]
    fn events_come_back_as_recorded() {
        let mut log = TraceLog::new();
        let store = TraceEvent {
            coordinates: vec![3, -4],
            value_index: 1,
            ty: 2 | (32 << 8) | (2 << 16),
            value: [1.5f32.to_le_bytes(), (-2.0f32).to_le_bytes()].concat(),
            thread_id: 7,
            ..ev(1, "f", 2)
        };
        let tag = TraceEvent { tag: "func_type_and_dim: 1 0".into(), ..ev(10, "g", 0) };
        let events = [ev(8, "p", 0), ev(4, "f", 1), store, tag, ev(1, "f", 2)];
        for (k, e) in events.iter().enumerate() {
            assert_eq!(log.record(e, k as i32 % 2, Some(0)).expect("a small log"), k as i32 + 1);
        }
        let back: Vec<LoggedEvent> = log.events().collect();
        let expected: Vec<LoggedEvent> = events
            .iter()
            .enumerate()
            .map(|(k, e)| LoggedEvent { id: k as i32 + 1, thread: k as i32 % 2, event: e.clone() })
            .collect();
        assert_eq!(back, expected);
        let text = log.render();
        assert_eq!(
            text,
            "     1      0 begin_pipeline p\n     2      1 produce f\n     3      2 store f.1(3, -4) = <1.5, -2>\n     \
             4      0 tag g \"func_type_and_dim: 1 0\"\n     5      2 store f()\n"
        );
        let mut written = Vec::new();
        log.write_to(&mut written).expect("writing to memory");
        assert_eq!(String::from_utf8(written).expect("UTF-8"), text);
    }

    /// Harris from sliding window on: `let f.trace_id = <consume f>` sits outside the
    /// `consume f` node, its end event inside the warm-up guard, so the first iteration
    /// makes a consume event and no end; the next iteration's produce is parented by the
    /// realization, its innermost enclosing event.
    #[test]
    fn a_consume_left_without_its_end_is_reported_apart_from_parents() {
        let log = log_of(&[
            (8, "p", 0), // 1 begin_pipeline
            (2, "f", 1), // 2 begin_realization f
            (4, "f", 2), // 3 produce f (warm-up iteration)
            (5, "f", 3), // 4 end_produce
            (6, "f", 2), // 5 consume f, its end skipped
            (4, "f", 2), // 6 produce f (next iteration)
            (1, "f", 6), // 7 store
            (5, "f", 6), // 8 end_produce
            (6, "f", 2), // 9 consume f
            (7, "f", 9), // 10 end_consume
            (3, "f", 2), // 11 end_realization
            (9, "p", 1), // 12 end_pipeline
        ]);
        let check = log.check();
        assert_eq!(check.violations, vec![]);
        assert_eq!(
            check.unended,
            vec![UnendedEvent { id: 5, what: "consume f".into(), thread: 0, passed_by: Some(6) }]
        );
    }

    /// Halide 21's parentage: a realization inside `produce out` parented by the
    /// pipeline. The produce event ends later, so it was open: a wrong parent, not an
    /// event left without its end.
    #[test]
    fn passing_an_event_that_ends_later_is_a_wrong_parent() {
        let log = log_of(&[
            (8, "out", 0), // 1
            (2, "out", 1), // 2
            (4, "out", 2), // 3 produce out
            (2, "g", 1),   // 4 begin_realization g: parent should be 3
            (3, "g", 4),   // 5
            (5, "out", 3), // 6 end_produce out
            (3, "out", 2), // 7
            (9, "out", 1), // 8
        ]);
        let check = log.check();
        assert_eq!(check.unended, vec![]);
        assert_eq!(
            check.violations,
            vec![ParentViolation {
                id: 4,
                what: "begin_realization g".into(),
                parent: 1,
                expected: 3,
                expected_what: "produce out".into(),
            }]
        );
    }

    /// Once an unended event has been passed, it is closed: an event naming it as its
    /// parent afterwards is misparented.
    #[test]
    fn a_passed_event_parents_nothing_after() {
        let log = log_of(&[
            (8, "p", 0), // 1
            (6, "f", 1), // 2 consume f, never ended
            (4, "g", 1), // 3 produce g: passes 2
            (1, "g", 2), // 4 store parented by the passed consume
            (5, "g", 3), // 5
            (9, "p", 1), // 6
        ]);
        let check = log.check();
        assert_eq!(check.violations.iter().map(|v| (v.id, v.expected)).collect::<Vec<_>>(), vec![(4, 3)]);
        assert_eq!(check.unended.len(), 1);
    }

    /// A task's innermost enclosing event at its start is its spawner's (a nested fork's
    /// tasks start inside the outer consumer task's `produce out`, not the main task's
    /// events).
    #[test]
    fn a_task_starts_from_the_events_open_in_the_task_that_started_it() {
        let mut log = TraceLog::new();
        let on = |log: &mut TraceLog, code, func: &str, parent, thread, spawner| {
            log.record(&ev(code, func, parent), thread, spawner).expect("a small log")
        };
        on(&mut log, 8, "out", 0, 0, None); // 1
        on(&mut log, 2, "out", 1, 0, None); // 2
        // Outer fork: task 1 produces f (its copy of f's realization is never ended),
        // task 2 consumes it and produces out.
        on(&mut log, 2, "f", 2, 1, Some(0)); // 3
        on(&mut log, 4, "f", 3, 1, Some(0)); // 4
        on(&mut log, 5, "f", 4, 1, Some(0)); // 5
        on(&mut log, 2, "f", 2, 2, Some(0)); // 6
        on(&mut log, 4, "out", 6, 2, Some(0)); // 7 produce out
        // Inner fork started by task 2: its tasks' events are parented by produce out.
        on(&mut log, 2, "g", 7, 3, Some(2)); // 8
        on(&mut log, 3, "g", 8, 3, Some(2)); // 9
        on(&mut log, 1, "out", 7, 4, Some(2)); // 10
        on(&mut log, 5, "out", 7, 2, Some(0)); // 11
        on(&mut log, 3, "f", 6, 2, Some(0)); // 12
        on(&mut log, 3, "out", 2, 0, None); // 13
        on(&mut log, 9, "out", 1, 0, None); // 14
        let check = log.check();
        assert_eq!(check.violations, vec![]);
        assert_eq!(
            check.unended,
            vec![UnendedEvent { id: 3, what: "begin_realization f".into(), thread: 1, passed_by: None }]
        );
    }
}
