//! `loopir run`: execute a `.stmt` file with the interpreter and print a line per output
//! buffer, ending in a hash of its contents.
//!
//! Any stage from computation bounds inference on runs: input buffers are made from the
//! seed, shaped by the pipeline's own bounds query where the IR has one (else by the
//! region bounds inference finds, grown where a probing run reads outside it), and
//! outputs get the smallest size the pipeline's own checks accept unless `--output` gives
//! one. Two stages of one pipeline run on the same shapes and seed print the same hashes
//! where they compute the same outputs.

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use clap::Args;
use loopir::{ParseEnv, StmtFile};
use loopir_bounds::env::BoundsEnv;
use loopir_bounds::{FuncValueBounds, boxes_required};
use loopir_interp::pipeline::{DEFAULT_EXTENTS, parse_scalar};
use loopir_interp::tracer::UnendedEvent;
use loopir_interp::{
    Buffer, HostRuntime, Limits, PipelineRun, ProfileClock, RecordingRuntime, RunConfig, compile_with,
    run_pipeline,
};
use loopir_simplify::ctx::Ctx;
use loopir_simplify::interval::Bound;
use loopir_simplify::scope::Scope;
use rustc_hash::FxHashMap;

use super::fmt::{ReadArgs, read_stmt_file};
use super::{read_env, read_input};
use crate::error::{CliError, InFile};
use crate::streams::{print, print_with, report};

/// Arguments of `loopir run`.
#[derive(Args)]
pub struct RunArgs {
    /// The `.stmt` file to run (`-` or nothing for standard input); of a module file, its
    /// pipeline function.
    file: Option<PathBuf>,
    /// The bounds env of the pipeline (`bounds.env.json`): the value types of its Funcs,
    /// which IR before storage flattening needs.
    #[arg(long)]
    env: Option<PathBuf>,
    /// The value of a scalar parameter the pipeline reads (`alpha=0.5`, `levels=4`).
    #[arg(long = "param", value_name = "NAME=VALUE")]
    params: Vec<String>,
    /// The extents of an output buffer (`out=64x48x3`; mins are 0). Without it, the
    /// extents the env fixes (output constraints, explicit bounds) and in the other
    /// dimensions the smallest of 16, 32, 64, 128, 256 that the pipeline accepts and
    /// computes something at.
    #[arg(long = "output", value_name = "NAME=E0xE1...")]
    outputs: Vec<String>,
    /// The seed of the input buffers' values.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Write every input and output buffer to this directory: `NAME.bin` (the values in
    /// little-endian, dimension 0 fastest) and `NAME.json` (type, mins, extents, hash).
    #[arg(long, value_name = "DIR")]
    dump: Option<PathBuf>,
    /// The most instructions the run may execute.
    #[arg(long, value_name = "N", default_value_t = Limits::default().operations)]
    max_operations: u64,
    /// The most memory the run may hold at once, in bytes (with --trace, the trace log
    /// counts too).
    #[arg(long, value_name = "BYTES", default_value_t = Limits::default().memory)]
    max_memory: usize,
    /// Run the profiler's runtime and print its report after the output lines, in the
    /// reference runtime's layout.
    #[arg(long)]
    profile: bool,
    /// Print the profiler's statistics as JSON (the reference runtime's
    /// `HL_PROFILER_JSON_OUTPUT` form) instead of the output lines.
    #[arg(long, conflicts_with_all = ["profile", "trace"])]
    profile_json: bool,
    /// What the profiler bills time in: `operations` (one microsecond per operation the
    /// interpreter executes; reproducible; the default) or `wall`. Only with `--profile`
    /// or `--profile-json`.
    #[arg(long, value_name = "CLOCK", value_parser = ["operations", "wall"])]
    profile_clock: Option<String>,
    /// Print the trace log after the output lines, and check that every event's parent
    /// is its innermost enclosing event (a violation is an error, exit 1).
    #[arg(long)]
    trace: bool,
    #[command(flatten)]
    read: ReadArgs,
}

