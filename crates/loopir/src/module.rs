//! Module files: what `Func::compile_to_lowered_stmt` (and a generator's `-e stmt`)
//! writes, the form of `.stmt` text users have.
//!
//! ```text
//! module name=g, target=x86-64-linux-avx2-sse41
//! buffer cuda_buf = {...}
//!
//! buffer cuda_gpu_source_kernels = {
//! <the device code, raw bytes>
//! }
//!
//! internal func g_par_for_g_s0_y (__user_context, g.s0.y, closure_arg) {
//! <body>
//! }
//!
//!
//! external_plus_metadata func g (in, g) {
//! <body>
//! }
//!
//!
//! ```
//!
//! A module is its header line, its embedded buffers (a buffer whose name ends in
//! `_gpu_source_kernels` shows its bytes: device source or binaries, NUL bytes included;
//! any other shows `{...}`), then its lowered functions: linkage, name, argument names
//! and a body printed from indentation 0, each followed by two empty lines. Submodules are
//! printed in full before the module, each followed by an empty line. Halide 21.0.0 and the
//! reference print the framing identically; bodies are in the file's dialect.
//!
//! [`Module::parse`] reads the text (the buffers' bytes are kept opaque),
//! [`Module::print`] writes it back byte for byte, and the bodies are ordinary [`Stmt`]s
//! in between. [`StmtFile`] reads either a module or a bare statement.

use std::ops::Range;

use crate::dialect::{self, Dialect, DialectScan, DialectTell, UnwritableError, scan_dialect};
use crate::parse::{
    DialectPlan, ParseEnv, ParseError, ParseErrorKind, ParseOptions, Parsed, Parser, check_bytes_in,
};
use crate::print::{PrintOptions, stmt_to_string_with};
use crate::stmt::Stmt;

/// How a lowered function is linked.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Linkage {
    /// Visible to other code (`external`).
    External,
    /// Visible, with a metadata function (`external_plus_metadata`): a pipeline.
    ExternalPlusMetadata,
    /// Visible, with an argv wrapper (`external_plus_argv`).
    ExternalPlusArgv,
    /// Private to the module (`internal`): parallel-task closures and the like.
    Internal,
}

impl Linkage {
    /// The printed keyword.
    pub fn as_str(self) -> &'static str {
        match self {
            Linkage::External => "external",
            Linkage::ExternalPlusMetadata => "external_plus_metadata",
            Linkage::ExternalPlusArgv => "external_plus_argv",
            Linkage::Internal => "internal",
        }
    }

    /// Reads a printed keyword.
    pub fn from_name(s: &str) -> Option<Linkage> {
        Some(match s {
            "external" => Linkage::External,
            "external_plus_metadata" => Linkage::ExternalPlusMetadata,
            "external_plus_argv" => Linkage::ExternalPlusArgv,
            "internal" => Linkage::Internal,
            _ => return None,
        })
    }
}

/// The suffix of the buffers whose bytes the module text shows.
pub const SOURCE_BUFFER_SUFFIX: &str = "_gpu_source_kernels";

/// A buffer embedded in a module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModuleBuffer {
    /// Its name.
    pub name: String,
    /// Its bytes, for a buffer whose name ends in [`SOURCE_BUFFER_SUFFIX`] (device code,
    /// opaque: any bytes, NULs included); `None` for any other, which prints `{...}`.
    pub bytes: Option<Vec<u8>>,
}

/// A lowered function of a module.
#[derive(Clone, Debug)]
pub struct LoweredFunc {
    /// How it is linked.
    pub linkage: Linkage,
    /// Its name.
    pub name: String,
    /// The names of its arguments (the text gives no kinds or types).
    pub args: Vec<String>,
    /// Its body.
    pub body: Stmt,
}

/// A module: what a module file holds.
#[derive(Clone, Debug)]
pub struct Module {
    /// Modules printed before this one (Halide prints a module's submodules first).
    pub submodules: Vec<Module>,
    /// The module's name (the pipeline's).
    pub name: String,
    /// The target, as Halide spells it (opaque text).
    pub target: String,
    /// The embedded buffers, in order.
    pub buffers: Vec<ModuleBuffer>,
    /// The lowered functions, in order.
    pub functions: Vec<LoweredFunc>,
}

const MODULE_HEADER: &[u8] = b"module name=";

impl Module {
    /// Whether `bytes` is module text (it starts with a module header).
    pub fn is_module_text(bytes: &[u8]) -> bool {
        bytes.starts_with(MODULE_HEADER)
    }

