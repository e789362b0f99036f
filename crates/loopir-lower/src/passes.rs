//! The lowering passes of this crate as [`Pass`]es of a [`loopir::pipeline::Pipeline`],
//! for frontends that run every pass over one [`LowerCtx`]: [`CanonicalizeGpuVars`],
//! [`StorageFlattening`], [`SelectGpuApi`], [`InjectHostDevBufferCopies`].

use loopir::Stmt;
use loopir::pipeline::{IrStage, LowerCtx, Pass, PassError};
use loopir_bounds::env::BoundsEnv;

use crate::canonicalize_gpu_vars::canonicalize_gpu_vars;
use crate::flatten_env::{FlattenEnv, StorageDim, infer_images};
use crate::inject_host_dev_buffer_copies::inject_host_dev_buffer_copies;
use crate::select_gpu_api::select_gpu_api;
use crate::storage_flattening::storage_flattening;

/// Storage flattening ([`crate::storage_flattening`](fn@crate::storage_flattening)):
/// schedule-stage IR in, storage-flattened IR out. Its [`FlattenEnv`] is made from the
/// bounds part of the run's [`PipelineEnv`](loopir::pipeline::PipelineEnv) and its Funcs'
/// `storage_order`, with the images the statement loads ([`infer_images`]); it draws `t` names from the run's
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
        // A bounds env has no storage order; the pipeline env's is the Func's storage
        // dimensions (validated as a permutation of its arguments).
        for f in &lower.env().funcs {
            if let (Some(order), Some(func)) = (&f.storage_order, env.funcs.get_mut(&f.name)) {
                func.storage = order.iter().map(|v| StorageDim::plain(v)).collect();
            }
        }
        env.validate().map_err(PassError::new)?;
        env.images = infer_images(stmt, &env);
        if let Some(image) = env.images.iter().find(|i| env.buffer_func(i).is_some()) {
            return Err(PassError::new(format!("image `{image}` is also a Func of the environment")));
        }
        let mut names = lower.take_names();
        let raised = names.raise_char('t', loopir::pipeline::first_unused_temp(stmt));
        let ctx = loopir_simplify::Ctx::new();
        ctx.set_names(names);
        let out = raised
            .map_err(PassError::new)
            .and_then(|()| storage_flattening(&ctx, stmt, &env).map_err(PassError::new));
        lower.restore_names(ctx.take_names());
        out
    }
}

/// Canonical GPU loop names ([`crate::canonicalize_gpu_vars`](fn@crate::canonicalize_gpu_vars)):
/// schedule-stage IR in and out, after allocation bounds inference and before storage
/// flattening, as the reference runs it on targets with a GPU feature. It reads nothing
/// of the environment.
#[derive(Clone, Copy, Debug, Default)]
pub struct CanonicalizeGpuVars;

impl Pass for CanonicalizeGpuVars {
    fn name(&self) -> &'static str {
        "gpu_vars"
    }
    fn expects(&self) -> IrStage {
        IrStage::Schedule
    }
    fn produces(&self) -> IrStage {
        IrStage::Schedule
    }
    fn run(&self, stmt: &Stmt, _: &mut LowerCtx) -> Result<Stmt, PassError> {
        canonicalize_gpu_vars(stmt).map_err(PassError::new)
    }
}

/// The device API of `Default_GPU` loops ([`crate::select_gpu_api`](fn@crate::select_gpu_api)):
/// storage-flattened IR in and out, as the reference runs it just after storage
/// flattening. It reads the environment's `target.default_device_api`, and refuses to run
/// without one (the reference runs it only for targets with a device feature).
#[derive(Clone, Copy, Debug, Default)]
pub struct SelectGpuApi;

impl Pass for SelectGpuApi {
    fn name(&self) -> &'static str {
        "gpu_api"
    }
    fn expects(&self) -> IrStage {
        IrStage::Flattened
    }
    fn produces(&self) -> IrStage {
        IrStage::Flattened
    }
    fn run(&self, stmt: &Stmt, lower: &mut LowerCtx) -> Result<Stmt, PassError> {
        let Some(api) = lower.env().target.default_device_api else {
            return Err(PassError::new(
                "the environment's target has no `default_device_api` (e.g. \"CUDA\") to run GPU loops on",
            ));
        };
        select_gpu_api(stmt, api).map_err(PassError::new)
    }
}

/// The device allocations, copies and dirty bits of the buffers GPU loops use
/// ([`crate::inject_host_dev_buffer_copies`](fn@crate::inject_host_dev_buffer_copies)):
/// storage-flattened IR in and out, just after [`SelectGpuApi`] as in the reference. It
/// reads nothing of the environment; the names of the runtime calls' results
/// (`halide_copy_to_device_result`, ...) come from the run's generator.
#[derive(Clone, Copy, Debug, Default)]
pub struct InjectHostDevBufferCopies;

impl Pass for InjectHostDevBufferCopies {
    fn name(&self) -> &'static str {
        "host_dev_copies"
    }
    fn expects(&self) -> IrStage {
        IrStage::Flattened
    }
    fn produces(&self) -> IrStage {
        IrStage::Flattened
    }
    fn run(&self, stmt: &Stmt, lower: &mut LowerCtx) -> Result<Stmt, PassError> {
        inject_host_dev_buffer_copies(stmt, lower.names()).map_err(PassError::new)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use loopir::pipeline::PipelineEnv;

    #[test]
    fn the_pipeline_envs_storage_order_lays_out_the_allocation() {
        let env = PipelineEnv::from_json(
            r#"{"version": 1, "order": ["f", "out"], "outputs": [{"func": "out"}], "funcs": [
              {"name": "f", "args": ["x", "y"], "types": ["int32"], "storage_order": ["y", "x"]},
              {"name": "out", "args": ["x"], "types": ["int32"]}]}"#,
        )
        .expect("the env reads");
        let text = "realize f([0, 4], [0, 8]) {\n  f(1, 2) = 3\n  out(0) = f(1, 2)\n}\n";
        let stmt = loopir::parse_stmt_with_env(text, &env.parse_env()).expect("the statement parses");
        let mut ctx = LowerCtx::new(env).expect("the env is valid");
        let flat = StorageFlattening.run(&stmt, &mut ctx).expect("the pass runs").to_string();
        // y is stored innermost: its stride is 1, x's is y's extent.
        assert!(flat.contains("let f.stride.1 = 1\n"), "{flat}");
        assert!(flat.contains("let f.stride.0 = f.stride.1*8\n"), "{flat}");
    }
}
