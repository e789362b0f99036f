//! The `loopir` binary end to end: exit codes, output and error rendering.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn loopir(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_loopir"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the loopir binary starts");
    child.stdin.take().expect("stdin is piped").write_all(stdin).expect("stdin accepts input");
    child.wait_with_output().expect("loopir finishes")
}

#[test]
fn fmt_reprints_stdin() {
    let text = b"for (x, 0, 9) {\n f[x] = (float32)g[x]*2.000000f\n}\n";
    let out = loopir(&["fmt", "-"], text);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(out.stdout, text);
}

#[test]
fn fmt_reports_parse_errors_with_location_and_exit_1() {
    let out = loopir(&["fmt"], b"for (x, 0, 9) {\n f[x] = g(x; y)\n}\n");
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("<stdin>:2:12"), "{err}");
    assert!(err.contains("expected `, ` or `)` in an argument list"), "{err}");
    assert!(!err.contains('\u{1b}'), "no colour when stderr is not a terminal: {err}");
    assert!(out.stdout.is_empty());
}

#[test]
fn fmt_rejects_invalid_utf8_and_nul_without_panicking() {
    for bad in [&b"f(\xff)\n"[..], &b"f(x)\n\0\n"[..]] {
        let out = loopir(&["fmt"], bad);
        assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stderr).contains("<stdin>:"));
    }
}

#[test]
fn fmt_check_reports_files_that_would_change() {
    // Halide never prints a type prefix on a known name (here the loop variable), so
    // reprinting drops this one and the file would change: a unified diff says how.
    let out = loopir(&["fmt", "--check"], b"for (x, 0, 9) {\n f((float32)x)\n}\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("first difference at line 2"));
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "--- <stdin>\n+++ <stdin> (reformatted)\n@@ -1,3 +1,3 @@\n for (x, 0, 9) {\n- f((float32)x)\n+ f(x)\n }\n"
    );
    let out = loopir(&["fmt", "--check"], b"for (x, 0, 9) {\n f(x)\n}\n");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stdout.is_empty());
}

#[test]
fn demo_runs() {
    let out = loopir(&["demo"], b"");
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("byte-identical"), "{text}");
}

use loopir_testkit::oracle::case as oracle_case;

#[test]
fn profile_reproduces_an_oracle_case_and_reports_timings() {
    let case = oracle_case("two_stage_root.cpu");
    let env = case.join("profile.env.json");
    let input = std::fs::read(case.join("profile.input.stmt")).expect("oracle input");
    let expected = std::fs::read(case.join("profile.expected.stmt")).expect("oracle output");
    let env = env.to_string_lossy().into_owned();
    let out = loopir(&["profile", "--env", &env, "--repeat", "3", "--timings", "-"], &input);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.stdout, expected);
    let timings = String::from_utf8_lossy(&out.stderr);
    let line = timings.trim();
    assert!(line.starts_with("{\"parse_ns\": ") && line.ends_with(", \"repeat\": 3}"), "{line}");
    assert_eq!(timings.lines().count(), 1, "exactly one JSON object: {timings}");
}

#[test]
fn profile_prints_the_entry_tree_and_json() {
    let stmt = b"produce out {\n produce f {\n  f[0] = 1\n }\n out[0] = f[0]\n}\n";
    let out = loopir(&["profile", "--pipeline", "p", "--entries"], stmt);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(tree.ends_with("out\n└f\n"), "{tree}");
    let out = loopir(&["profile", "--pipeline", "p", "--json"], stmt);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"ir_name\": \"f\""));
}

#[test]
fn profile_needs_a_pipeline_name() {
    let out = loopir(&["profile"], b"produce f {\n f[0] = 1\n}\n");
    assert_eq!(out.status.code(), Some(1), "a usage mistake");
    assert!(String::from_utf8_lossy(&out.stderr).contains("--pipeline"));
}

#[test]
fn trace_reproduces_an_oracle_case_and_its_output_passes_the_checker() {
    let case = oracle_case("serial_chain.trace");
    let env = case.join("trace.env.json").to_string_lossy().into_owned();
    let input = std::fs::read(case.join("trace.input.stmt")).expect("oracle input");
    let expected = std::fs::read(case.join("trace.expected.stmt")).expect("oracle output");
    let out = loopir(&["trace", "--env", &env], &input);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.stdout, expected);
    let checked = loopir(&["trace", "--check"], &out.stdout);
    assert_eq!(checked.status.code(), Some(0), "{}", String::from_utf8_lossy(&checked.stderr));
}

#[test]
fn trace_check_reports_a_load_parented_to_the_loaded_funcs_consume() {
    // The pre-fix parentage: the load of `f` names `f`'s consume event as its parent,
    // though it sits inside `g`'s produce event.
    let stmt = b"let f.trace_id = 0
let f.consume.trace_id = 0
let g.trace_id = 0
let g.produce.trace_id = 0
g(0) = halide_trace_helper(\"f\", (void *)make_struct(f(0)), (int32_t *)make_struct(0), 0, 16, 1, 0, f.consume.trace_id, 1, 1, 0, \"\")
";
    let out = loopir(&["trace", "--check"], stmt);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("violation"));
}

