//! `loopir profile`: the inject-profiling pass on a `.stmt` file, in either dialect; on a
//! module file, on its pipeline's function.

use std::path::PathBuf;
use std::time::Instant;

use clap::Args;
use loopir::dialect::Dialect;
use loopir::{ParseEnv, StmtFile};
use loopir_profiling::{Feature, FuncEnv, ProfileOptions, inject_profiling};

use super::fmt::{ReadArgs, read_stmt_file, write_stmt_file};
use super::{read_env, read_input};
use crate::error::{CliError, InFile};
use crate::streams::{eprint, print};

/// Arguments of `loopir profile`.
#[derive(Args)]
pub struct ProfileArgs {
    /// The `.stmt` file to instrument (`-` or nothing for standard input).
    file: Option<PathBuf>,
    /// The Funcs of the pipeline, as JSON (`profile.env.json`). Without it, every
    /// produce/consume name is taken for a profiled Func.
    #[arg(long)]
    env: Option<PathBuf>,
    /// The pipeline name (default: the env's `pipeline`, else the name of a module file's
    /// pipeline function).
    #[arg(long)]
    pipeline: Option<String>,
    /// Print the entry table as the profiler report's tree instead of the statement.
    #[arg(long, conflicts_with = "json")]
    entries: bool,
    /// Print the entry table as JSON instead of the statement (each row with its stable
    /// `key`).
    #[arg(long)]
    json: bool,
    /// With `--entries`: print each row's stable key (16 hex digits) before it.
    // `conflicts_with`: clap drops the requirement of `--entries` when `--json`, which
    // conflicts with it, is given.
    #[arg(long, requires = "entries", conflicts_with = "json")]
    keys: bool,
    #[command(flatten)]
    features: ProfileOptionArgs,
    /// Run the pass this many times (for timing).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,
    /// Print one JSON object with parse, pass (median of the repeats) and print times in
    /// nanoseconds on standard error.
    #[arg(long)]
    timings: bool,
    #[command(flatten)]
    read: ReadArgs,
    /// Write the output in this dialect (`reference` or `21`; default: the input's).
    #[arg(long, value_name = "DIALECT")]
    to: Option<Dialect>,
}

/// Runs `loopir profile`.
pub fn run(args: &ProfileArgs) -> Result<(), CliError> {
    let input = read_input(args.file.as_deref())?;
    let env = read_env(args.env.as_deref(), FuncEnv::from_json)?;

    let t0 = Instant::now();
    let parsed = read_stmt_file(&input, &ParseEnv::default(), &args.read)?;
    let parse_ns = t0.elapsed().as_nanos();
    let mut file = parsed.value;

    // A module is profiled in its pipeline's function, which names the pipeline.
    let (stmt, module_pipeline) = match &file {
        StmtFile::Stmt(s) => (s.clone(), None),
        StmtFile::Module(m) => {
            let f = m.pipeline().ok_or_else(|| {
                CliError::input(format!("{}: the module has no pipeline function to profile", input.name))
            })?;
            (f.body.clone(), Some(f.name.clone()))
        }
    };
    let env = env.unwrap_or_else(|| FuncEnv::infer_from_stmt(&stmt));
    let pipeline = args
        .pipeline
        .as_deref()
        .or(env.pipeline_name())
        .or(module_pipeline.as_deref())
        .ok_or_else(|| {
            CliError::input(
                "no pipeline name: pass --pipeline NAME, an --env that names the pipeline, or a module file",
            )
        })?
        .to_owned();

    let options = args.features.options();
    let mut pass_times = Vec::with_capacity(args.repeat as usize);
    let mut profiled = None;
    for _ in 0..args.repeat {
        let t = Instant::now();
        let r = inject_profiling(&stmt, &pipeline, &env, &options);
        pass_times.push(t.elapsed().as_nanos());
        profiled = Some(r.in_file(&input.name)?);
    }
    // `--repeat` is at least 1.
    let profiled = profiled.ok_or_else(|| CliError::input("--repeat 0: the pass did not run"))?;

    let t1 = Instant::now();
    let text: Vec<u8> = if args.entries && args.keys {
        profiled.entries.render_tree_with_keys().into_bytes()
    } else if args.entries {
        profiled.entries.render_tree().into_bytes()
    } else if args.json {
        let mut j = profiled.entries.to_json();
        j.push('\n');
        j.into_bytes()
    } else {
        match &mut file {
            StmtFile::Stmt(s) => *s = profiled.stmt,
            StmtFile::Module(m) => {
                if let Some(i) = m.pipeline_index() {
                    m.functions[i].body = profiled.stmt;
                }
            }
        }
        // A module's buffers are bytes, not text.
        write_stmt_file(&file, args.to.unwrap_or(parsed.dialect), false, &input.name)?
    };
    let print_ns = t1.elapsed().as_nanos();

    print(&text)?;
    if args.timings {
        pass_times.sort_unstable();
        let median = pass_times[pass_times.len() / 2];
        eprint(&format!(
            "{{\"parse_ns\": {parse_ns}, \"pass_ns\": {median}, \"print_ns\": {print_ns}, \"repeat\": {}}}\n",
            args.repeat
        ))?;
    }
    Ok(())
}

