//! `loopir lower`: run several passes in order on a `.stmt` file, optionally saving the IR
//! after each one (`--save-temps DIR`) and timing them (`--timings`).
//!
//! The passes come from [`PASSES`], a registry with one entry per pass: adding a pass to
//! the command is adding one entry there.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use loopir::{ParseEnv, Stmt, stmt_to_string};
use loopir_profiling::{FuncEnv, ProfileOptions, TraceEnv, inject_profiling, inject_tracing};

use super::profile::ProfileOptionArgs;
use super::save_temps::{SaveTemps, step_file_name};
use super::{parse, read_env_text, read_input};
use crate::error::{CliError, InFile};
use crate::streams::{eprint, print};

/// Arguments of `loopir lower`.
#[derive(Args)]
pub struct LowerArgs {
    /// The `.stmt` file to lower (`-` or nothing for standard input).
    file: Option<PathBuf>,
    /// The passes to run, in order, comma-separated (e.g. `trace,profile`);
    /// `--list-passes` shows the available ones.
    #[arg(long, value_name = "PASSES", value_delimiter = ',', required_unless_present = "list_passes")]
    passes: Vec<String>,
    /// The environment file of one pass, as PASS=FILE (e.g. `profile=profile.env.json`);
    /// repeat for several passes.
    #[arg(long = "env", value_name = "PASS=FILE")]
    envs: Vec<String>,
    /// The pipeline name for passes that need one (default: the pass's environment file).
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
    /// List the available passes and exit.
    #[arg(long, exclusive = true)]
    list_passes: bool,
    /// Options of the `profile` pass.
    #[command(flatten)]
    profile: ProfileOptionArgs,
}

/// What every pass may use besides the statement and its own environment file.
pub struct PassContext<'a> {
    /// `--pipeline`, if given.
    pub pipeline: Option<&'a str>,
    /// The options of the `profile` pass.
    pub profile_options: ProfileOptions,
    /// Func value bounds computed by an earlier `bounds` pass of this run: the reference
    /// computes them once, from the definitions, and hands the same table to allocation
    /// bounds inference.
    pub func_value_bounds: std::cell::RefCell<Option<std::rc::Rc<loopir_bounds::FuncValueBounds>>>,
}

/// An environment file given with `--env PASS=FILE`, read before the input is parsed.
pub struct EnvFile {
    /// The path, for messages.
    pub path: PathBuf,
    /// The contents.
    pub text: String,
}

/// One pass of the registry.
pub struct Pass {
    /// The name used in `--passes`, `--env` and the saved file names.
    pub name: &'static str,
    /// One line on what it does.
    pub summary: &'static str,
    /// What `--env NAME=FILE` holds for it.
    pub env: &'static str,
    /// Runs the pass.
    pub run: fn(&Stmt, Option<&EnvFile>, &PassContext<'_>) -> Result<Stmt, CliError>,
}

/// The passes `loopir lower` can run.
pub const PASSES: &[Pass] = &[
    Pass {
        name: "profile",
        summary: "inject Halide's sampling-profiler instrumentation (options: --level, --only, --no-*)",
        env: "profile.env.json (Funcs, no-profiling flags, display names, pipeline name); \
              default: every produce/consume name is a profiled Func",
        run: run_profile,
    },
    Pass {
        name: "trace",
        summary: "inject Halide's tracing calls (loads, stores, realizations, pipeline events)",
        env: "trace.env.json (required: which Funcs, outputs and images are traced)",
        run: run_trace,
    },
    Pass {
        name: "bounds",
        summary: "computation bounds inference: define each stage's min/max symbols",
        env: "bounds.env.json (required: realization order, outputs, Funcs' types; fresh-name counter)",
        run: run_computation_bounds,
    },
    Pass {
        name: "allocation_bounds",
        summary: "allocation bounds inference: define each realization's min/extent_realized symbols",
        env: "bounds.env.json (required: realization order, outputs, Funcs' types and explicit bounds)",
        run: run_allocation_bounds,
    },
    Pass {
        name: "flatten",
        summary: "storage flattening: realizations to allocations, Func and image accesses to loads and stores",
        env: "bounds.env.json (required: Funcs' pure arguments and types, outputs); images inferred",
        run: run_flatten,
    },
];

fn run_profile(stmt: &Stmt, env: Option<&EnvFile>, ctx: &PassContext<'_>) -> Result<Stmt, CliError> {
    let env = match env {
        Some(f) => FuncEnv::from_json(&f.text).in_file(f.path.display())?,
        None => FuncEnv::infer_from_stmt(stmt),
    };
    if ctx.profile_options.is_empty() {
        // Level 0: the pass is off and needs nothing.
        return Ok(stmt.clone());
    }
    let pipeline = ctx.pipeline.or(env.pipeline_name()).ok_or_else(|| {
        CliError::input(
            "no pipeline name: pass --pipeline NAME or an --env profile=FILE that names the pipeline",
        )
    })?;
    inject_profiling(stmt, pipeline, &env, &ctx.profile_options)
        .map(|p| p.stmt)
        .map_err(|e| CliError::input(e.to_string()))
}

/// The environment file a pass cannot run without.
fn required<'e>(env: Option<&'e EnvFile>, pass: &str, what: &str) -> Result<&'e EnvFile, CliError> {
    env.ok_or_else(|| CliError::input(format!("the {pass} pass needs its environment: --env {pass}={what}")))
}

