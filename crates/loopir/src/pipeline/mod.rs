//! Running several passes in a row: one description of the pipeline ([`PipelineEnv`]),
//! one lowering context with one fresh-name generator ([`LowerCtx`], [`NameGen`]), and a
//! pass manager ([`Pass`], [`Pipeline`]). The guide is `docs/pipeline.md`.
//!
//! These live in the IR crate because every pass crate implements [`Pass`] and depends
//! on this crate already: a separate crate would add a node to the dependency graph
//! without removing an edge.
//!
//! | module | what |
//! |---|---|
//! | [`env`](mod@env) | [`PipelineEnv`], its JSON schema, validation and checks against the IR |
//! | [`json_path`] | reading JSON with errors that name the field |
//! | [`names`] | [`NameGen`]: the reference's `unique_name` |
//! | [`ctx`] | [`LowerCtx`]: env, names, shared analyses, options |
//! | [`pass`](mod@pass) | [`Pass`], [`Pipeline`], observers, errors |
//! | [`stage`] | [`IrStage`]: schedule stage vs storage-flattened, checked on entry |

pub mod ctx;
pub mod env;
pub mod json_path;
pub mod names;
pub mod pass;
pub mod stage;

pub use ctx::{LowerCtx, LowerOptions};
pub use env::{
    BoundDesc, ConstraintDesc, EnvError, FuncDesc, ImageDesc, OutputDesc, ParamDesc, PipelineEnv, RVarDesc,
    TargetDesc, UpdateDesc,
};
pub use names::{CounterOutOfRange, MAX_COUNTER, NameGen, NameGenState, first_unused_temp};
pub use pass::{Cause, Pass, PassError, Pipeline, PipelineError, PipelineObserver, Timings};
pub use stage::{IrStage, StageEvidence, WrongStage, check_stage};
