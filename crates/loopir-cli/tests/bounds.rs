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

/// Bounds inference reads Halide 21's dialect and writes either: the same case converted
/// to Halide 21's text gives the same statement, in the reference's spelling with `--to
/// reference` and in Halide 21's by default.
#[test]
fn inference_runs_on_either_dialect() {
    let case = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/bounds/halide21/aligned_extent_root.cpu");
    let path = |name: &str| case.join(name).to_string_lossy().into_owned();
    let ok = |out: std::process::Output| {
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        stdout(&out)
    };
    let dir = support::scratch("bounds-dialects");
    let env = path("bounds.env.json");
    for (flag, input, definitions) in [
        ("--infer", "bounds.input.stmt", None),
        ("--infer-allocations", "allocbounds.input.stmt", Some("bounds.input.stmt")),
    ] {
        let mut args = vec!["bounds", flag, "--env", env.as_str()];
        let defs_ref = definitions.map(path);
        if let Some(d) = &defs_ref {
            args.extend(["--definitions", d.as_str()]);
        }
        let reference = ok(loopir(&[args.clone(), vec![path(input).as_str()]].concat(), b""));
        assert!(reference.contains("for ("), "{reference}");

        // The input (and the definitions) in Halide 21's text.
        let to21 = |name: &str| {
            let text = ok(loopir(&["fmt", "--dialect", "reference", "--to", "21", path(name).as_str()], b""));
            assert_ne!(text, std::fs::read_to_string(case.join(name)).expect("fixture"), "{name} changed");
            support::file(&dir, &format!("{flag}.{name}"), text.as_bytes())
        };
        let input21 = to21(input);
        let mut args21 = vec!["bounds", flag, "--env", env.as_str(), "--dialect", "21"];
        let defs21 = definitions.map(to21);
        if let Some(d) = &defs21 {
            args21.extend(["--definitions", d.as_str()]);
        }
        let back = ok(loopir(&[args21.clone(), vec!["--to", "reference", input21.as_str()]].concat(), b""));
        assert_eq!(back, reference, "{flag}");
        let in21 = ok(loopir(&[args21, vec![input21.as_str()]].concat(), b""));
        let reference_in21 =
            ok(loopir(&["fmt", "--dialect", "reference", "--to", "21", "-"], reference.as_bytes()));
        assert_eq!(in21, reference_in21, "{flag}");
    }
}

#[test]
fn to_without_inference_is_refused() {
    let out = loopir(&["bounds", "--to", "21"], b"for (x, 0, 9) {\n f[x] = 1\n}\n");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("--to writes the statement --infer"), "{}", stderr(&out));
}
