//! `loopir fmt` must reprint every `.stmt` file of the reference compiler's oracle
//! unchanged: parse, print, compare byte for byte.

mod support;

use loopir::{PrintOptions, parse_stmt, stmt_to_string_with};

#[test]
fn every_oracle_file_reprints_byte_for_byte() {
    let files = support::stmt_files(&support::oracle_cases());
    assert!(files.len() > 1000, "expected the whole oracle corpus, found {} files", files.len());
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("oracle files are UTF-8");
        let lossless = path.to_string_lossy().ends_with(".lossless.stmt");
        let result = match parse_stmt(&text) {
            Ok(stmt) => {
                let printed = stmt_to_string_with(&stmt, PrintOptions { lossless });
                if printed == text { None } else { Some(support::first_difference(&text, &printed)) }
            }
            Err(e) => Some(format!("parse error: {e}")),
        };
        if let Some(why) = result {
            failures.push(format!("{}: {why}", path.display()));
        }
    }
    println!("reprinted {} oracle .stmt files; {} differ", files.len(), failures.len());
    assert!(
        failures.is_empty(),
        "{} of {} files differ:\n{}",
        failures.len(),
        files.len(),
        failures.join("\n")
    );
}
