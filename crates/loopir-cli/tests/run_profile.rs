//! `loopir run --profile`, `--profile-json` and `--trace`: the profiler's report in the
//! reference runtime's layout, its JSON form with the heap the program allocates, and the
//! trace log with its run-time parent check.

mod support;

use loopir_testkit::oracle::case as oracle_case;
use support::{loopir, ok, stderr, stdout};

fn profiled(case: &str) -> String {
    oracle_case(case).join("profile.expected.stmt").to_string_lossy().into_owned()
}

fn json(args: &[&str]) -> serde_json::Value {
    serde_json::from_str(&ok(args)).unwrap_or_else(|e| panic!("{args:?}: not JSON: {e}"))
}

fn func<'a>(p: &'a serde_json::Value, name: &str) -> &'a serde_json::Value {
    p["funcs"]
        .as_array()
        .and_then(|f| f.iter().find(|f| f["name"] == name))
        .unwrap_or_else(|| panic!("no {name}"))
}

#[test]
fn heap_figures_are_the_allocations_the_program_makes() {
    // two_parents: g and h are uint16 buffers of the output's size, both live at once.
    for (shape, bytes) in [("16x16", 512u64), ("32x16", 1024), ("64x32", 4096)] {
        let j = json(&[
            "run",
            "--profile-json",
            "--output",
            &format!("out={shape}"),
            &profiled("two_parents.cpu"),
        ]);
        let p = &j["pipelines"][0];
        assert_eq!(p["name"], "out");
        assert_eq!(p["runs"], 1);
        assert_eq!(p["num_allocs"], 2, "{shape}");
        assert_eq!(p["memory_total"], 2 * bytes, "{shape}");
        assert_eq!(p["memory_peak"], 2 * bytes, "{shape}");
        assert_eq!(p["memory_current"], 0, "{shape}: everything is freed");
        for f in ["g", "h"] {
            let f = func(p, f);
            assert_eq!(f["num_allocs"], 1);
            assert_eq!(f["memory_total"], bytes, "{shape}");
            assert_eq!(f["memory_peak"], bytes, "{shape}");
        }
        // The f inside g: two bytes of stack, no heap.
        let f = &p["funcs"][5];
        assert_eq!(
            (f["name"].as_str(), f["parent"].as_i64(), f["stack_peak"].as_u64()),
            (Some("f"), Some(4), Some(2))
        );
        assert_eq!(f["canonical_id"], 5);
        assert_eq!(f["kind"], 0);
        assert_eq!(f["buffer_func_id"], -1);
    }
}

#[test]
fn copies_carry_the_buffer_func_id() {
    let j = json(&["run", "--profile-json", &profiled("gpu_host_bounce.cuda")]);
    let p = &j["pipelines"][0];
    let copy = func(p, "f (copy to device)");
    assert_eq!(copy["kind"], 6);
    let f = func(p, "f");
    assert_eq!(copy["buffer_func_id"], f["canonical_id"]);
}

#[test]
fn the_report_has_the_reference_runtimes_layout() {
    let text = ok(&["run", "--profile", "--output", "out=16x16", &profiled("two_parents.cpu")]);
    let lines: Vec<&str> = text.lines().collect();
    let rule = "-".repeat(104);
    assert!(lines[0].starts_with("out: uint16[0..15, 0..15] "));
    assert_eq!(lines[1], rule);
    assert_eq!(lines[2], "out");
    assert!(
        lines[3].starts_with(" total time: ")
            && lines[3].contains(" ms  samples: ")
            && lines[3].contains("  runs: 1  time per run: "),
        "{}",
        lines[3]
    );
    assert_eq!(lines[4], " heap allocations: 2  peak heap usage: 1024");
    assert_eq!(lines[5], "  name                   │ time     percent │ active│ heap │ peak │ avg  │");
    assert_eq!(lines[6], "                         │                  │threads│allocs│  mem │  mem │");
    let g = lines.iter().find(|l| l.starts_with("  g ")).expect("a row for g");
    let cols: Vec<&str> = g.split('│').collect();
    assert_eq!(cols[0], "  g                      ");
    assert!(cols[1].ends_with("ms (") || cols[1].contains("ms ("), "{g}");
    assert_eq!(cols[3], "    1 ", "{g}");
    assert_eq!(cols[4], "  512 ", "{g}");
    assert_eq!(cols[5], "  512 ", "{g}");
    assert!(lines.iter().any(|l| l.starts_with("  └f                     │")), "{text}");
    assert_eq!(*lines.last().unwrap_or(&""), rule);
    // Time is billed by operations: the report is the same on every run.
    assert_eq!(text, ok(&["run", "--profile", "--output", "out=16x16", &profiled("two_parents.cpu")]));
}

