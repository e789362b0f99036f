//! Running oracle IR through the interpreter: parsing a case's files with its
//! environment, the scalar parameters each application needs, and one run.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use loopir::Stmt;
use loopir_bounds::env::BoundsEnv;
use loopir_interp::buffer::{Descriptor, Dim, dense_strides, layout, write_descriptor};
use loopir_interp::pipeline::parse_scalar;
use loopir_interp::{
    ExternArg, HostRuntime, InterpError, Limits, PipelineRun, ProfilerCall, Program, RunConfig, Runtime,
    RuntimeCx, TraceEvent, compile_with, run_pipeline,
};

/// The operations one run may execute in the ignored tests that run the cases over a
/// test's budget (each test keeps its own `OVER_BUDGET` list, as its budget differs).
pub const HEAVY_LIMIT: u64 = 1_000_000_000_000;

/// Whether `LOOPIR_INTERP_REPORT=1` asks the tests to print what happened to each case.
/// Any other value is a mistake (`0` would otherwise mean "yes"), not a silent answer.
pub fn reporting() -> bool {
    match std::env::var("LOOPIR_INTERP_REPORT") {
        Err(std::env::VarError::NotPresent) => false,
        Ok(v) if v == "1" => true,
        other => panic!("LOOPIR_INTERP_REPORT must be unset or 1, not {other:?}"),
    }
}

/// The oracle's `cases` directory.
pub fn cases_dir() -> PathBuf {
    loopir_testkit::oracle::cases()
}

/// Values of the scalar parameters of the oracle's applications (those of Halide's
/// `apps/*` drivers, with `levels` lowered to keep the runs short).
pub fn params_of(case: &str) -> &'static [(&'static str, &'static str)] {
    let app = case.split('.').next().unwrap_or(case);
    match app {
        "app_bgu" => &[("r_sigma", "0.125"), ("s_sigma", "8")],
        "app_bilateral_grid" => &[("r_sigma", "0.1")],
        "app_camera_pipe" => &[
            ("color_temp", "3700"),
            ("gamma", "2.0"),
            ("contrast", "50"),
            ("sharpen_strength", "1.0"),
            ("blackLevel", "25"),
            ("whiteLevel", "1023"),
        ],
        "app_iir_blur" => &[("alpha", "0.1")],
        "app_lens_blur" => &[
            ("slices", "32"),
            ("focus_depth", "13"),
            ("blur_radius_scale", "0.5"),
            ("aperture_samples", "32"),
        ],
        "app_local_laplacian" => &[("levels", "4"), ("alpha", "1.0"), ("beta", "1.0")],
        "app_nl_means" => &[("patch_size", "7"), ("search_area", "7"), ("sigma", "0.12")],
        "heap_and_stack" => &[("k", "3")],
        // The Halide 21 corpus (`tests/halide21_run.rs`): its pipelines' parameters.
        "halide21/bitwise" => &[("mask", "90")],
        "halide21/memoized" => &[("scale", "0.5")],
        "halide21/specialized" => &[("gain", "1.5"), ("wide", "1")],
        _ => &[],
    }
}

/// The bounds env of a case (Func value types), if it has one.
pub fn env_of(dir: &Path) -> Option<BoundsEnv> {
    let text = std::fs::read_to_string(dir.join("bounds.env.json")).ok()?;
    BoundsEnv::from_json(&text).ok()
}

/// Parses a file of a case with the case's Func types.
pub fn parse(dir: &Path, file: &Path) -> Result<Stmt, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    parse_text(dir, file, &text)
}

/// Parses `text` (the contents of `file`, or an edited copy) with the case's Func types.
pub fn parse_text(dir: &Path, file: &Path, text: &str) -> Result<Stmt, String> {
    let penv = env_of(dir).map(|e| e.parse_env()).unwrap_or_default();
    loopir::parse_stmt_with_env(text, &penv).map_err(|e| format!("{}: {e}", file.display()))
}

