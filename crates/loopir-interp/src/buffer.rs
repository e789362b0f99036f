//! Buffers: the `halide_buffer_t` a lowered pipeline receives, laid out in interpreter
//! memory exactly as the runtime's C struct, and [`Buffer`], the values a caller passes
//! in and gets back.
//!
//! The lowered IR names a buffer argument `b` through the reference's symbols: `b.buffer`
//! is the `halide_buffer_t *`, `b` its host pointer, `b.min.N`, `b.extent.N`,
//! `b.stride.N` its shape, `b.type`, `b.dimensions`, `b.device_dirty` and
//! `b.host_dirty` the other fields. Before storage flattening the same buffer is read
//! and written as a Func, `b(x, y)`, over the same shape.

use std::fmt;

use crate::elem::Elem;
use crate::heap::{Handle, Heap, HeapError, NULL};

/// Byte offsets of `halide_buffer_t` fields (64-bit layout).
pub mod layout {
    /// `uint64_t device`.
    pub const DEVICE: i64 = 0;
    /// `const halide_device_interface_t *device_interface`.
    pub const DEVICE_INTERFACE: i64 = 8;
    /// `uint8_t *host`.
    pub const HOST: i64 = 16;
    /// `uint64_t flags`.
    pub const FLAGS: i64 = 24;
    /// `halide_type_t type`: code (u8), bits (u8), lanes (u16).
    pub const TYPE: i64 = 32;
    /// `int32_t dimensions`.
    pub const DIMENSIONS: i64 = 36;
    /// `halide_dimension_t *dim`.
    pub const DIM: i64 = 40;
    /// `sizeof(halide_buffer_t)`.
    pub const SIZE: usize = 56;
    /// `sizeof(halide_dimension_t)`: min, extent, stride (int32) and flags (uint32).
    pub const DIM_SIZE: usize = 16;
    /// The host-dirty bit of `flags`.
    pub const HOST_DIRTY: u64 = 1;
    /// The device-dirty bit of `flags`.
    pub const DEVICE_DIRTY: u64 = 2;
}

/// `halide_type_t` packed as `_halide_buffer_get_type` returns it: code | bits << 8 |
/// lanes << 16.
pub fn type_bits(elem: Elem) -> u32 {
    let (code, bits) = match elem {
        Elem::Int(b) => (0u32, b as u32),
        Elem::UInt(b) => (1, b as u32),
        Elem::Float(b) => (2, b as u32),
        Elem::Handle => (3, 64),
        Elem::BFloat16 => (4, 16),
    };
    code | (bits << 8) | (1 << 16)
}

/// The element type of a packed `halide_type_t`.
pub fn elem_of_type_bits(t: u32) -> Option<Elem> {
    let bits = ((t >> 8) & 0xff) as u8;
    let ty = match t & 0xff {
        0 => loopir::Type::try_new(loopir::TypeCode::Int, bits, 1),
        1 => loopir::Type::try_new(loopir::TypeCode::UInt, bits, 1),
        2 => loopir::Type::try_new(loopir::TypeCode::Float, bits, 1),
        3 => return Some(Elem::Handle),
        4 => loopir::Type::try_new(loopir::TypeCode::BFloat, bits, 1),
        _ => return None,
    };
    ty.ok().and_then(|t| Elem::of(t).ok())
}

/// The runtime's name of a packed type, as its error messages print it (`uint16`).
pub fn type_name(t: u32) -> String {
    let bits = (t >> 8) & 0xff;
    let lanes = t >> 16;
    let code = match t & 0xff {
        0 => "int",
        1 => "uint",
        2 => "float",
        3 => "handle",
        4 => "bfloat",
        _ => "bad_type_code",
    };
    if lanes > 1 { format!("{code}{bits}x{lanes}") } else { format!("{code}{bits}") }
}

/// One dimension of a buffer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Dim {
    /// The first coordinate.
    pub min: i32,
    /// The number of coordinates.
    pub extent: i32,
    /// Elements between neighbouring coordinates.
    pub stride: i32,
}

/// The fields of a `halide_buffer_t` in interpreter memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Descriptor {
    /// `device`.
    pub device: u64,
    /// `device_interface`.
    pub device_interface: Handle,
    /// `host`.
    pub host: Handle,
    /// `flags`.
    pub flags: u64,
    /// `type`, packed.
    pub ty: u32,
    /// `dimensions`.
    pub dimensions: i32,
    /// `dim`.
    pub dim: Handle,
}

