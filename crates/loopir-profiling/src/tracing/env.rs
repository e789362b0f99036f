//! What the tracing pass knows beyond the statement: the pipeline's Funcs with their
//! tracing switches, its outputs, its images, the target's tracing features and the
//! realization order.
//!
//! The JSON form is the oracle's `trace.env.json` (see `shared/oracle/README.md`); the
//! same data can be built in code with the `with_*` methods.

use std::collections::HashMap;

use loopir::{ParseEnv, Type};
use serde::{Deserialize, Serialize};

use super::error::TracingError;

/// Everything the tracing pass needs to know besides the statement.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct TraceEnv {
    /// The pipeline name; the func name of the begin/end pipeline events.
    pub pipeline: String,
    /// The pipeline's own `trace_pipeline()` switch: pipeline events even if nothing else
    /// is traced.
    #[serde(default)]
    pub trace_pipeline: bool,
    /// The target's tracing features.
    #[serde(default)]
    pub target: TargetTracing,
    /// Every Func of the pipeline (outputs included).
    #[serde(default)]
    pub funcs: Vec<FuncTracing>,
    /// The pipeline outputs, in order; the last one gets the outermost dummy realization.
    #[serde(default)]
    pub outputs: Vec<OutputTracing>,
    /// Every name loaded by a call of kind Image (input buffers and embedded buffers).
    #[serde(default)]
    pub images: Vec<ImageTracing>,
    /// The realization (topological) order of the Funcs, producers first. It orders the
    /// `func_type_and_dim` tags; a traced Func missing from it gets no such tag.
    #[serde(default)]
    pub order: Vec<String>,
}

/// The target features that switch tracing on for everything.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TargetTracing {
    /// `trace_loads`: every Func and image load gets a load event. Also turns on realization
    /// tracing for every Func.
    #[serde(default)]
    pub trace_loads: bool,
    /// `trace_stores`: every store to a Func gets store events. Also turns on realization
    /// tracing for every Func.
    #[serde(default)]
    pub trace_stores: bool,
    /// `trace_realizations`: realization and produce/consume events for every Func.
    #[serde(default)]
    pub trace_realizations: bool,
    /// `trace_pipeline`: begin/end pipeline events even if nothing else is traced.
    #[serde(default)]
    pub trace_pipeline: bool,
}

impl TargetTracing {
    /// The features of the target-string token `trace_all`.
    pub fn trace_all() -> TargetTracing {
        TargetTracing {
            trace_loads: true,
            trace_stores: true,
            trace_realizations: true,
            trace_pipeline: false,
        }
    }
}

/// A Func of the pipeline and its tracing switches.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct FuncTracing {
    /// The Func's name in the IR.
    pub name: String,
    /// `Func::trace_loads()`.
    #[serde(default)]
    pub trace_loads: bool,
    /// `Func::trace_stores()`.
    #[serde(default)]
    pub trace_stores: bool,
    /// `Func::trace_realizations()`.
    #[serde(default)]
    pub trace_realizations: bool,
    /// The pure argument names, in order (they name the produce/consume coordinates
    /// `<f>.s0.<arg>.min` / `.max`).
    #[serde(default)]
    pub args: Vec<String>,
    /// User trace tags, in the order they were added.
    #[serde(default)]
    pub tags: Vec<String>,
    /// The value types, one per tuple element.
    #[serde(default, with = "type_list")]
    pub types: Vec<Type>,
}

impl FuncTracing {
    /// A Func with all switches off and no tags.
    pub fn new(name: &str, args: &[&str], types: Vec<Type>) -> FuncTracing {
        FuncTracing {
            name: name.to_owned(),
            args: args.iter().map(|a| (*a).to_owned()).collect(),
            types,
            ..FuncTracing::default()
        }
    }
    /// With `trace_loads()`.
    pub fn trace_loads(mut self) -> FuncTracing {
        self.trace_loads = true;
        self
    }
    /// With `trace_stores()`.
    pub fn trace_stores(mut self) -> FuncTracing {
        self.trace_stores = true;
        self
    }
    /// With `trace_realizations()`.
    pub fn trace_realizations(mut self) -> FuncTracing {
        self.trace_realizations = true;
        self
    }
    /// With one more trace tag.
    pub fn tag(mut self, text: &str) -> FuncTracing {
        self.tags.push(text.to_owned());
        self
    }
}