fn run_trace(stmt: &Stmt, env: Option<&EnvFile>, _ctx: &PassContext<'_>) -> Result<Stmt, CliError> {
    let f = required(env, "trace", "TRACE_ENV.json")?;
    let env = TraceEnv::from_json(&f.text).in_file(f.path.display())?;
    inject_tracing(stmt, &env).map_err(|e| CliError::input(e.to_string()))
}

fn run_allocation_bounds(
    stmt: &Stmt,
    env: Option<&EnvFile>,
    ctx: &PassContext<'_>,
) -> Result<Stmt, CliError> {
    let f = required(env, "allocation_bounds", "BOUNDS_ENV.json")?;
    let env = loopir_bounds::env::BoundsEnv::from_json(&f.text).in_file(f.path.display())?;
    // Without an earlier `bounds` pass, the Provides of this statement stand in for the
    // definitions.
    let func_bounds = ctx.func_value_bounds.borrow().clone().unwrap_or_else(|| {
        std::rc::Rc::new(loopir_bounds::func_value_bounds::func_value_bounds_from_text(
            &loopir_simplify::Ctx::new(),
            stmt,
        ))
    });
    loopir_bounds::allocation_bounds::allocation_bounds_inference(stmt, &env, &func_bounds, 0)
        .map_err(|e| CliError::input(e.to_string()))
}

fn run_computation_bounds(
    stmt: &Stmt,
    env: Option<&EnvFile>,
    pass_ctx: &PassContext<'_>,
) -> Result<Stmt, CliError> {
    let f = required(env, "bounds", "BOUNDS_ENV.json")?;
    let env = loopir_bounds::env::BoundsEnv::from_json(&f.text).in_file(f.path.display())?;
    let ctx = loopir_simplify::Ctx::new();
    ctx.seed_t(env.fresh_names.t.unwrap_or(0));
    let func_bounds = loopir_bounds::func_value_bounds::func_value_bounds_from_text(&ctx, stmt);
    let out =
        loopir_bounds::compute_bounds::computation_bounds_inference_with(&ctx, stmt, &env, &func_bounds)
            .map_err(|e| CliError::input(e.to_string()));
    *pass_ctx.func_value_bounds.borrow_mut() = Some(std::rc::Rc::new(func_bounds));
    out
}

fn run_flatten(stmt: &Stmt, env: Option<&EnvFile>, _ctx: &PassContext<'_>) -> Result<Stmt, CliError> {
    let f = required(env, "flatten", "BOUNDS_ENV.json")?;
    let bounds = loopir_bounds::env::BoundsEnv::from_json(&f.text).in_file(f.path.display())?;
    let env = super::flatten::flatten_env(&bounds, &[], stmt).in_file(f.path.display())?;
    // The passes of one run do not share a fresh-name counter: start past every name in use.
    let ctx = loopir_simplify::Ctx::new();
    ctx.seed_t(loopir_lower::fresh_names::first_unused_t(stmt).max(bounds.fresh_names.t.unwrap_or(0)));
    loopir_lower::storage_flattening(&ctx, stmt, &env).map_err(|e| CliError::input(e.to_string()))
}

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
        s.push_str(&format!("{:<18} {}\n{:<18} --env {}={}\n", p.name, p.summary, "", p.name, p.env));
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

