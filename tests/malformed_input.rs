//! Malformed input never panics: damaged oracle text and hand-made bad shapes must give
//! either a statement or an error located inside the input.
//!
//! A fixed sample of oracle files is cut at many points and mutated byte by byte (a
//! deterministic xorshift generator with a constant seed picks positions and bytes); every
//! damaged text is parsed under `catch_unwind`, and a successful parse is printed too. A
//! panic is reported with the file and the damage that caused it.

mod support;

use std::panic::{AssertUnwindSafe, catch_unwind};

use loopir::{ParseEnv, ParseError, parse_stmt_bytes};

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Bytes that matter to the grammar, plus a few that must be rejected.
const INTERESTING: &[u8] = b"(){}[]<>,;:= \n\"\\-_0179x.*/%!~&|^\0\xFF\xC3\r\t";

/// The outcome of one damaged parse: None if it was acceptable, else why not.
fn check(input: &[u8]) -> Option<String> {
    let env = ParseEnv::default();
    let result = catch_unwind(AssertUnwindSafe(|| match parse_stmt_bytes(input, &env) {
        Ok(s) => {
            let _ = s.to_string();
            None
        }
        Err(e) => location_problem(&e, input),
    }));
    match result {
        Ok(r) => r,
        Err(payload) => {
            let msg = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                .unwrap_or_else(|| "a non-string panic".into());
            Some(format!("panicked: {msg}"))
        }
    }
}

/// Why an error's location is not inside the input, if it is not.
fn location_problem(err: &ParseError, input: &[u8]) -> Option<String> {
    if err.offset > input.len() {
        return Some(format!("offset {} beyond {} bytes", err.offset, input.len()));
    }
    let lines: Vec<&[u8]> = input.split(|&b| b == b'\n').collect();
    if err.line == 0 || err.line > lines.len() {
        return Some(format!("line {} of {}", err.line, lines.len()));
    }
    let chars = String::from_utf8_lossy(lines[err.line - 1]).chars().count();
    if err.column == 0 || err.column > chars + 1 {
        return Some(format!("column {} on line {} of {chars} characters", err.column, err.line));
    }
    None
}

fn excerpt(input: &[u8], at: usize) -> String {
    let lo = at.saturating_sub(30);
    let hi = (at + 30).min(input.len());
    format!("{:?}", String::from_utf8_lossy(&input[lo..hi]))
}

/// Every `k`-th oracle file below `max_bytes`, at most `limit` of them.
fn oracle_sample(k: usize, max_bytes: u64, limit: usize) -> Vec<(String, Vec<u8>)> {
    let files = support::stmt_files(&loopir_testkit::oracle::cases());
    assert!(files.len() > 1000, "expected the oracle corpus");
    files
        .iter()
        .filter(|p| std::fs::metadata(p).is_ok_and(|m| m.len() <= max_bytes && m.len() > 200))
        .step_by(k)
        .take(limit)
        .map(|p| {
            let name = p.strip_prefix(loopir_testkit::oracle::cases()).unwrap_or(p).display().to_string();
            (name, std::fs::read(p).expect("readable oracle file"))
        })
        .collect()
}

