//! [`PipelineEnv`]: one description of a pipeline for every pass of a lowering run — what
//! the passes know beyond the statement. `docs/pipeline.md` documents the JSON schema.
//!
//! A frontend writes one [`PipelineEnv`] (in code or as JSON with `"version": 1`); each
//! pass reads the part it needs. Reading rejects unknown fields and a version other than
//! [`PipelineEnv::VERSION`]; [`PipelineEnv::validate`] rejects an environment that
//! contradicts itself, and [`PipelineEnv::check_against`] one that contradicts the IR it
//! is used with (every pass runs both before it changes anything). The environment files
//! of the single passes (`profile.env.json`, `trace.env.json`, `bounds.env.json`) are
//! converted by the pass crates that own them.
//!
//! A field that a source cannot know is `None` ("not known"), not empty: a profiling
//! environment says nothing about argument names, and an empty list would claim the Funcs
//! have no dimensions.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::address_map::AddressSet;
use crate::expr::{CallType, Expr, ExprKind, ExprNode};
use crate::stmt::{DeviceApi, Stmt, StmtKind};
use crate::types::Type;
use crate::visit::Visitor;

use super::names::{MAX_COUNTER, NameGenState};

/// The whole description (see the module docs).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PipelineEnv {
    /// The schema version; [`PipelineEnv::VERSION`].
    pub version: u32,
    /// The pipeline's name (the profiler's report and the tracing pipeline events use it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pipeline: Option<String>,
    /// Every Func of the pipeline, inlined ones included, outputs included.
    #[serde(default)]
    pub funcs: Vec<FuncDesc>,
    /// Every name loaded as an image: input buffer parameters and embedded buffers.
    #[serde(default)]
    pub images: Vec<ImageDesc>,
    /// The scalar parameters; `None` when not known (then free variables are not
    /// checked against them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub params: Option<Vec<ParamDesc>>,
    /// The pipeline outputs, in order.
    #[serde(default)]
    pub outputs: Vec<OutputDesc>,
    /// The realization order of the Funcs, producers first; inlined Funcs included, as the
    /// reference lists them. `None` when not known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<Vec<String>>,
    /// Target features the passes read.
    #[serde(default)]
    pub target: TargetDesc,
    /// The pipeline's own `trace_pipeline()` switch.
    #[serde(default, skip_serializing_if = "is_false")]
    pub trace_pipeline: bool,
    /// Where the reference's fresh-name counters stood before the first pass, and where
    /// the Func value bounds table's names end if it drew them before; after a run,
    /// [`super::LowerCtx::finish`] writes back where they stand.
    #[serde(default, skip_serializing_if = "NameGenState::is_empty")]
    pub fresh_names: NameGenState,
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn default_true() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

/// One Func.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FuncDesc {
    /// The Func's name in the IR.
    pub name: String,
    /// The name the profiler's report shows instead (e.g. `input (input)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    /// The value types, one per tuple element (`.stmt` spellings; `bool` is `uint1`).
    #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_type_list")]
    pub types: Option<Vec<Type>>,
    /// The pure argument names, one per dimension.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub args: Option<Vec<String>>,
    /// The update stages (entry k is stage k + 1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub updates: Vec<UpdateDesc>,
    /// Explicit `bound`, `bound_extent` and `align_bounds` of the schedule, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub bounds: Vec<BoundDesc>,
    /// The storage order of the dimensions (a permutation of `args`, innermost first), for
    /// storage flattening; `None` for the order of `args`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_order: Option<Vec<String>>,
    /// False for a Func marked `no_profiling()`.
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub profile: bool,
    /// `Func::trace_loads()`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub trace_loads: bool,
    /// `Func::trace_stores()`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub trace_stores: bool,
    /// `Func::trace_realizations()`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub trace_realizations: bool,
    /// User trace tags, in the order they were added.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// The extern definition, if the Func is extern (read by computation bounds
    /// inference; schema in `docs/reference/bounds.md` §2.3.2).
    #[serde(default, rename = "extern", skip_serializing_if = "Option::is_none")]
    pub extern_def: Option<serde_json::Value>,
}

impl FuncDesc {
    /// A Func with nothing known but its name (profiled, nothing traced).
    pub fn new(name: &str) -> FuncDesc {
        FuncDesc { name: name.to_owned(), profile: true, ..FuncDesc::default() }
    }
    /// With its value types and pure argument names.
    pub fn with_signature(mut self, types: Vec<Type>, args: &[&str]) -> FuncDesc {
        self.types = Some(types);
        self.args = Some(args.iter().map(|a| (*a).to_owned()).collect());
        self
    }
}

