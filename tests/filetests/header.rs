//! The header of a fixture file: which test runs it, what it pins, how the test is set up.
//!
//! ```text
//! #!test trace                  the test that runs the file (first line, exactly one)
//! # what the fixture pins       one or more description lines
//! #!env {"pipeline": "f", ...}  directives of that test, `#!name value`
//! <the input>                   everything after the header, byte for byte
//! ```
//!
//! The header is the run of lines starting with `#` at the top of the file. `.stmt` text
//! has no comments, and no statement starts with `#`, so the first other line starts the
//! input. `#!` marks a directive and `#` anything else a description; a directive the test
//! does not take is an error, so a misspelt one cannot silently be read as prose.

use std::path::{Path, PathBuf};

/// The tests a fixture can name. Each is one pass (or one reading) run on the input; its
/// module says what the snapshot shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Test {
    /// Parse, reprint byte for byte, snapshot a structural dump (`parse.rs`).
    Parse,
    /// Parse must fail with the kind the description names; snapshot the rendered error.
    ParseError,
    /// `inject_profiling` at the default level; snapshot the output and the entry tree.
    Profile,
    /// `inject_profiling` under each listed level or feature set, one snapshot each.
    ProfileLevels,
    /// `inject_tracing` with recorded boxes; snapshot the output and the checker's verdict.
    Trace,
    /// The tracing hierarchy checker alone, on already instrumented IR.
    TraceCheck,
    /// `boxes_required`, `boxes_provided`, `boxes_touched` of a statement.
    Boxes,
    /// `bounds_of_expr_in_scope`, raw and simplified, one expression per line.
    BoundsOfExpr,
    /// `simplify` of box ends, each compared with the text Halide printed (no snapshot).
    Simplify,
}

impl Test {
    /// Every test, in the order the summary lists them.
    pub const ALL: [Test; 9] = [
        Test::Parse,
        Test::ParseError,
        Test::Profile,
        Test::ProfileLevels,
        Test::Trace,
        Test::TraceCheck,
        Test::Boxes,
        Test::BoundsOfExpr,
        Test::Simplify,
    ];

    /// The name a `#!test` line uses.
    pub fn name(self) -> &'static str {
        match self {
            Test::Parse => "parse",
            Test::ParseError => "parse-error",
            Test::Profile => "profile",
            Test::ProfileLevels => "profile-levels",
            Test::Trace => "trace",
            Test::TraceCheck => "trace-check",
            Test::Boxes => "boxes",
            Test::BoundsOfExpr => "bounds-of-expr",
            Test::Simplify => "simplify",
        }
    }

    /// The directives the test takes.
    pub fn directives(self) -> &'static [&'static str] {
        match self {
            Test::Parse | Test::ParseError | Test::BoundsOfExpr | Test::Simplify => &[],
            Test::Profile => &["env"],
            Test::ProfileLevels => &["variants"],
            Test::Trace => &["env", "box", "options"],
            Test::TraceCheck => &["env"],
            Test::Boxes => &["funcs", "images", "scope"],
        }
    }

    fn from_name(name: &str) -> Option<Test> {
        Test::ALL.into_iter().find(|t| t.name() == name)
    }
}

/// One `#!name value` line.
#[derive(Debug)]
pub struct Directive {
    /// The name after `#!`.
    pub name: String,
    /// The rest of the line, trimmed.
    pub value: String,
    /// Its line in the file, from 1.
    pub line: usize,
}

/// A fixture file, read and split.
#[derive(Debug)]
pub struct Fixture {
    /// Where the file is.
    pub path: PathBuf,
    /// The path relative to `filetests/`, as messages show it.
    pub rel: String,
    /// The test that runs it.
    pub test: Test,
    /// The description lines, each without its `#`, joined by spaces.
    pub description: String,
    /// The directives, in file order.
    pub directives: Vec<Directive>,
    /// The input: everything after the header, byte for byte.
    pub body: String,
}

impl Fixture {
    /// The file name (`blur.stmt`).
    pub fn file_name(&self) -> &str {
        self.path.file_name().and_then(|n| n.to_str()).unwrap_or("?")
    }

