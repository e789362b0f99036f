//! `loopir lower` (passes in order, `--save-temps`, `--timings`) and the profiling level
//! flags of `loopir profile` end to end.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn loopir(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_loopir"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the loopir binary starts");
    // The command may exit on a usage error before reading its input: a broken pipe
    // here is not a failure.
    let _ = child.stdin.take().expect("stdin is piped").write_all(stdin);
    child.wait_with_output().expect("loopir finishes")
}

use loopir_testkit::oracle::case;

fn path(p: &Path) -> String {
    p.to_string_lossy().into_owned()
}

/// A fresh directory for one test's temporary files.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("loopir-lower-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn lower_profile_saves_each_step_and_matches_the_oracle() {
    let c = case("two_stage_root.cpu");
    let dir = scratch("profile");
    let env = format!("profile={}", path(&c.join("profile.env.json")));
    let input = path(&c.join("profile.input.stmt"));
    let out = loopir(
        &["lower", "--passes", "profile", "--env", &env, "--save-temps", &path(&dir), "--timings", &input],
        b"",
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let expected = std::fs::read(c.join("profile.expected.stmt")).expect("oracle output");
    assert_eq!(out.stdout, expected);
    // 00 is the input as parsed and reprinted, 01 the IR after the first pass.
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("temps written")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    names.sort();
    assert_eq!(names, ["00.input.stmt", "01.profile.stmt"]);
    assert_eq!(
        std::fs::read(dir.join("00.input.stmt")).ok(),
        std::fs::read(c.join("profile.input.stmt")).ok()
    );
    assert_eq!(std::fs::read(dir.join("01.profile.stmt")).ok(), Some(expected));
    let timings = stderr(&out);
    assert_eq!(timings.lines().count(), 1, "exactly one JSON object: {timings}");
    let line = timings.trim();
    assert!(
        line.starts_with("{\"parse_ns\": ")
            && line.contains(", \"passes\": [{\"pass\": \"profile\", \"ns\": "),
        "{line}"
    );
    assert!(line.contains("}], \"print_ns\": ") && line.ends_with('}'), "{line}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lower_runs_passes_in_order_with_per_pass_envs() {
    let c = case("traced_funcs.cpu");
    let dir = scratch("trace-profile");
    let trace_env = format!("trace={}", path(&c.join("trace.env.json")));
    let profile_env = format!("profile={}", path(&c.join("profile.env.json")));
    let input = path(&c.join("trace.input.stmt"));
    let args = [
        "lower",
        "--passes",
        "trace,profile",
        "--env",
        &trace_env,
        "--env",
        &profile_env,
        "--save-temps",
        &path(&dir),
        &input,
    ];
    let out = loopir(&args, b"");
    // Profiling needs storage-flattened IR; tracing's output is still at the schedule
    // stage, so the profile pass refuses it, after the trace step was saved.
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("pass 2 (`profile`): expects storage-flattened IR"), "{}", stderr(&out));
    let traced = std::fs::read_to_string(dir.join("01.trace.stmt")).expect("trace step saved");
    assert!(traced.contains("halide_trace") && !traced.contains("halide_profiler_"));
    // Parsed with the trace env, image loads are typed as such and traced as the reference does.
    let expected = std::fs::read_to_string(c.join("trace.expected.stmt")).expect("oracle output");
    assert_eq!(traced, expected);
    assert!(!dir.join("02.profile.stmt").exists());
    // Running the same passes one at a time gives the same result.
    let trace_only = loopir(&["lower", "--passes", "trace", "--env", &trace_env, &input], b"");
    assert_eq!(trace_only.stdout, traced.as_bytes());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lower_names_the_available_passes() {
    let out = loopir(&["lower", "--passes", "profile,simplify", "-"], b"");
    assert_eq!(out.status.code(), Some(1), "an unknown pass is a usage mistake");
    let err = stderr(&out);
    assert!(
        err.contains("unknown pass `simplify`")
            && err.contains("available passes: profile, trace, bounds, allocation_bounds"),
        "{err}"
    );
    assert!(out.stdout.is_empty());
    let list = loopir(&["lower", "--list-passes"], b"");
    assert_eq!(list.status.code(), Some(0));
    let text = String::from_utf8_lossy(&list.stdout);
    assert!(text.starts_with("profile ") && text.contains("\ntrace "), "{text}");
}

#[test]
fn lower_checks_env_arguments() {
    let stmt = b"produce f {\n f[0] = 1\n}\n";
    // Usage mistakes exit with 1, a file that cannot be read with 2.
    for (env, complaint, code) in [
        ("profile", "cannot read profile", 2),
        ("trace=x.json", "pass `trace` is not in --passes", 1),
        ("nosuch=x.json", "unknown pass `nosuch`", 1),
        ("profile=/nonexistent/env.json", "cannot read /nonexistent/env.json", 2),
    ] {
        let out = loopir(
            &["lower", "--passes", "profile", "--env", env, "--pipeline", "p", "--allow-missing-marker"],
            stmt,
        );
        assert_eq!(out.status.code(), Some(code), "{env}");
        assert!(stderr(&out).contains(complaint), "{env}: {}", stderr(&out));
    }
}

/// A mistake in a nested env field is reported with the file and the field's whole path.
#[test]
fn lower_names_the_nested_env_field_in_error() {
    let dir = scratch("nested-env-field");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let env = dir.join("env.json");
    std::fs::write(&env, r#"{"version": 1, "funcs": [{"name": "f", "bogus": 1}]}"#).expect("env written");
    let out = loopir(&["lower", "--passes", "flatten", "--env", &path(&env), "-"], b"f(0) = 1\n");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let want = format!("error: {}: funcs[0].bogus: unknown field `bogus`", path(&env));
    assert!(stderr(&out).starts_with(&want), "{}", stderr(&out));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lower_reports_a_failing_pass_and_keeps_the_earlier_steps() {
    let dir = scratch("failing");
    let stmt = b"produce f {\n f[0] = 1\n}\n";
    let out = loopir(
        &[
            "lower",
            "--passes",
            "profile,trace",
            "--pipeline",
            "p",
            "--allow-missing-marker",
            "--save-temps",
            &path(&dir),
        ],
        stmt,
    );
    assert_eq!(out.status.code(), Some(1));
    let err = stderr(&out);
    assert!(err.contains("<stdin>: pass 2 (`trace`): expects the schedule stage"), "{err}");
    assert!(dir.join("00.input.stmt").exists() && dir.join("01.profile.stmt").exists());
    assert!(!dir.join("02.trace.stmt").exists());
    assert!(out.stdout.is_empty());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn lower_reports_parse_errors() {
    let out = loopir(
        &["lower", "--passes", "profile", "--pipeline", "p", "--allow-missing-marker"],
        b"for (x, 0, 9) {\n f[x] = g(x; y)\n}\n",
    );
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("<stdin>:2:12"), "{}", stderr(&out));
}

const PIPELINE: &[u8] = b"allocate f[float32 * 10000]\nproduce f {\n f[0] = 1.000000f\n}\nproduce g {\n consume f {\n  parallel (g.s0.y, 0, 9) {\n   g[g.s0.y] = f[0]\n  }\n }\n}\nfree f\n";

fn profile(flags: &[&str]) -> String {
    let mut args = vec!["profile", "--pipeline", "p"];
    args.extend_from_slice(flags);
    let out = loopir(&args, PIPELINE);
    assert_eq!(out.status.code(), Some(0), "{flags:?}: {}", stderr(&out));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn profile_levels_and_feature_flags() {
    assert_eq!(profile(&["--level", "0"]).as_bytes(), PIPELINE, "level 0 is the input");
    let level1 = profile(&["--level", "1"]);
    assert!(level1.contains("halide_profiler_set_current_func") && !level1.contains("memory_allocate"));
    assert!(!level1.contains("active_threads") && !level1.contains("sampling_token"));
    let level2 = profile(&["--level", "2"]);
    assert!(level2.contains("memory_allocate") && !level2.contains("active_threads"));
    assert_eq!(profile(&[]), profile(&["--level", "3"]));
    let no_heap = profile(&["--no-heap"]);
    assert!(!no_heap.contains("memory_allocate") && no_heap.contains("active_threads"));
    let only = profile(&["--only", "threads,tokens"]);
    assert!(
        !only.contains("set_current_func")
            && only.contains("active_threads")
            && only.contains("sampling_token")
    );
    assert_eq!(profile(&["--only", "timing,heap,stack"]), level2);
    assert_eq!(
        profile(&["--level", "3", "--no-threads", "--no-tokens", "--no-copies", "--no-device-sync"]),
        level2
    );
    let bad = loopir(&["profile", "--pipeline", "p", "--only", "memory"], PIPELINE);
    assert_eq!(bad.status.code(), Some(1));
    assert!(stderr(&bad).contains("unknown profiling feature `memory`"), "{}", stderr(&bad));
    let bad = loopir(&["profile", "--pipeline", "p", "--level", "4"], PIPELINE);
    assert_eq!(bad.status.code(), Some(1));
}

#[test]
fn profile_entries_with_keys() {
    let tree = profile(&["--entries", "--keys"]);
    let lines: Vec<&str> = tree.lines().collect();
    assert_eq!(lines.len(), 6, "{tree}");
    for line in &lines {
        let (key, _) = line.split_once("  ").expect("key column");
        assert!(key.len() == 16 && key.bytes().all(|b| b.is_ascii_hexdigit()), "{line}");
    }
    assert!(lines[0].ends_with("  overhead") && lines[5].ends_with("  g"), "{tree}");
    // The same keys in the JSON table, and at another level.
    let json = profile(&["--json", "--level", "1"]);
    for line in &lines {
        let key = &line[..16];
        assert!(json.contains(&format!("\"key\": \"{key}\"")), "{key} in {json}");
    }
    let out = loopir(&["profile", "--pipeline", "p", "--keys"], PIPELINE);
    assert_eq!(out.status.code(), Some(1), "--keys needs --entries");
}

#[test]
fn allocation_bounds_runs_as_a_lower_pass() {
    let dir = case("serial_chain.cpu");
    let env = format!("allocation_bounds={}", dir.join("bounds.env.json").display());
    let input = std::fs::read(dir.join("allocbounds.input.stmt")).expect("oracle input");
    let expected = std::fs::read(dir.join("allocbounds.expected.stmt")).expect("oracle output");
    let out = loopir(&["lower", "--passes", "allocation_bounds", "--env", &env], &input);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.stdout, expected);
    let missing = loopir(&["lower", "--passes", "allocation_bounds"], &input);
    assert_eq!(missing.status.code(), Some(1), "{}", String::from_utf8_lossy(&missing.stderr));
    // Without an environment, the produced Funcs are in no realization order.
    assert!(
        String::from_utf8_lossy(&missing.stderr).contains("order: is empty"),
        "{}",
        String::from_utf8_lossy(&missing.stderr)
    );
}

#[test]
fn the_gpu_passes_run_as_lower_passes_and_match_the_oracle() {
    let stages = case("gpu_basic.cuda").join("stages");
    let read = |name: &str| std::fs::read(stages.join(name)).expect("oracle stage");
    let ok = |out: &Output| assert_eq!(out.status.code(), Some(0), "{}", stderr(out));
    let named =
        loopir(&["lower", "--passes", "gpu_vars", "-"], &read("19.forking_asynchronous_producers.stmt"));
    ok(&named);
    assert_eq!(named.stdout, read("21.canonicalizing_gpu_var_names.stmt"));

    let dir = scratch("gpu-api");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    let env = dir.join("cuda.json");
    std::fs::write(&env, r#"{"version": 1, "target": {"default_device_api": "CUDA"}}"#).expect("env written");
    let flattened = read("25.unpacking_buffer_arguments.stmt");
    let on_cuda = loopir(&["lower", "--passes", "gpu_api", "--env", &path(&env), "-"], &flattened);
    ok(&on_cuda);
    assert_eq!(on_cuda.stdout, read("26.selecting_a_gpu_api.stmt"));
    // Then the host-device copies, which read nothing of the env.
    let copies = loopir(&["lower", "--passes", "host_dev_copies", "-"], &read("26.selecting_a_gpu_api.stmt"));
    ok(&copies);
    assert_eq!(copies.stdout, read("27.injecting_host_dev_buffer_copies.stmt"));
    // Without a device API to choose, the pass refuses rather than leave Default_GPU.
    let no_api = loopir(&["lower", "--passes", "gpu_api", "-"], &flattened);
    assert_eq!(no_api.status.code(), Some(1), "{}", stderr(&no_api));
    assert!(
        stderr(&no_api).contains("pass 1 (`gpu_api`): the environment's target has no `default_device_api`")
    );
    // A device API no target feature selects is refused where the env is read.
    std::fs::write(&env, r#"{"version": 1, "target": {"default_device_api": "Host"}}"#).expect("env written");
    let host = loopir(&["lower", "--passes", "gpu_api", "--env", &path(&env), "-"], &flattened);
    assert_eq!(host.status.code(), Some(1), "{}", stderr(&host));
    assert!(stderr(&host).contains("`Host` is not the device API of a target feature"), "{}", stderr(&host));
    let _ = std::fs::remove_dir_all(&dir);
}

/// `lower` reads Halide 21's dialect and writes either, its steps as well: bounds inference
/// on a case converted to Halide 21's text gives the reference's result.
#[test]
fn lowering_runs_on_either_dialect() {
    let case = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fixtures/bounds/halide21/aligned_extent_root.cpu");
    let env = case.join("bounds.env.json").to_string_lossy().into_owned();
    let input = case.join("bounds.input.stmt").to_string_lossy().into_owned();
    let ok = |out: std::process::Output| {
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let lower = ["lower", "--passes", "bounds,allocation_bounds", "--env", env.as_str()];
    let reference = ok(loopir(&[&lower[..], &[input.as_str()]].concat(), b""));
    let dir = scratch("lower-dialects");
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let text21 = ok(loopir(&["fmt", "--dialect", "reference", "--to", "21", input.as_str()], b""));
    let input21 = path(&dir.join("in21.stmt"));
    std::fs::write(&input21, &text21).expect("a scratch file");
    let temps = dir.join("steps").to_string_lossy().into_owned();
    let back = ok(loopir(
        &[
            &lower[..],
            &["--dialect", "21", "--to", "reference", "--save-temps", temps.as_str(), input21.as_str()],
        ]
        .concat(),
        b"",
    ));
    assert_eq!(back, reference);
    // The steps are in the output's dialect: the last one is the output.
    let last = std::fs::read_to_string(dir.join("steps/02.allocation_bounds.stmt")).expect("the last step");
    assert_eq!(last, reference);
    let in21 = ok(loopir(&[&lower[..], &["--dialect", "21", input21.as_str()]].concat(), b""));
    assert_eq!(in21, ok(loopir(&["fmt", "--dialect", "reference", "--to", "21", "-"], reference.as_bytes())));
}