/// One update stage.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UpdateDesc {
    /// The reduction variables.
    #[serde(default)]
    pub rvars: Vec<RVarDesc>,
    /// The RDom predicates (`.stmt` expressions).
    #[serde(default)]
    pub predicates: Vec<String>,
}

/// A reduction variable.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RVarDesc {
    /// Its name (`r6$x`).
    pub name: String,
    /// Its min (`.stmt` expression).
    pub min: String,
    /// Its extent (`.stmt` expression).
    pub extent: String,
}

/// An explicit bound of one pure variable.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundDesc {
    /// The pure variable (one of the Func's `args`).
    pub var: String,
    /// The min.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<String>,
    /// The extent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extent: Option<String>,
    /// The alignment modulus.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modulus: Option<String>,
    /// The alignment remainder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remainder: Option<String>,
}

/// An image: an input buffer parameter or an embedded buffer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ImageDesc {
    /// Its name.
    pub name: String,
    /// Its element type.
    #[serde(rename = "type", with = "type_text")]
    pub ty: Type,
    /// Its number of dimensions, if known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dimensions: Option<usize>,
    /// Whether it is a parameter (`ImageParam`) rather than an embedded buffer.
    #[serde(default, skip_serializing_if = "is_false")]
    pub is_param: bool,
    /// `ImageParam::trace_loads()`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub trace_loads: bool,
    /// `ImageParam::add_trace_tag()` texts, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
}

/// A scalar parameter.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ParamDesc {
    /// Its name as the IR refers to it.
    pub name: String,
    /// Its type.
    #[serde(rename = "type", with = "type_text")]
    pub ty: Type,
}

/// A pipeline output.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputDesc {
    /// The output Func.
    pub func: String,
    /// The prefix of its buffer's symbols (`<buffer>.min.0`); the Func's name by default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub buffer: Option<String>,
    /// Per-dimension min and extent constraints of the output buffer.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constraints: Vec<ConstraintDesc>,
}

impl OutputDesc {
    /// The buffer name: `buffer`, or the Func's name.
    pub fn buffer_name(&self) -> &str {
        self.buffer.as_deref().unwrap_or(&self.func)
    }
}

/// A min and/or extent constraint of one output dimension.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConstraintDesc {
    /// The required min.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<String>,
    /// The required extent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extent: Option<String>,
}

/// The target features the passes read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetDesc {
    /// `profile`: bounds inference leaves `profiling_enable_instance_marker()`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub profile: bool,
    /// `trace_loads`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub trace_loads: bool,
    /// `trace_stores`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub trace_stores: bool,
    /// `trace_realizations`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub trace_realizations: bool,
    /// `trace_pipeline`.
    #[serde(default, skip_serializing_if = "is_false")]
    pub trace_pipeline: bool,
    /// The device API of the target's GPU feature (`"CUDA"`, `"OpenCL"`, `"Metal"`, ...,
    /// one of [`DeviceApi::TARGET_DEFAULTS`]): what `Default_GPU` loops run on. `None`
    /// for a target without one.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "opt_device_api")]
    pub default_device_api: Option<DeviceApi>,
}

/// Something wrong with a [`PipelineEnv`]: the field (a path into the JSON form, e.g.
/// `funcs[2].args`), what is wrong, and the IR node it disagrees with, if any.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{}{problem}{}",
    if field.is_empty() { String::new() } else { format!("{field}: ") },
    node.as_ref().map(|n| format!(" (at `{n}`)")).unwrap_or_default()
)]
pub struct EnvError {
    /// The field, as a path into the JSON form (empty for the document, and then not
    /// printed).
    pub field: String,
    /// What is wrong.
    pub problem: String,
    /// The IR node it disagrees with, as its first line of text.
    pub node: Option<String>,
}

impl EnvError {
    /// An error of `field` with no IR node.
    pub fn field(field: impl Into<String>, problem: impl Into<String>) -> EnvError {
        EnvError { field: field.into(), problem: problem.into(), node: None }
    }
    /// An error of `field` at an IR node.
    pub fn at(field: impl Into<String>, problem: impl Into<String>, node: impl Into<String>) -> EnvError {
        EnvError { field: field.into(), problem: problem.into(), node: Some(node.into()) }
    }
}