#[test]
fn damaged_oracle_text_gives_a_statement_or_a_located_error_never_a_panic() {
    let sample = oracle_sample(37, 48 * 1024, 24);
    assert!(sample.len() >= 16, "sample too small: {}", sample.len());
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut failures = Vec::new();
    let mut runs = 0usize;
    for (name, text) in &sample {
        assert!(parse_stmt_bytes(text, &ParseEnv::default()).is_ok(), "{name}: the undamaged file parses");
        let mut run = |input: Vec<u8>, what: String, at: usize| {
            runs += 1;
            if let Some(why) = check(&input) {
                failures.push(format!("{name}: {what}: {why}\n  near {}", excerpt(&input, at)));
            }
        };
        // Truncations.
        for _ in 0..40 {
            let cut = rng.below(text.len());
            run(text[..cut].to_vec(), format!("cut at byte {cut}"), cut);
        }
        // Single-byte replacements, insertions and deletions.
        for _ in 0..60 {
            let at = rng.below(text.len());
            let byte =
                if rng.below(4) == 0 { rng.next() as u8 } else { INTERESTING[rng.below(INTERESTING.len())] };
            let mut t = text.clone();
            match rng.below(3) {
                0 => t[at] = byte,
                1 => t.insert(at, byte),
                _ => {
                    t.remove(at);
                }
            }
            run(t, format!("byte edit at {at} with {byte:#04x}"), at);
        }
        // Line-level damage: drop a line, duplicate one, shift one's indentation.
        let lines: Vec<&[u8]> = text.split_inclusive(|&b| b == b'\n').collect();
        for _ in 0..20 {
            let i = rng.below(lines.len());
            let mut t: Vec<u8> = Vec::with_capacity(text.len() + 2);
            let kind = rng.below(4);
            for (j, l) in lines.iter().enumerate() {
                if j == i {
                    match kind {
                        0 => continue,
                        1 => t.extend_from_slice(l),
                        2 => t.push(b' '),
                        _ => {
                            let trimmed = l.iter().position(|&b| b != b' ').unwrap_or(0);
                            t.extend_from_slice(&l[trimmed..]);
                            continue;
                        }
                    }
                }
                t.extend_from_slice(l);
            }
            let at = lines[..i].iter().map(|l| l.len()).sum();
            run(t, format!("line {} damaged (kind {kind})", i + 1), at);
        }
    }
    println!("{runs} damaged texts from {} oracle files", sample.len());
    assert!(
        failures.is_empty(),
        "{} of {runs} damaged texts misbehaved:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn hand_made_bad_shapes_give_located_errors() {
    let deep_open = "(".repeat(200_000);
    let deep_calls = "f(".repeat(100_000);
    let deep_not = "!".repeat(200_000) + "(uint1)b\n";
    let deep_braces: String = (0..2_000).map(|i| format!("{}for (x, 0, 1) {{\n", " ".repeat(i))).collect();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", b"".to_vec()),
        ("only a newline", b"\n".to_vec()),
        ("only spaces", b"   ".to_vec()),
        ("lone open brace", b"{\n".to_vec()),
        ("lone close brace", b"}\n".to_vec()),
        ("close brace then text", b"} else {\n".to_vec()),
        ("else without if", b"} else if (x) {\n foo(x)\n}\n".to_vec()),
        ("unclosed paren at eof", b"f((x + 1)".to_vec()),
        ("too many close parens", b"f(x))\n".to_vec()),
        ("brackets mismatched", b"buf[x) = 1\n".to_vec()),
        ("fork without tasks", b"fork \n".to_vec()),
        ("fork brace at eof", b"fork {".to_vec()),
        ("let without value", b"let x = \nf(x)\n".to_vec()),
        ("store without value", b"buf[x] = ".to_vec()),
        ("let chain at eof", b"buf[x] = \n  let t = 1 in\n".to_vec()),
        ("predicate at eof", b"predicate (x)\n".to_vec()),
        ("allocate padded at eof", b"allocate b[int32 * (x + ".to_vec()),
        ("custom_new at eof", b"allocate b[int32]\n custom_new { ".to_vec()),
        ("realize at eof", b"realize f([0, ".to_vec()),
        ("prefetch in if at eof", b"if (x < y) {\n prefetch g, a, b, ([0, 1])".to_vec()),
        ("type prefix at eof", b"(float32".to_vec()),
        ("handle prefix at eof", b"((void *".to_vec()),
        ("reinterpret at eof", b"reinterpret<(void *)".to_vec()),
        ("vector reduce at eof", b"(int32)vector_reduce_add(".to_vec()),
        ("shuffle with no indices", b"shuffle(x, y)\n".to_vec()),
        ("shuffle with only literals", b"shuffle(1, 2)\n".to_vec()),
        ("slice with too few ints", b"slice_vectors((int32x8)v, 1)\n".to_vec()),
        ("transpose by zero", b"transpose_vector((int32x8)v, 0)\n".to_vec()),
        ("transpose by non-divisor", b"transpose_vector((int32x8)v, 3)\n".to_vec()),
        ("huge broadcast", b"x65535(x65535(x))\n".to_vec()),
        ("huge ramp", b"ramp(x, 1, 99999999999999999999)\n".to_vec()),
        ("huge lanes", b"(int32x99999)v\n".to_vec()),
        ("huge alignment", b"(int32x4)b[ramp(x, 1, 4) aligned(99999999999999999999, 0)]\n".to_vec()),
        ("negative alignment", b"(int32x4)b[ramp(x, 1, 4) aligned(-9223372036854775808, -1)]\n".to_vec()),
        ("huge padding", b"allocate b[int32 * (x + 99999999999)]\nf(x)\n".to_vec()),
        ("huge tuple index", b"f(x)[99999999999]\n".to_vec()),
        ("NUL first", b"\0".to_vec()),
        ("NUL in name", b"f(a\0b)\n".to_vec()),
        ("invalid UTF-8 lead", b"\xFF\n".to_vec()),
        ("overlong UTF-8", b"f(\xC0\xAF)\n".to_vec()),
        ("UTF-8 cut at eof", b"f(\"\xE2\x82".to_vec()),
        ("non-ASCII name", "f(\u{e9}t\u{e9})\n".as_bytes().to_vec()),
        ("CR only", b"\r".to_vec()),
        ("tab indentation", b"for (x, 0, 1) {\n\tf(x)\n}\n".to_vec()),
        ("200k open parens", deep_open.into_bytes()),
        ("100k open calls", deep_calls.into_bytes()),
        ("200k nots", deep_not.into_bytes()),
        ("2k unclosed loops", deep_braces.into_bytes()),
    ];
    let mut failures = Vec::new();
    for (what, input) in &cases {
        if let Some(why) = check(input) {
            failures.push(format!("{what}: {why}"));
        }
    }
    assert!(failures.is_empty(), "{} case(s) misbehaved:\n{}", failures.len(), failures.join("\n"));
}
