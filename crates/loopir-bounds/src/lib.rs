//! # loopir-bounds
//!
//! Interval arithmetic, regions and bounds queries over loopir IR, after Halide's
//! `Interval`, `Bounds` and `Simplify` (see `spec/bounds.md`).
//!
//! * [`Interval`] / [`Bound`]: symbolic intervals with infinite ends, and the eager
//!   [`make_min`] / [`make_max`] peepholes.
//! * [`ConstantInterval`]: numeric intervals over i64.
//! * [`Scope`]: names bound to stacks of values, with binding identities for memoising.
//! * a simplifier in Halide's canonical forms with `can_prove` (in progress).
//!
//! Every API takes a [`Ctx`], which owns fresh-name counters and caches.

pub mod allocation_bounds;
pub mod bounds_of_expr;
pub mod boxes;
pub mod boxes_touched;
pub mod constant_interval;
pub mod cse;
pub mod ctx;
pub mod env;
pub mod error;
pub mod interval;
pub mod ir;
pub mod scope;
pub mod simplify;
pub mod workloads;

pub use bounds_of_expr::{
    FuncValueBounds, bounds_of_expr_in_scope, bounds_of_expr_simplified, find_constant_bounds,
};
pub use boxes::{Region, box_contains, box_intersection, boxes_overlap, merge_boxes};
pub use boxes_touched::{
    BoxMap, Node, box_provided, box_required, box_touched, boxes_provided, boxes_required, boxes_touched,
};
pub use constant_interval::ConstantInterval;
pub use ctx::{Ctx, Options, Stats};
pub use error::BoundsError;
pub use interval::{Bound, Interval, make_max, make_min};
pub use scope::{Scope, ScopedBinding, Token};
pub use simplify::{can_prove, simplify, simplify_expr};
