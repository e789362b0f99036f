//! `loopir lower`: run several passes in order on a `.stmt` file through the library's
//! [`Pipeline`], optionally saving the IR after each one (`--save-temps DIR`) and timing
//! them (`--timings`).
//!
//! The command is a table of names over the library's passes ([`PASSES`]): adding a pass
//! to the command is adding one entry there. The environment is one pipeline environment
//! (`--env PIPELINE.json`, `docs/pipeline.md`); the files of single passes are still
//! accepted (`--env FILE` or `--env PASS=FILE`), converted and merged, with a note of
//! what each lacks.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use loopir::dialect::Dialect;
use loopir::pipeline::{
    Cause, LowerCtx, Pass as LibPass, Pipeline, PipelineEnv, PipelineError, PipelineObserver,
};
use loopir::{Stmt, StmtFile};
use loopir_profiling::{EnvFileKind, FuncEnv, InjectProfiling, InjectTracing, merge_envs, read_env_file};

use super::fmt::{ReadArgs, read_stmt_file, write_stmt_file};
use super::profile::ProfileOptionArgs;
use super::save_temps::{SaveTemps, step_file_name};
use super::{read_env_text, read_input};
use crate::error::{CliError, InFile};
use crate::streams::{eprint, print};

/// Arguments of `loopir lower`.
#[derive(Args)]
pub struct LowerArgs {
    /// The `.stmt` file to lower (`-` or nothing for standard input).
    file: Option<PathBuf>,
    /// The passes to run, in order, comma-separated (e.g. `trace,bounds`);
    /// `--list-passes` shows the available ones.
    #[arg(long, value_name = "PASSES", value_delimiter = ',', required_unless_present = "list_passes")]
    passes: Vec<String>,
    /// The pipeline's environment: a pipeline environment (`"version": 1`, see
    /// docs/pipeline.md), or the environment files of single passes, as FILE or PASS=FILE
    /// (e.g. `profile=profile.env.json`); repeat to merge several files.
    #[arg(long = "env", value_name = "[PASS=]FILE")]
    envs: Vec<String>,
    /// The pipeline name (overrides the environment's).
    #[arg(long)]
    pipeline: Option<String>,
    /// Write the IR as parsed to DIR/00.input.stmt and the IR after the K-th pass to
    /// DIR/K.PASS.stmt (K in two digits, more if there are 100 passes or more). DIR is
    /// created if needed; the NN.PASS.stmt files of an earlier run are removed first, and
    /// files are replaced, never written through a symbolic link.
    #[arg(long, value_name = "DIR")]
    save_temps: Option<PathBuf>,
    /// Print one JSON object on standard error: parse time, each pass's time and the time
    /// to print the result, in nanoseconds.
    #[arg(long)]
    timings: bool,
    /// Run the verifier (`loopir verify`) on the input and after every pass.
    #[arg(long)]
    verify: bool,
    /// Say on standard error what each single pass's environment file lacks as a
    /// pipeline environment.
    #[arg(long)]
    verbose: bool,
    /// Let the profile pass accept input without `profiling_enable_instance_marker()`
    /// (the profiler instance is then never enabled); without this flag such input is
    /// refused.
    #[arg(long)]
    allow_missing_marker: bool,
    /// List the available passes and exit.
    #[arg(long, exclusive = true)]
    list_passes: bool,
    /// Options of the `profile` pass.
    #[command(flatten)]
    profile: ProfileOptionArgs,
    #[command(flatten)]
    read: ReadArgs,
    /// Write the output (and the `--save-temps` steps) in this dialect (`reference` or
    /// `21`; default: the input's).
    #[arg(long, value_name = "DIALECT")]
    to: Option<Dialect>,
}

/// One pass of the table.
pub struct Pass {
    /// The name used in `--passes`, `--env` and the saved file names.
    pub name: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
    /// What it reads of the environment.
    pub env: &'static str,
    /// The kind of single-pass environment file `--env NAME=FILE` holds for it.
    pub file_kind: EnvFileKind,
    /// Makes the library's pass.
    pub make: fn(&LowerArgs) -> Box<dyn LibPass>,
}

