//! Sub-pass 1: one read-only walk over the input that
//!
//! * enumerates the entry table (`docs/reference/profiling.md` §7): a row for every producer, for every
//!   allocation of a profiled Func, and for every host↔device copy site, in walk order;
//! * surveys names: which of the pass's own fresh-name candidates the input already uses,
//!   and whether the input has any shadowed or free-and-bound variable names (only then
//!   can the final uniquification change anything);
//! * finds the statements whose own expressions hold the instance-enable marker, so that
//!   injection rewrites those expressions and no others.
//!
//! Doing all three in one walk keeps the expression trees, which are the bulk of real
//! pipelines, to a single traversal.

use loopir::address_map::{AddressMap, AddressSet};
use loopir::{Expr, ExprKind, Name, Stmt, StmtKind, stack::with_stack};
use rustc_hash::{FxHashMap, FxHashSet};

use super::entry_table::{EntryKind, EntryTable};
use super::env::FuncEnv;
use super::error::ProfilingError;
use super::names::{ENABLE_MARKER, is_reserved_candidate};
use super::options::{Feature, ProfileOptions};

/// What the walk learned besides the entry table.
#[derive(Default)]
pub(crate) struct ScanFacts {
    /// Names in the input that a fresh name of the pass could collide with.
    pub reserved_in_use: FxHashSet<String>,
    /// Whether uniquification could rename anything in the input (a binder shadows an
    /// enclosing binder of the same name, or a bound name also occurs free).
    pub input_needs_uniquify: bool,
    /// Statements (by address) one of whose own expressions holds the enable marker.
    pub marker_stmts: AddressSet<*const StmtKind>,
}