    /// The name of the fixture's snapshot: the file name without its extension, dots
    /// replaced by underscores (`tuple_index.lossless.stmt` → `tuple_index_lossless`).
    pub fn snapshot_name(&self) -> String {
        let name = self.file_name();
        let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
        stem.replace('.', "_")
    }

    /// The values of every `#!name` directive, in file order.
    pub fn values(&self, name: &str) -> impl Iterator<Item = &Directive> {
        self.directives.iter().filter(move |d| d.name == name)
    }

    /// The value of a directive given at most once (`None` when absent).
    pub fn single(&self, name: &str) -> Result<Option<&str>, String> {
        let mut found = self.values(name);
        let first = found.next();
        if let Some(second) = found.next() {
            return Err(format!("{}:{}: `#!{name}` is given twice", self.rel, second.line));
        }
        Ok(first.map(|d| d.value.as_str()))
    }

    /// Where a directive is, for messages (`tracing/x.stmt:3`).
    pub fn at(&self, d: &Directive) -> String {
        format!("{}:{}", self.rel, d.line)
    }
}

/// Reads the fixture at `path`; `rel` is how messages name it.
pub fn read(path: &Path, rel: &str) -> Result<Fixture, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{rel}: cannot read: {e}"))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "{rel}: not UTF-8 (byte {}); write bytes a text file cannot hold escaped, see \
             `*.escaped.stmt` in docs/testing.md",
            e.utf8_error().valid_up_to()
        )
    })?;
    parse(path, rel, &text)
}

/// Splits a fixture's text into its header and its input.
pub fn parse(path: &Path, rel: &str, text: &str) -> Result<Fixture, String> {
    let names = || Test::ALL.map(Test::name).join(", ");
    let mut lines = text.split_inclusive('\n');
    let first_raw = lines.next().unwrap_or_default();
    let first = first_raw.trim_end_matches('\n');
    let Some(test_name) = first.strip_prefix("#!test").filter(|r| r.is_empty() || r.starts_with(' ')) else {
        return Err(format!(
            "{rel}:1: a fixture starts with a `#!test <name>` line naming the test that runs it \
             (one of: {}); found `{first}`",
            names()
        ));
    };
    let test_name = test_name.trim();
    let test = Test::from_name(test_name)
        .ok_or_else(|| format!("{rel}:1: unknown test `{test_name}` (the tests are: {})", names()))?;
    let mut description = Vec::new();
    let mut directives = Vec::new();
    let mut header_len = first_raw.len();
    for (i, raw) in lines.enumerate() {
        let line_no = i + 2;
        let line = raw.trim_end_matches('\n');
        if !line.starts_with('#') {
            break;
        }
        header_len += raw.len();
        if let Some(rest) = line.strip_prefix("#!") {
            let (name, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let value = value.trim();
            if name == "test" {
                return Err(format!("{rel}:{line_no}: a second `#!test` line; a fixture names one test"));
            }
            if !test.directives().contains(&name) {
                let takes = match test.directives() {
                    [] => "it takes none".to_owned(),
                    some => format!(
                        "it takes: {}",
                        some.iter().map(|d| format!("#!{d}")).collect::<Vec<_>>().join(", ")
                    ),
                };
                return Err(format!(
                    "{rel}:{line_no}: `#!{name}` is not a directive of the `{}` test ({takes})",
                    test.name()
                ));
            }
            if value.is_empty() {
                return Err(format!("{rel}:{line_no}: `#!{name}` needs a value"));
            }
            directives.push(Directive { name: name.to_owned(), value: value.to_owned(), line: line_no });
        } else {
            description.push(line[1..].trim().to_owned());
        }
    }
    let description = description.join(" ").trim().to_owned();
    if description.is_empty() {
        return Err(format!(
            "{rel}: no description: the header says in a `# ...` line what the fixture pins"
        ));
    }
    Ok(Fixture {
        path: path.to_owned(),
        rel: rel.to_owned(),
        test,
        description,
        directives,
        body: text[header_len..].to_owned(),
    })
}
