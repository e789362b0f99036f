//! `loopir run`: executes a `.stmt` file and prints one line per output buffer ending in
//! a hash of its contents; bad parameters, shapes and programs are input errors (exit 1)
//! that say what is wrong.

mod support;

use loopir_testkit::oracle::case as oracle_case;
use support::{file, loopir, ok, scratch, stderr};

fn stage(case: &str, prefix: &str) -> String {
    let dir = oracle_case(case).join("stages");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("the oracle case has stages")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(prefix))
        .collect();
    names.sort();
    dir.join(&names[0]).to_string_lossy().into_owned()
}

fn env(case: &str) -> String {
    oracle_case(case).join("bounds.env.json").to_string_lossy().into_owned()
}

fn fails(args: &[&str], stdin: &[u8], says: &str) {
    let out = loopir(args, stdin);
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{args:?}: {err}");
    assert!(err.contains(says), "{args:?} should say {says:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?} printed a result");
}

#[test]
fn stages_of_one_pipeline_print_the_same_hashes() {
    // The schedule stage (realizations, probed input shapes) and the end of lowering
    // (flattened storage, the bounds query) compute the same output.
    let early = ok(&["run", "--env", &env("two_parents.cpu"), &stage("two_parents.cpu", "04.")]);
    let late = ok(&["run", &stage("two_parents.cpu", "44.")]);
    assert_eq!(early, late);
    let line = late.trim_end();
    assert!(line.starts_with("out: uint16[0..15, 0..15] "), "{line}");
    assert_eq!(line.rsplit(' ').next().map(str::len), Some(16), "a 16-digit hash ends the line: {line}");
    assert_eq!(late.lines().count(), 1);
}

#[test]
fn the_env_fixes_what_the_schedule_stage_does_not_state() {
    // interpolate bounds `normalize` to 3 channels and clamps its reads of `input` to
    // the input's own shape. Before image checks the IR states neither: the env's
    // explicit bound gives the output's channels, and the input's region is evaluated
    // with the shape the bounds query would give it (4 channels, the alpha read).
    let case = "app_interpolate.trace";
    let early = ok(&["run", "--env", &env(case), &stage(case, "04.")]);
    let late = ok(&["run", "--env", &env(case), &stage(case, "12.")]);
    assert!(early.starts_with("normalize: float32[0..31, 0..31, 0..2] "), "{early}");
    assert_eq!(early, late);
}

#[test]
fn the_schedule_stage_grows_the_output_as_the_bounds_query_does() {
    // harris splits y by 32 and shifts the last tile inwards: asked for 16 rows it writes
    // rows -16..15. The bounds query of the late stage says so; the schedule stage, which
    // has none, finds it by probing (its floats are rounded differently before the
    // first simplification, so only the shapes are compared).
    let shape = |out: String| out.rsplit_once(' ').map(|(s, _)| s.to_owned()).unwrap_or(out);
    let early = ok(&["run", &stage("app_harris.cpu", "04.")]);
    let late = ok(&["run", &stage("app_harris.cpu", "44.")]);
    assert_eq!(shape(early), "output: float32[0..15, -16..15]");
    assert_eq!(shape(late), "output: float32[0..15, -16..15]");
}

#[test]
fn the_seed_and_the_output_size_change_what_is_computed() {
    let file = stage("two_parents.cpu", "44.");
    let seed0 = ok(&["run", &file]);
    assert_eq!(ok(&["run", "--seed", "0", &file]), seed0);
    assert_ne!(ok(&["run", "--seed", "1", &file]), seed0);
    let sized = ok(&["run", "--output", "out=8x5", &file]);
    assert!(sized.starts_with("out: uint16[0..7, 0..4] "), "{sized}");
}

#[test]
fn scalar_parameters_are_given_by_name() {
    let file = stage("app_bgu.cpu", "44.");
    fails(&["run", &file], b"", "the pipeline reads the scalar parameter `r_sigma` (float32)");
    let out = ok(&["run", "--param", "r_sigma=0.125", "--param", "s_sigma=8", &file]);
    assert!(out.starts_with("slice: float32["), "{out}");
    fails(
        &["run", "--param", "r_sigma=0.125", "--param", "s_sigma=8", "--param", "sigma=1", &file],
        b"",
        "the pipeline reads no scalar parameter `sigma` (it reads: `r_sigma`, `s_sigma`)",
    );
    fails(
        &["run", "--param", "r_sigma=0.125", "--param", "s_sigma=x", &file],
        b"",
        "`x` is not a value of type int32",
    );
    fails(&["run", "--param", "r_sigma", &file], b"", "expected NAME=VALUE");
}