/// The passes `loopir lower` can run.
pub const PASSES: &[Pass] = &[
    Pass {
        name: "profile",
        summary: "inject Halide's sampling-profiler instrumentation (options: --level, --only, --no-*)",
        env: "pipeline name, Funcs' display names and no-profiling flags (profile.env.json); \
              default: every produce/consume name is a profiled Func",
        file_kind: EnvFileKind::Profile,
        make: |a| {
            Box::new(InjectProfiling {
                options: a.profile.options(),
                allow_missing_marker: a.allow_missing_marker,
            })
        },
    },
    Pass {
        name: "trace",
        summary: "inject Halide's tracing calls (loads, stores, realizations, pipeline events)",
        env: "Funcs with tracing switches, tags, arguments and types, outputs, images, order (trace.env.json)",
        file_kind: EnvFileKind::Trace,
        make: |_| Box::new(InjectTracing),
    },
    Pass {
        name: "bounds",
        summary: "computation bounds inference: define each stage's min/max symbols",
        env: "realization order, outputs, Funcs' types, arguments, updates, explicit bounds (bounds.env.json)",
        file_kind: EnvFileKind::Bounds,
        make: |_| Box::new(loopir_bounds::ComputationBounds),
    },
    Pass {
        name: "allocation_bounds",
        summary: "allocation bounds inference: define each realization's min/extent_realized symbols",
        env: "realization order, outputs, Funcs' types and explicit bounds (bounds.env.json)",
        file_kind: EnvFileKind::Bounds,
        make: |_| Box::new(loopir_bounds::AllocationBounds),
    },
    Pass {
        name: "flatten",
        summary: "storage flattening: realizations to allocations, Func and image accesses to loads and stores",
        env: "Funcs' pure arguments, types and storage, outputs (bounds.env.json); images inferred",
        file_kind: EnvFileKind::Bounds,
        make: |_| Box::new(loopir_lower::StorageFlattening),
    },
    Pass {
        name: "gpu_vars",
        summary: "canonical GPU loop names (`.block_id_x`, `.thread_id_y`, ...), the GPU schedule checked; \
                  before `flatten`",
        env: "nothing",
        file_kind: EnvFileKind::Pipeline,
        make: |_| Box::new(loopir_lower::CanonicalizeGpuVars),
    },
    Pass {
        name: "gpu_api",
        summary: "Default_GPU loops put on the target's device API; after `flatten`",
        env: "the target's default_device_api (a pipeline environment)",
        file_kind: EnvFileKind::Pipeline,
        make: |_| Box::new(loopir_lower::SelectGpuApi),
    },
    Pass {
        name: "host_dev_copies",
        summary: "device allocations, copies to and from the device, dirty bits and device frees of the \
                  buffers GPU loops use; after `gpu_api`",
        env: "nothing",
        file_kind: EnvFileKind::Pipeline,
        make: |_| Box::new(loopir_lower::InjectHostDevBufferCopies),
    },
];

/// The registry entry named `name`.
fn find_pass(name: &str) -> Option<&'static Pass> {
    PASSES.iter().find(|p| p.name == name)
}

fn available() -> String {
    PASSES.iter().map(|p| p.name).collect::<Vec<_>>().join(", ")
}

/// The registry as `loopir lower --list-passes` prints it.
fn list_passes() -> String {
    let mut s = String::new();
    for p in PASSES {
        s.push_str(&format!("{:<18} {}\n{:<18} reads: {}\n", p.name, p.summary, "", p.env));
    }
    s
}

/// The passes named by `--passes`, or a message naming the unknown one.
fn resolve_passes(names: &[String]) -> Result<Vec<&'static Pass>, CliError> {
    let names: Vec<&str> = names.iter().map(|n| n.trim()).collect();
    if names.is_empty() || names.iter().all(|n| n.is_empty()) {
        return Err(CliError::input(format!("--passes names no pass; available passes: {}", available())));
    }
    names
        .iter()
        .map(|&n| {
            if n.is_empty() {
                return Err(CliError::input(format!(
                    "--passes has an empty pass name; available passes: {}",
                    available()
                )));
            }
            find_pass(n).ok_or_else(|| {
                CliError::input(format!("unknown pass `{n}` in --passes; available passes: {}", available()))
            })
        })
        .collect()
}

