//! `loopir lower --save-temps DIR`: files are replaced, never written through a symbolic
//! link, and DIR ends up with this run's step files only.

mod support;

use std::path::Path;

use support::{loopir, scratch, stderr};

const STMT: &[u8] = b"produce f {\n f[0] = 1\n}\n";

fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the directory")
        .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
        .collect();
    names.sort();
    names
}

fn lower_profile(dir: &Path) -> std::process::Output {
    let dir = dir.to_string_lossy().into_owned();
    loopir(
        &[
            "lower",
            "--passes",
            "profile",
            "--pipeline",
            "p",
            "--level",
            "1",
            "--allow-missing-marker",
            "--save-temps",
            &dir,
        ],
        STMT,
    )
}

#[cfg(unix)]
#[test]
fn a_symlink_named_like_a_step_is_replaced_not_written_through() {
    let root = scratch("temps-symlink");
    let dir = root.join("temps");
    std::fs::create_dir_all(&dir).expect("temps dir");
    let victim = root.join("precious.txt");
    std::fs::write(&victim, "keep me\n").expect("victim");
    std::os::unix::fs::symlink(&victim, dir.join("00.input.stmt")).expect("symlink");
    std::os::unix::fs::symlink(&victim, dir.join("01.profile.stmt")).expect("symlink");

    let out = lower_profile(&dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(std::fs::read_to_string(&victim).ok().as_deref(), Some("keep me\n"));
    for step in ["00.input.stmt", "01.profile.stmt"] {
        let meta = std::fs::symlink_metadata(dir.join(step)).expect("step file");
        assert!(meta.file_type().is_file(), "{step} is a regular file now");
    }
    assert_eq!(std::fs::read(dir.join("00.input.stmt")).ok().as_deref(), Some(STMT));
    assert_eq!(std::fs::read(dir.join("01.profile.stmt")).ok(), Some(out.stdout));
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn the_step_files_of_an_earlier_run_are_removed_and_nothing_else() {
    let dir = scratch("temps-stale");
    for stale in ["00.input.stmt", "01.trace.stmt", "02.profile.stmt", "003.allocation_bounds.stmt"] {
        std::fs::write(dir.join(stale), "from an earlier run\n").expect("stale step");
    }
    // Not step files: kept.
    for other in ["notes.txt", "01.Trace.stmt", "1.trace.stmt", "01.trace.stmt.orig", ".hidden"] {
        std::fs::write(dir.join(other), "mine\n").expect("other file");
    }
    std::fs::create_dir_all(dir.join("04.trace.stmt")).expect("a directory named like a step");

    let out = lower_profile(&dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(
        names(&dir),
        [
            ".hidden",
            "00.input.stmt",
            "01.Trace.stmt",
            "01.profile.stmt",
            "01.trace.stmt.orig",
            "04.trace.stmt",
            "1.trace.stmt",
            "notes.txt"
        ]
    );
    assert_eq!(std::fs::read(dir.join("00.input.stmt")).ok().as_deref(), Some(STMT));
    let _ = std::fs::remove_dir_all(&dir);
}

#[cfg(unix)]
#[test]
fn a_stale_symlink_step_is_removed_as_a_link() {
    let root = scratch("temps-stale-link");
    let dir = root.join("temps");
    std::fs::create_dir_all(&dir).expect("temps dir");
    let victim = root.join("precious.txt");
    std::fs::write(&victim, "keep me\n").expect("victim");
    std::os::unix::fs::symlink(&victim, dir.join("07.trace.stmt")).expect("symlink");

    let out = lower_profile(&dir);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(names(&dir), ["00.input.stmt", "01.profile.stmt"]);
    assert_eq!(std::fs::read_to_string(&victim).ok().as_deref(), Some("keep me\n"));
    let _ = std::fs::remove_dir_all(&root);
}
