//! One rule for exit codes in every subcommand: 0 success; 1 anything wrong with the
//! input: the IR, an env file (that does not parse, is not UTF-8 or is refused by the
//! library), the command line (an unknown flag, flags that do not go together); 2 I/O (a
//! file that cannot be read or written).

mod support;

use loopir_testkit::oracle::case as oracle_case;
use support::{file, loopir, scratch, stderr};

const STMT: &[u8] = b"produce f {\n f[0] = 1\n}\n";

fn case_file(case: &str, name: &str) -> String {
    oracle_case(case).join(name).to_string_lossy().into_owned()
}

/// Runs each command line and checks its exit code and that the message mentions `says`.
fn expect(code: i32, cases: &[(Vec<String>, &str)]) {
    for (args, says) in cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = loopir(&args, STMT);
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(says), "{args:?} should say {says:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?} printed a result");
    }
}

fn line(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| w.to_string()).collect()
}

#[test]
fn env_files_that_do_not_parse_are_input_errors_in_every_subcommand() {
    let dir = scratch("exit-env");
    let not_json = file(&dir, "env.json", b"{\"funcs\": [");
    let not_utf8 = file(&dir, "latin1.json", b"{\"pipeline\": \"caf\xe9\"}");
    let bounds_input = case_file("two_stage_root.cpu", "bounds.input.stmt");
    let cases = [
        (line(&["profile", "--env", &not_json]), "env.json"),
        (line(&["profile", "--env", &not_utf8]), "latin1.json: not UTF-8 text"),
        (line(&["trace", "--env", &not_json]), "env.json"),
        (line(&["trace", "--check", "--env", &not_json]), "env.json"),
        (line(&["bounds", "--infer", "--env", &not_json, &bounds_input]), "env.json"),
        (line(&["bounds", "--infer-allocations", "--env", &not_json, &bounds_input]), "env.json"),
        (line(&["lower", "--passes", "profile", "--env", &format!("profile={not_json}")]), "env.json"),
        (line(&["lower", "--passes", "trace", "--env", &format!("trace={not_json}")]), "env.json"),
        (line(&["lower", "--passes", "bounds", "--env", &format!("bounds={not_json}")]), "env.json"),
        (
            line(&[
                "lower",
                "--passes",
                "allocation_bounds",
                "--env",
                &format!("allocation_bounds={not_utf8}"),
            ]),
            "not UTF-8",
        ),
    ];
    expect(1, &cases);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn env_files_the_library_refuses_are_input_errors() {
    // A bounds env that reads as JSON but names a type that does not exist: refused by the
    // library's reader, so the CLI maps it to 1 whatever the error's type.
    let dir = scratch("exit-env-refused");
    let env = file(
        &dir,
        "bounds.env.json",
        br#"{"order": ["f"], "target": {"profile": false}, "outputs": [], "funcs": {"f": {"types": ["int33x"], "args": ["x"]}}}"#,
    );
    let cases = [
        (line(&["bounds", "--infer", "--env", &env]), "int33x"),
        (line(&["lower", "--passes", "bounds", "--env", &format!("bounds={env}")]), "int33x"),
    ];
    expect(1, &cases);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn usage_mistakes_are_input_errors_in_every_subcommand() {
    let defs = case_file("two_stage_root.cpu", "bounds.input.stmt");
    let env = case_file("two_stage_root.cpu", "bounds.env.json");
    let cases = [
        (line(&[]), "Usage"),
        (line(&["nosuch"]), "unrecognized subcommand"),
        (line(&["fmt", "--bogus"]), "--bogus"),
        (line(&["fmt", "a", "b"]), "unexpected argument"),
        (line(&["profile"]), "no pipeline name"),
        (line(&["profile", "--pipeline", "p", "--entries", "--json"]), "cannot be used with"),
        (line(&["profile", "--pipeline", "p", "--keys"]), "--entries"),
        (line(&["profile", "--pipeline", "p", "--keys", "--json"]), "cannot be used with"),
        (line(&["profile", "--pipeline", "p", "--level", "4"]), "--level"),
        (line(&["profile", "--pipeline", "p", "--only", "memory"]), "unknown profiling feature `memory`"),
        (line(&["trace"]), "instrumenting needs --env"),
        (line(&["trace", "--check", "--timings"]), "cannot be used with"),
        (line(&["bounds", "--infer"]), "--env"),
        (line(&["bounds", "--infer", "--infer-allocations", "--env", &env]), "cannot be used with"),
        (line(&["bounds", "--env", &env]), "--env is read by --infer and --infer-allocations only"),
        (line(&["bounds", "--infer", "--env", &env, "--definitions", &defs]), "cannot be used with"),
        (line(&["bounds", "--definitions", &defs]), "--infer-allocations"),
        (line(&["lower"]), "--passes"),
        (line(&["lower", "--passes", "simplify"]), "unknown pass `simplify`"),
        (
            line(&["lower", "--passes", "trace", "--env", "profile=x.json"]),
            "pass `profile` is not in --passes",
        ),
        (
            line(&["lower", "--passes", "trace", "--allow-missing-marker"]),
            "--allow-missing-marker: only the profile pass reads it",
        ),
        (line(&["lower", "--passes", "trace", "--level", "1"]), "the profiling options"),
        (line(&["lower", "--list-passes", "--passes", "profile"]), "cannot be used with"),
        (line(&["lower", "--passes", "trace"]), "expects the schedule stage"),
        (line(&["demo", "extra"]), "unexpected argument"),
    ];
    expect(1, &cases);
}

#[test]
fn files_that_cannot_be_read_are_io_errors_in_every_subcommand() {
    let missing = "/nonexistent/loopir/file";
    let input = case_file("two_stage_root.cpu", "allocbounds.input.stmt");
    let env = case_file("two_stage_root.cpu", "bounds.env.json");
    let cases = [
        (line(&["fmt", missing]), "cannot read /nonexistent/loopir/file"),
        (line(&["profile", "--pipeline", "p", missing]), "cannot read"),
        (line(&["profile", "--env", missing]), "cannot read"),
        (line(&["trace", "--env", missing]), "cannot read"),
        (line(&["trace", "--check", missing]), "cannot read"),
        (line(&["bounds", missing]), "cannot read"),
        (line(&["bounds", "--infer", "--env", missing]), "cannot read"),
        (
            line(&["bounds", "--infer-allocations", "--env", &env, "--definitions", missing, &input]),
            "cannot read",
        ),
        (line(&["lower", "--passes", "profile", "--pipeline", "p", missing]), "cannot read"),
        (line(&["lower", "--passes", "profile", "--env", &format!("profile={missing}")]), "cannot read"),
        (
            line(&["lower", "--passes", "profile", "--pipeline", "p", "--save-temps", "/proc/loopir/temps"]),
            "cannot create",
        ),
    ];
    expect(2, &cases);
}

#[test]
fn ir_that_does_not_parse_is_an_input_error_in_every_subcommand() {
    let dir = scratch("exit-ir");
    let bad = file(&dir, "bad.stmt", b"for (x, 0, 9 {\n}\n");
    let env = case_file("two_stage_root.cpu", "bounds.env.json");
    let input = case_file("two_stage_root.cpu", "allocbounds.input.stmt");
    let cases = [
        (line(&["fmt", &bad]), "bad.stmt:1:"),
        (line(&["profile", "--pipeline", "p", &bad]), "bad.stmt:1:"),
        (line(&["trace", "--check", &bad]), "bad.stmt:1:"),
        (line(&["bounds", &bad]), "bad.stmt:1:"),
        (
            line(&["bounds", "--infer-allocations", "--env", &env, "--definitions", &bad, &input]),
            "bad.stmt:1:",
        ),
        (line(&["lower", "--passes", "profile", "--pipeline", "p", &bad]), "bad.stmt:1:"),
    ];
    expect(1, &cases);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn help_and_version_succeed() {
    for args in [["--help"], ["--version"]] {
        let out = loopir(&args, b"");
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(!out.stdout.is_empty() && out.stderr.is_empty(), "{args:?}");
    }
}