    /// Reads module text. The dialect is the one `options` give or the one the function
    /// bodies show (all of them together); the bodies are read strictly or, if allowed,
    /// leniently (the framing is always read as Halide writes it).
    pub fn parse(bytes: &[u8], env: &ParseEnv, options: ParseOptions) -> Result<Parsed<Module>, ParseError> {
        let frames = frame_modules(bytes)?;
        let mut scan = DialectScan::default();
        for f in &frames {
            check_bytes_in(bytes, f.functions.clone())?;
            if !scan.has_spelling() {
                scan.merge(scan_dialect(bytes, f.functions.clone()));
            }
        }
        let plan = DialectPlan::new(bytes, scan, options)?;
        plan.read(|dialect, told_by, lenient| {
            let mut late = false;
            let mut modules = Vec::with_capacity(frames.len());
            for f in &frames {
                let (functions, l) =
                    parse_functions(bytes, f.functions.clone(), env, dialect, &told_by, lenient)?;
                late |= l;
                modules.push(Module {
                    submodules: Vec::new(),
                    name: f.name.clone(),
                    target: f.target.clone(),
                    buffers: f.buffers.clone(),
                    functions,
                });
            }
            // Every module before the last was printed as a submodule of the last.
            let mut main = modules.pop().ok_or_else(|| {
                ParseError::at(bytes, 0, 0, ParseErrorKind::UnexpectedEof, "a module".into())
            })?;
            main.submodules = modules;
            Ok((main, late))
        })
    }

    /// Prints the module as Halide does, its bodies in `options.dialect`.
    pub fn print(&self, options: PrintOptions) -> Vec<u8> {
        let mut out = Vec::new();
        self.print_into(&mut out, options);
        out
    }

    fn print_into(&self, out: &mut Vec<u8>, options: PrintOptions) {
        for sub in &self.submodules {
            sub.print_into(out, options);
            out.push(b'\n');
        }
        out.extend_from_slice(MODULE_HEADER);
        out.extend_from_slice(self.name.as_bytes());
        out.extend_from_slice(b", target=");
        out.extend_from_slice(self.target.as_bytes());
        out.push(b'\n');
        for b in &self.buffers {
            out.extend_from_slice(b"buffer ");
            out.extend_from_slice(b.name.as_bytes());
            out.extend_from_slice(b" = {");
            match &b.bytes {
                Some(bytes) => {
                    out.push(b'\n');
                    out.extend_from_slice(bytes);
                    out.push(b'\n');
                }
                None => out.extend_from_slice(b"..."),
            }
            out.extend_from_slice(b"}\n\n");
        }
        for f in &self.functions {
            out.extend_from_slice(f.linkage.as_str().as_bytes());
            out.extend_from_slice(b" func ");
            out.extend_from_slice(f.name.as_bytes());
            out.extend_from_slice(b" (");
            out.extend_from_slice(f.args.join(", ").as_bytes());
            out.extend_from_slice(b") {\n");
            out.extend_from_slice(stmt_to_string_with(&f.body, options).as_bytes());
            out.extend_from_slice(b"}\n\n\n");
        }
    }

    /// Checks that every body can be written in `dialect` (see
    /// [`dialect::check_writable`]).
    pub fn check_writable(&self, dialect: Dialect) -> Result<(), UnwritableError> {
        for sub in &self.submodules {
            sub.check_writable(dialect)?;
        }
        self.functions.iter().try_for_each(|f| dialect::check_writable(&f.body, dialect))
    }

    /// The pipeline's function: the one with external linkage named like the module,
    /// else the only function with external linkage.
    pub fn pipeline(&self) -> Option<&LoweredFunc> {
        let external: Vec<&LoweredFunc> =
            self.functions.iter().filter(|f| f.linkage != Linkage::Internal).collect();
        external.iter().find(|f| f.name == self.name).copied().or(match external.as_slice() {
            [only] => Some(*only),
            _ => None,
        })
    }

    /// The index in [`Module::functions`] of [`Module::pipeline`].
    pub fn pipeline_index(&self) -> Option<usize> {
        let p = self.pipeline()?;
        self.functions.iter().position(|f| std::ptr::eq(f, p))
    }
}

/// A `.stmt` file: a module, or a bare statement (a stage dump, a fixture).
#[derive(Clone, Debug)]
pub enum StmtFile {
    /// A bare statement.
    Stmt(Stmt),
    /// A module.
    Module(Module),
}

impl StmtFile {
    /// Reads a module ([`Module::parse`]) if the text starts with a module header, else a
    /// statement ([`crate::parse::parse_stmt_with_options`]).
    pub fn parse(
        bytes: &[u8],
        env: &ParseEnv,
        options: ParseOptions,
    ) -> Result<Parsed<StmtFile>, ParseError> {
        if Module::is_module_text(bytes) {
            let p = Module::parse(bytes, env, options)?;
            return Ok(Parsed {
                value: StmtFile::Module(p.value),
                dialect: p.dialect,
                told_by: p.told_by,
                lenient: p.lenient,
            });
        }
        let p = crate::parse::parse_stmt_with_options(bytes, env, options)?;
        Ok(Parsed {
            value: StmtFile::Stmt(p.value),
            dialect: p.dialect,
            told_by: p.told_by,
            lenient: p.lenient,
        })
    }

