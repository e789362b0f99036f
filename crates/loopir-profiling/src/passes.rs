//! The instrumentation passes as [`Pass`]es of a [`loopir::pipeline::Pipeline`]: each
//! reads its part of the run's [`PipelineEnv`](loopir::pipeline::PipelineEnv) and draws
//! its fresh names from the run's generator.

use loopir::Stmt;
use loopir::pipeline::{IrStage, LowerCtx, Pass, PassError};

use crate::profiling::{ProfileOptions, ProfilingError, has_enable_marker, inject_profiling_in};
use crate::tracing::{TraceOptions, inject_tracing_in};
use crate::{FuncEnv, TraceEnv};

/// Tracing ([`crate::tracing`]): schedule-stage IR in and out, before bounds inference.
#[derive(Clone, Copy, Debug, Default)]
pub struct InjectTracing;

/// Profiling ([`crate::profiling`]): storage-flattened IR in and out, late in lowering.
/// After a run, the profiler report's rows are the context's [`crate::EntryTable`]
/// analysis (`ctx.analysis::<EntryTable>()`).
#[derive(Clone, Copy, Debug, Default)]
pub struct InjectProfiling {
    /// The parts of the instrumentation to emit.
    pub options: ProfileOptions,
    /// Accept input without `profiling_enable_instance_marker()`: the profiler instance
    /// is then never enabled (as the reference does when bounds inference ran without the
    /// target's `profile` feature). Off by default: such input is refused with
    /// [`ProfilingError::MissingEnableMarker`].
    pub allow_missing_marker: bool,
}

impl Pass for InjectTracing {
    fn name(&self) -> &'static str {
        "trace"
    }
    fn expects(&self) -> IrStage {
        IrStage::Schedule
    }
    fn produces(&self) -> IrStage {
        IrStage::Schedule
    }
    fn run(&self, stmt: &Stmt, ctx: &mut LowerCtx) -> Result<Stmt, PassError> {
        let env = TraceEnv::from_pipeline_env(ctx.env());
        inject_tracing_in(stmt, &env, &TraceOptions::default(), ctx.names()).map_err(PassError::new)
    }
}

impl Pass for InjectProfiling {
    fn name(&self) -> &'static str {
        "profile"
    }
    fn expects(&self) -> IrStage {
        IrStage::Flattened
    }
    fn produces(&self) -> IrStage {
        IrStage::Flattened
    }
    fn run(&self, stmt: &Stmt, ctx: &mut LowerCtx) -> Result<Stmt, PassError> {
        if self.options.is_empty() {
            // Level 0: the pass is off and needs nothing.
            return Ok(stmt.clone());
        }
        let env = FuncEnv::from_pipeline_env(ctx.env());
        let pipeline = ctx.env().pipeline.clone().ok_or_else(|| {
            PassError::new("the profile pass needs the pipeline's name: the environment has no `pipeline`")
        })?;
        if !self.allow_missing_marker && !has_enable_marker(stmt) {
            return Err(PassError::new(ProfilingError::MissingEnableMarker));
        }
        let profiled =
            inject_profiling_in(stmt, &pipeline, &env, &self.options, ctx.names()).map_err(PassError::new)?;
        // The rows the profiler will report, for the caller to read after the run
        // (`ctx.analysis::<EntryTable>()`).
        ctx.set_analysis(std::rc::Rc::new(profiled.entries));
        Ok(profiled.stmt)
    }
}
