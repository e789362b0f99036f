//! `#!test profile` and `#!test profile-levels`: `inject_profiling`
//! (`filetests/profiling`, `filetests/profiling_levels`). The pipeline is named `pipe`.
//!
//! * `profile`: an optional `#!env {…}` gives the Func environment in the
//!   `profile.env.json` schema (otherwise the Funcs are inferred from the produce/consume
//!   nodes). Fixtures named `error_*` must be refused and their snapshot is the error;
//!   the others snapshot the instrumented statement followed by the entry tree.
//! * `profile-levels`: `#!variants` lists the options to show, each `level=N`, `only=a,b`
//!   or `no=a` (level 3 without one feature); one snapshot per variant, `<name>@<variant>`
//!   with `=` and `,` as `_`, showing the options, the statement and the entry tree with
//!   keys.

use loopir_profiling::{Feature, FuncEnv, ProfileOptions, inject_profiling};

use crate::Output;
use crate::header::{Fixture, Test};

fn parse(f: &Fixture) -> Result<loopir::Stmt, String> {
    loopir::parse_stmt(&f.body).map_err(|e| format!("the input does not parse:\n{}", e.render(f.file_name())))
}

/// The fixture's Func environment: `#!env`, else inferred from the statement.
fn env(f: &Fixture, stmt: &loopir::Stmt) -> Result<FuncEnv, String> {
    match f.values("env").next() {
        Some(d) => {
            f.single("env")?;
            FuncEnv::from_json(&d.value).map_err(|e| format!("{}: `#!env`: {e}", f.at(d)))
        }
        None => Ok(FuncEnv::infer_from_stmt(stmt)),
    }
}

pub fn run(f: &Fixture) -> Result<Output, String> {
    let stmt = parse(f)?;
    let env = env(f, &stmt)?;
    let is_error_fixture = f.file_name().starts_with("error_");
    match inject_profiling(&stmt, "pipe", &env, &ProfileOptions::default()) {
        Ok(_) if is_error_fixture => {
            Err("expected the pass to refuse this input (the name says `error_`)".into())
        }
        Ok(out) => {
            Ok(Output::snapshot(format!("{}--- entries ---\n{}", out.stmt, out.entries.render_tree())))
        }
        Err(e) if is_error_fixture => Ok(Output::snapshot(format!("{e}\n"))),
        Err(e) => Err(format!("unexpected error: {e}")),
    }
}

/// `level=N`, `only=a,b` or `no=a`.
fn variant_options(v: &str) -> Result<ProfileOptions, String> {
    let bad = || format!("`{v}` is not a variant (`level=N`, `only=a,b` or `no=a`)");
    let (what, arg) = v.split_once('=').ok_or_else(bad)?;
    match what {
        "level" => arg.parse().ok().and_then(ProfileOptions::level).ok_or_else(bad),
        "only" => arg.parse().map_err(|e| format!("`{v}`: {e}")),
        "no" => Feature::from_name(arg).map(|feat| ProfileOptions::ALL - feat).ok_or_else(bad),
        _ => Err(bad()),
    }
}

pub fn run_levels(f: &Fixture) -> Result<Output, String> {
    let Some(d) = f.values("variants").next() else {
        return Err("a `#!variants` line lists the options to show".into());
    };
    f.single("variants")?;
    let stmt = parse(f)?;
    let env = FuncEnv::infer_from_stmt(&stmt);
    let mut snapshots = Vec::new();
    for v in d.value.split_whitespace() {
        let o = variant_options(v).map_err(|e| format!("{}: {e}", f.at(d)))?;
        let out = inject_profiling(&stmt, "pipe", &env, &o).map_err(|e| format!("{o}: {e}"))?;
        let text =
            format!("# options: {o}\n{}--- entries ---\n{}", out.stmt, out.entries.render_tree_with_keys());
        snapshots.push((Some(v.replace(['=', ','], "_")), text));
    }
    let cases = snapshots.len();
    Ok(Output { snapshots, cases })
}

/// The entry table of a fixture as JSON (what the `loopir` command writes beside the
/// instrumented statement).
#[test]
fn entry_table_json() {
    let fixtures = crate::fixtures_of(Test::Profile);
    let f = fixtures
        .iter()
        .find(|f| f.file_name() == "non_profiled_and_temporaries.stmt")
        .expect("the fixture exists");
    let stmt = parse(f).expect("the fixture parses");
    let out =
        inject_profiling(&stmt, "pipe", &env(f, &stmt).expect("its env reads"), &ProfileOptions::default())
            .expect("instrumentable");
    let dir = f.path.parent().expect("in a directory").join("snapshots");
    crate::assert_snapshot(&dir, "entry_table_json", f, &out.entries.to_json());
}
