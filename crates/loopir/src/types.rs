//! Scalar and vector types of IR values, as Halide spells them (`int32`, `uint1x8`,
//! `(struct halide_buffer_t *)`).

use std::collections::HashSet;
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// The kind of number (or pointer) a [`Type`] describes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum TypeCode {
    /// Signed two's-complement integer.
    Int,
    /// Unsigned integer; `uint1` is the boolean type.
    UInt,
    /// IEEE floating point.
    Float,
    /// Brain floating point (`bfloat16`).
    BFloat,
    /// An opaque pointer with a C type spelling.
    Handle,
}

/// The C type a handle points to, spelled as the printer writes it between parentheses
/// (`void *`, `struct halide_buffer_t *`, `halide_task_t`).
///
/// Spellings are interned: a program uses a handful of them, and interning keeps [`Type`]
/// `Copy` and its comparison a pointer-sized compare.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CType(&'static str);

impl CType {
    /// The generic handle, `void *`.
    pub const VOID_PTR: CType = CType("void *");

    /// Interns a C type spelling (for example `"struct halide_buffer_t *"`).
    pub fn new(spelling: &str) -> CType {
        if spelling == "void *" {
            return CType::VOID_PTR;
        }
        static TABLE: OnceLock<Mutex<HashSet<&'static str>>> = OnceLock::new();
        let table = TABLE.get_or_init(|| Mutex::new(HashSet::new()));
        // A poisoned lock only means another thread panicked while inserting; the set itself
        // is still consistent, so keep using it.
        let mut set = table.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = set.get(spelling) {
            return CType(s);
        }
        let leaked: &'static str = Box::leak(spelling.to_owned().into_boxed_str());
        set.insert(leaked);
        CType(leaked)
    }

    /// The spelling, without the surrounding parentheses.
    pub fn as_str(self) -> &'static str {
        self.0
    }
}

impl fmt::Debug for CType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CType({:?})", self.0)
    }
}

/// The type of an IR value: a code, a bit width and a lane count (1 for scalars).
///
/// Handles carry the C type they point to; for other codes `ctype` is `None`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Type {
    code: TypeCode,
    bits: u8,
    lanes: u16,
    ctype: Option<CType>,
}

impl Type {
    /// A signed integer type of `bits` bits and `lanes` lanes.
    pub const fn int(bits: u8, lanes: u16) -> Type {
        Type { code: TypeCode::Int, bits, lanes, ctype: None }
    }
    /// An unsigned integer type.
    pub const fn uint(bits: u8, lanes: u16) -> Type {
        Type { code: TypeCode::UInt, bits, lanes, ctype: None }
    }
    /// A floating-point type.
    pub const fn float(bits: u8, lanes: u16) -> Type {
        Type { code: TypeCode::Float, bits, lanes, ctype: None }
    }
    /// A brain-float type.
    pub const fn bfloat(bits: u8, lanes: u16) -> Type {
        Type { code: TypeCode::BFloat, bits, lanes, ctype: None }
    }
    /// The boolean type with `lanes` lanes (`uint1`).
    pub const fn bool(lanes: u16) -> Type {
        Type::uint(1, lanes)
    }
    /// A handle to `ctype` with `lanes` lanes.
    pub const fn handle(ctype: CType, lanes: u16) -> Type {
        Type { code: TypeCode::Handle, bits: 64, lanes, ctype: Some(ctype) }
    }
    /// `(void *)`.
    pub const fn void_ptr() -> Type {
        Type::handle(CType::VOID_PTR, 1)
    }
    /// `int32`, the type of loop variables, most indices and unsuffixed literals.
    pub const INT32: Type = Type::int(32, 1);
    /// `uint1`.
    pub const BOOL: Type = Type::bool(1);
    /// `(char const *)`, the type of string immediates.
    pub fn c_string() -> Type {
        Type::handle(CType::new("char const *"), 1)
    }
    /// `(struct halide_buffer_t *)`.
    pub fn buffer_ptr() -> Type {
        Type::handle(CType::new("struct halide_buffer_t *"), 1)
    }

    /// Builds a type from its parts, checking that the combination is one Halide can hold.
    pub fn try_new(code: TypeCode, bits: u8, lanes: u16) -> Result<Type, String> {
        if lanes == 0 {
            return Err("a type needs at least one lane".into());
        }
        if code == TypeCode::Handle {
            return Ok(Type::handle(CType::VOID_PTR, lanes));
        }
        // Halide's usual widths are 1 (bool), 8, 16, 32 and 64, but intrinsics may use odd
        // widths; anything from 1 to 64 can be represented.
        if bits == 0 || bits > 64 {
            return Err(format!("{bits} is not a valid bit width"));
        }
        Ok(Type { code, bits, lanes, ctype: None })
    }

