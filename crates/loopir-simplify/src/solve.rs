//! A solver that moves every occurrence of one variable as far left and as far outward
//! as it can (Halide's `solve_expression`, `docs/reference/bounds.md` §1.7): `(x + (a - b)) >= a` solved for
//! `x` becomes `x >= (a - (a - b))`. The result is not simplified; `fully_solved` says
//! whether every rewrite that was needed succeeded. Lets are substituted as they are
//! met. Used by `boxes_touched` (Halide-compatible mode) to restrict the variables of a
//! condition.
//!
//! Divergences (all conservative, no wrong restriction results): a division whose
//! numerator uses the variable is only distributed when the divisor is a constant that
//! divides the constant parts exactly, and `f(x)/a ± g(x)` is only combined when `a`
//! is a nonzero constant; otherwise the division is kept (first case) or the solve
//! fails (second case).

use crate::overflow;
use loopir::constant;
use loopir::equality;
use loopir::make;
use rustc_hash::FxHashMap;

use loopir::mutate::Mutator;
use loopir::stack::with_stack;
use loopir::{BinOp, Binder, Expr, ExprKind, Intrinsic, Name, Stmt, StmtKind};

use crate::Ctx;
use crate::cse::cse;
use crate::simplify::Simplifier;

/// A solved expression and whether the solve succeeded.
#[derive(Clone, Debug)]
pub struct Solved {
    /// The rewritten expression (the input itself when nothing applied).
    pub expr: Expr,
    /// False when some subexpression could not be rearranged (Halide's `failed`).
    pub fully_solved: bool,
}

/// Solves `e` for the variable `var` (see the module documentation). As Halide does,
/// the result goes through common-subexpression elimination (which draws fresh `t`
/// names for repeated subexpressions).
pub fn solve_expression(ctx: &Ctx, e: &Expr, var: &Name) -> Solved {
    let mut simp = Simplifier::without_bounds(ctx);
    let mut s = Solver { var, simp: &mut simp, lets: FxHashMap::default(), uses_var: false, failed: false };
    let expr = s.mutate(e);
    let failed = s.failed;
    Solved { expr: cse(ctx, &expr), fully_solved: !failed }
}

/// Halide's `SolveIfThenElse`, run before the boxes of a statement are collected: every
/// `if` condition is solved for its innermost variable (the most deeply bound LetStmt
/// or loop variable it mentions) and replaced by the result, solved or not (tags such
/// as `likely` do not survive the solve).
pub fn solve_if_then_else(ctx: &Ctx, s: &Stmt) -> Stmt {
    let mut m = InnermostSolver { ctx, depth: FxHashMap::default(), next: 0 };
    m.mutate_stmt(s)
}

struct InnermostSolver<'c> {
    ctx: &'c Ctx,
    /// Depths of the bound names (innermost binding last).
    depth: FxHashMap<Name, Vec<u64>>,
    next: u64,
}

impl InnermostSolver<'_> {
    fn push(&mut self, n: &Name) {
        self.depth.entry(n.clone()).or_default().push(self.next);
        self.next += 1;
    }

    fn pop(&mut self, n: &Name) {
        self.next = self.next.saturating_sub(1);
        if let Some(v) = self.depth.get_mut(n) {
            v.pop();
        }
    }

    /// The bound variable of `e` with the greatest depth (the first one met on ties).
    fn innermost(&self, e: &Expr) -> Option<Name> {
        let mut best: Option<(u64, Name)> = None;
        let mut stack = vec![e.clone()];
        let mut order = Vec::new();
        // Pre-order, left to right (Halide's visiting order).
        while let Some(x) = stack.pop() {
            if let Some(n) = x.as_variable() {
                order.push(n.clone());
                continue;
            }
            for c in x.children().into_iter().rev() {
                stack.push(c.clone());
            }
        }
        for n in order {
            if let Some(&d) = self.depth.get(&n).and_then(|v| v.last())
                && best.as_ref().is_none_or(|(bd, _)| d > *bd)
            {
                best = Some((d, n));
            }
        }
        best.map(|(_, n)| n)
    }
}

impl Mutator for InnermostSolver<'_> {
    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        let r = self.super_stmt(s);
        let StmtKind::IfThenElse { condition, then_case, else_case } = r.kind() else { return r };
        let Some(v) = self.innermost(condition) else { return r };
        let solved = solve_expression(self.ctx, condition, &v).expr;
        if solved.same_as(condition) {
            return r;
        }
        Stmt::from_kind_unchecked(StmtKind::IfThenElse {
            condition: solved,
            then_case: then_case.clone(),
            else_case: else_case.clone(),
        })
    }

    fn enter_scope(&mut self, binder: &Binder<'_>) {
        if let Binder::For { name, .. } | Binder::LetStmt { name, .. } = binder {
            self.push(name);
        }
    }

    fn leave_scope(&mut self, binder: &Binder<'_>) {
        if let Binder::For { name, .. } | Binder::LetStmt { name, .. } = binder {
            self.pop(name);
        }
    }

    /// Only statements' conditions are solved, and expressions hold no statements: walking
    /// them would change nothing and, on a DAG (the tracing pass shares each traced load's
    /// arguments with its event), take time exponential in its depth.
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        e.clone()
    }
}