/// A pending step of the expression walk.
enum ExprWork<'a> {
    Visit(&'a Expr),
    Bind(&'a Name),
    Unbind(&'a Name),
}

/// Dense ids for the names of the input, so that the survey's per-occurrence work is an
/// index rather than a string hash. Parsed IR shares one allocation per distinct name,
/// so the id is found by the name's address first and by its text only on a first sight
/// of that address (names built elsewhere may repeat a text under another address).
#[derive(Default)]
struct NameIds<'a> {
    by_address: AddressMap<*const u8, u32>,
    by_text: FxHashMap<&'a str, u32>,
    /// Per id: how many binders of the name enclose the current point.
    bound: Vec<u32>,
    /// Per id: whether the name occurs as a variable with no enclosing binder.
    free: Vec<bool>,
    /// Per id: whether the name is bound anywhere.
    binder: Vec<bool>,
}

impl<'a> NameIds<'a> {
    /// The id of `name`, and whether this is the first time the text is seen.
    fn id(&mut self, name: &'a Name) -> (usize, bool) {
        let address = name.as_ptr();
        if let Some(&id) = self.by_address.get(&address) {
            return (id as usize, false);
        }
        let text: &'a str = name;
        let next = self.bound.len() as u32;
        let id = *self.by_text.entry(text).or_insert(next);
        self.by_address.insert(address, id);
        let first = id == next;
        if first {
            self.bound.push(0);
            self.free.push(false);
            self.binder.push(false);
        }
        (id as usize, first)
    }
}

struct Scanner<'a, 'e> {
    table: &'e mut EntryTable,
    env: &'e FuncEnv,
    options: &'e ProfileOptions,
    /// The row of the innermost enclosing producer.
    producer: Option<usize>,
    /// Rows minted by produce nodes (drives the allocation-kind fix-up).
    produce_minted: Vec<bool>,
    /// Binding depth, free use and binder status of every name met.
    names: NameIds<'a>,
    shadowing: bool,
    facts: ScanFacts,
    /// The statement whose expressions are being walked.
    current_stmt: *const StmtKind,
    /// The expression walk's work list, kept to reuse its allocation.
    work: Vec<ExprWork<'a>>,
}

/// Walks `stmt`, filling `table` with the enumeration rows, and returns the survey.
pub(crate) fn scan(
    stmt: &Stmt,
    table: &mut EntryTable,
    env: &FuncEnv,
    options: &ProfileOptions,
) -> Result<ScanFacts, ProfilingError> {
    let mut s = Scanner {
        table,
        env,
        options,
        producer: None,
        produce_minted: Vec::new(),
        names: NameIds::default(),
        shadowing: false,
        facts: ScanFacts::default(),
        current_stmt: std::ptr::null(),
        work: Vec::new(),
    };
    s.stmt(stmt)?;
    let ids = &s.names;
    let conflict = s.shadowing || ids.binder.iter().zip(&ids.free).any(|(&bound, &free)| bound && free);
    let mut facts = s.facts;
    facts.input_needs_uniquify = conflict;
    Ok(facts)
}

impl<'a> Scanner<'a, '_> {
    fn note_name(&mut self, name: &str) {
        if is_reserved_candidate(name) {
            self.facts.reserved_in_use.insert(name.to_owned());
        }
    }

    /// The id of a name of the input; a name's text is checked against the pass's own
    /// fresh-name candidates once, on its first sight.
    fn name_id(&mut self, name: &'a Name) -> usize {
        let (id, first) = self.names.id(name);
        if first {
            self.note_name(name);
        }
        id
    }

    fn bind(&mut self, name: &'a Name) {
        let id = self.name_id(name);
        self.names.binder[id] = true;
        if self.names.bound[id] > 0 {
            self.shadowing = true;
        }
        self.names.bound[id] += 1;
    }

    fn unbind(&mut self, name: &'a Name) {
        let id = self.name_id(name);
        self.names.bound[id] = self.names.bound[id].saturating_sub(1);
    }

    fn is_profiled_func(&self, name: &str) -> bool {
        let info = self.env.get(name).or_else(|| {
            let prefix = name.split_once('.').map_or(name, |(p, _)| p);
            self.env.get(prefix)
        });
        info.is_some_and(|f| f.profile)
    }

    fn mark_produce_minted(&mut self, id: usize) {
        if self.produce_minted.len() <= id {
            self.produce_minted.resize(id + 1, false);
        }
        self.produce_minted[id] = true;
    }

    fn stmt(&mut self, s: &'a Stmt) -> Result<(), ProfilingError> {
        with_stack(|| self.stmt_inner(s))
    }

    fn exprs_of(&mut self, s: &'a Stmt, es: &[&'a Expr]) {
        self.current_stmt = s.as_ptr();
        for e in es {
            self.expr(e);
        }
    }

    fn stmt_inner(&mut self, s: &'a Stmt) -> Result<(), ProfilingError> {
        match s.kind() {
            StmtKind::LetStmt { .. } => {
                // Walk the chain in a loop: real pipelines have long runs of lets.
                let mut cur = s;
                let mut names = Vec::new();
                while let StmtKind::LetStmt { name, value, body } = cur.kind() {
                    self.exprs_of(cur, &[value]);
                    self.bind(name);
                    names.push(name);
                    cur = body;
                }
                self.stmt(cur)?;
                for n in names {
                    self.unbind(n);
                }
            }
            StmtKind::AssertStmt { condition, message } => self.exprs_of(s, &[condition, message]),
            StmtKind::ProducerConsumer { name, is_producer, body } => {
                if *is_producer {
                    let id = self.table.mint_or_get(name, self.producer, EntryKind::Func, None, self.env);
                    self.mark_produce_minted(id);
                    let saved = self.producer.replace(id);
                    self.stmt(body)?;
                    self.producer = saved;
                } else {
                    self.stmt(body)?;
                }
            }
            StmtKind::For { name, min, max, body, .. } => {
                self.exprs_of(s, &[min, max]);
                self.bind(name);
                self.stmt(body)?;
                self.unbind(name);
            }
            StmtKind::Store { name, value, index, predicate, .. } => {
                self.note_name(name);
                self.exprs_of(s, &[predicate, value, index]);
            }
            StmtKind::Provide { values, args, predicate, .. } => {
                self.current_stmt = s.as_ptr();
                for e in values.iter().chain(args.iter()) {
                    self.expr(e);
                }
                self.expr(predicate);
            }
            StmtKind::Allocate { name, extents, condition, new_expr, body, .. } => {
                self.note_name(name);
                let id = if self.is_profiled_func(name) {
                    Some(self.table.mint_or_get(name, self.producer, EntryKind::Func, None, self.env))
                } else {
                    None
                };
                self.current_stmt = s.as_ptr();
                for e in extents {
                    self.expr(e);
                }
                self.stmt(body)?;
                self.current_stmt = s.as_ptr();
                self.expr(condition);
                if let Some(e) = new_expr {
                    self.expr(e);
                }
                // An allocation no produce node claimed at this level is a hoisted storage
                // site: its row becomes an allocation row (whatever kind it had).
                if let Some(id) = id
                    && !self.produce_minted.get(id).copied().unwrap_or(false)
                {
                    self.table.set_kind(id, EntryKind::Allocation);
                }
            }
            StmtKind::Free { name } => self.note_name(name),
            StmtKind::Realize { bounds, condition, body, .. }
            | StmtKind::Prefetch { bounds, condition, body, .. } => {
                self.current_stmt = s.as_ptr();
                for r in bounds {
                    self.expr(&r.min);
                    self.expr(&r.extent);
                }
                self.expr(condition);
                if let StmtKind::Prefetch { prefetch, .. } = s.kind() {
                    self.expr(&prefetch.offset);
                }
                self.stmt(body)?;
            }
            StmtKind::Block(stmts) => {
                for st in stmts {
                    self.stmt(st)?;
                }
            }
            StmtKind::Fork { first, rest } => {
                self.stmt(first)?;
                self.stmt(rest)?;
            }
            StmtKind::Acquire { semaphore, count, body } => {
                self.exprs_of(s, &[semaphore, count]);
                self.stmt(body)?;
            }
            StmtKind::IfThenElse { condition, then_case, else_case } => {
                self.exprs_of(s, &[condition]);
                self.stmt(then_case)?;
                if let Some(e) = else_case {
                    self.stmt(e)?;
                }
            }
            StmtKind::Evaluate(e) => self.exprs_of(s, &[e]),
            StmtKind::Atomic { body, .. } | StmtKind::HoistedStorage { body, .. } => self.stmt(body)?,
        }
        Ok(())
    }

    fn variable(&mut self, name: &'a Name) {
        let id = self.name_id(name);
        if self.names.bound[id] == 0 {
            self.names.free[id] = true;
        }
    }

    /// Queues a child for the walk, handling leaves at once: most children are constants
    /// and variables, and skipping the work list for them halves its traffic. A leaf's
    /// result does not depend on when it is handled, as long as no binder of its own
    /// expression is pending (the body of a let is always queued).
    #[inline]
    fn child(&mut self, work: &mut Vec<ExprWork<'a>>, e: &'a Expr) {
        match e.kind() {
            ExprKind::IntImm(_) | ExprKind::UIntImm(_) | ExprKind::FloatImm(_) | ExprKind::StringImm(_) => {}
            ExprKind::Variable(name) => self.variable(name),
            _ => work.push(ExprWork::Visit(e)),
        }
    }

    /// Walks an expression tree with an explicit work list (expression trees of real
    /// pipelines are large and may be deep), pre-order, children left to right.
    fn expr(&mut self, root: &'a Expr) {
        let mut work = std::mem::take(&mut self.work);
        work.push(ExprWork::Visit(root));
        while let Some(item) = work.pop() {
            let e = match item {
                ExprWork::Visit(e) => e,
                ExprWork::Bind(name) => {
                    self.bind(name);
                    continue;
                }
                ExprWork::Unbind(name) => {
                    self.unbind(name);
                    continue;
                }
            };
            match e.kind() {
                ExprKind::IntImm(_)
                | ExprKind::UIntImm(_)
                | ExprKind::FloatImm(_)
                | ExprKind::StringImm(_) => {}
                ExprKind::Variable(name) => self.variable(name),
                ExprKind::Cast(a) | ExprKind::Reinterpret(a) | ExprKind::Not(a) => self.child(&mut work, a),
                ExprKind::Binary(_, a, b) => {
                    self.child(&mut work, b);
                    self.child(&mut work, a);
                }
                ExprKind::Select(c, t, f) => {
                    self.child(&mut work, f);
                    self.child(&mut work, t);
                    self.child(&mut work, c);
                }
                ExprKind::Load { name, index, predicate, .. } => {
                    self.name_id(name);
                    self.child(&mut work, index);
                    self.child(&mut work, predicate);
                }
                ExprKind::Ramp { base, stride, .. } => {
                    self.child(&mut work, stride);
                    self.child(&mut work, base);
                }
                ExprKind::Broadcast { value, .. } | ExprKind::VectorReduce { value, .. } => {
                    self.child(&mut work, value)
                }
                ExprKind::Call { name, args, .. } => {
                    self.call(name, args);
                    args.iter().rev().for_each(|a| self.child(&mut work, a));
                }
                ExprKind::Let { name, value, body } => {
                    work.push(ExprWork::Unbind(name));
                    work.push(ExprWork::Visit(body));
                    work.push(ExprWork::Bind(name));
                    self.child(&mut work, value);
                }
                ExprKind::Shuffle { vectors, .. } => {
                    vectors.iter().rev().for_each(|v| self.child(&mut work, v))
                }
            }
        }
        self.work = work;
    }

    fn call(&mut self, name: &str, args: &[Expr]) {
        if name == ENABLE_MARKER.name() {
            self.facts.marker_stmts.insert(self.current_stmt);
            return;
        }
        let kind = match name {
            "halide_copy_to_host" => EntryKind::CopyToHost,
            "halide_copy_to_device" => EntryKind::CopyToDevice,
            _ => return,
        };
        if !self.options.contains(Feature::CopySites) {
            return;
        }
        // Calls of another shape are left for injection to report (if they are bound by a
        // let) or to ignore (anywhere else), as the reference does.
        let Some(buffer) = args.first().and_then(|a| a.as_variable()).and_then(|v| v.strip_suffix(".buffer"))
        else {
            return;
        };
        let buffer_func_id = self.table.canonical_of(buffer);
        let row_name = copy_row_name(buffer, kind);
        self.table.mint_or_get(&row_name, self.producer, kind, buffer_func_id, self.env);
    }
}

/// The IR name of the row for copies of `buffer` (`f (copy to host)`).
pub(crate) fn copy_row_name(buffer: &str, kind: EntryKind) -> String {
    let tag = if kind == EntryKind::CopyToDevice { " (copy to device)" } else { " (copy to host)" };
    let mut s = String::with_capacity(buffer.len() + tag.len());
    s.push_str(buffer);
    s.push_str(tag);
    s
}
