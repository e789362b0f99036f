//! Parse errors: located, with what was expected and what was found.

use std::fmt;

/// What went wrong while reading `.stmt` text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// The text ended where more was required.
    UnexpectedEof,
    /// Something other than what the grammar allows at this point.
    UnexpectedText,
    /// A line is indented differently from its block.
    Indentation,
    /// The input is not valid UTF-8.
    InvalidUtf8,
    /// The input contains a NUL byte.
    NulByte,
    /// A numeric literal is malformed or out of range for its type.
    InvalidLiteral,
    /// A type spelling is not a valid type.
    InvalidType,
    /// The text is well formed but describes an impossible node (for example a shuffle
    /// index outside its inputs).
    InvalidNode,
    /// A spelling of the other dialect than the text's (see [`crate::dialect`]), or text
    /// that mixes the two.
    Dialect,
}

impl ParseErrorKind {
    /// A short stable name, used in messages and tests.
    pub fn as_str(&self) -> &'static str {
        match self {
            ParseErrorKind::UnexpectedEof => "unexpected end of input",
            ParseErrorKind::UnexpectedText => "unexpected text",
            ParseErrorKind::Indentation => "bad indentation",
            ParseErrorKind::InvalidUtf8 => "invalid UTF-8",
            ParseErrorKind::NulByte => "NUL byte",
            ParseErrorKind::InvalidLiteral => "invalid literal",
            ParseErrorKind::InvalidType => "invalid type",
            ParseErrorKind::InvalidNode => "invalid node",
            ParseErrorKind::Dialect => "dialect mismatch",
        }
    }
}

/// A located error in `.stmt` text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The kind of error.
    pub kind: ParseErrorKind,
    /// Byte offset of the error in the input.
    pub offset: usize,
    /// Length in bytes of the offending text (at least 1 unless at the end of input).
    pub len: usize,
    /// 1-based line number.
    pub line: usize,
    /// 1-based column, counted in characters.
    pub column: usize,
    /// What the parser expected here.
    pub expected: String,
    /// What it found instead (a short excerpt).
    pub found: String,
    /// The whole offending source line, for display.
    pub source_line: String,
}

impl ParseError {
    /// Builds an error at `offset` of `src`.
    pub(crate) fn at(
        src: &[u8],
        offset: usize,
        len: usize,
        kind: ParseErrorKind,
        expected: String,
    ) -> ParseError {
        let offset = offset.min(src.len());
        let line_start = src[..offset].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
        let line_end = src[offset..].iter().position(|&b| b == b'\n').map_or(src.len(), |p| offset + p);
        let line = src[..offset].iter().filter(|&&b| b == b'\n').count() + 1;
        let column = String::from_utf8_lossy(&src[line_start..offset]).chars().count() + 1;
        let found = describe_found(&src[offset..line_end.max(offset)], offset >= src.len());
        let len = len.min(src.len() - offset);
        ParseError {
            kind,
            offset,
            len,
            line,
            column,
            expected,
            found,
            source_line: visible(&String::from_utf8_lossy(&src[line_start..line_end])),
        }
    }

    /// The same error for a part of `src` that starts at `start`, located in all of `src`
    /// (what it found stays as described).
    pub(crate) fn rebased(self, src: &[u8], start: usize) -> ParseError {
        let found = self.found;
        let mut e = ParseError::at(src, start + self.offset, self.len, self.kind, self.expected);
        e.found = found;
        e
    }

    /// Renders the error with the source line and a caret under the offending column,
    /// prefixed by `file` (a path or `<stdin>`).
    pub fn render(&self, file: &str) -> String {
        let caret_pad: String = self
            .source_line
            .chars()
            .take(self.column - 1)
            .map(|c| if c == '\t' { '\t' } else { ' ' })
            .collect();
        let width = self.len.clamp(1, 40);
        format!(
            "error: {}\n --> {}:{}:{}\n  |\n  | {}\n  | {}{}\n  = expected {}, found {}\n",
            self.kind.as_str(),
            file,
            self.line,
            self.column,
            self.source_line,
            caret_pad,
            "^".repeat(width),
            self.expected,
            self.found
        )
    }
}

/// `text` with control characters other than TAB shown as their Unicode control pictures
/// (NUL as `␀`, CR as `␍`), one character each so that caret columns stay aligned.
fn visible(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\t' => c,
            '\u{0}'..='\u{1f}' => char::from_u32(0x2400 + c as u32).unwrap_or(c),
            '\u{7f}' => '\u{2421}',
            _ => c,
        })
        .collect()
}

fn describe_found(rest_of_line: &[u8], at_eof: bool) -> String {
    if at_eof {
        return "end of input".into();
    }
    match rest_of_line.first() {
        None => "end of line".into(),
        Some(0) => "a NUL byte".into(),
        Some(_) => {
            let text = visible(&String::from_utf8_lossy(rest_of_line));
            let excerpt: String = text.chars().take(24).collect();
            let more = if text.chars().count() > 24 { "…" } else { "" };
            format!("`{excerpt}{more}`")
        }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "line {}, column {}: {}: expected {}, found {}",
            self.line,
            self.column,
            self.kind.as_str(),
            self.expected,
            self.found
        )
    }
}

impl std::error::Error for ParseError {}
