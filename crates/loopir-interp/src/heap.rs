//! The interpreter's memory: every allocation, buffer, struct and string a program
//! touches is an object of bytes, and every pointer is a [`Handle`] to a byte of one.
//!
//! A handle carries the generation of its object's slot, so a handle to a freed object
//! stays recognisable after the slot holds another: reading or writing through it is a
//! use after free, freeing it again is a double free. (Slots are reused, oldest freed
//! first, once more than [`KEPT_FREED`] wait: a program that allocates in a loop would
//! otherwise keep a record of every object it ever made. A handle is mistaken for one
//! to a later object only after its slot has been reused 256 times.) Every access is
//! checked against the object's size. Memory the runtime hands out
//! (`halide_malloc`, device allocations) must be given back before the program ends;
//! what is left is a leak.

use std::fmt;

use loopir::Name;

use crate::elem::Elem;

/// A pointer: the generation of the object's slot in the high 8 bits, slot number + 1 in
/// the next 24, byte offset in the low 32 bits; 0 is the null pointer.
pub type Handle = u64;

/// The null handle.
pub const NULL: Handle = 0;

/// Bits of the slot number in a handle.
const SLOT_BITS: u32 = 24;

/// The most slots a heap has.
const MAX_SLOTS: usize = (1 << SLOT_BITS) - 2;

/// Freed slots kept before the oldest is reused.
pub const KEPT_FREED: usize = 1024;

/// Makes a handle to byte `offset` of object `obj` (of its slot's first generation).
pub fn handle(obj: usize, offset: u32) -> Handle {
    handle_of_generation(obj, 0, offset)
}

fn handle_of_generation(obj: usize, generation: u8, offset: u32) -> Handle {
    (((generation as u64) << SLOT_BITS | (obj as u64 + 1)) << 32) | offset as u64
}

/// The object slot and byte offset of a non-null handle.
#[inline(always)]
pub fn decode(h: Handle) -> Option<(usize, u32)> {
    let obj = (h >> 32) & ((1 << SLOT_BITS) - 1);
    if obj == 0 { None } else { Some(((obj - 1) as usize, h as u32)) }
}

/// The generation of the slot a handle was made for.
#[inline(always)]
fn generation(h: Handle) -> u8 {
    (h >> (32 + SLOT_BITS)) as u8
}

/// What an object is, for messages and for deciding what counts as a leak.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ObjectKind {
    /// An `Allocate` node's memory (freed by `Free` or at the end of its scope).
    Allocation,
    /// The token of an `Allocate` with a custom allocation expression.
    CustomAllocation,
    /// `alloca` or a `make_struct` (one per site, alive for the whole run).
    Stack,
    /// A string constant.
    String,
    /// Host memory of a buffer passed to the pipeline.
    Buffer,
    /// A `halide_buffer_t` or its shape, made by the interpreter for an argument.
    BufferDescriptor,
    /// Memory of a `realize` (schedule-stage storage of a Func).
    Realization,
    /// Memory from `halide_malloc` (must be freed).
    Malloc,
    /// Simulated device memory (must be freed).
    Device,
    /// A device interface (`halide_cuda_device_interface()`); holds no bytes.
    DeviceInterface,
}

/// One object of memory.
#[derive(Clone, Debug)]
pub struct Object {
    /// The contents (empty once freed).
    pub bytes: Vec<u8>,
    /// What made it.
    pub kind: ObjectKind,
    /// The name of the buffer or allocation, for messages.
    pub name: Name,
    /// Whether it is still alive.
    pub live: bool,
    /// Its size when it was made (kept after a free, for messages).
    pub size: usize,
    /// How many objects held its slot before it.
    pub generation: u8,
    /// The name of the object before it in its slot, for messages.
    previous: Option<Name>,
}

/// Why a memory access or a free failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HeapError {
    /// Through the null pointer.
    Null,
    /// Through a value that is no handle of this heap.
    Wild(Handle),
    /// Through a handle to a freed object.
    UseAfterFree {
        /// The object's name.
        name: String,
    },
    /// Outside the object.
    OutOfBounds {
        /// The object's name.
        name: String,
        /// The first byte accessed, relative to the object's start.
        offset: i64,
        /// How many bytes.
        len: usize,
        /// The object's size.
        size: usize,
    },
    /// A second free of one object.
    DoubleFree {
        /// The object's name.
        name: String,
    },
    /// A free of a pointer into the middle of an object.
    InteriorFree {
        /// The object's name.
        name: String,
    },
    /// A request beyond the interpreter's memory limit.
    TooLarge {
        /// What was asked for, in bytes.
        bytes: u128,
        /// The bytes live when it was asked for.
        live: usize,
        /// The limit.
        limit: usize,
    },
}

