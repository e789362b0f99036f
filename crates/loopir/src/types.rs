//! Scalar and vector types of IR values, as Halide spells them (`int32`, `uint1x8`,
//! `(struct halide_buffer_t *)`).

use std::collections::HashMap;
use std::fmt;
use std::num::NonZeroU32;
use std::sync::{OnceLock, RwLock};

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
/// Spellings are interned and a `CType` is their number: a program uses a handful of
/// them, and a 4-byte id keeps [`Type`] at 8 bytes, `Copy`, and compared as one integer
/// (every expression node carries a `Type`, so its size is paid once per node).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CType(NonZeroU32);

/// Every spelling interned so far: id `k` is `spellings[k - 1]`, and id 1 is `void *`.
struct Spellings {
    spellings: Vec<&'static str>,
    ids: HashMap<&'static str, NonZeroU32>,
}

fn spellings() -> &'static RwLock<Spellings> {
    static TABLE: OnceLock<RwLock<Spellings>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut ids = HashMap::new();
        ids.insert("void *", CType::VOID_PTR.0);
        RwLock::new(Spellings { spellings: vec!["void *"], ids })
    })
}

impl CType {
    /// The generic handle, `void *`.
    pub const VOID_PTR: CType = CType(NonZeroU32::MIN);

    /// Interns a C type spelling (for example `"struct halide_buffer_t *"`).
    pub fn new(spelling: &str) -> CType {
        if spelling == "void *" {
            return CType::VOID_PTR;
        }
        // A poisoned lock only means another thread panicked while inserting; the table
        // itself is still consistent, so keep using it.
        let table = spellings();
        if let Some(&id) = table.read().unwrap_or_else(|e| e.into_inner()).ids.get(spelling) {
            return CType(id);
        }
        let mut t = table.write().unwrap_or_else(|e| e.into_inner());
        if let Some(&id) = t.ids.get(spelling) {
            return CType(id);
        }
        // Ids run out after 2^32 - 1 distinct spellings, each leaked: memory runs out
        // first. Were it to happen, the last id would be shared (a wrong spelling, not UB).
        let id =
            u32::try_from(t.spellings.len() + 1).ok().and_then(NonZeroU32::new).unwrap_or(NonZeroU32::MAX);
        let leaked: &'static str = Box::leak(spelling.to_owned().into_boxed_str());
        t.spellings.push(leaked);
        t.ids.insert(leaked, id);
        CType(id)
    }

    /// The spelling, without the surrounding parentheses.
    pub fn as_str(self) -> &'static str {
        let t = spellings().read().unwrap_or_else(|e| e.into_inner());
        t.spellings.get(self.0.get() as usize - 1).copied().unwrap_or("void *")
    }
}

impl fmt::Debug for CType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CType({:?})", self.as_str())
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

    #[test]
    fn c_types_are_interned_and_types_stay_small() {
        let a = CType::new("struct halide_semaphore_t *");
        assert_eq!(a, CType::new("struct halide_semaphore_t *"));
        assert_ne!(a, CType::new("struct halide_buffer_t *"));
        assert_eq!(a.as_str(), "struct halide_semaphore_t *");
        assert_eq!(CType::new("void *"), CType::VOID_PTR);
        assert_eq!(CType::VOID_PTR.as_str(), "void *");
        // Every expression node carries a Type: 8 bytes keeps a node (Arc counts
        // included) in mimalloc's 80-byte size class rather than the 96-byte one.
        assert_eq!(std::mem::size_of::<Type>(), 8);
        assert_eq!(std::mem::size_of::<crate::ExprNode>(), 64);
    }
}
