//! Reprints a .stmt file (debugging aid).
fn main() {
    let path = std::env::args().nth(1).expect("path");
    let text = std::fs::read_to_string(path).expect("read");
    match loopir::parse_stmt(&text) {
        Ok(s) => print!("{s}"),
        Err(e) => eprintln!("{}", e.render("input")),
    }
}
