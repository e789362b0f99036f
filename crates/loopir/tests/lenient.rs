//! Hand-typed `.stmt` text: read leniently (any indentation, optional spaces around
//! operators and punctuation, redundant parentheses, blank lines, a missing final
//! newline), printed in Halide's exact form.

use loopir::dialect::Dialect;
use loopir::{ParseEnv, ParseOptions, PrintOptions, StmtFile, parse_stmt_with_options, stmt_to_string};

const LENIENT: ParseOptions = ParseOptions { dialect: None, lenient: true };

/// `typed` reads leniently and prints as `normal`; `normal` reads strictly to the same.
fn normalizes(typed: &str, normal: &str) {
    let p = parse_stmt_with_options(typed.as_bytes(), &ParseEnv::default(), LENIENT)
        .unwrap_or_else(|e| panic!("{typed:?}: {e}"));
    assert!(p.lenient, "{typed:?} is not read as strict text");
    assert_eq!(stmt_to_string(&p.value), normal, "{typed:?}");
    let strict = ParseOptions { lenient: false, ..LENIENT };
    let n = parse_stmt_with_options(normal.as_bytes(), &ParseEnv::default(), strict)
        .unwrap_or_else(|e| panic!("{normal:?}: {e}"));
    assert!(n.value == p.value, "{typed:?} and {normal:?} differ");
}

#[test]
fn indentation_is_free() {
    normalizes("for (x, 0, 9) {\n  f(x) = x + 1\n}\n", "for (x, 0, 9) {\n f(x) = x + 1\n}\n");
    normalizes("for (x, 0, 9) {\n\tf(x) = x + 1\n    }\n", "for (x, 0, 9) {\n f(x) = x + 1\n}\n");
    normalizes("  let t = 3\n      f(t) = t\n", "let t = 3\nf(t) = t\n");
    normalizes(
        "realize f([0, 10]) {\n produce f {\n  f(x) = 1\n }\n}\n",
        "realize f([0, 10]) {\n  produce f {\n   f(x) = 1\n  }\n}\n",
    );
}

#[test]
fn spaces_around_operators_and_punctuation_are_optional() {
    normalizes("f(x)=a+b\n", "f(x) = a + b\n");
    normalizes("f(x) = (a+b)*(c  -  d)\n", "f(x) = (a + b)*(c - d)\n");
    normalizes("f(x,y) = select(x<y,x,-1)\n", "f(x, y) = select(x < y, x, -1)\n");
    normalizes("f(x) = (a<=b)&&(c!=d)\n", "f(x) = (a <= b) && (c != d)\n");
    normalizes("let t=x-1\nf( t ) = t\n", "let t = x - 1\nf(t) = t\n");
    normalizes("for(x,0,9){\n f(x) = 1\n}\n", "for (x, 0, 9) {\n f(x) = 1\n}\n");
    normalizes(
        "if(x<3){\n f(x)=1\n}else if(x>5){\n f(x)=2\n}else{\n f(x)=3\n}\n",
        "if (x < 3) {\n f(x) = 1\n} else if (x > 5) {\n f(x) = 2\n} else {\n f(x) = 3\n}\n",
    );
    normalizes("buf[ramp(x,1,8)]=x8((float32) v)\n", "buf[ramp(x, 1, 8)] = x8((float32)v)\n");
    normalizes("f(x) = (uint8)a|(uint8)b\n", "f(x) = (uint8)a | (uint8)b\n");
}

#[test]
fn comparisons_and_assignments_stay_apart() {
    // `==` is not `=` followed by `=`: this is an expression statement, not a store.
    normalizes("f[x]==3\n", "(int32)f[x] == 3\n");
    normalizes("g(x)==3\n", "g(x) == 3\n");
}

#[test]
fn redundant_parentheses_go() {
    normalizes("f[(x)] = ((x + 1))\n", "f[x] = x + 1\n");
    normalizes("f(x) = ((x*2)) + (y)\n", "f(x) = (x*2) + y\n");
    // A parenthesised C type is still a type prefix.
    normalizes("f(x) = ( (halide_task_t)p )\n", "f(x) = (halide_task_t)p\n");
}