impl fmt::Display for HeapError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            HeapError::Null => write!(f, "access through a null pointer"),
            HeapError::Wild(h) => write!(f, "access through {h:#x}, which points to no memory"),
            HeapError::UseAfterFree { name } => write!(f, "use of {name} after it was freed"),
            HeapError::OutOfBounds { name, offset, len, size } => write!(
                f,
                "access to bytes {offset}..{} of {name}, which has {size} bytes",
                *offset as i128 + *len as i128
            ),
            HeapError::DoubleFree { name } => write!(f, "{name} is freed twice"),
            HeapError::InteriorFree { name } => write!(f, "free of a pointer into the middle of {name}"),
            // The limit is on live memory: say what else was live, or an allocation
            // smaller than the limit reads as a contradiction.
            HeapError::TooLarge { bytes, live: 0, limit } => {
                write!(
                    f,
                    "an allocation of {bytes} bytes exceeds the interpreter's memory limit of {limit} bytes"
                )
            }
            HeapError::TooLarge { bytes, live, limit } => write!(
                f,
                "an allocation of {bytes} bytes, with {live} bytes already live, exceeds the interpreter's \
                 memory limit of {limit} bytes"
            ),
        }
    }
}

/// All objects of one run.
#[derive(Clone, Debug)]
pub struct Heap {
    objects: Vec<Object>,
    /// Slots of freed objects, oldest first.
    freed: std::collections::VecDeque<usize>,
    live_bytes: usize,
    limit: usize,
}

/// The default limit on live memory: 1 GiB.
pub const DEFAULT_MEMORY_LIMIT: usize = 1 << 30;

impl Default for Heap {
    fn default() -> Self {
        Heap::new(DEFAULT_MEMORY_LIMIT)
    }
}

impl Heap {
    /// An empty heap that refuses to hold more than `limit` live bytes.
    pub fn new(limit: usize) -> Heap {
        Heap { objects: Vec::new(), freed: Default::default(), live_bytes: 0, limit }
    }

    /// A new zero-filled object of `size` bytes; a handle to its first byte.
    pub fn alloc(&mut self, size: u128, kind: ObjectKind, name: &Name) -> Result<Handle, HeapError> {
        let fits = usize::try_from(size).ok().filter(|s| self.live_bytes.saturating_add(*s) <= self.limit);
        let Some(size) = fits else {
            return Err(HeapError::TooLarge { bytes: size, live: self.live_bytes, limit: self.limit });
        };
        let mut object = Object {
            bytes: vec![0; size],
            kind,
            name: name.clone(),
            live: true,
            size,
            generation: 0,
            previous: None,
        };
        let slot = if self.freed.len() > KEPT_FREED
            && let Some(slot) = self.freed.pop_front()
        {
            let old = &self.objects[slot];
            object.generation = old.generation.wrapping_add(1);
            object.previous = Some(old.name.clone());
            self.objects[slot] = object;
            slot
        } else {
            if self.objects.len() >= MAX_SLOTS {
                return Err(HeapError::TooLarge {
                    bytes: size as u128,
                    live: self.live_bytes,
                    limit: self.limit,
                });
            }
            self.objects.push(object);
            self.objects.len() - 1
        };
        self.live_bytes += size;
        Ok(handle_of_generation(slot, self.objects[slot].generation, 0))
    }

    /// The slot of the object `h` points into, if `h` is a handle of this heap; a
    /// handle of a slot's earlier generation is one to a freed object.
    #[inline(always)]
    fn slot(&self, h: Handle) -> Result<(usize, u32), HeapError> {
        let (obj, off) = decode(h).ok_or(HeapError::Null)?;
        let o = self.objects.get(obj).ok_or(HeapError::Wild(h))?;
        if o.generation != generation(h) {
            return Err(self.stale(obj, generation(h)));
        }
        Ok((obj, off))
    }

    #[cold]
    fn stale(&self, obj: usize, generation: u8) -> HeapError {
        let o = &self.objects[obj];
        let name = match &o.previous {
            Some(p) if generation == o.generation.wrapping_sub(1) => p.to_string(),
            _ => "an object".to_owned(),
        };
        HeapError::UseAfterFree { name }
    }

    /// Frees the object `h` points to the start of.
    pub fn free(&mut self, h: Handle) -> Result<(), HeapError> {
        let (obj, off) = match self.slot(h) {
            Err(HeapError::UseAfterFree { name }) => return Err(HeapError::DoubleFree { name }),
            r => r?,
        };
        let o = &mut self.objects[obj];
        if !o.live {
            return Err(HeapError::DoubleFree { name: o.name.to_string() });
        }
        if off != 0 {
            return Err(HeapError::InteriorFree { name: o.name.to_string() });
        }
        o.live = false;
        self.live_bytes -= o.bytes.len();
        o.bytes = Vec::new();
        self.freed.push_back(obj);
        Ok(())
    }

