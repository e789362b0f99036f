//! What the profiling pass knows about Funcs beyond the IR: which names are Funcs, which
//! of them opted out of profiling, and which have a display name for the report.
//!
//! Reading rejects unknown fields (and names another pass's environment file as such);
//! [`FuncEnv::check_against`], run at the start of the pass, rejects an environment that
//! contradicts the statement.

use loopir::pipeline::json_path::read_json;
use loopir::visit::Visitor;
use loopir::{Expr, Stmt, StmtKind};
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::error::{EnvError, ProfilingError};
use crate::env_kind::EnvKind;

/// One Func of the environment.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FuncInfo {
    /// The Func's IR name (the name of its produce/consume nodes).
    pub name: String,
    /// The name the profiler report shows instead (e.g. `input (input)`, `d.in(e)`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub display_name: Option<String>,
    /// False for a Func marked not to be profiled (`Func::no_profiling()`).
    #[serde(default = "default_true", skip_serializing_if = "is_true")]
    pub profile: bool,
}

fn default_true() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

impl FuncInfo {
    /// A profiled Func shown under its own name.
    pub fn new(name: impl Into<String>) -> FuncInfo {
        FuncInfo { name: name.into(), display_name: None, profile: true }
    }
    /// This Func, shown in the report as `display_name`.
    pub fn with_display_name(mut self, display_name: impl Into<String>) -> FuncInfo {
        self.display_name = Some(display_name.into());
        self
    }
    /// This Func, marked not to be profiled.
    pub fn not_profiled(mut self) -> FuncInfo {
        self.profile = false;
        self
    }
}

/// The `profile.env.json` document: the pipeline name and the Funcs.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct EnvDocument {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pipeline: Option<String>,
    funcs: Vec<FuncInfo>,
}

/// The Funcs of a pipeline, by IR name, in the order they were listed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FuncEnv {
    funcs: Vec<FuncInfo>,
    index: FxHashMap<String, usize>,
    pipeline: Option<String>,
}

impl FuncEnv {
    /// An environment with no Funcs (every name classifies as "not a Func").
    pub fn new() -> FuncEnv {
        FuncEnv::default()
    }

    /// Adds a Func; a Func of the same name is replaced.
    pub fn insert(&mut self, func: FuncInfo) {
        match self.index.get(&func.name) {
            Some(&i) => self.funcs[i] = func,
            None => {
                self.index.insert(func.name.clone(), self.funcs.len());
                self.funcs.push(func);
            }
        }
    }

    /// This environment with `func` added (builder style).
    pub fn with(mut self, func: FuncInfo) -> FuncEnv {
        self.insert(func);
        self
    }

    /// Reads the `profile.env.json` schema:
    /// `{"pipeline": "out", "funcs": [{"name": "f", "display_name": "…", "profile": false}]}`.
    /// The pipeline name, if present, is available from [`FuncEnv::pipeline_name`]. An
    /// unknown field is an error naming it (its path, line and column); so is another
    /// pass's environment file, which the message names. The caller knows the file and
    /// should name it.
    pub fn from_json(text: &str) -> Result<FuncEnv, EnvError> {
        let doc: EnvDocument =
            read_json(text).map_err(|source| EnvError::Json { source, hint: EnvKind::Profile.hint(text) })?;
        let mut env = FuncEnv { pipeline: doc.pipeline, ..FuncEnv::default() };
        for f in doc.funcs {
            if env.index.contains_key(&f.name) {
                return Err(EnvError::DuplicateFunc(f.name));
            }
            env.insert(f);
        }
        Ok(env)
    }

    /// Writes the environment in the `profile.env.json` schema.
    pub fn to_json(&self) -> String {
        let doc = EnvDocument { pipeline: self.pipeline.clone(), funcs: self.funcs.clone() };
        // Serialising plain strings and booleans into a String cannot fail.
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    }

    /// The environment a statement implies when nothing else is known: every name that
    /// appears on a produce or consume node is a profiled Func, shown under its own name.
    pub fn infer_from_stmt(stmt: &Stmt) -> FuncEnv {
        let mut env = FuncEnv::new();
        let mut work = vec![stmt.clone()];
        while let Some(s) = work.pop() {
            if let StmtKind::ProducerConsumer { name, .. } = s.kind()
                && !env.contains(name)
            {
                env.insert(FuncInfo::new(name.as_ref()));
            }
            // Push children in reverse so that Funcs are listed in walk order.
            let before = work.len();
            work.extend(s.children().into_iter().cloned());
            work[before..].reverse();
        }
        env
    }

    /// The pipeline name the environment file gave, if any.
    pub fn pipeline_name(&self) -> Option<&str> {
        self.pipeline.as_deref()
    }

    /// Sets the pipeline name carried with the environment.
    pub fn set_pipeline_name(&mut self, name: impl Into<String>) {
        self.pipeline = Some(name.into());
    }

    /// The Func named exactly `name`.
    pub fn get(&self, name: &str) -> Option<&FuncInfo> {
        self.index.get(name).map(|&i| &self.funcs[i])
    }

    /// Whether a Func is named exactly `name`.
    pub fn contains(&self, name: &str) -> bool {
        self.index.contains_key(name)
    }

