//! The two dialects of `.stmt` text: the reference's (Halide at commit 10162e89df, whose
//! IR this crate models) and the release's (Halide 21.0.0, what users of the package
//! registry's Halide have).
//!
//! The IR is always the reference's; the dialect is a property of the text only. The
//! parser converts the release's text on the way in and the printer converts back on the
//! way out, so every pass runs on either dialect and a file reprints in its own.
//!
//! What Halide's printer changed between 21.0.0 and 10162e89df (`src/IRPrinter.cpp`), and
//! what else the text of the two differs in:
//!
//! | | Halide 21.0.0 | reference | Halide commit |
//! |---|---|---|---|
//! | integer immediate, not int32 | `(int64)-1`, `(uint16)3` | `-1_i64`, `3_u16` | 9d5081cfc9 |
//! | boolean immediate | `(uint1)0`, `(uint1)1` | `false`, `true` | 9d5081cfc9 |
//! | `bitwise_and/or/xor` intrinsics | a call, `(uint8)bitwise_and(a, b)` | infix `a & b`, `a \| b`, `a ^ b` | 602a5c042f |
//! | `bitwise_not` intrinsic | a call, `(uint8)bitwise_not(a)` | `~(a)` | 602a5c042f |
//! | loop header | `for (x, min, extent)` | `for (x, min, max)`, max inclusive | f25bfc328d |
//! | transposing shuffle | `shuffle(v, 0, 4, 1, 5, ...)` | `transpose_vector(v, 4)` | dd187a2b9b |
//! | `halide_trace_helper` (not the printer: the tracing pass) | 11 arguments | 12: `thread_id` after the parent id | 2e2336bca9 |
//!
//! A printer change that does not reach `.stmt` files: 1c38f3fab8 added a stream operator
//! for `Tuple`. The module framing (`module name=...`, buffers, `func` headers) is the same
//! in both. Halide 21's intrinsic table has `rewrite_buffer`, the reference's has
//! `strict_cast` and `strict_fma` instead; names print verbatim, so only the parser's guess
//! of a call's type depends on it.
//!
//! The loop bound is the one difference that changes what the same text means:
//! `for (x, 0, n)` runs `n` iterations in Halide 21 and `n + 1` in the reference.
//! [`loop_max_from_extent`] and [`loop_extent_from_max`] convert between the two; the
//! second undoes the first exactly, so a Halide 21 file keeps the exact text of every loop
//! extent through the IR, which holds only a max.

use std::fmt;
use std::ops::Range;
use std::str::FromStr;

use rustc_hash::FxHashSet;

use crate::expr::{BinOp, Expr, ExprKind, ExprNode};
use crate::stmt::Stmt;
use crate::types::Type;
use crate::visit::Visitor;

/// A dialect of `.stmt` text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// The reference compiler's: Halide at commit 10162e89df.
    #[default]
    Reference,
    /// The released Halide 21.0.0's.
    Halide21,
}

impl Dialect {
    /// The name used on the command line (`reference`, `21`).
    pub fn name(self) -> &'static str {
        match self {
            Dialect::Reference => "reference",
            Dialect::Halide21 => "21",
        }
    }

    /// A description for messages.
    pub fn describe(self) -> &'static str {
        match self {
            Dialect::Reference => "the reference's (Halide 10162e89df)",
            Dialect::Halide21 => "Halide 21.0.0's",
        }
    }

    /// Reads a dialect name: `reference` (or `10162e89df`), `21` (or `21.0.0`).
    pub fn from_name(s: &str) -> Option<Dialect> {
        match s {
            "reference" | "ref" | "10162e89df" => Some(Dialect::Reference),
            "21" | "21.0.0" | "halide21" => Some(Dialect::Halide21),
            _ => None,
        }
    }
}

impl fmt::Display for Dialect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Dialect {
    type Err = String;
    fn from_str(s: &str) -> Result<Dialect, String> {
        Dialect::from_name(s).ok_or_else(|| format!("unknown dialect `{s}` (expected `reference` or `21`)"))
    }
}

/// The name of Halide's tracing call.
pub const TRACE_HELPER: &str = "halide_trace_helper";
/// Its argument count in the reference and in Halide 21.0.0.
pub const TRACE_HELPER_ARGS: usize = 12;
/// Halide 21.0.0's argument count of [`TRACE_HELPER`].
pub const TRACE_HELPER_ARGS_21: usize = 11;
/// The position of the `thread_id` argument the reference added (after the parent id).
pub const TRACE_THREAD_ID_ARG: usize = 8;

