//! The ways `inject_profiling` can refuse its input.
//!
//! Each variant corresponds to an input on which the reference compiler would trip an
//! internal assertion, read out of bounds or raise a user error. The message names the
//! offending node (as it prints in `.stmt` text) and says what the pass expected instead.

use loopir::IrError;

/// Why profiling could not be injected into a statement.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProfilingError {
    /// The statement is not storage-flattened IR.
    #[error("{0}")]
    WrongStage(loopir::pipeline::WrongStage),

    /// The statement has no `profiling_enable_instance_marker()` (see
    /// [`crate::profiling::has_enable_marker`]).
    #[error(
        "the statement has no `profiling_enable_instance_marker()`: computation bounds inference leaves it when the \
         target has the `profile` feature, and without it no profiler instance is ever enabled (run bounds \
         inference with `target.profile`, or accept the input without it: `InjectProfiling::allow_missing_marker`)"
    )]
    MissingEnableMarker,

    /// A `free` whose buffer has no enclosing `allocate` (the pass needs the size recorded
    /// at the allocation to bill the release).
    #[error("`free {name}` has no enclosing `allocate {name}`; every Free must sit inside its Allocate")]
    FreeWithoutAllocate {
        /// The freed buffer.
        name: String,
    },

    /// A produce/consume or allocation name that begins with `.` and is not itself a Func:
    /// its Func prefix (the text before the first `.`) would be empty.
    #[error("`{node}`: the name `{name}` starts with `.`, so the Func it belongs to cannot be determined")]
    NameStartsWithDot {
        /// The node kind and name as printed, e.g. `allocate .x`.
        node: String,
        /// The name.
        name: String,
    },

    /// A `halide_copy_to_host` / `halide_copy_to_device` call bound by a `let` has no arguments.
    #[error(
        "`{node}`: {callee} is called with no arguments; expected the buffer variable `<func>.buffer` first"
    )]
    CopyWithoutArguments {
        /// The let header, e.g. `let r = halide_copy_to_host()`.
        node: String,
        /// The callee.
        callee: String,
    },

    /// The first argument of a copy call is not a variable named `<func>.buffer`.
    #[error(
        "`{node}`: the first argument of {callee} is `{argument}`; expected a variable named `<func>.buffer`"
    )]
    CopyBufferNotABufferVariable {
        /// The let header.
        node: String,
        /// The callee.
        callee: String,
        /// The first argument as printed.
        argument: String,
    },

    /// A copy-to-device call has no device-interface argument to reuse for the device sync.
    #[error(
        "`{node}`: halide_copy_to_device needs a device interface as its last argument, but has only the buffer"
    )]
    CopyToDeviceWithoutInterface {
        /// The let header.
        node: String,
    },

    /// The body of a copy `let` is not its error-check assert (alone or first in a block).
    #[error(
        "`{node}`: the body of a buffer-copy let must start with `assert({name} == 0, {name})`, found `{found}`"
    )]
    CopyWithoutAssert {
        /// The let header.
        node: String,
        /// The let-bound result name.
        name: String,
        /// The first line of what was found instead.
        found: String,
    },

    /// An allocation whose extents are all constant has more than 2³¹ − 1 elements.
    #[error("`allocate {name}`: total size is constant but exceeds 2^31 - 1 elements")]
    ConstantAllocationTooLarge {
        /// The buffer.
        name: String,
    },

    /// The environment contradicts the statement: a produce or consume node names no Func
    /// of it, or a Func marked not to be profiled does not occur (see
    /// [`FuncEnv::check_against`](super::FuncEnv::check_against)).
    #[error("the profiling environment does not fit the statement: `{field}`: {problem}")]
    EnvMismatch {
        /// The offending field, as a path into the JSON form (`funcs[2].profile`).
        field: String,
        /// What is wrong, naming the IR node where there is one.
        problem: String,
        /// The IR node it disagrees with (e.g. `produce f`), if there is one.
        node: Option<String>,
    },

    /// An IR node built by the pass was rejected by its constructor (a type the input
    /// supplied did not fit where the pass had to put it).
    #[error("could not build profiling IR: {0}")]
    Ir(#[from] IrError),
}

impl ProfilingError {
    /// Whether the error is about the environment not fitting the statement rather than
    /// about the statement alone: a caller that read the environment from a file should
    /// name that file.
    pub fn is_env_error(&self) -> bool {
        matches!(self, ProfilingError::EnvMismatch { .. })
    }
}

/// Why a profiling environment could not be read.
#[derive(Debug, thiserror::Error)]
pub enum EnvError {
    /// The JSON text did not match the `profile.env.json` schema: not JSON, a field of the
    /// wrong type, an unknown field (the message gives its path, such as `funcs[3].nmae`,
    /// and its line and column), or another pass's environment file (the hint says
    /// which).
    #[error("invalid profiling environment JSON: {source}{hint}")]
    Json {
        /// The field's path and what serde_json reported.
        source: loopir::pipeline::env::EnvError,
        /// Empty, or a sentence naming the kind of environment the text looks like.
        hint: String,
    },
    /// The same Func is listed twice.
    #[error("Func `{0}` is listed more than once in the profiling environment")]
    DuplicateFunc(String),
}
