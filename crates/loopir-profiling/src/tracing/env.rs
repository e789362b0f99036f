//! What the tracing pass knows beyond the statement: the pipeline's Funcs with their
//! tracing switches, its outputs, its images, the target's tracing features and the
//! realization order.
//!
//! The JSON form is the oracle's `trace.env.json` (see `shared/oracle/README.md`), plus
//! an optional fresh-name counter (`"fresh_names": {"t": N}`, as in the bounds env); the
//! same data can be built in code with the `with_*` methods. Reading rejects unknown
//! fields, and [`TraceEnv::check_against`] (run at the start of the pass) rejects an
//! environment that contradicts itself or the statement it is used with.

use std::collections::HashMap;

use loopir::pipeline::json_path::read_json;
use loopir::{ParseEnv, Type};
use serde::{Deserialize, Serialize};

use super::error::TracingError;
use crate::env_kind::EnvKind;

/// Everything the tracing pass needs to know besides the statement.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
    /// Fresh-name counters at the start of the pass.
    #[serde(default, skip_serializing_if = "FreshNames::is_unset")]
    pub fresh_names: FreshNames,
}

/// The reference's fresh-name counters as they stood before tracing (state of its
/// process, which earlier passes advanced).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FreshNames {
    /// The next number of the `t` family: the pass's first value temporary is `t<N>`, or
    /// one past the highest `t<N>` of the input if that is higher (the reference's counter
    /// is never below a name it handed out, and a temporary must not capture an input
    /// variable). At most 2^31 − 1, the range of the reference's counter.
    #[serde(default)]
    pub t: Option<u64>,
}

impl FreshNames {
    /// Whether no counter is given.
    pub fn is_unset(&self) -> bool {
        self.t.is_none()
    }
}

