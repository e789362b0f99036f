//! The lenient reader's rules for hand-typed text (see [`super::ParseOptions::lenient`]).
//!
//! Halide's text has one spelling for everything: one space of indentation per level,
//! exact spaces around operators and after commas, no blank lines but one, a final
//! newline. Leniently, nesting comes from the braces alone, any run of spaces and tabs may
//! stand where the text has a space or none between two tokens, blank lines may come
//! between statements, and the text may end without a newline. The strict reader is the
//! lenient one with all of these turned off, so text Halide wrote reads the same either
//! way.

use super::Parser;

/// Bytes that separate tokens leniently (not newlines: statements are still lines).
fn is_space(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

/// Whether an operator spelled `prev` would be a different one if `next` followed it
/// (`=` in `==`, `<` in `<=`, `&` in `&&`).
fn extends(prev: u8, next: u8) -> bool {
    matches!((prev, next), (b'=' | b'<' | b'>' | b'!', b'=') | (b'&', b'&') | (b'|', b'|'))
}

impl<'a> Parser<'a> {
    /// Where the literal `lit` ends if it starts at the cursor, matched leniently: a space
    /// in `lit` stands for any run of spaces and tabs (at least one between two words),
    /// spaces may precede any token, a literal ending in a word followed by a space must
    /// end a word of the text, and an operator must not run on into a longer one.
    pub(crate) fn loose_match(&self, lit: &str) -> Option<usize> {
        let src = self.src;
        let lit = lit.as_bytes();
        let word = |b: u8| Self::is_name_byte(b);
        let spaces = |i: &mut usize| {
            while *i < src.len() && is_space(src[*i]) {
                *i += 1;
            }
        };
        let mut i = self.pos;
        let mut k = 0;
        let mut prev: Option<u8> = None;
        let mut after_prev = i;
        while k < lit.len() {
            let c = lit[k];
            if c == b' ' {
                while k < lit.len() && lit[k] == b' ' {
                    k += 1;
                }
                let next = lit.get(k).copied();
                let start = i;
                spaces(&mut i);
                match (prev, next) {
                    (Some(p), Some(n)) if word(p) && word(n) && i == start => return None,
                    (Some(p), None) if word(p) && src.get(i).is_some_and(|&b| word(b)) && i == start => {
                        return None;
                    }
                    _ => {}
                }
                continue;
            }
            if !(prev.is_some_and(word) && word(c)) {
                spaces(&mut i);
            }
            if src.get(i) != Some(&c) {
                return None;
            }
            i += 1;
            k += 1;
            prev = Some(c);
            after_prev = i;
        }
        if let (Some(p), Some(&next)) = (prev, src.get(after_prev))
            && extends(p, next)
        {
            return None;
        }
        Some(i)
    }

    /// Skips spaces and tabs (lenient reading only).
    pub(crate) fn skip_spaces(&mut self) {
        if self.lenient {
            while self.peek().is_some_and(is_space) {
                self.pos += 1;
            }
        }
    }

    /// Skips spaces, tabs and line ends: blank lines and indentation (lenient reading
    /// only).
    pub(crate) fn skip_blank(&mut self) {
        if self.lenient {
            while self.peek().is_some_and(|b| is_space(b) || b == b'\n') {
                self.pos += 1;
            }
        }
    }

    /// Eats `lit` at the start of the next non-blank line (leniently) or after a line end
    /// and `indent` spaces (strictly): the continuation lines of an allocation
    /// (`custom_new`, `custom_delete`) and of a conditional prefetch.
    pub(crate) fn eat_next_line(&mut self, indent: usize, lit: &str) -> bool {
        if !self.lenient {
            return self.eat(&format!("\n{}{lit}", " ".repeat(indent)));
        }
        let save = self.pos;
        self.skip_spaces();
        if self.peek() == Some(b'\n') {
            self.skip_blank();
            if self.eat(lit) {
                return true;
            }
        }
        self.pos = save;
        false
    }
}

#[cfg(test)]
mod tests {
    use crate::ParseEnv;
    use crate::dialect::Dialect;
    use crate::parse::Parser;

    fn matches(text: &str, lit: &str) -> Option<usize> {
        let env = ParseEnv::default();
        let p = Parser::new(text.as_bytes(), &env, Dialect::Reference, true);
        p.loose_match(lit)
    }

    #[test]
    fn spaces_are_optional_between_tokens() {
        assert_eq!(matches("a", " + "), None);
        assert_eq!(matches("+b", " + "), Some(1));
        assert_eq!(matches("  +  b", " + "), Some(5));
        assert_eq!(matches("\t,x", ", "), Some(2));
        assert_eq!(matches("){", ") {"), Some(2));
        assert_eq!(matches(")\t  {", ") {"), Some(5));
        assert_eq!(matches("}else if(", "} else if ("), Some(9));
    }

    #[test]
    fn words_stay_words() {
        // Two words need a space between them; a word ending the literal ends a word.
        assert_eq!(matches("} elseif (", "} else if ("), None);
        assert_eq!(matches("letter = 1", "let "), None);
        assert_eq!(matches("let  x", "let "), Some(5));
        assert_eq!(matches("produce f", "produce "), Some(8));
        assert_eq!(matches("fork{", "fork {"), Some(5));
    }

    #[test]
    fn operators_do_not_run_on() {
        assert_eq!(matches(" == 1", " = "), None);
        assert_eq!(matches("<= 1", " < "), None);
        assert_eq!(matches("&&b", " & "), None);
        assert_eq!(matches("||b", " | "), None);
        assert_eq!(matches("= =", " = "), Some(2));
        assert_eq!(matches("!= 1", " != "), Some(3));
    }

    /// Every `.stmt` file under `dir` (not module files), recursively.
    fn stmt_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stmt_files(&p, out);
            } else if p.extension().is_some_and(|x| x == "stmt") && !p.ends_with("module.stmt") {
                out.push(p);
            }
        }
    }

    /// The lenient reader reads text Halide wrote as the strict one does: on the oracle,
    /// the Halide 21 corpus and the IR fixtures, it gives IR that prints the text back.
    #[test]
    fn halide_text_reads_the_same_leniently() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
        let mut files = Vec::new();
        stmt_files(&loopir_testkit::oracle::cases(), &mut files);
        let oracle = files.len();
        stmt_files(&root.join("fixtures/halide21_stmt"), &mut files);
        stmt_files(&root.join("filetests/ir"), &mut files);
        assert!(oracle > 1000 && files.len() > oracle + 200, "{oracle} oracle files, {} in all", files.len());
        let env = ParseEnv::default();
        let mut failures = Vec::new();
        for path in &files {
            let bytes = std::fs::read(path).expect("readable");
            if bytes.first() == Some(&b'#') {
                continue; // a fixture's header (docs/testing.md): not Halide text
            }
            let in_21 = path.to_string_lossy().contains("halide21_stmt");
            let dialect = if in_21 { Dialect::Halide21 } else { Dialect::Reference };
            let lossless = path.to_string_lossy().ends_with(".lossless.stmt");
            let mut p = Parser::new(&bytes, &env, dialect, true);
            let printed = p
                .file()
                .map(|s| crate::print::stmt_to_string_with(&s, crate::PrintOptions { lossless, dialect }));
            match printed {
                Ok(text) if text.as_bytes() == bytes.as_slice() => {}
                Ok(_) => failures.push(format!("{}: reprints differently", path.display())),
                Err(e) => failures.push(format!("{}: {e}", path.display())),
            }
        }
        assert!(failures.is_empty(), "{} of {} files:\n{}", failures.len(), files.len(), failures.join("\n"));
    }

    #[test]
    fn newlines_are_not_spaces() {
        assert_eq!(matches("\n+ b", " + "), None);
        assert_eq!(matches("  \n", "\n"), Some(3));
    }
}