/// The report's rows: (name slot, time text, percent per thousand), below the legend.
fn rows(report: &str) -> Vec<(String, String, u64)> {
    report
        .lines()
        .skip_while(|l| !l.starts_with("                         │"))
        .skip(1)
        .take_while(|l| !l.starts_with("---"))
        .map(|l| {
            let cols: Vec<&str> = l.split('│').collect();
            if cols[1].trim() == "(allocation)" {
                return (cols[0].to_owned(), "(allocation)".to_owned(), 0);
            }
            let percent = cols[1].rsplit_once('(').map_or("", |(_, p)| p.trim().trim_end_matches("%)"));
            let (whole, tenth) = percent.split_once('.').unwrap_or(("", ""));
            let per_thousand = whole.trim().parse::<u64>().unwrap_or(u64::MAX) * 10
                + tenth.parse::<u64>().unwrap_or(u64::MAX / 20);
            (cols[0].to_owned(), cols[1][..9].to_owned(), per_thousand)
        })
        .collect()
}

#[test]
fn the_wall_clock_bills_measured_time_to_the_same_rows() {
    let program = profiled("two_parents.cpu");
    let with = |flag: &str, clock: &str| {
        ok(&["run", flag, "--profile-clock", clock, "--output", "out=64x32", &program])
    };
    let (ops, wall) = (with("--profile-json", "operations"), with("--profile-json", "wall"));
    let (ops, wall): (serde_json::Value, serde_json::Value) =
        (serde_json::from_str(&ops).expect("JSON"), serde_json::from_str(&wall).expect("JSON"));
    let (po, pw) = (&ops["pipelines"][0], &wall["pipelines"][0]);
    let total = pw["time_ns"].as_u64().expect("time_ns");
    assert!(total > 0, "{pw}");
    // The instance's time, start to end, is billed to its current entries, every
    // nanosecond of it.
    let funcs = pw["funcs"].as_array().expect("funcs");
    let billed: u64 = funcs.iter().map(|f| f["time_ns"].as_u64().expect("time_ns")).sum();
    assert_eq!(billed, total, "{pw}");
    // One sample per microsecond billed.
    assert!(pw["samples"].as_u64().expect("samples") <= total / 1000, "{pw}");
    // Not the operation clock's figures: that bills a microsecond per operation, and the
    // interpreter executes an operation in a few nanoseconds.
    let op_total = po["time_ns"].as_u64().expect("time_ns");
    assert_eq!(op_total % 1000, 0);
    assert_eq!(po["samples"].as_u64(), Some(op_total / 1000));
    assert!(total < op_total / 10, "wall {total} ns, operations {op_total} ns");
    // Everything but time is the same.
    for key in ["runs", "num_allocs", "memory_peak", "memory_total"] {
        assert_eq!(pw[key], po[key], "{key}");
    }

    // The text form: the same rows, times and percentages well formed, the percentages
    // (each rounded down) summing to at most 100%.
    let (ops, wall) = (with("--profile", "operations"), with("--profile", "wall"));
    let (ops_rows, wall_rows) = (rows(&ops), rows(&wall));
    assert_eq!(
        wall_rows.iter().map(|r| &r.0).collect::<Vec<_>>(),
        ops_rows.iter().map(|r| &r.0).collect::<Vec<_>>(),
        "{wall}"
    );
    assert!(wall_rows.len() >= 4, "{wall}");
    for (name, time, _) in wall_rows.iter().filter(|r| r.1 != "(allocation)") {
        let (value, unit) = time.split_at(7);
        assert!(
            value.trim().parse::<f64>().is_ok_and(|v| v >= 0.0) && (unit == "ms" || unit == "s "),
            "{name}: {time}"
        );
    }
    let percent: u64 = wall_rows.iter().map(|r| r.2).sum();
    assert!(percent <= 1000, "{wall}");
    let header = wall.lines().find(|l| l.starts_with(" total time: ")).expect("a header");
    assert!(header.contains(" ms  samples: ") && header.contains("  runs: 1  time per run: "), "{header}");
}