#[derive(Clone)]
struct Entry {
    expr: Expr,
    uses_var: bool,
    failed: bool,
}

struct Solver<'v, 's, 'c, 'b, 'p> {
    var: &'v Name,
    simp: &'s mut Simplifier<'c, 'b, 'p>,
    /// Internal lets, already solved (innermost last).
    lets: FxHashMap<Name, Vec<Entry>>,
    uses_var: bool,
    failed: bool,
}

fn as_bin(e: &Expr, op: BinOp) -> Option<(&Expr, &Expr)> {
    match e.kind() {
        ExprKind::Binary(o, a, b) if *o == op => Some((a, b)),
        _ => None,
    }
}

fn int(ty: loopir::Type, v: i128) -> Expr {
    constant::make_const(ty, v)
}

/// The comparison with its operands swapped and its sense kept (`a < b` is `b > a`).
fn opposite(op: BinOp) -> BinOp {
    match op {
        BinOp::Lt => BinOp::Gt,
        BinOp::Le => BinOp::Ge,
        BinOp::Gt => BinOp::Lt,
        BinOp::Ge => BinOp::Le,
        other => other,
    }
}

fn is_cmp(op: BinOp) -> bool {
    matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne)
}

impl Solver<'_, '_, '_, '_, '_> {
    /// Mutates `e` under a fresh use/fail state, folds that state into the current one,
    /// and returns it.
    fn sub(&mut self, e: &Expr) -> Entry {
        let saved = (self.uses_var, self.failed);
        self.uses_var = false;
        self.failed = false;
        let expr = self.mutate(e);
        let entry = Entry { expr, uses_var: self.uses_var, failed: self.failed };
        self.uses_var = saved.0 || entry.uses_var;
        self.failed = saved.1 || entry.failed;
        entry
    }

    fn fail(&mut self, e: Expr) -> Expr {
        self.failed = true;
        e
    }

    fn fold(&mut self, e: Expr) -> Expr {
        self.simp.simplify(&e)
    }

    /// `-e`, with a constant factor negated in place.
    fn negate(&mut self, e: &Expr) -> Expr {
        if let Some((a, b)) = as_bin(e, BinOp::Mul)
            && constant::is_const(b)
        {
            let nb = self.fold(make::mul(int(b.ty(), -1), b.clone()));
            return make::mul(a.clone(), nb);
        }
        make::mul(e.clone(), int(e.ty(), -1))
    }

    /// Solves `e` (see [`Self::solve_node`]) with the stack grown if it runs low: every
    /// step of the solver's recursion, through let bodies, operands and the rewritten
    /// forms it solves again, comes through here.
    fn mutate(&mut self, e: &Expr) -> Expr {
        with_stack(|| self.solve_node(e))
    }

    fn solve_node(&mut self, e: &Expr) -> Expr {
        match e.kind() {
            ExprKind::Variable(n) => {
                if n == self.var {
                    self.uses_var = true;
                    return e.clone();
                }
                if let Some(entry) = self.lets.get(n).and_then(|v| v.last()).cloned() {
                    self.uses_var |= entry.uses_var;
                    self.failed |= entry.failed;
                    return entry.expr;
                }
                e.clone()
            }
            ExprKind::Let { name, value, body } => {
                let saved = (self.uses_var, self.failed);
                let entry = self.sub(value);
                (self.uses_var, self.failed) = saved;
                self.lets.entry(name.clone()).or_default().push(entry);
                let r = self.mutate(body);
                if let Some(v) = self.lets.get_mut(name) {
                    v.pop();
                }
                r
            }
            ExprKind::Call { args, .. }
                if matches!(
                    e.as_intrinsic(),
                    Some((Intrinsic::Likely | Intrinsic::LikelyIfInnermost, [_]))
                ) =>
            {
                self.mutate(&args[0])
            }
            ExprKind::Binary(op, a, b) => self.binary(e, *op, a, b),
            ExprKind::Select(c, t, f) => self.select(c, t, f),
            _ => {
                let children = e.children();
                let new: Vec<Expr> = children.iter().map(|c| self.sub(c).expr).collect();
                if children.iter().zip(&new).all(|(a, b)| a.same_as(b)) {
                    e.clone()
                } else {
                    e.with_children(new)
                }
            }
        }
    }

    fn binary(&mut self, e: &Expr, op: BinOp, a: &Expr, b: &Expr) -> Expr {
        match op {
            BinOp::Add => self.add(e, a, b),
            BinOp::Sub => self.sub_op(e, a, b),
            BinOp::Mul => self.mul(e, a, b),
            BinOp::Div => self.div(e, a, b),
            BinOp::Min | BinOp::Max => self.min_max(e, op, a, b),
            BinOp::And | BinOp::Or => self.and_or(e, op, a, b),
            op if is_cmp(op) => self.cmp(e, op, a, b),
            _ => {
                let na = self.sub(a).expr;
                let nb = self.sub(b).expr;
                rebuild(e, op, a, b, na, nb)
            }
        }
    }

    fn add(&mut self, e: &Expr, oa: &Expr, ob: &Expr) -> Expr {
        let (mut a, mut b) = (self.sub(oa), self.sub(ob));
        if b.uses_var && !a.uses_var {
            std::mem::swap(&mut a, &mut b);
        }
        let (ea, eb) = (a.expr.clone(), b.expr.clone());
        let ty = e.ty();
        let mut expr = None;
        if a.uses_var && !b.uses_var {
            if let Some((x, y)) = as_bin(&ea, BinOp::Sub).filter(|_| !a.failed) {
                expr = Some(self.mutate(&make::add(x.clone(), make::sub(eb.clone(), y.clone()))));
            } else if let Some((x, y)) = as_bin(&ea, BinOp::Add).filter(|_| !a.failed) {
                expr = Some(self.mutate(&make::add(x.clone(), make::add(y.clone(), eb.clone()))));
            }
        } else if a.uses_var && b.uses_var {
            let add_a = as_bin(&ea, BinOp::Add).filter(|_| !a.failed);
            let add_b = as_bin(&eb, BinOp::Add).filter(|_| !b.failed);
            let sub_a = as_bin(&ea, BinOp::Sub).filter(|_| !a.failed);
            let sub_b = as_bin(&eb, BinOp::Sub).filter(|_| !b.failed);
            let mul_a = as_bin(&ea, BinOp::Mul);
            let mul_b = as_bin(&eb, BinOp::Mul);
            let div_a = as_bin(&ea, BinOp::Div).filter(|(_, d)| !a.failed && nonzero_const(d));
            let div_b = as_bin(&eb, BinOp::Div).filter(|(_, d)| !b.failed && nonzero_const(d));
            let r = if equality::equal(&ea, &eb) {
                make::mul(ea.clone(), int(ty, 2))
            } else if let Some((x, y)) = add_a {
                make::add(make::add(x.clone(), eb.clone()), y.clone())
            } else if let Some((x, y)) = add_b {
                make::add(make::add(ea.clone(), x.clone()), y.clone())
            } else if let Some((x, y)) = sub_a {
                make::sub(make::add(x.clone(), eb.clone()), y.clone())
            } else if let Some((x, y)) = sub_b {
                make::sub(make::add(ea.clone(), x.clone()), y.clone())
            } else if let (Some((x, p)), Some((z, q))) = (mul_a, mul_b)
                && equality::equal(x, z)
            {
                make::mul(x.clone(), make::add(p.clone(), q.clone()))
            } else if let (Some((x, p)), Some((z, q))) = (mul_a, mul_b)
                && equality::equal(p, q)
            {
                let inner = self.mutate(&make::add(x.clone(), z.clone()));
                return make::mul(inner, p.clone());
            } else if let Some((_, p)) = mul_a.filter(|(x, _)| equality::equal(x, &eb)) {
                make::mul(eb.clone(), make::add(p.clone(), int(ty, 1)))
            } else if let Some((_, p)) = mul_b.filter(|(x, _)| equality::equal(x, &ea)) {
                make::mul(ea.clone(), make::add(p.clone(), int(ty, 1)))
            } else if let Some((x, d)) = div_a.filter(|_| overflow::no_overflow_int(ty)) {
                make::div(make::add(x.clone(), make::mul(eb.clone(), d.clone())), d.clone())
            } else if let Some((x, d)) = div_b.filter(|_| overflow::no_overflow_int(ty)) {
                make::div(make::add(make::mul(ea.clone(), d.clone()), x.clone()), d.clone())
            } else {
                return self.fail(make::add(ea, eb));
            };
            expr = Some(self.mutate(&r));
        } else if constant::is_const(&ea) && constant::is_const(&eb) {
            expr = Some(self.fold(make::add(ea.clone(), eb.clone())));
        }
        expr.unwrap_or_else(|| rebuild(e, BinOp::Add, oa, ob, ea, eb))
    }

    fn sub_op(&mut self, e: &Expr, oa: &Expr, ob: &Expr) -> Expr {
        let old_failed = self.failed;
        let (a, b) = (self.sub(oa), self.sub(ob));
        let (ea, eb) = (a.expr.clone(), b.expr.clone());
        let ty = e.ty();
        let add_a = as_bin(&ea, BinOp::Add);
        let add_b = as_bin(&eb, BinOp::Add);
        let sub_a = as_bin(&ea, BinOp::Sub);
        let sub_b = as_bin(&eb, BinOp::Sub);
        let mut expr = None;
        if a.uses_var && !b.uses_var {
            if let Some((x, y)) = sub_a.filter(|_| !a.failed) {
                expr = Some(self.mutate(&make::sub(x.clone(), make::add(y.clone(), eb.clone()))));
            } else if let Some((x, y)) = add_a.filter(|_| !a.failed) {
                expr = Some(self.mutate(&make::add(x.clone(), make::sub(y.clone(), eb.clone()))));
            }
        } else if b.uses_var && !a.uses_var {
            if ty.is_uint() {
                if let Some((x, y)) = sub_b.filter(|_| b.failed) {
                    self.failed = old_failed || a.failed;
                    expr = Some(self.mutate(&make::add(y.clone(), make::sub(ea.clone(), x.clone()))));
                } else {
                    return self.fail(make::sub(ea, eb));
                }
            } else if let Some((x, y)) = sub_b.filter(|_| !b.failed) {
                let n = self.negate(x);
                expr = Some(self.mutate(&make::add(n, make::add(ea.clone(), y.clone()))));
            } else if let Some((x, y)) = add_b.filter(|_| !b.failed) {
                let n = self.negate(x);
                expr = Some(self.mutate(&make::add(n, make::sub(ea.clone(), y.clone()))));
            } else {
                let n = self.negate(&eb);
                expr = Some(self.mutate(&make::add(n, ea.clone())));
            }
        } else if a.uses_var && b.uses_var {
            let mul_a = as_bin(&ea, BinOp::Mul);
            let mul_b = as_bin(&eb, BinOp::Mul);
            let div_a = as_bin(&ea, BinOp::Div).filter(|(_, d)| !a.failed && nonzero_const(d));
            let r = if let Some((x, y)) = add_a.filter(|_| !a.failed) {
                make::add(make::sub(x.clone(), eb.clone()), y.clone())
            } else if let Some((x, y)) = add_b.filter(|_| !b.failed) {
                make::sub(make::sub(ea.clone(), x.clone()), y.clone())
            } else if let Some((x, y)) = sub_a.filter(|_| !a.failed) {
                make::sub(make::sub(x.clone(), eb.clone()), y.clone())
            } else if let Some((x, y)) = sub_b.filter(|_| !b.failed) {
                make::add(make::sub(ea.clone(), x.clone()), y.clone())
            } else if let (Some((x, p)), Some((z, q))) = (mul_a, mul_b)
                && equality::equal(x, z)
            {
                make::mul(x.clone(), make::sub(p.clone(), q.clone()))
            } else if let (Some((x, p)), Some((z, q))) = (mul_a, mul_b)
                && equality::equal(p, q)
            {
                make::mul(make::sub(x.clone(), z.clone()), p.clone())
            } else if let Some((_, p)) = mul_a.filter(|(x, _)| equality::equal(x, &eb)) {
                make::mul(eb.clone(), make::sub(p.clone(), int(ty, 1)))
            } else if let Some((_, p)) = mul_b.filter(|(x, _)| equality::equal(x, &ea)) {
                make::mul(ea.clone(), make::sub(int(ty, 1), p.clone()))
            } else if let Some((x, d)) = div_a.filter(|_| overflow::no_overflow_int(ty)) {
                make::div(make::sub(x.clone(), make::mul(eb.clone(), d.clone())), d.clone())
            } else {
                return self.fail(make::sub(ea, eb));
            };
            expr = Some(self.mutate(&r));
        } else if constant::is_const(&ea) && constant::is_const(&eb) {
            expr = Some(self.fold(make::sub(ea.clone(), eb.clone())));
        }
        expr.unwrap_or_else(|| rebuild(e, BinOp::Sub, oa, ob, ea, eb))
    }

    fn mul(&mut self, e: &Expr, oa: &Expr, ob: &Expr) -> Expr {
        let (mut a, mut b) = (self.sub(oa), self.sub(ob));
        if b.uses_var && !a.uses_var {
            std::mem::swap(&mut a, &mut b);
        }
        let (ea, eb) = (a.expr.clone(), b.expr.clone());
        let mut expr = None;
        if a.uses_var && !b.uses_var && !a.failed {
            if let Some((x, y)) = as_bin(&ea, BinOp::Add) {
                let r = make::add(make::mul(x.clone(), eb.clone()), make::mul(y.clone(), eb.clone()));
                expr = Some(self.mutate(&r));
            } else if let Some((x, y)) = as_bin(&ea, BinOp::Sub) {
                let r = make::sub(make::mul(x.clone(), eb.clone()), make::mul(y.clone(), eb.clone()));
                expr = Some(self.mutate(&r));
            } else if let Some((x, y)) = as_bin(&ea, BinOp::Mul) {
                expr = Some(self.mutate(&make::mul(x.clone(), make::mul(y.clone(), eb.clone()))));
            }
        } else if a.uses_var && b.uses_var {
            return self.fail(make::mul(ea, eb));
        } else if constant::is_const(&ea) && constant::is_const(&eb) {
            expr = Some(self.fold(make::mul(ea.clone(), eb.clone())));
        }
        expr.unwrap_or_else(|| rebuild(e, BinOp::Mul, oa, ob, ea, eb))
    }

    fn div(&mut self, e: &Expr, oa: &Expr, ob: &Expr) -> Expr {
        let (a, b) = (self.sub(oa), self.sub(ob));
        let (ea, eb) = (a.expr.clone(), b.expr.clone());
        let mut expr = None;
        if a.uses_var && !b.uses_var && overflow::no_overflow_int(e.ty()) && !a.failed {
            let d = constant::as_const_int(&eb).filter(|d| *d != 0 && e.ty().is_scalar());
            let multiple = |x: &Expr| d.is_some_and(|d| is_multiple_of(x, d));
            if let Some((x, y)) = as_bin(&ea, BinOp::Add).filter(|(x, _)| multiple(x)) {
                let q = self.fold(make::div(x.clone(), eb.clone()));
                expr = Some(self.mutate(&make::add(q, make::div(y.clone(), eb.clone()))));
            } else if let Some((x, y)) = as_bin(&ea, BinOp::Sub).filter(|(x, y)| multiple(x) && multiple(y)) {
                let q = self.fold(make::div(x.clone(), eb.clone()));
                expr = Some(self.mutate(&make::sub(q, make::div(y.clone(), eb.clone()))));
            } else if let Some((x, y)) = as_bin(&ea, BinOp::Mul).filter(|(_, y)| multiple(y)) {
                expr = Some(self.mutate(&make::mul(x.clone(), make::div(y.clone(), eb.clone()))));
            }
        } else if constant::is_const(&ea) && constant::is_const(&eb) {
            expr = Some(self.fold(make::div(ea.clone(), eb.clone())));
        }
        expr.unwrap_or_else(|| rebuild(e, BinOp::Div, oa, ob, ea, eb))
    }

    fn min_max(&mut self, e: &Expr, op: BinOp, oa: &Expr, ob: &Expr) -> Expr {
        let other = if op == BinOp::Min { BinOp::Max } else { BinOp::Min };
        let (mut a, mut b) = (self.sub(oa), self.sub(ob));
        if b.uses_var && !a.uses_var {
            std::mem::swap(&mut a, &mut b);
        }
        let (ea, eb) = (a.expr.clone(), b.expr.clone());
        let ty = e.ty();
        let t_a = as_bin(&ea, op).filter(|_| !a.failed);
        let t_b = as_bin(&eb, op).filter(|_| !b.failed);
        let mk = make::binary;
        let mut expr = None;
        if a.uses_var && !b.uses_var {
            if let Some((x, y)) = t_a {
                expr = Some(self.mutate(&mk(op, x.clone(), mk(op, y.clone(), eb.clone()))));
            }
        } else if a.uses_var && b.uses_var {
            let add_a = as_bin(&ea, BinOp::Add);
            let add_b = as_bin(&eb, BinOp::Add);
            let sub_a = as_bin(&ea, BinOp::Sub);
            let sub_b = as_bin(&eb, BinOp::Sub);
            let mul_a = as_bin(&ea, BinOp::Mul);
            let mul_b = as_bin(&eb, BinOp::Mul);
            let zero = constant::make_zero(ty);
            let r = if equality::equal(&ea, &eb) {
                return ea;
            } else if let Some((x, y)) = t_a {
                mk(op, mk(op, x.clone(), eb.clone()), y.clone())
            } else if let Some((x, y)) = t_b {
                mk(op, mk(op, ea.clone(), x.clone()), y.clone())
            } else if !overflow::no_overflow_int(ty) {
                return self.fail(mk(op, ea, eb));
            } else if let (Some((x, p)), Some((z, q))) = (add_a, add_b)
                && equality::equal(x, z)
            {
                make::add(x.clone(), mk(op, p.clone(), q.clone()))
            } else if let (Some((x, p)), Some((z, q))) = (add_a, add_b)
                && equality::equal(p, q)
            {
                let inner = self.mutate(&mk(op, x.clone(), z.clone()));
                return make::add(inner, p.clone());
            } else if let Some((_, p)) = add_a.filter(|(x, _)| equality::equal(x, &eb)) {
                make::add(eb.clone(), mk(op, p.clone(), zero))
            } else if let Some((_, p)) = add_b.filter(|(x, _)| equality::equal(x, &ea)) {
                make::add(ea.clone(), mk(op, p.clone(), zero))
            } else if let (Some((x, p)), Some((z, q))) = (sub_a, sub_b)
                && equality::equal(x, z)
            {
                make::sub(x.clone(), mk(other, p.clone(), q.clone()))
            } else if let (Some((x, p)), Some((z, q))) = (sub_a, add_b)
                && equality::equal(x, z)
            {
                make::add(x.clone(), mk(op, make::sub(zero, p.clone()), q.clone()))
            } else if let (Some((x, p)), Some((z, q))) = (add_a, sub_b)
                && equality::equal(x, z)
            {
                make::add(x.clone(), mk(op, p.clone(), make::sub(zero, q.clone())))
            } else if let (Some((x, p)), Some((z, q))) = (sub_a, sub_b)
                && equality::equal(p, q)
            {
                let inner = self.mutate(&mk(op, x.clone(), z.clone()));
                return make::sub(inner, p.clone());
            } else if let Some((_, p)) = sub_a.filter(|(x, _)| equality::equal(x, &eb)) {
                make::sub(eb.clone(), mk(other, p.clone(), zero))
            } else if let Some((_, p)) = sub_b.filter(|(x, _)| equality::equal(x, &ea)) {
                make::sub(ea.clone(), mk(other, p.clone(), zero))
            } else if let (Some((x, p)), Some((z, q))) = (mul_a, mul_b)
                && equality::equal(p, q)
                && (constant::is_positive_const(p) || constant::is_negative_const(p))
            {
                let o = if constant::is_positive_const(p) { op } else { other };
                let inner = self.mutate(&mk(o, x.clone(), z.clone()));
                return make::mul(inner, p.clone());
            } else {
                return self.fail(mk(op, ea, eb));
            };
            expr = Some(self.mutate(&r));
        } else if constant::is_const(&ea) && constant::is_const(&eb) {
            expr = Some(self.fold(mk(op, ea.clone(), eb.clone())));
        }
        expr.unwrap_or_else(|| rebuild(e, op, oa, ob, ea, eb))
    }

    fn and_or(&mut self, e: &Expr, op: BinOp, oa: &Expr, ob: &Expr) -> Expr {
        let (mut a, mut b) = (self.sub(oa), self.sub(ob));
        if b.uses_var && !a.uses_var {
            std::mem::swap(&mut a, &mut b);
        }
        let (ea, eb) = (a.expr.clone(), b.expr.clone());
        let t_a = as_bin(&ea, op).filter(|_| !a.failed);
        let t_b = as_bin(&eb, op).filter(|_| !b.failed);
        let mk = make::binary;
        let mut expr = None;
        if a.uses_var && !b.uses_var {
            if let Some((x, y)) = t_a {
                expr = Some(self.mutate(&mk(op, x.clone(), mk(op, y.clone(), eb.clone()))));
            }
        } else if a.uses_var && b.uses_var {
            let r = if equality::equal(&ea, &eb) {
                return ea;
            } else if let Some((x, y)) = t_a {
                mk(op, mk(op, x.clone(), eb.clone()), y.clone())
            } else if let Some((x, y)) = t_b {
                mk(op, mk(op, ea.clone(), x.clone()), y.clone())
            } else {
                return self.fail(mk(op, ea, eb));
            };
            expr = Some(self.mutate(&r));
        } else if constant::is_const(&ea) && constant::is_const(&eb) {
            expr = Some(self.fold(mk(op, ea.clone(), eb.clone())));
        }
        expr.unwrap_or_else(|| rebuild(e, op, oa, ob, ea, eb))
    }

    fn cmp(&mut self, e: &Expr, op: BinOp, oa: &Expr, ob: &Expr) -> Expr {
        let (a, b) = (self.sub(oa), self.sub(ob));
        let (ea, eb) = (a.expr.clone(), b.expr.clone());
        if b.uses_var && !a.uses_var {
            return self.mutate(&make::binary(opposite(op), eb, ea));
        }
        let ty = ea.ty();
        let mk = make::binary;
        let (is_eq, is_ne) = (op == BinOp::Eq, op == BinOp::Ne);
        let mut expr = None;
        if a.uses_var && !b.uses_var {
            let safe = overflow::no_overflow_int(ty) || is_eq || is_ne;
            if let Some((x, y)) = as_bin(&ea, BinOp::Add).filter(|_| !a.failed && safe) {
                expr = Some(self.mutate(&mk(op, x.clone(), make::sub(eb.clone(), y.clone()))));
            } else if let Some((x, y)) = as_bin(&ea, BinOp::Sub).filter(|_| !a.failed && safe) {
                expr = Some(self.mutate(&mk(op, x.clone(), make::add(eb.clone(), y.clone()))));
            } else if let Some((x, c)) = as_bin(&ea, BinOp::Mul) {
                let r = if ty.is_float() {
                    if constant::is_positive_const(c) {
                        Some(mk(op, x.clone(), make::div(eb.clone(), c.clone())))
                    } else if constant::is_negative_const(c) {
                        Some(mk(opposite(op), x.clone(), make::div(eb.clone(), c.clone())))
                    } else {
                        None
                    }
                } else if constant::as_const_int(c) == Some(-1) {
                    Some(mk(opposite(op), x.clone(), make::sub(constant::make_zero(eb.ty()), eb.clone())))
                } else if constant::is_negative_const(c) && overflow::no_overflow_int(ty) {
                    let nc = self.negate(c);
                    let nb = self.negate(&eb);
                    Some(mk(opposite(op), make::mul(x.clone(), nc), nb))
                } else if constant::is_positive_const(c) && overflow::no_overflow_int(ty) {
                    let div = make::div(eb.clone(), c.clone());
                    let rem = make::modulo(eb.clone(), c.clone());
                    let zero = constant::make_zero(ty);
                    let pred = || make::div(make::sub(eb.clone(), int(ty, 1)), c.clone());
                    Some(match op {
                        BinOp::Eq => make::and(make::eq(x.clone(), div), make::eq(rem, zero)),
                        BinOp::Ne => make::or(make::ne(x.clone(), div), make::ne(rem, zero)),
                        BinOp::Le => make::le(x.clone(), div),
                        BinOp::Lt => make::le(x.clone(), pred()),
                        BinOp::Gt => make::gt(x.clone(), div),
                        _ => make::gt(x.clone(), pred()),
                    })
                } else {
                    None
                };
                if let Some(r) = r {
                    expr = Some(self.mutate(&r));
                }
            } else if let Some((x, d)) = as_bin(&ea, BinOp::Div) {
                let r = if ty.is_float() {
                    if constant::is_positive_const(d) {
                        Some(mk(op, x.clone(), make::mul(eb.clone(), d.clone())))
                    } else if constant::is_negative_const(d) {
                        Some(mk(opposite(op), x.clone(), make::mul(eb.clone(), d.clone())))
                    } else {
                        None
                    }
                } else if !overflow::no_overflow_int(ty) || is_eq || is_ne {
                    None
                } else if constant::is_negative_const(d) {
                    let nd = self.negate(d);
                    let q = self.negate(&make::div(x.clone(), nd));
                    Some(mk(op, q, eb.clone()))
                } else if constant::is_positive_const(d) {
                    let one = int(ty, 1);
                    let times = |v: Expr| make::mul(v, d.clone());
                    Some(match op {
                        BinOp::Lt => make::lt(x.clone(), times(eb.clone())),
                        BinOp::Le => make::lt(x.clone(), times(make::add(eb.clone(), one))),
                        BinOp::Gt => make::ge(x.clone(), times(make::add(eb.clone(), one))),
                        _ => make::ge(x.clone(), times(eb.clone())),
                    })
                } else {
                    None
                };
                if let Some(r) = r {
                    expr = Some(self.mutate(&r));
                }
            }
        } else if a.uses_var && b.uses_var && overflow::no_overflow_int(ty) {
            expr = Some(self.mutate(&mk(op, make::sub(ea.clone(), eb.clone()), constant::make_zero(ty))));
        }
        expr.unwrap_or_else(|| rebuild(e, op, oa, ob, ea, eb))
    }

    fn select(&mut self, c: &Expr, t: &Expr, f: &Expr) -> Expr {
        let mut tv = self.sub(t);
        let mut fv = self.sub(f);
        let mut cond = c.clone();
        if !tv.uses_var && fv.uses_var {
            cond = shallow_negate(&cond);
            std::mem::swap(&mut tv, &mut fv);
        }
        let cv = self.sub(&cond);
        let used = [tv.uses_var, fv.uses_var, cv.uses_var].iter().filter(|u| **u).count();
        self.failed |= used > 1;
        make::select(cv.expr, tv.expr, fv.expr)
    }
}

