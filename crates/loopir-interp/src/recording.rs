//! [`RecordingRuntime`]: a [`Runtime`] that keeps the profiler's statistics and the
//! trace log of a run, for `loopir run --profile` and `--trace`.

use crate::error::{ErrorKind, InterpError};
use crate::profiler::{ProfileClock, Profiler};
use crate::runtime::{ProfilerCall, Runtime, RuntimeCx, TraceEvent};
use crate::tracer::TraceLog;

/// The runtime of a profiled or traced run: profiler calls update [`Profiler`], trace
/// calls are appended to [`TraceLog`] (and get its event ids); extern functions are
/// unknown, as in [`HostRuntime`](crate::HostRuntime).
///
/// ```
/// use loopir_interp::{Buffer, Elem, Limits, Machine, RecordingRuntime, compile};
///
/// let text = "let t = halide_trace_helper(\"f\", (void *)make_struct(), (int32_t *)make_struct(), 3, 0, 0, 8, 0, 0, 0, 0, \"\")\n\
///             let u = halide_trace_helper(\"f\", (void *)make_struct(), (int32_t *)make_struct(), 3, 0, 0, 9, t, 0, 0, 0, \"\")\n\
///             out[0] = 1\n";
/// let program = compile(&loopir::parse_stmt(text)?)?;
/// let mut runtime = RecordingRuntime::default();
/// let mut machine = Machine::new(&program, &mut runtime, Limits::default())?;
/// machine.bind_buffer("out", &Buffer::new(Elem::I32, &[0], &[1]))?;
/// machine.run()?;
/// drop(machine);
/// assert_eq!(runtime.trace.len(), 2);
/// assert!(runtime.trace.violations().is_empty());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct RecordingRuntime {
    /// The profiler's state.
    pub profiler: Profiler,
    /// The trace log.
    pub trace: TraceLog,
}

impl RecordingRuntime {
    /// A runtime whose profiler bills time by `clock`.
    pub fn new(clock: ProfileClock) -> RecordingRuntime {
        RecordingRuntime { profiler: Profiler::new(clock), trace: TraceLog::new() }
    }
}

impl Runtime for RecordingRuntime {
    fn profiler(&mut self, call: &ProfilerCall, cx: &mut RuntimeCx<'_>) -> Result<i64, InterpError> {
        self.profiler.call(call, cx)
    }

    fn trace(&mut self, event: &TraceEvent, cx: &mut RuntimeCx<'_>) -> Result<i32, InterpError> {
        let id = self.trace.record(event, cx.thread_id, cx.parent_thread)?;
        // A traced run of a large pipeline logs millions of events: the log counts
        // against the run's memory limit, as the program's own memory does.
        let (log, live, limit) = (self.trace.bytes(), cx.heap.live_bytes(), cx.heap.limit());
        if log.saturating_add(live) > limit {
            return Err(InterpError::new(
                ErrorKind::Limit,
                format!(
                    "the trace log ({log} bytes, {} events) and the program's live memory ({live} bytes) \
                     exceed the memory limit of {limit} bytes",
                    self.trace.len()
                ),
            ));
        }
        Ok(id)
    }
}
