//! Expressions: the top of a statement-level position holds at most one bare infix
//! operator (implicit mode); everything nested is parenthesised (wanted mode).

use std::sync::Arc;

use super::{Binding, ParseError, ParseErrorKind, Parser, Typed};
use crate::dialect::{Dialect, TRACE_HELPER, TRACE_HELPER_ARGS_21, TRACE_THREAD_ID_ARG};
use crate::expr::{BinOp, CallType, Expr, ExprKind, ModulusRemainder, Name, VectorReduceOp};
use crate::intrinsic::Intrinsic;
use crate::print::{ShuffleForm, classify_shuffle};
use crate::stack::with_stack;
use crate::types::{Type, TypeCode};

/// An infix operator: a binary node or one of the bitwise intrinsic calls.
#[derive(Clone, Copy)]
enum Infix {
    Bin(BinOp),
    Bitwise(Intrinsic),
}

/// Infix spellings, longest first where one is a prefix of another.
const INFIXES: &[(&str, Infix)] = &[
    (" + ", Infix::Bin(BinOp::Add)),
    (" - ", Infix::Bin(BinOp::Sub)),
    ("*", Infix::Bin(BinOp::Mul)),
    ("/", Infix::Bin(BinOp::Div)),
    (" % ", Infix::Bin(BinOp::Mod)),
    (" == ", Infix::Bin(BinOp::Eq)),
    (" != ", Infix::Bin(BinOp::Ne)),
    (" <= ", Infix::Bin(BinOp::Le)),
    (" < ", Infix::Bin(BinOp::Lt)),
    (" >= ", Infix::Bin(BinOp::Ge)),
    (" > ", Infix::Bin(BinOp::Gt)),
    (" && ", Infix::Bin(BinOp::And)),
    (" || ", Infix::Bin(BinOp::Or)),
    (" | ", Infix::Bitwise(Intrinsic::BitwiseOr)),
    (" & ", Infix::Bitwise(Intrinsic::BitwiseAnd)),
    (" ^ ", Infix::Bitwise(Intrinsic::BitwiseXor)),
];

fn sure(e: Expr) -> Typed {
    Typed { e, sure: true }
}

/// Gives an expression whose type was only guessed the type `ty`, where its shape allows.
pub(crate) fn retype(e: &Expr, ty: Type) -> Expr {
    if e.ty() == ty {
        return e.clone();
    }
    with_stack(|| {
        let kind = match e.kind() {
            ExprKind::Variable(n) => ExprKind::Variable(n.clone()),
            ExprKind::Load { name, index, predicate, alignment } => ExprKind::Load {
                name: name.clone(),
                index: index.clone(),
                predicate: predicate.clone(),
                alignment: *alignment,
            },
            ExprKind::Call { name, args, call_type, value_index } => ExprKind::Call {
                name: name.clone(),
                args: args.clone(),
                call_type: *call_type,
                value_index: *value_index,
            },
            ExprKind::Binary(op, a, b) if !op.is_comparison() && !op.is_logical() => {
                ExprKind::Binary(*op, retype(a, ty), retype(b, ty))
            }
            ExprKind::Select(c, t, f) => ExprKind::Select(c.clone(), retype(t, ty), retype(f, ty)),
            ExprKind::Let { name, value, body } => {
                ExprKind::Let { name: name.clone(), value: value.clone(), body: retype(body, ty) }
            }
            ExprKind::Broadcast { value, lanes } if ty.lanes().is_multiple_of(*lanes) => {
                ExprKind::Broadcast {
                    value: retype(value, ty.with_lanes(ty.lanes() / *lanes)),
                    lanes: *lanes,
                }
            }
            _ => return e.clone(),
        };
        Expr::from_node_unchecked(ty, kind)
    })
}

/// Rounds `v` to the nearest value with `precision` significand bits and a smallest
/// normal exponent `min_exp`, ties to even (overflow gives infinity). Used for the 16-bit
/// float immediates, whose stored value is the exact widening of the narrow value.
fn round_to_narrow_float(v: f64, precision: i32, min_exp: i32, max_exp: i32) -> f64 {
    if !v.is_finite() || v == 0.0 {
        return v;
    }
    let a = v.abs();
    let exp = (((a.to_bits() >> 52) & 0x7ff) as i32 - 1023).max(min_exp);
    let quantum = 2f64.powi(exp - (precision - 1));
    let r = (a / quantum).round_ties_even() * quantum;
    let r = if r >= 2f64.powi(max_exp + 1) { f64::INFINITY } else { r };
    r.copysign(v)
}

/// The float16 nearest to `v`, as a double.
pub(crate) fn round_to_f16(v: f64) -> f64 {
    round_to_narrow_float(v, 11, -14, 15)
}

/// The bfloat16 nearest to `v`, as a double.
pub(crate) fn round_to_bf16(v: f64) -> f64 {
    round_to_narrow_float(v, 8, -126, 127)
}

/// An `h` immediate (or a broadcast of one) read as float16, retyped to bfloat16 with
/// `lanes` lanes: both print the same, so a bfloat16 sibling decides (spec E7).
fn as_bfloat16(e: &Expr, lanes: u16) -> Option<Expr> {
    let t = e.ty();
    if t.code() != TypeCode::Float || t.bits() != 16 || t.lanes() != lanes {
        return None;
    }
    match e.kind() {
        ExprKind::FloatImm(v) => {
            Some(Expr::from_node_unchecked(Type::bfloat(16, 1), ExprKind::FloatImm(round_to_bf16(*v))))
        }
        ExprKind::Broadcast { value, lanes: l } => {
            let v = as_bfloat16(value, value.ty().lanes())?;
            Some(Expr::from_node_unchecked(
                Type::bfloat(16, lanes),
                ExprKind::Broadcast { value: v, lanes: *l },
            ))
        }
        _ => None,
    }
}

