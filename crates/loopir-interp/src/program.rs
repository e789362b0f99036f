//! A compiled program and its interface: the buffers and scalar parameters it reads
//! from outside (its free names, classified by the reference's symbol conventions).

use loopir::{Name, Type};

use crate::code::{Instr, Site};
use crate::elem::Elem;
use crate::runtime::RtFn;

/// A statement compiled for the interpreter (see [`crate::compile()`]).
#[derive(Clone, Debug)]
pub struct Program {
    pub(crate) code: Vec<Instr>,
    pub(crate) sites: Vec<Site>,
    pub(crate) registers: usize,
    pub(crate) constants: Vec<u64>,
    pub(crate) strings: Vec<Vec<u8>>,
    pub(crate) stack_slots: u32,
    pub(crate) destructors: Vec<RtFn>,
    pub(crate) externs: Vec<Name>,
    pub(crate) globals: Vec<Global>,
    pub(crate) device_aware: bool,
    pub(crate) interface: Interface,
}

impl Program {
    /// What the program needs from outside.
    pub fn interface(&self) -> &Interface {
        &self.interface
    }

    /// The number of instructions.
    pub fn len(&self) -> usize {
        self.code.len()
    }

    /// Whether the program has no instructions besides its end.
    pub fn is_empty(&self) -> bool {
        self.code.len() <= 1
    }

    /// The compiled code, one instruction per line (for debugging the compiler).
    pub fn listing(&self) -> String {
        self.code.iter().enumerate().map(|(k, i)| format!("{k:5}  {i:?}\n")).collect()
    }
}

/// A free name of the program, which must be given a value before it runs.
#[derive(Clone, Debug)]
pub(crate) struct Global {
    pub(crate) name: Name,
    pub(crate) lanes: u16,
    pub(crate) what: GlobalKind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum GlobalKind {
    /// A scalar parameter (entry of [`Interface::scalars`]).
    Scalar(usize),
    /// A symbol of a buffer argument (entry of [`Interface::buffers`]).
    Buffer(usize, BufferSymbol),
}

/// Which part of a buffer argument a symbol names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BufferSymbol {
    /// `b.buffer`: the `halide_buffer_t *`.
    Descriptor,
    /// `b`: the host pointer.
    Host,
    /// `b.min.N`.
    Min(u32),
    /// `b.extent.N`.
    Extent(u32),
    /// `b.stride.N`.
    Stride(u32),
    /// `b.type`.
    Type,
    /// `b.dimensions`.
    Dimensions,
    /// `b.host_dirty`.
    HostDirty,
    /// `b.device_dirty`.
    DeviceDirty,
    /// `b.device`.
    Device,
    /// `b.device_interface`.
    DeviceInterface,
    /// The buffer read or written as a Func, `b(x, y)` (before storage flattening).
    Storage,
}

impl BufferSymbol {
    /// Splits a free name into a buffer name and the symbol it names, by the reference's
    /// conventions (`b.min.0`, `b.buffer`, ...). A bare name is not split (whether it is
    /// a host pointer depends on its type).
    pub fn split(name: &str) -> Option<(&str, BufferSymbol)> {
        if let Some(b) = name.strip_suffix(".buffer") {
            return Some((b, BufferSymbol::Descriptor));
        }
        for (field, sym) in [
            (".type", BufferSymbol::Type),
            (".dimensions", BufferSymbol::Dimensions),
            (".host_dirty", BufferSymbol::HostDirty),
            (".device_dirty", BufferSymbol::DeviceDirty),
            (".device_interface", BufferSymbol::DeviceInterface),
            (".device", BufferSymbol::Device),
        ] {
            if let Some(b) = name.strip_suffix(field) {
                return Some((b, sym));
            }
        }
        let (rest, index) = name.rsplit_once('.')?;
        if index.is_empty() || !index.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let index: u32 = index.parse().ok()?;
        for (field, make) in [
            (".min", BufferSymbol::Min as fn(u32) -> BufferSymbol),
            (".extent", BufferSymbol::Extent),
            (".stride", BufferSymbol::Stride),
        ] {
            if let Some(b) = rest.strip_suffix(field) {
                return Some((b, make(index)));
            }
        }
        None
    }

    /// The type the symbol has in lowered IR.
    pub fn ty(self) -> Type {
        match self {
            BufferSymbol::Descriptor => Type::buffer_ptr(),
            BufferSymbol::Host | BufferSymbol::DeviceInterface => Type::void_ptr(),
            BufferSymbol::Type => Type::uint(32, 1),
            BufferSymbol::HostDirty | BufferSymbol::DeviceDirty => Type::BOOL,
            BufferSymbol::Device => Type::uint(64, 1),
            BufferSymbol::Min(_)
            | BufferSymbol::Extent(_)
            | BufferSymbol::Stride(_)
            | BufferSymbol::Dimensions
            | BufferSymbol::Storage => Type::INT32,
        }
    }
}

/// What a program reads from outside.
#[derive(Clone, Debug, Default)]
pub struct Interface {
    /// Buffer arguments, in the order the program first names them.
    pub buffers: Vec<BufferParam>,
    /// Scalar parameters, in the order the program first names them.
    pub scalars: Vec<ScalarParam>,
    /// Whether the program answers bounds queries (it calls
    /// `_halide_buffer_is_bounds_query`), so that its buffers' shapes can be asked of it.
    pub answers_bounds_queries: bool,
    /// Tuple-valued Funcs the program reads by calls. Halide's `.stmt` text does not print
    /// which value a call reads (`f(x)[1]` prints as `f(x)`), so unless the text is the
    /// lossless form, such reads of values other than the first are read as the first.
    pub tuple_reads: Vec<Name>,
    /// Realizations whose bounds the text leaves free (`f.x.min_realized` before
    /// allocation bounds inference): their storage grows to fit what is stored.
    pub growable_realizations: Vec<Name>,
}

impl Interface {
    /// The buffer argument named `name`.
    pub fn buffer(&self, name: &str) -> Option<&BufferParam> {
        self.buffers.iter().find(|b| &*b.name == name)
    }
}

/// A buffer argument.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BufferParam {
    /// Its name (`input` for `input.buffer`, `input.min.0`, ...).
    pub name: Name,
    /// Its element type, as the program's loads and stores of it say.
    pub elem: Option<Elem>,
    /// Its dimension count, as the program's uses of it say.
    pub dimensions: Option<usize>,
    /// Whether the program writes it.
    pub is_output: bool,
    /// Whether the program reads it as a Func (`b(x, y)`, before storage flattening).
    pub read_as_func: bool,
}

/// A scalar parameter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScalarParam {
    /// Its name.
    pub name: Name,
    /// Its type.
    pub ty: Type,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffer_symbols_split_by_the_reference_conventions() {
        assert_eq!(BufferSymbol::split("input.min.1"), Some(("input", BufferSymbol::Min(1))));
        assert_eq!(BufferSymbol::split("a.b.stride.0"), Some(("a.b", BufferSymbol::Stride(0))));
        assert_eq!(BufferSymbol::split("out.0.buffer"), Some(("out.0", BufferSymbol::Descriptor)));
        assert_eq!(BufferSymbol::split("out.device_dirty"), Some(("out", BufferSymbol::DeviceDirty)));
        assert_eq!(BufferSymbol::split("f.x.min_realized"), None);
        assert_eq!(BufferSymbol::split("sigma"), None);
        assert_eq!(BufferSymbol::split("x.min.s"), None);
    }
}
