//! Rebasing GPU loops to start at zero, as the reference does at the start of storage
//! flattening (its `zero_gpu_loop_mins`, which also serves other GPU passes).
//!
//! A GPU loop `for (v, min, max)` whose min is not the constant zero becomes
//! `for (v, 0, max - min)` (simplified), and each use of `v` in its body becomes
//! `v + min`: GPU block and thread indices count from zero.

use loopir::mutate::Mutator;
use loopir::substitute::substitute_in_stmt;
use loopir::{Expr, Stmt, StmtKind, make};
use loopir_simplify::{Ctx, simplify_expr};

/// `stmt` with every GPU loop (blocks, threads, lanes) starting at zero.
///
/// ```
/// use loopir_lower::zero_gpu_loop_mins::zero_gpu_loop_mins;
/// let s = loopir::parse_stmt("gpu_block<CUDA> (b, m, m + 7) {\n f(b) = b\n}\n").unwrap();
/// let z = zero_gpu_loop_mins(&loopir_simplify::Ctx::new(), &s);
/// assert_eq!(z.to_string(), "gpu_block<CUDA> (b, 0, 7) {\n f(b + m) = b + m\n}\n");
/// ```
pub fn zero_gpu_loop_mins(ctx: &Ctx, stmt: &Stmt) -> Stmt {
    ZeroGpuLoopMins { ctx }.mutate_stmt(stmt)
}

struct ZeroGpuLoopMins<'c> {
    ctx: &'c Ctx,
}

impl Mutator for ZeroGpuLoopMins<'_> {
    // Only loops change here: expressions are rewritten by the substitution alone.
    fn mutate_expr(&mut self, e: &Expr) -> Expr {
        e.clone()
    }

    fn mutate_stmt(&mut self, s: &Stmt) -> Stmt {
        // Inner loops first: their rebased bounds are then rewritten with the outer ones.
        let stmt = self.super_stmt(s);
        let StmtKind::For { name, min, max, for_type, device_api, partition_policy, body } = stmt.kind()
        else {
            return stmt;
        };
        if !for_type.is_gpu() || min.as_int() == Some(0) {
            return stmt;
        }
        let shifted = make::add(Expr::var_i32(name.clone()), min.clone());
        let body = substitute_in_stmt(name, &shifted, body);
        let extent_minus_one = simplify_expr(self.ctx, &make::sub(max.clone(), min.clone()));
        Stmt::from_kind_unchecked(StmtKind::For {
            name: name.clone(),
            min: Expr::i32(0),
            max: extent_minus_one,
            for_type: *for_type,
            device_api: *device_api,
            partition_policy: *partition_policy,
            body,
        })
    }
}
