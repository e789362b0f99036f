//! `run_pipeline` on IR from before the reference writes its bounds query: the buffers'
//! shapes come from probing runs.

use loopir_interp::{
    ExternArg, HostRuntime, InterpError, ProfilerCall, RunConfig, Runtime, RuntimeCx, ShapeSource,
    TraceEvent, compile, compile_with, run_pipeline,
};

/// `out(x) = input(x)*2` over `out`, split by 8 with the tail shifted inwards: an
/// output smaller than the tile is written before its min.
const SHIFTED_TILE: &str = "for (out.s0.x.xo, 0, ((out.extent.0 + 7)/8) - 1) {
 let out.s0.x.base = min((out.s0.x.xo*8) + out.min.0, (out.min.0 + out.extent.0) + -8)
 for (out.s0.x.xi, 0, 7) {
  out(out.s0.x.base + out.s0.x.xi) = input(out.s0.x.base + out.s0.x.xi)*2
 }
}
";

fn run_with_extents(text: &str, extents: &[i32]) -> loopir_interp::PipelineRun {
    let program = compile(&loopir::parse_stmt(text).expect("parses")).expect("compiles");
    let config = RunConfig { candidate_extents: extents.to_vec(), ..RunConfig::default() };
    run_pipeline(&program, &mut HostRuntime::new(), &config).expect("runs")
}

#[test]
fn probing_grows_an_output_that_a_shifted_tile_writes_before_its_min() {
    // As the bounds query of a later stage would: asked for 4 elements, the pipeline
    // writes the 8 of one tile, ending where the 4 asked for end.
    let run = run_with_extents(SHIFTED_TILE, &[4]);
    assert_eq!(run.shapes_from, ShapeSource::Probe);
    let (name, out) = &run.outputs[0];
    assert_eq!(&**name, "out");
    assert_eq!(out.dims.iter().map(|d| (d.min, d.extent)).collect::<Vec<_>>(), vec![(-4, 8)]);
    let (_, input) = &run.inputs[0];
    assert_eq!(input.dims.iter().map(|d| (d.min, d.extent)).collect::<Vec<_>>(), vec![(-4, 8)]);
    let doubled: Vec<u64> = input.values.iter().map(|v| (v.wrapping_mul(2)) & 0xffff_ffff).collect();
    let written: Vec<u64> = out.values.iter().map(|v| v & 0xffff_ffff).collect();
    assert_eq!(written, doubled);
}

#[test]
fn an_output_the_tiles_fit_keeps_the_size_asked_for() {
    let run = run_with_extents(SHIFTED_TILE, &[16]);
    let (_, out) = &run.outputs[0];
    assert_eq!(out.dims.iter().map(|d| (d.min, d.extent)).collect::<Vec<_>>(), vec![(0, 16)]);
}

/// Counts the calls of the extern `started`, which the program below makes once per run.
#[derive(Default)]
struct RunCounter {
    runs: u32,
}

impl Runtime for RunCounter {
    fn profiler(&mut self, _call: &ProfilerCall, _cx: &mut RuntimeCx<'_>) -> Result<i64, InterpError> {
        Ok(0)
    }

    fn trace(&mut self, _event: &TraceEvent, _cx: &mut RuntimeCx<'_>) -> Result<i32, InterpError> {
        Ok(0)
    }

    fn knows_extern(&self, name: &str) -> bool {
        name == "started"
    }

    fn extern_call(
        &mut self,
        _name: &str,
        _args: &[ExternArg],
        _cx: &mut RuntimeCx<'_>,
    ) -> Result<u64, InterpError> {
        self.runs += 1;
        Ok(0)
    }
}

#[test]
fn the_probing_run_that_touches_nothing_outside_is_the_run() {
    // Asked for 4 elements: the first probing run finds the tile's 8 (and the input's),
    // the second touches nothing outside them and so computes what a plain run would.
    // Before, a third, plain run computed it again (a heavy stage's whole-size run is
    // tens of minutes per run).
    let text = format!("started()\n{SHIFTED_TILE}");
    let mut counter = RunCounter::default();
    let program = compile_with(&loopir::parse_stmt(&text).expect("parses"), &counter).expect("compiles");
    let config = RunConfig { candidate_extents: vec![4], ..RunConfig::default() };
    let run = run_pipeline(&program, &mut counter, &config).expect("runs");
    assert_eq!(run.shapes_from, ShapeSource::Probe);
    assert_eq!(counter.runs, 2);
    let (_, out) = &run.outputs[0];
    assert_eq!(out.dims.iter().map(|d| (d.min, d.extent)).collect::<Vec<_>>(), vec![(-4, 8)]);
    let (_, input) = &run.inputs[0];
    let doubled: Vec<u64> = input.values.iter().map(|v| (v.wrapping_mul(2)) & 0xffff_ffff).collect();
    let written: Vec<u64> = out.values.iter().map(|v| v & 0xffff_ffff).collect();
    assert_eq!(written, doubled);
}

/// `out(x) = input(x - 1) + input(x + 1)`: the input needs one more element on each side.
const NEIGHBOURS: &str = "for (out.s0.x, out.min.0, (out.min.0 + out.extent.0) + -1) {
 out(out.s0.x) = input(out.s0.x + -1) + input(out.s0.x + 1)
}
";

