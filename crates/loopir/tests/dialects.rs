//! The two dialects of `.stmt` text (see `loopir::dialect`): every difference between
//! Halide 21.0.0's printer and the reference's, each printed from IR in both, read back
//! from both; how a text tells its dialect; what reading a text in the wrong one says.

use loopir::dialect::{Dialect, check_writable};
use loopir::{
    Expr, ParseEnv, ParseErrorKind, ParseOptions, PrintOptions, Stmt, Type, parse_stmt_with_options,
    stmt_to_string_with,
};

fn read(text: &str, dialect: Option<Dialect>) -> Result<(Stmt, Dialect), String> {
    let options = ParseOptions { dialect, ..ParseOptions::default() };
    parse_stmt_with_options(text.as_bytes(), &ParseEnv::default(), options)
        .map(|p| (p.value, p.dialect))
        .map_err(|e| e.to_string())
}

fn print(s: &Stmt, dialect: Dialect) -> String {
    stmt_to_string_with(s, PrintOptions::dialect(dialect))
}

/// `reference` and `halide21` are the same IR: each reads as its dialect (told by the
/// text), gives equal IR, and each prints as the other.
fn same_ir(reference: &str, halide21: &str) {
    let (r, rd) = read(reference, None).unwrap_or_else(|e| panic!("{reference}: {e}"));
    let (h, hd) = read(halide21, None).unwrap_or_else(|e| panic!("{halide21}: {e}"));
    assert_eq!((rd, hd), (Dialect::Reference, Dialect::Halide21), "{reference} / {halide21}");
    assert_eq!(print(&r, Dialect::Reference), reference);
    assert_eq!(print(&h, Dialect::Halide21), halide21);
    assert_eq!(print(&r, Dialect::Halide21), halide21);
    assert_eq!(print(&h, Dialect::Reference), reference);
    assert!(r == h, "different IR:\n{reference}{halide21}");
}

#[test]
fn integer_immediates() {
    same_ir("f(x) = -1_i64\n", "f(x) = (int64)-1\n");
    same_ir("f(x) = 3_u16 + (uint16)g\n", "f(x) = (uint16)3 + (uint16)g\n");
    same_ir("f(x) = 18446744073709551615_u64\n", "f(x) = (uint64)18446744073709551615\n");
    same_ir("f(x) = x8(-3_i8)\n", "f(x) = x8((int8)-3)\n");
    // int32 immediates are the same in both.
    let (s, _) = read("f(x) = (int16)-3 + int16(x)\n", None).expect("reads");
    assert_eq!(print(&s, Dialect::Reference), "f(x) = -3_i16 + int16(x)\n");
}

#[test]
fn boolean_immediates() {
    same_ir(
        "if (true) {\n f(x) = select(false, 1, 2)\n}\n",
        "if ((uint1)1) {\n f(x) = select((uint1)0, 1, 2)\n}\n",
    );
}

#[test]
fn bitwise_operators() {
    same_ir(
        "f(x) = ((uint8)a & (uint8)b) | ((uint8)c ^ ~((uint8)d))\n",
        "f(x) = (uint8)bitwise_or((uint8)bitwise_and((uint8)a, (uint8)b), (uint8)bitwise_xor((uint8)c, (uint8)bitwise_not((uint8)d)))\n",
    );
    // int32 operations carry no prefix in Halide 21 either.
    same_ir("f(x) = x & 7\n", "f(x) = bitwise_and(x, 7)\n");
    // In Halide 21's text the call is the intrinsic; the operand whose type was only a
    // guess (a load through a let-bound pointer) takes the call's.
    let (s, _) = read("let p = (void *)q\nf(x) = (uint8)bitwise_and(p[x], (uint8)b)\n", None).expect("reads");
    assert_eq!(print(&s, Dialect::Reference), "let p = (void *)q\nf(x) = p[x] & (uint8)b\n");
}

#[test]
fn loop_bounds() {
    // (The bodies tell the dialect; a loop alone does not.)
    let body = |b: &str| format!(" f(x) = {b}\n}}\n");
    let same = |reference: &str, halide21: &str| {
        same_ir(&format!("{reference}{}", body("true")), &format!("{halide21}{}", body("(uint1)1")))
    };
    same("for (x, 0, 9) {\n", "for (x, 0, 10) {\n");
    same("for (x, 0, n + -1) {\n", "for (x, 0, n) {\n");
    same("for (x, y, y + 3) {\n", "for (x, y, 4) {\n");
    same("for (x, y, (y + n) + -1) {\n", "for (x, y, n) {\n");
    same(
        "parallel<Default_GPU> (x, f.min.0, (f.min.0 + f.extent.0) + -1) {\n",
        "parallel<Default_GPU> (x, f.min.0, f.extent.0) {\n",
    );
}

