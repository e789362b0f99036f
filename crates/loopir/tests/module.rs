//! Module files: read, reprinted byte for byte, bodies taken out as statements and put
//! back; located errors for broken framing.

use loopir::dialect::Dialect;
use loopir::{
    Linkage, Module, ParseEnv, ParseErrorKind, ParseOptions, PrintOptions, Stmt, StmtFile, parse_stmt,
};

/// A module as Halide 21 writes one for a CUDA target: an elided buffer, a source buffer
/// (whose bytes hold NULs, invalid UTF-8 and lines that look like the framing), a closure
/// and the pipeline.
fn cuda_module() -> Vec<u8> {
    let mut m = b"module name=g, target=x86-64-linux-avx2-sse41-cuda\nbuffer cuda_buf = {...}\n\nbuffer cuda_gpu_source_kernels = {\n".to_vec();
    m.extend_from_slice(b"//\n.version 3.2\n}\n\n\t// .globl\n}\n\nbuffer not_one\n\xff\xfe ret;\n}\n\x00");
    m.extend_from_slice(b"\n}\n\n");
    m.extend_from_slice(b"internal func g_par_for_g_s0_y (__user_context, g.s0.y, closure_arg) {\nlet t = (uint64)0\nfor (g.s0.x, 0, 8) {\n g[g.s0.x] = uint8(t)\n}\n}\n\n\n");
    m.extend_from_slice(
        b"external_plus_metadata func g (input, g) {\nif ((uint1)1) {\n 0\n}\nassert((uint1)1, 0)\n}\n\n\n",
    );
    m
}

fn read(bytes: &[u8]) -> Result<loopir::Parsed<Module>, loopir::ParseError> {
    Module::parse(bytes, &ParseEnv::default(), ParseOptions::default())
}

#[test]
fn a_module_reprints_byte_for_byte() {
    let text = cuda_module();
    let parsed = read(&text).expect("reads");
    assert_eq!(parsed.dialect, Dialect::Halide21);
    let m = &parsed.value;
    assert_eq!((m.name.as_str(), m.target.as_str()), ("g", "x86-64-linux-avx2-sse41-cuda"));
    assert_eq!(m.buffers.len(), 2);
    assert_eq!(m.buffers[0].bytes, None);
    let source = m.buffers[1].bytes.as_ref().expect("the source is shown");
    assert!(source.ends_with(b"ret;\n}\n\x00") && source.starts_with(b"//\n"), "{source:?}");
    let names: Vec<(&str, Linkage, usize)> =
        m.functions.iter().map(|f| (f.name.as_str(), f.linkage, f.args.len())).collect();
    assert_eq!(names, [("g_par_for_g_s0_y", Linkage::Internal, 3), ("g", Linkage::ExternalPlusMetadata, 2)]);
    assert_eq!(m.print(PrintOptions::dialect(Dialect::Halide21)), text);
    // The pipeline is the external function named like the module.
    assert_eq!(m.pipeline().map(|f| f.name.as_str()), Some("g"));
    assert_eq!(m.pipeline_index(), Some(1));
}

#[test]
fn a_module_converts_between_dialects() {
    let parsed = read(&cuda_module()).expect("reads");
    let reference = parsed.value.print(PrintOptions::dialect(Dialect::Reference));
    let text = String::from_utf8_lossy(&reference);
    assert!(text.contains("let t = 0_u64\nfor (g.s0.x, 0, 7) {\n g[g.s0.x] = uint8(t)\n}\n"), "{text}");
    assert!(text.contains("if (true) {"), "{text}");
    let back = read(&reference).expect("reads the reference's text");
    assert_eq!(back.dialect, Dialect::Reference);
    assert_eq!(back.value.print(PrintOptions::dialect(Dialect::Halide21)), cuda_module());
}

#[test]
fn bodies_are_statements() {
    let mut m = read(&cuda_module()).expect("reads").value;
    let body = parse_stmt("assert(true, 0)\n").expect("a statement");
    let i = m.pipeline_index().expect("a pipeline");
    m.functions[i].body = body;
    let printed = String::from_utf8_lossy(&m.print(PrintOptions::dialect(Dialect::Halide21))).into_owned();
    assert!(
        printed.ends_with("external_plus_metadata func g (input, g) {\nassert((uint1)1, 0)\n}\n\n\n"),
        "{printed}"
    );
}