/// Reads the `--env` arguments: each a pipeline environment or a single pass's file
/// (as PASS=FILE, the pass must be in `--passes`, once), merged in the order of the passes
/// they were given for (plain files first). With `--verbose`, each single-pass file gets
/// a note of what it lacks on standard error.
fn read_envs(specs: &[String], passes: &[&Pass], verbose: bool) -> Result<Option<PipelineEnv>, CliError> {
    let mut files: Vec<(usize, PathBuf, EnvFileKind, PipelineEnv)> = Vec::new();
    let mut named: Vec<&'static str> = Vec::new();
    for spec in specs {
        let (rank, path, expected) = match spec.split_once('=') {
            Some((name, path)) => {
                let Some(pass) = find_pass(name.trim()) else {
                    return Err(CliError::input(format!(
                        "--env {spec}: unknown pass `{name}`; available passes: {}",
                        available()
                    )));
                };
                let Some(rank) = passes.iter().position(|p| p.name == pass.name) else {
                    return Err(CliError::input(format!(
                        "--env {spec}: pass `{}` is not in --passes",
                        pass.name
                    )));
                };
                if named.contains(&pass.name) {
                    return Err(CliError::input(format!(
                        "--env {spec}: a second environment for pass `{}`",
                        pass.name
                    )));
                }
                named.push(pass.name);
                (rank + 1, PathBuf::from(path), Some(pass.file_kind))
            }
            None => (0, PathBuf::from(spec), None),
        };
        let text = read_env_text(&path)?;
        let file = read_env_file(&text, expected).in_file(path.display())?;
        files.push((rank, path, file.kind, file.env));
    }
    files.sort_by_key(|f| f.0);
    for (_, path, kind, _) in files.iter().filter(|_| verbose) {
        if let Some(lacks) = kind.lacks() {
            eprint(&format!(
                "note: {} is a single pass's environment file, read as a pipeline environment: {lacks}\n",
                path.display()
            ))?;
        }
    }
    if files.is_empty() {
        return Ok(None);
    }
    let names: Vec<String> = files.iter().map(|f| f.1.display().to_string()).collect();
    merge_envs(files.into_iter().map(|f| f.3))
        .map(Some)
        .map_err(|e| CliError::input(format!("{}: {e}", names.join(" + "))))
}

/// Flags that only the `profile` pass reads are refused when it does not run: silently
/// ignored, they would leave the user believing they took effect.
fn check_profile_flags(args: &LowerArgs, passes: &[&Pass]) -> Result<(), CliError> {
    if passes.iter().any(|p| p.name == "profile") {
        return Ok(());
    }
    let flag = if args.allow_missing_marker {
        "--allow-missing-marker"
    } else if args.profile.given() {
        "the profiling options (--level, --only, --no-*)"
    } else {
        return Ok(());
    };
    Err(CliError::input(format!("{flag}: only the profile pass reads it, and it is not in --passes")))
}

/// Saves the IR after each step (`--save-temps`).
struct SaveObserver<'a> {
    temps: &'a SaveTemps,
    total: usize,
    /// The dialect the steps are written in.
    dialect: Dialect,
}

impl PipelineObserver for SaveObserver<'_> {
    fn after(
        &mut self,
        index: usize,
        pass: Option<&dyn LibPass>,
        stmt: &Stmt,
        _: Duration,
    ) -> Result<(), Cause> {
        let name = pass.map_or("input", |p| p.name());
        let file = step_file_name(index, name, self.total);
        let cause = |e: CliError| match e {
            CliError::Io(m) | CliError::Input(m) => Cause::from(m),
            _ => Cause::from("cannot save the step"),
        };
        let bytes =
            write_stmt_file(&StmtFile::Stmt(stmt.clone()), self.dialect, false, &file).map_err(cause)?;
        let text =
            String::from_utf8(bytes).map_err(|_| Cause::from("a step printed bytes that are not UTF-8"))?;
        self.temps.save(&file, &text).map_err(cause)
    }
}