    /// Whether `h` points into a live object.
    pub fn is_live(&self, h: Handle) -> bool {
        self.slot(h).is_ok_and(|(o, _)| self.objects[o].live)
    }

    /// The object `h` points into.
    pub fn object(&self, h: Handle) -> Result<&Object, HeapError> {
        let (obj, _) = self.slot(h)?;
        Ok(&self.objects[obj])
    }

    /// The object `h` points into, mutably.
    pub fn object_mut(&mut self, h: Handle) -> Result<&mut Object, HeapError> {
        let (obj, _) = self.slot(h)?;
        Ok(&mut self.objects[obj])
    }

    /// The object of every slot (the latest to hold it), in the order the slots were made.
    pub fn objects(&self) -> &[Object] {
        &self.objects
    }

    /// Bytes held by live objects.
    pub fn live_bytes(&self) -> usize {
        self.live_bytes
    }

    /// The most live bytes the heap holds.
    pub fn limit(&self) -> usize {
        self.limit
    }

    /// The object and the absolute byte range of `len` bytes at `byte` past `h`.
    #[inline(always)]
    fn locate(&self, h: Handle, byte: i64, len: usize) -> Result<(usize, usize), HeapError> {
        let (obj, off) = self.slot(h)?;
        let o = &self.objects[obj];
        let start = off as i64 + byte;
        if start < 0 || start as usize + len > o.bytes.len() {
            return Err(self.access_error(obj, start, len));
        }
        Ok((obj, start as usize))
    }

    #[cold]
    fn access_error(&self, obj: usize, start: i64, len: usize) -> HeapError {
        let o = &self.objects[obj];
        if !o.live {
            HeapError::UseAfterFree { name: o.name.to_string() }
        } else {
            HeapError::OutOfBounds { name: o.name.to_string(), offset: start, len, size: o.bytes.len() }
        }
    }

    /// `len` bytes at `byte` past `h`.
    pub fn read(&self, h: Handle, byte: i64, len: usize) -> Result<&[u8], HeapError> {
        let (obj, start) = self.locate(h, byte, len)?;
        Ok(&self.objects[obj].bytes[start..start + len])
    }

    /// Writes `data` at `byte` past `h`.
    pub fn write(&mut self, h: Handle, byte: i64, data: &[u8]) -> Result<(), HeapError> {
        let (obj, start) = self.locate(h, byte, data.len())?;
        self.objects[obj].bytes[start..start + data.len()].copy_from_slice(data);
        Ok(())
    }

    /// Loads one lane of `elem` at element `index` past `h` (`index` counts elements).
    #[inline(always)]
    pub fn load(&self, h: Handle, elem: Elem, size: usize, index: i64) -> Result<u64, HeapError> {
        let (obj, start) = self.locate(h, index.wrapping_mul(size as i64), size)?;
        let b = &self.objects[obj].bytes[start..start + size];
        Ok(elem.wrap(read_le(b)))
    }

    /// Stores one lane of `elem` at element `index` past `h`.
    #[inline(always)]
    pub fn store(&mut self, h: Handle, size: usize, index: i64, v: u64) -> Result<(), HeapError> {
        let (obj, start) = self.locate(h, index.wrapping_mul(size as i64), size)?;
        write_le(&mut self.objects[obj].bytes[start..start + size], v);
        Ok(())
    }

    /// Reads a little-endian integer of `len` bytes at `byte` past `h`.
    pub fn read_uint(&self, h: Handle, byte: i64, len: usize) -> Result<u64, HeapError> {
        self.read(h, byte, len).map(read_le)
    }

    /// Writes the low `len` bytes of `v` at `byte` past `h`.
    pub fn write_uint(&mut self, h: Handle, byte: i64, len: usize, v: u64) -> Result<(), HeapError> {
        let (obj, start) = self.locate(h, byte, len)?;
        write_le(&mut self.objects[obj].bytes[start..start + len], v);
        Ok(())
    }

    /// Reads an `i32` at `byte` past `h`.
    pub fn read_i32(&self, h: Handle, byte: i64) -> Result<i32, HeapError> {
        self.read_uint(h, byte, 4).map(|v| v as u32 as i32)
    }

    /// The NUL-terminated string `h` points to (lossily decoded).
    pub fn c_string(&self, h: Handle) -> Result<String, HeapError> {
        let (obj, off) = self.slot(h)?;
        let o = &self.objects[obj];
        if !o.live {
            return Err(HeapError::UseAfterFree { name: o.name.to_string() });
        }
        let tail = o.bytes.get(off as usize..).unwrap_or(&[]);
        match tail.iter().position(|&b| b == 0) {
            Some(end) => Ok(String::from_utf8_lossy(&tail[..end]).into_owned()),
            None => Err(HeapError::OutOfBounds {
                name: o.name.to_string(),
                offset: off as i64,
                len: tail.len() + 1,
                size: o.bytes.len(),
            }),
        }
    }

