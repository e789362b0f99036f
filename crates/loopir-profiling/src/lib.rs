//! # loopir-profiling
//!
//! Instrumentation passes over [`loopir`] IR. [`inject_profiling`] rewrites a lowered
//! statement for Halide's sampling profiler exactly as the reference compiler does and
//! returns the profiler's [`EntryTable`] alongside.
//!
//! ```
//! use loopir::parse_stmt;
//! use loopir_profiling::{FuncEnv, FuncInfo, ProfileOptions, inject_profiling};
//!
//! let input = parse_stmt("produce g {\n g[0] = 1.000000f\n}\n").expect("valid .stmt");
//! let env = FuncEnv::new().with(FuncInfo::new("g"));
//! let out = inject_profiling(&input, "pipe", &env, &ProfileOptions::default()).expect("instrumentable");
//! assert_eq!(out.entries.len(), 5);
//! assert!(out.stmt.to_string().contains("halide_profiler_set_current_func(profiler_instance, 4"));
//! ```

pub mod env_file;
mod env_kind;
pub mod passes;
pub mod profiling;

pub use profiling::{
    Entry, EntryKey, EntryKind, EntryTable, EnvError, Feature, FuncEnv, FuncInfo, ProfileOptions, Profiled,
    ProfilingError, UnknownFeature, inject_profiling,
};
pub mod tracing;
pub use env_file::{EnvFile, EnvFileKind, merge_envs, read_env_file};
pub use passes::{InjectProfiling, InjectTracing};
pub use tracing::{TraceEnv, TracingError, check_trace_hierarchy, inject_tracing};
