//! Names the pass introduces, and the generator that keeps them clear of the input's.
//!
//! The reference draws its names from a process-wide counter ("first use bare, then
//! `$1`, `$2`, …"). Here each pass run owns a [`FreshNames`] seeded with the candidate
//! names the input already uses, so a fresh name never captures or shadows an input name
//! and no state outlives the call.

use rustc_hash::FxHashSet;

/// The intrinsic bounds inference leaves where statistics collection should start.
pub(crate) const ENABLE_MARKER: loopir::Intrinsic = loopir::Intrinsic::ProfilingEnableInstanceMarker;

/// Base names of the pass's own variables and buffers, in the order the reference
/// requests them.
pub(crate) const PROFILER_INSTANCE: &str = "profiler_instance";
pub(crate) const LOCAL_SAMPLING_TOKEN: &str = "profiler_local_sampling_token";
pub(crate) const SHARED_SAMPLING_TOKEN: &str = "profiler_shared_sampling_token";
pub(crate) const HVX_PROFILER_INSTANCE: &str = "hvx_profiler_instance";
pub(crate) const FUNC_NAMES: &str = "profiler_func_names";
pub(crate) const FUNC_PARENTS: &str = "profiler_func_parents";
pub(crate) const FUNC_CANONICAL_IDS: &str = "profiler_func_canonical_ids";
pub(crate) const FUNC_STACK_PEAK_BUF: &str = "profiler_func_stack_peak_buf";
pub(crate) const FUNC_KINDS: &str = "profiler_func_kinds";
pub(crate) const FUNC_BUFFER_FUNC_IDS: &str = "profiler_func_buffer_func_ids";
pub(crate) const START_ERROR_CODE: &str = "profiler_start_error_code";
pub(crate) const DEVICE_SYNC_RESULT: &str = "halide_device_sync_global_result";

/// Whether an input name could collide with a name this pass generates (all of them start
/// with `profiler_`, `hvx_profiler_instance` or `halide_device_sync_global_result`).
pub(crate) fn is_reserved_candidate(name: &str) -> bool {
    match name.as_bytes().first() {
        Some(b'p') => name.starts_with("profiler_"),
        Some(b'h') => name.starts_with(HVX_PROFILER_INSTANCE) || name.starts_with(DEVICE_SYNC_RESULT),
        _ => false,
    }
}

/// A per-run source of fresh names: the run's generator (the reference's
/// `unique_name(base)`: the base itself first, later `base$1`, `base$2`, …), skipping any
/// name the input already uses.
#[derive(Debug, Default)]
pub(crate) struct FreshNames {
    taken: FxHashSet<String>,
    names: loopir::pipeline::NameGen,
}

impl FreshNames {
    /// A generator that avoids `taken`, drawing from a fresh generator.
    #[cfg(test)]
    pub fn new(taken: FxHashSet<String>) -> FreshNames {
        FreshNames::with_names(taken, loopir::pipeline::NameGen::new())
    }

    /// A generator that avoids `taken`, drawing from `names` (the run's).
    pub fn with_names(taken: FxHashSet<String>, names: loopir::pipeline::NameGen) -> FreshNames {
        FreshNames { taken, names }
    }

    /// The generator drawn from, with what this run drew.
    pub fn into_names(self) -> loopir::pipeline::NameGen {
        self.names
    }

    /// A name for `base` not yet used in the input nor handed out before.
    pub fn fresh(&mut self, base: &'static str) -> String {
        loop {
            let candidate = self.names.unique(base).to_string();
            if self.taken.insert(candidate.clone()) {
                return candidate;
            }
        }
    }
}

/// The fixed names of one run, requested in the reference's order.
#[derive(Debug)]
pub(crate) struct ProfilerNames {
    pub instance: String,
    pub local_token: String,
    pub shared_token: String,
    pub hvx_instance: String,
    pub func_names: String,
    pub func_parents: String,
    pub func_canonical_ids: String,
    pub stack_peak_buf: String,
    pub func_kinds: String,
    pub func_buffer_func_ids: String,
    pub start_error_code: String,
}

impl ProfilerNames {
    pub fn new(fresh: &mut FreshNames) -> ProfilerNames {
        ProfilerNames {
            instance: fresh.fresh(PROFILER_INSTANCE),
            local_token: fresh.fresh(LOCAL_SAMPLING_TOKEN),
            shared_token: fresh.fresh(SHARED_SAMPLING_TOKEN),
            hvx_instance: fresh.fresh(HVX_PROFILER_INSTANCE),
            func_names: fresh.fresh(FUNC_NAMES),
            func_parents: fresh.fresh(FUNC_PARENTS),
            func_canonical_ids: fresh.fresh(FUNC_CANONICAL_IDS),
            stack_peak_buf: fresh.fresh(FUNC_STACK_PEAK_BUF),
            func_kinds: fresh.fresh(FUNC_KINDS),
            func_buffer_func_ids: fresh.fresh(FUNC_BUFFER_FUNC_IDS),
            start_error_code: fresh.fresh(START_ERROR_CODE),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_use_is_bare_then_numbered_skipping_taken_names() {
        let taken: FxHashSet<String> =
            ["halide_device_sync_global_result$1".to_owned()].into_iter().collect();
        let mut f = FreshNames::new(taken);
        assert_eq!(f.fresh(DEVICE_SYNC_RESULT), "halide_device_sync_global_result");
        assert_eq!(f.fresh(DEVICE_SYNC_RESULT), "halide_device_sync_global_result$2");
        assert_eq!(f.fresh(PROFILER_INSTANCE), "profiler_instance");
    }
}
