//! The bounds passes as [`Pass`]es of a [`loopir::pipeline::Pipeline`]: each reads the
//! bounds part of the run's [`PipelineEnv`](loopir::pipeline::PipelineEnv), draws its
//! fresh names from the run's generator, and shares the Func value bounds table (the
//! reference computes it once, from the definitions, before computation bounds
//! inference, and hands it to allocation bounds inference).
//!
//! The first bounds pass of a run that needs the table reads it from its input and
//! leaves it for the others. Where its `t` names go is the generator's
//! [`func_value_bounds_end`](loopir::pipeline::NameGen::func_value_bounds_end): unset,
//! the table has not drawn them, and draws them now from the run's counter, every entry
//! at once, before the pass draws its own (as the reference draws them after tracing and
//! before computation bounds inference); set, they were drawn before the run and end
//! just before it (a `bounds.env.json` sets it to its counter, the reference's at the
//! start of computation bounds inference), and the entries are computed on first use.
//! `docs/pipeline.md` ("The Func value bounds table") has the whole rule.

use std::rc::Rc;

use loopir::Stmt;
use loopir::pipeline::{EnvError, IrStage, LowerCtx, Pass, PassError};
use loopir_simplify::Ctx;

use crate::allocation_bounds::{allocation_bounds_ctx, allocation_bounds_inference_in};
use crate::bounds_of_expr::FuncValueBounds;
use crate::compute_bounds::computation_bounds_inference_with;
use crate::env::BoundsEnv;
use crate::func_value_bounds::{func_value_bounds_drawn_from, func_value_bounds_ending_before};

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

/// The run's Func value bounds table: the one an earlier pass of the run left, or one
/// read from `stmt` (the definitions, for the run's first bounds pass), its names placed
/// as the module docs say, left for the later passes.
fn run_table(lower: &mut LowerCtx, stmt: &Stmt) -> Rc<FuncValueBounds> {
    if let Some(table) = lower.analysis::<FuncValueBounds>() {
        return table;
    }
    let names = lower.names();
    let table = Rc::new(match names.func_value_bounds_end() {
        Some(end) => func_value_bounds_ending_before(stmt, end),
        None => {
            let table = func_value_bounds_drawn_from(names, stmt);
            names.set_func_value_bounds_end(table.names_end());
            table
        }
    });
    lower.set_analysis(Rc::clone(&table));
    table
}

/// After a pass consulted the table: an error if the names of its entries reach the
/// run's own. That happens only with names drawn before the run whose end (the
/// environment's `fresh_names.func_value_bounds_end`) is lower than their number, which
/// the reference's counters never are: they are then numbered from 0 and run past it.
fn check_table_names(lower: &mut LowerCtx, table: &FuncValueBounds) -> Result<(), PassError> {
    match lower.names().func_value_bounds_end() {
        Some(end) if table.names_end() > end => Err(PassError::env(EnvError::field(
            "fresh_names.func_value_bounds_end",
            format!(
                "the Func value bounds table's names should end before {end}, but it draws at least {} `t` \
                 names; the reference's counter stands past every name the table drew (leave the field out \
                 to have the table draw its names in this run)",
                table.names_end()
            ),
        ))),
        _ => Ok(()),
    }
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
        let table = run_table(lower, stmt);
        let out = with_run_names(lower, Ctx::new(), |ctx| {
            computation_bounds_inference_with(ctx, stmt, &env, &table)
        });
        check_table_names(lower, &table)?;
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
        // Without an earlier bounds pass in the run, the Provides of this statement stand
        // in for the definitions.
        let table = run_table(lower, stmt);
        let out = with_run_names(lower, allocation_bounds_ctx(), |ctx| {
            allocation_bounds_inference_in(ctx, stmt, &env, &table)
        });
        check_table_names(lower, &table)?;
        out.map_err(PassError::new)
    }
}