/// A pipeline output.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct OutputTracing {
    /// The output Func's name.
    pub name: String,
    /// The name of its (first) output buffer parameter; the dummy realization's bounds are
    /// `<buffer>.min.<d>` / `<buffer>.extent.<d>`.
    pub buffer: String,
    /// Number of dimensions.
    pub dimensions: usize,
    /// The output types, one per tuple element.
    #[serde(default, with = "type_list")]
    pub types: Vec<Type>,
}

impl OutputTracing {
    /// An output whose buffer has the Func's own name (as for `Func::realize` and
    /// generators).
    pub fn new(name: &str, dimensions: usize, types: Vec<Type>) -> OutputTracing {
        OutputTracing { name: name.to_owned(), buffer: name.to_owned(), dimensions, types }
    }
}

/// A name loaded as an image: an input buffer parameter or an embedded buffer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImageTracing {
    /// The image name.
    pub name: String,
    /// Whether it is a parameter (`ImageParam`); embedded buffers have no switches or tags.
    #[serde(default)]
    pub is_param: bool,
    /// `ImageParam::trace_loads()`.
    #[serde(default)]
    pub trace_loads: bool,
    /// `ImageParam::add_trace_tag()` texts, in order.
    #[serde(default)]
    pub tags: Vec<String>,
    /// The element type.
    #[serde(rename = "type", with = "type_text")]
    pub ty: Type,
}

impl ImageTracing {
    /// An input buffer parameter with load tracing off.
    pub fn param(name: &str, ty: Type) -> ImageTracing {
        ImageTracing { name: name.to_owned(), is_param: true, trace_loads: false, tags: Vec::new(), ty }
    }
    /// An embedded buffer.
    pub fn embedded(name: &str, ty: Type) -> ImageTracing {
        ImageTracing { name: name.to_owned(), is_param: false, trace_loads: false, tags: Vec::new(), ty }
    }
    /// With `trace_loads()`.
    pub fn trace_loads(mut self) -> ImageTracing {
        self.trace_loads = true;
        self
    }
    /// With one more trace tag.
    pub fn tag(mut self, text: &str) -> ImageTracing {
        self.tags.push(text.to_owned());
        self
    }
}

impl TraceEnv {
    /// An environment for pipeline `pipeline` with nothing in it.
    pub fn new(pipeline: &str) -> TraceEnv {
        TraceEnv { pipeline: pipeline.to_owned(), ..TraceEnv::default() }
    }
    /// Reads the JSON form (the oracle's `trace.env.json`).
    pub fn from_json(text: &str) -> Result<TraceEnv, TracingError> {
        serde_json::from_str(text).map_err(|e| TracingError::EnvJson(e.to_string()))
    }
    /// The JSON form.
    pub fn to_json(&self) -> String {
        // Serialising plain data with string keys cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }
    /// With the target's tracing features.
    pub fn with_target(mut self, target: TargetTracing) -> TraceEnv {
        self.target = target;
        self
    }
    /// With the pipeline's `trace_pipeline()` switch on.
    pub fn with_trace_pipeline(mut self) -> TraceEnv {
        self.trace_pipeline = true;
        self
    }
    /// With one more Func; it is also appended to the realization order.
    pub fn with_func(mut self, func: FuncTracing) -> TraceEnv {
        self.order.push(func.name.clone());
        self.funcs.push(func);
        self
    }
    /// With one more output.
    pub fn with_output(mut self, output: OutputTracing) -> TraceEnv {
        self.outputs.push(output);
        self
    }
    /// With one more image.
    pub fn with_image(mut self, image: ImageTracing) -> TraceEnv {
        self.images.push(image);
        self
    }
    /// With an explicit realization order (replacing the one built by
    /// [`TraceEnv::with_func`]).
    pub fn with_order(mut self, order: &[&str]) -> TraceEnv {
        self.order = order.iter().map(|s| (*s).to_owned()).collect();
        self
    }

    /// What a `.stmt` parser needs to type this pipeline's text: Func value types and image
    /// element types, so that calls get the call kinds (Halide / Image) the pass keys on.
    pub fn parse_env(&self) -> ParseEnv {
        let mut env = ParseEnv::new();
        for f in &self.funcs {
            env.funcs.insert(f.name.clone(), f.types.clone());
        }
        for o in &self.outputs {
            env.funcs.entry(o.name.clone()).or_insert_with(|| o.types.clone());
        }
        for i in &self.images {
            env.images.insert(i.name.clone(), i.ty);
        }
        env
    }
}

/// Name lookups over a validated [`TraceEnv`].
pub(crate) struct EnvIndex<'a> {
    pub(crate) env: &'a TraceEnv,
    funcs: HashMap<&'a str, &'a FuncTracing>,
    images: HashMap<&'a str, &'a ImageTracing>,
}

