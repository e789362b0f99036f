//! The boxes-touched analysis the `func_type_and_dim` tags need (`docs/reference/tracing.md` §8.4).
//!
//! The pass does not analyse boxes itself: it asks a [`BoxAnalysis`] once, over the
//! instrumented statement. The default, [`BoundsCrateBoxes`], is the single call into
//! `loopir-bounds`' `boxes_touched`; [`RecordedBoxes`] serves boxes computed elsewhere
//! (tests, tools that already ran the analysis).

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
    /// The boxes touched by `stmt`, keyed by Func / image name. Every fresh name the
    /// analysis mints is drawn from `names`, the generator of the tracing pass (in a
    /// [`loopir::pipeline::Pipeline`], the run's): the reference's analysis draws from
    /// the process-wide counters, after the pass's own temporaries, and the `t` names
    /// it draws can appear in the tags' box expressions.
    fn boxes_touched(
        &self,
        stmt: &Stmt,
        names: &mut loopir::pipeline::NameGen,
    ) -> Result<HashMap<String, TouchedBox>, String>;
}

/// The boxes-touched analysis of the `loopir-bounds` crate, in Halide-compatible mode
/// (overflow markers replaced by zero, Halide's float-modulo rule), drawing its fresh
/// names from the generator it is given.
#[derive(Clone, Copy, Debug, Default)]
pub struct BoundsCrateBoxes;

impl BoxAnalysis for BoundsCrateBoxes {
    fn boxes_touched(
        &self,
        stmt: &Stmt,
        names: &mut loopir::pipeline::NameGen,
    ) -> Result<HashMap<String, TouchedBox>, String> {
        let options =
            loopir_simplify::Options { compat_purify: true, compat_float_mod: true, compat_conditions: true };
        let ctx = loopir_simplify::Ctx::with_options(options);
        ctx.set_names(std::mem::take(names));
        let scope = loopir_simplify::Scope::new();
        let func_bounds = loopir_bounds::FuncValueBounds::default();
        let boxes = loopir_bounds::boxes_touched(&ctx, stmt, &scope, &func_bounds);
        // The generator goes back whether the analysis succeeded or not.
        *names = ctx.take_names();
        let boxes = boxes.map_err(|e| e.to_string())?;
        let finite = |b: &loopir_simplify::Bound| match b {
            loopir_simplify::Bound::Finite(e) => Some(e.clone()),
            _ => None,
        };
        Ok(boxes
            .iter()
            .map(|(name, region)| {
                let dims = region
                    .bounds
                    .iter()
                    .map(|i| TouchedInterval { min: finite(&i.min), max: finite(&i.max) })
                    .collect();
                (name.to_string(), TouchedBox { dims })
            })
            .collect())
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
    fn boxes_touched(
        &self,
        _stmt: &Stmt,
        _names: &mut loopir::pipeline::NameGen,
    ) -> Result<HashMap<String, TouchedBox>, String> {
        Ok(self.boxes.clone())
    }
}