    /// Checks that this environment fits `stmt`; the pass does this first. Errors name the
    /// field (as a path into the JSON form) and, where there is one, the IR node:
    ///
    /// * every produce and consume node names a Func of the environment (by its whole
    ///   name or the part before its first `.`): a node whose name is no Func would be
    ///   counted but never instrumented, which is what a misspelt Func name leads to;
    /// * a Func marked not to be profiled (`"profile": false`) occurs in the statement (as
    ///   a produce, consume or allocation name), since otherwise the mark cannot take
    ///   effect.
    ///
    /// A Func that does not occur is accepted otherwise: the reference's environment lists
    /// every Func of the pipeline, inlined ones included, often with display names.
    ///
    /// ```
    /// use loopir_profiling::{FuncEnv, FuncInfo, ProfilingError};
    ///
    /// let s = loopir::parse_stmt("produce out {\n out[0] = 1.000000f\n}\n").unwrap();
    /// let env = FuncEnv::new().with(FuncInfo::new("ouput"));
    /// let err = env.check_against(&s).unwrap_err();
    /// assert!(matches!(&err, ProfilingError::EnvMismatch { field, .. } if field == "funcs"), "{err}");
    /// assert!(FuncEnv::new().with(FuncInfo::new("out")).check_against(&s).is_ok());
    /// ```
    pub fn check_against(&self, stmt: &Stmt) -> Result<(), ProfilingError> {
        let mut scan = OccurrenceScan { env: self, met: vec![false; self.funcs.len()], error: None };
        scan.visit_stmt(stmt);
        if let Some(e) = scan.error {
            return Err(e);
        }
        for (i, f) in self.funcs.iter().enumerate() {
            if !f.profile && !scan.met[i] {
                return Err(ProfilingError::EnvMismatch {
                    field: format!("funcs[{i}].profile"),
                    problem: format!(
                        "Func `{}` is marked not to be profiled but does not occur in the statement (no \
                         produce, consume or allocation of it), so the mark cannot take effect (is the name \
                         misspelt, or is the Func inlined?)",
                        f.name
                    ),
                    node: None,
                });
            }
        }
        Ok(())
    }

    /// The same description as a [`loopir::pipeline::PipelineEnv`]: the pipeline name and
    /// each Func's display name and profiling flag. A profiling environment says nothing
    /// of types, arguments, order, outputs, images or parameters.
    pub fn to_pipeline_env(&self) -> loopir::pipeline::PipelineEnv {
        let mut env = loopir::pipeline::PipelineEnv::new();
        env.pipeline = self.pipeline.clone();
        env.funcs = self
            .funcs
            .iter()
            .map(|f| loopir::pipeline::FuncDesc {
                display_name: f.display_name.clone(),
                profile: f.profile,
                ..loopir::pipeline::FuncDesc::new(&f.name)
            })
            .collect();
        env
    }

    /// What the profiling pass reads of a [`loopir::pipeline::PipelineEnv`]: its Funcs,
    /// in order, with display names and profiling flags, and the pipeline name.
    pub fn from_pipeline_env(env: &loopir::pipeline::PipelineEnv) -> FuncEnv {
        let mut out = FuncEnv { pipeline: env.pipeline.clone(), ..FuncEnv::default() };
        for f in &env.funcs {
            out.insert(FuncInfo {
                name: f.name.clone(),
                display_name: f.display_name.clone(),
                profile: f.profile,
            });
        }
        out
    }

    /// The Funcs, in the order they were added.
    pub fn iter(&self) -> impl Iterator<Item = &FuncInfo> {
        self.funcs.iter()
    }

    /// The number of Funcs.
    pub fn len(&self) -> usize {
        self.funcs.len()
    }

    /// Whether there are no Funcs.
    pub fn is_empty(&self) -> bool {
        self.funcs.is_empty()
    }
}

/// The walk of [`FuncEnv::check_against`]: statements only (Func names are on
/// produce, consume and allocation nodes), so it is linear in the statement count.
struct OccurrenceScan<'e> {
    env: &'e FuncEnv,
    /// Whether each Func occurs.
    met: Vec<bool>,
    /// The first mismatch; the walk stops at it.
    error: Option<ProfilingError>,
}

impl OccurrenceScan<'_> {
    /// The position of the Func `name` belongs to: itself, or the part before its first
    /// `.` (how the pass classifies names).
    fn func_of(&self, name: &str) -> Option<usize> {
        let prefix = name.split('.').next().unwrap_or(name);
        self.env.index.get(name).or_else(|| self.env.index.get(prefix)).copied()
    }
}

impl Visitor for OccurrenceScan<'_> {
    fn visit_stmt(&mut self, s: &Stmt) {
        if self.error.is_some() {
            return;
        }
        match s.kind() {
            StmtKind::ProducerConsumer { name, is_producer, .. } => match self.func_of(name) {
                Some(i) => self.met[i] = true,
                None => {
                    let keyword = if *is_producer { "produce" } else { "consume" };
                    self.error = Some(ProfilingError::EnvMismatch {
                        field: "funcs".to_owned(),
                        problem: format!(
                            "`{keyword} {name}` names no Func of the environment; every produce and \
                             consume node is a Func's (is the Func missing or misspelt in `funcs`?)"
                        ),
                        node: Some(format!("{keyword} {name}")),
                    });
                    return;
                }
            },
            StmtKind::Allocate { name, .. } | StmtKind::Realize { name, .. } => {
                if let Some(i) = self.func_of(name) {
                    self.met[i] = true;
                }
            }
            _ => {}
        }
        self.super_stmt(s);
    }
    fn visit_expr(&mut self, _e: &Expr) {}
}