/// A run configuration with the case's parameters (those the program reads).
pub fn config_for(case: &str, program: &Program, limit: u64) -> Result<RunConfig, String> {
    let mut config = RunConfig {
        // 512 MiB for the report and trace tests' budget of 4*10^7 operations (a pipeline
        // that needs more memory needs more operations too; the trace log counts, and
        // camera_pipe's stage 04 logs 2.25 million events, 134 MB, in that budget);
        // 1 GiB for larger budgets (oracle_interp's and interp_passes' suites); 8 GiB for
        // the ignored tests' (the heavy traced cases' logs run to gigabytes).
        limits: Limits {
            operations: limit,
            memory: match limit {
                ..=40_000_000 => 1 << 29,
                HEAVY_LIMIT.. => 1 << 33,
                _ => 1 << 30,
            },
        },
        // Small outputs keep the suite fast; the pipelines' own bounds queries enlarge
        // them where their schedules need more.
        candidate_extents: vec![4, 8, 16, 32, 64, 128, 256],
        ..RunConfig::default()
    };
    for (name, value) in params_of(case) {
        if let Some(p) = program.interface().scalars.iter().find(|s| &*s.name == *name) {
            config.params.insert((*name).to_owned(), parse_scalar(value, p.ty)?);
        }
    }
    Ok(config)
}

/// Compiles and runs a statement as a pipeline; `shaped` gives the buffers' shapes and
/// types (else the pipeline's own bounds query or a probe chooses them).
pub fn run(
    case: &str,
    stmt: &Stmt,
    shaped: Option<&PipelineRun>,
    limit: u64,
) -> Result<PipelineRun, InterpError> {
    run_in(&mut TestRuntime::default(), case, stmt, shaped, limit)
}

/// [`run`] with a given runtime (one that records the profile or the trace, say).
pub fn run_in(
    runtime: &mut TestRuntime,
    case: &str,
    stmt: &Stmt,
    shaped: Option<&PipelineRun>,
    limit: u64,
) -> Result<PipelineRun, InterpError> {
    let program = compile_with(stmt, &*runtime)?;
    let mut config = config_for(case, &program, limit)
        .map_err(|e| InterpError::new(loopir_interp::ErrorKind::BadArgument, e))?;
    if let Some(s) = shaped {
        for b in &program.interface().buffers {
            if let Some(d) = s.shapes.get(&*b.name) {
                config.shapes.insert(b.name.to_string(), d.clone());
            }
            if let Some(e) = s.elems.get(&*b.name) {
                config.elems.insert(b.name.to_string(), *e);
            }
        }
    }
    run_pipeline(&program, runtime, &config)
}

/// The runtime of the oracle runs: the host runtime, plus the extern stages of the
/// `extern_stage` cases, whose bodies the files do not have: the oracle's `my_extern(in,
/// out)` and the Halide 21 corpus's `my_filter(in, 42, out)`. Each is given one here: a
/// copy of its input over its output's region, which asks the bounds query for that
/// region of its input. Any definition would do: every stage calls the same one.
#[derive(Default)]
pub struct TestRuntime {
    host: HostRuntime,
    /// Where profiler and trace calls go when set (else to the host runtime).
    pub recording: Option<loopir_interp::RecordingRuntime>,
}

impl Runtime for TestRuntime {
    fn profiler(&mut self, call: &ProfilerCall, cx: &mut RuntimeCx<'_>) -> Result<i64, InterpError> {
        match &mut self.recording {
            Some(r) => r.profiler(call, cx),
            None => self.host.profiler(call, cx),
        }
    }

    fn trace(&mut self, event: &TraceEvent, cx: &mut RuntimeCx<'_>) -> Result<i32, InterpError> {
        match &mut self.recording {
            Some(r) => r.trace(event, cx),
            None => self.host.trace(event, cx),
        }
    }

    fn knows_extern(&self, name: &str) -> bool {
        name == "my_extern" || name == "my_filter"
    }