#[test]
fn output_shapes_are_checked_against_the_pipeline() {
    let file = stage("two_parents.cpu", "44.");
    fails(
        &["run", "--output", "nope=8x8", &file],
        b"",
        "the pipeline writes no buffer `nope` (it writes: `out`)",
    );
    fails(&["run", "--output", "out=8", &file], b"", "`out` has 2 dimensions, the shape gives 1");
    fails(&["run", "--output", "out=8x0", &file], b"", "`0` is not a positive extent");
}

#[test]
fn the_chosen_output_size_computes_something() {
    // camera_pipe computes `(extent.0/64)*64 x (extent.1/32)*32` of its output: at 16x16
    // and 32x32 it accepts the size and computes nothing, so the run takes the first
    // size that leaves the output non-empty.
    let params = [
        "color_temp=3700",
        "gamma=2.0",
        "contrast=50",
        "sharpen_strength=1.0",
        "blackLevel=25",
        "whiteLevel=1023",
    ];
    let mut args = vec!["run"];
    for p in &params {
        args.extend(["--param", p]);
    }
    let file = stage("app_camera_pipe.cpu", "44.");
    args.push(&file);
    let out = ok(&args);
    assert!(out.starts_with("processed: uint8[0..63, 0..63, 0..2] "), "{out}");
}

#[test]
fn dump_writes_every_buffer_with_its_shape() {
    let dir = scratch("run-dump");
    let out = ok(&[
        "run",
        "--dump",
        dir.to_str().expect("utf-8 path"),
        "--output",
        "out=8x4",
        &stage("two_parents.cpu", "44."),
    ]);
    let bin = std::fs::read(dir.join("out.bin")).expect("out.bin");
    assert_eq!(bin.len(), 8 * 4 * 2, "uint16 values, 8x4");
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.join("out.json")).expect("out.json")).expect("JSON");
    assert_eq!(meta["type"], "uint16");
    assert_eq!(meta["extents"], serde_json::json!([8, 4]));
    assert_eq!(meta["role"], "output");
    let hash = meta["hash"].as_str().expect("a hash");
    assert!(out.trim_end().ends_with(hash), "{out} vs {hash}");
    assert!(dir.join("input.bin").is_file() && dir.join("input.json").is_file());
}

#[test]
fn programs_that_go_wrong_are_input_errors() {
    let dir = scratch("run-errors");
    let oob = file(&dir, "oob.stmt", b"allocate buf[int32 * 4]\nbuf[4] = 1\nfree buf\n");
    fails(&["run", &oob], b"", "access to bytes 16..20 of buf, which has 16 bytes");
    let twice = file(&dir, "twice.stmt", b"allocate buf[int32 * 4]\nbuf[0] = 1\nfree buf\nfree buf\n");
    fails(&["run", &twice], b"", "buf is freed twice");
    let assert = file(
        &dir,
        "assert.stmt",
        b"assert(out.extent.0 <= 3, halide_error_bad_dimensions(\"Output buffer out\", 3, 2))\nout[0] = 1\n",
    );
    fails(&["run", &assert], b"", "no output size tried (16, 32, 64, 128, 256 in every dimension) passed");
    fails(&["run", "-"], b"out[0] = (\n", "");
}

#[test]
fn without_a_bounds_query_inputs_take_the_region_bounds_inference_finds() {
    // The output's box, where probing used to start the input, does not reach the
    // region read (20..35): a first probing run only found the input's shape.
    let dir = scratch("run-required-region");
    let program = file(
        &dir,
        "shifted.stmt",
        b"for (out.s0.x, out.min.0, (out.min.0 + out.extent.0) + -1) {\n \
          out(out.s0.x) = select(out.s0.x < 3, input(out.s0.x + 20), 0)\n}\n",
    );
    let dump = dir.join("dump");
    let out = ok(&["run", "--output", "out=16", "--dump", dump.to_str().expect("utf-8 path"), &program]);
    assert!(out.starts_with("out: int32[0..15] "), "{out}");
    let meta: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dump.join("input.json")).expect("input.json")).expect("JSON");
    assert_eq!(meta["mins"], serde_json::json!([20]));
    assert_eq!(meta["extents"], serde_json::json!([16]));
}

#[test]
fn an_output_size_the_env_constraints_refuse_is_an_error() {
    let conv = "app_conv_layer.cpu";
    fails(
        &["run", "--env", &env(conv), "--output", "relu=128x100x80x16", &stage(conv, "04.")],
        b"",
        "--output relu: dimension 3 has extent 16, but the env fixes it to 5",
    );
}
