//! `loopir lower --save-temps DIR`: the IR after each step, as files in DIR.
//!
//! DIR holds exactly the steps of the last run: the step files an earlier run left there
//! (names of the form `NN.PASS.stmt`, as [`step_file_name`] makes them) are removed
//! first, since with other passes or fewer of them they would stay beside the new ones
//! and read as part of this run. Nothing else in DIR is touched.
//!
//! A file is written under a fresh name in DIR and then renamed over its step name.
//! Renaming replaces whatever has that name, a symbolic link included, instead of writing
//! through it into the file it points to; and a reader never sees a half-written step.

use std::fs::OpenOptions;
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use crate::error::CliError;

/// The directory of `--save-temps`, ready for this run's step files.
pub struct SaveTemps {
    dir: PathBuf,
}

/// The name under which the IR after step `step` (0 = the input) is saved.
pub fn step_file_name(step: usize, pass: &str, total_passes: usize) -> String {
    let width = total_passes.to_string().len().max(2);
    format!("{step:0width$}.{pass}.stmt")
}

/// Whether `name` has the form of a step file: two or more digits, `.`, a pass name
/// (lowercase letters and `_`), `.stmt`.
fn is_step_file_name(name: &str) -> bool {
    let Some(stem) = name.strip_suffix(".stmt") else { return false };
    let Some((digits, pass)) = stem.split_once('.') else { return false };
    digits.len() >= 2
        && digits.bytes().all(|b| b.is_ascii_digit())
        && !pass.is_empty()
        && pass.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
}

impl SaveTemps {
    /// Creates `dir` if needed and removes the step files of an earlier run from it.
    pub fn prepare(dir: &Path) -> Result<SaveTemps, CliError> {
        std::fs::create_dir_all(dir)
            .map_err(|e| CliError::Io(format!("cannot create {}: {e}", dir.display())))?;
        let entries = std::fs::read_dir(dir).map_err(|e| CliError::cannot_read(dir.display(), &e))?;
        for entry in entries {
            let entry = entry.map_err(|e| CliError::cannot_read(dir.display(), &e))?;
            let name = entry.file_name();
            let Some(name) = name.to_str().filter(|n| is_step_file_name(n)) else { continue };
            // A directory of that name is not a step file; a symbolic link is removed
            // itself, not what it points to.
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if !is_dir {
                let path = dir.join(name);
                std::fs::remove_file(&path).map_err(|e| {
                    CliError::Io(format!("cannot remove {} (left by an earlier run): {e}", path.display()))
                })?;
            }
        }
        Ok(SaveTemps { dir: dir.to_owned() })
    }

    /// Saves `text` as `DIR/name`, replacing (never writing through) what has that name.
    pub fn save(&self, name: &str, text: &str) -> Result<(), CliError> {
        let path = self.dir.join(name);
        let cannot = |e: std::io::Error| CliError::Io(format!("cannot write {}: {e}", path.display()));
        let (temp, mut file) = self.fresh_file(name).map_err(cannot)?;
        let written = file.write_all(text.as_bytes());
        drop(file);
        match written.and_then(|()| std::fs::rename(&temp, &path)) {
            Ok(()) => Ok(()),
            Err(e) => {
                let _ = std::fs::remove_file(&temp);
                Err(cannot(e))
            }
        }
    }

    /// A new file in DIR for the contents of `name`, created exclusively: an existing
    /// file or link of the same name is never opened.
    fn fresh_file(&self, name: &str) -> std::io::Result<(PathBuf, std::fs::File)> {
        let pid = std::process::id();
        let mut attempt = 0u32;
        loop {
            let temp = self.dir.join(format!(".{name}.{pid}.{attempt}.tmp"));
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => return Ok((temp, file)),
                // Left by a run that was killed: take the next name.
                Err(e) if e.kind() == ErrorKind::AlreadyExists && attempt < 100 => attempt += 1,
                Err(e) => return Err(e),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_file_names_sort_in_pass_order() {
        assert_eq!(step_file_name(0, "input", 2), "00.input.stmt");
        assert_eq!(step_file_name(2, "profile", 2), "02.profile.stmt");
        assert_eq!(step_file_name(7, "trace", 120), "007.trace.stmt");
    }

    #[cfg(unix)]
    #[test]
    fn saving_replaces_a_symlink_instead_of_writing_through_it() {
        let root = std::env::temp_dir().join(format!("loopir-save-temps-unit-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        let dir = root.join("temps");
        let temps = SaveTemps::prepare(&dir).ok().expect("a fresh directory");
        let victim = root.join("precious.txt");
        std::fs::write(&victim, "keep me\n").expect("victim");
        // Made after `prepare`, as by another process while the passes run.
        std::os::unix::fs::symlink(&victim, dir.join("01.trace.stmt")).expect("symlink");
        assert!(temps.save("01.trace.stmt", "traced\n").is_ok());
        assert_eq!(std::fs::read_to_string(&victim).ok().as_deref(), Some("keep me\n"));
        let saved = dir.join("01.trace.stmt");
        assert!(std::fs::symlink_metadata(&saved).is_ok_and(|m| m.file_type().is_file()));
        assert_eq!(std::fs::read_to_string(&saved).ok().as_deref(), Some("traced\n"));
        let left: Vec<_> =
            std::fs::read_dir(&dir).into_iter().flatten().flatten().map(|e| e.file_name()).collect();
        assert_eq!(left.len(), 1, "no temporary file left: {left:?}");
        let _ = std::fs::remove_dir_all(&root);
    }

    #[test]
    fn only_step_file_names_are_taken_for_an_earlier_run() {
        for name in ["00.input.stmt", "01.allocation_bounds.stmt", "007.trace.stmt"] {
            assert!(is_step_file_name(name), "{name}");
        }
        for name in [
            "0.input.stmt",
            "01.Profile.stmt",
            "01..stmt",
            "01.trace.stmt.bak",
            "notes.stmt",
            "ab.trace.stmt",
        ] {
            assert!(!is_step_file_name(name), "{name}");
        }
    }
}
