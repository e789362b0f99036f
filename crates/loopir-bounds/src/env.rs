//! The bounds env (`docs/reference/bounds.md` §2.3.2): what the bounds passes know beyond the Stmt, read from
//! JSON. Expressions are kept as `.stmt` text and parsed on demand.

use std::collections::BTreeMap;

use loopir::Expr;
use serde::Deserialize;

use crate::error::BoundsError;

/// The whole env document.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundsEnv {
    /// Realization order of all Funcs, producers first.
    pub order: Vec<String>,
    /// Target features that matter to the passes.
    pub target: Target,
    /// Fresh-name counters at the start of the pass.
    #[serde(default)]
    pub fresh_names: FreshNames,
    /// Pipeline outputs.
    pub outputs: Vec<Output>,
    /// Funcs by name.
    #[serde(default)]
    pub funcs: BTreeMap<String, Func>,
}

/// Target features.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// Whether the profiler is on (adds `profiling_enable_instance_marker()`).
    pub profile: bool,
}

/// Fresh-name counters.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FreshNames {
    /// The next index of the `t` family.
    pub t: Option<u64>,
}

/// A pipeline output.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Output {
    /// The Func.
    pub func: String,
    /// Prefix of its buffer symbols.
    pub buffer: String,
    /// Per-dimension min/extent constraints.
    #[serde(default)]
    pub constraints: Vec<Constraint>,
}

/// A min and/or extent constraint of one output dimension.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Constraint {
    /// Required min.
    pub min: Option<String>,
    /// Required extent.
    pub extent: Option<String>,
}

/// What the env says about one Func.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Func {
    /// Update stages (entry k is stage k+1).
    #[serde(default)]
    pub updates: Vec<Update>,
    /// Explicit bounds in schedule order.
    #[serde(default)]
    pub bounds: Vec<ExplicitBound>,
    /// Value types (`.stmt` spellings).
    #[serde(default)]
    pub types: Vec<String>,
    /// Pure argument names.
    #[serde(default)]
    pub args: Vec<String>,
    /// Extern definition, if any (kept as raw JSON: only the computation pass reads it).
    #[serde(default)]
    pub r#extern: Option<serde_json::Value>,
}

/// One update stage.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Update {
    /// Reduction variables.
    #[serde(default)]
    pub rvars: Vec<RVar>,
    /// RDom predicates.
    #[serde(default)]
    pub predicates: Vec<String>,
}

/// A reduction variable.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RVar {
    /// Name (`r6$x`).
    pub name: String,
    /// Min expression.
    pub min: String,
    /// Extent expression.
    pub extent: String,
}

/// An explicit `bound`, `bound_extent` or `align_bounds` of a Func's schedule.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExplicitBound {
    /// The pure variable.
    pub var: String,
    /// Min expression.
    pub min: Option<String>,
    /// Extent expression.
    pub extent: Option<String>,
    /// Alignment modulus.
    pub modulus: Option<String>,
    /// Alignment remainder.
    pub remainder: Option<String>,
}

/// An [`ExplicitBound`] with its expressions parsed.
#[derive(Clone, Debug)]
pub struct ParsedBound {
    /// The pure variable.
    pub var: String,
    /// Min.
    pub min: Option<Expr>,
    /// Extent.
    pub extent: Option<Expr>,
    /// Alignment modulus.
    pub modulus: Option<Expr>,
    /// Alignment remainder.
    pub remainder: Option<Expr>,
}

impl ExplicitBound {
    /// The bound with its expressions parsed.
    pub fn parse(&self) -> Result<ParsedBound, BoundsError> {
        let parse = |t: &Option<String>| t.as_deref().map(parse_env_expr).transpose();
        Ok(ParsedBound {
            var: self.var.clone(),
            min: parse(&self.min)?,
            extent: parse(&self.extent)?,
            modulus: parse(&self.modulus)?,
            remainder: parse(&self.remainder)?,
        })
    }
}

impl BoundsEnv {
    /// Parses an env document.
    pub fn from_json(text: &str) -> Result<BoundsEnv, BoundsError> {
        let env: BoundsEnv = serde_json::from_str(text).map_err(|e| BoundsError::Env(e.to_string()))?;
        for (name, f) in &env.funcs {
            if let Some(bad) = f.types.iter().find(|t| parse_type(t).is_none()) {
                return Err(BoundsError::Env(format!("Func {name}: `{bad}` is not a type")));
            }
        }
        Ok(env)
    }

    /// The value types of a Func, parsed (as the `.stmt` text spells them; `bool`, the
    /// name Halide's front ends give `uint1`, is read as `uint1`). `from_json` refuses an
    /// env with a name that does not parse; one built by hand loses such a name here.
    pub fn func_types(&self, name: &str) -> Vec<loopir::Type> {
        self.funcs
            .get(name)
            .map(|f| f.types.iter().filter_map(|t| parse_type(t)).collect())
            .unwrap_or_default()
    }

    /// The parse env that types every Func's calls with its value types.
    pub fn parse_env(&self) -> loopir::ParseEnv {
        self.funcs.keys().fold(loopir::ParseEnv::new(), |p, name| p.with_func(name, self.func_types(name)))
    }

    /// Parses an env expression that may call this env's Funcs (an RDom predicate, an
    /// extern's proxy): each call is a Func call of the Func's value type.
    pub fn parse_expr(&self, text: &str) -> Result<Expr, BoundsError> {
        loopir::parse::parse_expr_with_env(text, &self.parse_env())
            .map_err(|e| BoundsError::Env(format!("bad expression `{text}`: {e}")))
    }
}

/// A Func value type of the env.
fn parse_type(t: &str) -> Option<loopir::Type> {
    if t == "bool" { Some(loopir::Type::BOOL) } else { loopir::Type::parse(t) }
}

/// Parses an env expression.
pub fn parse_env_expr(text: &str) -> Result<Expr, BoundsError> {
    loopir::parse::parse_expr(text).map_err(|e| BoundsError::Env(format!("bad expression `{text}`: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_func_type_that_does_not_parse_is_refused_when_read() {
        let env = |ty: &str| {
            format!(
                r#"{{"order": ["f"], "target": {{"profile": false}}, "outputs": [], "funcs": {{"f": {{"types": ["{ty}"], "args": ["x"]}}}}}}"#
            )
        };
        let err = BoundsEnv::from_json(&env("int33x")).err().map(|e| e.to_string());
        assert!(err.as_deref().is_some_and(|e| e.contains("Func f: `int33x` is not a type")), "{err:?}");
        let ok = BoundsEnv::from_json(&env("bool")).map(|e| e.func_types("f"));
        assert_eq!(ok.ok(), Some(vec![loopir::Type::BOOL]));
    }
}