fn count_runs(text: &str, config: &RunConfig) -> (loopir_interp::PipelineRun, u32) {
    let text = format!("started()\n{text}");
    let mut counter = RunCounter::default();
    let program = compile_with(&loopir::parse_stmt(&text).expect("parses"), &counter).expect("compiles");
    let run = run_pipeline(&program, &mut counter, config).expect("runs");
    (run, counter.runs)
}

fn boxes(run: &[(loopir::expr::Name, loopir_interp::Buffer)]) -> Vec<Vec<(i32, i32)>> {
    run.iter().map(|(_, b)| b.dims.iter().map(|d| (d.min, d.extent)).collect()).collect()
}

#[test]
fn probing_starts_an_input_at_its_required_region() {
    let base = RunConfig { candidate_extents: vec![16], ..RunConfig::default() };
    // From the output's box, the first probing run finds the input's, the second is the run.
    let (from_output, runs) = count_runs(NEIGHBOURS, &base);
    assert_eq!(runs, 2);
    // From the region bounds inference states, the first probing run is the run.
    let region = vec![Some((
        loopir::parse_expr("out.min.0 + -1").expect("parses"),
        loopir::parse_expr("out.min.0 + out.extent.0").expect("parses"),
    ))];
    let config =
        RunConfig { required_regions: [("input".to_owned(), region)].into_iter().collect(), ..base.clone() };
    let (from_region, runs) = count_runs(NEIGHBOURS, &config);
    assert_eq!(runs, 1);
    assert_eq!(boxes(&from_region.inputs), vec![vec![(-1, 18)]]);
    assert_eq!(boxes(&from_region.inputs), boxes(&from_output.inputs));
    assert_eq!(from_region.outputs[0].1, from_output.outputs[0].1);
    // A region too small, one that reads what the probe cannot bind, or a dimension
    // without bounds still ends in the input's whole shape.
    for ends in [Some(("out.min.0", "out.min.0 + 3")), Some(("out.min.0 + n", "out.extent.0")), None] {
        let region = vec![ends.map(|(lo, hi)| {
            (loopir::parse_expr(lo).expect("parses"), loopir::parse_expr(hi).expect("parses"))
        })];
        let config = RunConfig {
            required_regions: [("input".to_owned(), region)].into_iter().collect(),
            ..base.clone()
        };
        let (run, _) = count_runs(NEIGHBOURS, &config);
        assert_eq!(boxes(&run.inputs), vec![vec![(-1, 18)]], "{ends:?}");
        assert_eq!(run.outputs[0].1, from_output.outputs[0].1);
    }
}

/// `out(x, c) = input(x, c)` over the whole output.
const COPY_2D: &str = "for (out.s0.c, out.min.1, (out.min.1 + out.extent.1) + -1) {
 for (out.s0.x, out.min.0, (out.min.0 + out.extent.0) + -1) {
  out(out.s0.x, out.s0.c) = input(out.s0.x, out.s0.c)
 }
}
";

#[test]
fn fixed_extents_pin_their_dimensions_and_the_candidates_fill_the_rest() {
    let fixed = |extents: Vec<Option<i32>>| RunConfig {
        candidate_extents: vec![16],
        fixed_extents: [("out".to_owned(), extents)].into_iter().collect(),
        ..RunConfig::default()
    };
    let (partly, _) = count_runs(COPY_2D, &fixed(vec![None, Some(3)]));
    assert_eq!(boxes(&partly.outputs), vec![vec![(0, 16), (0, 3)]]);
    // Fixed in every dimension, the output takes that size whatever the candidates.
    let (wholly, _) = count_runs(COPY_2D, &fixed(vec![Some(5), Some(2)]));
    assert_eq!(boxes(&wholly.outputs), vec![vec![(0, 5), (0, 2)]]);
    // --output (output_extents) still wins.
    let given = RunConfig {
        output_extents: [("out".to_owned(), vec![4, 4])].into_iter().collect(),
        ..fixed(vec![Some(5), Some(2)])
    };
    let (run, _) = count_runs(COPY_2D, &given);
    assert_eq!(boxes(&run.outputs), vec![vec![(0, 4), (0, 4)]]);
}

#[test]
fn per_dimension_settings_must_fit_the_program() {
    let program = compile(&loopir::parse_stmt(COPY_2D).expect("parses")).expect("compiles");
    let try_with = |config: RunConfig| {
        run_pipeline(&program, &mut HostRuntime::new(), &config).expect_err("refused").to_string()
    };
    let err = try_with(RunConfig {
        fixed_extents: [("out".to_owned(), vec![Some(3)])].into_iter().collect(),
        ..RunConfig::default()
    });
    assert!(err.contains("fixed_extents: 1 dimensions given for the output `out`, which has 2"), "{err}");
    let err = try_with(RunConfig {
        fixed_extents: [("input".to_owned(), vec![None, None])].into_iter().collect(),
        ..RunConfig::default()
    });
    assert!(err.contains("fixed_extents: the program has no output buffer `input`"), "{err}");
    let err = try_with(RunConfig {
        required_regions: [("inptu".to_owned(), vec![None, None])].into_iter().collect(),
        ..RunConfig::default()
    });
    assert!(err.contains("required_regions: the program has no input buffer `inptu`"), "{err}");
}
