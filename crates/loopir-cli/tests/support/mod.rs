//! Running the built `loopir` binary from the CLI tests.

#![allow(dead_code)] // each test file uses a part

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// The `loopir` command, not yet started.
pub fn command(args: &[&str]) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_loopir"));
    c.args(args);
    c
}

/// Runs `loopir ARGS` with `stdin` as standard input, capturing both outputs.
pub fn loopir(args: &[&str], stdin: &[u8]) -> Output {
    let mut c = command(args);
    c.stdout(Stdio::piped()).stderr(Stdio::piped());
    run(c, stdin)
}

/// Runs `command` with `stdin` as standard input, capturing whatever output is piped.
pub fn run(mut command: Command, stdin: &[u8]) -> Output {
    command.stdin(Stdio::piped());
    let mut child = command.spawn().expect("the loopir binary starts");
    // The command may exit before reading its input: a broken pipe here is no failure.
    let _ = child.stdin.take().expect("stdin is piped").write_all(stdin);
    child.wait_with_output().expect("loopir finishes")
}

/// Standard error as text.
pub fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// Standard output as text.
pub fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Standard output of `loopir ARGS` (no input), which must exit with 0.
pub fn ok(args: &[&str]) -> String {
    let out = loopir(args, b"");
    assert_eq!(out.status.code(), Some(0), "{args:?}: {}", stderr(&out));
    stdout(&out)
}

/// A fresh, empty directory for one test's files.
pub fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("loopir-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// Writes `text` to `dir/name` and gives the path as a string.
pub fn file(dir: &Path, name: &str, text: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("a scratch file");
    path.to_string_lossy().into_owned()
}