    fn extern_call(
        &mut self,
        name: &str,
        args: &[ExternArg],
        cx: &mut RuntimeCx<'_>,
    ) -> Result<u64, InterpError> {
        let mem = |e: loopir_interp::heap::HeapError| {
            InterpError::new(loopir_interp::ErrorKind::MemoryAccess, e.to_string())
        };
        let (input, output) = match (name, args) {
            ("my_extern", [input, output]) | ("my_filter", [input, _, output]) => (input.value, output.value),
            _ => return self.host.extern_call(name, args, cx),
        };
        let src = Descriptor::read(cx.heap, input).map_err(mem)?;
        let dst = Descriptor::read(cx.heap, output).map_err(mem)?;
        let out_dims = dst.dims(cx.heap).map_err(mem)?;
        if src.is_bounds_query() {
            // The region of the input this call needs: its output's.
            let extents: Vec<i32> = out_dims.iter().map(|d| d.extent).collect();
            let dims: Vec<Dim> = out_dims
                .iter()
                .zip(dense_strides(&extents))
                .map(|(d, stride)| Dim { min: d.min, extent: d.extent, stride })
                .collect();
            write_descriptor(cx.heap, input, &Descriptor { dimensions: dims.len() as i32, ..src }, &dims)
                .map_err(mem)?;
            return Ok(0);
        }
        if dst.is_bounds_query() {
            return Ok(0);
        }
        let in_dims = src.dims(cx.heap).map_err(mem)?;
        let elem = dst.elem().unwrap_or(loopir_interp::Elem::UInt(8));
        let size = elem.bytes();
        let count: usize = out_dims.iter().map(|d| d.extent.max(0) as usize).product();
        for i in 0..count {
            let mut rest = i;
            let (mut from, mut to) = (0i64, 0i64);
            for (o, s) in out_dims.iter().zip(&in_dims) {
                let c = o.min as i64 + (rest % o.extent as usize) as i64;
                rest /= o.extent as usize;
                to += (c - o.min as i64) * o.stride as i64;
                from += (c - s.min as i64) * s.stride as i64;
            }
            let v = cx.heap.load(src.host, elem, size, from).map_err(mem)?;
            cx.heap.store(dst.host, size, to, v).map_err(mem)?;
        }
        let flags = cx.heap.read_uint(output, layout::FLAGS, 8).map_err(mem)?;
        cx.heap.write_uint(output, layout::FLAGS, 8, flags | layout::HOST_DIRTY).map_err(mem)?;
        Ok(0)
    }
}

/// The outputs of a run as `name=hash` pairs, sorted by name.
pub fn output_hashes(run: &PipelineRun) -> Vec<(String, u64)> {
    let mut v: Vec<(String, u64)> =
        run.outputs.iter().map(|(n, b)| (n.to_string(), b.content_hash())).collect();
    v.sort();
    v
}

/// How two runs' outputs compare.
#[derive(Clone, Debug, PartialEq)]
pub enum Agreement {
    /// Bit for bit.
    Exact,
    /// Equal integers; floats equal up to rounding (the reference's simplifier
    /// reassociates float arithmetic between stages): the largest relative difference.
    Rounding(f64),
    /// Different: where.
    Differs(String),
}

/// Compares the outputs of two runs: same names, shapes and values (floats within a
/// relative 1e-4 of each other, or 1e-5 of the largest value of the buffer: a
/// difference of nearly equal values magnifies a rounding difference of the values).
pub fn compare_outputs(a: &PipelineRun, b: &PipelineRun) -> Agreement {
    let names = |r: &PipelineRun| -> Vec<String> {
        let mut v: Vec<String> = r.outputs.iter().map(|(n, _)| n.to_string()).collect();
        v.sort();
        v
    };
    if names(a) != names(b) {
        return Agreement::Differs(format!("outputs {:?} vs {:?}", names(a), names(b)));
    }
    let mut worst = 0f64;
    for (name, x) in &a.outputs {
        let scale =
            x.values.iter().map(|&v| x.elem.to_f64(v).abs()).filter(|v| v.is_finite()).fold(1f64, f64::max);
        let Some((_, y)) = b.outputs.iter().find(|(n, _)| n == name) else { continue };
        if x.dims.iter().map(|d| (d.min, d.extent)).ne(y.dims.iter().map(|d| (d.min, d.extent)))
            || x.elem != y.elem
        {
            return Agreement::Differs(format!("{name}: {x} vs {y}"));
        }
        for i in 0..x.len() {
            let (u, v) = (x.values[i], y.values[i]);
            if u == v {
                continue;
            }
            if x.elem.is_float() {
                let (p, q) = (x.elem.to_f64(u), y.elem.to_f64(v));
                let diff = (p - q).abs();
                if p.is_nan() && q.is_nan() {
                    continue;
                }
                if diff <= 1e-4 * p.abs().max(q.abs()) + 1e-5 * scale {
                    worst = worst.max(diff / p.abs().max(q.abs()).max(1e-30));
                    continue;
                }
                return Agreement::Differs(format!("{name}{:?}: {p} vs {q}", x.coords_of(i)));
            }
            return Agreement::Differs(format!(
                "{name}{:?}: {} vs {}",
                x.coords_of(i),
                x.elem.as_i128(u),
                y.elem.as_i128(v)
            ));
        }
    }
    if worst == 0.0 { Agreement::Exact } else { Agreement::Rounding(worst) }
}

