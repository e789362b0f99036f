//! Final renaming of shadowed variables (the reference's `uniquify_variable_names`).
//!
//! A `let`, `LetStmt` or loop whose name is already bound at that point, or is used free
//! anywhere in the statement, is renamed `name_i` for the first free `i` from
//! `max(1, active bindings of name)`; generated names stay reserved for the rest of the
//! walk. Buffer names are never touched.

use loopir::{Binder, Expr, ExprKind, Mutator, Name, Stmt, StmtKind, Visitor};
use rustc_hash::{FxHashMap, FxHashSet};

/// Renames binders so that no name is bound twice in one scope or both bound and free.
pub(crate) fn uniquify_variable_names(s: &Stmt) -> Stmt {
    let mut finder = FreeVars::default();
    finder.visit_stmt(s);
    let mut u = Uniquifier { free: finder.free, renaming: FxHashMap::default() };
    u.mutate_stmt(s)
}

#[derive(Default)]
struct FreeVars {
    bound: FxHashMap<Name, u32>,
    free: FxHashSet<Name>,
}

impl FreeVars {
    fn push(&mut self, n: &Name) {
        *self.bound.entry(n.clone()).or_insert(0) += 1;
    }
    fn pop(&mut self, n: &Name) {
        if let Some(c) = self.bound.get_mut(n) {
            *c -= 1;
        }
    }
}

impl Visitor for FreeVars {
    fn visit_expr(&mut self, e: &Expr) {
        if let ExprKind::Variable(n) = e.kind()
            && self.bound.get(n).is_none_or(|&c| c == 0)
        {
            self.free.insert(n.clone());
        }
        self.super_expr(e)
    }
    fn enter_scope(&mut self, binder: &Binder<'_>) {
        if let Binder::Let { name, .. } | Binder::LetStmt { name, .. } | Binder::For { name, .. } = binder {
            self.push(name);
        }
    }
    fn leave_scope(&mut self, binder: &Binder<'_>) {
        if let Binder::Let { name, .. } | Binder::LetStmt { name, .. } | Binder::For { name, .. } = binder {
            self.pop(name);
        }
    }
}

struct Uniquifier {
    free: FxHashSet<Name>,
    /// Name → the names its bindings (innermost last) were given; generated names map to
    /// themselves and are never popped.
    renaming: FxHashMap<Name, Vec<Name>>,
}

impl Uniquifier {
    fn contains(&self, n: &str) -> bool {
        self.renaming.get(n).is_some_and(|v| !v.is_empty()) || self.free.contains(n)
    }

    fn push(&mut self, base: &Name, to: Name) {
        self.renaming.entry(base.clone()).or_default().push(to);
    }

    fn new_name(&mut self, base: &Name) -> Name {
        if !self.contains(base) {
            self.push(base, base.clone());
            return base.clone();
        }
        let active = self.renaming.get(base).map_or(0, Vec::len);
        let mut i = active.max(1);
        loop {
            let candidate: Name = Name::from(format!("{base}_{i}"));
            if !self.contains(&candidate) {
                self.push(base, candidate.clone());
                self.push(&candidate, candidate.clone());
                return candidate;
            }
            i += 1;
        }
    }

    fn pop(&mut self, base: &Name) {
        if let Some(v) = self.renaming.get_mut(base) {
            v.pop();
        }
    }
}

impl Mutator for Uniquifier {
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        match e.kind() {
            ExprKind::Variable(n) => match self.renaming.get(n).and_then(|v| v.last()) {
                Some(new) if new != n => Expr::var(e.ty(), new.clone()),
                _ => e.clone(),
            },
            ExprKind::Let { .. } => {
                let mut frames = Vec::new();
                let mut cur = e;
                while let ExprKind::Let { name, value, body } = cur.kind() {
                    let v = self.mutate_expr(value);
                    let new = self.new_name(name);
                    frames.push((cur, v, new));
                    cur = body;
                }
                let mut result = self.mutate_expr(cur);
                for (frame, value, new) in frames.into_iter().rev() {
                    let ExprKind::Let { name, value: old_value, body } = frame.kind() else { continue };
                    self.pop(name);
                    result = if &new == name && result.same_as(body) && value.same_as(old_value) {
                        frame.clone()
                    } else {
                        Expr::let_in(new, value, result)
                    };
                }
                result
            }
            _ => self.super_expr(e),
        }
    }

    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        match s.kind() {
            StmtKind::LetStmt { .. } => {
                let mut frames = Vec::new();
                let mut cur = s;
                while let StmtKind::LetStmt { name, value, body } = cur.kind() {
                    let v = self.mutate_expr(value);
                    let new = self.new_name(name);
                    frames.push((cur, v, new));
                    cur = body;
                }
                let mut result = self.mutate_stmt(cur);
                for (frame, value, new) in frames.into_iter().rev() {
                    let StmtKind::LetStmt { name, value: old_value, body } = frame.kind() else { continue };
                    self.pop(name);
                    result = if &new == name && result.same_as(body) && value.same_as(old_value) {
                        frame.clone()
                    } else {
                        Stmt::let_stmt(new, value, result)
                    };
                }
                result
            }
            StmtKind::For { name, min, max, for_type, device_api, partition_policy, body } => {
                let (mn, mx) = (self.mutate_expr(min), self.mutate_expr(max));
                let new = self.new_name(name);
                let b = self.mutate_stmt(body);
                self.pop(name);
                if &new == name && b.same_as(body) && mn.same_as(min) && mx.same_as(max) {
                    s.clone()
                } else {
                    Stmt::from_kind_unchecked(StmtKind::For {
                        name: new,
                        min: mn,
                        max: mx,
                        for_type: *for_type,
                        device_api: *device_api,
                        partition_policy: *partition_policy,
                        body: b,
                    })
                }
            }
            _ => self.super_stmt(s),
        }
    }
}
