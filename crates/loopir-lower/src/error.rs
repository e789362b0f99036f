//! Errors of the lowering passes.

/// Why a lowering pass refused its input. Every variant names what it is about: the env
/// field, or the IR node by its Func or buffer name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LowerError {
    /// The env is inconsistent in itself (a storage order that is not a permutation of
    /// the Func's arguments, a type that does not parse, ...).
    #[error("env: {field}: {detail}")]
    Env {
        /// The field, as a path (`funcs.f.storage`).
        field: String,
        /// What is wrong with it.
        detail: String,
    },
    /// The IR does not fit the env or the pass's preconditions (a Realize of a Func the env
    /// does not know, a tuple that was not split, ...).
    #[error("{node}: {detail}")]
    Ir {
        /// The node, with its name (`realize f`, `f(...) = ...`, `call g(...)`).
        node: String,
        /// What is wrong with it.
        detail: String,
    },
}

impl LowerError {
    pub(crate) fn env(field: impl Into<String>, detail: impl Into<String>) -> LowerError {
        LowerError::Env { field: field.into(), detail: detail.into() }
    }
    pub(crate) fn ir(node: impl Into<String>, detail: impl Into<String>) -> LowerError {
        LowerError::Ir { node: node.into(), detail: detail.into() }
    }
}
