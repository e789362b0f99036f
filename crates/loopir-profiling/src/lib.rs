//! tmp
pub mod tracing;
pub use tracing::{TraceEnv, TracingError, check_trace_hierarchy, inject_tracing};
