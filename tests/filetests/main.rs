//! The fixture harness: every file under `filetests/` is one test case, run by the test
//! its header names, with its expected output in an insta snapshot beside it
//! (`<dir>/snapshots/<name>.snap`). Cranelift's `filetests` are the model.
//!
//! A fixture file is a header and an input (see `header.rs` and `docs/testing.md`):
//!
//! ```text
//! #!test profile
//! # Two Funcs at root: each gets its own row, the pipeline's row is 0.
//! #!env {"funcs": [{"name": "f"}, {"name": "g"}]}
//! produce f {
//! ...
//! ```
//!
//! The harness reads every fixture first (a bad header fails the run with the file and
//! line), runs each through its test, then compares every output with its snapshot and
//! reports all mismatches at once (`cargo insta review` shows them). It fails, too, when a
//! snapshot belongs to no fixture, and when a test runs fewer cases than [`CASE_FLOORS`]
//! records, so that a fixture cannot go missing unnoticed.

mod bounds;
mod header;
mod parse;
mod parse_error;
mod profile;
mod simplify;
mod trace;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use header::{Fixture, Test};

/// The fewest cases each test must run: the counts when the fixtures moved here. Raise a
/// floor when you add fixtures; lowering one needs a reason in the commit.
const CASE_FLOORS: &[(Test, usize)] = &[
    (Test::Parse, 42),
    (Test::ParseError, 44),
    (Test::Profile, 31),
    (Test::ProfileLevels, 24),
    (Test::Trace, 26),
    (Test::TraceCheck, 4),
    (Test::Boxes, 11),
    (Test::BoundsOfExpr, 29),
    (Test::Simplify, 10),
];

/// Snapshots written by tests of this file other than the fixture run (snapshot
/// directory relative to `filetests/`, name).
const EXTRA_SNAPSHOTS: &[(&str, &str)] = &[("profiling", "entry_table_json")];

/// What a test made of one fixture.
pub struct Output {
    /// Snapshots: `None` names the fixture's own snapshot, `Some(v)` the variant
    /// `<name>@<v>`.
    pub snapshots: Vec<(Option<String>, String)>,
    /// How many cases the fixture held (a table fixture holds many).
    pub cases: usize,
}

impl Output {
    /// One snapshot of one case.
    pub fn snapshot(text: String) -> Output {
        Output { snapshots: vec![(None, text)], cases: 1 }
    }
}

/// `<repo>/filetests`.
pub fn filetests_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("filetests")
}