#[test]
fn a_loop_keeps_the_exact_text_of_its_extent() {
    // Whatever the extent, Halide 21's text reprints unchanged, though the IR holds a max.
    for extent in ["0", "-5", "2147483647", "n", "n + -1", "(n + -1) + 1", "max(n, 1)", "y", "(y + n) + -1"] {
        for min in ["0", "-2147483648", "y", "y + 1"] {
            let text = format!("for (x, {min}, {extent}) {{\n f(x) = (uint1)1\n}}\n");
            let (s, d) = read(&text, None).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(d, Dialect::Halide21);
            assert_eq!(print(&s, Dialect::Halide21), text);
        }
    }
}

#[test]
fn a_loop_of_the_reference_gets_an_equal_extent() {
    let (s, _) = read("for (x, y, n) {\n f(x) = true\n}\n", None).expect("reads");
    assert_eq!(print(&s, Dialect::Halide21), "for (x, y, (n - y) + 1) {\n f(x) = (uint1)1\n}\n");
}

#[test]
fn transposing_shuffles() {
    same_ir(
        "f(x) = transpose_vector((uint16x8)v, 2) + x8(1_u16)\n",
        "f(x) = shuffle((uint16x8)v, 0, 2, 4, 6, 1, 3, 5, 7) + x8((uint16)1)\n",
    );
}

#[test]
fn a_transposing_shuffle_alone_tells_halide21() {
    // Nothing else in this text tells; only Halide 21 writes a transpose this way, so it
    // is read (and reprinted) as Halide 21's.
    let text = "for (x, 0, 8) {\n f(x) = shuffle((int32x8)v, 0, 2, 4, 6, 1, 3, 5, 7)\n}\n";
    let (s, d) = read(text, None).expect("reads");
    assert_eq!(d, Dialect::Halide21);
    assert_eq!(print(&s, Dialect::Halide21), text);
    // A general shuffle tells nothing: the reference's, by default.
    let text = "for (x, 0, 8) {\n f(x) = shuffle((int32x4)v, 3, 2, 1, 0)\n}\n";
    assert_eq!(read(text, None).expect("reads").1, Dialect::Reference);
}

fn trace(args: &str) -> String {
    format!(
        "halide_trace_helper(\"f\", (void *)make_struct(), (int32_t *)make_struct(), 3, 0, 0, 2, p, {args}, \"\")\n"
    )
}

#[test]
fn trace_calls() {
    // The reference added a thread id after the parent; Halide 21's 0 is its only value.
    same_ir(&trace("0, 0, 4"), &trace("0, 4"));
    let (s, _) = read(&trace("0, 4"), None).expect("reads");
    let loopir::StmtKind::Evaluate(call) = s.kind() else { panic!("{s}") };
    let loopir::ExprKind::Call { args, .. } = call.kind() else { panic!("{call}") };
    assert_eq!(args.len(), 12);
}

#[test]
fn a_thread_id_cannot_be_written_in_halide21() {
    let (s, _) = read(&trace("halide_current_thread_id(), 0, 4"), None).expect("reads");
    let e = check_writable(&s, Dialect::Halide21).expect_err("no Halide 21 form");
    assert!(e.to_string().contains("no thread id"), "{e}");
    assert!(check_writable(&s, Dialect::Reference).is_ok());
    let (s, _) = read(&trace("0, 0, 4"), None).expect("reads");
    assert!(check_writable(&s, Dialect::Halide21).is_ok());
}

#[test]
fn a_text_without_tells_is_the_reference_s_unless_chosen() {
    let text = "for (x, 0, 9) {\n f(x) = x + 1\n}\n";
    let (r, d) = read(text, None).expect("reads");
    assert_eq!(d, Dialect::Reference);
    let (h, d) = read(text, Some(Dialect::Halide21)).expect("reads");
    assert_eq!(d, Dialect::Halide21);
    // The same text, different loops: 0..=9 against 0..=8.
    assert_eq!(print(&r, Dialect::Reference), text);
    assert_eq!(print(&h, Dialect::Reference), "for (x, 0, 8) {\n f(x) = x + 1\n}\n");
}

