//! Reading `.stmt` text back into IR.
//!
//! The grammar is the printer's (see `docs/stmt-format.md`): statements are lines whose
//! indentation gives their nesting, expressions are fully parenthesised except at the top
//! of a statement-level position. The parser is a hand-written recursive descent over
//! bytes; names are interned so that every occurrence of a name shares one allocation.
//!
//! The text omits some types (a name the printer considers "known" prints bare) and all
//! call types. They are recovered while parsing: binders record the types of their names,
//! unprefixed loads of a buffer take its allocation's element type, and an operand whose
//! type is only a guess takes the type of its sibling in a binary operation. A
//! [`ParseEnv`] supplies what the text cannot (Func value types, images).
//!
//! Reprinting never depends on those guesses: the printer prints a type prefix only for
//! names that are not known, and those always carry their type in the text.

mod env;
mod error;
mod expr;
mod lenient;
mod options;
mod stmt;

pub use env::ParseEnv;
pub use error::{ParseError, ParseErrorKind};
pub(crate) use options::DialectPlan;
pub use options::{Parsed, parse_stmt_with_options};

use rustc_hash::FxHashMap;

use crate::dialect::{Dialect, DialectTell};
use crate::expr::{Expr, Name};
use crate::stmt::Stmt;
use crate::types::{CType, Type};

/// Options of the parser.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// The dialect of the text (see [`crate::dialect`]); `None` tells it from the text,
    /// and takes the reference's where the text does not tell.
    pub dialect: Option<Dialect>,
    /// Also accept hand-typed text: any indentation, optional spaces around operators
    /// and punctuation, redundant parentheses, blank lines and a missing final newline.
    /// Text that reads strictly reads the same; the errors of text that does not are
    /// the strict reader's unless the lenient reader gets further.
    pub lenient: bool,
}

/// Parses a statement printed by Halide (or by [`crate::print`]).
pub fn parse_stmt(text: &str) -> Result<Stmt, ParseError> {
    parse_stmt_bytes(text.as_bytes(), &ParseEnv::default())
}

/// Parses a statement with an environment that settles types and call types the text
/// leaves open.
pub fn parse_stmt_with_env(text: &str, env: &ParseEnv) -> Result<Stmt, ParseError> {
    parse_stmt_bytes(text.as_bytes(), env)
}

/// Parses a statement from raw bytes: invalid UTF-8 and NUL bytes are reported with their
/// location rather than rejected up front by the caller.
pub fn parse_stmt_bytes(bytes: &[u8], env: &ParseEnv) -> Result<Stmt, ParseError> {
    check_bytes(bytes)?;
    let mut p = Parser::new(bytes, env, Dialect::Reference, false);
    p.file()
}

/// Parses one expression (in either paren mode: `x + 1` and `(x + 1)` both parse).
pub fn parse_expr(text: &str) -> Result<Expr, ParseError> {
    parse_expr_with_env(text, &ParseEnv::default())
}

/// As [`parse_expr`], with an environment that settles types and call types the text
/// leaves open (`f(x, y)` is a call of the Func `f` when the environment names it).
pub fn parse_expr_with_env(text: &str, env: &ParseEnv) -> Result<Expr, ParseError> {
    let bytes = text.as_bytes();
    check_bytes(bytes)?;
    let mut p = Parser::new(bytes, env, Dialect::Reference, false);
    let e = p.expr_implicit()?;
    if p.pos < bytes.len() && !(bytes[p.pos] == b'\n' && p.pos + 1 == bytes.len()) {
        return Err(p.error(ParseErrorKind::UnexpectedText, "the end of the expression"));
    }
    Ok(e.e)
}

