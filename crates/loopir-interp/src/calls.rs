//! Executing runtime calls: the `halide_buffer_t` helpers, errors, memory, device
//! simulation, semaphores, and the hand-off of profiler, trace and extern calls to the
//! embedder's [`crate::Runtime`].

use loopir::Name;

use crate::buffer::{Descriptor, layout};
use crate::code::{Arg, NO_REG, Reg};
use crate::device;
use crate::elem::Elem;
use crate::error::{ErrorKind, InterpError};
use crate::exec::Machine;
use crate::heap::{Handle, NULL, ObjectKind};
use crate::runtime::{
    BufferFn, DeviceFn, ExternArg, MemoizationFn, ProfilerCall, ProfilerFn, RtFn, RuntimeCx, TraceEvent,
    descriptor, device_alloc, mem_error, set_flag,
};

impl Machine<'_> {
    /// Calls `f` with `args` (read from `regs`), writing its result (of `lanes` lanes of
    /// `ret`) to `dst` unless `dst` is [`NO_REG`].
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn call(
        &mut self,
        f: RtFn,
        args: &[Arg],
        regs: &mut [u64],
        dst: Reg,
        ret: Elem,
        lanes: u16,
        _site: u32,
    ) -> Result<(), InterpError> {
        if let RtFn::Math(m, bits) = f {
            for i in 0..lanes as usize {
                let lane = |k: usize| -> f64 {
                    args.get(k)
                        .map(|a| a.elem.to_f64(regs[a.reg as usize + if a.lanes == 1 { 0 } else { i }]))
                        .unwrap_or(0.0)
                };
                let r = m.apply(bits, lane(0), lane(1));
                if dst != NO_REG {
                    regs[dst as usize + i] =
                        if m.is_predicate() { (r != 0.0) as u64 } else { ret.from_f64(r) };
                }
            }
            return Ok(());
        }
        let a: Vec<ExternArg> =
            args.iter().map(|a| ExternArg { value: regs[a.reg as usize], elem: a.elem }).collect();
        let v = self.call_scalar(f, &a)?;
        if dst != NO_REG {
            let v = ret.wrap(v);
            for i in 0..lanes as usize {
                regs[dst as usize + i] = v;
            }
        }
        Ok(())
    }

    fn call_scalar(&mut self, f: RtFn, a: &[ExternArg]) -> Result<u64, InterpError> {
        let arg = |k: usize| a.get(k).map(|x| x.value).unwrap_or(0);
        let int = |k: usize| a.get(k).map(|x| x.elem.as_i128(x.value) as i64).unwrap_or(0);
        let mem = |e: crate::heap::HeapError| mem_error(&e);
        Ok(match f {
            RtFn::Buffer(b) => self.buffer_call(b, a)?,
            RtFn::Error(e) => {
                let (code, message) = e.report(a, &self.heap);
                self.last_error = Some(message);
                code as i64 as u64
            }
            RtFn::Malloc => {
                let size = int(0).max(0) as u128;
                self.heap.alloc(size, ObjectKind::Malloc, &Name::from("halide_malloc")).map_err(mem)?
            }
            RtFn::Free => {
                if arg(0) != NULL {
                    self.heap.free(arg(0)).map_err(mem)?;
                }
                0
            }
            RtFn::Memoization(MemoizationFn::Lookup) => {
                // A miss: each of the tuple's buffers gets host memory to compute into,
                // unless it has some (before the reference rewrites memoized allocations
                // to use the cache's memory, the realization's own is the buffer's).
                let tuple_count = int(3);
                if tuple_count < 0 {
                    return Err(InterpError::new(
                        ErrorKind::BadProgram,
                        format!("halide_memoization_cache_lookup is given {tuple_count} buffers"),
                    ));
                }
                for k in 0..tuple_count {
                    let b = self.heap.read_uint(arg(4), 8 * k, 8).map_err(mem)?;
                    let d = descriptor(&self.heap, b, "halide_memoization_cache_lookup")?;
                    if d.host != NULL {
                        continue;
                    }
                    self.allocate_host(b, &d, &Name::from("halide_memoization_cache_lookup"))?;
                }
                1
            }
            RtFn::Memoization(MemoizationFn::Store) => 0,
            RtFn::Memoization(MemoizationFn::Release) => {
                self.heap.free(device_base(&self.heap, arg(0))?).map_err(mem)?;
                0
            }
            RtFn::Device(DeviceFn::Interface(k)) => self.device_interface(k)?,
            RtFn::Device(d) => self.device_call(d, a)? as i64 as u64,
            RtFn::SemaphoreInit => {
                self.heap.write_uint(arg(0), 0, 4, int(1) as u64).map_err(mem)?;
                int(1) as u64
            }
            RtFn::SemaphoreRelease => {
                let old = self.heap.read_i32(arg(0), 0).map_err(mem)? as i64;
                let new = old + int(1);
                self.heap.write_uint(arg(0), 0, 4, new as u64).map_err(mem)?;
                new as u64
            }
            RtFn::SemaphoreTryAcquire => {
                let n = int(1);
                let v = self.heap.read_i32(arg(0), 0).map_err(mem)? as i64;
                if n == 0 {
                    1
                } else if v >= n {
                    self.heap.write_uint(arg(0), 0, 4, (v - n) as u64).map_err(mem)?;
                    1
                } else {
                    0
                }
            }
            // The thread the tracer and the runtime see (the task's start number), not the
            // slot that holds it: a slot is reused once its task ends.
            RtFn::CurrentThreadId => self.thread_ids().0 as u32 as u64,
            RtFn::Profiler(p) => self.profiler_call(p, a)? as u64,
            RtFn::TraceHelper => {
                let event = self.read_trace_event(a)?;
                let (ops, (thread_id, parent_thread)) = (self.ops, self.thread_ids());
                let (runtime, heap) = self.runtime_and_heap();
                let mut cx = RuntimeCx { heap, ops, thread_id, parent_thread };
                runtime.trace(&event, &mut cx)? as i64 as u64
            }
            RtFn::Stringify => {
                let mut s = String::new();
                for x in a {
                    match x.elem {
                        Elem::Handle => s.push_str(&self.heap.c_string(x.value).map_err(mem)?),
                        e if e.is_float() => s.push_str(&format!("{:.6}", e.to_f64(x.value))),
                        e => s.push_str(&e.as_i128(x.value).to_string()),
                    }
                }
                s.push('\0');
                let h = self
                    .heap
                    .alloc(s.len() as u128, ObjectKind::String, &Name::from("stringify"))
                    .map_err(mem)?;
                self.heap.write(h, 0, s.as_bytes()).map_err(mem)?;
                h
            }
            RtFn::RegisterDestructor(k) => {
                let Some(&df) = self.program().destructors.get(k as usize) else {
                    return Err(InterpError::new(
                        ErrorKind::BadProgram,
                        "register_destructor of an unknown function",
                    ));
                };
                let obj = arg(1);
                if obj == NULL {
                    return Err(InterpError::new(
                        ErrorKind::BadProgram,
                        "register_destructor of a null object",
                    ));
                }
                self.destructors.push((df, obj));
                obj
            }
            RtFn::LoadStructMember { offset } => {
                // The caller's result type decides the width; read 8 bytes at most.
                self.heap
                    .read_uint(arg(0), offset as i64, 8)
                    .or_else(|_| self.heap.read_uint(arg(0), offset as i64, 4))
                    .map_err(mem)?
            }
            RtFn::Math(..) => 0,
            RtFn::User(k) => {
                let name = self.program().externs.get(k as usize).cloned().unwrap_or_else(|| Name::from("?"));
                let (ops, (thread_id, parent_thread)) = (self.ops, self.thread_ids());
                let (runtime, heap) = self.runtime_and_heap();
                let mut cx = RuntimeCx { heap, ops, thread_id, parent_thread };
                runtime.extern_call(&name, a, &mut cx)?
            }
        })
    }

    fn buffer_call(&mut self, f: BufferFn, a: &[ExternArg]) -> Result<u64, InterpError> {
        let arg = |k: usize| a.get(k).map(|x| x.value).unwrap_or(0);
        let int = |k: usize| a.get(k).map(|x| x.elem.as_i128(x.value) as i64).unwrap_or(0);
        let mem = |e: crate::heap::HeapError| mem_error(&e);
        let routine = "a _halide_buffer helper";
        let b = arg(0);
        let dim_of = |m: &Machine<'_>, b: Handle, d: i64| -> Result<crate::buffer::Dim, InterpError> {
            let desc = descriptor(&m.heap, b, routine)?;
            if d < 0 || d >= desc.dimensions as i64 {
                return Err(InterpError::new(
                    ErrorKind::MemoryAccess,
                    format!("dimension {d} of a buffer with {} dimensions", desc.dimensions),
                ));
            }
            desc.dim(&m.heap, d).map_err(|e| mem_error(&e))
        };
        Ok(match f {
            BufferFn::GetDimensions => descriptor(&self.heap, b, routine)?.dimensions as i64 as u64,
            BufferFn::GetHost => descriptor(&self.heap, b, routine)?.host,
            BufferFn::GetDevice => descriptor(&self.heap, b, routine)?.device,
            BufferFn::GetDeviceInterface => descriptor(&self.heap, b, routine)?.device_interface,
            BufferFn::GetMin => dim_of(self, b, int(1))?.min as i64 as u64,
            BufferFn::GetExtent => dim_of(self, b, int(1))?.extent as i64 as u64,
            BufferFn::GetStride => dim_of(self, b, int(1))?.stride as i64 as u64,
            BufferFn::GetMax => {
                let d = dim_of(self, b, int(1))?;
                d.min.wrapping_add(d.extent).wrapping_sub(1) as i64 as u64
            }
            BufferFn::SetHostDirty | BufferFn::SetDeviceDirty => {
                let bit = if f == BufferFn::SetHostDirty { layout::HOST_DIRTY } else { layout::DEVICE_DIRTY };
                descriptor(&self.heap, b, routine)?;
                set_flag(&mut self.heap, b, bit, arg(1) & 1 != 0).map_err(mem)?;
                0
            }
            BufferFn::GetHostDirty => descriptor(&self.heap, b, routine)?.flags & layout::HOST_DIRTY,
            BufferFn::GetDeviceDirty => {
                (descriptor(&self.heap, b, routine)?.flags & layout::DEVICE_DIRTY) >> 1
            }
            BufferFn::GetShape => descriptor(&self.heap, b, routine)?.dim,
            BufferFn::IsBoundsQuery => descriptor(&self.heap, b, routine)?.is_bounds_query() as u64,
            BufferFn::GetType => descriptor(&self.heap, b, routine)?.ty as u64,
            BufferFn::Init => {
                // (dst, dst_shape, host, device, device_interface, code, bits, dimensions,
                // shape, flags)
                let (dst, dst_shape, shape) = (arg(0), arg(1), arg(8));
                let dimensions = int(7);
                let d = Descriptor {
                    device: arg(3),
                    device_interface: arg(4),
                    host: arg(2),
                    flags: arg(9),
                    ty: (int(5) as u32 & 0xff) | ((int(6) as u32 & 0xff) << 8) | (1 << 16),
                    dimensions: dimensions as i32,
                    dim: dst_shape,
                };
                if shape != dst_shape {
                    let len = (dimensions.max(0) as usize) * layout::DIM_SIZE;
                    let data = self.heap.read(shape, 0, len).map_err(mem)?.to_vec();
                    self.heap.write(dst_shape, 0, &data).map_err(mem)?;
                }
                write_fields(self, dst, &d)?;
                dst
            }
            BufferFn::InitFromBuffer => {
                let (dst, dst_shape, src) = (arg(0), arg(1), arg(2));
                let mut d = descriptor(&self.heap, src, routine)?;
                let len = d.dimensions.max(0) as usize * layout::DIM_SIZE;
                let data = self.heap.read(d.dim, 0, len).map_err(mem)?.to_vec();
                self.heap.write(dst_shape, 0, &data).map_err(mem)?;
                d.dim = dst_shape;
                write_fields(self, dst, &d)?;
                dst
            }
            BufferFn::Crop => {
                // (user_context, dst, dst_shape, src, min, extent); the context may be
                // absent.
                let o = if a.len() >= 6 { 1 } else { 0 };
                let (dst, dst_shape, src, mins, extents) =
                    (arg(o), arg(o + 1), arg(o + 2), arg(o + 3), arg(o + 4));
                let s = descriptor(&self.heap, src, routine)?;
                let dims = s.dims(&self.heap).map_err(mem)?;
                let mut offset = 0i64;
                for (i, sd) in dims.iter().enumerate() {
                    let min = self.heap.read_i32(mins, 4 * i as i64).map_err(mem)?;
                    let extent = self.heap.read_i32(extents, 4 * i as i64).map_err(mem)?;
                    let at = (i * layout::DIM_SIZE) as i64;
                    self.heap.write_uint(dst_shape, at, 4, min as u32 as u64).map_err(mem)?;
                    self.heap.write_uint(dst_shape, at + 4, 4, extent as u32 as u64).map_err(mem)?;
                    self.heap.write_uint(dst_shape, at + 8, 4, sd.stride as u32 as u64).map_err(mem)?;
                    self.heap.write_uint(dst_shape, at + 12, 4, 0).map_err(mem)?;
                    offset += (min as i64 - sd.min as i64) * sd.stride as i64;
                }
                let size = s.elem().map(|e| e.bytes()).unwrap_or(1) as i64;
                let host = if s.host == NULL { NULL } else { (s.host as i64 + offset * size) as u64 };
                let d = Descriptor { device: 0, device_interface: NULL, host, dim: dst_shape, ..s };
                write_fields(self, dst, &d)?;
                dst
            }
            BufferFn::SetBounds => {
                if b != NULL {
                    let desc = descriptor(&self.heap, b, routine)?;
                    let at = int(1) * layout::DIM_SIZE as i64;
                    self.heap.write_uint(desc.dim, at, 4, int(2) as u64).map_err(mem)?;
                    self.heap.write_uint(desc.dim, at + 4, 4, int(3) as u64).map_err(mem)?;
                }
                b
            }
            BufferFn::RetireCropAfterExtern | BufferFn::RetireCropsAfterExtern => {
                // (user_context, obj): pairs of (crop, parent), null-terminated for the
                // plural form.
                let obj = arg(a.len().saturating_sub(1));
                let mut at = 0i64;
                loop {
                    let crop = self.heap.read_uint(obj, at, 8).map_err(mem)?;
                    if crop == NULL {
                        break;
                    }
                    let parent = self.heap.read_uint(obj, at + 8, 8).map_err(mem)?;
                    let c = descriptor(&self.heap, crop, routine)?;
                    if c.flags & layout::HOST_DIRTY != 0 {
                        set_flag(&mut self.heap, parent, layout::HOST_DIRTY, true).map_err(mem)?;
                    }
                    if c.flags & layout::DEVICE_DIRTY != 0 {
                        set_flag(&mut self.heap, parent, layout::DEVICE_DIRTY, true).map_err(mem)?;
                    }
                    if f == BufferFn::RetireCropAfterExtern {
                        break;
                    }
                    at += 16;
                }
                0
            }
        })
    }

    fn device_call(&mut self, f: DeviceFn, a: &[ExternArg]) -> Result<i32, InterpError> {
        let arg = |k: usize| a.get(k).map(|x| x.value).unwrap_or(0);
        let mem = |e: crate::heap::HeapError| mem_error(&e);
        if matches!(f, DeviceFn::SyncGlobal) {
            return Ok(if arg(0) == NULL { -19 } else { 0 });
        }
        if matches!(f, DeviceFn::Release | DeviceFn::HostNopFree) {
            return Ok(0);
        }
        let b = arg(0);
        if b == NULL {
            let msg = "Buffer pointer passed to a device function is null.";
            self.last_error = Some(msg.into());
            return Ok(-38);
        }
        let d = descriptor(&self.heap, b, "a device function")?;
        if let Some((code, msg)) = device::validate(&d) {
            self.last_error = Some(msg.into());
            return Ok(code);
        }
        let name = self.heap.object(b).map(|o| o.name.clone()).unwrap_or_else(|_| Name::from("buffer"));
        let device_name = Name::from(format!("{name} (device)"));
        match f {
            DeviceFn::Malloc => {
                let iface = arg(1);
                if d.device_interface != NULL && d.device_interface != iface {
                    self.last_error =
                        Some("halide_device_malloc doesn't support switching interfaces".into());
                    return Ok(-42);
                }
                if d.device == 0 {
                    let dev = device_alloc(&mut self.heap, &d, &device_name)?;
                    self.heap.write_uint(b, layout::DEVICE, 8, dev).map_err(mem)?;
                    self.heap.write_uint(b, layout::DEVICE_INTERFACE, 8, iface).map_err(mem)?;
                }
                Ok(0)
            }
            DeviceFn::CopyToDevice => {
                let iface = if arg(1) == NULL { d.device_interface } else { arg(1) };
                if iface == NULL {
                    return Ok(-19);
                }
                if d.device != 0 && d.device_interface != iface {
                    self.last_error =
                        Some("halide_copy_to_device does not support switching interfaces".into());
                    return Ok(-42);
                }
                if d.device == 0 {
                    let dev = device_alloc(&mut self.heap, &d, &device_name)?;
                    self.heap.write_uint(b, layout::DEVICE, 8, dev).map_err(mem)?;
                    self.heap.write_uint(b, layout::DEVICE_INTERFACE, 8, iface).map_err(mem)?;
                }
                let d = descriptor(&self.heap, b, "halide_copy_to_device")?;
                if d.flags & layout::HOST_DIRTY != 0 {
                    if d.flags & layout::DEVICE_DIRTY != 0 {
                        return Ok(-15);
                    }
                    device::copy(&mut self.heap, &d, false)?;
                    set_flag(&mut self.heap, b, layout::HOST_DIRTY, false).map_err(mem)?;
                }
                Ok(0)
            }
            DeviceFn::CopyToHost => {
                if d.flags & layout::DEVICE_DIRTY == 0 {
                    return Ok(0);
                }
                if d.flags & layout::HOST_DIRTY != 0 {
                    return Ok(-14);
                }
                if d.device_interface == NULL {
                    return Ok(-19);
                }
                device::copy(&mut self.heap, &d, true)?;
                set_flag(&mut self.heap, b, layout::DEVICE_DIRTY, false).map_err(mem)?;
                Ok(0)
            }
            DeviceFn::Free | DeviceFn::FreeAsDestructor => {
                if d.device != 0 {
                    self.heap.free(device_base(&self.heap, d.device)?).map_err(mem)?;
                    self.heap.write_uint(b, layout::DEVICE, 8, 0).map_err(mem)?;
                    self.heap.write_uint(b, layout::DEVICE_INTERFACE, 8, NULL).map_err(mem)?;
                }
                set_flag(&mut self.heap, b, layout::DEVICE_DIRTY, false).map_err(mem)?;
                Ok(0)
            }
            DeviceFn::AndHostMalloc => {
                let iface = arg(1);
                self.allocate_host(b, &d, &name)?;
                let d = descriptor(&self.heap, b, "halide_device_and_host_malloc")?;
                if d.device == 0 {
                    let dev = device_alloc(&mut self.heap, &d, &device_name)?;
                    self.heap.write_uint(b, layout::DEVICE, 8, dev).map_err(mem)?;
                    self.heap.write_uint(b, layout::DEVICE_INTERFACE, 8, iface).map_err(mem)?;
                }
                Ok(0)
            }
            DeviceFn::AndHostFree | DeviceFn::AndHostFreeAsDestructor => {
                if d.device != 0 {
                    self.heap.free(device_base(&self.heap, d.device)?).map_err(mem)?;
                    self.heap.write_uint(b, layout::DEVICE, 8, 0).map_err(mem)?;
                    self.heap.write_uint(b, layout::DEVICE_INTERFACE, 8, NULL).map_err(mem)?;
                }
                if d.host != NULL {
                    self.heap.free(device_base(&self.heap, d.host)?).map_err(mem)?;
                    self.heap.write_uint(b, layout::HOST, 8, NULL).map_err(mem)?;
                }
                set_flag(&mut self.heap, b, layout::DEVICE_DIRTY | layout::HOST_DIRTY, false).map_err(mem)?;
                Ok(0)
            }
            DeviceFn::Sync => Ok(0),
            DeviceFn::Interface(_) | DeviceFn::SyncGlobal | DeviceFn::Release | DeviceFn::HostNopFree => {
                Ok(0)
            }
        }
    }

    /// Gives buffer `b` (described by `d`) runtime host memory over its whole shape.
    fn allocate_host(
        &mut self,
        b: Handle,
        d: &crate::buffer::Descriptor,
        name: &Name,
    ) -> Result<(), InterpError> {
        let mem = |e: crate::heap::HeapError| mem_error(&e);
        let dims = d.dims(&self.heap).map_err(mem)?;
        let size = d.elem().map(|e| e.bytes()).unwrap_or(1) as u128;
        let (lo, hi) = crate::buffer::offset_span(&dims);
        let base = self.heap.alloc((hi - lo).max(0) as u128 * size, ObjectKind::Malloc, name).map_err(mem)?;
        self.heap.write_uint(b, layout::HOST, 8, base + (-lo) as u64 * size as u64).map_err(mem)
    }

    fn device_interface(&mut self, k: u8) -> Result<Handle, InterpError> {
        while self.device_interfaces.len() <= k as usize {
            let name =
                crate::runtime::DEVICE_APIS.get(self.device_interfaces.len()).copied().unwrap_or("device");
            let h = self
                .heap
                .alloc(8, ObjectKind::DeviceInterface, &Name::from(format!("halide_{name}_device_interface")))
                .map_err(|e| mem_error(&e))?;
            self.device_interfaces.push(h);
        }
        Ok(self.device_interfaces[k as usize])
    }

    fn profiler_call(&mut self, p: ProfilerFn, a: &[ExternArg]) -> Result<i64, InterpError> {
        let arg = |k: usize| a.get(k).map(|x| x.value).unwrap_or(0);
        let int = |k: usize| a.get(k).map(|x| x.elem.as_i128(x.value) as i64).unwrap_or(0);
        let mem = |e: crate::heap::HeapError| mem_error(&e);
        // The sampling-token calls act on the program's memory only.
        match p {
            ProfilerFn::InitSamplingToken => {
                self.heap.write_uint(arg(0), 0, 4, int(1) as u64).map_err(mem)?;
                return Ok(0);
            }
            ProfilerFn::AcquireSamplingToken => {
                let old = self.heap.read_uint(arg(0), 0, 4).map_err(mem)?;
                self.heap.write_uint(arg(0), 0, 4, 1).map_err(mem)?;
                self.heap.write_uint(arg(1), 0, 4, old).map_err(mem)?;
                return Ok(0);
            }
            ProfilerFn::ReleaseSamplingToken => {
                if self.heap.read_uint(arg(1), 0, 4).map_err(mem)? == 0 {
                    self.heap.write_uint(arg(0), 0, 4, 0).map_err(mem)?;
                    self.heap.write_uint(arg(1), 0, 4, 1).map_err(mem)?;
                }
                return Ok(0);
            }
            _ => {}
        }
        let call = match p {
            ProfilerFn::InstanceStart => {
                // (pipeline, num_funcs, names, parents, canonical_ids, kinds,
                // buffer_func_ids, instance), or Halide 21's (pipeline, num_funcs, names,
                // instance)
                let n = int(1);
                if n < 0 {
                    return Err(InterpError::new(
                        ErrorKind::BadProgram,
                        format!("halide_profiler_instance_start is given {n} funcs"),
                    ));
                }
                let mut names = Vec::new();
                for k in 0..n {
                    let ptr = self.heap.read_uint(arg(2), 8 * k, 8).map_err(mem)?;
                    names.push(self.heap.c_string(ptr).map_err(mem)?);
                }
                let ints = |m: &Machine<'_>, h: Handle| -> Result<Vec<i32>, InterpError> {
                    (0..n).map(|k| m.heap.read_i32(h, 4 * k).map_err(|e| mem_error(&e))).collect()
                };
                let pipeline = self.heap.c_string(arg(0)).map_err(mem)?;
                if a.len() == 4 {
                    // Halide 21's form: a flat list of entries, without the tables of
                    // the reference's report tree (every entry is a root).
                    ProfilerCall::InstanceStart {
                        pipeline,
                        names,
                        parents: Vec::new(),
                        canonical_ids: Vec::new(),
                        kinds: Vec::new(),
                        buffer_func_ids: Vec::new(),
                        instance: arg(3),
                    }
                } else {
                    ProfilerCall::InstanceStart {
                        pipeline,
                        names,
                        parents: ints(self, arg(3))?,
                        canonical_ids: ints(self, arg(4))?,
                        kinds: ints(self, arg(5))?,
                        buffer_func_ids: ints(self, arg(6))?,
                        instance: arg(7),
                    }
                }
            }
            ProfilerFn::InstanceEnd => ProfilerCall::InstanceEnd { instance: arg(0) },
            ProfilerFn::SetCurrentFunc => {
                ProfilerCall::SetCurrentFunc { instance: arg(0), func: int(1) as i32, token: arg(2) }
            }
            ProfilerFn::EnableInstance => ProfilerCall::EnableInstance { instance: arg(0) },
            ProfilerFn::IncrActiveThreads => ProfilerCall::IncrActiveThreads { instance: arg(0) },
            ProfilerFn::DecrActiveThreads => ProfilerCall::DecrActiveThreads { instance: arg(0) },
            ProfilerFn::MemoryAllocate => {
                ProfilerCall::MemoryAllocate { instance: arg(0), func: int(1) as i32, bytes: arg(2) }
            }
            ProfilerFn::MemoryFree => {
                ProfilerCall::MemoryFree { instance: arg(0), func: int(1) as i32, bytes: arg(2) }
            }
            ProfilerFn::StackPeakUpdate => ProfilerCall::StackPeakUpdate { instance: arg(0), values: arg(1) },
            ProfilerFn::InitSamplingToken
            | ProfilerFn::AcquireSamplingToken
            | ProfilerFn::ReleaseSamplingToken => {
                return Ok(0);
            }
        };
        let (ops, (thread_id, parent_thread)) = (self.ops, self.thread_ids());
        let (runtime, heap) = self.runtime_and_heap();
        let mut cx = RuntimeCx { heap, ops, thread_id, parent_thread };
        runtime.profiler(&call, &mut cx)
    }

    fn read_trace_event(&self, a: &[ExternArg]) -> Result<TraceEvent, InterpError> {
        // (func, value, coordinates, type_code, type_bits, type_lanes, event, parent_id,
        // thread_id, value_index, dimensions, trace_tag)
        let arg = |k: usize| a.get(k).map(|x| x.value).unwrap_or(0);
        let int = |k: usize| a.get(k).map(|x| x.elem.as_i128(x.value) as i64).unwrap_or(0);
        let mem = |e: crate::heap::HeapError| mem_error(&e);
        let (code, bits, lanes, dims) = (int(3), int(4), int(5), int(10));
        // The fields of a `halide_type_t` and the coordinate count; out of range, the
        // runtime would read a different event than the IR describes.
        let fields = [
            ("type code", code, 255),
            ("type bits", bits, 255),
            ("type lanes", lanes, 65535),
            ("dimensions", dims, i32::MAX.into()),
        ];
        for (what, v, max) in fields {
            if !(0..=max).contains(&v) {
                return Err(InterpError::new(
                    ErrorKind::BadProgram,
                    format!("halide_trace_helper is given {what} {v}, outside 0..={max}"),
                ));
            }
        }
        let coordinates = if arg(2) == NULL {
            Vec::new()
        } else {
            (0..dims).map(|k| self.heap.read_i32(arg(2), 4 * k)).collect::<Result<_, _>>().map_err(mem)?
        };
        let value_bytes = (lanes * ((bits + 7) / 8)) as usize;
        let value = if arg(1) == NULL || value_bytes == 0 {
            Vec::new()
        } else {
            self.heap.read(arg(1), 0, value_bytes).map_err(mem)?.to_vec()
        };
        Ok(TraceEvent {
            func: self.heap.c_string(arg(0)).map_err(mem)?,
            event: int(6) as i32,
            parent_id: int(7) as i32,
            thread_id: int(8) as i32,
            value_index: int(9) as i32,
            coordinates,
            ty: code as u32 | ((bits as u32) << 8) | ((lanes as u32) << 16),
            value,
            tag: if arg(11) == NULL { String::new() } else { self.heap.c_string(arg(11)).map_err(mem)? },
        })
    }
}

/// Writes every field of a descriptor (not its dims).
fn write_fields(m: &mut Machine<'_>, b: Handle, d: &Descriptor) -> Result<(), InterpError> {
    let mem = |e: crate::heap::HeapError| mem_error(&e);
    m.heap.write_uint(b, layout::DEVICE, 8, d.device).map_err(mem)?;
    m.heap.write_uint(b, layout::DEVICE_INTERFACE, 8, d.device_interface).map_err(mem)?;
    m.heap.write_uint(b, layout::HOST, 8, d.host).map_err(mem)?;
    m.heap.write_uint(b, layout::FLAGS, 8, d.flags).map_err(mem)?;
    m.heap.write_uint(b, layout::TYPE, 4, d.ty as u64).map_err(mem)?;
    m.heap.write_uint(b, layout::DIMENSIONS, 4, d.dimensions as u32 as u64).map_err(mem)?;
    m.heap.write_uint(b, layout::DIM, 8, d.dim).map_err(mem)
}

/// The handle of the start of the object a (possibly offset) pointer points into.
fn device_base(heap: &crate::heap::Heap, h: Handle) -> Result<Handle, InterpError> {
    heap.object(h).map_err(|e| mem_error(&e))?;
    Ok(h & !0xffff_ffffu64)
}