impl Descriptor {
    /// Reads the descriptor `b` points to.
    pub fn read(heap: &Heap, b: Handle) -> Result<Descriptor, HeapError> {
        Ok(Descriptor {
            device: heap.read_uint(b, layout::DEVICE, 8)?,
            device_interface: heap.read_uint(b, layout::DEVICE_INTERFACE, 8)?,
            host: heap.read_uint(b, layout::HOST, 8)?,
            flags: heap.read_uint(b, layout::FLAGS, 8)?,
            ty: heap.read_uint(b, layout::TYPE, 4)? as u32,
            dimensions: heap.read_i32(b, layout::DIMENSIONS)?,
            dim: heap.read_uint(b, layout::DIM, 8)?,
        })
    }

    /// Dimension `d`, read through the `dim` pointer.
    pub fn dim(&self, heap: &Heap, d: i64) -> Result<Dim, HeapError> {
        let at = d.wrapping_mul(layout::DIM_SIZE as i64);
        Ok(Dim {
            min: heap.read_i32(self.dim, at)?,
            extent: heap.read_i32(self.dim, at + 4)?,
            stride: heap.read_i32(self.dim, at + 8)?,
        })
    }

    /// Every dimension.
    pub fn dims(&self, heap: &Heap) -> Result<Vec<Dim>, HeapError> {
        (0..self.dimensions.max(0) as i64).map(|d| self.dim(heap, d)).collect()
    }

    /// The element type, if the packed type is one the interpreter knows.
    pub fn elem(&self) -> Option<Elem> {
        elem_of_type_bits(self.ty)
    }

    /// Whether this is a bounds query: no host and no device memory.
    pub fn is_bounds_query(&self) -> bool {
        self.host == NULL && self.device == 0
    }
}

/// Writes a whole descriptor at `b` (the dims go to the array `dim` points to).
pub fn write_descriptor(heap: &mut Heap, b: Handle, d: &Descriptor, dims: &[Dim]) -> Result<(), HeapError> {
    heap.write_uint(b, layout::DEVICE, 8, d.device)?;
    heap.write_uint(b, layout::DEVICE_INTERFACE, 8, d.device_interface)?;
    heap.write_uint(b, layout::HOST, 8, d.host)?;
    heap.write_uint(b, layout::FLAGS, 8, d.flags)?;
    heap.write_uint(b, layout::TYPE, 4, d.ty as u64)?;
    heap.write_uint(b, layout::DIMENSIONS, 4, d.dimensions as u32 as u64)?;
    heap.write_uint(b, layout::DIM, 8, d.dim)?;
    heap.write_uint(b, layout::DIM + 8, 8, 0)?;
    for (k, dim) in dims.iter().enumerate() {
        let at = (k * layout::DIM_SIZE) as i64;
        heap.write_uint(d.dim, at, 4, dim.min as u32 as u64)?;
        heap.write_uint(d.dim, at + 4, 4, dim.extent as u32 as u64)?;
        heap.write_uint(d.dim, at + 8, 4, dim.stride as u32 as u64)?;
        heap.write_uint(d.dim, at + 12, 4, 0)?;
    }
    Ok(())
}

/// The range of element offsets (relative to the element at the mins) a shape covers:
/// `(lowest, highest + 1)`; `(0, 0)` when an extent is zero or less.
pub fn offset_span(dims: &[Dim]) -> (i64, i64) {
    let (mut lo, mut hi) = (0i64, 1i64);
    for d in dims {
        if d.extent <= 0 {
            return (0, 0);
        }
        let far = (d.extent as i64 - 1) * d.stride as i64;
        if far < 0 {
            lo += far;
        } else {
            hi += far;
        }
    }
    (lo, hi)
}

/// Dense strides for `extents`, dimension 0 innermost.
pub fn dense_strides(extents: &[i32]) -> Vec<i32> {
    let mut s = 1i64;
    extents
        .iter()
        .map(|&e| {
            let here = s;
            s = s.saturating_mul(e.max(1) as i64);
            here.clamp(i32::MIN as i64, i32::MAX as i64) as i32
        })
        .collect()
}

/// A buffer of values: what a caller passes to a pipeline or gets back from it.
///
/// Values are held one per element, in canonical lane form (see [`crate::elem`]), in
/// coordinate order (dimension 0 fastest) whatever the strides; the strides are the
/// memory layout the pipeline sees.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Buffer {
    /// The element type.
    pub elem: Elem,
    /// The shape (strides are the layout in the pipeline's memory).
    pub dims: Vec<Dim>,
    /// One value per element, dimension 0 fastest.
    pub values: Vec<u64>,
}