#[test]
fn submodules_and_empty_modules() {
    let sub = "module name=sub, target=hexagon-32-noos\ninternal func k () {\n0\n}\n\n\n";
    let main = "module name=m, target=host\nbuffer b = {...}\n\n";
    let text = format!("{sub}\n{main}");
    let m = read(text.as_bytes()).expect("reads").value;
    assert_eq!(m.submodules.len(), 1);
    assert_eq!(m.submodules[0].functions[0].args, Vec::<String>::new());
    assert!(m.functions.is_empty());
    assert_eq!(m.print(PrintOptions::default()), text.as_bytes());
    assert!(m.pipeline().is_none());
}

#[test]
fn either_a_module_or_a_statement() {
    let env = ParseEnv::default();
    let s = StmtFile::parse(b"f(x) = 1\n", &env, ParseOptions::default()).expect("reads");
    assert!(matches!(s.value, StmtFile::Stmt(_)));
    let m = StmtFile::parse(&cuda_module(), &env, ParseOptions::default()).expect("reads");
    assert!(matches!(m.value, StmtFile::Module(_)));
    assert_eq!(m.value.print(PrintOptions::dialect(m.dialect)), cuda_module());
}

/// Reads `text`; the error's (line, column, kind) and expected text.
fn error(text: &[u8]) -> (usize, usize, ParseErrorKind, String) {
    let e = read(text).err().unwrap_or_else(|| panic!("{} reads", String::from_utf8_lossy(text)));
    (e.line, e.column, e.kind, e.expected)
}

#[test]
fn broken_framing_is_located() {
    let header = "module name=g, target=host\n";
    let cases: Vec<(String, (usize, usize), &str)> = vec![
        ("module name=g\n".into(), (1, 13), "`NAME, target=TARGET`"),
        (format!("{header}buffer b = {{.}}\n\n"), (2, 1), "`buffer NAME = {...}`"),
        (
            format!("{header}buffer b = {{...}}\nexternal func g () {{\n0\n}}\n\n\n"),
            (3, 1),
            "an empty line after the buffer",
        ),
        (format!("{header}buffer b = {{\nxx\n}}\n\n"), (2, 1), "only a buffer named `*_gpu_source_kernels`"),
        (
            format!("{header}buffer b_gpu_source_kernels = {{\nxx\n}}\nfoo"),
            (5, 4),
            "the end of the buffer's bytes",
        ),
        (
            format!("{header}extern func g () {{\n0\n}}\n\n\n"),
            (2, 1),
            "a function header `LINKAGE func NAME (ARGS) {`",
        ),
        (format!("{header}internal func g {{\n0\n}}\n\n\n"), (2, 15), "`NAME (ARGS) {`"),
        (format!("{header}internal func g () {{\n0\n}}\n"), (5, 1), "two empty lines after the function"),
        (format!("{header}internal func g () {{\n0\n"), (4, 1), "`}` closing the function"),
        (format!("{header}internal func g () {{\n0\n}}\n\n\nmodule x\n"), (7, 1), "a function header"),
    ];
    for (text, at, expected) in cases {
        let (line, column, _, got) = error(text.as_bytes());
        assert_eq!((line, column), at, "{text:?}: {got}");
        assert!(got.contains(expected), "{text:?}: {got}");
    }
}

#[test]
fn errors_in_bodies_are_located_in_the_file() {
    let text = b"module name=g, target=host\ninternal func g () {\nlet x = 1\n f(x) = 2\n}\n\n\n";
    let (line, column, kind, _) = error(text);
    assert_eq!((line, column, kind), (4, 1, ParseErrorKind::Indentation));
    // A NUL byte in a body is an error; in a source buffer it is data.
    let mut text = b"module name=g, target=host\ninternal func g () {\nf(x) = 1".to_vec();
    text.extend_from_slice(b"\x00\n}\n\n\n");
    let (line, column, kind, _) = error(&text);
    assert_eq!((line, column, kind), (3, 9, ParseErrorKind::NulByte));
    let text = b"module name=g\xff, target=host\n";
    let (line, column, kind, _) = error(text);
    assert_eq!((line, column, kind), (1, 14, ParseErrorKind::InvalidUtf8));
}

#[test]
fn a_module_in_the_reference_s_dialect() {
    let text = "module name=f, target=host\nexternal func f (f) {\nfor (f.s0.x, 0, 9) {\n f[f.s0.x] = true\n}\n}\n\n\n";
    let parsed = read(text.as_bytes()).expect("reads");
    assert_eq!(parsed.dialect, Dialect::Reference);
    let body: &Stmt = &parsed.value.functions[0].body;
    assert_eq!(body.to_string(), "for (f.s0.x, 0, 9) {\n f[f.s0.x] = true\n}\n");
    assert_eq!(parsed.value.print(PrintOptions::default()), text.as_bytes());
}
