//! `loopir verify` must accept every `.stmt` file of the reference compiler's oracle,
//! every stage of every case: the verifier's rules are invariants the reference keeps.

mod support;

use loopir::parse_stmt;
use loopir::verify::verify;

#[test]
fn the_verifier_accepts_every_oracle_file() {
    let files = support::stmt_files(&loopir_testkit::oracle::cases());
    assert!(files.len() > 1000, "expected the whole oracle corpus, found {} files", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("oracle files are UTF-8");
        let stmt = parse_stmt(&text).expect("oracle files parse (see oracle_fmt)");
        if let Err(errors) = verify(&stmt, None) {
            let first: Vec<String> = errors.0.iter().take(3).map(|e| format!("  {e}")).collect();
            failures.push(format!("{} ({} errors):\n{}", path.display(), errors.0.len(), first.join("\n")));
        }
    }
    println!("verified {} oracle .stmt files; {} rejected", files.len(), failures.len());
    assert!(
        failures.is_empty(),
        "{} of {} files rejected:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
