//! The `.stmt` files Halide 21.0.0 wrote for the pipelines of `tools/halide21-stmt`
//! (`fixtures/halide21_stmt`; `LOOPIR_HALIDE21_STMT` names another directory of the same
//! layout): module files (`compile_to_lowered_stmt`) for CPU, GPU, Hexagon, tracing and
//! profiling targets, and the IR after each lowering stage.
//!
//! Every file must be told to be Halide 21's (or, for a stage that tells nothing, read as
//! Halide 21's when told so), reprint byte for byte in its own dialect, convert to the
//! reference's dialect and back unchanged, and the converted text must read as the
//! reference's and reprint unchanged too.

mod support;

use std::path::{Path, PathBuf};

use loopir::dialect::Dialect;
use loopir::{ParseEnv, ParseOptions, PrintOptions, StmtFile};

fn corpus() -> PathBuf {
    match std::env::var_os("LOOPIR_HALIDE21_STMT") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/halide21_stmt"),
    }
}

fn show(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Checks one file; returns what is wrong, and whether the text told its dialect.
fn check(path: &Path) -> Result<bool, String> {
    let bytes = std::fs::read(path).map_err(|e| e.to_string())?;
    let env = ParseEnv::default();
    let detect = ParseOptions::default();
    let parsed = StmtFile::parse(&bytes, &env, detect).map_err(|e| format!("detecting: {e}"))?;
    let told = parsed.told_by.is_some();
    let parsed = if told {
        if parsed.dialect != Dialect::Halide21 {
            return Err(format!("told {} by {:?}", parsed.dialect, parsed.told_by));
        }
        parsed
    } else {
        let chosen = ParseOptions { dialect: Some(Dialect::Halide21), ..ParseOptions::default() };
        StmtFile::parse(&bytes, &env, chosen).map_err(|e| format!("as Halide 21: {e}"))?
    };
    let again = parsed.value.print(PrintOptions::dialect(Dialect::Halide21));
    if again != bytes {
        return Err(format!(
            "reprints differently: {}",
            loopir_testkit::text::first_difference(&show(&bytes), &show(&again))
        ));
    }
    let reference = parsed.value.print(PrintOptions::dialect(Dialect::Reference));
    let back = StmtFile::parse(&reference, &env, detect).map_err(|e| format!("the reference text: {e}"))?;
    if back.told_by.is_some() && back.dialect != Dialect::Reference {
        return Err(format!("the reference text is told {} by {:?}", back.dialect, back.told_by));
    }
    let reprinted = back.value.print(PrintOptions::dialect(Dialect::Reference));
    if reprinted != reference {
        return Err(format!(
            "the reference text reprints differently: {}",
            loopir_testkit::text::first_difference(&show(&reference), &show(&reprinted))
        ));
    }
    let round_trip = back.value.print(PrintOptions::dialect(Dialect::Halide21));
    if round_trip != bytes {
        return Err(format!(
            "converted to the reference and back differs: {}",
            loopir_testkit::text::first_difference(&show(&bytes), &show(&round_trip))
        ));
    }
    Ok(told)
}

#[test]
fn every_halide21_file_reprints_in_both_dialects() {
    let files = support::stmt_files(&corpus());
    let modules = files.iter().filter(|p| p.file_name().is_some_and(|n| n == "module.stmt")).count();
    assert!(modules >= 20, "expected the corpus's module files, found {modules} in {}", corpus().display());
    let mut failures = Vec::new();
    let mut untold = 0;
    for path in &files {
        match check(path) {
            Ok(told) => untold += usize::from(!told),
            Err(why) => failures.push(format!("{}: {why}", path.display())),
        }
    }
    println!(
        "{} files ({modules} module files, {} stage dumps); {untold} tell no dialect; {} fail",
        files.len(),
        files.len() - modules,
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} files fail:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}

/// The reference's own files (the oracle) are never taken for Halide 21's: every one is
/// told the reference's, or tells nothing (and is read as the reference's).
#[test]
fn no_oracle_file_is_taken_for_halide21() {
    let files = support::stmt_files(&loopir_testkit::oracle::cases());
    let mut wrong = Vec::new();
    let mut untold = 0;
    for path in &files {
        let bytes = std::fs::read(path).expect("readable");
        match StmtFile::parse(&bytes, &ParseEnv::default(), ParseOptions::default()) {
            Ok(p) if p.dialect == Dialect::Reference => untold += usize::from(p.told_by.is_none()),
            Ok(p) => wrong.push(format!("{}: told {} by {:?}", path.display(), p.dialect, p.told_by)),
            Err(e) => wrong.push(format!("{}: {e}", path.display())),
        }
    }
    println!("{} oracle files; {untold} tell no dialect", files.len());
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The reference's files converted to Halide 21's dialect and back are unchanged.
#[test]
fn oracle_files_convert_to_halide21_and_back() {
    let files = support::stmt_files(&loopir_testkit::oracle::cases());
    let mut failures = Vec::new();
    let env = ParseEnv::default();
    for path in &files {
        let bytes = std::fs::read(path).expect("readable");
        let lossless = path.to_string_lossy().ends_with(".lossless.stmt");
        let reference = ParseOptions { dialect: Some(Dialect::Reference), lenient: false };
        let halide21 = ParseOptions { dialect: Some(Dialect::Halide21), lenient: false };
        let result = (|| {
            let s = StmtFile::parse(&bytes, &env, reference).map_err(|e| e.to_string())?;
            let text21 = s.value.print(PrintOptions { lossless, dialect: Dialect::Halide21 });
            let back =
                StmtFile::parse(&text21, &env, halide21).map_err(|e| format!("as Halide 21's: {e}"))?;
            let again = back.value.print(PrintOptions { lossless, dialect: Dialect::Reference });
            if again == bytes {
                Ok(())
            } else {
                Err(loopir_testkit::text::first_difference(&show(&bytes), &show(&again)))
            }
        })();
        if let Err(e) = result {
            failures.push(format!("{}: {e}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{} of {} files:\n{}", failures.len(), files.len(), failures.join("\n"));
}