impl<'a> EnvIndex<'a> {
    /// Indexes the environment, rejecting duplicate names.
    pub(crate) fn new(env: &'a TraceEnv) -> Result<EnvIndex<'a>, TracingError> {
        let mut funcs = HashMap::new();
        for f in &env.funcs {
            if funcs.insert(f.name.as_str(), f).is_some() {
                return Err(TracingError::InvalidEnv(format!("Func `{}` is listed twice", f.name)));
            }
        }
        let mut images = HashMap::new();
        for i in &env.images {
            if images.insert(i.name.as_str(), i).is_some() {
                return Err(TracingError::InvalidEnv(format!("image `{}` is listed twice", i.name)));
            }
        }
        let mut outputs = std::collections::HashSet::new();
        for o in &env.outputs {
            if !outputs.insert(o.name.as_str()) {
                return Err(TracingError::InvalidEnv(format!("output `{}` is listed twice", o.name)));
            }
        }
        Ok(EnvIndex { env, funcs, images })
    }
    pub(crate) fn func(&self, name: &str) -> Option<&'a FuncTracing> {
        self.funcs.get(name).copied()
    }
    pub(crate) fn image(&self, name: &str) -> Option<&'a ImageTracing> {
        self.images.get(name).copied()
    }
}

/// Serde for a [`Type`] as its printed spelling (`uint16`, `float32`).
mod type_text {
    use loopir::Type;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(ty: &Type, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&ty.to_string())
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Type, D::Error> {
        let text = String::deserialize(d)?;
        Type::parse(&text).ok_or_else(|| serde::de::Error::custom(format!("unknown type spelling {text:?}")))
    }
}

/// Serde for a list of [`Type`]s as their printed spellings.
mod type_list {
    use loopir::Type;
    use serde::ser::SerializeSeq;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(types: &[Type], s: S) -> Result<S::Ok, S::Error> {
        let mut seq = s.serialize_seq(Some(types.len()))?;
        for t in types {
            seq.serialize_element(&t.to_string())?;
        }
        seq.end()
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Type>, D::Error> {
        let texts = Vec::<String>::deserialize(d)?;
        texts
            .iter()
            .map(|t| {
                Type::parse(t).ok_or_else(|| serde::de::Error::custom(format!("unknown type spelling {t:?}")))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_oracle_schema() {
        let text = r#"{ "pipeline": "out", "trace_pipeline": false,
          "target": {"trace_loads": true, "trace_stores": true, "trace_realizations": true, "trace_pipeline": false},
          "funcs": [ {"name": "a", "trace_loads": true, "trace_stores": true, "trace_realizations": true,
                      "args": ["x", "y"], "tags": ["alpha"], "types": ["uint16"]} ],
          "outputs": [ {"name": "out", "buffer": "out", "dimensions": 2, "types": ["uint16"]} ],
          "images": [ {"name": "input2", "is_param": true, "trace_loads": true, "tags": [], "type": "uint16"} ],
          "order": ["input2_im", "input_im", "a", "b", "out"] }"#;
        let env = TraceEnv::from_json(text).expect("valid");
        assert_eq!(env.funcs[0].types, vec![Type::uint(16, 1)]);
        assert_eq!(env.images[0].ty, Type::uint(16, 1));
        assert_eq!(env.outputs[0].dimensions, 2);
        let again = TraceEnv::from_json(&env.to_json()).expect("round trip");
        assert_eq!(again, env);
    }

    #[test]
    fn rejects_bad_types_and_duplicates() {
        let bad = r#"{"pipeline": "p", "images": [{"name": "i", "type": "uint77x"}]}"#;
        assert!(matches!(TraceEnv::from_json(bad), Err(TracingError::EnvJson(_))));
        let env = TraceEnv::new("p")
            .with_func(FuncTracing::new("f", &["x"], vec![Type::INT32]))
            .with_func(FuncTracing::new("f", &["x"], vec![Type::INT32]));
        assert!(matches!(EnvIndex::new(&env), Err(TracingError::InvalidEnv(m)) if m.contains("`f`")));
    }
}