/// What in a text shows its dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TellKind {
    /// An integer immediate written as a cast: `(uint16)3` (Halide 21).
    CastImmediate,
    /// An integer immediate with a width suffix: `3_u16` (reference).
    SuffixedImmediate,
    /// `true` or `false` (reference).
    BoolLiteral,
    /// An infix bitwise operator `&`, `|`, `^` or `~(` (reference).
    InfixBitwise,
    /// A call of `bitwise_and/or/xor/not` (Halide 21).
    BitwiseCall,
    /// `transpose_vector(` (reference).
    TransposeVector,
    /// A `halide_trace_helper` call with 11 (Halide 21) or 12 (reference) arguments.
    TraceArity(usize),
    /// A loop header whose bound is a `.loop_extent` (Halide 21's lowering) or a
    /// `.loop_max` (the reference's).
    LoopBoundName,
}

impl TellKind {
    /// Whether the tell is a spelling of the printer (strong) rather than a shape of the
    /// IR that lowering produced (weak: a hand-written file may say otherwise).
    pub fn is_spelling(self) -> bool {
        !matches!(self, TellKind::TraceArity(_) | TellKind::LoopBoundName)
    }

    fn describe(self) -> String {
        match self {
            TellKind::CastImmediate => "an integer immediate written as a cast".into(),
            TellKind::SuffixedImmediate => "an integer immediate with a width suffix".into(),
            TellKind::BoolLiteral => "a boolean written `true`/`false`".into(),
            TellKind::InfixBitwise => "an infix bitwise operator".into(),
            TellKind::BitwiseCall => "a bitwise operation written as a call".into(),
            TellKind::TransposeVector => "a `transpose_vector` shuffle".into(),
            TellKind::TraceArity(n) => format!("a `{TRACE_HELPER}` call of {n} arguments"),
            TellKind::LoopBoundName => "a loop bounded by a lowering-made name".into(),
        }
    }
}

/// One place in a text that shows its dialect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DialectTell {
    /// The dialect it shows.
    pub dialect: Dialect,
    /// What it is.
    pub kind: TellKind,
    /// Where it is (byte offset and length).
    pub span: Range<usize>,
    /// The text itself (at most a few dozen bytes).
    pub text: String,
}

impl fmt::Display for DialectTell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, `{}`, as {} text has it", self.kind.describe(), self.text, self.dialect.describe())
    }
}

/// The first tells of each dialect found in a text, spellings and IR shapes apart.
#[derive(Clone, Debug, Default)]
pub struct DialectScan {
    spelling: [Option<DialectTell>; 2],
    shape: [Option<DialectTell>; 2],
}

fn slot(d: Dialect) -> usize {
    match d {
        Dialect::Reference => 0,
        Dialect::Halide21 => 1,
    }
}

/// What a scan says about the dialect of a text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DialectVerdict {
    /// Nothing in the text shows a dialect: it reads the same in both, except for loops.
    Untold,
    /// The text is in this dialect, as the tell shows.
    Told(DialectTell),
    /// The text has tells of both dialects (of the same strength).
    Mixed(DialectTell, DialectTell),
}

impl DialectScan {
    fn record(&mut self, tell: DialectTell) {
        let slots = if tell.kind.is_spelling() { &mut self.spelling } else { &mut self.shape };
        let s = &mut slots[slot(tell.dialect)];
        if s.is_none() {
            *s = Some(tell);
        }
    }

    /// Whether a spelling of the printer has told the dialect.
    pub fn has_spelling(&self) -> bool {
        self.spelling.iter().any(Option::is_some)
    }

    /// Adds what another scan (of another part of the same text) found.
    pub fn merge(&mut self, other: DialectScan) {
        for t in other.spelling.into_iter().chain(other.shape).flatten() {
            self.record(t);
        }
    }

    /// The dialect the tells show. Spellings of the printer decide; shapes of the IR
    /// (trace call arity, loop-bound names) only where no spelling tells.
    pub fn verdict(&self) -> DialectVerdict {
        for slots in [&self.spelling, &self.shape] {
            match (&slots[0], &slots[1]) {
                (Some(a), Some(b)) => return DialectVerdict::Mixed(a.clone(), b.clone()),
                (Some(t), None) | (None, Some(t)) => return DialectVerdict::Told(t.clone()),
                (None, None) => {}
            }
        }
        DialectVerdict::Untold
    }
}