/// Every fixture file under `dir`: all files except `snapshots/` directories and
/// `*.md`, sorted.
fn fixture_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let entries = std::fs::read_dir(&d).unwrap_or_else(|e| panic!("cannot read {}: {e}", d.display()));
        for entry in entries.flatten() {
            let p = entry.path();
            if p.is_dir() {
                if !p.ends_with("snapshots") {
                    stack.push(p);
                }
            } else if p.extension().is_none_or(|x| x != "md") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Reads every fixture under `dir`; the errors of all bad headers, if any.
pub fn load_dir(dir: &Path) -> Result<Vec<Fixture>, Vec<String>> {
    let mut fixtures = Vec::new();
    let mut errors = Vec::new();
    for path in fixture_files(dir) {
        let rel = path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().into_owned();
        match header::read(&path, &rel) {
            Ok(f) => fixtures.push(f),
            Err(e) => errors.push(e),
        }
    }
    if errors.is_empty() { Ok(fixtures) } else { Err(errors) }
}

/// Every fixture of `filetests/`, failing the calling test on a bad header.
pub fn load_all() -> Vec<Fixture> {
    load_dir(&filetests_dir()).unwrap_or_else(|errors| {
        panic!("{} fixture(s) with a bad header:\n{}", errors.len(), errors.join("\n"))
    })
}

/// The fixtures of one test.
pub fn fixtures_of(test: Test) -> Vec<Fixture> {
    load_all().into_iter().filter(|f| f.test == test).collect()
}

/// Runs a fixture through the test its header names.
pub fn run(f: &Fixture) -> Result<Output, String> {
    match f.test {
        Test::Parse => parse::run(f),
        Test::ParseError => parse_error::run(f),
        Test::Profile => profile::run(f),
        Test::ProfileLevels => profile::run_levels(f),
        Test::Trace => trace::run(f),
        Test::TraceCheck => trace::run_check(f),
        Test::Boxes => bounds::run_boxes(f),
        Test::BoundsOfExpr => bounds::run_exprs(f),
        Test::Simplify => simplify::run(f),
    }
}

/// Compares `text` with the snapshot `name` in `dir`, describing the fixture `f`.
pub fn assert_snapshot(dir: &Path, name: &str, f: &Fixture, text: &str) {
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(dir);
    settings.set_prepend_module_to_snapshot(false);
    settings.set_description(f.description.clone());
    settings.set_input_file(&f.path);
    settings.set_omit_expression(true);
    settings.bind(|| insta::assert_snapshot!(name, text));
}

#[test]
fn filetests() {
    let fixtures = load_all();
    let mut failures = Vec::new();
    let mut outputs = Vec::new();
    let mut counts: BTreeMap<Test, (usize, usize)> = BTreeMap::new();
    for f in &fixtures {
        match run(f) {
            Ok(out) => {
                let c = counts.entry(f.test).or_default();
                c.0 += 1;
                c.1 += out.cases;
                outputs.push((f, out));
            }
            Err(e) => failures.push(if e.starts_with(&f.rel) { e } else { format!("{}: {e}", f.rel) }),
        }
    }
    assert!(failures.is_empty(), "{} fixture(s) fail:\n\n{}", failures.len(), failures.join("\n\n"));

    eprintln!("filetests: test, files, cases");
    for t in Test::ALL {
        let (files, cases) = counts.get(&t).copied().unwrap_or_default();
        eprintln!("  {:16} {files:4} {cases:5}", t.name());
    }
    for &(t, floor) in CASE_FLOORS {
        let cases = counts.get(&t).map_or(0, |c| c.1);
        assert!(cases >= floor, "the `{}` test ran {cases} cases, fewer than the {floor} it had", t.name());
    }

    // Snapshots last, so that a failing run is reported as such; every mismatch at once.
    let mut expected_snaps: BTreeSet<PathBuf> = BTreeSet::new();
    let mut mismatches = Vec::new();
    for (f, out) in &outputs {
        let dir = f.path.parent().unwrap_or(Path::new(".")).join("snapshots");
        for (variant, text) in &out.snapshots {
            let name = match variant {
                None => f.snapshot_name(),
                Some(v) => format!("{}@{v}", f.snapshot_name()),
            };
            expected_snaps.insert(dir.join(format!("{name}.snap")));
            let caught = std::panic::catch_unwind(|| assert_snapshot(&dir, &name, f, text));
            if caught.is_err() {
                mismatches.push(format!("{} ({name}.snap)", f.rel));
            }
        }
    }
    assert!(mismatches.is_empty(), "{} snapshot(s) differ:\n{}", mismatches.len(), mismatches.join("\n"));

    for (dir, name) in EXTRA_SNAPSHOTS {
        expected_snaps.insert(filetests_dir().join(dir).join("snapshots").join(format!("{name}.snap")));
    }
    let orphans: Vec<String> = snapshot_files(&filetests_dir())
        .into_iter()
        .filter(|p| !expected_snaps.contains(p))
        .map(|p| p.display().to_string())
        .collect();
    assert!(
        orphans.is_empty(),
        "snapshots of no fixture (delete them with the fixture):\n{}",
        orphans.join("\n")
    );
}

/// Every `*.snap` in a `snapshots/` directory under `dir`.
fn snapshot_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = entry.path();
            if p.is_dir() {
                stack.push(p);
            } else if d.ends_with("snapshots") && p.extension().is_some_and(|x| x == "snap") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// A fixture whose header is wrong fails with the file, the line and what is wrong.
#[test]
fn a_wrong_header_fails_with_a_clear_message() {
    let cases: &[(&str, &str)] = &[
        ("produce f {\n}\n", "x.stmt:1: a fixture starts with a `#!test <name>` line"),
        ("# what it pins\nf(x)\n", "x.stmt:1: a fixture starts with a `#!test <name>` line naming the test"),
        ("#!test profil\n# p\nf(x)\n", "x.stmt:1: unknown test `profil` (the tests are: parse, parse-error,"),
        ("#!testparse\n# p\n", "x.stmt:1: a fixture starts with a `#!test <name>` line"),
        (
            "#!test parse\nf(x)\n",
            "x.stmt: no description: the header says in a `# ...` line what the fixture pins",
        ),
        ("#!test parse\n# p\n#!test trace\n", "x.stmt:3: a second `#!test` line; a fixture names one test"),
        (
            "#!test profile\n# p\n#!evn {}\n",
            "x.stmt:3: `#!evn` is not a directive of the `profile` test (it takes: #!env)",
        ),
        (
            "#!test parse\n# p\n#!env {}\n",
            "x.stmt:3: `#!env` is not a directive of the `parse` test (it takes none)",
        ),
        ("#!test trace\n# p\n#!box\n", "x.stmt:3: `#!box` needs a value"),
        ("", "x.stmt:1: a fixture starts with a `#!test <name>` line"),
    ];
    for (text, message) in cases {
        let err = header::parse(Path::new("x.stmt"), "x.stmt", text).expect_err(text);
        assert!(err.starts_with(message), "for {text:?}:\n  got:      {err}\n  expected: {message}…");
    }
}

/// A well-formed header splits into its parts; the input is the rest, byte for byte.
#[test]
fn a_header_splits_into_test_description_directives_and_input() {
    let text = "#!test trace\n# first\n#!env {\"pipeline\": \"f\"}\n# second\n#!box f: [0, 9]\nf(x)\n\n";
    let f = header::parse(Path::new("t/x.y.stmt"), "t/x.y.stmt", text).expect("a good header");
    assert_eq!(f.test, Test::Trace);
    assert_eq!(f.description, "first second");
    let d: Vec<(&str, &str, usize)> =
        f.directives.iter().map(|d| (d.name.as_str(), d.value.as_str(), d.line)).collect();
    assert_eq!(d, [("env", "{\"pipeline\": \"f\"}", 3), ("box", "f: [0, 9]", 5)]);
    assert_eq!(f.body, "f(x)\n\n");
    assert_eq!(f.snapshot_name(), "x_y");
    let no_body = header::parse(Path::new("e.stmt"), "e.stmt", "#!test parse-error\n# UnexpectedEof: none")
        .expect("ok");
    assert_eq!(no_body.body, "");
}

/// The loader reports every bad file of a tree, with its path, and a test that reads a
/// directive reports a bad value with its line.
#[test]
fn bad_fixtures_in_a_tree_are_each_reported() {
    let dir = std::env::temp_dir().join(format!("loopir-filetests-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sub/snapshots")).expect("a scratch directory");
    std::fs::write(dir.join("sub/a.stmt"), "#!test profile\n# a\n#!env {\"funcs\": 3}\nf(x)\n")
        .expect("write");
    std::fs::write(dir.join("sub/b.stmt"), "# no test line\nf(x)\n").expect("write");
    std::fs::write(dir.join("sub/snapshots/a.snap"), "not a fixture").expect("write");
    std::fs::write(dir.join("README.md"), "not a fixture").expect("write");
    let errors = load_dir(&dir).expect_err("b.stmt has no `#!test` line");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].starts_with("sub/b.stmt:1: a fixture starts with a `#!test <name>` line"),
        "{errors:?}"
    );
    std::fs::remove_file(dir.join("sub/b.stmt")).expect("remove");
    let fixtures = load_dir(&dir).expect("a.stmt's header is well-formed");
    let err = run(&fixtures[0]).err().expect("the env is not a Func environment");
    assert!(err.starts_with("sub/a.stmt:3: `#!env`: "), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
