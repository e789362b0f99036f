//! Errors of IR construction.

/// An IR node could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IrError {
    /// Operand types do not fit the node.
    #[error("ill-typed {node}: {detail}")]
    Type {
        /// The node kind being built.
        node: String,
        /// What was wrong.
        detail: String,
    },
}