#[test]
fn allocation_rows_centre_their_label() {
    // harris hoists the storage of one Func out of its production.
    let text = ok(&["run", "--profile", &profiled("app_harris.cpu")]);
    let row = text.lines().find(|l| l.contains("(allocation)")).expect("an allocation row");
    let cols: Vec<&str> = row.split('│').collect();
    assert_eq!(cols[1], "   (allocation)   ", "{row}");
    assert_eq!(cols[2], "       ", "{row}");
}

#[test]
fn profiling_needs_a_profiled_program() {
    let plain = oracle_case("two_parents.cpu").join("profile.input.stmt");
    let env = oracle_case("two_parents.cpu").join("bounds.env.json");
    let out = loopir(&["run", "--profile", "--env", &env.to_string_lossy(), &plain.to_string_lossy()], b"");
    assert_eq!(out.status.code(), Some(1));
    assert!(stderr(&out).contains("makes no profiler calls"), "{}", stderr(&out));
    // The JSON form too: an empty pipeline list would look like a profile of nothing.
    let out =
        loopir(&["run", "--profile-json", "--env", &env.to_string_lossy(), &plain.to_string_lossy()], b"");
    assert_eq!(out.status.code(), Some(1), "{}", stdout(&out));
    assert!(stderr(&out).contains("--profile-json: the program makes no profiler calls"), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

#[test]
fn the_trace_log_of_an_oracle_stage_is_well_parented() {
    let case = oracle_case("serial_chain.trace");
    let stage = case.join("stages/04.computation_bounds_inference.stmt");
    let env = case.join("bounds.env.json");
    let log = ok(&["run", "--trace", "--env", &env.to_string_lossy(), &stage.to_string_lossy()]);
    assert!(log.contains("     1      0 begin_pipeline out\n"), "{log}");
    assert!(log.contains(" consume a(0, 17, 0, 17)\n"), "{log}");
}

#[test]
fn halide21_parentage_is_an_error_naming_the_event() {
    let stage = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(
        "../../fixtures/halide21_stmt/async_producer.trace/stages/03.computation_bounds_inference.stmt",
    );
    let out = loopir(&["run", "--trace", &stage.to_string_lossy()], b"");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "`begin_realization other(0, 0, 0, 0)` has parent 1, expected 7 (produce out(0, 16, 0, 16))"
        ),
        "{err}"
    );
}

#[test]
fn events_left_without_their_end_are_a_note_not_a_wrong_parent() {
    // From forking asynchronous producers on, the producer's task makes its own copy of
    // the realization's begin event and never ends it.
    let case = oracle_case("async_producer.trace");
    let stage = case.join("stages/19.forking_asynchronous_producers.stmt");
    let env = case.join("bounds.env.json");
    let out = loopir(&["run", "--trace", "--env", &env.to_string_lossy(), &stage.to_string_lossy()], b"");
    let err = stderr(&out);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert!(err.contains(": note: 17 trace events were never ended"), "{err}");
    assert!(
        err.contains(
            "\n  event 7 `begin_realization f(0, 16, 0, 16)` (thread 1), still open when its thread ended\n"
        ),
        "{err}"
    );
    let log = stdout(&out);
    assert!(log.contains("     7      6 begin_realization f(0, 16, 0, 16)\n"), "{log}");
    // The consumer's task makes the realization's begin event again, and ends it.
    assert_eq!(log.matches(" begin_realization f(0, 16, 0, 16)\n").count(), 2, "{log}");
    assert_eq!(log.matches(" end_realization f(0, 16, 0, 16)\n").count(), 1, "{log}");
}

#[test]
fn a_profile_clock_without_a_profile_is_refused() {
    // It would be ignored: the run prints no profile to bill time in.
    let file = profiled("two_parents.cpu");
    for args in [
        vec!["run", "--profile-clock", "wall", &file],
        vec!["run", "--trace", "--profile-clock", "operations", &file],
    ] {
        let out = loopir(&args, b"");
        assert_eq!(out.status.code(), Some(1), "{args:?}: {}", stdout(&out));
        assert!(
            stderr(&out).contains("--profile-clock is read by --profile and --profile-json only"),
            "{}",
            stderr(&out)
        );
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