/// The value of float literal `text` that prints as `text` again: `v` (the value nearest
/// to the decimal) unless that prints differently and a neighbour of the same type does.
///
/// Halide prints a float with six decimals, or in scientific form below 1e-6, so a
/// printed value near that threshold can read back as its neighbour on the other side:
/// `0.000001f` (printed for 1.00003e-6) reads as the float nearest to 1e-6, which lies
/// below it and prints as `1.000000e-06f`. Picking the neighbour that prints as the text
/// keeps reading and reprinting printed text a fixed point.
fn printing_as(text: &str, ty: Type, v: f64) -> f64 {
    let prints_as_text = |c: f64| crate::print::format_float(c) == text;
    if !v.is_finite() || prints_as_text(v) {
        return v;
    }
    // Nearest first, a few ulps each way: `log10`, which decides the form, is flat over
    // several ulps of a double at the threshold.
    let (mut up, mut down) = (v, v);
    for _ in 0..64 {
        (up, down) = match ty.bits() {
            32 => (f64::from((up as f32).next_up()), f64::from((down as f32).next_down())),
            64 => (up.next_up(), down.next_down()),
            _ => return v,
        };
        if let Some(c) = [up, down].into_iter().find(|c| prints_as_text(*c)) {
            return c;
        }
    }
    v
}

/// Makes two operands agree in type when one of them was only guessed.
fn unify(a: Typed, b: Typed) -> (Expr, Expr, bool) {
    let is_bf16 = |e: &Expr| e.ty().code() == TypeCode::BFloat && e.ty().bits() == 16;
    if is_bf16(&a.e)
        && let Some(nb) = as_bfloat16(&b.e, a.e.ty().lanes())
    {
        return (a.e, nb, true);
    }
    if is_bf16(&b.e)
        && let Some(na) = as_bfloat16(&a.e, b.e.ty().lanes())
    {
        return (na, b.e, true);
    }
    if a.e.ty() == b.e.ty() || a.sure == b.sure {
        let s = a.sure || b.sure;
        return (a.e, b.e, s);
    }
    if a.sure {
        let nb = retype(&b.e, a.e.ty());
        (a.e, nb, true)
    } else {
        let na = retype(&a.e, b.e.ty());
        (na, b.e, true)
    }
}

fn binary(op: BinOp, a: Typed, b: Typed) -> Typed {
    let (a, b, s) = unify(a, b);
    let ty = if op.is_comparison() { Type::bool(a.ty().lanes()) } else { a.ty() };
    let s = s || op.is_comparison() || op.is_logical();
    Typed { e: Expr::from_node_unchecked(ty, ExprKind::Binary(op, a, b)), sure: s }
}

fn bitwise(op: Intrinsic, a: Typed, b: Typed) -> Typed {
    let (a, b, s) = unify(a, b);
    let ty = a.ty();
    Typed { e: op.call(ty, vec![a, b]), sure: s }
}

impl<'a> Parser<'a> {
    /// An expression in implicit mode (E0): a let, a predicated load, one infix operation,
    /// or a unary expression.
    pub(crate) fn expr_implicit(&mut self) -> Result<Typed, ParseError> {
        if self.at("let ") {
            return self.let_expr();
        }
        let lhs = self.unary()?;
        let lhs = if matches!(lhs.e.kind(), ExprKind::Load { .. }) && self.eat(" if ") {
            let pred = self.unary()?;
            let ExprKind::Load { name, index, alignment, .. } = lhs.e.kind() else { return Ok(lhs) };
            Typed {
                e: Expr::from_node_unchecked(
                    lhs.e.ty(),
                    ExprKind::Load {
                        name: name.clone(),
                        index: index.clone(),
                        predicate: pred.e,
                        alignment: *alignment,
                    },
                ),
                sure: lhs.sure,
            }
        } else {
            lhs
        };
        let op_at = self.pos;
        let Some(op) = self.infix() else { return Ok(lhs) };
        let op_span = op_at..self.pos;
        if let Infix::Bitwise(intrinsic) = op
            && self.dialect == Dialect::Halide21
        {
            let text = String::from_utf8_lossy(&self.src[op_span.clone()]).trim().to_owned();
            let lead = self.src[op_span.clone()].iter().take_while(|b| **b == b' ').count();
            return Err(self.dialect_error(
                op_at + lead,
                text.len(),
                &format!("infix `{text}` is the reference's spelling"),
                &format!("a call `{}(a, b)`", intrinsic.name()),
            ));
        }
        let rhs = self.unary()?;
        let arithmetic = match op {
            Infix::Bin(op) => !op.is_comparison() && !op.is_logical(),
            Infix::Bitwise(_) => true,
        };
        if arithmetic {
            self.no_handle_operands(op_span, &lhs, &rhs)?;
        }
        Ok(match op {
            Infix::Bin(op) => binary(op, lhs, rhs),
            Infix::Bitwise(name) => bitwise(name, lhs, rhs),
        })
    }

    /// Arithmetic is not defined on handles (Halide rejects it where the IR is built).
    /// Without this check, an operand whose type was only guessed would take the handle
    /// type of the other, and a vector of handles has no printed form that reads back.
    /// `op` is the operator's text (its surrounding spaces are not pointed at).
    fn no_handle_operands(&self, op: std::ops::Range<usize>, a: &Typed, b: &Typed) -> Result<(), ParseError> {
        if a.e.ty().is_handle() || b.e.ty().is_handle() {
            let text = &self.src[op.clone()];
            let lead = text.iter().take_while(|b| **b == b' ').count();
            return Err(self.error_at(
                op.start + lead,
                text.trim_ascii().len(),
                ParseErrorKind::InvalidNode,
                "arithmetic on numbers, not on handles",
            ));
        }
        Ok(())
    }