impl PipelineEnv {
    /// The schema version this library reads and writes.
    pub const VERSION: u32 = 1;

    /// An empty environment of the current version.
    pub fn new() -> PipelineEnv {
        PipelineEnv { version: PipelineEnv::VERSION, ..PipelineEnv::default() }
    }

    /// Reads the JSON form and [validates](PipelineEnv::validate) it. Unknown fields,
    /// a missing or other `version`, malformed types and contradictions are errors naming
    /// the field.
    pub fn from_json(text: &str) -> Result<PipelineEnv, EnvError> {
        let value: serde_json::Value =
            serde_json::from_str(text).map_err(|e| EnvError::field("", format!("not JSON: {e}")))?;
        match value.get("version") {
            Some(serde_json::Value::Number(n)) if n.as_u64() == Some(u64::from(PipelineEnv::VERSION)) => {}
            Some(v) => {
                return Err(EnvError::field(
                    "version",
                    format!(
                        "version {v} is not supported; this library reads version {}",
                        PipelineEnv::VERSION
                    ),
                ));
            }
            None => {
                return Err(EnvError::field(
                    "version",
                    "missing: a pipeline environment starts with `\"version\": 1` (the files of single passes \
                     are converted by the pass crates; see docs/pipeline.md)",
                ));
            }
        }
        let env: PipelineEnv = super::json_path::read_json(text)?;
        env.validate()?;
        Ok(env)
    }

    /// The JSON form.
    pub fn to_json(&self) -> String {
        // Plain data with string keys: serialising cannot fail.
        serde_json::to_string_pretty(self).unwrap_or_default()
    }

    /// The Func named `name` and its position in `funcs`.
    pub fn func(&self, name: &str) -> Option<(usize, &FuncDesc)> {
        self.funcs.iter().enumerate().find(|(_, f)| f.name == name)
    }

    /// The parse env that types every Func call and image load of this pipeline's text.
    pub fn parse_env(&self) -> crate::ParseEnv {
        let mut p = crate::ParseEnv::new();
        for f in &self.funcs {
            if let Some(types) = &f.types {
                p.funcs.insert(f.name.clone(), types.clone());
            }
        }
        for i in &self.images {
            p.images.insert(i.name.clone(), i.ty);
        }
        p
    }