fn is_name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'$' | b':')
}

/// Scans `text[range]` for what shows its dialect. Offsets are into `text`. String
/// literals are skipped; the scan is linear in the length of the range, and stops at the
/// first spelling that tells: the parser, reading in that dialect, then refuses any
/// spelling of the other, naming this one.
pub fn scan_dialect(text: &[u8], range: Range<usize>) -> DialectScan {
    let mut scan = DialectScan::default();
    let end = range.end.min(text.len());
    let mut i = range.start.min(end);
    let mut line_start = true;
    let tell = |scan: &mut DialectScan, dialect, kind, span: Range<usize>| {
        let shown = &text[span.start..span.end.min(span.start + 48)];
        scan.record(DialectTell { dialect, kind, span, text: String::from_utf8_lossy(shown).into_owned() });
    };
    while i < end && !scan.has_spelling() {
        let b = text[i];
        if line_start && b != b' ' {
            line_start = false;
            if let Some(t) = loop_bound_tell(text, i, end) {
                scan.record(t);
            }
        }
        match b {
            b'\n' => {
                line_start = true;
                i += 1;
            }
            b'"' => i = skip_string(text, i, end),
            b'(' => {
                if let Some(len) = int_type_in_parens(&text[i..end]) {
                    let after = i + len;
                    let digit_at = |k: usize| text.get(k).is_some_and(u8::is_ascii_digit) && k < end;
                    if digit_at(after) || (text.get(after) == Some(&b'-') && digit_at(after + 1)) {
                        let lit_end = after
                            + 1
                            + text[after + 1..end].iter().take_while(|b| b.is_ascii_digit()).count();
                        tell(&mut scan, Dialect::Halide21, TellKind::CastImmediate, i..lit_end);
                    }
                    i = after;
                } else {
                    i += 1;
                }
            }
            b'0'..=b'9' => {
                let digits = text[i..end].iter().take_while(|b| b.is_ascii_digit()).count();
                let j = i + digits;
                let suffixed = matches!(text.get(j..j + 2), Some(b"_i" | b"_u"))
                    && text.get(j + 2).is_some_and(u8::is_ascii_digit)
                    && j + 2 < end;
                if suffixed {
                    let k = j + 2 + text[j + 2..end].iter().take_while(|b| b.is_ascii_digit()).count();
                    tell(&mut scan, Dialect::Reference, TellKind::SuffixedImmediate, i..k);
                }
                // Skip the rest of the number (a float's fraction and exponent included).
                i = j + text[j..end].iter().take_while(|&&b| is_name_byte(b)).count();
            }
            b' ' => {
                let rest = &text[i..end];
                if rest.starts_with(b" | ") || rest.starts_with(b" ^ ") || rest.starts_with(b" & ") {
                    tell(&mut scan, Dialect::Reference, TellKind::InfixBitwise, i + 1..i + 2);
                }
                i += 1;
            }
            b'~' => {
                if text.get(i + 1) == Some(&b'(') {
                    tell(&mut scan, Dialect::Reference, TellKind::InfixBitwise, i..i + 2);
                }
                i += 1;
            }
            _ if is_name_byte(b) => {
                let len = text[i..end].iter().take_while(|&&b| is_name_byte(b)).count();
                let word = &text[i..i + len];
                let next = text.get(i + len).copied().filter(|_| i + len < end);
                match word {
                    b"true" | b"false" if next != Some(b'(') && next != Some(b'[') => {
                        tell(&mut scan, Dialect::Reference, TellKind::BoolLiteral, i..i + len);
                    }
                    b"bitwise_and" | b"bitwise_or" | b"bitwise_xor" | b"bitwise_not"
                        if next == Some(b'(') =>
                    {
                        tell(&mut scan, Dialect::Halide21, TellKind::BitwiseCall, i..i + len);
                    }
                    b"transpose_vector" if next == Some(b'(') => {
                        tell(&mut scan, Dialect::Reference, TellKind::TransposeVector, i..i + len);
                    }
                    _ if word == TRACE_HELPER.as_bytes() && next == Some(b'(') => {
                        if let Some(n) = count_args(text, i + len, end) {
                            let dialect = match n {
                                TRACE_HELPER_ARGS => Some(Dialect::Reference),
                                TRACE_HELPER_ARGS_21 => Some(Dialect::Halide21),
                                _ => None,
                            };
                            if let Some(d) = dialect {
                                tell(&mut scan, d, TellKind::TraceArity(n), i..i + len);
                            }
                        }
                    }
                    _ => {}
                }
                i += len;
            }
            _ => i += 1,
        }
    }
    scan
}