#[test]
fn blank_lines_and_the_final_newline_are_free() {
    normalizes("\nlet t = 3\n\n\nf(t) = t\n\n", "let t = 3\nf(t) = t\n");
    normalizes("for (x, 0, 9) {\n\n f(x) = 1\n\n}", "for (x, 0, 9) {\n f(x) = 1\n}\n");
    normalizes("f(x) = 1", "f(x) = 1\n");
    normalizes("f(x) = 1   \n", "f(x) = 1\n");
}

#[test]
fn every_construct_reads_leniently() {
    normalizes(
        "allocate buf[float32 * 10] in Stack\n   custom_new { (void *)my_alloc(10) }\n custom_delete { my_free(buf); }\nbuf[0] = 1.000000f\n",
        "allocate buf[float32 * 10] in Stack\n custom_new { (void *)my_alloc(10) }\n custom_delete { my_free(buf); }\nbuf[0] = 1.000000f\n",
    );
    normalizes(
        "if (c) {\n    prefetch g, x, x, ([0, 10])\n}\nf(x) = 1\n",
        "if (c) {\n prefetch g, x, x, ([0, 10])\n}\nf(x) = 1\n",
    );
    normalizes("fork {\n  f(x) = 1\n}{\n  f(x) = 2\n}\n", "fork {\n f(x) = 1\n} {\n f(x) = 2\n} \n");
    normalizes(
        "buf[x] =\n    let t = x*2 in\n    let u = t + 1 in\n    u*t\nf(x) = 1\n",
        "buf[x] = \n  let t = x*2 in\n  let u = t + 1 in\n  u*t\n\nf(x) = 1\n",
    );
    normalizes("predicate (x < 3)\nf[x] = 1\n", "predicate (x < 3)\n f[x] = 1\n");
    normalizes(
        "atomic ( f ) {\nf(x) = 1\n}\nhoisted_storage(g){\n f(x) = 2\n}\n",
        "atomic (f) {\n  f(x) = 1\n}\nhoisted_storage (g) {\n  f(x) = 2\n}\n",
    );
    normalizes(
        "acquire ((struct halide_semaphore_t *)s,1){\n f(x) = 1\n}\n",
        "acquire ((struct halide_semaphore_t *)s, 1) {\n f(x) = 1\n}\n",
    );
    normalizes("gpu_block<CUDA>(x,0,9){\n f(x) = 1\n}\n", "gpu_block<CUDA> (x, 0, 9) {\n f(x) = 1\n}\n");
}

#[test]
fn strict_text_is_not_lenient() {
    let text = "for (x, 0, 9) {\n f(x) = x + 1\n}\n";
    let p = parse_stmt_with_options(text.as_bytes(), &ParseEnv::default(), LENIENT).expect("reads");
    assert!(!p.lenient);
}

#[test]
fn real_mistakes_are_still_errors() {
    for (text, expected) in [
        ("for (x, 0, 9) {\n  f(x) = x +\n}\n", "an expression"),
        ("f(x) = (a + b\n", "`)`"),
        ("for (x, 0, 9) {\n f(x) = 1\n", "`}`"),
        ("f(x) = a + b*c\n", "the end of the line"),
        ("}\n", "a statement"),
    ] {
        let e = parse_stmt_with_options(text.as_bytes(), &ParseEnv::default(), LENIENT).expect_err(text);
        assert!(e.expected.contains(expected), "{text:?}: {e}");
    }
}

#[test]
fn a_hand_typed_module_body_reads() {
    let text = "module name=f, target=host\nexternal func f (f) {\nfor (x,0,9) {\n    f[x]=(uint1)1\n}\n}\n";
    let p = StmtFile::parse(text.as_bytes(), &ParseEnv::default(), LENIENT).expect("reads");
    assert_eq!(p.dialect, Dialect::Halide21);
    let printed = p.value.print(PrintOptions::dialect(p.dialect));
    assert_eq!(
        String::from_utf8_lossy(&printed),
        "module name=f, target=host\nexternal func f (f) {\nfor (x, 0, 9) {\n f[x] = (uint1)1\n}\n}\n\n\n"
    );
}
