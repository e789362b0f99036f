//! Reading any environment file as a [`PipelineEnv`]: a pipeline environment
//! (`"version": 1`) as it is, and the files of the single passes (`profile.env.json`,
//! `trace.env.json`, `bounds.env.json`) converted, with a note of what they lack. Several
//! files of one pipeline merge into one environment; where two say different things about
//! the same Func, output or setting, that is an error naming both.

use loopir::pipeline::{EnvError, FuncDesc, PipelineEnv};

use crate::env_kind::{EnvKind, guess};
use crate::{FuncEnv, TraceEnv};

/// Which kind of file an environment came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EnvFileKind {
    /// A pipeline environment (`"version": 1`).
    Pipeline,
    /// `profile.env.json`.
    Profile,
    /// `trace.env.json`.
    Trace,
    /// `bounds.env.json`.
    Bounds,
}

impl EnvFileKind {
    /// What a file of this kind cannot say, for the note the command line prints.
    pub fn lacks(self) -> Option<&'static str> {
        match self {
            EnvFileKind::Pipeline => None,
            EnvFileKind::Profile => Some(
                "a profiling environment has no value types, arguments, realization order, outputs, images, \
                 parameters or fresh-name counters",
            ),
            EnvFileKind::Trace => Some(
                "a trace environment has no update stages, explicit bounds, output constraints, display names, \
                 profiling flags, parameters or target `profile` feature",
            ),
            EnvFileKind::Bounds => Some(
                "a bounds environment has no pipeline name, images, parameters, tracing switches, trace tags or \
                 display names",
            ),
        }
    }
}

/// An environment read from a file.
#[derive(Clone, Debug)]
pub struct EnvFile {
    /// The environment (converted, for the files of single passes).
    pub env: PipelineEnv,
    /// What the file was.
    pub kind: EnvFileKind,
}

/// Reads an environment file of any kind: a pipeline environment if it has a `version`
/// field, else the kind `expected` (the pass it was given for), else the kind its fields
/// give away. Errors say what was wrong and, for a file of another kind, which kind it
/// looks like.
pub fn read_env_file(text: &str, expected: Option<EnvFileKind>) -> Result<EnvFile, String> {
    let has_version =
        serde_json::from_str::<serde_json::Value>(text).ok().is_some_and(|v| v.get("version").is_some());
    if has_version {
        return PipelineEnv::from_json(text)
            .map(|env| EnvFile { env, kind: EnvFileKind::Pipeline })
            .map_err(|e| e.to_string());
    }
    let kind = match expected {
        Some(k) => k,
        None => match guess(text) {
            Some(EnvKind::Profile) => EnvFileKind::Profile,
            Some(EnvKind::Trace) => EnvFileKind::Trace,
            Some(EnvKind::Bounds) => EnvFileKind::Bounds,
            None => {
                return Err("cannot tell which environment this is: a pipeline environment starts with \
                            `\"version\": 1` (see docs/pipeline.md)"
                    .to_owned());
            }
        },
    };
    let env = match kind {
        EnvFileKind::Pipeline => PipelineEnv::from_json(text).map_err(|e| e.to_string())?,
        EnvFileKind::Profile => FuncEnv::from_json(text).map_err(|e| e.to_string())?.to_pipeline_env(),
        EnvFileKind::Trace => {
            TraceEnv::from_json(text).and_then(|t| t.to_pipeline_env()).map_err(|e| e.to_string())?
        }
        EnvFileKind::Bounds => {
            // A bounds env that looks like another pass's file gets the same hint as the
            // other readers give.
            loopir_bounds::env::BoundsEnv::from_json(text)
                .map_err(|e| format!("{e}{}", EnvKind::Bounds.hint(text)))?
                .to_pipeline_env()
        }
    };
    env.validate().map_err(|e| e.to_string())?;
    Ok(EnvFile { env, kind })
}

fn conflict(field: String, what: &str, a: &str, b: &str) -> EnvError {
    EnvError::field(field, format!("the environment files disagree on {what}: {a} in one, {b} in another"))
}