/// The end of the string literal starting at `at` (which holds `"`); strings never span
/// lines.
fn skip_string(text: &[u8], at: usize, end: usize) -> usize {
    let mut i = at + 1;
    while i < end {
        match text[i] {
            b'"' => return i + 1,
            b'\\' => i += 2,
            b'\n' => return i,
            _ => i += 1,
        }
    }
    end
}

/// If `text` starts with a scalar integer type in parentheses (`(int64)`, `(uint1)`), its
/// length.
fn int_type_in_parens(text: &[u8]) -> Option<usize> {
    let inner = text.get(1..)?;
    let word = inner.strip_prefix(b"uint").or_else(|| inner.strip_prefix(b"int"))?;
    let digits = word.iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || word.get(digits) != Some(&b')') {
        return None;
    }
    Some(text.len() - word.len() + digits + 1)
}

/// The number of top-level arguments of the call whose `(` is at `open`, if it closes on
/// the same line.
fn count_args(text: &[u8], open: usize, end: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut commas = 0usize;
    let mut i = open;
    while i < end {
        match text[i] {
            b'"' => {
                i = skip_string(text, i, end);
                continue;
            }
            b'(' | b'[' => depth += 1,
            b')' | b']' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    return Some(commas + 1);
                }
            }
            b',' if depth == 1 => commas += 1,
            b'\n' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

const LOOP_KEYWORDS: &[&[u8]] =
    &[b"for", b"parallel", b"vectorized", b"unrolled", b"extern", b"gpu_block", b"gpu_thread", b"gpu_lane"];

/// At the first non-blank byte of a line: a loop header bounded by a name that only one
/// dialect's lowering makes (`f.s0.x.loop_extent` in Halide 21, `f.s0.x.loop_max` in the
/// reference).
fn loop_bound_tell(text: &[u8], at: usize, end: usize) -> Option<DialectTell> {
    let word = text[at..end].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
    if !LOOP_KEYWORDS.contains(&&text[at..at + word]) {
        return None;
    }
    let line_end = text[at..end].iter().position(|&b| b == b'\n').map_or(end, |p| at + p);
    let header = text[at..line_end].strip_suffix(b") {")?;
    let (dialect, suffix): (Dialect, &[u8]) = if header.ends_with(b".loop_extent") {
        (Dialect::Halide21, b".loop_extent")
    } else if header.ends_with(b".loop_max") {
        (Dialect::Reference, b".loop_max")
    } else {
        return None;
    };
    let name_len = header.iter().rev().take_while(|&&b| is_name_byte(b)).count();
    let start = at + header.len() - name_len;
    debug_assert!(name_len >= suffix.len());
    Some(DialectTell {
        dialect,
        kind: TellKind::LoopBoundName,
        span: start..at + header.len(),
        text: String::from_utf8_lossy(&text[start..at + header.len()]).into_owned(),
    })
}

/// IR that has no form in a dialect's text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnwritableError {
    /// The dialect it was to be written in.
    pub dialect: Dialect,
    /// The offending expression, as the reference prints it (shortened).
    pub what: String,
    /// Why it has no form there.
    pub why: &'static str,
}

impl fmt::Display for UnwritableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write `{}` in {} dialect: {}", self.what, self.dialect.describe(), self.why)
    }
}

impl std::error::Error for UnwritableError {}

/// Checks that `stmt` can be written in `dialect` without losing anything. Everything can
/// be written in the reference's; Halide 21.0.0's trace calls have no thread id, so a
/// trace event with a thread id other than 0 (the reference's begin_parallel_task events)
/// cannot. Linear in the IR's DAG.
pub fn check_writable(stmt: &Stmt, dialect: Dialect) -> Result<(), UnwritableError> {
    if dialect == Dialect::Reference {
        return Ok(());
    }
    let mut finder = ThreadIdFinder { seen: FxHashSet::default(), found: None };
    finder.visit_stmt(stmt);
    match finder.found {
        None => Ok(()),
        Some(e) => {
            let mut what = e.to_string();
            if what.len() > 120 {
                let cut = (0..=117).rev().find(|&i| what.is_char_boundary(i)).unwrap_or(0);
                what.truncate(cut);
                what.push_str("...");
            }
            Err(UnwritableError { dialect, what, why: "its trace calls have no thread id argument" })
        }
    }
}

