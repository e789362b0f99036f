//! Failing to write the output is an I/O error, exit code 2, in every command: a closed
//! standard output, a full disk, a pipe whose reader has gone (then without a message).
//! Never a panic, never a silent success.

mod support;

use std::process::{Output, Stdio};

use loopir_testkit::oracle::case as oracle_case;
use support::{command, stderr};

/// Every way of running a command that writes its result on standard output.
fn every_command() -> Vec<Vec<String>> {
    let p = |case: &str, file: &str| oracle_case(case).join(file).to_string_lossy().into_owned();
    let cpu = "two_stage_root.cpu";
    let lines = [
        vec!["fmt".into(), p(cpu, "profile.input.stmt")],
        vec!["profile".into(), "--env".into(), p(cpu, "profile.env.json"), p(cpu, "profile.input.stmt")],
        vec![
            "profile".into(),
            "--entries".into(),
            "--env".into(),
            p(cpu, "profile.env.json"),
            p(cpu, "profile.input.stmt"),
        ],
        vec![
            "trace".into(),
            "--env".into(),
            p("serial_chain.trace", "trace.env.json"),
            p("serial_chain.trace", "trace.input.stmt"),
        ],
        vec!["bounds".into(), p(cpu, "bounds.input.stmt")],
        vec![
            "bounds".into(),
            "--infer".into(),
            "--env".into(),
            p(cpu, "bounds.env.json"),
            p(cpu, "bounds.input.stmt"),
        ],
        vec![
            "bounds".into(),
            "--infer-allocations".into(),
            "--env".into(),
            p(cpu, "bounds.env.json"),
            p(cpu, "allocbounds.input.stmt"),
        ],
        vec![
            "lower".into(),
            "--passes".into(),
            "profile".into(),
            "--env".into(),
            format!("profile={}", p(cpu, "profile.env.json")),
            p(cpu, "profile.input.stmt"),
        ],
        vec!["lower".into(), "--list-passes".into()],
        vec!["demo".into()],
        vec!["--help".into()],
        vec!["--version".into()],
    ];
    lines.to_vec()
}

fn with_stdout(args: &[String], stdout: Stdio) -> Output {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut c = command(&args);
    c.stdin(Stdio::null()).stdout(stdout).stderr(Stdio::piped());
    c.spawn().expect("loopir starts").wait_with_output().expect("loopir finishes")
}

#[test]
fn every_command_succeeds_with_a_working_standard_output() {
    for args in every_command() {
        let out = with_stdout(&args, Stdio::piped());
        assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn a_pipe_whose_reader_has_gone_exits_2_without_a_message() {
    for args in every_command() {
        // The read end is closed before the command starts, so that every write fails
        // with a broken pipe, however small the output.
        let (reader, writer) = std::io::pipe().expect("a pipe");
        drop(reader);
        let out = with_stdout(&args, Stdio::from(writer));
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "", "{args:?}: the reader stopped on purpose; nothing to report");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_full_disk_is_an_io_error() {
    for args in every_command() {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full").expect("/dev/full");
        let out = with_stdout(&args, Stdio::from(full));
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.starts_with("error: cannot write standard output: No space left on device"),
            "{args:?}: {err}"
        );
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Runs `loopir ARGS` through `sh` with the descriptors `redirect` closes (`>&-`, `<&-`,
/// `2>&-`): the way a user's shell closes them.
#[cfg(target_os = "linux")]
fn through_shell(redirect: &str, args: &[String]) -> Output {
    let script = format!("exec \"$0\" \"$@\" {redirect}");
    let mut c = std::process::Command::new("sh");
    c.arg("-c").arg(script).arg(env!("CARGO_BIN_EXE_loopir")).args(args);
    c.stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    c.spawn().expect("sh starts").wait_with_output().expect("sh finishes")
}

#[cfg(target_os = "linux")]
#[test]
fn a_closed_standard_output_is_an_io_error() {
    for args in every_command() {
        let out = through_shell(">&-", &args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert_eq!(stderr(&out), "error: cannot write standard output: it is closed\n", "{args:?}");
    }
}

#[cfg(target_os = "linux")]
#[test]
fn a_closed_standard_input_is_an_io_error() {
    let out = through_shell("<&-", &["fmt".into()]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert_eq!(stderr(&out), "error: cannot read standard input: it is closed\n");
}

#[cfg(target_os = "linux")]
#[test]
fn timings_to_a_closed_standard_error_are_an_io_error() {
    let case = oracle_case("two_stage_root.cpu");
    let args: Vec<String> = ["fmt", "--check"].iter().map(|s| s.to_string()).collect();
    // `fmt --check` writes nothing: a closed standard error does not matter to it.
    let mut ok = args.clone();
    ok.push(case.join("profile.input.stmt").to_string_lossy().into_owned());
    assert_eq!(through_shell("2>&-", &ok).status.code(), Some(0));
    let timed: Vec<String> = ["profile", "--timings", "--env"]
        .iter()
        .map(|s| s.to_string())
        .chain(
            [case.join("profile.env.json"), case.join("profile.input.stmt")]
                .map(|p| p.to_string_lossy().into_owned()),
        )
        .collect();
    let out = through_shell("2>&-", &timed);
    assert_eq!(out.status.code(), Some(2), "the timings asked for were not written");
    assert!(!out.stdout.is_empty(), "the statement itself was written");
}