/// `e` itself when both operands came back unchanged, else the node rebuilt.
fn rebuild(e: &Expr, op: BinOp, oa: &Expr, ob: &Expr, a: Expr, b: Expr) -> Expr {
    if a.same_as(oa) && b.same_as(ob) { e.clone() } else { make::binary(op, a, b) }
}

/// Whether `e` is provably a multiple of the nonzero constant `d` (constants, products
/// with a constant multiple of `d`, and sums and differences of such).
fn is_multiple_of(e: &Expr, d: i64) -> bool {
    if let Some(c) = constant::as_const_int(e) {
        return c.checked_rem(d) == Some(0);
    }
    with_stack(|| match e.kind() {
        ExprKind::Binary(BinOp::Mul, a, b) => is_multiple_of(a, d) || is_multiple_of(b, d),
        ExprKind::Binary(BinOp::Add | BinOp::Sub, a, b) => is_multiple_of(a, d) && is_multiple_of(b, d),
        _ => false,
    })
}

fn nonzero_const(e: &Expr) -> bool {
    constant::is_const(e) && !constant::is_const_zero(e)
}

/// Negates a comparison or `!` one level deep, without simplifying.
fn shallow_negate(e: &Expr) -> Expr {
    match e.kind() {
        ExprKind::Binary(op, a, b) if is_cmp(*op) => {
            let n = match op {
                BinOp::Lt => BinOp::Ge,
                BinOp::Le => BinOp::Gt,
                BinOp::Gt => BinOp::Le,
                BinOp::Ge => BinOp::Lt,
                BinOp::Eq => BinOp::Ne,
                _ => BinOp::Eq,
            };
            make::binary(n, a.clone(), b.clone())
        }
        ExprKind::Not(a) => a.clone(),
        _ => make::not(e.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loopir::Type;

    fn v(n: &str) -> Expr {
        loopir::Expr::var(Type::int(32, 1), loopir::name(n))
    }

    fn solve(e: &Expr, var: &str) -> (String, bool) {
        let ctx = Ctx::new();
        let s = solve_expression(&ctx, e, &loopir::name(var));
        (loopir::print::expr_to_string_implicit(&s.expr), s.fully_solved)
    }

    #[test]
    fn moves_other_terms_across_unsimplified() {
        // (x + (a - b)) >= a, for x: x >= a - (a - b)
        let c = make::ge(make::add(v("x"), make::sub(v("a"), v("b"))), v("a"));
        assert_eq!(solve(&c, "x"), ("x >= (a - (a - b))".to_string(), true));
        // for b: both sides of the sum rearranged, b on the left of a flipped comparison
        let (s, ok) = solve(&c, "b");
        assert!(ok);
        assert!(s.starts_with("b <= "), "{s}");
    }

    #[test]
    fn a_variable_on_both_sides_that_cancels_fails() {
        // (x + (a - b)) >= a for a: (a - a) cannot be rearranged
        let c = make::ge(make::add(v("x"), make::sub(v("a"), v("b"))), v("a"));
        assert!(!solve(&c, "a").1);
    }

    #[test]
    fn right_hand_variable_flips_the_comparison() {
        let c = make::lt(v("a"), v("x"));
        assert_eq!(solve(&c, "x"), ("x > a".to_string(), true));
        assert_eq!(solve(&c, "a"), ("a < x".to_string(), true));
    }

    #[test]
    fn constant_factors() {
        let k = |c: i128| constant::make_const(Type::int(32, 1), c);
        // x*4 < y → x <= (y - 1)/4
        let c = make::lt(make::mul(v("x"), k(4)), v("y"));
        assert_eq!(solve(&c, "x"), ("x <= ((y - 1)/4)".to_string(), true));
        // x*-1 <= y → x >= 0 - y
        let c = make::le(make::mul(v("x"), k(-1)), v("y"));
        assert_eq!(solve(&c, "x"), ("x >= (0 - y)".to_string(), true));
        // (a - x) < y → x*-1 < y - a → x > 0 - (y - a)
        let c = make::lt(make::sub(v("a"), v("x")), v("y"));
        let (s, ok) = solve(&c, "x");
        assert!(ok && s.starts_with("x > "), "{s}");
    }

    #[test]
    fn untouched_when_the_variable_is_absent() {
        let c = make::lt(v("a"), v("b"));
        assert_eq!(solve(&c, "x"), ("a < b".to_string(), true));
    }

    #[test]
    fn if_conditions_are_solved_for_their_innermost_variable() {
        let src = "let a = b\nfor (x, 0, 9) {\n if (likely((x + (a - c)) >= a)) {\n  f(x) = 1\n }\n}\n";
        let Ok(stmt) = loopir::parse_stmt(src) else { panic!("parses") };
        let out = loopir::stmt_to_string(&solve_if_then_else(&Ctx::new(), &stmt));
        // x is bound innermost; the likely tag does not survive the solve
        assert!(out.contains("if (x >= (a - (a - c)))"), "{out}");
    }
}