impl Buffer {
    /// A zero-filled buffer over `mins`/`extents` with dense strides.
    pub fn new(elem: Elem, mins: &[i32], extents: &[i32]) -> Buffer {
        let strides = dense_strides(extents);
        let dims: Vec<Dim> = mins
            .iter()
            .zip(extents)
            .zip(&strides)
            .map(|((&min, &extent), &stride)| Dim { min, extent, stride })
            .collect();
        Buffer::with_dims(elem, dims)
    }

    /// A zero-filled buffer of a given shape (strides as given).
    pub fn with_dims(elem: Elem, dims: Vec<Dim>) -> Buffer {
        let n = Buffer::count(&dims);
        Buffer { elem, dims, values: vec![0; n] }
    }

    /// The number of elements of a shape.
    pub fn count(dims: &[Dim]) -> usize {
        dims.iter().map(|d| d.extent.max(0) as usize).product()
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the buffer has no elements.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The coordinates of element `i` (in coordinate order).
    pub fn coords_of(&self, mut i: usize) -> Vec<i32> {
        self.dims
            .iter()
            .map(|d| {
                let e = d.extent.max(1) as usize;
                let c = d.min + (i % e) as i32;
                i /= e;
                c
            })
            .collect()
    }

    /// The index of the element at `coords`, if inside.
    pub fn index_of(&self, coords: &[i32]) -> Option<usize> {
        if coords.len() != self.dims.len() {
            return None;
        }
        let mut i = 0usize;
        let mut scale = 1usize;
        for (c, d) in coords.iter().zip(&self.dims) {
            let k = c.checked_sub(d.min)?;
            if k < 0 || k >= d.extent {
                return None;
            }
            i += k as usize * scale;
            scale *= d.extent as usize;
        }
        Some(i)
    }

    /// Fills every element with `f(coordinates)`.
    pub fn fill(&mut self, mut f: impl FnMut(&[i32]) -> u64) {
        for i in 0..self.values.len() {
            let c = self.coords_of(i);
            self.values[i] = self.elem.wrap(f(&c));
        }
    }

    /// A hash of the element type, shape (mins and extents) and values: FNV-1a over
    /// their little-endian bytes, so equal buffers hash equally on every machine.
    pub fn content_hash(&self) -> u64 {
        let mut h = Fnv::new();
        h.bytes(&type_bits(self.elem).to_le_bytes());
        for d in &self.dims {
            h.bytes(&d.min.to_le_bytes());
            h.bytes(&d.extent.to_le_bytes());
        }
        let size = self.elem.bytes();
        for v in &self.values {
            h.bytes(&v.to_le_bytes()[..size]);
        }
        h.finish()
    }
}

impl fmt::Display for Buffer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}[", self.elem.name())?;
        for (k, d) in self.dims.iter().enumerate() {
            if k > 0 {
                write!(f, ", ")?;
            }
            write!(f, "{}..{}", d.min, d.min as i64 + d.extent as i64 - 1)?;
        }
        write!(f, "]")
    }
}

/// FNV-1a, 64 bits.
pub struct Fnv(u64);

impl Fnv {
    /// The offset basis.
    pub fn new() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    /// Mixes in bytes.
    pub fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= x as u64;
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
    /// The hash.
    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl Default for Fnv {
    fn default() -> Self {
        Fnv::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coordinates_and_indices_agree() {
        let b = Buffer::new(Elem::UInt(16), &[-1, 3], &[3, 2]);
        assert_eq!(b.len(), 6);
        for i in 0..b.len() {
            assert_eq!(b.index_of(&b.coords_of(i)), Some(i));
        }
        assert_eq!(b.index_of(&[2, 3]), None);
        assert_eq!(b.dims[1].stride, 3);
        assert_eq!(b.to_string(), "uint16[-1..1, 3..4]");
    }

    #[test]
    fn the_packed_type_matches_the_runtime() {
        // uint16, as the pipelines' `b.type == 69633` checks say.
        assert_eq!(type_bits(Elem::UInt(16)), 69633);
        assert_eq!(type_name(69633), "uint16");
        assert_eq!(elem_of_type_bits(69633), Some(Elem::UInt(16)));
    }

    #[test]
    fn hashes_see_values_and_shapes() {
        let a = Buffer::new(Elem::UInt(8), &[0], &[4]);
        let mut b = a.clone();
        assert_eq!(a.content_hash(), b.content_hash());
        b.values[2] = 1;
        assert_ne!(a.content_hash(), b.content_hash());
        let c = Buffer::new(Elem::UInt(8), &[1], &[4]);
        assert_ne!(a.content_hash(), c.content_hash());
    }
}