    /// Copies `len` bytes from `src` to `dst` (both checked).
    pub fn copy(&mut self, dst: Handle, src: Handle, len: usize) -> Result<(), HeapError> {
        let data = self.read(src, 0, len)?.to_vec();
        self.write(dst, 0, &data)
    }
}

/// A little-endian integer of up to 8 bytes.
#[inline(always)]
pub fn read_le(b: &[u8]) -> u64 {
    match b.len() {
        1 => b[0] as u64,
        2 => u16::from_le_bytes([b[0], b[1]]) as u64,
        4 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64,
        8 => u64::from_le_bytes([b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7]]),
        _ => b.iter().rev().fold(0u64, |acc, &x| (acc << 8) | x as u64),
    }
}

/// Writes the low `b.len()` bytes of `v`, little-endian.
#[inline(always)]
pub fn write_le(b: &mut [u8], v: u64) {
    match b.len() {
        1 => b[0] = v as u8,
        2 => b.copy_from_slice(&(v as u16).to_le_bytes()),
        4 => b.copy_from_slice(&(v as u32).to_le_bytes()),
        8 => b.copy_from_slice(&v.to_le_bytes()),
        n => {
            for (i, x) in b.iter_mut().enumerate().take(n) {
                *x = (v >> (8 * i)) as u8;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accesses_are_checked_and_freed_objects_stay_recognisable() {
        let mut heap = Heap::default();
        let h = heap.alloc(8, ObjectKind::Allocation, &"f".into()).expect("alloc");
        heap.store(h, 4, 1, 7).expect("in bounds");
        assert_eq!(heap.load(h, Elem::I32, 4, 1), Ok(7));
        let oob = heap.load(h, Elem::I32, 4, 2);
        assert!(matches!(oob, Err(HeapError::OutOfBounds { offset: 8, len: 4, size: 8, .. })), "{oob:?}");
        assert!(matches!(heap.load(h, Elem::I32, 4, -1), Err(HeapError::OutOfBounds { offset: -4, .. })));
        heap.free(h).expect("first free");
        assert_eq!(heap.free(h), Err(HeapError::DoubleFree { name: "f".into() }));
        assert_eq!(heap.load(h, Elem::I32, 4, 0), Err(HeapError::UseAfterFree { name: "f".into() }));
        assert_eq!(heap.load(NULL, Elem::I32, 4, 0), Err(HeapError::Null));
        assert_eq!(heap.live_bytes(), 0);
    }

    #[test]
    fn slots_of_freed_objects_are_reused_and_old_handles_still_fail() {
        // A program that allocates in a loop: the heap keeps KEPT_FREED freed slots, not
        // one per allocation ever made.
        let mut heap = Heap::default();
        let first = heap.alloc(4, ObjectKind::Realization, &"f".into()).expect("alloc");
        heap.free(first).expect("free");
        for _ in 0..5000 {
            let h = heap.alloc(4, ObjectKind::Realization, &"g".into()).expect("alloc");
            heap.free(h).expect("free");
        }
        assert!(heap.objects().len() <= KEPT_FREED + 1, "{} slots", heap.objects().len());
        // Once `first`'s slot holds a live object again, its handle does not reach it.
        let slot_of = |h: Handle| decode(h).map(|(o, _)| o);
        let again = loop {
            let h = heap.alloc(4, ObjectKind::Allocation, &"h".into()).expect("alloc");
            if slot_of(h) == slot_of(first) {
                break h;
            }
            heap.free(h).expect("free");
        };
        assert_ne!(again, first);
        assert!(matches!(heap.load(first, Elem::I32, 4, 0), Err(HeapError::UseAfterFree { .. })));
        assert!(matches!(heap.free(first), Err(HeapError::DoubleFree { .. })));
        assert_eq!(heap.load(again, Elem::I32, 4, 0), Ok(0));
    }

    #[test]
    fn the_memory_limit_is_enforced() {
        let mut heap = Heap::new(100);
        assert!(heap.alloc(60, ObjectKind::Malloc, &"a".into()).is_ok());
        assert!(matches!(heap.alloc(60, ObjectKind::Malloc, &"b".into()), Err(HeapError::TooLarge { .. })));
    }

    #[test]
    fn lanes_load_sign_extended() {
        let mut heap = Heap::default();
        let h = heap.alloc(2, ObjectKind::Allocation, &"b".into()).expect("alloc");
        heap.store(h, 1, 0, 0xff).expect("store");
        assert_eq!(heap.load(h, Elem::Int(8), 1, 0), Ok(u64::MAX));
        assert_eq!(heap.load(h, Elem::UInt(8), 1, 0), Ok(255));
        assert_eq!(heap.load(h, Elem::BOOL, 1, 0), Ok(1));
    }
}