/// Takes `b` where `a` says nothing; two different values are a conflict.
fn merge_opt<T: Clone + PartialEq + std::fmt::Debug>(
    a: &mut Option<T>,
    b: &Option<T>,
    field: impl FnOnce() -> String,
    what: &str,
) -> Result<(), EnvError> {
    match (a.as_ref(), b) {
        (Some(x), Some(y)) if x != y => Err(conflict(field(), what, &format!("{x:?}"), &format!("{y:?}"))),
        (None, Some(y)) => {
            *a = Some(y.clone());
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Takes `b` where `a` is empty; two different non-empty lists are a conflict.
fn merge_list<T: Clone + PartialEq + std::fmt::Debug>(
    a: &mut Vec<T>,
    b: &[T],
    field: impl FnOnce() -> String,
    what: &str,
) -> Result<(), EnvError> {
    if a.is_empty() {
        *a = b.to_vec();
        Ok(())
    } else if !b.is_empty() && a.as_slice() != b {
        Err(conflict(field(), what, &format!("{a:?}"), &format!("{b:?}")))
    } else {
        Ok(())
    }
}

/// Merges the environments of one pipeline, in order. Funcs, images and outputs are
/// matched by name; a setting one file gives and another does not is taken; two files
/// that give different values for the same setting are an error naming it. Switches
/// (tracing, `profile: false`) combine; the fresh-name counters are the first file's that
/// has any (they describe the state before the first pass).
pub fn merge_envs(envs: impl IntoIterator<Item = PipelineEnv>) -> Result<PipelineEnv, EnvError> {
    let mut out = PipelineEnv::new();
    for env in envs {
        merge_opt(&mut out.pipeline, &env.pipeline, || "pipeline".to_owned(), "the pipeline name")?;
        for f in &env.funcs {
            let i = match out.funcs.iter().position(|g| g.name == f.name) {
                Some(i) => i,
                None => {
                    out.funcs.push(FuncDesc::new(&f.name));
                    out.funcs.len() - 1
                }
            };
            let g = &mut out.funcs[i];
            let name = f.name.clone();
            let at = |what: &str| format!("funcs[{i}].{what}");
            merge_opt(
                &mut g.display_name,
                &f.display_name,
                || at("display_name"),
                &format!("the display name of `{name}`"),
            )?;
            merge_opt(&mut g.types, &f.types, || at("types"), &format!("the types of `{name}`"))?;
            merge_opt(&mut g.args, &f.args, || at("args"), &format!("the arguments of `{name}`"))?;
            merge_list(&mut g.updates, &f.updates, || at("updates"), &format!("the updates of `{name}`"))?;
            merge_list(
                &mut g.bounds,
                &f.bounds,
                || at("bounds"),
                &format!("the explicit bounds of `{name}`"),
            )?;
            merge_opt(
                &mut g.storage_order,
                &f.storage_order,
                || at("storage_order"),
                &format!("the storage order of `{name}`"),
            )?;
            merge_list(&mut g.tags, &f.tags, || at("tags"), &format!("the trace tags of `{name}`"))?;
            merge_opt(
                &mut g.extern_def,
                &f.extern_def,
                || at("extern"),
                &format!("the extern definition of `{name}`"),
            )?;
            g.profile &= f.profile;
            g.trace_loads |= f.trace_loads;
            g.trace_stores |= f.trace_stores;
            g.trace_realizations |= f.trace_realizations;
        }
        for img in &env.images {
            match out.images.iter().position(|i| i.name == img.name) {
                Some(k) if out.images[k] != *img => {
                    return Err(conflict(
                        format!("images[{k}]"),
                        &format!("image `{}`", img.name),
                        &format!("{:?}", out.images[k]),
                        &format!("{img:?}"),
                    ));
                }
                Some(_) => {}
                None => out.images.push(img.clone()),
            }
        }
        if let Some(params) = &env.params {
            merge_list(
                out.params.get_or_insert_with(Vec::new),
                params,
                || "params".to_owned(),
                "the parameters",
            )?;
        }
        for o in &env.outputs {
            match out.outputs.iter().position(|p| p.func == o.func) {
                Some(k) => {
                    let p = &mut out.outputs[k];
                    let func = o.func.clone();
                    merge_opt(
                        &mut p.buffer,
                        &o.buffer,
                        || format!("outputs[{k}].buffer"),
                        &format!("the buffer of output `{func}`"),
                    )?;
                    merge_list(
                        &mut p.constraints,
                        &o.constraints,
                        || format!("outputs[{k}].constraints"),
                        &format!("the constraints of output `{func}`"),
                    )?;
                }
                None => out.outputs.push(o.clone()),
            }
        }
        merge_opt(&mut out.order, &env.order, || "order".to_owned(), "the realization order")?;
        out.target.profile |= env.target.profile;
        out.target.trace_loads |= env.target.trace_loads;
        out.target.trace_stores |= env.target.trace_stores;
        out.target.trace_realizations |= env.target.trace_realizations;
        out.target.trace_pipeline |= env.target.trace_pipeline;
        merge_opt(
            &mut out.target.default_device_api,
            &env.target.default_device_api,
            || "target.default_device_api".to_owned(),
            "the target's default device API",
        )?;
        out.trace_pipeline |= env.trace_pipeline;
        if out.fresh_names.is_empty() {
            out.fresh_names = env.fresh_names.clone();
        }
    }
    out.validate()?;
    Ok(out)
}
