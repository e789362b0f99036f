//! The bounds env (`docs/reference/bounds.md` §2.3.2): what the bounds passes know beyond the Stmt, read from
//! JSON. Expressions are kept as `.stmt` text and parsed on demand.

use std::collections::BTreeMap;

use loopir::Expr;
use loopir::pipeline::{BoundDesc, ConstraintDesc, FuncDesc, OutputDesc, PipelineEnv, RVarDesc, UpdateDesc};
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
    /// Funcs by name. A name given twice is an error (JSON readers usually keep the
    /// last, which would silently drop the first description).
    #[serde(default, deserialize_with = "unique_keys::deserialize")]
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
    /// Parses an env document: unknown fields, a Func named twice in `funcs`, a type
    /// that does not parse and a counter out of range are errors; a field of the wrong
    /// form is named by its path (`outputs[0].bogus`).
    pub fn from_json(text: &str) -> Result<BoundsEnv, BoundsError> {
        let env: BoundsEnv =
            loopir::pipeline::json_path::read_json(text).map_err(|e| BoundsError::Env(e.to_string()))?;
        for (name, f) in &env.funcs {
            if let Some(bad) = f.types.iter().find(|t| parse_type(t).is_none()) {
                return Err(BoundsError::Env(format!("Func {name}: `{bad}` is not a type")));
            }
        }
        if let Some(t) = env.fresh_names.t.filter(|&t| t > loopir::pipeline::MAX_COUNTER) {
            return Err(BoundsError::Env(format!(
                "fresh_names.t: {t} is out of range: the reference's counter is at most {}",
                loopir::pipeline::MAX_COUNTER
            )));
        }
        Ok(env)
    }

    /// The same description as a [`PipelineEnv`]: Funcs (sorted by name, then those only
    /// `order` or `outputs` name) with their types and pure arguments (`None` where the
    /// list is empty: not known), updates, explicit bounds and
    /// extern definitions; the order; the outputs with their constraints; the target's
    /// `profile` feature; the `t` counter, which is also where the names of the Func value
    /// bounds table end (`docs/pipeline.md`). A bounds env says nothing of the pipeline's
    /// name, images, parameters, tracing or display names.
    pub fn to_pipeline_env(&self) -> PipelineEnv {
        let mut env = PipelineEnv::new();
        env.funcs = self
            .funcs
            .iter()
            .map(|(name, f)| FuncDesc {
                types: Some(f.types.iter().filter_map(|t| parse_type(t)).collect::<Vec<_>>())
                    .filter(|t| !t.is_empty()),
                // An empty list is what an env that does not say gives: unknown.
                args: Some(f.args.clone()).filter(|a| !a.is_empty()),
                updates: f
                    .updates
                    .iter()
                    .map(|u| UpdateDesc {
                        rvars: u
                            .rvars
                            .iter()
                            .map(|r| RVarDesc {
                                name: r.name.clone(),
                                min: r.min.clone(),
                                extent: r.extent.clone(),
                            })
                            .collect(),
                        predicates: u.predicates.clone(),
                    })
                    .collect(),
                bounds: f
                    .bounds
                    .iter()
                    .map(|b| BoundDesc {
                        var: b.var.clone(),
                        min: b.min.clone(),
                        extent: b.extent.clone(),
                        modulus: b.modulus.clone(),
                        remainder: b.remainder.clone(),
                    })
                    .collect(),
                extern_def: f.r#extern.clone(),
                ..FuncDesc::new(name)
            })
            .collect();
        // A Func the order or the outputs name is a Func even when `funcs` does not
        // describe it.
        for name in self.order.iter().chain(self.outputs.iter().map(|o| &o.func)) {
            if !env.funcs.iter().any(|f| &f.name == name) {
                env.funcs.push(FuncDesc::new(name));
            }
        }
        env.order = Some(self.order.clone());
        env.outputs = self
            .outputs
            .iter()
            .map(|o| OutputDesc {
                func: o.func.clone(),
                buffer: Some(o.buffer.clone()),
                constraints: o
                    .constraints
                    .iter()
                    .map(|c| ConstraintDesc { min: c.min.clone(), extent: c.extent.clone() })
                    .collect(),
            })
            .collect();
        env.target.profile = self.target.profile;
        if let Some(t) = self.fresh_names.t {
            env.fresh_names.chars.insert('t', t);
            // The counter is the reference's at the start of the pass, which it reads
            // after the Func value bounds table drew its names.
            env.fresh_names.func_value_bounds_end = Some(t);
        }
        env
    }

    /// What the bounds passes read of a [`PipelineEnv`] (the `t` counter is the run's
    /// name generator's, not the environment's).
    pub fn from_pipeline_env(env: &PipelineEnv) -> BoundsEnv {
        BoundsEnv {
            order: env.order.clone().unwrap_or_default(),
            target: Target { profile: env.target.profile },
            fresh_names: FreshNames { t: env.fresh_names.chars.get(&'t').copied() },
            outputs: env
                .outputs
                .iter()
                .map(|o| Output {
                    func: o.func.clone(),
                    buffer: o.buffer_name().to_owned(),
                    constraints: o
                        .constraints
                        .iter()
                        .map(|c| Constraint { min: c.min.clone(), extent: c.extent.clone() })
                        .collect(),
                })
                .collect(),
            funcs: env
                .funcs
                .iter()
                .map(|f| {
                    let desc = Func {
                        updates: f
                            .updates
                            .iter()
                            .map(|u| Update {
                                rvars: u
                                    .rvars
                                    .iter()
                                    .map(|r| RVar {
                                        name: r.name.clone(),
                                        min: r.min.clone(),
                                        extent: r.extent.clone(),
                                    })
                                    .collect(),
                                predicates: u.predicates.clone(),
                            })
                            .collect(),
                        bounds: f
                            .bounds
                            .iter()
                            .map(|b| ExplicitBound {
                                var: b.var.clone(),
                                min: b.min.clone(),
                                extent: b.extent.clone(),
                                modulus: b.modulus.clone(),
                                remainder: b.remainder.clone(),
                            })
                            .collect(),
                        types: f.types.iter().flatten().map(|t| t.to_string()).collect(),
                        args: f.args.clone().unwrap_or_default(),
                        r#extern: f.extern_def.clone(),
                    };
                    (f.name.clone(), desc)
                })
                .collect(),
        }
    }

    /// Checks that this environment fits `stmt`, as both bounds passes do first (see
    /// [`PipelineEnv::check_against`]): the realization order lists every Func the
    /// statement produces (an empty or partial order would leave `*.s0.*` symbols
    /// undefined), a produced Func that is not realized is an output, every access of a
    /// Func has as many dimensions as its `args` and agrees with its `types`, every output
    /// occurs. Errors name the field and the IR node.
    ///
    /// ```
    /// use loopir_bounds::env::BoundsEnv;
    ///
    /// let env = BoundsEnv::from_json(r#"{"order": [], "target": {"profile": false}, "outputs": [],
    ///     "funcs": {"f": {"types": ["int32"], "args": ["x"]}}}"#).unwrap();
    /// let s = loopir::parse_stmt("produce f {\n f(f.s0.x) = 1\n}\n").unwrap();
    /// let e = env.check_against(&s).unwrap_err().to_string();
    /// assert!(e.contains("order: is empty, but the statement produces `f`"), "{e}");
    /// ```
    pub fn check_against(&self, stmt: &loopir::Stmt) -> Result<(), BoundsError> {
        self.to_pipeline_env().check_against(stmt).map_err(BoundsError::EnvMismatch)
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

/// Reads a JSON object into a map, refusing a key given twice.
mod unique_keys {
    use std::collections::BTreeMap;
    use std::fmt;

    use serde::Deserializer;
    use serde::de::{DeserializeOwned, MapAccess, Visitor};

    pub(super) fn deserialize<'de, D: Deserializer<'de>, V: DeserializeOwned>(
        d: D,
    ) -> Result<BTreeMap<String, V>, D::Error> {
        struct Unique<V>(std::marker::PhantomData<V>);
        impl<'de, V: DeserializeOwned> Visitor<'de> for Unique<V> {
            type Value = BTreeMap<String, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of Funcs by name")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = BTreeMap::new();
                while let Some((key, value)) = map.next_entry::<String, V>()? {
                    if out.contains_key(&key) {
                        return Err(serde::de::Error::custom(format!(
                            "Func `{key}` is described twice in `funcs`"
                        )));
                    }
                    out.insert(key, value);
                }
                Ok(out)
            }
        }
        d.deserialize_map(Unique(std::marker::PhantomData))
    }
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