    /// Prints the file as Halide does.
    pub fn print(&self, options: PrintOptions) -> Vec<u8> {
        match self {
            StmtFile::Stmt(s) => stmt_to_string_with(s, options).into_bytes(),
            StmtFile::Module(m) => m.print(options),
        }
    }

    /// Checks that the file can be written in `dialect`.
    pub fn check_writable(&self, dialect: Dialect) -> Result<(), UnwritableError> {
        match self {
            StmtFile::Stmt(s) => dialect::check_writable(s, dialect),
            StmtFile::Module(m) => m.check_writable(dialect),
        }
    }
}

/// Where the parts of one module are in the text.
struct Frame {
    name: String,
    target: String,
    buffers: Vec<ModuleBuffer>,
    /// From the first function header to the module's end (the next module's header or
    /// the end of the text).
    functions: Range<usize>,
}

fn error(src: &[u8], at: usize, expected: &str) -> ParseError {
    let kind = if at >= src.len() { ParseErrorKind::UnexpectedEof } else { ParseErrorKind::UnexpectedText };
    ParseError::at(src, at, 1, kind, expected.to_owned())
}

fn line_end(src: &[u8], at: usize) -> Option<usize> {
    src[at..].iter().position(|&b| b == b'\n').map(|p| at + p)
}

/// A line of framing text as a string: UTF-8 and without NUL bytes.
fn framing_text(src: &[u8], range: Range<usize>) -> Result<String, ParseError> {
    check_bytes_in(src, range.clone())?;
    Ok(String::from_utf8_lossy(&src[range]).into_owned())
}

/// Finds the modules of the text: headers, buffers and where the functions are.
fn frame_modules(src: &[u8]) -> Result<Vec<Frame>, ParseError> {
    let mut frames = Vec::new();
    let mut pos = 0;
    loop {
        if !src[pos..].starts_with(MODULE_HEADER) {
            return Err(error(src, pos, "a module header `module name=NAME, target=TARGET`"));
        }
        let header_end =
            line_end(src, pos).ok_or_else(|| error(src, src.len(), "the end of the header line"))?;
        let header = &src[pos + MODULE_HEADER.len()..header_end];
        let Some(sep) = header.windows(9).position(|w| w == b", target=") else {
            return Err(error(src, pos + MODULE_HEADER.len(), "`NAME, target=TARGET`"));
        };
        let name_start = pos + MODULE_HEADER.len();
        let name = framing_text(src, name_start..name_start + sep)?;
        let target = framing_text(src, name_start + sep + 9..header_end)?;
        pos = header_end + 1;
        let mut buffers = Vec::new();
        while src[pos..].starts_with(b"buffer ") {
            let (buffer, next) = buffer_at(src, pos)?;
            buffers.push(buffer);
            pos = next;
        }
        // The functions run to the next module's header (no function line can start
        // with `module name=`), or to the end.
        let end = src[pos..]
            .windows(MODULE_HEADER.len() + 1)
            .position(|w| w[0] == b'\n' && &w[1..] == MODULE_HEADER)
            .map_or(src.len(), |p| pos + p + 1);
        frames.push(Frame { name, target, buffers, functions: pos..end });
        if end == src.len() {
            return Ok(frames);
        }
        pos = end;
    }
}

/// Reads `buffer NAME = {...}` or a source buffer with its bytes, and the empty line
/// after it; returns the buffer and where the next item starts.
fn buffer_at(src: &[u8], at: usize) -> Result<(ModuleBuffer, usize), ParseError> {
    let eol = line_end(src, at).ok_or_else(|| error(src, src.len(), "the end of the buffer line"))?;
    let line = &src[at..eol];
    let name_start = at + "buffer ".len();
    if let Some(name) = line.strip_suffix(b" = {...}").and_then(|l| l.strip_prefix(b"buffer ")) {
        let name = framing_text(src, name_start..name_start + name.len())?;
        if src.get(eol + 1) != Some(&b'\n') {
            return Err(error(src, eol + 1, "an empty line after the buffer"));
        }
        return Ok((ModuleBuffer { name, bytes: None }, eol + 2));
    }
    let Some(name) = line.strip_suffix(b" = {").and_then(|l| l.strip_prefix(b"buffer ")) else {
        return Err(error(
            src,
            at,
            "`buffer NAME = {...}` or a source buffer `buffer NAME = {` with its bytes",
        ));
    };
    let name = framing_text(src, name_start..name_start + name.len())?;
    if !name.ends_with(SOURCE_BUFFER_SUFFIX) {
        return Err(error(
            src,
            at,
            &format!("`{{...}}`: only a buffer named `*{SOURCE_BUFFER_SUFFIX}` shows its bytes"),
        ));
    }
    // The bytes are opaque: they end at the first `\n}\n\n` that the next item follows.
    let data_start = eol + 1;
    let mut from = data_start;
    loop {
        let Some(p) = src[from..].windows(4).position(|w| w == b"\n}\n\n") else {
            return Err(error(
                src,
                src.len(),
                "the end of the buffer's bytes: `}` on a line, then an empty line",
            ));
        };
        let close = from + p;
        let next = close + 4;
        if starts_next_item(&src[next..]) {
            let bytes = src[data_start..close].to_vec();
            return Ok((ModuleBuffer { name, bytes: Some(bytes) }, next));
        }
        from = close + 1;
    }
}