/// The profiling level and feature flags, shared by `loopir profile` and `loopir lower`.
///
/// The options start from `--level N` (default 3) or `--only FEATURES`, then each
/// `--no-FEATURE` turns one feature off.
#[derive(Args, Clone, Debug, Default)]
pub struct ProfileOptionArgs {
    /// Profiling level: 0 off (the input unchanged), 1 timing, 2 timing and memory (heap,
    /// stack), 3 everything (the default: the reference compiler's output).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(0..=3))]
    level: Option<u8>,
    /// Exactly these features instead of a level, comma-separated: timing, heap, stack,
    /// threads, tokens, copies, device-sync (or none, all).
    #[arg(long, value_name = "FEATURES", conflicts_with = "level", value_parser = parse_features)]
    only: Option<ProfileOptions>,
    /// Leave out current-row marks (`halide_profiler_set_current_func`).
    #[arg(long)]
    no_timing: bool,
    /// Leave out heap accounting (`halide_profiler_memory_allocate` / `_free`).
    #[arg(long)]
    no_heap: bool,
    /// Leave out static stack peaks (`profiler_func_stack_peak_buf`).
    #[arg(long)]
    no_stack: bool,
    /// Leave out active-thread counting around parallel loops, forks and launches.
    #[arg(long)]
    no_threads: bool,
    /// Leave out sampling tokens in leaf parallel tasks.
    #[arg(long)]
    no_tokens: bool,
    /// Leave out the rows and billing of host<->device copies.
    #[arg(long)]
    no_copies: bool,
    /// Leave out device syncs after GPU launches and copies to the device.
    #[arg(long)]
    no_device_sync: bool,
}

fn parse_features(s: &str) -> Result<ProfileOptions, String> {
    s.parse::<ProfileOptions>().map_err(|e| e.to_string())
}

impl ProfileOptionArgs {
    /// Whether any of these flags is on the command line.
    pub fn given(&self) -> bool {
        let Self {
            level,
            only,
            no_timing,
            no_heap,
            no_stack,
            no_threads,
            no_tokens,
            no_copies,
            no_device_sync,
        } = self;
        level.is_some()
            || only.is_some()
            || [no_timing, no_heap, no_stack, no_threads, no_tokens, no_copies, no_device_sync]
                .into_iter()
                .any(|f| *f)
    }

    /// The options these flags select.
    pub fn options(&self) -> ProfileOptions {
        let base = match (self.only, self.level) {
            (Some(only), _) => only,
            // The parser admits levels 0 to 3 only.
            (None, Some(level)) => ProfileOptions::level(level).unwrap_or_default(),
            (None, None) => ProfileOptions::default(),
        };
        [
            (self.no_timing, Feature::Timing),
            (self.no_heap, Feature::HeapMemory),
            (self.no_stack, Feature::StackPeaks),
            (self.no_threads, Feature::ThreadActivity),
            (self.no_tokens, Feature::SamplingTokens),
            (self.no_copies, Feature::CopySites),
            (self.no_device_sync, Feature::DeviceSync),
        ]
        .into_iter()
        .filter(|(off, _)| *off)
        .fold(base, |o, (_, f)| o.without(f))
    }
}