struct ThreadIdFinder {
    seen: FxHashSet<*const ExprNode>,
    found: Option<Expr>,
}

impl Visitor for ThreadIdFinder {
    fn visit_expr(&mut self, e: &Expr) {
        if self.found.is_some() || (e.is_shared() && !self.seen.insert(e.as_ptr())) {
            return;
        }
        if let ExprKind::Call { name, args, .. } = e.kind()
            && name.as_ref() == TRACE_HELPER
            && args.len() == TRACE_HELPER_ARGS
            && args[TRACE_THREAD_ID_ARG].as_int() != Some(0)
        {
            self.found = Some(e.clone());
            return;
        }
        self.super_expr(e);
    }
}

fn add(a: Expr, b: Expr) -> Expr {
    Expr::from_node_unchecked(Type::INT32, ExprKind::Binary(BinOp::Add, a, b))
}

/// `a + c` for a constant int32 `c`: `(a, c)`.
fn plus_constant(e: &Expr) -> Option<(&Expr, i32)> {
    match e.kind() {
        ExprKind::Binary(BinOp::Add, a, b) => int32_of(b).map(|c| (a, c)),
        _ => None,
    }
}

fn int32_of(e: &Expr) -> Option<i32> {
    match e.kind() {
        ExprKind::IntImm(v) if e.ty().is_int32() => i32::try_from(*v).ok(),
        _ => None,
    }
}

/// The inclusive max of a loop written `for (x, min, extent)`.
///
/// An extent that [`loop_extent_from_max`] would write for some max (`(max - min) + 1`,
/// `max + 1` when `min` is 0) gives that max back, so text converted from the reference's
/// dialect converts back unchanged. Any other extent gives `min + extent - 1` in the shape
/// the reference's simplifier leaves it:
/// - both constant: the folded constant;
/// - `min` is 0: `extent + -1`;
/// - `extent` is 1: `min`; another constant k: `min + (k - 1)`;
/// - otherwise `(min + extent) + -1`.
///
/// Either way [`loop_extent_from_max`] gives `extent` back from the result, exactly.
pub fn loop_max_from_extent(min: &Expr, extent: &Expr) -> Expr {
    if let Some(max) = written_max(min, extent)
        && loop_extent_from_max(min, &max) == *extent
    {
        return max;
    }
    let (m, e) = (int32_of(min), int32_of(extent));
    if let (Some(m), Some(e)) = (m, e)
        && let Ok(max) = i32::try_from(i64::from(m) + i64::from(e) - 1)
    {
        return Expr::i32(max);
    }
    if m == Some(0) {
        return add(extent.clone(), Expr::i32(-1));
    }
    match e {
        Some(1) => min.clone(),
        Some(k) if k != i32::MIN => add(min.clone(), Expr::i32(k - 1)),
        _ => add(add(min.clone(), extent.clone()), Expr::i32(-1)),
    }
}

/// If `extent` has the shape [`loop_extent_from_max`] writes for a max it cannot
/// otherwise undo (`(max - min) + 1`, or `max + 1` when `min` is 0), that max.
fn written_max(min: &Expr, extent: &Expr) -> Option<Expr> {
    let (a, 1) = plus_constant(extent)? else { return None };
    if int32_of(min) == Some(0) {
        return Some(a.clone());
    }
    match a.kind() {
        ExprKind::Binary(BinOp::Sub, max, lo) if lo == min => Some(max.clone()),
        _ => None,
    }
}

