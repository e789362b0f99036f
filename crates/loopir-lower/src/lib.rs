//! # loopir-lower
//!
//! Lowering passes over loopir IR that are neither bounds inference
//! ([`loopir_bounds`]) nor instrumentation (`loopir-profiling`), after the reference's
//! passes of the same names, one file per pass.
//!
//! | module | what |
//! |---|---|
//! | [`storage_flattening`](mod@storage_flattening) | [`storage_flattening`](fn@storage_flattening): Realize → Allocate, Provide → Store, Func and image calls → Load |
//! | [`zero_gpu_loop_mins`](mod@zero_gpu_loop_mins) | GPU loops rebased to start at zero (the first step of storage flattening) |
//! | [`canonicalize_gpu_vars`](mod@canonicalize_gpu_vars) | [`canonicalize_gpu_vars`](fn@canonicalize_gpu_vars): GPU loops named after their block or thread index (`.block_id_x`), the GPU schedule checked |
//! | [`select_gpu_api`](mod@select_gpu_api) | [`select_gpu_api`](fn@select_gpu_api): `Default_GPU` loops put on the target's device API |
//! | [`inject_host_dev_buffer_copies`](mod@inject_host_dev_buffer_copies) | [`inject_host_dev_buffer_copies`](fn@inject_host_dev_buffer_copies): device allocations, copies, dirty bits and frees of the buffers GPU loops use |
//! | [`flatten_env`] | [`FlattenEnv`]: what storage flattening knows beyond the IR |
//! | [`passes`] | [`CanonicalizeGpuVars`], [`StorageFlattening`], [`SelectGpuApi`], [`InjectHostDevBufferCopies`]: the passes of a [`loopir::pipeline::Pipeline`] |
//! | [`error`] | [`LowerError`] |
//!
//! ```
//! use loopir_lower::{FlattenEnv, FlattenFunc, storage_flattening};
//! use loopir::Type;
//!
//! let mut env = FlattenEnv::default();
//! env.funcs.insert("f".into(), FlattenFunc { args: vec!["x".into()], types: vec![Type::BOOL], ..Default::default() });
//! env.funcs.insert("out".into(), FlattenFunc { args: vec!["x".into()], types: vec![Type::BOOL], ..Default::default() });
//! env.outputs.insert("out".into());
//! let text = "realize f([0, 4]) {\n  for (x, 0, 3) {\n   f(x) = x < 2\n  }\n  out(0) = f(1)\n}\n";
//! let stmt = loopir::parse_stmt_with_env(text, &env.parse_env()).unwrap();
//! let ctx = loopir_simplify::Ctx::new();
//! ctx.seed_t(7);
//! let flat = storage_flattening(&ctx, &stmt, &env).unwrap().to_string();
//! // Booleans are stored in bytes; the output is written through its buffer's symbols.
//! assert!(flat.contains("allocate f[uint8 * 4]\n"));
//! assert!(flat.contains("let t7 = (struct halide_dimension_t *)make_struct(f.min.0, f.extent.0, f.stride.0, 0)"));
//! assert!(flat.contains(" f[0 + ((x - f.min.0)*f.stride.0)] = uint8(x < 2)\n"));
//! assert!(flat.contains("\nout[(0 + (0*out.stride.0)) - (0 + (out.min.0*out.stride.0))] = uint8(uint1(f[0 + ((1 - f.min.0)*f.stride.0)]))\n"));
//! ```

pub mod canonicalize_gpu_vars;
pub mod error;
pub mod flatten_env;
pub mod inject_host_dev_buffer_copies;
pub mod passes;
pub mod select_gpu_api;
pub mod storage_flattening;
pub mod zero_gpu_loop_mins;

pub use canonicalize_gpu_vars::canonicalize_gpu_vars;
pub use error::LowerError;
pub use flatten_env::{FlattenEnv, FlattenFunc, StorageDim, infer_images};
pub use inject_host_dev_buffer_copies::inject_host_dev_buffer_copies;
pub use passes::{CanonicalizeGpuVars, InjectHostDevBufferCopies, SelectGpuApi, StorageFlattening};
pub use select_gpu_api::select_gpu_api;
pub use storage_flattening::storage_flattening;

/// The guide `docs/lower.md`: compiled here so that its examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/lower.md")]
pub struct LowerGuide;

/// The guide `docs/embedding.md` (building IR in a frontend and running every pass on
/// it): compiled here, the crate that lowers, so that its examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../../../docs/embedding.md")]
pub struct EmbeddingGuide;

/// The README's library example, run as a doctest.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
pub struct ReadmeExample;
