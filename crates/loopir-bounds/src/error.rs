//! Errors of the bounds analyses.

use loopir::Name;

/// What can go wrong when analysing input IR.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BoundsError {
    /// Two accesses of one Func disagree on the number of dimensions.
    #[error("accesses to `{func}` disagree on dimensionality: {a} and {b} dimensions")]
    DimensionMismatch {
        /// The Func or buffer name.
        func: Name,
        /// Dimensions of the first box.
        a: usize,
        /// Dimensions of the second box.
        b: usize,
    },
    /// Two boxes of different dimensionality were combined.
    #[error("cannot combine boxes of {a} and {b} dimensions")]
    BoxDimensions {
        /// Dimensions of the first box.
        a: usize,
        /// Dimensions of the second box.
        b: usize,
    },
    /// The input uses a feature this pass does not handle (yet); nothing is approximated.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A consumer reads a producer over an unbounded region (Halide's message).
    #[error("{0}")]
    UnboundedCall(String),
    /// The bounds env could not be read.
    #[error("bounds env: {0}")]
    Env(String),
    /// The bounds env does not fit the statement (see
    /// [`BoundsEnv::check_against`](crate::env::BoundsEnv::check_against)).
    #[error("bounds env: {0}")]
    EnvMismatch(loopir::pipeline::EnvError),
    /// The statement is not at the stage the pass expects.
    #[error("{0}")]
    WrongStage(loopir::pipeline::WrongStage),
    /// A realized Func is accessed over a region with an infinite end.
    #[error("{func} is accessed over an unbounded domain in dimension {dim}")]
    Unbounded {
        /// The Func.
        func: Name,
        /// The dimension's argument name.
        dim: String,
    },
    /// An expression node had operand types that do not fit together.
    #[error("ill-typed input: {0}")]
    IllTyped(String),
}