/// Runs `loopir lower`.
pub fn run(args: &LowerArgs) -> Result<(), CliError> {
    if args.list_passes {
        return print(list_passes().as_bytes());
    }
    // Everything that can be checked before reading the input is checked first.
    let passes = resolve_passes(&args.passes)?;
    check_profile_flags(args, &passes)?;
    let given = read_envs(&args.envs, &passes, args.verbose)?;
    let temps = args.save_temps.as_deref().map(SaveTemps::prepare).transpose()?;
    let input = read_input(args.file.as_deref())?;

    let mut env = given.clone().unwrap_or_else(PipelineEnv::new);
    if let Some(name) = &args.pipeline {
        env.pipeline = Some(name.clone());
    }
    // Func calls and image loads are told apart by their call kinds, which only the
    // environment can give the parser (untyped, an image's loads would go untraced).
    let mut parse_env = env.parse_env();
    // Storage flattening allocates each realization with its Func's value type, which the
    // parser gives the Funcs of its env (and their tuple elements) only.
    if passes.iter().any(|p| p.name == "flatten") {
        let bounds = loopir_bounds::env::BoundsEnv::from_pipeline_env(&env);
        let funcs = loopir_lower::FlattenEnv::from_bounds_env(&bounds)
            .map_err(|e| CliError::input(format!("{}: environment: {e}", input.name)))?
            .parse_env()
            .funcs;
        for (name, types) in funcs {
            parse_env.funcs.entry(name).or_insert(types);
        }
    }
    let t0 = Instant::now();
    let parsed = read_stmt_file(&input, &parse_env, &args.read)?;
    let dialect = args.to.unwrap_or(parsed.dialect);
    let mut file = parsed.value;
    // In a module file, the pipeline's function is lowered.
    let (stmt, pipeline_index) = match &file {
        StmtFile::Stmt(s) => (s.clone(), None),
        StmtFile::Module(m) => {
            let i = m.pipeline_index().ok_or_else(|| {
                CliError::input(format!("{}: the module has no pipeline function to lower", input.name))
            })?;
            (m.functions[i].body.clone(), Some(i))
        }
    };
    let parse_ns = t0.elapsed().as_nanos();
    if env.funcs.is_empty() && passes.iter().any(|p| p.name == "profile") {
        // Nothing known: every produce/consume name is a profiled Func.
        let inferred = FuncEnv::infer_from_stmt(&stmt).to_pipeline_env();
        env.funcs = inferred.funcs;
    }
    let mut ctx =
        LowerCtx::new(env).map_err(|e| CliError::input(format!("{}: environment: {e}", input.name)))?;
    ctx.options.verify = args.verify;

    let mut pipeline = Pipeline::new();
    for p in &passes {
        pipeline.push((p.make)(args));
    }
    let mut timings = loopir::pipeline::Timings::default();
    let mut saver = temps.as_ref().map(|t| SaveObserver { temps: t, total: passes.len(), dialect });
    let mut observers: Vec<&mut dyn PipelineObserver> = vec![&mut timings];
    if let Some(s) = saver.as_mut() {
        observers.push(s);
    }
    let out = pipeline.run_observed(&stmt, &mut ctx, &mut observers).map_err(|e| match e {
        PipelineError::Observer { cause, .. } => CliError::Io(cause.to_string()),
        other => CliError::Input(format!("{}: {other}", input.name)),
    })?;

    let t1 = Instant::now();
    match (&mut file, pipeline_index) {
        (StmtFile::Module(m), Some(i)) => m.functions[i].body = out,
        (file, _) => *file = StmtFile::Stmt(out),
    }
    let text = write_stmt_file(&file, dialect, false, &input.name)?;
    let print_ns = t1.elapsed().as_nanos();
    print(&text)?;
    if args.timings {
        let passes: Vec<String> = timings
            .passes
            .iter()
            .map(|(name, d)| format!("{{\"pass\": \"{name}\", \"ns\": {}}}", d.as_nanos()))
            .collect();
        eprint(&format!(
            "{{\"parse_ns\": {parse_ns}, \"passes\": [{}], \"print_ns\": {print_ns}}}\n",
            passes.join(", ")
        ))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registry_names_are_unique_and_plain() {
        for (i, p) in PASSES.iter().enumerate() {
            assert!(p.name.bytes().all(|b| b.is_ascii_lowercase() || b == b'_'), "{}", p.name);
            assert!(PASSES[..i].iter().all(|q| q.name != p.name), "{}", p.name);
        }
    }

    fn message(e: CliError) -> String {
        match e {
            CliError::Input(m) => m,
            _ => "not an input error".into(),
        }
    }

    #[test]
    fn unknown_passes_are_named_with_the_available_ones() {
        let e = resolve_passes(&["profile".into(), "simplify".into()]).err().map(message).unwrap_or_default();
        assert!(
            e.contains("unknown pass `simplify`")
                && e.contains("available passes: profile, trace, bounds, allocation_bounds, flatten"),
            "{e}"
        );
        assert!(resolve_passes(&[]).is_err());
        assert!(resolve_passes(&["profile".into(), "".into()]).is_err());
    }
}
