//! [`Pass`] and [`Pipeline`]: the pass manager. A pass says which IR stage it expects and
//! which it produces; a pipeline runs passes in order over one [`LowerCtx`], checks each
//! pass's stage on entry, runs the verifier between passes when asked, tells observers
//! (save-temps, timings) about each step, and wraps a failure with the pass, the node and
//! the cause.

use std::time::{Duration, Instant};

use super::ctx::LowerCtx;
use super::env::EnvError;
use super::stage::{IrStage, WrongStage, check_stage};
use crate::stmt::Stmt;
use crate::verify::{VerifyErrors, verify};

/// The cause of a pass's failure, boxed.
pub type Cause = Box<dyn std::error::Error + Send + Sync>;

/// Why a pass failed: the IR node (its first line of text) where known, and the cause.
#[derive(Debug, thiserror::Error)]
#[error("{cause}{}", node.as_ref().map(|n| format!(" (at `{n}`)")).unwrap_or_default())]
pub struct PassError {
    /// The offending node, when the cause does not name it already.
    pub node: Option<String>,
    /// What went wrong.
    #[source]
    pub cause: Cause,
}

impl PassError {
    /// A failure with no particular node.
    pub fn new(cause: impl Into<Cause>) -> PassError {
        PassError { node: None, cause: cause.into() }
    }
    /// A failure at `node`.
    pub fn at(node: impl Into<String>, cause: impl Into<Cause>) -> PassError {
        PassError { node: Some(node.into()), cause: cause.into() }
    }
    /// The pass refused its input's stage.
    pub fn wrong_stage(e: WrongStage) -> PassError {
        PassError::new(e)
    }
    /// The environment does not fit the pass or its input.
    pub fn env(e: EnvError) -> PassError {
        // The environment error names its node in its own message.
        PassError::new(e)
    }
}

/// One lowering pass (see the module docs). Each pass crate exports its passes:
/// `loopir_bounds::ComputationBounds`, `loopir_bounds::AllocationBounds`,
/// `loopir_profiling::InjectTracing`, `loopir_profiling::InjectProfiling`.
pub trait Pass {
    /// The name the command line and saved files use (`bounds`, `profile`).
    fn name(&self) -> &'static str;
    /// The stage of the IR the pass accepts; [`Pipeline`] refuses any other before
    /// running it, and the pass checks it again itself (it may run outside a pipeline).
    fn expects(&self) -> IrStage;
    /// The stage of the IR the pass returns.
    fn produces(&self) -> IrStage;
    /// Runs the pass on `stmt`, reading what it needs from `ctx.env()` and drawing fresh
    /// names from `ctx.names()`.
    fn run(&self, stmt: &Stmt, ctx: &mut LowerCtx) -> Result<Stmt, PassError>;
}

/// What stopped a [`Pipeline`].
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// The input or a pass's output failed the verifier.
    #[error("{}: the IR is invalid:\n{errors}", after.as_deref().map_or_else(|| "input".to_owned(), |p| format!("after pass `{p}`")))]
    Invalid {
        /// The pass after which the verifier failed; `None` for the input.
        after: Option<String>,
        /// What the verifier found.
        errors: VerifyErrors,
    },
    /// A pass failed (its stage check, its environment check or its work).
    #[error("pass {index} (`{pass}`): {error}")]
    Pass {
        /// The pass's position, from 1.
        index: usize,
        /// The pass's name.
        pass: &'static str,
        /// Why.
        #[source]
        error: PassError,
    },
    /// An observer failed (e.g. could not save a file).
    #[error("after pass {index} (`{pass}`): {cause}")]
    Observer {
        /// The pass's position, from 1 (0 for the input).
        index: usize,
        /// The pass's name (`input` for the input).
        pass: &'static str,
        /// Why.
        cause: Cause,
    },
}

impl PipelineError {
    /// The pass's own error, if a pass failed.
    pub fn pass_error(&self) -> Option<&PassError> {
        match self {
            PipelineError::Pass { error, .. } => Some(error),
            _ => None,
        }
    }
}

/// Watches a [`Pipeline`] run: `--save-temps` and `--timings` are observers.
pub trait PipelineObserver {
    /// Called with the input (index 0, pass `None`) and after each pass (index from 1)
    /// with its output and how long it took.
    fn after(
        &mut self,
        index: usize,
        pass: Option<&dyn Pass>,
        stmt: &Stmt,
        elapsed: Duration,
    ) -> Result<(), Cause>;
}

