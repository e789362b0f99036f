//! [`LowerCtx`]: what the passes of one lowering run share — the pipeline's environment,
//! the one fresh-name generator, the analyses one pass computes for a later one, and the
//! run's options. Cranelift's `Context` and rustc's `TyCtxt` play this part there.

use std::any::{Any, TypeId};
use std::rc::Rc;

use rustc_hash::FxHashMap;

use super::env::{EnvError, PipelineEnv};
use super::names::NameGen;

/// Options of a lowering run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LowerOptions {
    /// Run the verifier ([`crate::verify`]) on the input and after every pass. On by
    /// default in builds with debug assertions (tests, fuzzing), off in release builds.
    pub verify: bool,
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions { verify: cfg!(debug_assertions) }
    }
}

/// The state the passes of one run share (see the module docs).
///
/// ```
/// use loopir::pipeline::{LowerCtx, PipelineEnv};
///
/// let mut env = PipelineEnv::new();
/// env.fresh_names.chars.insert('t', 7);
/// let mut ctx = LowerCtx::new(env).unwrap();
/// assert_eq!(ctx.names().unique_char('t').as_ref(), "t7");
/// // After the run, the environment records where the counters stand.
/// assert_eq!(ctx.finish().fresh_names.chars[&'t'], 8);
/// ```
pub struct LowerCtx {
    env: PipelineEnv,
    names: NameGen,
    analyses: FxHashMap<TypeId, Rc<dyn Any>>,
    /// The run's options.
    pub options: LowerOptions,
}

impl std::fmt::Debug for LowerCtx {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LowerCtx")
            .field("env", &self.env)
            .field("names", &self.names)
            .field("analyses", &self.analyses.len())
            .field("options", &self.options)
            .finish()
    }
}

impl LowerCtx {
    /// A context for a run over `env`, which is validated; the name generator starts
    /// where `env.fresh_names` says.
    pub fn new(env: PipelineEnv) -> Result<LowerCtx, EnvError> {
        env.validate()?;
        let names = NameGen::from_state(&env.fresh_names)
            .map_err(|e| EnvError::field(format!("fresh_names.{}", e.family), e.to_string()))?;
        Ok(LowerCtx { env, names, analyses: FxHashMap::default(), options: LowerOptions::default() })
    }

    /// The pipeline's environment.
    pub fn env(&self) -> &PipelineEnv {
        &self.env
    }

    /// The run's fresh-name generator.
    pub fn names(&mut self) -> &mut NameGen {
        &mut self.names
    }

    /// Takes the generator out, for a pass that hands it to an analysis context for its
    /// run; the pass must give it back with [`LowerCtx::restore_names`].
    pub fn take_names(&mut self) -> NameGen {
        std::mem::take(&mut self.names)
    }

    /// Gives back the generator taken by [`LowerCtx::take_names`].
    pub fn restore_names(&mut self, names: NameGen) {
        self.names = names;
    }

    /// The analysis of type `T` an earlier pass of the run left, if any.
    pub fn analysis<T: Any>(&self) -> Option<Rc<T>> {
        self.analyses.get(&TypeId::of::<T>()).and_then(|a| Rc::clone(a).downcast::<T>().ok())
    }

    /// Leaves an analysis for later passes of the run (replacing one of the same type).
    pub fn set_analysis<T: Any>(&mut self, analysis: Rc<T>) {
        self.analyses.insert(TypeId::of::<T>(), analysis);
    }

    /// Ends the run: the environment, with `fresh_names` where the counters stand now
    /// (feed it to the next run to continue the numbering).
    pub fn finish(self) -> PipelineEnv {
        let mut env = self.env;
        env.fresh_names = self.names.state();
        env
    }
}
