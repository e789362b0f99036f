//! `loopir fmt` must reprint every `.stmt` file of the reference compiler's oracle
//! unchanged: parse, print, compare byte for byte. The same walk checks the intrinsic
//! table against what the reference wrote: every intrinsic call has an argument count
//! that [`Intrinsic::arity`] accepts.

mod support;

use loopir::visit::Visitor;
use loopir::{Expr, Intrinsic, PrintOptions, parse_stmt, stmt_to_string_with};

/// Intrinsic calls whose argument count the table does not accept.
#[derive(Default)]
struct ArityCheck {
    wrong: Vec<String>,
    seen: std::collections::BTreeSet<Intrinsic>,
}

impl Visitor for ArityCheck {
    fn visit_expr(&mut self, e: &Expr) {
        if let Some((intrinsic, args)) = e.as_intrinsic() {
            self.seen.insert(intrinsic);
            if !intrinsic.arity().accepts(args.len()) {
                self.wrong.push(format!(
                    "{intrinsic} takes {}, called with {}",
                    intrinsic.arity(),
                    args.len()
                ));
            }
        }
        self.super_expr(e)
    }
}

#[test]
fn every_oracle_file_reprints_byte_for_byte() {
    let files = support::stmt_files(&loopir_testkit::oracle::cases());
    assert!(files.len() > 1000, "expected the whole oracle corpus, found {} files", files.len());
    let mut failures = Vec::new();
    let mut arity = ArityCheck::default();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("oracle files are UTF-8");
        let lossless = path.to_string_lossy().ends_with(".lossless.stmt");
        let result = match parse_stmt(&text) {
            Ok(stmt) => {
                let before = arity.wrong.len();
                arity.visit_stmt(&stmt);
                for w in arity.wrong.drain(before..).collect::<Vec<_>>() {
                    failures.push(format!("{}: {w}", path.display()));
                }
                let printed =
                    stmt_to_string_with(&stmt, PrintOptions { lossless, ..PrintOptions::default() });
                if printed == text {
                    None
                } else {
                    Some(loopir_testkit::text::first_difference(&text, &printed))
                }
            }
            Err(e) => Some(format!("parse error: {e}")),
        };
        if let Some(why) = result {
            failures.push(format!("{}: {why}", path.display()));
        }
    }
    println!("reprinted {} oracle .stmt files; {} differ", files.len(), failures.len());
    println!("intrinsics called in the oracle: {}", arity.seen.len());
    assert!(
        failures.is_empty(),
        "{} of {} files differ:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