/// Runs `loopir run`.
pub fn run(args: &RunArgs) -> Result<(), CliError> {
    if args.profile_clock.is_some() && !(args.profile || args.profile_json) {
        return Err(CliError::input(
            "--profile-clock is read by --profile and --profile-json only; without them it would be ignored",
        ));
    }
    let input = read_input(args.file.as_deref())?;
    let env = read_env(args.env.as_deref(), BoundsEnv::from_json)?;
    let parse_env = env.as_ref().map(BoundsEnv::parse_env).unwrap_or_else(ParseEnv::default);
    let parsed = read_stmt_file(&input, &parse_env, &args.read)?;
    let stmt = match parsed.value {
        StmtFile::Stmt(s) => s,
        StmtFile::Module(m) => {
            let f = m.pipeline().ok_or_else(|| {
                CliError::input(format!("{}: the module has no pipeline function to run", input.name))
            })?;
            f.body.clone()
        }
    };

    // Under --trace, the text's produce/consume event lets get the scope the pass gave
    // them (the text cannot show it); nothing else reads the trace ids.
    let stmt = if args.trace { loopir_interp::tracer::scope_trace_lets(&stmt) } else { stmt };
    let mut runtime = HostRuntime::new();
    let program = compile_with(&stmt, &runtime).in_file(&input.name)?;
    let iface = program.interface();
    let mut config = RunConfig {
        seed: args.seed,
        limits: Limits { operations: args.max_operations, memory: args.max_memory },
        ..RunConfig::default()
    };
    for text in &args.params {
        let (name, value) = split_assignment(text, "--param", "NAME=VALUE")?;
        let Some(p) = iface.scalars.iter().find(|s| &*s.name == name) else {
            return Err(CliError::input(format!(
                "--param {text}: the pipeline reads no scalar parameter `{name}` (it reads: {})",
                list(iface.scalars.iter().map(|s| s.name.to_string()))
            )));
        };
        let v = parse_scalar(value, p.ty).map_err(|e| CliError::input(format!("--param {text}: {e}")))?;
        config.params.insert(name.to_owned(), v);
    }
    for text in &args.outputs {
        let (name, shape) = split_assignment(text, "--output", "NAME=E0xE1...")?;
        let Some(b) = iface.buffers.iter().find(|b| &*b.name == name && b.is_output) else {
            return Err(CliError::input(format!(
                "--output {text}: the pipeline writes no buffer `{name}` (it writes: {})",
                list(iface.buffers.iter().filter(|b| b.is_output).map(|b| b.name.to_string()))
            )));
        };
        let extents = parse_extents(shape).map_err(|e| CliError::input(format!("--output {text}: {e}")))?;
        if let Some(n) = b.dimensions
            && n != extents.len()
        {
            return Err(CliError::input(format!(
                "--output {text}: `{name}` has {n} dimensions, the shape gives {}",
                extents.len()
            )));
        }
        config.output_extents.insert(name.to_owned(), extents);
    }
    if let Some(env) = &env {
        config.fixed_extents = fixed_extents(env, iface).map_err(|e| {
            CliError::input(format!(
                "{}: {}: {e}",
                input.name,
                args.env.as_deref().unwrap_or(Path::new("-")).display()
            ))
        })?;
        // An output size the pipeline's constraints refuse is refused here too: before
        // image checks the IR would compute it anyway.
        for (name, given) in &config.output_extents {
            let Some(fixed) = config.fixed_extents.get(name) else { continue };
            if let Some((d, (f, g))) =
                fixed.iter().zip(given).enumerate().find(|(_, (f, g))| f.is_some_and(|f| f != **g))
            {
                return Err(CliError::input(format!(
                    "--output {name}: dimension {d} has extent {g}, but the env fixes it to {}",
                    f.unwrap_or_default()
                )));
            }
        }
    }
    if !iface.answers_bounds_queries {
        config.required_regions = required_regions(&stmt, iface);
    }
    if !iface.tuple_reads.is_empty() {
        report(&format!(
            "{}: note: the text does not say which value of the tuple-valued {} a call reads \
             (Halide prints `f(x)[1]` as `f(x)`); such calls read the first value\n",
            input.name,
            list(iface.tuple_reads.iter().map(|n| n.to_string()))
        ));
    }

    let result = run_pipeline(&program, &mut runtime, &config).map_err(|e| {
        let hint = if e.is_assertion() && args.outputs.is_empty() && iface.buffers.iter().any(|b| b.is_output)
        {
            format!(
                "\n  note: no output size tried ({} in every dimension) passed the pipeline's checks; \
                 give one with --output NAME=E0xE1...",
                list(DEFAULT_EXTENTS.iter().map(|e| e.to_string())).replace('`', "")
            )
        } else {
            String::new()
        };
        CliError::input(format!("{}: {e}{hint}", input.name))
    })?;
    if let Some(dir) = &args.dump {
        dump(dir, &result)?;
    }
    let mut out = String::new();
    for (name, buffer) in &result.outputs {
        let _ = writeln!(out, "{name}: {buffer} {:016x}", buffer.content_hash());
    }
    if !(args.profile || args.profile_json || args.trace) {
        return print(out.as_bytes());
    }

    // The run above may have run the program several times (bounds queries, output
    // sizes the pipeline refused); the profile and the trace are of one run on the
    // shapes it settled on.
    let clock = if args.profile_clock.as_deref() == Some("wall") {
        ProfileClock::Wall
    } else {
        ProfileClock::Operations
    };
    let mut recording = RecordingRuntime::new(clock);
    let observed = RunConfig { shapes: result.shapes.clone(), elems: result.elems.clone(), ..config };
    run_pipeline(&program, &mut recording, &observed)
        .map_err(|e| CliError::input(format!("{}: {e}", input.name)))?;
    recording.profiler.finish().map_err(|e| CliError::input(format!("{}: {e}", input.name)))?;
    let makes_no = |flag: &str, calls: &str, command: &str| {
        CliError::input(format!(
            "{}: {flag}: the program makes no {calls} calls (run the output of `loopir {command}`)",
            input.name
        ))
    };
    if recording.profiler.pipelines().is_empty() {
        if args.profile_json {
            return Err(makes_no("--profile-json", "profiler", "profile"));
        }
        if args.profile {
            return Err(makes_no("--profile", "profiler", "profile"));
        }
    }
    if args.trace && recording.trace.is_empty() {
        return Err(makes_no("--trace", "trace", "trace"));
    }
    if args.profile_json {
        return print(recording.profiler.report_json().as_bytes());
    }
    if args.profile {
        out.push_str(&recording.profiler.report());
    }
    print(out.as_bytes())?;
    if !args.trace {
        return Ok(());
    }
    // The log runs to tens of megabytes: written line by line rather than rendered whole.
    print_with(|| {
        let mut w = std::io::BufWriter::new(std::io::stdout().lock());
        recording.trace.write_to(&mut w)?;
        w.flush()
    })?;
    let check = recording.trace.check();
    if !check.unended.is_empty() {
        report(&unended_note(&input.name, &check.unended));
    }
    let violations = check.violations;
    if !violations.is_empty() {
        let mut msg = format!(
            "{}: {} trace event{} not parented by the innermost enclosing event:",
            input.name,
            violations.len(),
            if violations.len() == 1 { " is" } else { "s are" }
        );
        for v in violations.iter().take(20) {
            let expected = if v.expected == 0 {
                "0 (no enclosing event)".to_owned()
            } else {
                format!("{} ({})", v.expected, v.expected_what)
            };
            let _ =
                write!(msg, "\n  event {} `{}` has parent {}, expected {expected}", v.id, v.what, v.parent);
        }
        if violations.len() > 20 {
            let _ = write!(msg, "\n  ... and {} more", violations.len() - 20);
        }
        return Err(CliError::input(msg));
    }
    Ok(())
}

