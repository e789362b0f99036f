//! The nodes that bind a name over a scope, as the walks announce them.
//!
//! Five kinds of node bring a name into scope for part of their children: a `let`
//! statement and a `let` expression bind a value over their body, a loop binds its
//! variable, an allocation its buffer and a realization its Func over theirs. Passes need
//! to know what is in scope (the value of a let, the range of a loop variable, the type of
//! a buffer); the walks of [`crate::visit`] and [`crate::mutate`] call `enter_scope` with a
//! [`Binder`] just before the scoped child and `leave_scope` just after it, so that a pass
//! keeps its scope tables in those two hooks instead of re-walking these nodes by hand.
//!
//! What is in scope: a LetStmt's, Let's, loop's, allocation's and realization's body. The
//! value of a let, the bounds of a loop, the extents, condition and custom allocator of an
//! allocation, and the bounds and condition of a realization are outside it.

use crate::expr::{Expr, Name};
use crate::stmt::{DeviceApi, ForType, MemoryType, MinExtent};
use crate::types::Type;

/// A node that binds a name over its body (see the module docs). A mutator's walk passes
/// the node's rewritten values (the let value, loop bounds, extents as they will be in
/// the result); a visitor's walk the node's own.
#[derive(Clone, Copy, Debug)]
pub enum Binder<'a> {
    /// `let name = value` over the statements of a LetStmt's body.
    LetStmt {
        /// The bound name.
        name: &'a Name,
        /// Its value.
        value: &'a Expr,
    },
    /// `let name = value in body` in an expression.
    Let {
        /// The bound name.
        name: &'a Name,
        /// Its value.
        value: &'a Expr,
    },
    /// A loop variable, from `min` to `max` inclusive.
    For {
        /// The loop variable.
        name: &'a Name,
        /// Its first value.
        min: &'a Expr,
        /// Its last value.
        max: &'a Expr,
        /// How the iterations run.
        for_type: ForType,
        /// Where the body runs.
        device_api: DeviceApi,
    },
    /// A buffer of `ty` elements, as many as the product of `extents`.
    Allocate {
        /// The buffer.
        name: &'a Name,
        /// Element type.
        ty: Type,
        /// Where it lives.
        memory_type: MemoryType,
        /// Extents, multiplied together.
        extents: &'a [Expr],
    },
    /// Storage for a Func over a region.
    Realize {
        /// The Func.
        name: &'a Name,
        /// Its value types.
        types: &'a [Type],
        /// Where the storage lives.
        memory_type: MemoryType,
        /// One `[min, extent]` per dimension.
        bounds: &'a [MinExtent],
    },
}

impl Binder<'_> {
    /// The name brought into scope.
    pub fn name(&self) -> &Name {
        match self {
            Binder::LetStmt { name, .. }
            | Binder::Let { name, .. }
            | Binder::For { name, .. }
            | Binder::Allocate { name, .. }
            | Binder::Realize { name, .. } => name,
        }
    }

    /// The bound value, for the two kinds of let.
    pub fn let_value(&self) -> Option<&Expr> {
        match self {
            Binder::LetStmt { value, .. } | Binder::Let { value, .. } => Some(value),
            _ => None,
        }
    }
}
