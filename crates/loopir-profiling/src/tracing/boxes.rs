//! The boxes-touched analysis the `func_type_and_dim` tags need (spec §8.4).
//!
//! The pass does not analyse boxes itself: it asks a [`BoxAnalysis`] once, over the
//! instrumented statement. The default, [`BoundsCrateBoxes`], is the single call into
//! `loopir-bounds`; [`RecordedBoxes`] serves boxes computed elsewhere (tests, tools that
//! already ran the analysis).

use std::collections::HashMap;

use loopir::{Expr, Stmt};

/// One dimension of a touched box: `None` at an end means that end is unbounded.
#[derive(Clone, Debug, PartialEq)]
pub struct TouchedInterval {
    /// Lowest coordinate touched, if bounded.
    pub min: Option<Expr>,
    /// Highest coordinate touched, if bounded.
    pub max: Option<Expr>,
}

impl TouchedInterval {
    /// A bounded interval `[min, max]`.
    pub fn bounded(min: Expr, max: Expr) -> TouchedInterval {
        TouchedInterval { min: Some(min), max: Some(max) }
    }
    /// An interval unbounded on both sides.
    pub fn everything() -> TouchedInterval {
        TouchedInterval { min: None, max: None }
    }
}

/// The region of a Func or image touched by a statement, one interval per dimension.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TouchedBox {
    /// Per-dimension intervals (none for a scalar access).
    pub dims: Vec<TouchedInterval>,
}

/// Halide's "boxes touched" query: for every Func and image called or provided in a
/// statement, the union of the regions accessed.
///
/// For byte-exact tags the result must match Halide's `boxes_touched` (with its simplifier
/// and its replacement of overflow markers by zero) expression for expression.
pub trait BoxAnalysis {
    /// The boxes touched by `stmt`, keyed by Func / image name.
    fn boxes_touched(&self, stmt: &Stmt) -> Result<HashMap<String, TouchedBox>, String>;
}

/// The boxes-touched analysis of the `loopir-bounds` crate, in Halide-compatible mode.
///
/// **Pending:** `loopir-bounds` does not yet export `boxes_touched`; until it does, this
/// analysis reports an error and every pipeline that needs `func_type_and_dim` tags fails
/// with [`TracingError::BoxAnalysis`](super::TracingError::BoxAnalysis). The body of
/// [`BoxAnalysis::boxes_touched`] below is the one place to connect it.
#[derive(Clone, Copy, Debug, Default)]
pub struct BoundsCrateBoxes;

impl BoxAnalysis for BoundsCrateBoxes {
    fn boxes_touched(&self, _stmt: &Stmt) -> Result<HashMap<String, TouchedBox>, String> {
        // Connect here: one call of `loopir_bounds::boxes_touched` with Halide's overflow
        // purification, converting each interval's ends (an infinite end becomes `None`).
        Err("loopir-bounds does not provide boxes_touched yet".to_owned())
    }
}

/// Boxes given in advance, served regardless of the statement.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct RecordedBoxes {
    /// The boxes by name.
    pub boxes: HashMap<String, TouchedBox>,
}

impl RecordedBoxes {
    /// No boxes yet.
    pub fn new() -> RecordedBoxes {
        RecordedBoxes::default()
    }
    /// With the box of `name`.
    pub fn with(mut self, name: &str, b: TouchedBox) -> RecordedBoxes {
        self.boxes.insert(name.to_owned(), b);
        self
    }
}

impl BoxAnalysis for RecordedBoxes {
    fn boxes_touched(&self, _stmt: &Stmt) -> Result<HashMap<String, TouchedBox>, String> {
        Ok(self.boxes.clone())
    }
}
