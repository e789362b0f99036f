//! A solver that moves every occurrence of one variable as far left and as far outward
//! as it can (Halide's `solve_expression`, spec §1.7): `(x + (a - b)) >= a` solved for
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

use rustc_hash::FxHashMap;

use loopir::equality::with_stack;
use loopir::mutate::{Mutator, walk_stmt};
use loopir::{BinOp, Expr, ExprKind, Name, Stmt, StmtKind};

use crate::Ctx;
use crate::cse::cse;
use crate::ir;
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
        match s.kind() {
            StmtKind::For { name, .. } => {
                let name = name.clone();
                self.push(&name);
                let r = walk_stmt(self, s);
                self.pop(&name);
                r
            }
            StmtKind::IfThenElse { .. } => {
                let r = walk_stmt(self, s);
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
            _ => walk_stmt(self, s),
        }
    }

    /// Only statements' conditions are solved, and expressions hold no statements: walking
    /// them would change nothing and, on a DAG (the tracing pass shares each traced load's
    /// arguments with its event), take time exponential in its depth.
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        e.clone()
    }

    fn enter_let_stmt(&mut self, name: &Name, _value: &Expr) {
        self.push(name);
    }

    fn leave_let_stmt(&mut self, name: &Name) {
        self.pop(name);
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
    ir::make_const(ty, v)
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
        let expr = with_stack(|| self.mutate(e));
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
            && ir::is_const(b)
        {
            let nb = self.fold(ir::mul(int(b.ty(), -1), b.clone()));
            return ir::mul(a.clone(), nb);
        }
        ir::mul(e.clone(), int(e.ty(), -1))
    }

    fn mutate(&mut self, e: &Expr) -> Expr {
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
                if matches!(ir::intrinsic_name(e), Some(("likely" | "likely_if_innermost", [_]))) =>
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
                    ir::with_children(e, new)
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
                expr = Some(self.mutate(&ir::add(x.clone(), ir::sub(eb.clone(), y.clone()))));
            } else if let Some((x, y)) = as_bin(&ea, BinOp::Add).filter(|_| !a.failed) {
                expr = Some(self.mutate(&ir::add(x.clone(), ir::add(y.clone(), eb.clone()))));
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
            let r = if ir::equal(&ea, &eb) {
                ir::mul(ea.clone(), int(ty, 2))
            } else if let Some((x, y)) = add_a {
                ir::add(ir::add(x.clone(), eb.clone()), y.clone())
            } else if let Some((x, y)) = add_b {
                ir::add(ir::add(ea.clone(), x.clone()), y.clone())
            } else if let Some((x, y)) = sub_a {
                ir::sub(ir::add(x.clone(), eb.clone()), y.clone())
            } else if let Some((x, y)) = sub_b {
                ir::sub(ir::add(ea.clone(), x.clone()), y.clone())
            } else if let (Some((x, p)), Some((z, q))) = (mul_a, mul_b)
                && ir::equal(x, z)
            {
                ir::mul(x.clone(), ir::add(p.clone(), q.clone()))
            } else if let (Some((x, p)), Some((z, q))) = (mul_a, mul_b)
                && ir::equal(p, q)
            {
                let inner = self.mutate(&ir::add(x.clone(), z.clone()));
                return ir::mul(inner, p.clone());
            } else if let Some((_, p)) = mul_a.filter(|(x, _)| ir::equal(x, &eb)) {
                ir::mul(eb.clone(), ir::add(p.clone(), int(ty, 1)))
            } else if let Some((_, p)) = mul_b.filter(|(x, _)| ir::equal(x, &ea)) {
                ir::mul(ea.clone(), ir::add(p.clone(), int(ty, 1)))
            } else if let Some((x, d)) = div_a.filter(|_| ir::no_overflow_int(ty)) {
                ir::div(ir::add(x.clone(), ir::mul(eb.clone(), d.clone())), d.clone())
            } else if let Some((x, d)) = div_b.filter(|_| ir::no_overflow_int(ty)) {
                ir::div(ir::add(ir::mul(ea.clone(), d.clone()), x.clone()), d.clone())
            } else {
                return self.fail(ir::add(ea, eb));
            };
            expr = Some(self.mutate(&r));
        } else if ir::is_const(&ea) && ir::is_const(&eb) {
            expr = Some(self.fold(ir::add(ea.clone(), eb.clone())));
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
                expr = Some(self.mutate(&ir::sub(x.clone(), ir::add(y.clone(), eb.clone()))));
            } else if let Some((x, y)) = add_a.filter(|_| !a.failed) {
                expr = Some(self.mutate(&ir::add(x.clone(), ir::sub(y.clone(), eb.clone()))));
            }
        } else if b.uses_var && !a.uses_var {
            if ty.is_uint() {
                if let Some((x, y)) = sub_b.filter(|_| b.failed) {
                    self.failed = old_failed || a.failed;
                    expr = Some(self.mutate(&ir::add(y.clone(), ir::sub(ea.clone(), x.clone()))));
                } else {
                    return self.fail(ir::sub(ea, eb));
                }
            } else if let Some((x, y)) = sub_b.filter(|_| !b.failed) {
                let n = self.negate(x);
                expr = Some(self.mutate(&ir::add(n, ir::add(ea.clone(), y.clone()))));
            } else if let Some((x, y)) = add_b.filter(|_| !b.failed) {
                let n = self.negate(x);
                expr = Some(self.mutate(&ir::add(n, ir::sub(ea.clone(), y.clone()))));
            } else {
                let n = self.negate(&eb);
                expr = Some(self.mutate(&ir::add(n, ea.clone())));
            }
        } else if a.uses_var && b.uses_var {
            let mul_a = as_bin(&ea, BinOp::Mul);
            let mul_b = as_bin(&eb, BinOp::Mul);
            let div_a = as_bin(&ea, BinOp::Div).filter(|(_, d)| !a.failed && nonzero_const(d));
            let r = if let Some((x, y)) = add_a.filter(|_| !a.failed) {
                ir::add(ir::sub(x.clone(), eb.clone()), y.clone())
            } else if let Some((x, y)) = add_b.filter(|_| !b.failed) {
                ir::sub(ir::sub(ea.clone(), x.clone()), y.clone())
            } else if let Some((x, y)) = sub_a.filter(|_| !a.failed) {
                ir::sub(ir::sub(x.clone(), eb.clone()), y.clone())
            } else if let Some((x, y)) = sub_b.filter(|_| !b.failed) {
                ir::add(ir::sub(ea.clone(), x.clone()), y.clone())
            } else if let (Some((x, p)), Some((z, q))) = (mul_a, mul_b)
                && ir::equal(x, z)
            {
                ir::mul(x.clone(), ir::sub(p.clone(), q.clone()))
            } else if let (Some((x, p)), Some((z, q))) = (mul_a, mul_b)
                && ir::equal(p, q)
            {
                ir::mul(ir::sub(x.clone(), z.clone()), p.clone())
            } else if let Some((_, p)) = mul_a.filter(|(x, _)| ir::equal(x, &eb)) {
                ir::mul(eb.clone(), ir::sub(p.clone(), int(ty, 1)))
            } else if let Some((_, p)) = mul_b.filter(|(x, _)| ir::equal(x, &ea)) {
                ir::mul(ea.clone(), ir::sub(int(ty, 1), p.clone()))
            } else if let Some((x, d)) = div_a.filter(|_| ir::no_overflow_int(ty)) {
                ir::div(ir::sub(x.clone(), ir::mul(eb.clone(), d.clone())), d.clone())
            } else {
                return self.fail(ir::sub(ea, eb));
            };
            expr = Some(self.mutate(&r));
        } else if ir::is_const(&ea) && ir::is_const(&eb) {
            expr = Some(self.fold(ir::sub(ea.clone(), eb.clone())));
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
                let r = ir::add(ir::mul(x.clone(), eb.clone()), ir::mul(y.clone(), eb.clone()));
                expr = Some(self.mutate(&r));
            } else if let Some((x, y)) = as_bin(&ea, BinOp::Sub) {
                let r = ir::sub(ir::mul(x.clone(), eb.clone()), ir::mul(y.clone(), eb.clone()));
                expr = Some(self.mutate(&r));
            } else if let Some((x, y)) = as_bin(&ea, BinOp::Mul) {
                expr = Some(self.mutate(&ir::mul(x.clone(), ir::mul(y.clone(), eb.clone()))));
            }
        } else if a.uses_var && b.uses_var {
            return self.fail(ir::mul(ea, eb));
        } else if ir::is_const(&ea) && ir::is_const(&eb) {
            expr = Some(self.fold(ir::mul(ea.clone(), eb.clone())));
        }
        expr.unwrap_or_else(|| rebuild(e, BinOp::Mul, oa, ob, ea, eb))
    }

    fn div(&mut self, e: &Expr, oa: &Expr, ob: &Expr) -> Expr {
        let (a, b) = (self.sub(oa), self.sub(ob));
        let (ea, eb) = (a.expr.clone(), b.expr.clone());
        let mut expr = None;
        if a.uses_var && !b.uses_var && ir::no_overflow_int(e.ty()) && !a.failed {
            let d = ir::as_const_int(&eb).filter(|d| *d != 0 && e.ty().is_scalar());
            let multiple = |x: &Expr| d.is_some_and(|d| is_multiple_of(x, d));
            if let Some((x, y)) = as_bin(&ea, BinOp::Add).filter(|(x, _)| multiple(x)) {
                let q = self.fold(ir::div(x.clone(), eb.clone()));
                expr = Some(self.mutate(&ir::add(q, ir::div(y.clone(), eb.clone()))));
            } else if let Some((x, y)) = as_bin(&ea, BinOp::Sub).filter(|(x, y)| multiple(x) && multiple(y)) {
                let q = self.fold(ir::div(x.clone(), eb.clone()));
                expr = Some(self.mutate(&ir::sub(q, ir::div(y.clone(), eb.clone()))));
            } else if let Some((x, y)) = as_bin(&ea, BinOp::Mul).filter(|(_, y)| multiple(y)) {
                expr = Some(self.mutate(&ir::mul(x.clone(), ir::div(y.clone(), eb.clone()))));
            }
        } else if ir::is_const(&ea) && ir::is_const(&eb) {
            expr = Some(self.fold(ir::div(ea.clone(), eb.clone())));
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
        let mk = ir::binary;
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
            let zero = ir::zero(ty);
            let r = if ir::equal(&ea, &eb) {
                return ea;
            } else if let Some((x, y)) = t_a {
                mk(op, mk(op, x.clone(), eb.clone()), y.clone())
            } else if let Some((x, y)) = t_b {
                mk(op, mk(op, ea.clone(), x.clone()), y.clone())
            } else if !ir::no_overflow_int(ty) {
                return self.fail(mk(op, ea, eb));
            } else if let (Some((x, p)), Some((z, q))) = (add_a, add_b)
                && ir::equal(x, z)
            {
                ir::add(x.clone(), mk(op, p.clone(), q.clone()))
            } else if let (Some((x, p)), Some((z, q))) = (add_a, add_b)
                && ir::equal(p, q)
            {
                let inner = self.mutate(&mk(op, x.clone(), z.clone()));
                return ir::add(inner, p.clone());
            } else if let Some((_, p)) = add_a.filter(|(x, _)| ir::equal(x, &eb)) {
                ir::add(eb.clone(), mk(op, p.clone(), zero))
            } else if let Some((_, p)) = add_b.filter(|(x, _)| ir::equal(x, &ea)) {
                ir::add(ea.clone(), mk(op, p.clone(), zero))
            } else if let (Some((x, p)), Some((z, q))) = (sub_a, sub_b)
                && ir::equal(x, z)
            {
                ir::sub(x.clone(), mk(other, p.clone(), q.clone()))
            } else if let (Some((x, p)), Some((z, q))) = (sub_a, add_b)
                && ir::equal(x, z)
            {
                ir::add(x.clone(), mk(op, ir::sub(zero, p.clone()), q.clone()))
            } else if let (Some((x, p)), Some((z, q))) = (add_a, sub_b)
                && ir::equal(x, z)
            {
                ir::add(x.clone(), mk(op, p.clone(), ir::sub(zero, q.clone())))
            } else if let (Some((x, p)), Some((z, q))) = (sub_a, sub_b)
                && ir::equal(p, q)
            {
                let inner = self.mutate(&mk(op, x.clone(), z.clone()));
                return ir::sub(inner, p.clone());
            } else if let Some((_, p)) = sub_a.filter(|(x, _)| ir::equal(x, &eb)) {
                ir::sub(eb.clone(), mk(other, p.clone(), zero))
            } else if let Some((_, p)) = sub_b.filter(|(x, _)| ir::equal(x, &ea)) {
                ir::sub(ea.clone(), mk(other, p.clone(), zero))
            } else if let (Some((x, p)), Some((z, q))) = (mul_a, mul_b)
                && ir::equal(p, q)
                && (ir::is_positive_const(p) || ir::is_negative_const(p))
            {
                let o = if ir::is_positive_const(p) { op } else { other };
                let inner = self.mutate(&mk(o, x.clone(), z.clone()));
                return ir::mul(inner, p.clone());
            } else {
                return self.fail(mk(op, ea, eb));
            };
            expr = Some(self.mutate(&r));
        } else if ir::is_const(&ea) && ir::is_const(&eb) {
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
        let mk = ir::binary;
        let mut expr = None;
        if a.uses_var && !b.uses_var {
            if let Some((x, y)) = t_a {
                expr = Some(self.mutate(&mk(op, x.clone(), mk(op, y.clone(), eb.clone()))));
            }
        } else if a.uses_var && b.uses_var {
            let r = if ir::equal(&ea, &eb) {
                return ea;
            } else if let Some((x, y)) = t_a {
                mk(op, mk(op, x.clone(), eb.clone()), y.clone())
            } else if let Some((x, y)) = t_b {
                mk(op, mk(op, ea.clone(), x.clone()), y.clone())
            } else {
                return self.fail(mk(op, ea, eb));
            };
            expr = Some(self.mutate(&r));
        } else if ir::is_const(&ea) && ir::is_const(&eb) {
            expr = Some(self.fold(mk(op, ea.clone(), eb.clone())));
        }
        expr.unwrap_or_else(|| rebuild(e, op, oa, ob, ea, eb))
    }

    fn cmp(&mut self, e: &Expr, op: BinOp, oa: &Expr, ob: &Expr) -> Expr {
        let (a, b) = (self.sub(oa), self.sub(ob));
        let (ea, eb) = (a.expr.clone(), b.expr.clone());
        if b.uses_var && !a.uses_var {
            return self.mutate(&ir::binary(opposite(op), eb, ea));
        }
        let ty = ea.ty();
        let mk = ir::binary;
        let (is_eq, is_ne) = (op == BinOp::Eq, op == BinOp::Ne);
        let mut expr = None;
        if a.uses_var && !b.uses_var {
            let safe = ir::no_overflow_int(ty) || is_eq || is_ne;
            if let Some((x, y)) = as_bin(&ea, BinOp::Add).filter(|_| !a.failed && safe) {
                expr = Some(self.mutate(&mk(op, x.clone(), ir::sub(eb.clone(), y.clone()))));
            } else if let Some((x, y)) = as_bin(&ea, BinOp::Sub).filter(|_| !a.failed && safe) {
                expr = Some(self.mutate(&mk(op, x.clone(), ir::add(eb.clone(), y.clone()))));
            } else if let Some((x, c)) = as_bin(&ea, BinOp::Mul) {
                let r = if ty.is_float() {
                    if ir::is_positive_const(c) {
                        Some(mk(op, x.clone(), ir::div(eb.clone(), c.clone())))
                    } else if ir::is_negative_const(c) {
                        Some(mk(opposite(op), x.clone(), ir::div(eb.clone(), c.clone())))
                    } else {
                        None
                    }
                } else if ir::as_const_int(c) == Some(-1) {
                    Some(mk(opposite(op), x.clone(), ir::sub(ir::zero(eb.ty()), eb.clone())))
                } else if ir::is_negative_const(c) && ir::no_overflow_int(ty) {
                    let nc = self.negate(c);
                    let nb = self.negate(&eb);
                    Some(mk(opposite(op), ir::mul(x.clone(), nc), nb))
                } else if ir::is_positive_const(c) && ir::no_overflow_int(ty) {
                    let div = ir::div(eb.clone(), c.clone());
                    let rem = ir::modulo(eb.clone(), c.clone());
                    let zero = ir::zero(ty);
                    let pred = || ir::div(ir::sub(eb.clone(), int(ty, 1)), c.clone());
                    Some(match op {
                        BinOp::Eq => ir::and(ir::eq(x.clone(), div), ir::eq(rem, zero)),
                        BinOp::Ne => ir::or(ir::ne(x.clone(), div), ir::ne(rem, zero)),
                        BinOp::Le => ir::le(x.clone(), div),
                        BinOp::Lt => ir::le(x.clone(), pred()),
                        BinOp::Gt => ir::gt(x.clone(), div),
                        _ => ir::gt(x.clone(), pred()),
                    })
                } else {
                    None
                };
                if let Some(r) = r {
                    expr = Some(self.mutate(&r));
                }
            } else if let Some((x, d)) = as_bin(&ea, BinOp::Div) {
                let r = if ty.is_float() {
                    if ir::is_positive_const(d) {
                        Some(mk(op, x.clone(), ir::mul(eb.clone(), d.clone())))
                    } else if ir::is_negative_const(d) {
                        Some(mk(opposite(op), x.clone(), ir::mul(eb.clone(), d.clone())))
                    } else {
                        None
                    }
                } else if !ir::no_overflow_int(ty) || is_eq || is_ne {
                    None
                } else if ir::is_negative_const(d) {
                    let nd = self.negate(d);
                    let q = self.negate(&ir::div(x.clone(), nd));
                    Some(mk(op, q, eb.clone()))
                } else if ir::is_positive_const(d) {
                    let one = int(ty, 1);
                    let times = |v: Expr| ir::mul(v, d.clone());
                    Some(match op {
                        BinOp::Lt => ir::lt(x.clone(), times(eb.clone())),
                        BinOp::Le => ir::lt(x.clone(), times(ir::add(eb.clone(), one))),
                        BinOp::Gt => ir::ge(x.clone(), times(ir::add(eb.clone(), one))),
                        _ => ir::ge(x.clone(), times(eb.clone())),
                    })
                } else {
                    None
                };
                if let Some(r) = r {
                    expr = Some(self.mutate(&r));
                }
            }
        } else if a.uses_var && b.uses_var && ir::no_overflow_int(ty) {
            expr = Some(self.mutate(&mk(op, ir::sub(ea.clone(), eb.clone()), ir::zero(ty))));
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
        ir::select(cv.expr, tv.expr, fv.expr)
    }
}

/// `e` itself when both operands came back unchanged, else the node rebuilt.
fn rebuild(e: &Expr, op: BinOp, oa: &Expr, ob: &Expr, a: Expr, b: Expr) -> Expr {
    if a.same_as(oa) && b.same_as(ob) { e.clone() } else { ir::binary(op, a, b) }
}

/// Whether `e` is provably a multiple of the nonzero constant `d` (constants, products
/// with a constant multiple of `d`, and sums and differences of such).
fn is_multiple_of(e: &Expr, d: i64) -> bool {
    if let Some(c) = ir::as_const_int(e) {
        return c.checked_rem(d) == Some(0);
    }
    match e.kind() {
        ExprKind::Binary(BinOp::Mul, a, b) => is_multiple_of(a, d) || is_multiple_of(b, d),
        ExprKind::Binary(BinOp::Add | BinOp::Sub, a, b) => is_multiple_of(a, d) && is_multiple_of(b, d),
        _ => false,
    }
}

fn nonzero_const(e: &Expr) -> bool {
    ir::is_const(e) && !ir::is_const_zero(e)
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
            ir::binary(n, a.clone(), b.clone())
        }
        ExprKind::Not(a) => a.clone(),
        _ => ir::not(e.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loopir::Type;

    fn v(n: &str) -> Expr {
        ir::var(Type::int(32, 1), loopir::name(n))
    }

    fn solve(e: &Expr, var: &str) -> (String, bool) {
        let ctx = Ctx::new();
        let s = solve_expression(&ctx, e, &loopir::name(var));
        (ir::pretty(&s.expr), s.fully_solved)
    }

    #[test]
    fn moves_other_terms_across_unsimplified() {
        // (x + (a - b)) >= a, for x: x >= a - (a - b)
        let c = ir::ge(ir::add(v("x"), ir::sub(v("a"), v("b"))), v("a"));
        assert_eq!(solve(&c, "x"), ("x >= (a - (a - b))".to_string(), true));
        // for b: both sides of the sum rearranged, b on the left of a flipped comparison
        let (s, ok) = solve(&c, "b");
        assert!(ok);
        assert!(s.starts_with("b <= "), "{s}");
    }

    #[test]
    fn a_variable_on_both_sides_that_cancels_fails() {
        // (x + (a - b)) >= a for a: (a - a) cannot be rearranged
        let c = ir::ge(ir::add(v("x"), ir::sub(v("a"), v("b"))), v("a"));
        assert!(!solve(&c, "a").1);
    }

    #[test]
    fn right_hand_variable_flips_the_comparison() {
        let c = ir::lt(v("a"), v("x"));
        assert_eq!(solve(&c, "x"), ("x > a".to_string(), true));
        assert_eq!(solve(&c, "a"), ("a < x".to_string(), true));
    }

    #[test]
    fn constant_factors() {
        let k = |c: i128| ir::make_const(Type::int(32, 1), c);
        // x*4 < y → x <= (y - 1)/4
        let c = ir::lt(ir::mul(v("x"), k(4)), v("y"));
        assert_eq!(solve(&c, "x"), ("x <= ((y - 1)/4)".to_string(), true));
        // x*-1 <= y → x >= 0 - y
        let c = ir::le(ir::mul(v("x"), k(-1)), v("y"));
        assert_eq!(solve(&c, "x"), ("x >= (0 - y)".to_string(), true));
        // (a - x) < y → x*-1 < y - a → x > 0 - (y - a)
        let c = ir::lt(ir::sub(v("a"), v("x")), v("y"));
        let (s, ok) = solve(&c, "x");
        assert!(ok && s.starts_with("x > "), "{s}");
    }

    #[test]
    fn untouched_when_the_variable_is_absent() {
        let c = ir::lt(v("a"), v("b"));
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