fn check_bytes(bytes: &[u8]) -> Result<(), ParseError> {
    if let Some(i) = memchr_nul(bytes) {
        return Err(ParseError::at(bytes, i, 1, ParseErrorKind::NulByte, "text without NUL bytes".into()));
    }
    if let Err(e) = std::str::from_utf8(bytes) {
        let at = e.valid_up_to();
        return Err(ParseError::at(bytes, at, 1, ParseErrorKind::InvalidUtf8, "UTF-8 text".into()));
    }
    // Editors and other platforms' tools add these; without a word on them the error
    // would point at an invisible character.
    if bytes.starts_with(BYTE_ORDER_MARK) {
        let mut e = ParseError::at(
            bytes,
            0,
            BYTE_ORDER_MARK.len(),
            ParseErrorKind::UnexpectedText,
            "text without a byte-order mark (.stmt text starts with its first statement)".into(),
        );
        e.found = "a UTF-8 byte-order mark (U+FEFF)".into();
        return Err(e);
    }
    if let Some(cr) = bytes.iter().position(|&b| b == b'\r') {
        // Halide writes LF line ends and escapes a CR inside a string as `\r`.
        let crlf = bytes.get(cr + 1) == Some(&b'\n');
        let (expected, found) = if crlf {
            ("a line end of LF alone: CRLF line endings are not .stmt text", "a CRLF line end")
        } else {
            ("text without carriage returns (a CR in a string is written `\\r`)", "a carriage return (CR)")
        };
        let mut e = ParseError::at(bytes, cr, 1, ParseErrorKind::UnexpectedText, expected.into());
        e.found = found.into();
        return Err(e);
    }
    Ok(())
}

/// As [`check_bytes`] on `bytes[range]`, with the error located in the whole of `bytes`.
pub(crate) fn check_bytes_in(bytes: &[u8], range: std::ops::Range<usize>) -> Result<(), ParseError> {
    check_bytes(&bytes[range.clone()]).map_err(|e| e.rebased(bytes, range.start))
}

/// The UTF-8 encoding of U+FEFF at the start of a file.
const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

fn memchr_nul(bytes: &[u8]) -> Option<usize> {
    bytes.iter().position(|&b| b == 0)
}

/// What is wrong with `text` if it spells a number type (`int`, `uint`, `float` or
/// `bfloat`, a bit count, optionally `x` and a lane count) that cannot exist: no lanes,
/// more lanes than a type holds, or a bit count outside 1 to 64. `None` for valid types
/// and for text that is not spelled like a number type.
fn impossible_number_type(text: &[u8]) -> Option<String> {
    let text = std::str::from_utf8(text).ok()?;
    let rest = ["bfloat", "float", "uint", "int"].iter().find_map(|code| text.strip_prefix(code))?;
    let (bits, lanes) = rest.split_once('x').unwrap_or((rest, "1"));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(bits) || !digits(lanes) || Type::parse(text).is_some() {
        return None;
    }
    let lanes_ok = lanes.parse::<u16>().is_ok_and(|l| l > 0);
    let bits_ok = bits.parse::<u8>().is_ok_and(|b| (1..=64).contains(&b));
    Some(if lanes.bytes().all(|b| b == b'0') {
        format!("a type with at least one lane (`{text}` has none)")
    } else if !lanes_ok {
        format!("a type of at most 65535 lanes (`{text}` has {lanes})")
    } else if !bits_ok {
        format!("a bit count from 1 to 64 (`{text}` has {bits})")
    } else {
        format!("a type (`{text}` is not one)")
    })
}

/// An expression and whether its type is known for sure or only a default guess.
#[derive(Clone)]
pub(crate) struct Typed {
    pub(crate) e: Expr,
    pub(crate) sure: bool,
}

/// What a name in scope stands for, for typing.
#[derive(Clone, Copy)]
pub(crate) enum Binding {
    /// A let-bound value of this type.
    Value(Type, bool),
    /// A loop variable.
    Loop,
    /// An allocation with this element type.
    Buffer(Type),
    /// A realized Func.
    Func,
}

