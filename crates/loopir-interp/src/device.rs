//! Device memory, simulated on the host.
//!
//! A buffer's device allocation is a second object of the same size as its host memory
//! (`halide_device_malloc`); `halide_copy_to_device` and `halide_copy_to_host` move the
//! bytes as the dirty bits say, exactly as the reference runtime's device interface
//! does. Code inside GPU loops reads and writes a buffer's device copy when it has one,
//! so a missing copy shows up as stale values, as it would on a GPU.

use crate::buffer::{Descriptor, layout};
use crate::elem::Elem;
use crate::error::{ErrorKind, InterpError};
use crate::heap::{Handle, Heap, NULL};
use crate::runtime::{buffer_span, mem_error};

/// The memory a device kernel sees for a buffer: its device copy if it has one; else
/// its host memory, unless `strict` (the program manages device memory, so a kernel
/// reading a buffer that has none is an error).
pub(crate) fn view(
    heap: &Heap,
    descriptor: Handle,
    host: Handle,
    strict: bool,
) -> Result<Handle, InterpError> {
    if descriptor == NULL {
        return Ok(host);
    }
    let d = Descriptor::read(heap, descriptor).map_err(|e| mem_error(&e))?;
    if d.device != 0 {
        Ok(d.device)
    } else if strict {
        Err(InterpError::new(
            ErrorKind::MemoryAccess,
            "a device loop accesses a buffer that has no device allocation (a missing halide_device_malloc or halide_copy_to_device)",
        ))
    } else {
        Ok(host)
    }
}

/// Copies a buffer's bytes between its host and device memory (`to_host` picks the
/// direction).
pub(crate) fn copy(heap: &mut Heap, d: &Descriptor, to_host: bool) -> Result<(), InterpError> {
    if d.host == NULL || d.device == 0 {
        return Err(InterpError::new(
            ErrorKind::MemoryAccess,
            "a copy between host and device of a buffer that lacks one of them",
        ));
    }
    let dims = d.dims(heap).map_err(|e| mem_error(&e))?;
    let size = d.elem().unwrap_or(Elem::UInt(8)).bytes() as i64;
    let (lo, hi) = buffer_span(&dims);
    let len = ((hi - lo).max(0) * size) as usize;
    let (src, dst) = if to_host { (d.device, d.host) } else { (d.host, d.device) };
    let data = heap.read(src, lo * size, len).map_err(|e| mem_error(&e))?.to_vec();
    heap.write(dst, lo * size, &data).map_err(|e| mem_error(&e))
}

/// The checks every device function of the runtime makes on its buffer first
/// (`debug_log_and_validate_buf`): the error code and message, if one fails.
pub(crate) fn validate(d: &Descriptor) -> Option<(i32, &'static str)> {
    let (has_interface, has_device) = (d.device_interface != NULL, d.device != 0);
    if has_device && !has_interface {
        return Some((-19, "Buffer has a non-zero device but no device interface."));
    }
    if has_interface && !has_device {
        return Some((-36, "Buffer has a non-null device_interface but device is 0."));
    }
    if d.flags & layout::HOST_DIRTY != 0 && d.flags & layout::DEVICE_DIRTY != 0 {
        return Some((-37, "Buffer has both host and device dirty bits set."));
    }
    None
}