    /// Checks that the environment is consistent in itself: the version is
    /// [`PipelineEnv::VERSION`]; no Func, image, parameter or output is listed twice, and
    /// no name is both a Func and an image; `order` lists Funcs, each once; outputs are
    /// Funcs; a Func has at least one value type; `storage_order` is a permutation of
    /// `args`; explicit bounds name pure arguments; counters are in range, and the end of
    /// the Func value bounds table's names is not above the `t` counter.
    pub fn validate(&self) -> Result<(), EnvError> {
        if self.version != PipelineEnv::VERSION {
            return Err(EnvError::field(
                "version",
                format!(
                    "version {} is not supported; this library reads version {}",
                    self.version,
                    PipelineEnv::VERSION
                ),
            ));
        }
        let funcs = index_once(self.funcs.iter().map(|f| f.name.as_str()), "funcs", ".name", "Func `")?;
        for (i, f) in self.funcs.iter().enumerate() {
            if f.types.as_ref().is_some_and(Vec::is_empty) {
                return Err(EnvError::field(
                    format!("funcs[{i}].types"),
                    format!("Func `{}` has no value type; a Func has one type per tuple element", f.name),
                ));
            }
            if let Some(args) = &f.args {
                if let Some((k, a)) = args.iter().enumerate().find(|(k, a)| args[..*k].contains(a)) {
                    return Err(EnvError::field(
                        format!("funcs[{i}].args[{k}]"),
                        format!("argument `{a}` of Func `{}` is listed twice", f.name),
                    ));
                }
                if let Some(order) = &f.storage_order {
                    let mut sorted_order = order.clone();
                    sorted_order.sort();
                    let mut sorted_args = args.clone();
                    sorted_args.sort();
                    if sorted_order != sorted_args {
                        return Err(EnvError::field(
                            format!("funcs[{i}].storage_order"),
                            format!(
                                "{order:?} is not a permutation of the pure arguments {args:?} of Func `{}`",
                                f.name
                            ),
                        ));
                    }
                }
                for (k, b) in f.bounds.iter().enumerate() {
                    if !args.contains(&b.var) {
                        return Err(EnvError::field(
                            format!("funcs[{i}].bounds[{k}].var"),
                            format!("`{}` is not a pure argument of Func `{}` ({args:?})", b.var, f.name),
                        ));
                    }
                }
            } else if f.storage_order.is_some() {
                return Err(EnvError::field(
                    format!("funcs[{i}].storage_order"),
                    format!("Func `{}` has a storage order but no `args` to order", f.name),
                ));
            }
        }
        index_once(self.images.iter().map(|img| img.name.as_str()), "images", ".name", "image `")?;
        for (i, img) in self.images.iter().enumerate() {
            if let Some(&f) = funcs.get(img.name.as_str()) {
                return Err(EnvError::field(
                    format!("images[{i}].name"),
                    format!("`{}` is listed both as an image and as a Func (funcs[{f}])", img.name),
                ));
            }
        }
        if let Some(params) = &self.params {
            index_once(params.iter().map(|p| p.name.as_str()), "params", ".name", "parameter `")?;
        }
        index_once(self.outputs.iter().map(|o| o.func.as_str()), "outputs", ".func", "output `")?;
        for (i, o) in self.outputs.iter().enumerate() {
            if !funcs.contains_key(o.func.as_str()) {
                return Err(EnvError::field(
                    format!("outputs[{i}].func"),
                    format!("output `{}` is not a Func of `funcs`; every output is a Func", o.func),
                ));
            }
        }
        if let Some(order) = &self.order {
            for (k, name) in order.iter().enumerate() {
                if !funcs.contains_key(name.as_str()) {
                    return Err(EnvError::field(
                        format!("order[{k}]"),
                        format!("`{name}` is not a Func of `funcs`"),
                    ));
                }
            }
            index_once(order.iter().map(String::as_str), "order", "", "`")?;
        }
        if let Some(api) = self.target.default_device_api
            && !DeviceApi::TARGET_DEFAULTS.contains(&api)
        {
            return Err(EnvError::field("target.default_device_api", not_a_default_device_api(api.name())));
        }
        for (c, &n) in &self.fresh_names.chars {
            if n > MAX_COUNTER {
                return Err(EnvError::field(
                    format!("fresh_names.chars.{c}"),
                    format!("{n} is out of range: the reference's counters are at most {MAX_COUNTER}"),
                ));
            }
        }
        for (p, &n) in &self.fresh_names.prefixes {
            if n > MAX_COUNTER {
                return Err(EnvError::field(
                    format!("fresh_names.prefixes.{p}"),
                    format!("{n} is out of range: the reference's counters are at most {MAX_COUNTER}"),
                ));
            }
        }
        if let Some(end) = self.fresh_names.func_value_bounds_end {
            // The table's names were drawn before the counter stood where it stands.
            let t = self.fresh_names.chars.get(&'t').copied().unwrap_or(0);
            if end > t {
                return Err(EnvError::field(
                    "fresh_names.func_value_bounds_end",
                    format!(
                        "{end} is above the `t` counter ({t}): the Func value bounds table's names were drawn \
                         before the counter stood where `fresh_names.chars.t` says"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Checks that the environment fits `stmt` (after [`PipelineEnv::validate`]): every
    /// realization, store (Provide) and call of a Func of `funcs` has as many dimensions
    /// as its `args` and agrees with its `types` (a realization has all of them, a store
    /// one value per type, a call one of them); every output occurs in the statement; when
    /// `order` is known, every Func the statement produces is in it (a Func missing from
    /// `order` gets no bounds), and a produced Func that is not realized in the statement
    /// is an output. Inlined Funcs do not occur in the IR and need not: the reference's
    /// `order` lists them. The walk visits a shared expression once, so it is linear in
    /// the DAG.
    pub fn check_against(&self, stmt: &Stmt) -> Result<(), EnvError> {
        self.validate()?;
        let index: BTreeMap<&str, usize> =
            self.funcs.iter().enumerate().map(|(i, f)| (f.name.as_str(), i)).collect();
        let mut walk = EnvWalk {
            env: self,
            index: &index,
            met: vec![false; self.funcs.len()],
            produced: Vec::new(),
            realized: vec![false; self.funcs.len()],
            seen: AddressSet::default(),
            error: None,
        };
        walk.visit_stmt(stmt);
        if let Some(e) = walk.error {
            return Err(e);
        }
        for (i, o) in self.outputs.iter().enumerate() {
            if index.get(o.func.as_str()).is_some_and(|&fi| !walk.met[fi]) {
                return Err(EnvError::field(
                    format!("outputs[{i}].func"),
                    format!(
                        "output `{}` does not occur in the statement (no produce, store or call)",
                        o.func
                    ),
                ));
            }
        }
        if let Some(order) = &self.order {
            for name in &walk.produced {
                if !order.iter().any(|o| o == name) {
                    let problem = if order.is_empty() {
                        format!(
                            "is empty, but the statement produces `{name}`: every produced Func must be in the realization order"
                        )
                    } else {
                        format!(
                            "does not list `{name}`, which the statement produces: every produced Func must be in the realization order"
                        )
                    };
                    return Err(EnvError::at("order", problem, format!("produce {name}")));
                }
            }
            for name in &walk.produced {
                let realized = index.get(name.as_str()).is_some_and(|&i| walk.realized[i]);
                if !realized && !self.outputs.iter().any(|o| &o.func == name) {
                    let problem = format!(
                        "do not list `{name}`, which the statement produces but does not realize: a Func without a \
                         realization is an output"
                    );
                    return Err(EnvError::at("outputs", problem, format!("produce {name}")));
                }
            }
        }
        Ok(())
    }
}

/// The walk of [`PipelineEnv::check_against`].
struct EnvWalk<'a> {
    env: &'a PipelineEnv,
    index: &'a BTreeMap<&'a str, usize>,
    met: Vec<bool>,
    produced: Vec<String>,
    realized: Vec<bool>,
    seen: AddressSet<*const ExprNode>,
    error: Option<EnvError>,
}

fn type_list_text(types: &[Type]) -> String {
    let names: Vec<String> = types.iter().map(Type::to_string).collect();
    format!("[{}]", names.join(", "))
}

impl<'a> EnvWalk<'a> {
    fn func(&self, name: &str) -> Option<(usize, &'a FuncDesc)> {
        self.index.get(name).map(|&i| (i, &self.env.funcs[i]))
    }

    fn fail(&mut self, e: EnvError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    /// Checks the dimension count of an access of Func `i` with `dims` coordinates.
    fn dims(&mut self, i: usize, f_name: &str, dims: usize, node: impl FnOnce() -> String) {
        let Some(args) = &self.env.funcs[i].args else { return };
        if args.len() != dims {
            let problem = format!(
                "Func `{f_name}` has {} pure argument(s) {args:?}, but the statement accesses it with {dims} \
                 dimension(s)",
                args.len()
            );
            self.fail(EnvError::at(format!("funcs[{i}].args"), problem, node()));
        }
    }
}

impl Visitor for EnvWalk<'_> {
    fn visit_stmt(&mut self, s: &Stmt) {
        if self.error.is_some() {
            return;
        }
        match s.kind() {
            StmtKind::ProducerConsumer { name, is_producer, .. } => {
                if let Some((i, _)) = self.func(name) {
                    self.met[i] = true;
                }
                if *is_producer && !self.produced.iter().any(|p| p == name.as_ref()) {
                    self.produced.push(name.to_string());
                }
            }
            StmtKind::Realize { name, types, bounds, .. } => {
                if let Some((i, f)) = self.func(name) {
                    self.met[i] = true;
                    self.realized[i] = true;
                    let node = || format!("realize {name}");
                    // The text does not print a realization's types: a statement parsed
                    // without an environment has none to compare.
                    if let Some(ft) = f.types.as_ref().filter(|ft| !types.is_empty() && *ft != types) {
                        let problem = format!(
                            "Func `{name}` has types {}, but the statement realizes it with {}",
                            type_list_text(ft),
                            type_list_text(types)
                        );
                        self.fail(EnvError::at(format!("funcs[{i}].types"), problem, node()));
                    }
                    self.dims(i, name, bounds.len(), node);
                }
            }
            StmtKind::Provide { name, values, args, .. } => {
                if let Some((i, f)) = self.func(name) {
                    self.met[i] = true;
                    let node =
                        || crate::stmt_to_string(s).lines().next().unwrap_or_default().trim().to_owned();
                    let got: Vec<Type> = values.iter().map(Expr::ty).collect();
                    if let Some(ft) = f.types.as_ref().filter(|ft| {
                        ft.len() != got.len()
                            || ft.iter().zip(&got).any(|(a, b)| a.element_of() != b.element_of())
                    }) {
                        let problem = format!(
                            "Func `{name}` has types {}, but the statement stores {} to it",
                            type_list_text(ft),
                            type_list_text(&got)
                        );
                        self.fail(EnvError::at(format!("funcs[{i}].types"), problem, node()));
                    }
                    self.dims(i, name, args.len(), node);
                }
            }
            _ => {}
        }
        self.super_stmt(s);
    }

    fn visit_expr(&mut self, e: &Expr) {
        if self.error.is_some() {
            return;
        }
        if e.is_shared() && !e.is_leaf() && !self.seen.insert(e.as_ptr()) {
            return;
        }
        if let ExprKind::Call { name, args, call_type: CallType::Halide, value_index, .. } = e.kind()
            && let Some((i, f)) = self.func(name)
        {
            self.met[i] = true;
            let node = || crate::expr_to_string(e);
            if let Some(ft) = &f.types {
                let ok = ft.get(*value_index as usize).is_some_and(|t| t.element_of() == e.ty().element_of());
                if !ok {
                    let problem = format!(
                        "Func `{name}` has types {}, but the statement reads value {value_index} of it as {}",
                        type_list_text(ft),
                        e.ty()
                    );
                    self.fail(EnvError::at(format!("funcs[{i}].types"), problem, node()));
                }
            }
            self.dims(i, name, args.len(), node);
        }
        self.super_expr(e)
    }
}

/// Serde for an optional [`DeviceApi`] as its printed name (`CUDA`); only the APIs a
/// target can default to read.
mod opt_device_api {
    use crate::stmt::DeviceApi;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(super) fn serialize<S: Serializer>(api: &Option<DeviceApi>, s: S) -> Result<S::Ok, S::Error> {
        api.map(DeviceApi::name).serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<DeviceApi>, D::Error> {
        let Some(text) = Option::<String>::deserialize(d)? else {
            return Ok(None);
        };
        DeviceApi::from_name(&text)
            .filter(|api| DeviceApi::TARGET_DEFAULTS.contains(api))
            .map(Some)
            .ok_or_else(|| serde::de::Error::custom(super::not_a_default_device_api(&text)))
    }
}

/// The message for a `target.default_device_api` that is not one a target can have.
fn not_a_default_device_api(name: &str) -> String {
    let known: Vec<&str> = DeviceApi::TARGET_DEFAULTS.iter().map(|a| a.name()).collect();
    format!("`{name}` is not the device API of a target feature (one of {})", known.join(", "))
}

/// Serde for a [`Type`] as its printed spelling (`uint16`); `bool` reads as `uint1`.
pub(crate) mod type_text {
    use crate::types::Type;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn parse(text: &str) -> Option<Type> {
        if text == "bool" { Some(Type::BOOL) } else { Type::parse(text) }
    }

    pub(crate) fn serialize<S: Serializer>(ty: &Type, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&ty.to_string())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Type, D::Error> {
        let text = String::deserialize(d)?;
        parse(&text).ok_or_else(|| serde::de::Error::custom(format!("`{text}` is not a type")))
    }
}

/// Serde for an optional list of [`Type`]s as their printed spellings.
mod opt_type_list {
    use crate::types::Type;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(super) fn serialize<S: Serializer>(types: &Option<Vec<Type>>, s: S) -> Result<S::Ok, S::Error> {
        types.as_ref().map(|ts| ts.iter().map(Type::to_string).collect::<Vec<_>>()).serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Vec<Type>>, D::Error> {
        let texts = Option::<Vec<String>>::deserialize(d)?;
        texts
            .map(|ts| {
                ts.iter()
                    .map(|t| {
                        super::type_text::parse(t)
                            .ok_or_else(|| serde::de::Error::custom(format!("`{t}` is not a type")))
                    })
                    .collect()
            })
            .transpose()
    }
}

/// The position of each name in the list `list` (as `list[i]<suffix>` in errors), or an
/// error naming the second mention of a name listed twice. `what` opens the message
/// (``Func ` ``, `` ` `` …) and is closed by the name's backtick.
fn index_once<'a>(
    names: impl Iterator<Item = &'a str>,
    list: &str,
    suffix: &str,
    what: &str,
) -> Result<BTreeMap<&'a str, usize>, EnvError> {
    let mut seen = BTreeMap::new();
    for (i, name) in names.enumerate() {
        if let Some(first) = seen.insert(name, i) {
            return Err(EnvError::field(
                format!("{list}[{i}]{suffix}"),
                format!("{what}{name}` is listed twice (also as {list}[{first}])"),
            ));
        }
    }
    Ok(seen)
}