/// The extent of a loop `for (x, min, max)`: the inverse of [`loop_max_from_extent`] on
/// everything that function makes, and `(max - min) + 1` (folded where constant, `max + 1`
/// when `min` is 0) for any other max.
pub fn loop_extent_from_max(min: &Expr, max: &Expr) -> Expr {
    let m = int32_of(min);
    if let (Some(m), Some(x)) = (m, int32_of(max))
        && let Ok(e) = i32::try_from(i64::from(x) - i64::from(m) + 1)
    {
        return Expr::i32(e);
    }
    if m == Some(0) {
        return match plus_constant(max) {
            Some((x, -1)) => x.clone(),
            _ => add(max.clone(), Expr::i32(1)),
        };
    }
    if max == min {
        return Expr::i32(1);
    }
    if let Some((a, c)) = plus_constant(max) {
        if a == min
            && let Some(k) = c.checked_add(1)
        {
            return Expr::i32(k);
        }
        if c == -1
            && let ExprKind::Binary(BinOp::Add, lo, x) = a.kind()
            && lo == min
        {
            return x.clone();
        }
    }
    let diff = Expr::from_node_unchecked(Type::INT32, ExprKind::Binary(BinOp::Sub, max.clone(), min.clone()));
    add(diff, Expr::i32(1))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse_expr;

    fn e(text: &str) -> Expr {
        parse_expr(text).unwrap_or_else(|err| panic!("{text}: {err}"))
    }

    #[test]
    fn extent_comes_back_from_max_exactly() {
        let mins = ["0", "3", "-2147483648", "y", "f.min.0 + 1", "(y + 1) + -1", "2147483647"];
        let extents = [
            "0",
            "1",
            "7",
            "-3",
            "2147483647",
            "-2147483648",
            "n",
            "n + -1",
            "n + 1",
            "(n + -1) + 1",
            "y",
            "y + 1",
            "(y + n) + -1",
            "max(n, 1)",
        ];
        for min in mins {
            for extent in extents {
                let (min, extent) = (e(min), e(extent));
                let max = loop_max_from_extent(&min, &extent);
                let back = loop_extent_from_max(&min, &max);
                assert!(back == extent, "min {min}, extent {extent}: max {max}, extent back {back}");
            }
        }
    }

    #[test]
    fn max_is_in_the_simplifier_s_shape() {
        let show = |min: &str, extent: &str| loop_max_from_extent(&e(min), &e(extent)).to_string();
        assert_eq!(show("0", "10"), "9");
        assert_eq!(show("0", "n"), "(n + -1)");
        assert_eq!(show("y", "4"), "(y + 3)");
        assert_eq!(show("y", "1"), "y");
        assert_eq!(show("y", "n"), "((y + n) + -1)");
        // Past the int32 range the constant is not folded.
        assert_eq!(show("2147483647", "2"), "(2147483647 + 1)");
        // What a max converts to converts back to it.
        assert_eq!(show("0", "n + 1"), "n");
        assert_eq!(show("y", "(n - y) + 1"), "n");
        assert_eq!(show("y", "(n - z) + 1"), "((y + ((n - z) + 1)) + -1)");
        assert_eq!(show("0", "(n + -1) + 1"), "(((n + -1) + 1) + -1)");
    }

    #[test]
    fn a_max_converts_back_to_itself() {
        for min in ["0", "5", "y", "y + 1"] {
            for max in ["0", "9", "n", "n + -1", "n + 1", "y", "(y + n) + -1", "max(n, y)", "(n - y) + 1"] {
                let (min, max) = (e(min), e(max));
                let back = loop_max_from_extent(&min, &loop_extent_from_max(&min, &max));
                // Exact unless the max has the shape of one made from an extent, whose
                // extent is then read back (an equal max).
                if back != max {
                    assert_eq!(
                        loop_extent_from_max(&min, &back),
                        loop_extent_from_max(&min, &max),
                        "{min} {max}"
                    );
                }
            }
        }
        let (min, max) = (e("f.s0.x.loop_min"), e("f.s0.x.loop_max"));
        assert!(loop_max_from_extent(&min, &loop_extent_from_max(&min, &max)) == max);
    }

    #[test]
    fn any_max_gives_an_equal_extent() {
        let show = |min: &str, max: &str| loop_extent_from_max(&e(min), &e(max)).to_string();
        assert_eq!(show("0", "n"), "(n + 1)");
        assert_eq!(show("1", "9"), "9");
        assert_eq!(show("y", "n"), "((n - y) + 1)");
        assert_eq!(show("y", "(y + n) + 5"), "((((y + n) + 5) - y) + 1)");
    }

    fn verdict(text: &str) -> DialectVerdict {
        scan_dialect(text.as_bytes(), 0..text.len()).verdict()
    }

    fn told(text: &str) -> Option<(Dialect, TellKind, String)> {
        match verdict(text) {
            DialectVerdict::Told(t) => Some((t.dialect, t.kind, t.text)),
            _ => None,
        }
    }

    #[test]
    fn spellings_tell() {
        use Dialect::{Halide21 as H, Reference as R};
        assert_eq!(told("x = (uint16)3 + y\n"), Some((H, TellKind::CastImmediate, "(uint16)3".into())));
        assert_eq!(told("x = (int64)-1\n"), Some((H, TellKind::CastImmediate, "(int64)-1".into())));
        assert_eq!(told("if ((uint1)1) {\n"), Some((H, TellKind::CastImmediate, "(uint1)1".into())));
        assert_eq!(told("x = 3_u16 + y\n"), Some((R, TellKind::SuffixedImmediate, "3_u16".into())));
        assert_eq!(told("x = -1_i64\n"), Some((R, TellKind::SuffixedImmediate, "1_i64".into())));
        assert_eq!(told("assert(true, f())\n"), Some((R, TellKind::BoolLiteral, "true".into())));
        assert_eq!(told("x = a | b\n"), Some((R, TellKind::InfixBitwise, "|".into())));
        assert_eq!(told("x = ~(a)\n"), Some((R, TellKind::InfixBitwise, "~(".into())));
        assert_eq!(
            told("x = (uint8)bitwise_and(a, b)\n"),
            Some((H, TellKind::BitwiseCall, "bitwise_and".into()))
        );
        assert_eq!(
            told("x = transpose_vector(v, 2)\n"),
            Some((R, TellKind::TransposeVector, "transpose_vector".into()))
        );
    }

    #[test]
    fn look_alikes_do_not_tell() {
        for text in [
            "f(x) = (uint16)f.s0.x\n",           // a typed variable
            "f(x) = (uint16x8)3\n",              // not an immediate form of either
            "x = t12_u8 + y\n",                  // a name
            "x = \"3_u16 (uint16)3 true\"\n",    // inside a string
            "x = a || (b && c)\n",               // logical operators
            "x = 1.500000e-07f + 0.000000h\n",   // floats
            "x = true_value + f.true\n",         // names containing true
            "for (x, 0, 10) {\n y(x) = 1\n}\n",  // loops alone
            "x = (struct halide_buffer_t *)b\n", // handles
        ] {
            assert_eq!(verdict(text), DialectVerdict::Untold, "{text}");
        }
    }

    #[test]
    fn shapes_tell_only_without_spellings() {
        let trace11 = "halide_trace_helper(\"f\", a, b, 3, 0, 0, 2, p, 0, 0, \"\")\n";
        let trace12 = "halide_trace_helper(\"f\", a, b, 3, 0, 0, 2, p, 0, 0, 0, \"\")\n";
        assert_eq!(told(trace11).map(|t| t.0), Some(Dialect::Halide21));
        assert_eq!(told(trace12).map(|t| t.0), Some(Dialect::Reference));
        let loop21 = "for (f.s0.x, f.s0.x.loop_min, f.s0.x.loop_extent) {\n 0\n}\n";
        assert_eq!(
            told(loop21),
            Some((Dialect::Halide21, TellKind::LoopBoundName, "f.s0.x.loop_extent".into()))
        );
        let loop_ref = " gpu_block<CUDA> (f.s0.x, f.s0.x.loop_min, f.s0.x.loop_max) {\n";
        assert_eq!(told(loop_ref).map(|t| t.0), Some(Dialect::Reference));
        // A spelling outweighs a shape.
        assert_eq!(told(&format!("{trace11}x = 3_u8\n")).map(|t| t.0), Some(Dialect::Reference));
    }

    #[test]
    fn the_first_spelling_decides() {
        // (Reading the rest in that dialect finds the other's spellings.)
        assert_eq!(told("x = (uint16)3\ny = 3_u16\n").map(|t| t.0), Some(Dialect::Halide21));
        let trace11 = "halide_trace_helper(\"f\", a, b, 3, 0, 0, 2, p, 0, 0, \"\")\n";
        let trace12 = "halide_trace_helper(\"f\", a, b, 3, 0, 0, 2, p, 0, 0, 0, \"\")\n";
        match verdict(&format!("{trace11}{trace12}")) {
            DialectVerdict::Mixed(a, b) => {
                assert_eq!(a.dialect, Dialect::Reference);
                assert_eq!(b.dialect, Dialect::Halide21);
            }
            v => panic!("{v:?}"),
        }
    }
}