    fn infix(&mut self) -> Option<Infix> {
        if self.lenient {
            // Any spaces, or none, around the operator.
            let save = self.pos;
            for (text, op) in INFIXES {
                if self.eat(text) {
                    return Some(*op);
                }
            }
            self.pos = save;
            return None;
        }
        let b = self.peek()?;
        if b != b' ' && b != b'*' && b != b'/' {
            return None;
        }
        for (text, op) in INFIXES {
            if self.at(text) {
                self.pos += text.len();
                return Some(*op);
            }
        }
        None
    }

    /// `let name = E1 in E1`.
    fn let_expr(&mut self) -> Result<Typed, ParseError> {
        self.expect("let ")?;
        let name = self.name()?;
        self.expect(" = ")?;
        let value = self.unary()?;
        self.expect(" in ")?;
        self.push_binding(&name, Binding::Value(value.e.ty(), value.sure));
        let body = self.unary();
        self.pop_binding(&name);
        let body = body?;
        let e = Expr::from_node_unchecked(body.e.ty(), ExprKind::Let { name, value: value.e, body: body.e });
        Ok(Typed { e, sure: body.sure })
    }

    /// A unary expression (E1): anything that is not a bare infix operation.
    pub(crate) fn unary(&mut self) -> Result<Typed, ParseError> {
        with_stack(|| self.unary_inner())
    }

    fn unary_inner(&mut self) -> Result<Typed, ParseError> {
        self.skip_spaces();
        let Some(b) = self.peek() else {
            return Err(self.error(ParseErrorKind::UnexpectedEof, "an expression"));
        };
        match b {
            b'(' => self.paren_or_prefixed(),
            b'!' => {
                self.pos += 1;
                let a = self.unary()?;
                let ty = a.e.ty();
                Ok(sure(Expr::from_node_unchecked(Type::bool(ty.lanes()), ExprKind::Not(a.e))))
            }
            b'~' => {
                if self.dialect == Dialect::Halide21 {
                    return Err(self.dialect_error(
                        self.pos,
                        1,
                        "`~(a)` is the reference's spelling",
                        "a call `bitwise_not(a)`",
                    ));
                }
                self.expect("~(")?;
                let a = self.expr_implicit()?;
                self.expect(")")?;
                let ty = a.e.ty();
                let e = Intrinsic::BitwiseNot.call(ty, vec![a.e]);
                Ok(Typed { e, sure: a.sure })
            }
            b'"' => self.string(),
            b'-' | b'0'..=b'9' => self.number(),
            _ => self.word(),
        }
    }

    fn string(&mut self) -> Result<Typed, ParseError> {
        let start = self.pos;
        self.pos += 1;
        let mut bytes = Vec::new();
        loop {
            let Some(b) = self.peek() else {
                return Err(self.error_at(
                    start,
                    1,
                    ParseErrorKind::UnexpectedEof,
                    "the closing `\"` of this string",
                ));
            };
            match b {
                b'"' => {
                    self.pos += 1;
                    break;
                }
                b'\n' => {
                    return Err(self.error(ParseErrorKind::UnexpectedText, "the closing `\"` of the string"));
                }
                b'\\' => {
                    let esc = self.peek_at(1);
                    let out = match esc {
                        Some(b'"') => b'"',
                        Some(b'\\') => b'\\',
                        Some(b't') => b'\t',
                        Some(b'r') => b'\r',
                        Some(b'n') => b'\n',
                        Some(b'x') => {
                            let hex = |b: Option<u8>| b.and_then(|b| (b as char).to_digit(16));
                            match (hex(self.peek_at(2)), hex(self.peek_at(3))) {
                                (Some(h), Some(l)) => {
                                    self.pos += 2;
                                    (h * 16 + l) as u8
                                }
                                _ => {
                                    return Err(self.error(
                                        ParseErrorKind::InvalidLiteral,
                                        "two hexadecimal digits after `\\x`",
                                    ));
                                }
                            }
                        }
                        _ => {
                            return Err(self.error(
                                ParseErrorKind::InvalidLiteral,
                                "an escape: `\\\"`, `\\\\`, `\\t`, `\\r`, `\\n` or `\\xHH`",
                            ));
                        }
                    };
                    self.pos += 2;
                    bytes.push(out);
                }
                _ => {
                    bytes.push(b);
                    self.pos += 1;
                }
            }
        }
        Ok(sure(Expr::from_node_unchecked(Type::c_string(), ExprKind::StringImm(Arc::from(bytes)))))
    }