/// The output extents the env fixes: a dimension whose constraint (or, failing that,
/// the output Func's explicit bound) has a constant extent and a min of 0. Before image
/// checks the IR does not state them (conv_layer's `relu.extent.3 == 5`), so without the
/// env a run would pick a size the later stages refuse.
fn fixed_extents(
    env: &BoundsEnv,
    iface: &loopir_interp::program::Interface,
) -> Result<FxHashMap<String, Vec<Option<i32>>>, String> {
    let constant = |min: &Option<String>, extent: &Option<String>| -> Option<i32> {
        let at_zero = min.as_deref().is_none_or(|m| m.trim() == "0");
        let extent = extent.as_deref()?.trim().parse::<i32>().ok().filter(|&e| e > 0)?;
        at_zero.then_some(extent)
    };
    let mut fixed = FxHashMap::default();
    for b in iface.buffers.iter().filter(|b| b.is_output) {
        let Some(output) = env.outputs.iter().find(|o| o.buffer == *b.name) else { continue };
        let func = env.funcs.get(&output.func);
        let n = b.dimensions.unwrap_or(output.constraints.len());
        if !output.constraints.is_empty() && output.constraints.len() != n {
            return Err(format!(
                "outputs: `{}` has {} constraints, but the program's `{}` has {n} dimensions",
                output.buffer,
                output.constraints.len(),
                b.name
            ));
        }
        let extents: Vec<Option<i32>> = (0..n)
            .map(|d| {
                let constrained = output.constraints.get(d).and_then(|c| constant(&c.min, &c.extent));
                let bounded = || {
                    let func = func?;
                    let var = func.args.get(d)?;
                    let bound = func.bounds.iter().find(|x| &x.var == var)?;
                    constant(&bound.min, &bound.extent)
                };
                constrained.or_else(bounded)
            })
            .collect();
        if extents.iter().any(Option::is_some) {
            fixed.insert(b.name.to_string(), extents);
        }
    }
    Ok(fixed)
}

