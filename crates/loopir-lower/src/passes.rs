//! Storage flattening as a [`Pass`] of a [`loopir::pipeline::Pipeline`], for frontends
//! that run every pass over one [`LowerCtx`].

use loopir::Stmt;
use loopir::pipeline::{IrStage, LowerCtx, Pass, PassError};
use loopir_bounds::env::BoundsEnv;

use crate::flatten_env::{FlattenEnv, infer_images};
use crate::fresh_names::first_unused_t;
use crate::storage_flattening::storage_flattening;

/// Storage flattening ([`crate::storage_flattening`](fn@crate::storage_flattening)):
/// schedule-stage IR in, storage-flattened IR out. Its [`FlattenEnv`] is made from the
/// bounds part of the run's [`PipelineEnv`](loopir::pipeline::PipelineEnv), with the
/// images the statement loads ([`infer_images`]); it draws `t` names from the run's
/// generator, raised past every `t<N>` the statement already uses (the passes before it
/// may have minted some outside the generator).
#[derive(Clone, Copy, Debug, Default)]
pub struct StorageFlattening;

impl Pass for StorageFlattening {
    fn name(&self) -> &'static str {
        "flatten"
    }
    fn expects(&self) -> IrStage {
        IrStage::Schedule
    }
    fn produces(&self) -> IrStage {
        IrStage::Flattened
    }
    fn run(&self, stmt: &Stmt, lower: &mut LowerCtx) -> Result<Stmt, PassError> {
        let bounds = BoundsEnv::from_pipeline_env(lower.env());
        let mut env = FlattenEnv::from_bounds_env(&bounds).map_err(PassError::new)?;
        env.images = infer_images(stmt, &env);
        if let Some(image) = env.images.iter().find(|i| env.buffer_func(i).is_some()) {
            return Err(PassError::new(format!("image `{image}` is also a Func of the environment")));
        }
        let mut names = lower.take_names();
        let raised = names.raise_char('t', first_unused_t(stmt));
        let ctx = loopir_simplify::Ctx::new();
        ctx.set_names(names);
        let out = raised
            .map_err(PassError::new)
            .and_then(|()| storage_flattening(&ctx, stmt, &env).map_err(PassError::new));
        lower.restore_names(ctx.take_names());
        out
    }
}