/// Reads the `--env PASS=FILE` arguments; each must name a pass of `--passes`, once.
fn read_envs(specs: &[String], passes: &[&Pass]) -> Result<Vec<(&'static str, EnvFile)>, CliError> {
    let mut out: Vec<(&'static str, EnvFile)> = Vec::new();
    for spec in specs {
        let Some((name, path)) = spec.split_once('=') else {
            return Err(CliError::input(format!(
                "--env {spec}: expected PASS=FILE (e.g. --env profile=profile.env.json)"
            )));
        };
        let Some(pass) = find_pass(name.trim()) else {
            return Err(CliError::input(format!(
                "--env {spec}: unknown pass `{name}`; available passes: {}",
                available()
            )));
        };
        if !passes.iter().any(|p| p.name == pass.name) {
            return Err(CliError::input(format!("--env {spec}: pass `{}` is not in --passes", pass.name)));
        }
        if out.iter().any(|(n, _)| *n == pass.name) {
            return Err(CliError::input(format!(
                "--env {spec}: a second environment for pass `{}`",
                pass.name
            )));
        }
        let path = PathBuf::from(path);
        let text = read_env_text(&path)?;
        out.push((pass.name, EnvFile { path, text }));
    }
    Ok(out)
}

/// Flags that only the `profile` pass reads are refused when it does not run: silently
/// ignored, they would leave the user believing they took effect.
fn check_profile_flags(args: &LowerArgs, passes: &[&Pass]) -> Result<(), CliError> {
    if passes.iter().any(|p| p.name == "profile") {
        return Ok(());
    }
    let flag = if args.pipeline.is_some() {
        "--pipeline"
    } else if args.profile.given() {
        "the profiling options (--level, --only, --no-*)"
    } else {
        return Ok(());
    };
    Err(CliError::input(format!("{flag}: only the profile pass reads it, and it is not in --passes")))
}

/// Runs `loopir lower`.
pub fn run(args: &LowerArgs) -> Result<(), CliError> {
    if args.list_passes {
        return print(list_passes().as_bytes());
    }
    // Everything that can be checked before reading the input is checked first.
    let passes = resolve_passes(&args.passes)?;
    check_profile_flags(args, &passes)?;
    let envs = read_envs(&args.envs, &passes)?;
    let temps = args.save_temps.as_deref().map(SaveTemps::prepare).transpose()?;
    let input = read_input(args.file.as_deref())?;

    // The trace pass tells Func calls from image loads by their call kinds, which only its
    // env can give the parser (untyped, an image's loads would silently go untraced).
    let mut parse_env = match envs.iter().find(|(name, _)| *name == "trace") {
        Some((_, f)) => TraceEnv::from_json(&f.text).in_file(f.path.display())?.parse_env(),
        None => ParseEnv::default(),
    };
    // Storage flattening allocates each realization with its Func's value type, which the
    // parser gives the Funcs of its env (and their tuple elements) only.
    if let Some((_, f)) = envs.iter().find(|(name, _)| *name == "flatten") {
        let bounds = loopir_bounds::env::BoundsEnv::from_json(&f.text).in_file(f.path.display())?;
        let funcs =
            loopir_lower::FlattenEnv::from_bounds_env(&bounds).in_file(f.path.display())?.parse_env().funcs;
        for (name, types) in funcs {
            parse_env.funcs.entry(name).or_insert(types);
        }
    }
    let t0 = Instant::now();
    let mut stmt = parse(&input, &parse_env)?;
    let parse_ns = t0.elapsed().as_nanos();
    if let Some(temps) = &temps {
        temps.save(&step_file_name(0, "input", passes.len()), &stmt_to_string(&stmt))?;
    }

    let ctx = PassContext {
        pipeline: args.pipeline.as_deref(),
        profile_options: args.profile.options(),
        func_value_bounds: std::cell::RefCell::new(None),
    };
    let mut pass_ns = Vec::with_capacity(passes.len());
    for (i, pass) in passes.iter().enumerate() {
        let env = envs.iter().find(|(n, _)| *n == pass.name).map(|(_, f)| f);
        let t = Instant::now();
        let result = (pass.run)(&stmt, env, &ctx);
        pass_ns.push((pass.name, t.elapsed().as_nanos()));
        stmt = result.map_err(|e| match e {
            CliError::Input(m) => {
                CliError::Input(format!("{}: pass {} (`{}`): {m}", input.name, i + 1, pass.name))
            }
            other => other,
        })?;
        if let Some(temps) = &temps {
            temps.save(&step_file_name(i + 1, pass.name, passes.len()), &stmt_to_string(&stmt))?;
        }
    }

    let t1 = Instant::now();
    let text = stmt_to_string(&stmt);
    let print_ns = t1.elapsed().as_nanos();
    print(text.as_bytes())?;
    if args.timings {
        let passes: Vec<String> =
            pass_ns.iter().map(|(name, ns)| format!("{{\"pass\": \"{name}\", \"ns\": {ns}}}")).collect();
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
