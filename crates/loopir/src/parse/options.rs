//! Reading text in either dialect, strictly or leniently: the entry point that chooses how
//! to read and says how it read.

use std::ops::Range;

use super::{ParseEnv, ParseError, ParseErrorKind, ParseOptions, Parser, check_bytes};
use crate::dialect::{Dialect, DialectScan, DialectTell, DialectVerdict, scan_dialect};
use crate::stmt::Stmt;

/// What was read from text, and how it was read.
#[derive(Clone, Debug)]
pub struct Parsed<T> {
    /// What was read: IR in the reference's form whatever the text's dialect.
    pub value: T,
    /// The dialect the text was read in.
    pub dialect: Dialect,
    /// What in the text showed the dialect (`None` when it was chosen, or when nothing
    /// told and the reference's was taken).
    pub told_by: Option<DialectTell>,
    /// Whether the text needed the lenient reader (so reprinting it normalizes it).
    pub lenient: bool,
}

/// Parses a statement as `options` say: in the given dialect or the one the text shows,
/// strictly or leniently. See [`crate::dialect`] for how the dialect is told.
pub fn parse_stmt_with_options(
    bytes: &[u8],
    env: &ParseEnv,
    options: ParseOptions,
) -> Result<Parsed<Stmt>, ParseError> {
    check_bytes(bytes)?;
    let plan = DialectPlan::new(bytes, scan_dialect(bytes, 0..bytes.len()), options)?;
    plan.read(|dialect, told_by, lenient| {
        let mut p = Parser::new(bytes, env, dialect, lenient);
        p.told_by = told_by;
        let stmt = p.file()?;
        Ok((stmt, p.late_tell_21.is_some()))
    })
}

/// How a text is to be read: the dialect and whether it was told, chosen or defaulted.
pub(crate) struct DialectPlan {
    dialect: Dialect,
    told_by: Option<DialectTell>,
    /// Nothing chose or told the dialect: a late tell may still switch it.
    defaulted: bool,
    lenient: bool,
}

impl DialectPlan {
    /// Decides the dialect from the options and a scan of the text.
    pub(crate) fn new(
        src: &[u8],
        scan: DialectScan,
        options: ParseOptions,
    ) -> Result<DialectPlan, ParseError> {
        let lenient = options.lenient;
        if let Some(dialect) = options.dialect {
            return Ok(DialectPlan { dialect, told_by: None, defaulted: false, lenient });
        }
        match scan.verdict() {
            DialectVerdict::Told(t) => {
                Ok(DialectPlan { dialect: t.dialect, told_by: Some(t), defaulted: false, lenient })
            }
            DialectVerdict::Untold => {
                Ok(DialectPlan { dialect: Dialect::Reference, told_by: None, defaulted: true, lenient })
            }
            DialectVerdict::Mixed(a, b) => Err(mixed_error(src, a, b)),
        }
    }

    /// Reads the text with `read(dialect, told_by, lenient)`, which returns what it read
    /// and whether it met a late tell of Halide 21 (a transposing `shuffle`). Strict first;
    /// leniently if allowed and the strict reading fails, keeping the error that is further
    /// into the text. A defaulted dialect that meets a late tell reads again as Halide 21.
    pub(crate) fn read<T>(
        &self,
        read: impl Fn(Dialect, Option<DialectTell>, bool) -> Result<(T, bool), ParseError>,
    ) -> Result<Parsed<T>, ParseError> {
        let attempt = |dialect: Dialect| -> Result<(T, bool, bool), ParseError> {
            match read(dialect, self.told_by.clone(), false) {
                Ok((t, late)) => Ok((t, late, false)),
                Err(strict) if self.lenient => match read(dialect, self.told_by.clone(), true) {
                    Ok((t, late)) => Ok((t, late, true)),
                    Err(loose) if loose.offset > strict.offset => Err(loose),
                    Err(_) => Err(strict),
                },
                Err(e) => Err(e),
            }
        };
        let (value, late, lenient) = attempt(self.dialect)?;
        if late && self.defaulted {
            let (value, _, lenient) = attempt(Dialect::Halide21)?;
            return Ok(Parsed { value, dialect: Dialect::Halide21, told_by: None, lenient });
        }
        Ok(Parsed { value, dialect: self.dialect, told_by: self.told_by.clone(), lenient })
    }
}

fn line_of(src: &[u8], span: &Range<usize>) -> usize {
    src[..span.start.min(src.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

/// The error for text with tells of both dialects, at the later of the two.
fn mixed_error(src: &[u8], a: DialectTell, b: DialectTell) -> ParseError {
    let (first, second) = if a.span.start <= b.span.start { (a, b) } else { (b, a) };
    let expected = format!(
        "text in one dialect: line {} has {}, but this is {}",
        line_of(src, &first.span),
        first,
        second
    );
    ParseError::at(src, second.span.start, second.span.len(), ParseErrorKind::Dialect, expected)
}