/// The region of each input buffer that `stmt` reads, as bounds inference finds it (in
/// the buffers' symbols), for IR without a bounds query: probing starts the inputs there.
/// The calls to the inputs, which the text leaves untyped, are counted as `loopir bounds`
/// counts them. A dimension bounds inference finds unbounded has no ends, and an input it
/// does not see read (by `Load`, after flattening) is left out: probing finds them alone.
fn required_regions(
    stmt: &loopir::Stmt,
    iface: &loopir_interp::program::Interface,
) -> FxHashMap<String, Vec<Option<(loopir::Expr, loopir::Expr)>>> {
    let ctx = Ctx::new();
    let visible = super::bounds_view::with_all_accesses(stmt);
    let Ok(boxes) = boxes_required(&ctx, &visible, &Scope::new(), &FuncValueBounds::default()) else {
        return FxHashMap::default();
    };
    let mut regions = FxHashMap::default();
    for b in iface.buffers.iter().filter(|b| !b.is_output) {
        let Some(region) = boxes.get(&*b.name) else { continue };
        let ends = region
            .bounds
            .iter()
            .map(|i| match (&i.min, &i.max) {
                (Bound::Finite(lo), Bound::Finite(hi)) => Some((lo.clone(), hi.clone())),
                _ => None,
            })
            .collect();
        regions.insert(b.name.to_string(), ends);
    }
    regions
}

/// The note on begin events whose end event never ran: not a wrong parent (the check
/// reads the scope as left where a later event's parent passes it), but a log whose
/// begin and end events do not pair up.
fn unended_note(file: &str, unended: &[UnendedEvent]) -> String {
    let mut note = format!(
        "{file}: note: {} trace event{} never ended (the program skipped or dropped the end event):",
        unended.len(),
        if unended.len() == 1 { " was" } else { "s were" }
    );
    for u in unended.iter().take(20) {
        let _ = write!(note, "\n  event {} `{}` (thread {}), ", u.id, u.what, u.thread);
        let _ = match u.passed_by {
            Some(p) => write!(note, "left before event {p}"),
            None => write!(note, "still open when its thread ended"),
        };
    }
    if unended.len() > 20 {
        let _ = write!(note, "\n  ... and {} more", unended.len() - 20);
    }
    note.push('\n');
    note
}

fn list(names: impl Iterator<Item = String>) -> String {
    let v: Vec<String> = names.map(|n| format!("`{n}`")).collect();
    if v.is_empty() { "none".to_owned() } else { v.join(", ") }
}

fn split_assignment<'a>(text: &'a str, flag: &str, form: &str) -> Result<(&'a str, &'a str), CliError> {
    text.split_once('=')
        .filter(|(n, _)| !n.is_empty())
        .ok_or_else(|| CliError::input(format!("{flag} {text}: expected {form}")))
}

/// `64x48x3` as extents; every extent positive.
fn parse_extents(text: &str) -> Result<Vec<i32>, String> {
    text.split('x')
        .map(|e| match e.parse::<i32>() {
            Ok(v) if v > 0 => Ok(v),
            _ => Err(format!("`{e}` is not a positive extent (expected E0xE1..., e.g. 64x48)")),
        })
        .collect()
}

/// Writes the inputs and outputs of `result` into `dir`.
fn dump(dir: &Path, result: &PipelineRun) -> Result<(), CliError> {
    std::fs::create_dir_all(dir)
        .map_err(|e| CliError::Io(format!("cannot create {}: {e}", dir.display())))?;
    let buffers =
        result.inputs.iter().map(|b| (b, "input")).chain(result.outputs.iter().map(|b| (b, "output")));
    for ((name, buffer), role) in buffers {
        // Buffer names may hold `/` nowhere in Halide, but a file name must not.
        let file = name.replace(['/', '\\'], "_");
        let write = |path: PathBuf, bytes: &[u8]| {
            std::fs::write(&path, bytes)
                .map_err(|e| CliError::Io(format!("cannot write {}: {e}", path.display())))
        };
        write(dir.join(format!("{file}.bin")), &raw_bytes(buffer))?;
        let meta = serde_json::json!({
            "name": name.to_string(),
            "role": role,
            "type": buffer.elem.name(),
            "mins": buffer.dims.iter().map(|d| d.min).collect::<Vec<_>>(),
            "extents": buffer.dims.iter().map(|d| d.extent).collect::<Vec<_>>(),
            "hash": format!("{:016x}", buffer.content_hash()),
        });
        write(dir.join(format!("{file}.json")), format!("{meta:#}\n").as_bytes())?;
    }
    Ok(())
}

/// The values of `buffer` in little-endian, each in its type's size.
fn raw_bytes(buffer: &Buffer) -> Vec<u8> {
    let size = buffer.elem.bytes();
    let mut bytes = Vec::with_capacity(buffer.len() * size);
    for v in &buffer.values {
        bytes.extend_from_slice(&v.to_le_bytes()[..size]);
    }
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extents_are_positive_and_separated_by_x() {
        assert_eq!(parse_extents("64x48x3"), Ok(vec![64, 48, 3]));
        assert_eq!(parse_extents("7"), Ok(vec![7]));
        assert!(parse_extents("64x0").is_err());
        assert!(parse_extents("64,48").is_err());
        assert!(parse_extents("").is_err());
    }
}
