//! Sub-pass 1: one read-only walk over the input that
//!
//! * enumerates the entry table (§7 of the spec): a row for every producer, for every
//!   allocation of a profiled Func, and for every host↔device copy site, in walk order;
//! * surveys names: which of the pass's own fresh-name candidates the input already uses,
//!   and whether the input has any shadowed or free-and-bound variable names (only then
//!   can the final uniquification change anything);
//! * finds the statements whose own expressions hold the instance-enable marker, so that
//!   injection rewrites those expressions and no others.
//!
//! Doing all three in one walk keeps the expression trees, which are the bulk of real
//! pipelines, to a single traversal.

use loopir::{Expr, ExprKind, Stmt, StmtKind, equality::with_stack};
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
    pub marker_stmts: FxHashSet<*const StmtKind>,
}

/// A pending step of the expression walk.
enum ExprWork<'a> {
    Visit(&'a Expr),
    Bind(&'a str),
    Unbind(&'a str),
}

struct Scanner<'a, 'e> {
    table: &'e mut EntryTable,
    env: &'e FuncEnv,
    options: &'e ProfileOptions,
    /// The row of the innermost enclosing producer.
    producer: Option<usize>,
    /// Rows minted by produce nodes (drives the allocation-kind fix-up).
    produce_minted: Vec<bool>,
    /// Binder name → how many binders of it enclose the current point.
    bound: FxHashMap<&'a str, u32>,
    /// Names used as variables where no binder of them encloses the use.
    free: FxHashSet<&'a str>,
    /// Every binder name.
    binders: FxHashSet<&'a str>,
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
        bound: FxHashMap::default(),
        free: FxHashSet::default(),
        binders: FxHashSet::default(),
        shadowing: false,
        facts: ScanFacts::default(),
        current_stmt: std::ptr::null(),
        work: Vec::new(),
    };
    s.stmt(stmt)?;
    let conflict = s.shadowing || s.binders.iter().any(|b| s.free.contains(b));
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

    fn bind(&mut self, name: &'a str) {
        self.note_name(name);
        self.binders.insert(name);
        let n = self.bound.entry(name).or_insert(0);
        if *n > 0 {
            self.shadowing = true;
        }
        *n += 1;
    }

    fn unbind(&mut self, name: &str) {
        if let Some(n) = self.bound.get_mut(name) {
            *n -= 1;
        }
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
                    names.push(name.as_ref());
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
                ExprKind::Variable(name) => {
                    let name: &'a str = name;
                    if self.bound.get(name).is_none_or(|&n| n == 0) {
                        self.free.insert(name);
                        self.note_name(name);
                    }
                }
                ExprKind::Cast(a) | ExprKind::Reinterpret(a) | ExprKind::Not(a) => {
                    work.push(ExprWork::Visit(a))
                }
                ExprKind::Binary(_, a, b) => {
                    work.push(ExprWork::Visit(b));
                    work.push(ExprWork::Visit(a));
                }
                ExprKind::Select(c, t, f) => {
                    work.push(ExprWork::Visit(f));
                    work.push(ExprWork::Visit(t));
                    work.push(ExprWork::Visit(c));
                }
                ExprKind::Load { name, index, predicate, .. } => {
                    self.note_name(name);
                    work.push(ExprWork::Visit(index));
                    work.push(ExprWork::Visit(predicate));
                }
                ExprKind::Ramp { base, stride, .. } => {
                    work.push(ExprWork::Visit(stride));
                    work.push(ExprWork::Visit(base));
                }
                ExprKind::Broadcast { value, .. } | ExprKind::VectorReduce { value, .. } => {
                    work.push(ExprWork::Visit(value))
                }
                ExprKind::Call { name, args, .. } => {
                    self.call(name, args);
                    work.extend(args.iter().rev().map(ExprWork::Visit));
                }
                ExprKind::Let { name, value, body } => {
                    work.push(ExprWork::Unbind(name));
                    work.push(ExprWork::Visit(body));
                    work.push(ExprWork::Bind(name));
                    work.push(ExprWork::Visit(value));
                }
                ExprKind::Shuffle { vectors, .. } => work.extend(vectors.iter().rev().map(ExprWork::Visit)),
            }
        }
        self.work = work;
    }

    fn call(&mut self, name: &str, args: &[Expr]) {
        if name == ENABLE_MARKER {
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
