//! Which parts of the instrumentation to emit.

/// Switches for the parts of the profiling instrumentation. The default turns everything
/// on, which is exactly what the reference compiler emits for a `profile` target; turning a
/// switch off removes that part of the instrumentation and nothing else.
///
/// The struct is a set of independent flags so that it can later be mapped onto target
/// feature bits or profiling levels without changing the pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ProfileOptions {
    /// Bill heap allocations and releases (`halide_profiler_memory_allocate` / `_free`
    /// and the `malloc` / `free` rows becoming current around them).
    pub heap_memory: bool,
    /// Record static stack peaks per row and hand them to the runtime
    /// (`profiler_func_stack_peak_buf`, `halide_profiler_stack_peak_update`).
    pub stack_peaks: bool,
    /// Track the number of active threads around parallel loops, forks, GPU and Hexagon
    /// launches and the pipeline as a whole (`halide_profiler_incr/decr_active_threads`
    /// with the forced current-row updates that go with them).
    pub thread_activity: bool,
    /// Give leaf parallel tasks a local sampling token (`profiler_local_sampling_token`).
    pub sampling_tokens: bool,
    /// Synchronise the device after each outermost GPU launch and after each copy to the
    /// device, so that device time is billed to the row that caused it.
    pub device_sync: bool,
    /// Give host↔device copy sites their own rows and bill the copies to them.
    pub copy_timing: bool,
}

impl ProfileOptions {
    /// Everything on (the reference behaviour).
    pub const ALL: ProfileOptions = ProfileOptions {
        heap_memory: true,
        stack_peaks: true,
        thread_activity: true,
        sampling_tokens: true,
        device_sync: true,
        copy_timing: true,
    };

    /// Only current-row tracking: every optional part off.
    pub const MINIMAL: ProfileOptions = ProfileOptions {
        heap_memory: false,
        stack_peaks: false,
        thread_activity: false,
        sampling_tokens: false,
        device_sync: false,
        copy_timing: false,
    };
}

impl Default for ProfileOptions {
    fn default() -> Self {
        ProfileOptions::ALL
    }
}