#[test]
fn bounds_infers_computation_bounds_and_prints_boxes() {
    let case = oracle_case("two_stage_root.cpu");
    let env = case.join("bounds.env.json").to_string_lossy().into_owned();
    let input = std::fs::read(case.join("bounds.input.stmt")).expect("oracle input");
    let expected = std::fs::read(case.join("bounds.expected.stmt")).expect("oracle output");
    let out = loopir(&["bounds", "--infer", "--env", &env], &input);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.stdout, expected);

    // `g` is a Func because a realize binds it; its calls count, like `f`'s provides.
    let out = loopir(
        &["bounds"],
        b"realize g([-1, 12]) {\n  for (x, 0, 9) {\n   f(x) = g(x + 1) + g(x - 1)\n  }\n}\n",
    );
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "g: [-1, 10]\nf: [0, 9]\n");
}

#[test]
fn bounds_infers_allocation_bounds_with_the_definitions_value_ranges() {
    let case = oracle_case("serial_chain.cpu");
    let env = case.join("bounds.env.json").to_string_lossy().into_owned();
    let defs = case.join("bounds.input.stmt").to_string_lossy().into_owned();
    let input = std::fs::read(case.join("allocbounds.input.stmt")).expect("oracle input");
    let expected = std::fs::read(case.join("allocbounds.expected.stmt")).expect("oracle output");
    let out = loopir(&["bounds", "--infer-allocations", "--env", &env, "--definitions", &defs], &input);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.stdout, expected);

    // A definitions file that does not parse is reported with its location.
    let dir = std::env::temp_dir().join(format!("loopir-cli-defs-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let bad = dir.join("bad.stmt");
    std::fs::write(&bad, "for (x, 0, 9 {\n}\n").expect("scratch file");
    let out = loopir(
        &["bounds", "--infer-allocations", "--env", &env, "--definitions", &bad.to_string_lossy()],
        &input,
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("bad.stmt:1:"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn entry_names_are_escaped_so_that_each_row_stays_one_line() {
    let dir = std::env::temp_dir().join(format!("loopir-cli-entries-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    let env = dir.join("profile.env.json");
    let names = r#"{"pipeline": "p", "funcs": [{"name": "out", "display_name": "out\nput"}, {"name": "f", "display_name": "f\\g\t\u0001"}]}"#;
    std::fs::write(&env, names).expect("scratch env");
    let stmt = b"produce out {\n produce f {\n  f[0] = 1\n }\n out[0] = f[0]\n}\n";
    let out = loopir(&["profile", "--env", &env.to_string_lossy(), "--entries"], stmt);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(tree.ends_with("out\\nput\n└f\\\\g\\t\\u{1}\n"), "{tree}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn crlf_a_byte_order_mark_and_zero_lane_types_are_named_in_the_error() {
    for (text, says, at) in [
        (&b"f(x)\r\ng(x)\r\n"[..], "CRLF line endings are not .stmt text", "<stdin>:1:5"),
        (&b"\xEF\xBB\xBFf(x)\n"[..], "found a UTF-8 byte-order mark", "<stdin>:1:1"),
        (&b"f(0) = (int32x0)g[0]\n"[..], "a type with at least one lane (`int32x0` has none)", "<stdin>:1:9"),
    ] {
        let out = loopir(&["fmt"], text);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{err}");
        assert!(err.contains(says) && err.contains(at), "{says}: {err}");
    }
}

fn fixture(path: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fixtures").join(path)
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn fmt_reprints_a_halide21_module_with_its_device_code() {
    // SPIR-V: binary device code with NUL bytes, in a module Halide 21.0.0 wrote.
    let path = fixture("halide21_stmt/gpu_tiles.vulkan/module.stmt");
    let text = std::fs::read(&path).expect("the corpus");
    assert!(text.contains(&0));
    let out = loopir(&["fmt", &path.to_string_lossy()], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(out.stdout == text, "the module reprints byte for byte");
}

#[test]
fn fmt_converts_between_dialects() {
    let path = fixture("halide21_stmt/blur.cpu/module.stmt");
    let text = std::fs::read(&path).expect("the corpus");
    let reference = loopir(&["fmt", "--to", "reference", &path.to_string_lossy()], b"");
    assert_eq!(reference.status.code(), Some(0), "{}", stderr(&reference));
    let shown = String::from_utf8_lossy(&reference.stdout);
    assert!(shown.contains("reinterpret<(void *)>(0_u64)") && !shown.contains("(uint64)0"), "{shown}");
    let back = loopir(&["fmt", "--to", "21"], &reference.stdout);
    assert_eq!(back.status.code(), Some(0), "{}", stderr(&back));
    assert!(back.stdout == text, "converted and back, unchanged");
}

#[test]
fn fmt_needs_the_dialect_to_convert_loops_of_a_text_that_does_not_tell() {
    let text = b"for (x, 0, 10) {\n f(x) = x\n}\n";
    let out = loopir(&["fmt", "--to", "21"], text);
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("--dialect"), "{}", stderr(&out));
    let out = loopir(&["fmt", "--dialect", "21", "--to", "reference"], text);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(out.stdout, b"for (x, 0, 9) {\n f(x) = x\n}\n");
    // Reprinting in its own dialect needs no choice.
    let out = loopir(&["fmt"], text);
    assert_eq!(out.stdout, text);
}

#[test]
fn fmt_names_a_dialect_mismatch() {
    let out = loopir(&["fmt"], b"let a = (uint16)3\nlet b = 4_u16\nf(a) = b\n");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("dialect mismatch") && err.contains("<stdin>:2:9"), "{err}");
    let out = loopir(&["fmt", "--dialect", "reference"], b"f(x) = (uint16)3\n");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("`(uint16)3` is Halide 21.0.0's spelling"), "{}", stderr(&out));
}

#[test]
fn fmt_normalizes_hand_typed_text() {
    let out = loopir(&["fmt"], b"for(x,0,9){\n\n  f[(x)]=x+1\n}");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(out.stdout, b"for (x, 0, 9) {\n f[x] = x + 1\n}\n");
}

#[test]
fn trace_check_reads_halide21_trace_calls() {
    // A late stage of the reference, written in Halide 21's dialect: 11-argument trace
    // calls, moved end events, lets around events. Silent, as on the reference's text.
    let stage = oracle_case("serial_chain.trace/stages/43.finding_intrinsics.stmt");
    let halide21 = loopir(&["fmt", "--to", "21", &stage.to_string_lossy()], b"");
    assert_eq!(halide21.status.code(), Some(0), "{}", stderr(&halide21));
    assert!(String::from_utf8_lossy(&halide21.stdout).contains(", 3, 0, 0, 8, 0, 0, 0, \"\")"));
    let out = loopir(&["trace", "--check"], &halide21.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn trace_check_goes_through_a_module_s_functions() {
    // Halide 21's own tracing parents loads to the loaded Func: reported, per function,
    // with a note on why.
    let path = fixture("halide21_stmt/tuple_argmin.trace/module.stmt");
    let out = loopir(&["trace", "--check", &path.to_string_lossy()], b"");
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("module.stmt: func out: load of `input`"), "{err}");
    assert!(err.contains("note: the text is Halide 21.0.0's"), "{err}");
}

#[test]
fn trace_writes_its_output_in_the_input_s_dialect() {
    let case = oracle_case("serial_chain.trace");
    let env = case.join("trace.env.json").to_string_lossy().into_owned();
    let input = loopir(&["fmt", "--to", "21", &case.join("trace.input.stmt").to_string_lossy()], b"");
    let expected = loopir(&["fmt", "--to", "21", &case.join("trace.expected.stmt").to_string_lossy()], b"");
    let out = loopir(&["trace", "--env", &env], &input.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&expected.stdout));
    // Parallel-task events have thread ids, which Halide 21's trace calls lack.
    let case = oracle_case("two_stage_root.trace");
    let env = case.join("trace.env.json").to_string_lossy().into_owned();
    let input = loopir(&["fmt", "--to", "21", &case.join("trace.input.stmt").to_string_lossy()], b"");
    let out = loopir(&["trace", "--env", &env], &input.stdout);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("no thread id") && stderr(&out).contains("--to reference"),
        "{}",
        stderr(&out)
    );
    let out = loopir(&["trace", "--env", &env, "--to", "reference"], &input.stdout);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
}

#[test]
fn profile_takes_the_pipeline_name_from_a_module_file() {
    let path = fixture("halide21_stmt/blur.cpu/module.stmt");
    let out = loopir(&["profile", &path.to_string_lossy()], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("module name=blur_y, target=x86-64-linux-avx2-sse41\n"), "{text}");
    assert!(text.contains("halide_profiler_instance_start(\"blur_y\""), "{text}");
    assert!(text.contains("reinterpret<(void *)>((uint64)0)"), "written in Halide 21's dialect: {text}");
}

#[test]
fn profile_runs_on_halide21_s_profiling_input() {
    let path = fixture("halide21_stmt/blur.profile/stages/27.bounding_small_allocations.stmt");
    let out = loopir(&["profile", "--entries", &path.to_string_lossy()], b"");
    assert_eq!(out.status.code(), Some(1), "a bare statement does not name its pipeline");
    assert!(stderr(&out).contains("--pipeline"), "{}", stderr(&out));
    let out = loopir(&["profile", "--pipeline", "blur_y", "--entries", &path.to_string_lossy()], b"");
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(tree.contains("blur_y\n└blur_x\n"), "{tree}");
}