/// The tuple-valued Funcs a statement reads by calls: Halide's text prints a call of
/// value k > 0 as a call of value 0, so those reads are lost.
pub fn tuple_reads(stmt: &Stmt) -> Vec<String> {
    use loopir::{Expr, ExprKind, StmtKind, Visitor};
    #[derive(Default)]
    struct Tuples {
        tuples: Vec<String>,
        called: Vec<String>,
    }
    impl Visitor for Tuples {
        fn visit_stmt(&mut self, s: &Stmt) {
            match s.kind() {
                StmtKind::Provide { name, values, .. } if values.len() > 1 => {
                    self.tuples.push(name.to_string())
                }
                StmtKind::Realize { name, types, .. } if types.len() > 1 => {
                    self.tuples.push(name.to_string())
                }
                _ => {}
            }
            self.super_stmt(s);
        }
        fn visit_expr(&mut self, e: &Expr) {
            if let ExprKind::Call { name, call_type: loopir::CallType::Halide, .. } = e.kind() {
                self.called.push(name.to_string());
            }
            self.super_expr(e);
        }
    }
    let mut t = Tuples::default();
    t.visit_stmt(stmt);
    let mut out: Vec<String> = t.tuples.into_iter().filter(|n| t.called.contains(n)).collect();
    out.sort();
    out.dedup();
    out
}

/// Code that calls functions the file does not contain: a stage with it cannot be the
/// one the shapes are asked of.
const NOT_IN_FILE: &[&str] = &["halide_do_par_for", "halide_do_parallel_tasks", "_initialize_kernels("];

/// The stage files of a case from computation bounds inference on, in order.
pub fn stages(dir: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir.join("stages"))
        .map(|rd| {
            rd.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "stmt")).collect()
        })
        .unwrap_or_default();
    files.sort();
    let start = files
        .iter()
        .position(|f| f.to_string_lossy().ends_with("computation_bounds_inference.stmt"))
        .unwrap_or(0);
    files.split_off(start)
}

/// The file name of a stage.
pub fn stage_name(f: &Path) -> String {
    f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
}

/// The run that sets a case's shapes: the latest stage that answers its own bounds
/// query. `Err` when none can, with why.
pub fn reference_run(case: &str, limit: u64) -> Result<(String, PipelineRun), String> {
    reference_run_with(case, limit, &|text| text.to_owned())
}

/// [`reference_run`] on the stage texts as `edit` rewrites them.
pub fn reference_run_with(
    case: &str,
    limit: u64,
    edit: &dyn Fn(&str) -> String,
) -> Result<(String, PipelineRun), String> {
    let dir = cases_dir().join(case);
    let mut why = "no stage answers a bounds query".to_owned();
    for f in stages(&dir).iter().rev() {
        let text = std::fs::read_to_string(f).unwrap_or_default();
        if NOT_IN_FILE.iter().any(|n| text.contains(n)) || !text.contains("_halide_buffer_is_bounds_query") {
            continue;
        }
        let Ok(stmt) = parse_text(&dir, f, &edit(&text)) else { continue };
        match run(case, &stmt, None, limit) {
            Ok(r) if r.shapes_from == loopir_interp::ShapeSource::BoundsQuery => {
                computes_something(&r).map_err(|e| format!("(shapes from {}) {e}", stage_name(f)))?;
                return Ok((stage_name(f), r));
            }
            Ok(_) => {}
            // Earlier stages do more work, not less.
            Err(e) if e.kind == loopir_interp::ErrorKind::Limit => {
                return Err(format!("(shapes from {}) {e}", stage_name(f)));
            }
            Err(e) => why = format!("(shapes from {}) {e}", stage_name(f)),
        }
    }
    Err(why)
}

/// `Err` when a run computed an empty output: every stage would agree on it, so a test
/// comparing runs would check nothing. (The interpreter's choice of sizes already
/// prefers one that computes something, as camera_pipe's whole 64x32 tiles need.)
pub fn computes_something(run: &PipelineRun) -> Result<(), String> {
    match run.outputs.iter().find(|(_, b)| b.is_empty()) {
        Some((name, b)) => Err(format!("the output {name} is empty ({b})")),
        None => Ok(()),
    }
}

/// Panics naming the first case of `listed` (a test's `OVER_BUDGET`) that is not one of
/// `cases` (the oracle cases the test checks): a stale entry would skip nothing.
pub fn assert_listed_cases_exist(listed: &[&str], cases: &[String], what: &str) {
    for case in listed {
        assert!(cases.iter().any(|c| c == case), "OVER_BUDGET lists {case}, which is not a {what} case");
    }
}
