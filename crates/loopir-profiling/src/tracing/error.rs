//! Errors of the tracing pass.

use loopir::IrError;

/// Why [`inject_tracing`](super::inject_tracing) could not instrument a statement, or why a
/// [`TraceEnv`](super::TraceEnv) could not be read.
///
/// Every variant that stems from the statement names the offending node (its printed text,
/// shortened when long) or the Func / image it concerns.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TracingError {
    /// The environment's JSON text could not be read.
    #[error("invalid trace environment JSON: {0}")]
    EnvJson(String),
    /// The environment is inconsistent (duplicate names, an unknown type spelling, ...).
    #[error("invalid trace environment: {0}")]
    InvalidEnv(String),
    /// A call of kind Halide names a Func that the environment does not describe.
    #[error("the call `{call}` reads Func `{name}`, which is not a Func of the trace environment")]
    UnknownFunc {
        /// The Func name.
        name: String,
        /// The call, as printed.
        call: String,
    },
    /// A call of kind Image names an image that the environment does not describe.
    #[error("the image load `{call}` reads `{name}`, which is not an image of the trace environment")]
    UnknownImage {
        /// The image name.
        name: String,
        /// The call, as printed.
        call: String,
    },
    /// Two accesses to one Func or image disagree on the type of a tuple element. This
    /// includes Halide's internal error for a traced load of element `i > 0` met before any
    /// access of a lower element that later turns out to have a real type (spec §13 edge 3).
    #[error("value {value_index} of `{name}` was recorded as {recorded} but `{node}` accesses it as {found}")]
    TypeConflict {
        /// The Func or image.
        name: String,
        /// The tuple element.
        value_index: u32,
        /// The recorded type (`handle0` for an element never accessed yet).
        recorded: String,
        /// The type of the new access.
        found: String,
        /// The access, as printed.
        node: String,
    },
    /// A user trace tag contains a NUL character, which the runtime cannot carry.
    #[error("trace tag {tag:?} of `{name}` contains a NUL character")]
    NulInTag {
        /// The Func or image the tag belongs to.
        name: String,
        /// The tag text.
        tag: String,
    },
    /// The boxes-touched analysis failed.
    #[error("boxes-touched analysis failed: {0}")]
    BoxAnalysis(String),
    /// A traced Func or image has no entry in the boxes-touched result.
    #[error("`{name}` has tracing events but the boxes-touched analysis reports no box for it")]
    MissingBox {
        /// The Func or image.
        name: String,
    },
    /// An IR node could not be built (operand types did not fit).
    #[error("could not build {what}: {source}")]
    Ir {
        /// What was being built, naming the node it instruments.
        what: String,
        /// The constructor's complaint.
        source: IrError,
    },
}

/// Text of a node for an error message: the printed form, cut after a few hundred
/// characters so that messages stay readable.
pub(crate) fn shorten(text: String) -> String {
    const LIMIT: usize = 240;
    if text.len() <= LIMIT {
        return text;
    }
    let mut cut = LIMIT;
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    format!("{} …", &text[..cut])
}