pub(crate) struct Parser<'a> {
    pub(crate) src: &'a [u8],
    pub(crate) pos: usize,
    pub(crate) env: &'a ParseEnv,
    names: FxHashMap<&'a [u8], Name>,
    ctypes: FxHashMap<&'a [u8], CType>,
    pub(crate) scope: FxHashMap<Name, Vec<Binding>>,
    /// Value types of Funcs seen in Provides, for the `types` of their Realize.
    pub(crate) provided_types: FxHashMap<Name, Vec<Type>>,
    /// The always-true predicate of each lane count, shared by every unpredicated access.
    true_predicates: FxHashMap<u16, Expr>,
    /// The dialect the text is read in.
    pub(crate) dialect: Dialect,
    /// What in the text showed the dialect, for messages about the other's spellings.
    pub(crate) told_by: Option<DialectTell>,
    /// Where a transposing shuffle was written `shuffle(...)`, as only Halide 21.0.0
    /// writes it: when nothing else told the dialect, the text is Halide 21's.
    pub(crate) late_tell_21: Option<usize>,
    /// Whether hand-typed text is accepted (see [`ParseOptions::lenient`]).
    pub(crate) lenient: bool,
}

impl<'a> Parser<'a> {
    pub(crate) fn new(src: &'a [u8], env: &'a ParseEnv, dialect: Dialect, lenient: bool) -> Parser<'a> {
        Parser {
            src,
            pos: 0,
            env,
            names: FxHashMap::default(),
            ctypes: FxHashMap::default(),
            scope: FxHashMap::default(),
            provided_types: FxHashMap::default(),
            true_predicates: FxHashMap::default(),
            dialect,
            told_by: None,
            late_tell_21: None,
            lenient,
        }
    }

    /// An error for a spelling of the other dialect than the one the text is read in:
    /// `instead` is what was expected, `spelled` says whose spelling was found.
    pub(crate) fn dialect_error(&self, at: usize, len: usize, spelled: &str, instead: &str) -> ParseError {
        let why = match &self.told_by {
            Some(t) => {
                let line =
                    self.src[..t.span.start.min(self.src.len())].iter().filter(|&&b| b == b'\n').count() + 1;
                format!(", as `{}` on line {line} shows", t.text)
            }
            None => String::new(),
        };
        let expected =
            format!("{instead} ({spelled}; the text is read in {} dialect{why})", self.dialect.describe());
        ParseError::at(self.src, at, len, ParseErrorKind::Dialect, expected)
    }

    /// The predicate of a load or store that touches every lane.
    pub(crate) fn all_lanes_true(&mut self, lanes: u16) -> Expr {
        if lanes == 1 {
            return Expr::const_true();
        }
        self.true_predicates
            .entry(lanes)
            .or_insert_with(|| {
                Expr::from_node_unchecked(
                    Type::bool(lanes),
                    crate::expr::ExprKind::Broadcast { value: Expr::const_true(), lanes },
                )
            })
            .clone()
    }

    // ---- low-level helpers ----

    pub(crate) fn peek(&self) -> Option<u8> {
        self.src.get(self.pos).copied()
    }

    pub(crate) fn peek_at(&self, k: usize) -> Option<u8> {
        self.src.get(self.pos + k).copied()
    }

    pub(crate) fn at(&self, lit: &str) -> bool {
        if self.lenient {
            return self.loose_match(lit).is_some();
        }
        self.src[self.pos..].starts_with(lit.as_bytes())
    }

    pub(crate) fn eat(&mut self, lit: &str) -> bool {
        if self.lenient {
            let end = self.loose_match(lit);
            if let Some(end) = end {
                self.pos = end;
            }
            return end.is_some();
        }
        if self.at(lit) {
            self.pos += lit.len();
            true
        } else {
            false
        }
    }

    pub(crate) fn expect(&mut self, lit: &str) -> Result<(), ParseError> {
        if self.eat(lit) {
            Ok(())
        } else {
            let kind = if self.pos >= self.src.len() {
                ParseErrorKind::UnexpectedEof
            } else {
                ParseErrorKind::UnexpectedText
            };
            Err(self.error(kind, &format!("`{}`", lit.escape_debug())))
        }
    }

    pub(crate) fn error(&self, kind: ParseErrorKind, expected: &str) -> ParseError {
        let kind = if kind == ParseErrorKind::UnexpectedText && self.pos >= self.src.len() {
            ParseErrorKind::UnexpectedEof
        } else {
            kind
        };
        ParseError::at(self.src, self.pos, 1, kind, expected.to_owned())
    }

    pub(crate) fn error_at(&self, at: usize, len: usize, kind: ParseErrorKind, expected: &str) -> ParseError {
        ParseError::at(self.src, at, len, kind, expected.to_owned())
    }

    pub(crate) fn is_name_byte(b: u8) -> bool {
        b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$' | b':')
    }

    /// The length of the name-like token at the cursor (0 if none).
    pub(crate) fn token_len(&self) -> usize {
        self.src[self.pos..].iter().take_while(|&&b| Self::is_name_byte(b)).count()
    }

    /// Reads a name: a run of `[A-Za-z0-9_.$:]` that does not start with a digit.
    pub(crate) fn name(&mut self) -> Result<Name, ParseError> {
        self.skip_spaces();
        let len = self.token_len();
        if len == 0 || self.src[self.pos].is_ascii_digit() {
            return Err(self.error(ParseErrorKind::UnexpectedText, "a name"));
        }
        let bytes = &self.src[self.pos..self.pos + len];
        self.pos += len;
        Ok(self.intern(bytes))
    }

    pub(crate) fn intern(&mut self, bytes: &'a [u8]) -> Name {
        if let Some(n) = self.names.get(bytes) {
            return n.clone();
        }
        // The input was checked to be UTF-8 and names are ASCII runs.
        let s = String::from_utf8_lossy(bytes);
        let n: Name = Name::from(s.as_ref());
        self.names.insert(bytes, n.clone());
        n
    }

    pub(crate) fn ctype(&mut self, bytes: &'a [u8]) -> CType {
        if let Some(c) = self.ctypes.get(bytes) {
            return *c;
        }
        let c = CType::new(&String::from_utf8_lossy(bytes));
        self.ctypes.insert(bytes, c);
        c
    }

    pub(crate) fn push_binding(&mut self, name: &Name, b: Binding) {
        self.scope.entry(name.clone()).or_default().push(b);
    }

    pub(crate) fn pop_binding(&mut self, name: &Name) {
        if let Some(v) = self.scope.get_mut(name) {
            v.pop();
            if v.is_empty() {
                self.scope.remove(name);
            }
        }
    }

    pub(crate) fn binding(&self, name: &str) -> Option<Binding> {
        self.scope.get(name).and_then(|v| v.last().copied())
    }

    /// Reads an unsigned decimal integer.
    pub(crate) fn uint(&mut self) -> Result<u64, ParseError> {
        self.skip_spaces();
        let start = self.pos;
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        if start == self.pos {
            return Err(self.error(ParseErrorKind::UnexpectedText, "a number"));
        }
        let text = std::str::from_utf8(&self.src[start..self.pos]).unwrap_or("");
        text.parse::<u64>().map_err(|_| {
            self.error_at(
                start,
                self.pos - start,
                ParseErrorKind::InvalidLiteral,
                "a number that fits in 64 bits",
            )
        })
    }

    /// Reads a signed decimal integer (for alignment remainders and padding).
    pub(crate) fn int(&mut self) -> Result<i64, ParseError> {
        let neg = self.eat("-");
        let start = self.pos;
        let v = self.uint()?;
        let v = i64::try_from(v).map_err(|_| {
            self.error_at(start, self.pos - start, ParseErrorKind::InvalidLiteral, "a 64-bit integer")
        })?;
        Ok(if neg { -v } else { v })
    }

    /// Reads a type spelling (`int32x4`, `(void *)`, `(struct halide_buffer_t *)x2`).
    pub(crate) fn type_spelling(&mut self, allow_handle_lanes: bool) -> Result<Type, ParseError> {
        let start = self.pos;
        if self.peek() == Some(b'(') {
            let Some(end) = self.ctype_end(self.pos) else {
                return Err(self.error(ParseErrorKind::InvalidType, "a type"));
            };
            let inner = &self.src[self.pos + 1..end];
            if let Some(problem) = impossible_number_type(inner) {
                // `(int32x0)` matches the C type grammar, but it is a number type Halide
                // cannot have, not a C type name: read as a handle, it would print back
                // as something else.
                return Err(self.error_at(self.pos + 1, inner.len(), ParseErrorKind::InvalidType, &problem));
            }
            let c = self.ctype(inner);
            self.pos = end + 1;
            let mut lanes = 1u16;
            if allow_handle_lanes
                && self.peek() == Some(b'x')
                && self.peek_at(1).is_some_and(|b| b.is_ascii_digit())
            {
                self.pos += 1;
                let l = self.uint()?;
                lanes = u16::try_from(l).ok().filter(|&l| l > 0).ok_or_else(|| {
                    self.error_at(start, self.pos - start, ParseErrorKind::InvalidType, "a lane count")
                })?;
            }
            return Ok(Type::handle(c, lanes));
        }
        let len = self.src[self.pos..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
        let text = std::str::from_utf8(&self.src[self.pos..self.pos + len]).unwrap_or("");
        match Type::parse(text) {
            Some(t) => {
                self.pos += len;
                Ok(t)
            }
            None => Err(self.error_at(
                start,
                len.max(1),
                ParseErrorKind::InvalidType,
                &impossible_number_type(text.as_bytes())
                    .unwrap_or_else(|| "a type such as `int32` or `float32x8`".into()),
            )),
        }
    }

    /// If a C type spelling in parentheses starts at `at` (which holds `(`), the offset of
    /// its closing parenthesis.
    pub(crate) fn ctype_end(&self, at: usize) -> Option<usize> {
        let s = self.src;
        let mut i = at + 1;
        let eat = |i: &mut usize, lit: &[u8]| {
            if s[*i..].starts_with(lit) {
                *i += lit.len();
                true
            } else {
                false
            }
        };
        let ident = |i: &mut usize| {
            let st = *i;
            if *i < s.len() && (s[*i].is_ascii_alphabetic() || s[*i] == b'_') {
                *i += 1;
                while *i < s.len() && (s[*i].is_ascii_alphanumeric() || s[*i] == b'_') {
                    *i += 1;
                }
            }
            *i > st
        };
        eat(&mut i, b"struct ");
        eat(&mut i, b"::");
        if !ident(&mut i) {
            return None;
        }
        while eat(&mut i, b"::") {
            if !ident(&mut i) {
                return None;
            }
        }
        if !eat(&mut i, b" &&") {
            eat(&mut i, b" &");
        }
        while eat(&mut i, b" const")
            || eat(&mut i, b" volatile")
            || eat(&mut i, b" restrict")
            || eat(&mut i, b" *")
        {}
        (i < s.len() && s[i] == b')').then_some(i)
    }

    /// Whether a scalar type in parentheses (`(float32x8)`) starts at the cursor; returns
    /// the type and the length of the prefix.
    pub(crate) fn scalar_type_prefix(&self) -> Option<(Type, usize)> {
        let rest = &self.src[self.pos..];
        if rest.first() != Some(&b'(') {
            return None;
        }
        let len = rest[1..].iter().take_while(|b| b.is_ascii_alphanumeric()).count();
        if rest.get(1 + len) != Some(&b')') {
            return None;
        }
        let text = std::str::from_utf8(&rest[1..1 + len]).ok()?;
        Type::parse(text).map(|t| (t, len + 2))
    }

    // ---- the file ----

    /// The body of a function in a module: statements at indentation 0 up to the `}`
    /// that closes the function (left unread).
    pub(crate) fn function_body(&mut self) -> Result<Stmt, ParseError> {
        self.block(0)
    }

    fn file(&mut self) -> Result<Stmt, ParseError> {
        let s = self.block(0)?;
        self.skip_blank();
        if self.pos < self.src.len() {
            let kind = if self.peek() == Some(b' ') {
                ParseErrorKind::Indentation
            } else {
                ParseErrorKind::UnexpectedText
            };
            return Err(self.error(kind, "a statement at the top level"));
        }
        Ok(s)
    }
}
