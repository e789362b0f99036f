//! The command runs on a stack large enough for the walks of deep IR to share their pages
//! (see `COMMAND_STACK` in `main.rs`). On the main thread's 8 MiB every walk of a deep
//! expression moved to freshly mapped stack segments, whose pages the kernel faults in
//! and zeroes anew for each walk: about two minor page faults per level of a left-nested
//! sum in `bounds --infer` (more than half of its CPU time), a quarter of one since.
//!
//! Alone in its test binary: it reads the page faults of the process's waited-for
//! children, which another test's child would add to.

#[cfg(target_os = "linux")]
#[test]
fn deep_walks_do_not_fault_in_a_fresh_stack_each() {
    use std::io::Write as _;
    use std::process::{Command, Stdio};

    /// Minor page faults of the children this process has waited for (`cminflt`, the
    /// tenth field after the command name in `/proc/self/stat`).
    fn children_minor_faults() -> u64 {
        let stat =
            std::fs::read_to_string("/proc/self/stat").unwrap_or_else(|e| panic!("/proc/self/stat: {e}"));
        let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        let field = after_name.split_whitespace().nth(8);
        field.and_then(|f| f.parse().ok()).unwrap_or_else(|| panic!("no cminflt in {stat:?}"))
    }

    const DEPTH: usize = 200_000;
    let dir = std::env::temp_dir().join(format!("loopir-deep-stack-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let env = dir.join("bounds.env.json");
    std::fs::write(
        &env,
        r#"{"order": ["f"], "target": {"profile": false}, "outputs": [{"func": "f", "buffer": "f"}]}"#,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut text = String::from("produce f {\n f(f.s0.x) = ");
    text.push_str(&"(".repeat(DEPTH));
    text.push('x');
    text.push_str(&" + 1)".repeat(DEPTH));
    text.push_str("\n}\n");
    let before = children_minor_faults();
    let mut child = Command::new(env!("CARGO_BIN_EXE_loopir"))
        .args(["bounds", "--infer", "--env"])
        .arg(&env)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .spawn()
        .unwrap_or_else(|e| panic!("{e}"));
    let mut stdin = child.stdin.take().unwrap_or_else(|| panic!("no stdin"));
    stdin.write_all(text.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
    drop(stdin);
    let status = child.wait().unwrap_or_else(|e| panic!("{e}"));
    let faults = children_minor_faults() - before;
    let _ = std::fs::remove_dir_all(&dir);
    assert!(status.success(), "{status}");
    // Before: 395,000 at this depth; since: 48,000.
    assert!(faults < (DEPTH as u64) / 2, "{faults} minor page faults for a {DEPTH}-deep sum");
}