/// An observer that records each pass's name and time.
#[derive(Clone, Debug, Default)]
pub struct Timings {
    /// `(pass name, time)` in run order.
    pub passes: Vec<(&'static str, Duration)>,
}

impl PipelineObserver for Timings {
    fn after(
        &mut self,
        _index: usize,
        pass: Option<&dyn Pass>,
        _stmt: &Stmt,
        elapsed: Duration,
    ) -> Result<(), Cause> {
        if let Some(p) = pass {
            self.passes.push((p.name(), elapsed));
        }
        Ok(())
    }
}

/// Passes to run in order over one [`LowerCtx`].
///
/// ```
/// use loopir::pipeline::{IrStage, LowerCtx, Pass, PassError, Pipeline, PipelineEnv};
/// use loopir::Stmt;
///
/// /// A pass that wraps the statement in a let of a fresh name.
/// struct Wrap;
/// impl Pass for Wrap {
///     fn name(&self) -> &'static str { "wrap" }
///     fn expects(&self) -> IrStage { IrStage::Any }
///     fn produces(&self) -> IrStage { IrStage::Any }
///     fn run(&self, s: &Stmt, ctx: &mut LowerCtx) -> Result<Stmt, PassError> {
///         let t = ctx.names().unique_char('t');
///         Ok(Stmt::let_stmt(t, loopir::Expr::i32(0), s.clone()))
///     }
/// }
///
/// let mut ctx = LowerCtx::new(PipelineEnv::new()).unwrap();
/// let s = loopir::parse_stmt("0\n").unwrap();
/// let out = Pipeline::new().with(Wrap).with(Wrap).run(&s, &mut ctx).unwrap();
/// assert_eq!(out.to_string(), "let t1 = 0\nlet t0 = 0\n0\n");
/// ```
#[derive(Default)]
pub struct Pipeline {
    passes: Vec<Box<dyn Pass>>,
}

impl Pipeline {
    /// An empty pipeline.
    pub fn new() -> Pipeline {
        Pipeline::default()
    }

    /// With `pass` appended.
    pub fn with(mut self, pass: impl Pass + 'static) -> Pipeline {
        self.passes.push(Box::new(pass));
        self
    }

    /// Appends a boxed pass.
    pub fn push(&mut self, pass: Box<dyn Pass>) {
        self.passes.push(pass);
    }

    /// The passes, in order.
    pub fn passes(&self) -> impl Iterator<Item = &dyn Pass> {
        self.passes.iter().map(|p| p.as_ref())
    }

    /// Runs the passes over `stmt` (see [`Pipeline::run_observed`]).
    pub fn run(&self, stmt: &Stmt, ctx: &mut LowerCtx) -> Result<Stmt, PipelineError> {
        self.run_observed(stmt, ctx, &mut [])
    }

    /// Runs the passes over `stmt` in order. Before each pass its stage is checked; with
    /// `ctx.options.verify`, the input and each pass's output are verified (with the
    /// environment); each observer sees the input and every pass's output.
    pub fn run_observed(
        &self,
        stmt: &Stmt,
        ctx: &mut LowerCtx,
        observers: &mut [&mut dyn PipelineObserver],
    ) -> Result<Stmt, PipelineError> {
        if ctx.options.verify {
            verify(stmt, Some(ctx.env())).map_err(|errors| PipelineError::Invalid { after: None, errors })?;
        }
        for o in observers.iter_mut() {
            o.after(0, None, stmt, Duration::ZERO).map_err(|cause| PipelineError::Observer {
                index: 0,
                pass: "input",
                cause,
            })?;
        }
        let mut current = stmt.clone();
        for (i, pass) in self.passes.iter().enumerate() {
            let index = i + 1;
            let fail = |error: PassError| PipelineError::Pass { index, pass: pass.name(), error };
            check_stage(&current, pass.expects()).map_err(|e| fail(PassError::wrong_stage(e)))?;
            let start = Instant::now();
            current = pass.run(&current, ctx).map_err(fail)?;
            let elapsed = start.elapsed();
            if ctx.options.verify {
                verify(&current, Some(ctx.env())).map_err(|errors| PipelineError::Invalid {
                    after: Some(pass.name().to_owned()),
                    errors,
                })?;
            }
            for o in observers.iter_mut() {
                o.after(index, Some(pass.as_ref()), &current, elapsed)
                    .map_err(|cause| PipelineError::Observer { index, pass: pass.name(), cause })?;
            }
        }
        Ok(current)
    }
}
