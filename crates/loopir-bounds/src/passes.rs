//! The bounds passes as [`Pass`]es of a [`loopir::pipeline::Pipeline`]: each reads the
//! bounds part of the run's [`PipelineEnv`](loopir::pipeline::PipelineEnv), draws its
//! fresh names from the run's generator, and shares the Func value bounds table (the
//! reference computes it once, from the definitions, before computation bounds
//! inference, and hands it to allocation bounds inference).

use std::rc::Rc;

use loopir::Stmt;
use loopir::pipeline::{IrStage, LowerCtx, Pass, PassError};
use loopir_simplify::Ctx;

use crate::allocation_bounds::{allocation_bounds_ctx, allocation_bounds_inference_in};
use crate::bounds_of_expr::FuncValueBounds;
use crate::compute_bounds::computation_bounds_inference_with;
use crate::env::BoundsEnv;
use crate::func_value_bounds::func_value_bounds_from_text;

/// Computation bounds inference ([`crate::compute_bounds`]): defines every stage's
/// `min`/`max` symbols. Schedule-stage IR in and out.
#[derive(Clone, Copy, Debug, Default)]
pub struct ComputationBounds;

/// Allocation bounds inference ([`crate::allocation_bounds`]): defines every
/// realization's `min_realized`/`extent_realized` symbols. Schedule-stage IR in and out.
#[derive(Clone, Copy, Debug, Default)]
pub struct AllocationBounds;

/// Runs `f` with an analysis context that draws from the run's name generator, and gives
/// the generator back whatever `f` returns.
fn with_run_names<R>(lower: &mut LowerCtx, ctx: Ctx, f: impl FnOnce(&Ctx) -> R) -> R {
    ctx.set_names(lower.take_names());
    let r = f(&ctx);
    lower.restore_names(ctx.take_names());
    r
}

impl Pass for ComputationBounds {
    fn name(&self) -> &'static str {
        "bounds"
    }
    fn expects(&self) -> IrStage {
        IrStage::Schedule
    }
    fn produces(&self) -> IrStage {
        IrStage::Schedule
    }
    fn run(&self, stmt: &Stmt, lower: &mut LowerCtx) -> Result<Stmt, PassError> {
        let env = BoundsEnv::from_pipeline_env(lower.env());
        let (out, table) = with_run_names(lower, Ctx::new(), |ctx| {
            let table = func_value_bounds_from_text(ctx, stmt);
            (computation_bounds_inference_with(ctx, stmt, &env, &table), table)
        });
        lower.set_analysis(Rc::new(table));
        out.map_err(PassError::new)
    }
}

impl Pass for AllocationBounds {
    fn name(&self) -> &'static str {
        "allocation_bounds"
    }
    fn expects(&self) -> IrStage {
        IrStage::Schedule
    }
    fn produces(&self) -> IrStage {
        IrStage::Schedule
    }
    fn run(&self, stmt: &Stmt, lower: &mut LowerCtx) -> Result<Stmt, PassError> {
        let env = BoundsEnv::from_pipeline_env(lower.env());
        // Without an earlier computation bounds pass, the Provides of this statement
        // stand in for the definitions.
        let table = match lower.analysis::<FuncValueBounds>() {
            Some(t) => t,
            None => Rc::new(func_value_bounds_from_text(&Ctx::new(), stmt)),
        };
        with_run_names(lower, allocation_bounds_ctx(), |ctx| {
            allocation_bounds_inference_in(ctx, stmt, &env, &table)
        })
        .map_err(PassError::new)
    }
}