    /// The type code.
    pub fn code(self) -> TypeCode {
        self.code
    }
    /// Bits per lane.
    pub fn bits(self) -> u8 {
        self.bits
    }
    /// Lane count (1 for scalars).
    pub fn lanes(self) -> u16 {
        self.lanes
    }
    /// The pointed-to C type of a handle.
    pub fn ctype(self) -> Option<CType> {
        self.ctype
    }
    /// This type with another lane count.
    pub fn with_lanes(self, lanes: u16) -> Type {
        Type { lanes, ..self }
    }
    /// The scalar type of one lane.
    pub fn element_of(self) -> Type {
        self.with_lanes(1)
    }
    /// Whether this is a scalar (one lane).
    pub fn is_scalar(self) -> bool {
        self.lanes == 1
    }
    /// Whether this has more than one lane.
    pub fn is_vector(self) -> bool {
        self.lanes > 1
    }
    /// Whether this is `uint1` (of any lane count).
    pub fn is_bool(self) -> bool {
        self.code == TypeCode::UInt && self.bits == 1
    }
    /// Whether this is a signed integer type.
    pub fn is_int(self) -> bool {
        self.code == TypeCode::Int
    }
    /// Whether this is an unsigned integer type (including bool).
    pub fn is_uint(self) -> bool {
        self.code == TypeCode::UInt
    }
    /// Whether this is a float or bfloat type.
    pub fn is_float(self) -> bool {
        matches!(self.code, TypeCode::Float | TypeCode::BFloat)
    }
    /// Whether this is a handle type.
    pub fn is_handle(self) -> bool {
        self.code == TypeCode::Handle
    }
    /// Whether this is exactly scalar `int32`.
    pub fn is_int32(self) -> bool {
        self == Type::INT32
    }

    /// Parses a type spelling as printed (`int32`, `uint8x16`, `(void *)`, `(void *)x4`).
    pub fn parse(text: &str) -> Option<Type> {
        if let Some(rest) = text.strip_prefix('(') {
            let close = rest.rfind(')')?;
            let ctype = &rest[..close];
            let tail = &rest[close + 1..];
            let lanes = if tail.is_empty() { 1 } else { tail.strip_prefix('x')?.parse().ok()? };
            if ctype.is_empty() || lanes == 0 {
                return None;
            }
            return Some(Type::handle(CType::new(ctype), lanes));
        }
        let (code, rest) = if let Some(r) = text.strip_prefix("bfloat") {
            (TypeCode::BFloat, r)
        } else if let Some(r) = text.strip_prefix("float") {
            (TypeCode::Float, r)
        } else if let Some(r) = text.strip_prefix("uint") {
            (TypeCode::UInt, r)
        } else if let Some(r) = text.strip_prefix("int") {
            (TypeCode::Int, r)
        } else {
            return None;
        };
        let (bits, lanes) = match rest.split_once('x') {
            Some((b, l)) => (b, l),
            None => (rest, "1"),
        };
        if bits.is_empty() || !bits.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        if lanes.is_empty() || !lanes.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let bits: u8 = bits.parse().ok()?;
        let lanes: u16 = lanes.parse().ok()?;
        Type::try_new(code, bits, lanes).ok()
    }

    /// The smallest value of an integer type, as an i128 (None for non-integers).
    pub fn int_min(self) -> Option<i128> {
        match self.code {
            TypeCode::Int => Some(-(1i128 << (self.bits - 1))),
            TypeCode::UInt => Some(0),
            _ => None,
        }
    }
    /// The largest value of an integer type, as an i128 (None for non-integers).
    pub fn int_max(self) -> Option<i128> {
        match self.code {
            TypeCode::Int => Some((1i128 << (self.bits - 1)) - 1),
            TypeCode::UInt => Some((1i128 << self.bits) - 1),
            _ => None,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.code {
            TypeCode::Handle => {
                let c = self.ctype.unwrap_or(CType::VOID_PTR);
                write!(f, "({})", c.as_str())?;
            }
            TypeCode::Int => write!(f, "int{}", self.bits)?,
            TypeCode::UInt => write!(f, "uint{}", self.bits)?,
            TypeCode::Float => write!(f, "float{}", self.bits)?,
            TypeCode::BFloat => write!(f, "bfloat{}", self.bits)?,
        }
        if self.lanes > 1 {
            write!(f, "x{}", self.lanes)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spellings_round_trip() {
        for s in ["int32", "uint1", "uint8x16", "float32x8", "bfloat16", "(void *)", "(void *)x4"] {
            let t = Type::parse(s).unwrap_or_else(|| panic!("{s}"));
            assert_eq!(t.to_string(), s);
        }
        assert_eq!(Type::parse("(struct halide_buffer_t *)"), Some(Type::buffer_ptr()));
        assert_eq!(Type::parse("int"), None);
        assert_eq!(Type::parse("int32x"), None);
        assert_eq!(Type::parse("float7x0"), None);
    }
}
