//! The example frontend (`examples/blur_frontend.rs`): its output is a snapshot, and the
//! IR it lowers computes what its pipelines define.
//!
//! Each pipeline's final IR (profiled) and its IR just after storage flattening run
//! through the interpreter on the same inputs: the outputs must be equal, and equal to
//! the pipeline's definition evaluated here directly on those inputs. The GPU pipeline's
//! final IR manages device memory (the host-device copies, the profiler's device syncs):
//! the interpreter simulates the device allocations and copies on the host.

#[path = "../examples/blur_frontend.rs"]
mod blur_frontend;

use blur_frontend::{FrontendPipeline, Lowered, blur, gpu_blur, histogram, lower, run};
use loopir::Stmt;
use loopir_interp::{
    Buffer, Elem, HostRuntime, InterpError, PipelineRun, RunConfig, compile_with, run_pipeline,
};

#[test]
fn the_example_prints_the_lowered_pipelines_and_their_profiler_entries() {
    let text = run().expect("the example lowers both pipelines");
    insta::assert_snapshot!("blur_frontend", text);
}

/// `(name, mins, extents)` of each buffer: the IR before the reference's bounds-query
/// code has no way to say which input region it reads, so the test says it.
type Shapes = &'static [(&'static str, &'static [i32], &'static [i32])];

/// Runs `stmt` as a pipeline on buffers of the given shapes.
fn try_execute(stmt: &Stmt, shapes: Shapes) -> Result<PipelineRun, InterpError> {
    let mut runtime = HostRuntime::new();
    let program = compile_with(stmt, &runtime).expect("the lowered IR compiles");
    let mut config = RunConfig::default();
    for (name, mins, extents) in shapes {
        let b = Buffer::new(Elem::UInt(16), mins, extents);
        config.shapes.insert(name.to_string(), b.dims);
    }
    run_pipeline(&program, &mut runtime, &config)
}

/// Runs `stmt` as a pipeline on buffers of the given shapes; it must succeed.
fn execute(stmt: &Stmt, shapes: Shapes) -> PipelineRun {
    try_execute(stmt, shapes).expect("the lowered IR runs")
}

/// Checks `out` against the blur of `input` computed here.
fn check_blur(run: &PipelineRun, expected_points: usize) {
    let (input, out) = (buffer(run, "input"), buffer(run, "out"));
    let input_at = |x: i32, y: i32| at(input, &[x, y]) as u16;
    let blur_x =
        |x: i32, y: i32| input_at(x - 1, y).wrapping_add(input_at(x, y)).wrapping_add(input_at(x + 1, y)) / 3;
    let mut checked = 0;
    for i in 0..out.len() {
        let c = out.coords_of(i);
        let (x, y) = (c[0], c[1]);
        let expected = blur_x(x, y - 1).wrapping_add(blur_x(x, y)).wrapping_add(blur_x(x, y + 1)) / 3;
        assert_eq!(out.values[i] as u16, expected, "out({x}, {y})");
        checked += 1;
    }
    assert_eq!(checked, expected_points);
}

fn buffer<'r>(run: &'r PipelineRun, name: &str) -> &'r Buffer {
    run.inputs
        .iter()
        .chain(&run.outputs)
        .find(|(n, _)| &**n == name)
        .map(|(_, b)| b)
        .unwrap_or_else(|| panic!("no buffer `{name}`"))
}

fn at(b: &Buffer, coords: &[i32]) -> u64 {
    let i = b.index_of(coords).unwrap_or_else(|| panic!("{coords:?} is outside the buffer"));
    b.values[i]
}

/// Lowers `p`, runs the flattened and the final IR, checks that they agree and returns
/// the final run.
fn lowered_runs(p: &FrontendPipeline, shapes: Shapes) -> (Lowered, PipelineRun) {
    let lowered = lower(p).expect("the pipeline lowers");
    let flat = execute(&lowered.flattened, shapes);
    let profiled = execute(&lowered.profiled, shapes);
    let hashes = |r: &PipelineRun| {
        r.outputs.iter().map(|(n, b)| (n.to_string(), b.content_hash())).collect::<Vec<_>>()
    };
    assert_eq!(hashes(&flat), hashes(&profiled), "profiling changed what {:?} computes", p.env.pipeline);
    assert!(!profiled.outputs.is_empty());
    (lowered, profiled)
}

#[test]
fn the_lowered_blur_computes_the_blur() {
    let (_, run) = lowered_runs(&blur(), &[("input", &[-1, -1], &[18, 18]), ("out", &[0, 0], &[16, 16])]);
    check_blur(&run, 256);
}

#[test]
fn the_gpu_blur_with_its_device_copies_computes_the_blur() {
    // 20x12 is not a multiple of the 8x8 tiles: the last tile of each row and column is
    // shifted inwards and overlaps the one before it. The GPU loops run one after another
    // in the interpreter, on its simulated device memory.
    let shapes: Shapes = &[("input", &[-1, -1], &[22, 14]), ("out", &[0, 0], &[20, 12])];
    let (lowered, run) = lowered_runs(&gpu_blur(), shapes);
    check_blur(&run, 240);
    // The final IR's kernels address device memory the copies made (before this pass
    // existed, the interpreter refused it: a kernel read a buffer with no device
    // allocation).
    let text = loopir::stmt_to_string(&lowered.profiled);
    assert!(text.contains("halide_copy_to_device((struct halide_buffer_t *)input.buffer"), "{text}");
}

#[test]
fn the_lowered_histogram_counts_the_input() {
    let (_, run) = lowered_runs(&histogram(), &[("input", &[0, 0], &[100, 100]), ("out", &[0], &[300])]);
    let (input, out) = (buffer(&run, "input"), buffer(&run, "out"));
    let mut hist = [0i32; 256];
    for y in 0..100 {
        for x in 0..100 {
            hist[(at(input, &[x, y]) as u16).min(255) as usize] += 1;
        }
    }
    for i in 0..out.len() {
        let x = out.coords_of(i)[0];
        let count = usize::try_from(x).ok().and_then(|x| hist.get(x)).copied().unwrap_or(0);
        assert_eq!(out.values[i] as u32 as i32, count * 2, "out({x})");
    }
    assert_eq!(out.len(), 300);
}