    fn number(&mut self) -> Result<Typed, ParseError> {
        let start = self.pos;
        let neg = self.eat("-");
        if self.at("inf") || self.at("nan") {
            return self.special_float(start, neg);
        }
        if !self.peek().is_some_and(|b| b.is_ascii_digit()) {
            return Err(self.error_at(start, 1, ParseErrorKind::UnexpectedText, "an expression"));
        }
        while self.peek().is_some_and(|b| b.is_ascii_digit()) {
            self.pos += 1;
        }
        if self.peek() == Some(b'.') {
            self.pos += 1;
            while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                self.pos += 1;
            }
            if self.peek() == Some(b'e') {
                self.pos += 1;
                if !self.eat("+") {
                    self.eat("-");
                }
                while self.peek().is_some_and(|b| b.is_ascii_digit()) {
                    self.pos += 1;
                }
            }
            let text = std::str::from_utf8(&self.src[start..self.pos]).unwrap_or("");
            let bad = |p: &Self| {
                p.error_at(start, p.pos - start, ParseErrorKind::InvalidLiteral, "a float literal")
            };
            let (ty, v) = if self.eat("f") {
                (Type::float(32, 1), text.parse::<f32>().map_err(|_| bad(self))? as f64)
            } else if self.eat("h") {
                (Type::float(16, 1), round_to_f16(text.parse::<f64>().map_err(|_| bad(self))?))
            } else {
                (Type::float(64, 1), text.parse::<f64>().map_err(|_| bad(self))?)
            };
            self.no_trailing_name(start)?;
            let v = printing_as(text, ty, v);
            return Ok(sure(Expr::from_node_unchecked(ty, ExprKind::FloatImm(v))));
        }
        let digits_end = self.pos;
        let text = std::str::from_utf8(&self.src[start..digits_end]).unwrap_or("");
        let e = if self.at("_i") || self.at("_u") {
            let signed = self.at("_i");
            if self.dialect == Dialect::Halide21 {
                let lit =
                    self.pos + 2 + self.src[self.pos + 2..].iter().take_while(|b| b.is_ascii_digit()).count();
                let text = String::from_utf8_lossy(&self.src[start..lit]).into_owned();
                let (value, bits) = text.split_once('_').unwrap_or((&text, ""));
                let ty = if signed { "int" } else { "uint" };
                return Err(self.dialect_error(
                    start,
                    lit - start,
                    &format!("`{text}` is the reference's spelling of an immediate"),
                    &format!("`({ty}{}){value}`", &bits[1.min(bits.len())..]),
                ));
            }
            self.pos += 2;
            let bits_start = self.pos;
            let bits = self.uint()?;
            let ty = u8::try_from(bits)
                .ok()
                .and_then(|b| {
                    if signed {
                        Type::try_new(TypeCode::Int, b, 1).ok()
                    } else {
                        Type::try_new(TypeCode::UInt, b, 1).ok()
                    }
                })
                .ok_or_else(|| {
                    self.error_at(
                        bits_start,
                        self.pos - bits_start,
                        ParseErrorKind::InvalidLiteral,
                        "a bit width from 1 to 64",
                    )
                })?;
            let value = if signed {
                text.parse::<i64>().ok().and_then(|v| Expr::int_imm(ty, v).ok())
            } else {
                text.parse::<u64>().ok().and_then(|v| Expr::uint_imm(ty, v).ok())
            };
            value.ok_or_else(|| {
                self.error_at(
                    start,
                    self.pos - start,
                    ParseErrorKind::InvalidLiteral,
                    &format!("a value that fits in {ty}"),
                )
            })?
        } else {
            let v: i32 = text.parse().map_err(|_| {
                self.error_at(
                    start,
                    digits_end - start,
                    ParseErrorKind::InvalidLiteral,
                    "an int32 literal (other widths carry a suffix such as `_i64`)",
                )
            })?;
            Expr::i32(v)
        };
        self.no_trailing_name(start)?;
        Ok(sure(e))
    }

    fn no_trailing_name(&self, start: usize) -> Result<(), ParseError> {
        if self.peek().is_some_and(Self::is_name_byte) {
            return Err(self.error_at(
                start,
                self.pos - start + 1,
                ParseErrorKind::InvalidLiteral,
                "a literal followed by an operator or delimiter",
            ));
        }
        Ok(())
    }

    fn special_float(&mut self, start: usize, neg: bool) -> Result<Typed, ParseError> {
        let is_nan = self.at("nan");
        self.pos += 3;
        let mut v = if is_nan { f64::NAN } else { f64::INFINITY };
        if neg {
            v = -v;
        }
        let ty = if self.eat("f") {
            Type::float(32, 1)
        } else if self.eat("h") {
            Type::float(16, 1)
        } else {
            Type::float(64, 1)
        };
        self.no_trailing_name(start)?;
        Ok(sure(Expr::from_node_unchecked(ty, ExprKind::FloatImm(v))))
    }

    /// `(` starts a type prefix, a doubled prefix of a handle load, or a parenthesised E0.
    fn paren_or_prefixed(&mut self) -> Result<Typed, ParseError> {
        let start = self.pos;
        if let Some((ty, len)) = self.scalar_type_prefix() {
            self.pos += len;
            return self.after_prefix(ty, start);
        }
        if let Some(end) = self.ctype_end(self.pos)
            && !self.redundant_parentheses(end)
        {
            self.type_spelling(false)?;
            let inner = &self.src[start + 1..end];
            let ty = Type::handle(self.ctype(inner), 1);
            if self.peek() == Some(b'(') {
                // A cast to a handle type: `(void *)(x)`.
                self.pos += 1;
                let a = self.expr_implicit()?;
                self.expect(")")?;
                return Ok(sure(Expr::from_node_unchecked(ty, ExprKind::Cast(a.e))));
            }
            return self.after_prefix(ty, start);
        }
        // `((void *))name[...]`: a load of handles.
        if self.peek_at(1) == Some(b'(')
            && let Some(end) = self.ctype_end(self.pos + 1)
            && self.src.get(end + 1) == Some(&b')')
        {
            self.pos += 1;
            let ty = self.type_spelling(true)?;
            self.expect(")")?;
            let name = self.name()?;
            return self.load_rest(name, Some(ty));
        }
        self.pos += 1;
        let inner = self.expr_implicit()?;
        self.skip_spaces();
        if self.peek() != Some(b')') {
            return Err(self.error(ParseErrorKind::UnexpectedText, "`)` or an infix operator"));
        }
        self.pos += 1;
        Ok(inner)
    }

    /// Whether an integer literal (digits, or `-` and digits) starts at the cursor.
    fn at_integer(&self) -> bool {
        match self.peek() {
            Some(b) if b.is_ascii_digit() => true,
            Some(b'-') => self.peek_at(1).is_some_and(|b| b.is_ascii_digit()),
            _ => false,
        }
    }

    /// Halide 21.0.0's integer immediate of a type other than int32, `(uint16)3` or
    /// `(uint1)0` (the prefix already read from `start`); an error in the reference's
    /// dialect, which writes `3_u16` and `false`.
    fn cast_immediate(&mut self, ty: Type, start: usize) -> Result<Typed, ParseError> {
        let digits_at = self.pos + usize::from(self.peek() == Some(b'-'));
        let end = digits_at + self.src[digits_at..].iter().take_while(|b| b.is_ascii_digit()).count();
        let text = String::from_utf8_lossy(&self.src[self.pos..end]).into_owned();
        if self.dialect == Dialect::Reference {
            let reference = match (ty.is_bool(), ty.is_uint()) {
                (true, _) if text == "0" => "`false`".to_owned(),
                (true, _) => "`true`".to_owned(),
                (false, true) => format!("`{text}_u{}`", ty.bits()),
                (false, false) => format!("`{text}_i{}`", ty.bits()),
            };
            let written = String::from_utf8_lossy(&self.src[start..end]).into_owned();
            return Err(self.dialect_error(
                start,
                end - start,
                &format!("`{written}` is Halide 21.0.0's spelling of an immediate"),
                &reference,
            ));
        }
        let value = if ty.is_uint() {
            text.parse::<u64>().ok().and_then(|v| Expr::uint_imm(ty, v).ok())
        } else {
            text.parse::<i64>().ok().and_then(|v| Expr::int_imm(ty, v).ok())
        };
        let Some(e) = value else {
            return Err(self.error_at(
                self.pos,
                end - self.pos,
                ParseErrorKind::InvalidLiteral,
                &format!("a value that fits in {ty}"),
            ));
        };
        self.pos = end;
        self.no_trailing_name(start)?;
        Ok(sure(e))
    }

    /// Whether the parenthesised word ending at `end` (its `)`) is, leniently, a
    /// redundant pair of parentheses around a name (`f[(x)]`) rather than the spelling of
    /// a C type: nothing that follows a type prefix follows it.
    fn redundant_parentheses(&self, end: usize) -> bool {
        if !self.lenient {
            return false;
        }
        let inner = &self.src[self.pos + 1..end];
        if !inner.iter().all(|&b| Self::is_name_byte(b)) {
            return false;
        }
        let after = self.src[end + 1..].iter().find(|b| **b != b' ' && **b != b'\t');
        !after.is_some_and(|&b| b == b'(' || b == b'[' || Self::is_name_byte(b))
    }

    /// What follows a `(type)` prefix: a vector reduce, a call, a load or a variable.
    fn after_prefix(&mut self, ty: Type, start: usize) -> Result<Typed, ParseError> {
        self.skip_spaces();
        if ty.is_scalar() && (ty.is_int() || ty.is_uint()) && self.at_integer() {
            return self.cast_immediate(ty, start);
        }
        if self.at("vector_reduce_") {
            let save = self.pos;
            self.pos += "vector_reduce_".len();
            let len =
                self.src[self.pos..].iter().take_while(|b| b.is_ascii_alphanumeric() || **b == b'_').count();
            let op_text = std::str::from_utf8(&self.src[self.pos..self.pos + len]).unwrap_or("");
            if let Some(op) = VectorReduceOp::from_name(op_text)
                && self.src.get(self.pos + len) == Some(&b'(')
            {
                if ty.is_handle() {
                    // Its printed form, `((T))vector_reduce_...`, would read as a load.
                    return Err(self.error_at(
                        start,
                        save + "vector_reduce_".len() + len - start,
                        ParseErrorKind::InvalidNode,
                        "a vector reduction of numbers, not of handles",
                    ));
                }
                self.pos += len + 1;
                let v = self.expr_implicit()?;
                self.expect(")")?;
                return Ok(sure(Expr::from_node_unchecked(ty, ExprKind::VectorReduce { op, value: v.e })));
            }
            self.pos = save;
        }
        if self.token_len() == 0 {
            return Err(self.error_at(
                start,
                self.pos - start,
                ParseErrorKind::UnexpectedText,
                "a name after the type prefix",
            ));
        }
        let name = self.name()?;
        match self.peek() {
            Some(b'(') => self.call_rest(name, Some(ty)),
            Some(b'[') => self.load_rest(name, Some(ty)),
            _ => Ok(sure(Expr::from_node_unchecked(ty, ExprKind::Variable(name)))),
        }
    }

    /// Comma-separated E0s up to the closing `)` (the `(` already read).
    fn arg_list(&mut self) -> Result<Vec<Typed>, ParseError> {
        let mut args = Vec::new();
        self.args_into(&mut args, |t| t)?;
        Ok(args)
    }

    /// Like [`Self::arg_list`], mapping each argument as it is read.
    fn args_into<T>(&mut self, args: &mut Vec<T>, mut f: impl FnMut(Typed) -> T) -> Result<(), ParseError> {
        if self.eat(")") {
            return Ok(());
        }
        loop {
            args.push(f(self.expr_implicit()?));
            if self.eat(", ") {
                continue;
            }
            if self.eat(")") {
                return Ok(());
            }
            return Err(self.error(ParseErrorKind::UnexpectedText, "`, ` or `)` in an argument list"));
        }
    }

    fn call_type_of(&self, name: &str) -> CallType {
        if matches!(self.binding(name), Some(Binding::Func)) || self.env.funcs.contains_key(name) {
            CallType::Halide
        } else if self.env.images.contains_key(name) {
            CallType::Image
        } else if let Some(intrinsic) = Intrinsic::from_name(name) {
            intrinsic.call_type()
        } else {
            CallType::Extern
        }
    }

    /// `name(args)` with an optional lossless `[value_index]`.
    fn call_rest(&mut self, name: Name, prefix: Option<Type>) -> Result<Typed, ParseError> {
        self.expect("(")?;
        // The arguments, and which of their types are sure (for Halide 21's bitwise calls).
        let mut args: Vec<Expr> = Vec::new();
        let mut sure_types: smallvec::SmallVec<[bool; 8]> = smallvec::SmallVec::new();
        self.args_into(&mut args, |a| {
            sure_types.push(a.sure);
            a.e
        })?;
        let mut value_index = 0u32;
        if self.peek() == Some(b'[') && self.peek_at(1).is_some_and(|b| b.is_ascii_digit()) {
            let save = self.pos;
            self.pos += 1;
            let v = self.uint()?;
            if self.eat("]") {
                value_index = u32::try_from(v).map_err(|_| {
                    self.error_at(save, self.pos - save, ParseErrorKind::InvalidLiteral, "a tuple index")
                })?;
            } else {
                self.pos = save;
            }
        }
        let mut call_type = self.call_type_of(&name);
        // An intrinsic `bitwise_or/and/xor` of two operands prints infix and `bitwise_not` of
        // one prints `~(...)`: written as a call, the callee is an extern of the same name.
        // Halide 21.0.0 writes the intrinsics as calls.
        let infix_arity = match Intrinsic::from_name(&name) {
            Some(Intrinsic::BitwiseOr | Intrinsic::BitwiseAnd | Intrinsic::BitwiseXor) => Some(2),
            Some(Intrinsic::BitwiseNot) => Some(1),
            _ => None,
        };
        let bitwise_call = infix_arity == Some(args.len())
            && matches!(call_type, CallType::PureIntrinsic | CallType::Intrinsic);
        if bitwise_call && self.dialect == Dialect::Reference {
            call_type = CallType::Extern;
        }
        let bitwise_21 = bitwise_call && self.dialect == Dialect::Halide21;
        let (ty, is_sure) = match prefix {
            Some(t) => (t, true),
            None => match self.binding(&name) {
                Some(Binding::Func) | None if self.env.funcs.contains_key(name.as_ref()) => {
                    match self.env.funcs.get(name.as_ref()).and_then(|t| t.get(value_index as usize)) {
                        Some(t) => (*t, true),
                        None => (Type::INT32, false),
                    }
                }
                // A realized Func whose Provide was already read (the producer precedes its
                // consumers): that value's type, still open to a sibling's sure type.
                Some(Binding::Func) => {
                    match self.provided_types.get(&name).and_then(|t| t.get(value_index as usize)) {
                        Some(t) => (*t, false),
                        None => (Type::INT32, false),
                    }
                }
                Some(_) => (Type::INT32, false),
                None => (Type::INT32, true),
            },
        };
        if bitwise_21 {
            // The operands have the call's type: an operand whose type was only guessed
            // takes it.
            for (a, sure) in args.iter_mut().zip(&sure_types) {
                if !sure {
                    *a = retype(a, ty);
                }
            }
        }
        if self.dialect == Dialect::Halide21
            && name.as_ref() == TRACE_HELPER
            && args.len() == TRACE_HELPER_ARGS_21
        {
            // Halide 21.0.0's trace calls have no thread id: the reference's 0.
            args.insert(TRACE_THREAD_ID_ARG, Expr::i32(0));
        }
        let e = Expr::from_node_unchecked(ty, ExprKind::Call { name, args, call_type, value_index });
        Ok(Typed { e, sure: is_sure })
    }

    /// `name[index aligned(m, r)]` (the name already read).
    fn load_rest(&mut self, name: Name, prefix: Option<Type>) -> Result<Typed, ParseError> {
        self.expect("[")?;
        let index = self.expr_implicit()?;
        let alignment = self.alignment_suffix()?;
        self.expect("]")?;
        let lanes = index.e.ty().lanes();
        let (ty, is_sure) = match prefix {
            Some(t) => (t, true),
            None => match self.binding(&name) {
                Some(Binding::Buffer(elem)) => (elem.with_lanes(lanes), true),
                _ => match self.env.buffers.get(name.as_ref()).or_else(|| self.env.images.get(name.as_ref()))
                {
                    Some(t) => (t.with_lanes(lanes), true),
                    None => (Type::int(32, lanes), false),
                },
            },
        };
        let pred = self.all_lanes_true(lanes);
        let e = Expr::from_node_unchecked(
            ty,
            ExprKind::Load { name, index: index.e, predicate: pred, alignment },
        );
        Ok(Typed { e, sure: is_sure })
    }

    /// An optional ` aligned(modulus, remainder)` after a load or store index.
    pub(crate) fn alignment_suffix(&mut self) -> Result<ModulusRemainder, ParseError> {
        if !self.eat(" aligned(") {
            return Ok(ModulusRemainder::UNKNOWN);
        }
        let modulus = self.int()?;
        self.expect(", ")?;
        let remainder = self.int()?;
        self.expect(")")?;
        Ok(ModulusRemainder { modulus, remainder })
    }

    /// A word at the start of a unary expression: a keyword form, a literal word, a call, a
    /// load or a variable.
    fn word(&mut self) -> Result<Typed, ParseError> {
        let start = self.pos;
        let len = self.token_len();
        if len == 0 {
            return Err(self.error(ParseErrorKind::UnexpectedText, "an expression"));
        }
        let word = &self.src[start..start + len];
        let next = self.src.get(start + len).copied();
        if next == Some(b'(')
            && let Some(r) = self.builtin_call(word)?
        {
            return Ok(r);
        }
        if word == b"reinterpret" && next == Some(b'<') {
            self.pos += len + 1;
            let ty = self.type_spelling(true)?;
            self.expect(">(")?;
            let a = self.expr_implicit()?;
            self.expect(")")?;
            return Ok(sure(Expr::from_node_unchecked(ty, ExprKind::Reinterpret(a.e))));
        }
        if next != Some(b'(') && next != Some(b'[') {
            match word {
                b"true" | b"false" => {
                    if self.dialect == Dialect::Halide21 {
                        let bit = if word == b"true" { 1 } else { 0 };
                        return Err(self.dialect_error(
                            start,
                            len,
                            &format!("`{}` is the reference's spelling", String::from_utf8_lossy(word)),
                            &format!("`(uint1){bit}`"),
                        ));
                    }
                    self.pos += len;
                    return Ok(sure(Expr::bool(word == b"true")));
                }
                b"inf" | b"inff" | b"infh" | b"nan" | b"nanf" | b"nanh" => {
                    return self.special_float(start, false);
                }
                _ => {}
            }
        }
        if word[0].is_ascii_digit() {
            return Err(self.error(ParseErrorKind::UnexpectedText, "an expression"));
        }
        let name = self.name()?;
        match next {
            Some(b'(') => self.call_rest(name, None),
            Some(b'[') => self.load_rest(name, None),
            _ => {
                let (ty, is_sure) = match self.binding(&name) {
                    Some(Binding::Value(t, s)) => (t, s),
                    Some(Binding::Loop) => (Type::INT32, true),
                    Some(Binding::Buffer(_)) => (Type::void_ptr(), true),
                    Some(Binding::Func) => (Type::INT32, false),
                    None => (Type::INT32, true),
                };
                Ok(Typed { e: Expr::from_node_unchecked(ty, ExprKind::Variable(name)), sure: is_sure })
            }
        }
    }

    /// Built-in forms written like calls: min, max, select, ramp, broadcasts, shuffles and
    /// casts. Returns None for an ordinary call.
    fn builtin_call(&mut self, word: &[u8]) -> Result<Option<Typed>, ParseError> {
        let start = self.pos;
        let open = |p: &mut Self| p.pos = start + word.len() + 1;
        let r = match word {
            b"min" | b"max" => {
                open(self);
                let a = self.expr_implicit()?;
                self.expect(", ")?;
                let b = self.expr_implicit()?;
                self.expect(")")?;
                self.no_handle_operands(start..start + word.len(), &a, &b)?;
                binary(if word == b"min" { BinOp::Min } else { BinOp::Max }, a, b)
            }
            b"select" => {
                open(self);
                let c = self.expr_implicit()?;
                self.expect(", ")?;
                let t = self.expr_implicit()?;
                self.expect(", ")?;
                let f = self.expr_implicit()?;
                self.expect(")")?;
                let (t, f, s) = unify(t, f);
                let ty = t.ty();
                Typed { e: Expr::from_node_unchecked(ty, ExprKind::Select(c.e, t, f)), sure: s }
            }
            b"ramp" => {
                open(self);
                let base = self.expr_implicit()?;
                self.expect(", ")?;
                let stride = self.expr_implicit()?;
                self.expect(", ")?;
                let lanes_at = self.pos;
                let lanes = self.uint()?;
                self.expect(")")?;
                let (base, stride, s) = unify(base, stride);
                let total = u64::from(base.ty().lanes()) * lanes;
                let (Ok(lanes16), Ok(total)) = (u16::try_from(lanes), u16::try_from(total)) else {
                    return Err(self.error_at(
                        lanes_at,
                        1,
                        ParseErrorKind::InvalidNode,
                        "a lane count below 65536",
                    ));
                };
                if lanes16 < 2 {
                    return Err(self.error_at(
                        lanes_at,
                        1,
                        ParseErrorKind::InvalidNode,
                        "a ramp of at least two lanes",
                    ));
                }
                let ty = base.ty().with_lanes(total);
                Typed {
                    e: Expr::from_node_unchecked(ty, ExprKind::Ramp { base, stride, lanes: lanes16 }),
                    sure: s,
                }
            }
            b"concat_vectors"
            | b"interleave_vectors"
            | b"extract_element"
            | b"slice_vectors"
            | b"transpose_vector"
            | b"shuffle" => {
                open(self);
                self.shuffle_rest(word, start)?
            }
            _ if word.len() >= 2 && word[0] == b'x' && word[1..].iter().all(|b| b.is_ascii_digit()) => {
                let lanes_text = std::str::from_utf8(&word[1..]).unwrap_or("");
                let Some(lanes) = lanes_text.parse::<u16>().ok().filter(|&l| l >= 2) else {
                    return Err(self.error_at(
                        start,
                        word.len(),
                        ParseErrorKind::InvalidNode,
                        "a broadcast of 2 to 65535 lanes",
                    ));
                };
                open(self);
                let v = self.expr_implicit()?;
                self.expect(")")?;
                let total = u32::from(v.e.ty().lanes()) * u32::from(lanes);
                let Ok(total) = u16::try_from(total) else {
                    return Err(self.error_at(
                        start,
                        word.len(),
                        ParseErrorKind::InvalidNode,
                        "fewer than 65536 lanes",
                    ));
                };
                let ty = v.e.ty().with_lanes(total);
                Typed {
                    e: Expr::from_node_unchecked(ty, ExprKind::Broadcast { value: v.e, lanes }),
                    sure: v.sure,
                }
            }
            _ => {
                let text = std::str::from_utf8(word).unwrap_or("");
                let Some(ty) = Type::parse(text) else { return Ok(None) };
                open(self);
                let a = self.expr_implicit()?;
                self.expect(")")?;
                sure(Expr::from_node_unchecked(ty, ExprKind::Cast(a.e)))
            }
        };
        Ok(Some(r))
    }

    fn shuffle_rest(&mut self, word: &[u8], start: usize) -> Result<Typed, ParseError> {
        let args = self.arg_list()?;
        let bad = |p: &Self, what: &str| p.error_at(start, p.pos - start, ParseErrorKind::InvalidNode, what);
        let int_of = |t: &Typed| match t.e.kind() {
            ExprKind::IntImm(v) if t.e.ty().is_int32() => Some(*v),
            _ => None,
        };
        let lanes_of = |vs: &[Typed]| vs.iter().map(|v| i64::from(v.e.ty().lanes())).sum::<i64>();
        let (vectors, indices): (Vec<Typed>, Vec<i64>) = match word {
            b"concat_vectors" | b"interleave_vectors" => {
                if args.is_empty() {
                    return Err(bad(self, "at least one vector"));
                }
                let total = lanes_of(&args);
                let idx = if word == b"concat_vectors" {
                    (0..total).collect()
                } else {
                    let n = args.len() as i64;
                    let lanes = i64::from(args[0].e.ty().lanes());
                    let mut v = Vec::with_capacity(total as usize);
                    for j in 0..lanes {
                        for i in 0..n {
                            v.push(i * lanes + j);
                        }
                    }
                    v
                };
                (args, idx)
            }
            b"extract_element" | b"slice_vectors" | b"transpose_vector" => {
                let k = if word == b"slice_vectors" { 3 } else { 1 };
                if args.len() <= k {
                    return Err(bad(self, "vectors followed by integer arguments"));
                }
                let split = args.len() - k;
                let ints: Option<Vec<i64>> = args[split..].iter().map(int_of).collect();
                let Some(ints) = ints else { return Err(bad(self, "integer literals after the vectors")) };
                let vectors: Vec<Typed> = args[..split].to_vec();
                let idx = match word {
                    b"extract_element" => vec![ints[0]],
                    b"slice_vectors" => (0..ints[2].max(0)).map(|i| ints[0] + i * ints[1]).collect(),
                    _ => {
                        let lanes = lanes_of(&vectors);
                        let c = ints[0];
                        if c <= 0 || lanes % c != 0 {
                            return Err(bad(self, "a column count that divides the lanes"));
                        }
                        let rows = lanes / c;
                        let mut v = vec![0; lanes as usize];
                        for col in 0..c {
                            for row in 0..rows {
                                v[(col * rows + row) as usize] = row * c + col;
                            }
                        }
                        v
                    }
                };
                (vectors, idx)
            }
            _ => {
                // `shuffle(vectors..., indices...)`: the longest run of trailing int32
                // literals that indexes into the vectors before it.
                let mut chosen = None;
                let mut k = args.len();
                while k > 1 && int_of(&args[k - 1]).is_some() {
                    k -= 1;
                    let total = lanes_of(&args[..k]);
                    if args[k..].iter().filter_map(int_of).all(|i| i < total) {
                        chosen = Some(k);
                    }
                }
                let Some(split) = chosen else { return Err(bad(self, "vectors followed by lane indices")) };
                let idx = args[split..].iter().filter_map(int_of).collect();
                (args[..split].to_vec(), idx)
            }
        };
        let total = lanes_of(&vectors);
        if indices.is_empty() || indices.iter().any(|&i| i < 0 || i >= total) {
            return Err(bad(self, "lane indices within the input vectors"));
        }
        let Ok(lanes) = u16::try_from(indices.len()) else { return Err(bad(self, "fewer than 65536 lanes")) };
        if word == b"transpose_vector" && self.dialect == Dialect::Halide21 {
            return Err(self.dialect_error(
                start,
                word.len(),
                "`transpose_vector` is the reference's spelling",
                "the general form `shuffle(v, indices...)`",
            ));
        }
        let elem = vectors[0].e.ty().element_of();
        let is_sure = vectors.iter().all(|v| v.sure);
        let vectors: Vec<Expr> = vectors.into_iter().map(|v| v.e).collect();
        let indices: Vec<i32> = indices.into_iter().map(|i| i as i32).collect();
        if word == b"shuffle"
            && self.dialect == Dialect::Reference
            && matches!(classify_shuffle(&vectors, &indices), ShuffleForm::Transpose(_))
        {
            // Only Halide 21.0.0 writes a transpose in the general form.
            self.late_tell_21.get_or_insert(start);
        }
        let e = Expr::from_node_unchecked(elem.with_lanes(lanes), ExprKind::Shuffle { vectors, indices });
        Ok(Typed { e, sure: is_sure })
    }
}

#[cfg(test)]
mod tests {
    use super::{round_to_bf16, round_to_f16};

    #[test]
    fn sixteen_bit_floats_round_to_nearest_even() {
        assert_eq!(round_to_f16(0.1), 0.0999755859375);
        assert_eq!(round_to_f16(0.099976), 0.0999755859375);
        assert_eq!(round_to_f16(65504.0), 65504.0);
        assert_eq!(round_to_f16(65519.0), 65504.0);
        assert_eq!(round_to_f16(65520.0), f64::INFINITY);
        assert_eq!(round_to_f16(2f64.powi(-24)), 2f64.powi(-24));
        assert_eq!(round_to_f16(2f64.powi(-25)), 0.0);
        assert_eq!(round_to_f16(-1.5 * 2f64.powi(-24)), -2f64.powi(-23));
        assert_eq!(round_to_bf16(0.1), 0.10009765625);
        assert_eq!(round_to_bf16(1e-10), 1.71875 * 2f64.powi(-34));
        assert!(round_to_f16(f64::NAN).is_nan());
    }
}