/// Whether `rest` (what follows a source buffer's bytes) starts with what may follow a
/// buffer: the end, the empty line that ends a submodule, or a whole line that is another
/// buffer or a function header. Only bytes that end with such a line can be mistaken for
/// the end of the buffer.
fn starts_next_item(rest: &[u8]) -> bool {
    if rest.is_empty() || rest.starts_with(b"\nmodule name=") {
        return true;
    }
    let Some(eol) = rest.iter().position(|&b| b == b'\n') else { return false };
    let line = &rest[..eol];
    if let Some(buffer) = line.strip_prefix(b"buffer ") {
        return buffer.ends_with(b" = {...}")
            || buffer.strip_suffix(b" = {").is_some_and(|n| n.ends_with(SOURCE_BUFFER_SUFFIX.as_bytes()));
    }
    let word = line.iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
    std::str::from_utf8(&line[..word]).ok().and_then(Linkage::from_name).is_some()
        && line[word..].starts_with(b" func ")
        && line.ends_with(b") {")
}

/// Reads the functions in `range` (each header, body and the empty lines after it).
/// Returns them and whether a late tell of Halide 21 was met.
fn parse_functions(
    src: &[u8],
    range: Range<usize>,
    env: &ParseEnv,
    dialect: Dialect,
    told_by: &Option<DialectTell>,
    lenient: bool,
) -> Result<(Vec<LoweredFunc>, bool), ParseError> {
    let text = &src[..range.end];
    let mut pos = range.start;
    let mut functions = Vec::new();
    let mut late = false;
    // A submodule ends with one more empty line before the next module's header.
    let end = if range.end < src.len() { range.end - 1 } else { range.end };
    while pos < end {
        let eol = line_end(text, pos).ok_or_else(|| error(src, pos, "a function header ending its line"))?;
        let line = &text[pos..eol];
        let word = line.iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
        let linkage = std::str::from_utf8(&line[..word]).ok().and_then(Linkage::from_name);
        let (Some(linkage), Some(rest)) = (linkage, line[word..].strip_prefix(b" func ")) else {
            return Err(error(
                src,
                pos,
                "a function header `LINKAGE func NAME (ARGS) {` (linkage `external`, `external_plus_metadata`, `external_plus_argv` or `internal`)",
            ));
        };
        let rest_at = pos + word + " func ".len();
        let (Some(open), Some(args)) = (rest.windows(2).position(|w| w == b" ("), rest.strip_suffix(b") {"))
        else {
            return Err(error(src, rest_at, "`NAME (ARGS) {`"));
        };
        let name = String::from_utf8_lossy(&rest[..open]).into_owned();
        let args_text = String::from_utf8_lossy(&args[open + 2..]).into_owned();
        let args: Vec<String> = if args_text.is_empty() {
            Vec::new()
        } else {
            args_text.split(", ").map(str::to_owned).collect()
        };
        let mut p = Parser::new(text, env, dialect, lenient);
        p.told_by = told_by.clone();
        p.pos = eol + 1;
        let body = p.function_body()?;
        late |= p.late_tell_21.is_some();
        pos = p.pos;
        let close: &[u8] = b"}\n\n\n";
        if lenient {
            // `}` and at most three line ends (a missing final newline is fine).
            if text.get(pos) != Some(&b'}') {
                return Err(error(src, pos, "`}` closing the function"));
            }
            pos += 1;
            while pos < end && text[pos] == b'\n' {
                pos += 1;
            }
        } else if text[pos..].starts_with(close) {
            pos += close.len();
        } else {
            let got = text[pos..].iter().zip(close).take_while(|(a, b)| a == b).count();
            let expected =
                if got == 0 { "`}` closing the function" } else { "two empty lines after the function" };
            return Err(error(src, pos + got, expected));
        }
        functions.push(LoweredFunc { linkage, name, args, body });
    }
    Ok((functions, late))
}
