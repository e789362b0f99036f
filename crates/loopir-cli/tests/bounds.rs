//! `loopir bounds` without `--infer`: the region of every Func and buffer the file
//! touches, storage-flattened IR and untyped callees included, and a word on standard
//! error when there is none.

mod support;

use support::{loopir, stderr, stdout};

fn bounds(stmt: &str) -> (String, String) {
    let out = loopir(&["bounds"], stmt.as_bytes());
    assert_eq!(out.status.code(), Some(0), "{stmt}: {}", stderr(&out));
    (stdout(&out), stderr(&out))
}

#[test]
fn loads_and_stores_are_one_dimensional_accesses_of_their_buffer() {
    let (text, err) = bounds("for (x, 0, 9) {\n f[x] = g[x + 1]\n}\n");
    assert_eq!(text, "g: [0 + 1, 9 + 1]\nf: [0, 9]\n");
    assert_eq!(err, "");
    // A vector load with a predicate counts all its lanes; a load the analysis keeps in
    // a bound prints as a load.
    let (text, _) = bounds(
        "let t = buf[0]\nfor (x, 0, 9) {\n out[x + t] = (float32)in[ramp(x*4, 1, 4)] if (uint1x4)m\n}\n",
    );
    assert_eq!(
        text,
        "buf: [0, 0]\nin: [(0*4) + (0*1), (9*4) + (3*1)]\nout: [0 + (int32)buf[0], 9 + (int32)buf[0]]\n"
    );
}

#[test]
fn a_buffer_and_a_func_of_the_same_name_are_separate_lines() {
    let (text, _) = bounds("for (x, 0, 9) {\n f(x, 0) = 1\n f[x + 100] = 2\n}\n");
    assert_eq!(text, "f: [0, 9], [0, 0]\nf: [0 + 100, 9 + 100]\n");
}

#[test]
fn callees_the_text_does_not_type_are_printed() {
    let (text, err) = bounds("for (x, 0, 9) {\n f(x) = g(x + 1) + (uint16)input(x, 2)\n}\n");
    assert_eq!(text, "g: [0 + 1, 9 + 1]\ninput: [0, 9], [2, 2]\nf: [0, 9]\n");
    assert_eq!(err, "");
    // Halide's runtime functions and calls with arguments that are not int32 are not
    // Funcs or images.
    let (text, _) = bounds(
        "for (x, 0, 9) {\n f(x) = (float32)sqrt_f32(float32(x)) + float32(halide_current_thread_id())\n}\n",
    );
    assert_eq!(text, "f: [0, 9]\n");
}

#[test]
fn nothing_touched_is_said_on_standard_error() {
    let (text, err) = bounds("assert(x > 0, halide_error_foo(\"x\"))\n");
    assert_eq!(text, "");
    assert!(
        err.contains("<stdin>: no Func, image or buffer is read or written")
            && err.contains("no Load and no Store"),
        "{err}"
    );
}

#[test]
fn the_oracle_storage_flattened_stage_has_its_buffers() {
    let case = loopir_testkit::oracle::case("two_stage_root.cpu");
    let Some(stage) = std::fs::read_dir(case.join("stages"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .find(|p| p.to_string_lossy().ends_with("storage_flattening.stmt"))
    else {
        panic!("two_stage_root.cpu has a storage_flattening stage");
    };
    let out = loopir(&["bounds", &stage.to_string_lossy()], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let names: Vec<String> =
        stdout(&out).lines().filter_map(|l| l.split_once(':').map(|(n, _)| n.to_owned())).collect();
    assert_eq!(names, ["input", "blur_x", "out"], "{}", stdout(&out));
}
