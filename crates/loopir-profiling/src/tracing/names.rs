//! Fresh names for value temporaries (`t<N>`) and parallel tasks (`parallel_task`,
//! `parallel_task$1`, ...), `docs/reference/tracing.md` §11.
//!
//! Halide draws both from process-wide counters. Here the counters belong to one run of
//! the pass: the temporaries continue after the highest `t<N>` already present in the input
//! ([`loopir::pipeline::first_unused_temp`], which reproduces the reference's numbering
//! when earlier passes used the same prefix), and task names start from the first one
//! unless told otherwise.

use loopir::Name;

use super::error::TracingError;

/// Hands out the names the pass introduces, from the run's generator (the reference's
/// `unique_name('t')` and `unique_name("parallel_task")`).
pub(crate) struct NameGen {
    names: loopir::pipeline::NameGen,
}

impl NameGen {
    /// A generator whose `t` family continues at `first_temp` and whose task family at
    /// `first_task`; an error when either is beyond the reference's counters.
    pub(crate) fn new(first_temp: u64, first_task: u64) -> Result<NameGen, TracingError> {
        let mut names = loopir::pipeline::NameGen::new();
        names.set_next_char('t', first_temp).map_err(|_| TracingError::NamesExhausted { family: "t<N>" })?;
        names
            .set_next_prefixed("parallel_task", first_task)
            .map_err(|_| TracingError::NamesExhausted { family: "parallel_task$<N>" })?;
        Ok(NameGen { names })
    }

    /// Draws from `names`, the run's generator.
    pub(crate) fn from_run(names: loopir::pipeline::NameGen) -> NameGen {
        NameGen { names }
    }

    /// The run's generator back.
    pub(crate) fn into_run(self) -> loopir::pipeline::NameGen {
        self.names
    }

    /// The next value temporary, `t<N>`.
    pub(crate) fn temp(&mut self) -> Result<Name, TracingError> {
        Ok(self.names.unique_char('t'))
    }

    /// The underlying generator, for an analysis that draws from it directly.
    pub(crate) fn run_mut(&mut self) -> &mut loopir::pipeline::NameGen {
        &mut self.names
    }

    /// The next parallel-task scope name.
    pub(crate) fn task(&mut self) -> Result<Name, TracingError> {
        Ok(self.names.unique("parallel_task"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn task_names_follow_halide() {
        let mut g = NameGen::new(0, 0).expect("in range");
        assert_eq!(g.task().expect("fresh").as_ref(), "parallel_task");
        assert_eq!(g.task().expect("fresh").as_ref(), "parallel_task$1");
        assert_eq!(g.temp().expect("fresh").as_ref(), "t0");
        assert_eq!(g.temp().expect("fresh").as_ref(), "t1");
    }

    #[test]
    fn counters_beyond_the_reference_s_are_an_error() {
        let last = loopir::pipeline::MAX_COUNTER;
        let mut g = NameGen::new(last, 0).expect("the largest counter");
        assert_eq!(g.temp().expect("in range").as_ref(), format!("t{last}"));
        assert_eq!(NameGen::new(last + 1, 0).err(), Some(TracingError::NamesExhausted { family: "t<N>" }));
        assert!(NameGen::new(0, u64::MAX).is_err());
    }
}