#[test]
fn a_text_that_mixes_dialects_is_refused() {
    let text = "let a = (uint16)3\nlet b = 4_u16\nf(x) = a + b\n";
    let options = ParseOptions::default();
    let e = parse_stmt_with_options(text.as_bytes(), &ParseEnv::default(), options).expect_err("mixed");
    assert_eq!(e.kind, ParseErrorKind::Dialect);
    assert_eq!((e.line, e.column), (2, 9));
    assert!(e.expected.contains("`4_u16` is the reference's spelling of an immediate"), "{e}");
    assert!(e.expected.contains("read in Halide 21.0.0's dialect, as `(uint16)3` on line 1 shows"), "{e}");
}

#[test]
fn the_other_dialect_s_spellings_are_named() {
    // (dialect, text, the spelling at fault, the expected one, how the fault is named)
    let cases = [
        (
            Dialect::Reference,
            "f(x) = (uint16)3\n",
            "(uint16)3",
            "`3_u16`",
            "`(uint16)3` is Halide 21.0.0's spelling",
        ),
        (
            Dialect::Reference,
            "f(x) = select((uint1)0, 1, 2)\n",
            "(uint1)0",
            "`false`",
            "`(uint1)0` is Halide 21.0.0's",
        ),
        (Dialect::Halide21, "f(x) = 3_u16\n", "3_u16", "`(uint16)3`", "`3_u16` is the reference's spelling"),
        (Dialect::Halide21, "f(x) = select(true, 1, 2)\n", "true", "`(uint1)1`", "`true` is the reference's"),
        (Dialect::Halide21, "f(x) = x & y\n", "&", "`bitwise_and(a, b)`", "infix `&`"),
        (Dialect::Halide21, "f(x) = ~(y)\n", "~", "`bitwise_not(a)`", "`~(a)`"),
        (
            Dialect::Halide21,
            "f(x) = transpose_vector((int32x4)v, 2)\n",
            "transpose_vector",
            "`shuffle(v, indices...)`",
            "`transpose_vector`",
        ),
    ];
    for (dialect, text, fault, expected, named) in cases {
        let options = ParseOptions { dialect: Some(dialect), ..ParseOptions::default() };
        let e = parse_stmt_with_options(text.as_bytes(), &ParseEnv::default(), options).expect_err(text);
        assert_eq!(e.kind, ParseErrorKind::Dialect, "{text}: {e}");
        assert!(e.expected.contains(expected) && e.expected.contains(named), "{text}: {e}");
        assert!(e.expected.contains(dialect.describe()), "{text}: {e}");
        let at = text.find(fault).expect("the fault is in the text");
        assert_eq!((e.column, e.len), (at + 1, fault.len()), "{text}: {e}");
    }
}

#[test]
fn a_told_dialect_is_named_in_errors() {
    let text = "let a = (uint16)3\nf(x) = 3_u16\n";
    let options = ParseOptions { dialect: Some(Dialect::Halide21), ..ParseOptions::default() };
    let e = parse_stmt_with_options(text.as_bytes(), &ParseEnv::default(), options)
        .expect_err("reference spelling");
    assert!(e.expected.ends_with("the text is read in Halide 21.0.0's dialect)"), "{e}");
    // Told by the text: the tell is named. (Read leniently: `x&y` is not a tell.)
    let text = "let a = (uint16)3\nf(x) = x +  (y&z)\n";
    let options = ParseOptions { lenient: true, ..ParseOptions::default() };
    let e = parse_stmt_with_options(text.as_bytes(), &ParseEnv::default(), options).expect_err("infix in 21");
    assert!(e.expected.ends_with("dialect, as `(uint16)3` on line 1 shows)"), "{e}");
}

#[test]
fn a_cast_immediate_must_fit_its_type() {
    for text in ["f(x) = (uint8)256\n", "f(x) = (uint1)2\n", "f(x) = (int8)-129\n", "f(x) = (uint16)-1\n"] {
        let e = read(text, None).expect_err(text);
        assert!(e.contains("invalid literal") && e.contains("fits in"), "{text}: {e}");
    }
}

#[test]
fn immediates_of_every_width_round_trip() {
    for (ty, v) in [(Type::int(8, 1), -128i64), (Type::int(16, 1), 32767), (Type::int(64, 1), i64::MIN)] {
        let e = Expr::int_imm(ty, v).expect("fits");
        let s = Stmt::evaluate(e);
        for d in [Dialect::Reference, Dialect::Halide21] {
            let text = print(&s, d);
            let (back, _) = read(&text, Some(d)).unwrap_or_else(|err| panic!("{text}: {err}"));
            assert!(back == s, "{text}");
        }
    }
}