/// The target features that switch tracing on for everything.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
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
#[serde(deny_unknown_fields)]
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
    /// Reads the JSON form (the oracle's `trace.env.json`). An unknown field is an error
    /// naming it (its path, line and column); so is another pass's environment file, which
    /// the message names. The caller knows the file and should name it.
    pub fn from_json(text: &str) -> Result<TraceEnv, TracingError> {
        read_json(text).map_err(|e| TracingError::EnvJson(format!("{e}{}", EnvKind::Trace.hint(text))))
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
    /// With the reference's `t` counter standing at `next` before tracing (see
    /// [`FreshNames::t`]).
    pub fn with_fresh_t(mut self, next: u64) -> TraceEnv {
        self.fresh_names.t = Some(next);
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

impl TraceEnv {
    /// The same description as a [`loopir::pipeline::PipelineEnv`], after checking that
    /// it is consistent in itself (outputs are Funcs of `funcs` with their dimensions and
    /// types). A trace env says nothing of updates, explicit bounds, output constraints,
    /// display names, profiling flags, parameters or the target's `profile` feature.
    pub fn to_pipeline_env(&self) -> Result<loopir::pipeline::PipelineEnv, TracingError> {
        use loopir::pipeline::{FuncDesc, ImageDesc, OutputDesc, PipelineEnv, TargetDesc};
        EnvIndex::new(self)?;
        let mut env = PipelineEnv::new();
        env.pipeline = Some(self.pipeline.clone()).filter(|p| !p.is_empty());
        env.trace_pipeline = self.trace_pipeline;
        env.target = TargetDesc {
            profile: false,
            trace_loads: self.target.trace_loads,
            trace_stores: self.target.trace_stores,
            trace_realizations: self.target.trace_realizations,
            trace_pipeline: self.target.trace_pipeline,
            default_device_api: None,
        };
        env.funcs = self
            .funcs
            .iter()
            .map(|f| FuncDesc {
                types: Some(f.types.clone()).filter(|t| !t.is_empty()),
                args: Some(f.args.clone()),
                trace_loads: f.trace_loads,
                trace_stores: f.trace_stores,
                trace_realizations: f.trace_realizations,
                tags: f.tags.clone(),
                ..FuncDesc::new(&f.name)
            })
            .collect();
        env.outputs = self
            .outputs
            .iter()
            .map(|o| OutputDesc {
                func: o.name.clone(),
                buffer: Some(o.buffer.clone()),
                constraints: Vec::new(),
            })
            .collect();
        env.images = self
            .images
            .iter()
            .map(|i| ImageDesc {
                name: i.name.clone(),
                ty: i.ty,
                dimensions: None,
                is_param: i.is_param,
                trace_loads: i.trace_loads,
                tags: i.tags.clone(),
            })
            .collect();
        env.order = Some(self.order.clone());
        if let Some(t) = self.fresh_names.t {
            env.fresh_names.chars.insert('t', t);
        }
        Ok(env)
    }

    /// What the tracing pass reads of a [`loopir::pipeline::PipelineEnv`]: every Func
    /// with its switches, arguments, tags and types; the outputs (dimensions and types
    /// from their Funcs); the images; the order; the target's tracing features.
    pub fn from_pipeline_env(env: &loopir::pipeline::PipelineEnv) -> TraceEnv {
        TraceEnv {
            pipeline: env.pipeline.clone().unwrap_or_default(),
            trace_pipeline: env.trace_pipeline,
            target: TargetTracing {
                trace_loads: env.target.trace_loads,
                trace_stores: env.target.trace_stores,
                trace_realizations: env.target.trace_realizations,
                trace_pipeline: env.target.trace_pipeline,
            },
            funcs: env
                .funcs
                .iter()
                .map(|f| FuncTracing {
                    name: f.name.clone(),
                    trace_loads: f.trace_loads,
                    trace_stores: f.trace_stores,
                    trace_realizations: f.trace_realizations,
                    args: f.args.clone().unwrap_or_default(),
                    tags: f.tags.clone(),
                    types: f.types.clone().unwrap_or_default(),
                })
                .collect(),
            outputs: env
                .outputs
                .iter()
                .map(|o| {
                    let f = env.func(&o.func).map(|(_, f)| f);
                    OutputTracing {
                        name: o.func.clone(),
                        buffer: o.buffer_name().to_owned(),
                        dimensions: f.and_then(|f| f.args.as_ref()).map_or(0, Vec::len),
                        types: f.and_then(|f| f.types.clone()).unwrap_or_default(),
                    }
                })
                .collect(),
            images: env
                .images
                .iter()
                .map(|i| ImageTracing {
                    name: i.name.clone(),
                    is_param: i.is_param,
                    trace_loads: i.trace_loads,
                    tags: i.tags.clone(),
                    ty: i.ty,
                })
                .collect(),
            order: env.order.clone().unwrap_or_default(),
            fresh_names: FreshNames { t: env.fresh_names.chars.get(&'t').copied() },
        }
    }
}

/// Name lookups over a [`TraceEnv`] that has been checked to be consistent in itself.
pub(crate) struct EnvIndex<'a> {
    pub(crate) env: &'a TraceEnv,
    /// Func name -> its position in `funcs`.
    funcs: HashMap<&'a str, usize>,
    /// Image name -> its position in `images`.
    images: HashMap<&'a str, usize>,
}

fn invalid(field: String, problem: String) -> TracingError {
    TracingError::InvalidEnv { field, problem }
}

/// The largest `fresh_names.t`: the reference's name counters are C `int`s.
const MAX_FRESH_T: u64 = i32::MAX as u64;

impl<'a> EnvIndex<'a> {
    /// Indexes the environment, rejecting one that contradicts itself: a name listed
    /// twice, an output that is not a Func of `funcs` or disagrees with it on its
    /// dimensions or types, an `order` entry that is no Func or is listed twice, a counter
    /// out of range.
    pub(crate) fn new(env: &'a TraceEnv) -> Result<EnvIndex<'a>, TracingError> {
        let mut funcs = HashMap::new();
        for (i, f) in env.funcs.iter().enumerate() {
            if let Some(first) = funcs.insert(f.name.as_str(), i) {
                let problem = format!("Func `{}` is listed twice (also as funcs[{first}])", f.name);
                return Err(invalid(format!("funcs[{i}].name"), problem));
            }
        }
        let mut images = HashMap::new();
        for (i, img) in env.images.iter().enumerate() {
            if let Some(first) = images.insert(img.name.as_str(), i) {
                let problem = format!("image `{}` is listed twice (also as images[{first}])", img.name);
                return Err(invalid(format!("images[{i}].name"), problem));
            }
            if let Some(&f) = funcs.get(img.name.as_str()) {
                let problem = format!("`{}` is listed both as an image and as a Func (funcs[{f}])", img.name);
                return Err(invalid(format!("images[{i}].name"), problem));
            }
        }
        let mut outputs = HashMap::new();
        for (i, o) in env.outputs.iter().enumerate() {
            if let Some(first) = outputs.insert(o.name.as_str(), i) {
                let problem = format!("output `{}` is listed twice (also as outputs[{first}])", o.name);
                return Err(invalid(format!("outputs[{i}].name"), problem));
            }
            let Some(&fi) = funcs.get(o.name.as_str()) else {
                let problem = format!("output `{}` is not a Func of `funcs`; every output is a Func", o.name);
                return Err(invalid(format!("outputs[{i}].name"), problem));
            };
            let f = &env.funcs[fi];
            if o.dimensions != f.args.len() {
                let problem = format!(
                    "output `{}` has {} dimension(s), but its Func (funcs[{fi}]) has {} pure argument(s) {:?}",
                    o.name,
                    o.dimensions,
                    f.args.len(),
                    f.args
                );
                return Err(invalid(format!("outputs[{i}].dimensions"), problem));
            }
            if o.types != f.types {
                let problem = format!(
                    "output `{}` has types {}, but its Func (funcs[{fi}]) has {}",
                    o.name,
                    type_list_text(&o.types),
                    type_list_text(&f.types)
                );
                return Err(invalid(format!("outputs[{i}].types"), problem));
            }
        }
        let mut ordered = HashMap::new();
        for (k, name) in env.order.iter().enumerate() {
            if !funcs.contains_key(name.as_str()) {
                let problem = format!("`{name}` is not a Func of `funcs`");
                return Err(invalid(format!("order[{k}]"), problem));
            }
            if let Some(first) = ordered.insert(name.as_str(), k) {
                let problem = format!("`{name}` is listed twice (also as order[{first}])");
                return Err(invalid(format!("order[{k}]"), problem));
            }
        }
        if let Some(t) = env.fresh_names.t.filter(|&t| t > MAX_FRESH_T) {
            let problem = format!("{t} is out of range: the reference's counter is at most {MAX_FRESH_T}");
            return Err(invalid("fresh_names.t".to_owned(), problem));
        }
        Ok(EnvIndex { env, funcs, images })
    }
    pub(crate) fn func(&self, name: &str) -> Option<&'a FuncTracing> {
        self.funcs.get(name).map(|&i| &self.env.funcs[i])
    }
    /// The Func and its position in `funcs`.
    pub(crate) fn func_at(&self, name: &str) -> Option<(usize, &'a FuncTracing)> {
        self.funcs.get(name).map(|&i| (i, &self.env.funcs[i]))
    }
    pub(crate) fn image(&self, name: &str) -> Option<&'a ImageTracing> {
        self.images.get(name).map(|&i| &self.env.images[i])
    }
    /// The image and its position in `images`.
    pub(crate) fn image_at(&self, name: &str) -> Option<(usize, &'a ImageTracing)> {
        self.images.get(name).map(|&i| (i, &self.env.images[i]))
    }
}

/// `[int32, float32]`: a list of types as a message shows it.
pub(crate) fn type_list_text(types: &[Type]) -> String {
    let names: Vec<String> = types.iter().map(Type::to_string).collect();
    format!("[{}]", names.join(", "))
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
        let err = EnvIndex::new(&env).err().expect("a duplicate");
        assert!(
            matches!(&err, TracingError::InvalidEnv { field, problem } if field == "funcs[1].name" && problem.contains("`f`")),
            "{err}"
        );
    }
}
