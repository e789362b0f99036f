"""Makes bounds-inference cases from Halide 21's lowering log (see README.md).

Usage: python3 gen.py OUT_DIR [NAME ...]            test cases (fixtures/bounds/halide21)
       python3 gen.py --workloads OUT_DIR [NAME ...] B14 inputs (fixtures/bounds/workloads)
HALIDE_PY: the unpacked wheel's directory.
"""

import json
import os
import re
import subprocess
import sys

HALIDE_PY = os.environ.get("HALIDE_PY", "/tmp/hl/x")


def pipelines():
    sys.path.insert(0, HALIDE_PY)
    import halide as hl

    x, y, c = hl.Var("x"), hl.Var("y"), hl.Var("c")
    xo, xi, yo, yi = hl.Var("xo"), hl.Var("xi"), hl.Var("yo"), hl.Var("yi")
    i32, f32, u8, u16 = hl.Int(32), hl.Float(32), hl.UInt(8), hl.UInt(16)

    def func_env(f, types, args, updates=()):
        # The Func itself: Halide may rename it while compiling (outputs of a Pipeline).
        return f, {"types": types, "args": args, "updates": list(updates)}

    def stmt_type(t):
        # The type's name as the .stmt text prints it (Python says `bool` for uint1).
        return "uint1" if str(t) == "bool" else str(t)

    def pure_envs(*funcs):
        # Funcs without update stages, their value types and pure arguments as Halide
        # reports them.
        return dict(func_env(f, [stmt_type(t) for t in f.types()], [a.name() for a in f.args()]) for f in funcs)

    def rdom_env(r, dims):
        rvars = {"x": r.x, "y": r.y, "z": r.z, "w": r.w}
        return {"rvars": [{"name": rvars[d].name(), "min": str(lo), "extent": str(ext)} for d, (lo, ext) in dims]}

    cases = {}

    def case(fn):
        cases[fn.__name__] = fn
        return fn

    @case
    def scalar_reduction():
        inp = hl.ImageParam(u16, 2, "input")
        total, out = hl.Func("total"), hl.Func("out")
        r = hl.RDom([(0, 100), (0, 100)], "r")
        total[()] = 0
        total[()] = total[()] + hl.i32(inp[r.x, r.y])
        out[x] = total[()] * 2 + x
        total.compute_root()
        env = dict([func_env(total, ["int32"], [], [rdom_env(r, [("x", (0, 100)), ("y", (0, 100))])]),
                    func_env(out, ["int32"], ["x"])])
        return out, [inp], [total, out], env

    @case
    def loopless_update():
        inp = hl.ImageParam(i32, 1, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x] = inp[x] + 1
        f[3] = 7
        f[x] = f[x] * 2
        out[x] = f[x - 1] + f[x + 1]
        f.compute_root()
        env = dict([func_env(f, ["int32"], ["x"], [{}, {}]), func_env(out, ["int32"], ["x"])])
        return out, [inp], [f, out], env

    @case
    def halving_chain_clamp():
        # A size halved 31 times, as a 32-level pyramid computes its smallest level's.
        # Folding the halvings into one division multiplies the divisors past 2^31; the
        # reference's rules refuse that fold (`!overflows(...)` in the expression's own
        # width) instead of producing an overflow marker, so the box stays bounded.
        inp = hl.ImageParam(f32, 1, "input")
        w = hl.Param(i32, "w")
        size = w
        for _ in range(31):
            size = (size + 1) / 2
        f, out = hl.Func("f"), hl.Func("out")
        f[x] = inp[hl.clamp(x, 0, inp.width() - 1)]
        out[x] = f[hl.clamp(2 * x - 1, 0, size - 1)] + f[hl.clamp(2 * x + 2, 0, size - 1)]
        f.compute_root()
        env = pure_envs(f, out)
        return out, [inp, w], [f, out], env

    @case
    def negative_div_mod_indices():
        # Euclidean division and modulo by negative and non-power-of-two constants in
        # call arguments, and a negated loop variable.
        inp = hl.ImageParam(f32, 2, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x, y] = inp[x, y] * 2
        out[x, y] = (f[(0 - x) / 3, y % 5] + f[(x * 3) % 16, (0 - y) % 7]
                     + f[x / -2, (y - 9) / 4])
        f.compute_root()
        env = pure_envs(f, out)
        return out, [inp], [f, out], env

    @case
    def narrow_wrapping_indices():
        # Index arithmetic in types that wrap (8 and 16 bits), widened back to int32.
        inp = hl.ImageParam(f32, 1, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x] = inp[x] + 1
        out[x] = (f[hl.i32(hl.u8(x) + hl.u8(200))] + f[hl.i32(hl.i16(x) * hl.i16(300))]
                  + f[hl.i32(hl.u16(x * 7))])
        f.compute_root()
        env = pure_envs(f, out)
        return out, [inp], [f, out], env

    @case
    def int64_and_float_indices():
        # Indices computed in 64 bits and from a float parameter.
        inp = hl.ImageParam(f32, 1, "input")
        p, s = hl.Param(i32, "p"), hl.Param(f32, "s")
        f, out = hl.Func("f"), hl.Func("out")
        f[x] = inp[x] - 1
        out[x] = (f[hl.i32(hl.i64(x) * 3 + hl.i64(p))]
                  + f[hl.clamp(hl.i32(hl.floor(hl.f32(x) * s)), 0, 1000)])
        f.compute_root()
        env = pure_envs(f, out)
        return out, [inp, p, s], [f, out], env

    @case
    def large_bound_constants():
        # Explicit bounds near the int32 limits: the boxes' ends fold close to 2^31.
        inp = hl.ImageParam(f32, 1, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x] = inp[x % 100] * 2
        out[x] = f[x * 2] + f[x + 1073741823]
        f.compute_root()
        out.bound(x, -1073741824, 1073741823)
        env = pure_envs(f, out)
        env[out]["bounds"] = [{"var": "x", "min": "-1073741824", "extent": "1073741823"}]
        return out, [inp], [f, out], env

    @case
    def predicated_tails():
        # The tail strategies that predicate loads or stores, next to RoundUp.
        inp = hl.ImageParam(f32, 2, "input")
        a, b, out = hl.Func("a"), hl.Func("b"), hl.Func("out")
        a[x, y] = inp[x, y] + 2
        b[x, y] = a[x - 1, y] + a[x + 1, y]
        out[x, y] = b[x, y] * b[x, y + 1]
        a.compute_root().split(x, xo, xi, 8, hl.TailStrategy.PredicateLoads)
        b.compute_root().split(x, xo, xi, 4, hl.TailStrategy.PredicateStores).vectorize(xi)
        out.split(y, yo, yi, 5, hl.TailStrategy.RoundUp)
        env = pure_envs(a, b, out)
        return out, [inp], [a, b, out], env

    @case
    def bitwise_and_shift_indices():
        # Shifts and bitwise operators in call arguments (bounds through the bitwise
        # intrinsics).
        inp = hl.ImageParam(f32, 2, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x, y] = inp[x, y] + 3
        out[x, y] = (f[x >> 1, (y << 2) + 1] + f[x & 7, y >> 2] + f[(x + 3) & 15, (y * 2) >> 1])
        f.compute_root()
        env = pure_envs(f, out)
        return out, [inp], [f, out], env

    @case
    def abs_select_indices():
        # abs, min, max and selects on a parameter in call arguments.
        inp = hl.ImageParam(f32, 2, "input")
        p = hl.Param(i32, "p")
        f, out = hl.Func("f"), hl.Func("out")
        f[x, y] = inp[x, y] * 5
        out[x, y] = (f[hl.i32(hl.abs(x - 10)), hl.min(y, x)] + f[hl.select(p > 0, x, 0 - x), hl.max(y - p, 0)]
                     + f[hl.select(x < 4, x + 8, x - 8), y])
        f.compute_at(out, y)
        env = pure_envs(f, out)
        return out, [inp, p], [f, out], env

    @case
    def lut_indices():
        # Data-dependent indices: a lookup table indexed by an image's values and by a
        # Func's values (the latter bounded by the Func's value bounds).
        inp = hl.ImageParam(u8, 2, "input")
        lut, idx, out = hl.Func("lut"), hl.Func("idx"), hl.Func("out")
        lut[x] = hl.f32(x) * 0.5
        idx[x, y] = hl.clamp(hl.i32(inp[x, y]) * 4 - 7, 0, 1023)
        out[x, y] = lut[hl.i32(inp[x, y])] + lut[idx[x, y]] + lut[idx[x + 1, y] / 2]
        lut.compute_root()
        idx.compute_at(out, y)
        env = pure_envs(lut, idx, out)
        return out, [inp], [idx, lut, out], env

    @case
    def resize_like():
        # Float coordinates floored to integer taps, separable, with a clamped input,
        # the vertical pass computed per output row and unrolled over the taps.
        inp = hl.ImageParam(f32, 2, "input")
        scale = hl.Param(f32, "scale")
        clamped = hl.BoundaryConditions.repeat_edge(inp)
        sx = hl.Func("sx")
        ix = hl.i32(hl.floor(hl.f32(x) / scale))
        sx[x, y] = (clamped[ix - 1, y] + clamped[ix, y] + clamped[ix + 1, y] + clamped[ix + 2, y]) / 4.0
        out = hl.Func("out")
        fy = hl.f32(y) / scale
        out[x, y] = (sx[x, hl.i32(hl.floor(fy)) - 1] + sx[x, hl.i32(hl.floor(fy))]
                     + sx[x, hl.i32(hl.floor(fy)) + 1] + sx[x, hl.i32(hl.floor(fy)) + 2]) / 4.0
        sx.compute_at(out, yi).vectorize(x, 8)
        out.split(y, yo, yi, 8).parallel(yo)
        env = pure_envs(sx, out)
        return out, [inp, scale], [clamped, sx, out], env

    @case
    def mirror_image_tiles():
        # mirror_image boundary, a tiled consumer and the producer per tile.
        inp = hl.ImageParam(f32, 2, "input")
        m = hl.BoundaryConditions.mirror_image(inp)
        f, out = hl.Func("f"), hl.Func("out")
        f[x, y] = m[x - 2, y] + m[x + 2, y - 1]
        out[x, y] = f[x, y] + f[x + 1, y + 1]
        out.tile(x, y, xo, yo, xi, yi, 16, 8)
        f.compute_at(out, xo)
        env = pure_envs(m, f, out)
        return out, [inp], [m, f, out], env

    @case
    def clamped_scatter_histogram():
        # A scatter whose index is clamped data, then a consumer reading the bins.
        inp = hl.ImageParam(u8, 2, "input")
        hist, out = hl.Func("hist"), hl.Func("out")
        r = hl.RDom([(0, 64), (0, 32)], "r")
        hist[x] = 0
        hist[hl.clamp(hl.i32(inp[r.x, r.y]) / 4 - 3, 0, 31)] += 1
        out[x] = hist[x] * 2 + hist[31 - x]
        hist.compute_root()
        env = dict([func_env(hist, ["int32"], ["x"], [rdom_env(r, [("x", (0, 64)), ("y", (0, 32))])]),
                    func_env(out, ["int32"], ["x"])])
        return out, [inp], [hist, out], env

    @case
    def fused_channels_parallel():
        # Three dimensions, channel and row fused into one parallel loop, x vectorized.
        inp = hl.ImageParam(u16, 3, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x, y, c] = hl.i32(inp[x, y, c]) * (c + 1)
        out[x, y, c] = f[x, y, c] + f[x + 1, y, c] - f[x, y + 1, 2 - c]
        out.bound(c, 0, 3).fuse(y, c, yo).parallel(yo).vectorize(x, 8)
        f.compute_at(out, yo)
        env = pure_envs(f, out)
        env[out]["bounds"] = [{"var": "c", "min": "0", "extent": "3"}]
        return out, [inp], [f, out], env

    @case
    def uint16_index_arith():
        # Indices computed in uint16 arithmetic (wrapping, with division).
        inp = hl.ImageParam(f32, 1, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x] = inp[x] + 4
        out[x] = f[hl.i32(hl.u16(x) * hl.u16(3) / hl.u16(2))] + f[hl.i32(hl.u16(x + 7) % hl.u16(100))]
        f.compute_root()
        env = pure_envs(f, out)
        return out, [inp], [f, out], env

    @case
    def sliding_inner_store_at():
        # Storage at the outer split of y, computation at the inner one (sliding window).
        inp = hl.ImageParam(f32, 2, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x, y] = inp[x, y] * inp[x, y + 1]
        out[x, y] = f[x, y - 1] + f[x, y] + f[x, y + 1]
        out.split(y, yo, yi, 16)
        f.store_at(out, yo).compute_at(out, yi)
        env = pure_envs(f, out)
        return out, [inp], [f, out], env

    @case
    def prefetched_input():
        # A prefetch of the input inside the consumer's row loop.
        inp = hl.ImageParam(f32, 2, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x, y] = inp[x, y] + inp[x, y + 2]
        out[x, y] = f[x - 1, y] + f[x + 1, y]
        f.compute_root().prefetch(inp, y, y, 1, hl.PrefetchBoundStrategy.NonFaulting)
        env = pure_envs(f, out)
        return out, [inp], [f, out], env

    @case
    def unrolled_rdom_update():
        # An update over a constant RDom, unrolled, with the pure stage vectorized.
        inp = hl.ImageParam(i32, 2, "input")
        f, out = hl.Func("f"), hl.Func("out")
        r = hl.RDom([(-1, 3), (-1, 3)], "r")
        f[x, y] = 0
        f[x, y] += inp[x + r.x, y + r.y] * (r.x + 2)
        out[x, y] = f[x, y] / 9
        f.compute_at(out, y).vectorize(x, 4)
        f.update(0).unroll(r.x).unroll(r.y)
        env = dict([func_env(f, ["int32"], ["x", "y"], [rdom_env(r, [("x", (-1, 3)), ("y", (-1, 3))])]),
                    func_env(out, ["int32"], ["x", "y"])])
        return out, [inp], [f, out], env

    @case
    def argmin_tuple_reduction():
        # A tuple-valued reduction (argmin over an RDom) computed at the root.
        inp = hl.ImageParam(f32, 2, "input")
        best, out = hl.Func("best"), hl.Func("out")
        r = hl.RDom([(0, 8)], "r")
        best[y] = (hl.f32(1e30), 0)
        v = inp[r.x, y]
        best[y] = (hl.select(v < best[y][0], v, best[y][0]), hl.select(v < best[y][0], r.x, best[y][1]))
        out[x, y] = inp[x, y] - best[y][0] + hl.f32(best[y + 1][1])
        best.compute_root()
        env = dict([func_env(best, ["float32", "int32"], ["y"], [rdom_env(r, [("x", (0, 8))])]),
                    func_env(out, ["float32"], ["x", "y"])])
        return out, [inp], [best, out], env

    @case
    def three_level_compute_at():
        # A chain computed at three different loops of the output.
        inp = hl.ImageParam(f32, 2, "input")
        a, b, c_, out = hl.Func("a"), hl.Func("b"), hl.Func("c"), hl.Func("out")
        a[x, y] = inp[x, y] + 1
        b[x, y] = a[x - 1, y] + a[x + 1, y + 1]
        c_[x, y] = b[x, y - 1] * b[x + 2, y]
        out[x, y] = c_[x, y] + c_[x + 1, y]
        out.split(y, yo, yi, 4)
        c_.compute_at(out, yi)
        b.compute_at(out, yo)
        a.compute_root()
        env = pure_envs(a, b, c_, out)
        return out, [inp], [a, b, c_, out], env

    @case
    def select_on_loop_boundary():
        # Two producers read on either side of a select on the loop variable.
        inp = hl.ImageParam(f32, 1, "input")
        f, g, out = hl.Func("f"), hl.Func("g"), hl.Func("out")
        f[x] = inp[x] * 2
        g[x] = inp[x] + 2
        out[x] = hl.select(x < 10, hl.Expr(f[x + 1]), hl.Expr(g[x - 10])) + hl.select(x >= 20, hl.Expr(f[x - 20]), hl.f32(0))
        f.compute_root()
        g.compute_root()
        env = pure_envs(f, g, out)
        return out, [inp], [f, g, out], env

    @case
    def gpu_update_cuda():
        # A GPU-tiled pure stage with an update stage tiled the same way.
        inp = hl.ImageParam(f32, 2, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x, y] = inp[x, y]
        f[x, y] = f[x, y] * 2 + f[x, y]
        out[x, y] = f[x, y] + f[x + 1, y]
        tx, ty, bx, by = hl.Var("tx"), hl.Var("ty"), hl.Var("bx"), hl.Var("by")
        f.compute_root().gpu_tile(x, y, bx, by, tx, ty, 8, 8)
        f.update(0).gpu_tile(x, y, bx, by, tx, ty, 8, 8)
        out.gpu_tile(x, y, bx, by, tx, ty, 16, 16)
        env = dict([func_env(f, ["float32"], ["x", "y"], [{}]), func_env(out, ["float32"], ["x", "y"])])
        return out, [inp], [f, out], env

    @case
    def saturating_and_absd_indices():
        # Saturating casts, absd and mux in call arguments.
        inp = hl.ImageParam(f32, 2, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x, y] = inp[x, y] - 1
        out[x, y] = (f[hl.i32(hl.u8_sat(x * 3 - 100)), hl.i32(hl.absd(y, 50))]
                     + f[hl.i32(hl.saturating_cast(hl.UInt(16), x - 7)), hl.mux(y % 3, [y, y + 1, y - 1])])
        f.compute_root()
        env = pure_envs(f, out)
        return out, [inp], [f, out], env

    @case
    def rounding_index_arith():
        # Rounding to multiples, mixed division and modulo in call arguments.
        inp = hl.ImageParam(f32, 1, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x] = inp[x] * 3
        out[x] = f[((x + 3) / 4) * 4] + f[(x * 7) % 5 + x / 5] + f[(x - 5) / 3 * 3 + (x - 5) % 3]
        f.compute_root()
        env = pure_envs(f, out)
        return out, [inp], [f, out], env

    @case
    def vectorized_gather():
        # A vectorized consumer reading a producer at strided and data-dependent indices.
        inp = hl.ImageParam(u8, 1, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x] = hl.i32(inp[x]) * 2
        out[x] = f[x * 2] + f[hl.i32(inp[x]) + x] + f[2 * x + 1]
        f.compute_root().vectorize(x, 8)
        out.vectorize(x, 8)
        env = pure_envs(f, out)
        return out, [inp], [f, out], env

    @case
    def update_computed_write_index():
        # An update stage writing at a computed (clamped, scaled) location.
        inp = hl.ImageParam(i32, 1, "input")
        f, out = hl.Func("f"), hl.Func("out")
        r = hl.RDom([(0, 50)], "r")
        f[x] = 0
        f[hl.clamp(r.x * 2 + 1, 0, 99)] = inp[r.x] + f[hl.clamp(r.x * 2, 0, 99)]
        out[x] = f[x] + f[99 - x]
        f.compute_root()
        env = dict([func_env(f, ["int32"], ["x"], [rdom_env(r, [("x", (0, 50))])]),
                    func_env(out, ["int32"], ["x"])])
        return out, [inp], [f, out], env

    @case
    def fused_then_split_shift_inwards():
        # Two loops fused, the fused loop split with ShiftInwards, the producer inside.
        inp = hl.ImageParam(f32, 2, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x, y] = inp[x, y] + inp[x + 1, y + 1]
        out[x, y] = f[x, y] * f[x, y + 1]
        fxy = hl.Var("fxy")
        out.fuse(x, y, fxy).split(fxy, xo, xi, 32, hl.TailStrategy.ShiftInwards)
        f.compute_at(out, xo)
        env = pure_envs(f, out)
        return out, [inp], [f, out], env

    @case
    def async_folded_double_buffer():
        # An async producer with storage folded to two rows (double buffering).
        inp = hl.ImageParam(f32, 2, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x, y] = inp[x, y] * 2
        out[x, y] = f[x, y] + f[x, y + 1]
        f.compute_at(out, y).store_root().fold_storage(y, 2).async_()
        env = pure_envs(f, out)
        return out, [inp], [f, out], env

    @case
    def nested_specializations_vectorize():
        # A specialization on a boolean nested in one on an integer, each vectorizing.
        inp = hl.ImageParam(f32, 2, "input")
        p, q = hl.Param(i32, "p"), hl.Param(hl.Bool(), "q")
        f, out = hl.Func("f"), hl.Func("out")
        f[x, y] = inp[x, y] * hl.f32(p)
        out[x, y] = f[x - 1, y] + f[x + 1, y]
        f.compute_at(out, y)
        s1 = f.specialize(p > 4).vectorize(x, 8)
        s1.specialize(q).unroll(x, 2)
        out.specialize(q).vectorize(x, 4)
        env = pure_envs(f, out)
        return out, [inp, p, q], [f, out], env

    @case
    def float_value_indices():
        # Indices computed from a float Func's values (bounded through its value bounds),
        # as a bilateral grid or a local Laplacian reads its grid or lookup table.
        inp = hl.ImageParam(f32, 2, "input")
        val, grid, out = hl.Func("val"), hl.Func("grid"), hl.Func("out")
        val[x, y] = hl.clamp(inp[x, y], 0.0, 1.0) * 0.5 + 0.25
        grid[x, y] = hl.f32(x) * 0.1 + hl.f32(y)
        zi = hl.i32(val[x, y] * 8.0 + 0.5)
        zf = hl.i32(hl.floor((val[x, y] - 0.25) * 16.0))
        out[x, y] = grid[x, zi] + grid[x + 1, zf * 2 + 1]
        val.compute_root()
        grid.compute_root()
        env = pure_envs(val, grid, out)
        return out, [inp], [grid, val, out], env

    @case
    def extern_two_funcs():
        # An extern stage reading two Funcs, its output consumed at an offset.
        inp = hl.ImageParam(f32, 2, "input")
        a, b, ext, out = hl.Func("a"), hl.Func("b"), hl.Func("ext"), hl.Func("out")
        a[x, y] = inp[x, y] * 2
        b[x, y] = inp[x + 1, y] - 1
        ext.define_extern("two_in", [a, b], f32, 2)
        out[x, y] = ext[x, y - 1] + ext[x + 2, y]
        a.compute_root()
        b.compute_root()
        ext.compute_root()
        env = pure_envs(a, b, ext, out)
        env[ext]["extern"] = {"name": "two_in", "mangling": "c", "args": [{"func": "a"}, {"func": "b"}]}
        return out, [inp], [a, b, ext, out], env

    @case
    def nested_selects_over_calls():
        # Nested selects on parameters choosing among calls to one Func.
        inp = hl.ImageParam(f32, 1, "input")
        p, q = hl.Param(i32, "p"), hl.Param(i32, "q")
        f, out = hl.Func("f"), hl.Func("out")
        f[x] = inp[x] + 5
        out[x] = hl.select(p > 0, f[x + 2], hl.select(q > 0, f[x - 3], hl.select(p < q, f[2 * x], f[x])))
        f.compute_root()
        env = pure_envs(f, out)
        return out, [inp, p, q], [f, out], env

    @case
    def rdom_param_extent_where():
        # An RDom whose extent is a parameter, with a where clause on the parameter.
        inp = hl.ImageParam(i32, 1, "input")
        n = hl.Param(i32, "n")
        f, out = hl.Func("f"), hl.Func("out")
        r = hl.RDom([(0, n)], "r")
        r.where(r.x * 2 < n + 3)
        f[x] = 0
        f[x] += inp[x + r.x * 2]
        out[x] = f[x] + f[x + 4]
        f.compute_root()
        env = dict([func_env(f, ["int32"], ["x"], [{"rvars": [{"name": "r$x", "min": "0", "extent": "n"}]}]),
                    func_env(out, ["int32"], ["x"])])
        return out, [inp, n], [f, out], env

    @case
    def param_divisor_indices():
        # Division and modulo by a parameter of unknown sign, and by a clamped one.
        inp = hl.ImageParam(f32, 1, "input")
        p = hl.Param(i32, "p")
        f, out = hl.Func("f"), hl.Func("out")
        f[x] = inp[x] * 7
        q = hl.clamp(p, 1, 16)
        out[x] = f[x / p] + f[x % p] + f[x / q + x % q]
        f.compute_root()
        env = pure_envs(f, out)
        return out, [inp, p], [f, out], env

    @case
    def split_twice_vectorize_unroll():
        # One loop split twice: the inner part vectorized, the middle unrolled, with the
        # producer at the outer part.
        inp = hl.ImageParam(f32, 2, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x, y] = inp[x, y] + inp[x, y + 1]
        out[x, y] = f[x - 2, y] + f[x + 2, y]
        xm, xv = hl.Var("xm"), hl.Var("xv")
        out.split(x, xo, xi, 32).split(xi, xm, xv, 8).vectorize(xv).unroll(xm)
        f.compute_at(out, xo)
        env = pure_envs(f, out)
        return out, [inp], [f, out], env

    @case
    def compute_with_offset_stages():
        # Two outputs-to-be fused with compute_with, reading a shared producer at offsets.
        inp = hl.ImageParam(f32, 2, "input")
        f, g, h, out = hl.Func("f"), hl.Func("g"), hl.Func("h"), hl.Func("out")
        f[x, y] = inp[x, y] * 2
        g[x, y] = f[x - 1, y] + f[x + 1, y]
        h[x, y] = f[x, y - 1] * f[x, y + 2]
        out[x, y] = g[x, y] + h[x + 3, y]
        f.compute_root()
        g.compute_root()
        h.compute_root().compute_with(g, y)
        env = pure_envs(f, g, h, out)
        return out, [inp], [f, h, g, out], env

    @case
    def specialized_split():
        inp = hl.ImageParam(f32, 2, "input")
        p = hl.Param(i32, "p")
        f, g = hl.Func("f"), hl.Func("g")
        f[x, y] = inp[x, y] * 2 + inp[x + 1, y]
        g[x, y] = f[x - 1, y] + f[x + 1, y + 1]
        f.compute_at(g, xo).specialize(p > 0).vectorize(x, 4)
        g.split(x, xo, xi, 8)
        env = dict([func_env(f, ["float32"], ["x", "y"]), func_env(g, ["float32"], ["x", "y"])])
        return g, [inp, p], [f, g], env

    @case
    def tuple_update():
        inp = hl.ImageParam(u8, 1, "input")
        f, out = hl.Func("f"), hl.Func("out")
        r = hl.RDom([(0, 10)], "r")
        f[x] = (hl.i32(0), hl.i32(0))
        f[x] = (f[x][0] + hl.i32(inp[x + r.x]), hl.max(f[x][1], hl.i32(inp[x - r.x])))
        out[x] = f[x][0] + f[x][1]
        f.compute_root()
        env = dict([func_env(f, ["int32", "int32"], ["x"], [rdom_env(r, [("x", (0, 10))])]),
                    func_env(out, ["int32"], ["x"])])
        return out, [inp], [f, out], env

    @case
    def tiled_compute_at():
        inp = hl.ImageParam(u16, 2, "input")
        a, b, out = hl.Func("a"), hl.Func("b"), hl.Func("out")
        a[x, y] = inp[x, y] + inp[x, y + 1]
        b[x, y] = a[x - 1, y] + a[x + 1, y] + a[x, y - 2]
        out[x, y] = b[x, y] + b[x, y + 1]
        out.tile(x, y, xo, yo, xi, yi, 16, 8)
        b.compute_at(out, xo)
        a.compute_at(out, yo).store_root()
        env = dict([func_env(a, ["uint16"], ["x", "y"]), func_env(b, ["uint16"], ["x", "y"]),
                    func_env(out, ["uint16"], ["x", "y"])])
        return out, [inp], [a, b, out], env

    @case
    def rdom_where():
        inp = hl.ImageParam(i32, 2, "input")
        f, out = hl.Func("f"), hl.Func("out")
        r = hl.RDom([(0, 20), (0, 20)], "r")
        r.where(r.x < r.y)
        f[x] = 0
        f[x] += inp[x + r.x, r.y]
        out[x] = f[x]
        f.compute_root()
        env = dict([func_env(f, ["int32"], ["x"], [dict(rdom_env(r, [("x", (0, 20)), ("y", (0, 20))]),
                                                         predicates=["f.s1.r$x < f.s1.r$y"])]),
                    func_env(out, ["int32"], ["x"])])
        return out, [inp], [f, out], env

    @case
    def bound_and_clamp():
        inp = hl.ImageParam(u8, 2, "input")
        clamped, blur, out = hl.Func("clamped"), hl.Func("blur"), hl.Func("out")
        clamped[x, y] = inp[hl.clamp(x, 0, inp.width() - 1), hl.clamp(y, 0, inp.height() - 1)]
        blur[x, y] = (hl.u16(clamped[x - 1, y]) + clamped[x, y] + clamped[x + 1, y]) / 3
        out[x, y] = hl.u8(blur[x, y - 1] + blur[x, y] + blur[x, y + 1])
        clamped.compute_root()
        blur.compute_at(out, y)
        out.bound(x, 0, 64)
        env = dict([func_env(clamped, ["uint8"], ["x", "y"]), func_env(blur, ["uint16"], ["x", "y"]),
                    func_env(out, ["uint8"], ["x", "y"])])
        env[out]["bounds"] = [{"var": "x", "min": "0", "extent": "64"}]
        return out, [inp], [clamped, blur, out], env

    @case
    def update_split_parallel():
        inp = hl.ImageParam(i32, 2, "input")
        f, out = hl.Func("f"), hl.Func("out")
        r = hl.RDom([(0, 5)], "r")
        f[x, y] = inp[x, y]
        f[x, y] = f[x, y] + inp[x + r.x, y]
        f[x, y] = f[x, y] * 3
        out[x, y] = f[x, y] + f[x, y + 2]
        f.compute_root()
        f.update(0).split(x, xo, xi, 8, hl.TailStrategy.GuardWithIf).parallel(y)
        f.update(1).vectorize(x, 4)
        env = dict([func_env(f, ["int32"], ["x", "y"], [rdom_env(r, [("x", (0, 5))]), {}]),
                    func_env(out, ["int32"], ["x", "y"])])
        return out, [inp], [f, out], env

    @case
    def sliding_store_root():
        inp = hl.ImageParam(u16, 2, "input")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y] = inp[x, y] * 2
        out[x, y] = a[x, y - 1] + a[x, y] + a[x, y + 1]
        a.store_root().compute_at(out, y)
        env = dict([func_env(a, ["uint16"], ["x", "y"]), func_env(out, ["uint16"], ["x", "y"])])
        return out, [inp], [a, out], env

    @case
    def tails_and_fuse():
        inp = hl.ImageParam(f32, 2, "input")
        a, b, out = hl.Func("a"), hl.Func("b"), hl.Func("out")
        a[x, y] = inp[x, y] + 1
        b[x, y] = a[x, y] * a[x + 3, y]
        out[x, y] = b[x, y] - b[x, y + 1]
        a.compute_root().split(x, xo, xi, 7, hl.TailStrategy.RoundUp)
        b.compute_root().split(x, xo, xi, 5, hl.TailStrategy.ShiftInwards).fuse(xo, y, xo)
        out.split(y, yo, yi, 3, hl.TailStrategy.GuardWithIf).reorder(x, yi, yo)
        env = dict([func_env(a, ["float32"], ["x", "y"]), func_env(b, ["float32"], ["x", "y"]),
                    func_env(out, ["float32"], ["x", "y"])])
        return out, [inp], [a, b, out], env

    @case
    def channels_unrolled():
        inp = hl.ImageParam(u8, 3, "input")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y, c] = hl.u16(inp[x, y, c]) * 3
        out[x, y, c] = hl.u8((a[x, y, c] + a[x + 1, y, 2 - c]) / 4)
        out.bound(c, 0, 3).reorder(c, x, y).unroll(c)
        a.compute_at(out, y)
        env = dict([func_env(a, ["uint16"], ["x", "y", "c"]), func_env(out, ["uint8"], ["x", "y", "c"])])
        env[out]["bounds"] = [{"var": "c", "min": "0", "extent": "3"}]
        return out, [inp], [a, out], env

    @case
    def boundary_repeat_edge():
        inp = hl.ImageParam(u8, 2, "input")
        clamped = hl.BoundaryConditions.repeat_edge(inp)
        blur, out = hl.Func("blur"), hl.Func("out")
        blur[x, y] = hl.u16(clamped[x - 1, y]) + clamped[x + 1, y]
        out[x, y] = blur[x, y - 1] + blur[x, y + 1]
        blur.compute_at(out, y)
        env = dict([func_env(blur, ["uint16"], ["x", "y"]), func_env(out, ["uint16"], ["x", "y"])])
        return out, [inp], [clamped, blur, out], env

    @case
    def constant_exterior_root():
        inp = hl.ImageParam(f32, 2, "input")
        padded = hl.BoundaryConditions.constant_exterior(inp, 0.0)
        out = hl.Func("out")
        out[x, y] = padded[x - 2, y] + padded[x + 2, y - 1]
        padded.compute_root()
        env = dict([func_env(padded, ["float32"], ["_0", "_1"]), func_env(out, ["float32"], ["x", "y"])])
        return out, [inp], [padded, out], env

    @case
    def param_rdom_scatter():
        inp = hl.ImageParam(u8, 1, "input")
        n = hl.Param(i32, "n")
        hist, out = hl.Func("hist"), hl.Func("out")
        r = hl.RDom([(0, n)], "r")
        hist[x] = 0
        hist[hl.i32(inp[r.x]) % 64] += 1
        out[x] = hist[x] + hist[63 - x]
        hist.compute_root()
        env = dict([func_env(hist, ["int32"], ["x"], [{"rvars": [{"name": "r$x", "min": "0", "extent": "n"}]}]),
                    func_env(out, ["int32"], ["x"])])
        return out, [inp, n], [hist, out], env

    @case
    def specialized_update():
        inp = hl.ImageParam(i32, 1, "input")
        p = hl.Param(hl.Bool(), "p")
        f, out = hl.Func("f"), hl.Func("out")
        f[x] = inp[x]
        f[x] = f[x] + inp[x + 1]
        out[x] = f[x] + f[x + 4]
        f.compute_root()
        f.update(0).specialize(p).vectorize(x, 8)
        env = dict([func_env(f, ["int32"], ["x"], [{}]), func_env(out, ["int32"], ["x"])])
        return out, [inp, p], [f, out], env

    @case
    def inline_reduction():
        inp = hl.ImageParam(f32, 2, "input")
        out = hl.Func("out")
        r = hl.RDom([(-2, 5)], "r")
        s, total = hl.Func("s"), hl.Func("total")
        total[x, y] = 0.0
        total[x, y] += inp[x + r.x, y]
        s[x, y] = total[x, y]
        out[x, y] = s[x, y] / 5.0 + s[x, y + 1]
        s.compute_at(out, y)
        total.compute_at(s, x)
        env = dict([func_env(total, ["float32"], ["x", "y"], [rdom_env(r, [("x", (-2, 5))])]),
                    func_env(s, ["float32"], ["x", "y"]), func_env(out, ["float32"], ["x", "y"])])
        return out, [inp], [total, s, out], env

    @case
    def two_outputs_shared_producer():
        inp = hl.ImageParam(i32, 1, "input")
        a, o1, o2 = hl.Func("a"), hl.Func("o1"), hl.Func("o2")
        a[x] = inp[x] * inp[x + 1]
        o1[x] = a[x - 1]
        o2[x] = a[x + 5] + 1
        a.compute_root()
        env = dict([func_env(a, ["int32"], ["x"]), func_env(o1, ["int32"], ["x"]), func_env(o2, ["int32"], ["x"])])
        return hl.Pipeline([o1, o2]), [inp], [a, o1, o2], env

    @case
    def compute_at_update_loop():
        inp = hl.ImageParam(i32, 2, "input")
        g, f, out = hl.Func("g"), hl.Func("f"), hl.Func("out")
        r = hl.RDom([(0, 10)], "r")
        g[x, y] = inp[x, y] + 1
        f[x] = 0
        f[x] += g[x, r.x] + g[x + 1, r.x]
        out[x] = f[x]
        f.compute_root()
        g.compute_at(f, r.x)
        env = dict([func_env(g, ["int32"], ["x", "y"]),
                    func_env(f, ["int32"], ["x"], [rdom_env(r, [("x", (0, 10))])]),
                    func_env(out, ["int32"], ["x"])])
        return out, [inp], [g, f, out], env

    @case
    def align_bounds_split():
        inp = hl.ImageParam(u8, 1, "input")
        a, out = hl.Func("a"), hl.Func("out")
        a[x] = inp[x] + 3
        out[x] = a[x] + a[x + 1]
        a.compute_root().align_bounds(x, 8).vectorize(x, 8)
        env = dict([func_env(a, ["uint8"], ["x"]), func_env(out, ["uint8"], ["x"])])
        # Halide stores the remainder reduced by the modulus, unsimplified.
        env[a]["bounds"] = [{"var": "x", "modulus": "8", "remainder": "0 % 8"}]
        return out, [inp], [a, out], env

    @case
    def extern_image_and_expr():
        inp = hl.ImageParam(u16, 2, "input")
        f, ext, out = hl.Func("f"), hl.Func("ext"), hl.Func("out")
        f[x, y] = inp[x, y] + 1
        ext.define_extern("my_extern", [f, inp, hl.Expr(3)], u16, 2)
        out[x, y] = ext[x, y] + ext[x + 1, y]
        f.compute_root()
        ext.compute_root()
        env = dict([func_env(f, ["uint16"], ["x", "y"]), func_env(ext, ["uint16"], ["_0", "_1"]),
                    func_env(out, ["uint16"], ["x", "y"])])
        env[ext]["extern"] = {"name": "my_extern", "mangling": "c",
                              "args": [{"func": "f"}, {"image": "input", "dimensions": 2}, {"expr": "3"}]}
        return out, [inp], [f, ext, out], env

    @case
    def nested_specializations():
        inp = hl.ImageParam(i32, 1, "input")
        p, q = hl.Param(hl.Bool(), "p"), hl.Param(hl.Bool(), "q")
        f, out = hl.Func("f"), hl.Func("out")
        f[x] = inp[x] + inp[x + 2]
        out[x] = f[x] + f[x - 3]
        f.compute_root()
        f.specialize(p).specialize(q).vectorize(x, 4)
        f.specialize(q)
        env = dict([func_env(f, ["int32"], ["x"]), func_env(out, ["int32"], ["x"])])
        return out, [inp, p, q], [f, out], env

    @case
    def specialize_fail_branch():
        inp = hl.ImageParam(i32, 1, "input")
        p = hl.Param(i32, "p")
        f, out = hl.Func("f"), hl.Func("out")
        f[x] = inp[x] * 2
        out[x] = f[x + 1]
        f.compute_root()
        f.specialize(p == 1)
        f.specialize_fail("p must be 1")
        env = dict([func_env(f, ["int32"], ["x"]), func_env(out, ["int32"], ["x"])])
        return out, [inp, p], [f, out], env

    @case
    def compute_with_fused():
        inp = hl.ImageParam(f32, 1, "input")
        f, g, out = hl.Func("f"), hl.Func("g"), hl.Func("out")
        f[x] = inp[x] + 1
        g[x] = inp[x + 1] * 2
        out[x] = f[x] + g[x]
        f.compute_root()
        g.compute_root()
        g.compute_with(f, x)
        env = dict([func_env(f, ["float32"], ["x"]), func_env(g, ["float32"], ["x"]),
                    func_env(out, ["float32"], ["x"])])
        # Halide realizes a Func computed with another before that one.
        return out, [inp], [g, f, out], env

    @case
    def rfactor_sum():
        inp = hl.ImageParam(i32, 1, "input")
        total, out = hl.Func("total"), hl.Func("out")
        r = hl.RDom([(0, 64)], "r")
        total[()] = 0
        total[()] += inp[r.x]
        out[x] = total[()] + x
        rxo, rxi, u = hl.RVar("rxo"), hl.RVar("rxi"), hl.Var("u")
        total.compute_root()
        total.update(0).split(r.x, rxo, rxi, 8)
        intm = total.update(0).rfactor(rxo, u)
        intm.compute_root()
        env = dict([func_env(intm, ["int32"], ["u"], [{"rvars": [{"name": "rxi", "min": "0", "extent": "8"}]}]),
                    func_env(total, ["int32"], [], [{"rvars": [{"name": "rxo", "min": "0", "extent": "8"}]}]),
                    func_env(out, ["int32"], ["x"])])
        return out, [inp], [intm, total, out], env

    @case
    def tuple_output():
        inp = hl.ImageParam(f32, 1, "input")
        f = hl.Func("f")
        f[x] = (inp[x] + inp[x + 1], inp[x] * inp[x - 1])
        env = dict([func_env(f, ["float32", "float32"], ["x"])])
        return f, [inp], [f], env

    @case
    def gpu_tiled_cuda():
        inp = hl.ImageParam(f32, 2, "input")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y] = inp[x, y] * inp[x + 1, y]
        out[x, y] = a[x, y] + a[x, y + 1]
        tx, ty, bx, by = hl.Var("tx"), hl.Var("ty"), hl.Var("bx"), hl.Var("by")
        out.gpu_tile(x, y, bx, by, tx, ty, 16, 8)
        a.compute_at(out, bx).gpu_threads(x, y)
        env = dict([func_env(a, ["float32"], ["x", "y"]), func_env(out, ["float32"], ["x", "y"])])
        return out, [inp], [a, out], env

    @case
    def async_hoisted():
        inp = hl.ImageParam(u16, 2, "input")
        a, b, out = hl.Func("a"), hl.Func("b"), hl.Func("out")
        a[x, y] = inp[x, y] + 1
        b[x, y] = a[x, y] * 2 + a[x + 1, y]
        out[x, y] = b[x, y] + b[x, y + 1]
        b.compute_at(out, y).async_()
        a.compute_at(out, y).hoist_storage_root()
        env = dict([func_env(a, ["uint16"], ["x", "y"]), func_env(b, ["uint16"], ["x", "y"]),
                    func_env(out, ["uint16"], ["x", "y"])])
        return out, [inp], [a, b, out], env

    @case
    def vectorized_rvar_update():
        inp = hl.ImageParam(i32, 2, "input")
        f, out = hl.Func("f"), hl.Func("out")
        r = hl.RDom([(0, 16), (0, 4)], "r")
        f[x] = 0
        f[r.x] = f[r.x] + inp[r.x, r.y]
        out[x] = f[x] + f[x + 8]
        f.compute_root()
        f.update(0).vectorize(r.x, 8).reorder(r.y, r.x)
        env = dict([func_env(f, ["int32"], ["x"], [rdom_env(r, [("x", (0, 16)), ("y", (0, 4))])]),
                    func_env(out, ["int32"], ["x"])])
        return out, [inp], [f, out], env

    @case
    def mirror_interior_tuple_consumer():
        inp = hl.ImageParam(u8, 2, "input")
        m = hl.BoundaryConditions.mirror_interior(inp)
        pair, out = hl.Func("pair"), hl.Func("out")
        pair[x, y] = (hl.u16(m[x - 1, y]), hl.u16(m[x, y + 2]))
        out[x, y] = pair[x, y][0] + pair[x + 1, y][1]
        pair.compute_at(out, y)
        env = dict([func_env(pair, ["uint16", "uint16"], ["x", "y"]), func_env(out, ["uint16"], ["x", "y"])])
        return out, [inp], [m, pair, out], env

    @case
    def two_level_tiles_fused_parallel():
        inp = hl.ImageParam(f32, 2, "input")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y] = inp[x, y] - inp[x, y - 1]
        out[x, y] = a[x - 1, y] + a[x + 1, y]
        t = hl.Var("t")
        out.tile(x, y, xo, yo, xi, yi, 32, 32).fuse(xo, yo, t).parallel(t)
        a.compute_at(out, t).vectorize(x, 8)
        env = dict([func_env(a, ["float32"], ["x", "y"]), func_env(out, ["float32"], ["x", "y"])])
        return out, [inp], [a, out], env

    @case
    def update_reads_other_func():
        inp = hl.ImageParam(i32, 1, "input")
        g, f, out = hl.Func("g"), hl.Func("f"), hl.Func("out")
        r = hl.RDom([(1, 9)], "r")
        g[x] = inp[x] * 3
        f[x] = g[x]
        f[r.x] = f[r.x - 1] + g[r.x + 4]
        out[x] = f[x]
        g.compute_root()
        f.compute_root()
        env = dict([func_env(g, ["int32"], ["x"]), func_env(f, ["int32"], ["x"], [rdom_env(r, [("x", (1, 9))])]),
                    func_env(out, ["int32"], ["x"])])
        return out, [inp], [g, f, out], env

    @case
    def guarded_vector_tail():
        inp = hl.ImageParam(f32, 1, "input")
        a, out = hl.Func("a"), hl.Func("out")
        a[x] = inp[x] * 3
        out[x] = a[x] + a[x + 2]
        a.compute_root().vectorize(x, 8, hl.TailStrategy.GuardWithIf)
        out.split(x, xo, xi, 16, hl.TailStrategy.GuardWithIf).unroll(xi, 4)
        env = dict([func_env(a, ["float32"], ["x"]), func_env(out, ["float32"], ["x"])])
        return out, [inp], [a, out], env

    @case
    def specialized_where_update():
        inp = hl.ImageParam(i32, 2, "input")
        p = hl.Param(i32, "p")
        f, out = hl.Func("f"), hl.Func("out")
        r = hl.RDom([(0, 8), (0, 8)], "r")
        r.where(r.x + r.y < 8)
        f[x] = 1
        f[x] = f[x] * inp[x + r.x, r.y]
        out[x] = f[x - 1] + f[x + 1]
        f.compute_root()
        f.update(0).specialize(p > 3).vectorize(x, 4)
        f.specialize(p == 0)
        env = dict([func_env(f, ["int32"], ["x"], [dict(rdom_env(r, [("x", (0, 8)), ("y", (0, 8))]),
                                                        predicates=["(f.s1.r$x + f.s1.r$y) < 8"])]),
                    func_env(out, ["int32"], ["x"])])
        return out, [inp, p], [f, out], env

    @case
    def compute_at_inner_of_update():
        inp = hl.ImageParam(u16, 2, "input")
        g, f, out = hl.Func("g"), hl.Func("f"), hl.Func("out")
        r = hl.RDom([(0, 3)], "r")
        g[x, y] = inp[x, y] * 2
        f[x, y] = hl.u16(0)
        f[x, y] = f[x, y] + g[x + r.x, y]
        out[x, y] = f[x, y]
        f.compute_at(out, y)
        g.compute_at(f, y)
        f.update(0).reorder(r.x, x)
        env = dict([func_env(g, ["uint16"], ["x", "y"]),
                    func_env(f, ["uint16"], ["x", "y"], [rdom_env(r, [("x", (0, 3))])]),
                    func_env(out, ["uint16"], ["x", "y"])])
        return out, [inp], [g, f, out], env

    @case
    def wrapper_of_image():
        inp = hl.ImageParam(u8, 2, "input")
        out = hl.Func("out")
        out[x, y] = inp[x, y] + inp[x + 1, y + 1]
        w = inp.in_(out)
        w.compute_at(out, y)
        env = dict([func_env(w, ["uint8"], ["_0", "_1"]), func_env(out, ["uint8"], ["x", "y"])])
        return out, [inp], [w, out], env

    @case
    def rdom_over_image():
        inp = hl.ImageParam(u8, 2, "input")
        hist, out = hl.Func("hist"), hl.Func("out")
        r = hl.RDom([(inp.dim(0).min(), inp.dim(0).extent()), (inp.dim(1).min(), inp.dim(1).extent())], "r")
        hist[x] = 0
        hist[hl.i32(inp[r.x, r.y])] += 1
        out[x] = hist[x]
        hist.compute_root()
        env = dict([func_env(hist, ["int32"], ["x"], [{"rvars": [
                        {"name": "r$x", "min": "input.min.0", "extent": "input.extent.0"},
                        {"name": "r$y", "min": "input.min.1", "extent": "input.extent.1"}]}]),
                    func_env(out, ["int32"], ["x"])])
        return out, [inp], [hist, out], env

    @case
    def fold_storage_and_bound_extent():
        inp = hl.ImageParam(i32, 2, "input")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y] = inp[x, y] + inp[x, y + 1]
        out[x, y] = a[x, y - 1] + a[x, y + 1]
        a.compute_at(out, yi).fold_storage(y, 4)
        out.bound_extent(x, 32).split(y, yo, yi, 8).parallel(yo)
        a.store_at(out, yo)
        env = dict([func_env(a, ["int32"], ["x", "y"]), func_env(out, ["int32"], ["x", "y"])])
        env[out]["bounds"] = [{"var": "x", "extent": "32"}]
        return out, [inp], [a, out], env

    @case
    def split_rvar_update():
        inp = hl.ImageParam(f32, 1, "input")
        f, out = hl.Func("f"), hl.Func("out")
        r = hl.RDom([(0, 37)], "r")
        f[x] = 0.0
        f[x] = f[x] + inp[x * 2 + r.x]
        out[x] = f[x]
        rxo, rxi = hl.RVar("rxo"), hl.RVar("rxi")
        f.compute_root().update(0).split(r.x, rxo, rxi, 8, hl.TailStrategy.GuardWithIf)
        env = dict([func_env(f, ["float32"], ["x"], [rdom_env(r, [("x", (0, 37))])]),
                    func_env(out, ["float32"], ["x"])])
        return out, [inp], [f, out], env

    @case
    def func_wrapper_per_consumer():
        inp = hl.ImageParam(u16, 1, "input")
        a, b, c = hl.Func("a"), hl.Func("b"), hl.Func("c")
        a[x] = inp[x] * 2
        b[x] = a[x - 1] + a[x + 1]
        c[x] = b[x] + a[x + 3]
        wb = a.in_(b)
        wb.compute_at(b, x)
        a.compute_root()
        b.compute_root()
        env = dict([func_env(a, ["uint16"], ["x"]), func_env(wb, ["uint16"], ["x"]),
                    func_env(b, ["uint16"], ["x"]), func_env(c, ["uint16"], ["x"])])
        return c, [inp], [a, wb, b, c], env

    @case
    def atomic_parallel_histogram():
        inp = hl.ImageParam(u8, 1, "input")
        hist, out = hl.Func("hist"), hl.Func("out")
        r = hl.RDom([(0, 1000)], "r")
        hist[x] = 0
        hist[hl.i32(inp[r.x]) % 16] += 1
        out[x] = hist[x]
        hist.compute_root()
        hist.update(0).atomic().parallel(r.x)
        env = dict([func_env(hist, ["int32"], ["x"], [rdom_env(r, [("x", (0, 1000))])]),
                    func_env(out, ["int32"], ["x"])])
        return out, [inp], [hist, out], env

    @case
    def storage_schedules():
        inp = hl.ImageParam(f32, 2, "input")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y] = inp[x, y] * 2
        out[x, y] = a[x, y] + a[x + 1, y] + a[x, y + 1]
        a.compute_at(out, y).store_root().reorder_storage(y, x).bound_storage(x, 256).store_in(hl.MemoryType.Stack)
        env = dict([func_env(a, ["float32"], ["x", "y"]), func_env(out, ["float32"], ["x", "y"])])
        return out, [inp], [a, out], env

    @case
    def memoized_producer():
        # A memoized root Func: its realization goes through the cache lookup and store
        # calls (extern calls in the body), and its bounds become the cache key. (It reads
        # only a parameter: an image would need a memoize_tag.)
        inp = hl.ImageParam(f32, 2, "input")
        k = hl.Param(f32, "k")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y] = hl.f32(x * 3 + y) * k
        out[x, y] = a[x, y] + a[x, y + 2] + inp[x, y]
        a.compute_root().memoize()
        env = dict([func_env(a, ["float32"], ["x", "y"]), func_env(out, ["float32"], ["x", "y"])])
        return out, [inp, k], [a, out], env

    @case
    def blend_tails_update():
        # RoundUpAndBlend on a vectorized update: the tail's lanes are computed and the
        # old values blended back in, so the update reads and writes past the extent.
        inp = hl.ImageParam(i32, 1, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x] = inp[x]
        f[x] = f[x] * 3 + inp[x + 1]
        out[x] = f[x] + f[x + 5]
        f.compute_root()
        f.update(0).split(x, xo, xi, 8, hl.TailStrategy.RoundUpAndBlend).vectorize(xi)
        env = dict([func_env(f, ["int32"], ["x"], [{}]), func_env(out, ["int32"], ["x"])])
        return out, [inp], [f, out], env

    @case
    def aligned_storage_at_row():
        # align_storage and align_bounds on a Func stored per row: the realized extent is
        # rounded up past what the consumer needs.
        inp = hl.ImageParam(u16, 2, "input")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y] = inp[x, y] + inp[x, y + 1]
        out[x, y] = a[x - 1, y] + a[x + 3, y]
        a.compute_at(out, y).align_storage(x, 16).align_bounds(x, 4, 1)
        env = dict([func_env(a, ["uint16"], ["x", "y"]), func_env(out, ["uint16"], ["x", "y"])])
        # Halide stores the remainder reduced by the modulus, unsimplified.
        env[a]["bounds"] = [{"var": "x", "modulus": "4", "remainder": "1 % 4"}]
        return out, [inp], [a, out], env

    @case
    def aligned_extent_root():
        # align_extent on a root Func: the extent rounded up to a multiple of 8, the
        # min kept (a modulus with no remainder).
        inp = hl.ImageParam(i32, 2, "input")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y] = inp[x, y] * 5
        out[x, y] = a[x + 2, y] - a[x, y + 1]
        a.compute_root().align_extent(x, 8)
        env = dict([func_env(a, ["int32"], ["x", "y"]), func_env(out, ["int32"], ["x", "y"])])
        env[a]["bounds"] = [{"var": "x", "modulus": "8"}]
        return out, [inp], [a, out], env

    @case
    def polynomial_indices():
        # Products of loop variables as indices: the interval rules for x*x (both ends
        # from one variable), x*y, a square divided, and a max of a product.
        inp = hl.ImageParam(f32, 2, "input")
        f, out = hl.Func("f"), hl.Func("out")
        f[x, y] = inp[x, y] + 1
        out[x, y] = f[x * x, y] + f[x * y, (y * y) / 3] + f[hl.max(x * 2, y), x * y - y]
        f.compute_root()
        env = pure_envs(f, out)
        return out, [inp], [f, out], env

    @case
    def specialized_on_output_extent():
        # A specialization on the output's own extent (a buffer parameter), vectorizing
        # only when the row is wide enough, with a producer computed per row.
        inp = hl.ImageParam(u8, 2, "input")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y] = hl.u16(inp[x, y]) * 3
        out[x, y] = a[x, y] + a[x + 1, y] + a[x + 2, y]
        a.compute_at(out, y)
        out.specialize(out.output_buffer().width() >= 32).vectorize(x, 16)
        env = pure_envs(a, out)
        return out, [inp], [a, out], env

    @case
    def rfactor_2d_parallel():
        # A 2-D sum whose row reduction is factored out into a parallel intermediate
        # (rfactor on the outer RVar), the final sum over the intermediate's rows.
        inp = hl.ImageParam(f32, 2, "input")
        total, out = hl.Func("total"), hl.Func("out")
        r = hl.RDom([(0, 32), (0, 24)], "r")
        total[x] = 0.0
        total[x] += inp[x + r.x, r.y]
        out[x] = total[x] * 0.5
        v = hl.Var("v")
        total.compute_root()
        intm = total.update(0).rfactor(r.y, v)
        intm.compute_root().update(0).parallel(v)
        env = dict([func_env(intm, ["float32"], ["x", "v"], [{"rvars": [{"name": r.x.name(), "min": "0", "extent": "32"}]}]),
                    func_env(total, ["float32"], ["x"], [{"rvars": [{"name": r.y.name(), "min": "0", "extent": "24"}]}]),
                    func_env(out, ["float32"], ["x"])])
        return out, [inp], [intm, total, out], env

    @case
    def racy_vectorized_scatter():
        # A scatter update vectorized over its RVar with races allowed: the stores go to
        # computed indices a vector at a time.
        inp = hl.ImageParam(u8, 1, "input")
        hist, out = hl.Func("hist"), hl.Func("out")
        r = hl.RDom([(0, 256)], "r")
        hist[x] = 0
        hist[hl.i32(inp[r.x]) / 4] = r.x
        out[x] = hist[x] + hist[x + 1]
        hist.compute_root()
        hist.update(0).allow_race_conditions().vectorize(r.x, 8)
        env = dict([func_env(hist, ["int32"], ["x"], [rdom_env(r, [("x", (0, 256))])]),
                    func_env(out, ["int32"], ["x"])])
        return out, [inp], [hist, out], env

    @case
    def boolean_mask_select():
        # A boolean Func used as the condition of a select between two reads of another
        # Func: the condition depends on data, so both branches' boxes count.
        inp = hl.ImageParam(u8, 2, "input")
        mask, a, out = hl.Func("mask"), hl.Func("a"), hl.Func("out")
        mask[x, y] = inp[x, y] > 10
        a[x, y] = hl.u16(inp[x, y]) + 7
        out[x, y] = hl.select(mask[x, y], a[x - 1, y], a[x + 2, y + 1])
        mask.compute_root()
        a.compute_at(out, y)
        env = pure_envs(mask, a, out)
        # Halide realizes a before mask (the order its lets print in).
        return out, [inp], [a, mask, out], env

    @case
    def likely_tagged_selects():
        # User-written likely() in a select condition over the loop variable and in a
        # clamp, as boundary handling often writes them.
        inp = hl.ImageParam(f32, 2, "input")
        w = hl.Param(i32, "w")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y] = inp[x, y] * 3
        near = hl.select(hl.likely(x < w - 2), hl.Expr(a[x + 2, y]), hl.Expr(a[w - 1, y]))
        out[x, y] = near + a[hl.clamp(hl.likely(x - 1), 0, w), y]
        a.compute_root()
        env = pure_envs(a, out)
        return out, [inp, w], [a, out], env

    @case
    def copied_to_device_cuda():
        # A host-computed Func copied to the GPU by an explicit copy stage (a wrapper
        # turned into an extern halide_buffer_copy), read by a GPU-tiled consumer.
        inp = hl.ImageParam(f32, 2, "input")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y] = inp[x, y] * 2
        out[x, y] = a[x, y] + a[x + 1, y + 1]
        tx, ty, bx, by = hl.Var("tx"), hl.Var("ty"), hl.Var("bx"), hl.Var("by")
        a.compute_root()
        dev = a.in_(out).copy_to_device()
        dev.compute_root()
        out.gpu_tile(x, y, bx, by, tx, ty, 8, 8)
        env = pure_envs(a, dev, out)
        # The copy is an extern stage, halide_buffer_copy of a to the default device,
        # whose proxy (what bounds inference reads instead of querying it) is the
        # wrapper's former value.
        env[dev]["extern"] = {"name": "halide_buffer_copy", "mangling": "c",
                              "args": [{"func": a.name()}, {"expr": "(struct halide_device_interface_t const *)halide_default_device_interface()"}],
                              "proxy": a.name() + "(x, y)"}
        return out, [inp], [a, dev, out], env

    @case
    def cloned_for_one_consumer():
        # clone_in: one consumer gets its own copy of a Func, computed at a different
        # level than the original the other consumer reads.
        inp = hl.ImageParam(i32, 2, "input")
        a, b, out = hl.Func("a"), hl.Func("b"), hl.Func("out")
        a[x, y] = inp[x, y] * 3
        b[x, y] = a[x, y + 1] + a[x, y]
        out[x, y] = b[x, y] + a[x + 2, y]
        a.compute_root()
        clone = a.clone_in(b)
        clone.compute_at(b, y)
        b.compute_root()
        env = pure_envs(a, clone, b, out)
        return out, [inp], [a, clone, b, out], env

    @case
    def gpu_result_copied_to_host_cuda():
        # A GPU-computed Func brought back by copy_to_host on a wrapper the host-side
        # consumer reads.
        inp = hl.ImageParam(f32, 2, "input")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y] = inp[x, y] + inp[x, y + 1]
        out[x, y] = a[x, y] * 2 + a[x + 3, y]
        tx, ty, bx, by = hl.Var("tx"), hl.Var("ty"), hl.Var("bx"), hl.Var("by")
        a.compute_root().gpu_tile(x, y, bx, by, tx, ty, 16, 16)
        host = a.in_(out).copy_to_host()
        host.compute_root()
        env = pure_envs(a, host, out)
        env[host]["extern"] = {"name": "halide_buffer_copy", "mangling": "c",
                               "args": [{"func": a.name()}, {"expr": "reinterpret<(struct halide_device_interface_t const *)>(0_u64)"}],
                               "proxy": a.name() + "(x, y)"}
        return out, [inp], [a, host, out], env

    @case
    def hoisted_to_tile_rows():
        # Storage hoisted to an intermediate loop (the tile row) of a Func computed per
        # inner row.
        inp = hl.ImageParam(u16, 2, "input")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y] = inp[x, y] * 2
        out[x, y] = a[x, y] + a[x + 1, y + 1]
        out.split(y, yo, yi, 8)
        a.compute_at(out, yi).hoist_storage(out, yo)
        env = pure_envs(a, out)
        return out, [inp], [a, out], env

    @case
    def memoized_with_eviction_key():
        # memoize() with an eviction key, and a memoized Func computed per row (its cache
        # key then holds the row's bounds).
        inp = hl.ImageParam(f32, 2, "input")
        k = hl.Param(f32, "k")
        key = hl.Param(hl.UInt(64), "key")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y] = hl.f32(x + y * 7) * k
        out[x, y] = a[x, y] + a[x + 1, y] + inp[x, y]
        a.compute_at(out, y).memoize(hl.EvictionKey(key))
        env = pure_envs(a, out)
        return out, [inp, k, key], [a, out], env

    @case
    def async_two_consumers():
        # An async producer read by two consumers computed at different levels.
        inp = hl.ImageParam(i32, 2, "input")
        a, b, out = hl.Func("a"), hl.Func("b"), hl.Func("out")
        a[x, y] = inp[x, y] + 1
        b[x, y] = a[x, y] * 2
        out[x, y] = b[x, y] + a[x + 1, y + 1]
        a.compute_root().async_()
        b.compute_at(out, y)
        env = pure_envs(a, b, out)
        return out, [inp], [a, b, out], env

    @case
    def rdom_where_on_data():
        # An RDom whose where clause reads another Func (a data-dependent predicate on
        # the update), the predicate's Func computed at the root.
        inp = hl.ImageParam(u8, 1, "input")
        keep, f, out = hl.Func("keep"), hl.Func("f"), hl.Func("out")
        keep[x] = inp[x] > 100
        r = hl.RDom([(0, 64)], "r")
        r.where(keep[r.x + 2])
        f[x] = 0
        f[x] = f[x] + hl.i32(inp[x + r.x])
        out[x] = f[x] + f[x + 1]
        keep.compute_root()
        f.compute_root()
        env = dict([func_env(keep, ["uint1"], ["x"]),
                    func_env(f, ["int32"], ["x"], [dict(rdom_env(r, [("x", (0, 64))]), predicates=[f"keep(f.s1.{r.x.name()} + 2)"])]),
                    func_env(out, ["int32"], ["x"])])
        return out, [inp], [keep, f, out], env

    @case
    def compute_with_align_end():
        # Two root Funcs fused with compute_with, aligned at the end of their loops.
        inp = hl.ImageParam(i32, 2, "input")
        a, b, out = hl.Func("a"), hl.Func("b"), hl.Func("out")
        a[x, y] = inp[x, y] + 1
        b[x, y] = inp[x, y] * 2
        out[x, y] = a[x, y] + b[x + 2, y]
        a.compute_root()
        b.compute_root().compute_with(a, y, hl.LoopAlignStrategy.AlignEnd)
        env = pure_envs(a, b, out)
        return out, [inp], [a, b, out], env

    @case
    def wrapper_of_wrapper():
        # A wrapper of a wrapper (f.in_(g), then that wrapper's own in_), each computed
        # at a different level of its consumer.
        inp = hl.ImageParam(f32, 2, "input")
        f, g, out = hl.Func("f"), hl.Func("g"), hl.Func("out")
        f[x, y] = inp[x, y] * 2
        g[x, y] = f[x, y] + f[x + 1, y]
        out[x, y] = g[x, y] + g[x, y + 1]
        f.compute_root()
        g.compute_root()
        w1 = f.in_(g)
        w1.compute_at(g, y)
        w2 = w1.in_(g)
        w2.compute_at(g, x)
        env = pure_envs(f, w1, w2, g, out)
        return out, [inp], [f, w1, w2, g, out], env

    @case
    def unrolled_outer_with_inner_producer():
        # A producer computed inside an unrolled outer loop of its consumer, vectorized
        # with a GuardWithIf tail.
        inp = hl.ImageParam(u16, 2, "input")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y] = inp[x, y] + inp[x + 1, y]
        out[x, y] = a[x, y] * 2 + a[x, y + 1]
        out.split(y, yo, yi, 2).unroll(yi)
        a.compute_at(out, yi).vectorize(x, 8, hl.TailStrategy.GuardWithIf)
        env = pure_envs(a, out)
        return out, [inp], [a, out], env

    @case
    def ring_buffered_async_row():
        # An async producer whose storage is hoisted to the root and cycled through a
        # ring of two buffers: the semaphores and the ring index the producer writes at.
        inp = hl.ImageParam(f32, 2, "input")
        a, out = hl.Func("a"), hl.Func("out")
        a[x, y] = inp[x, y] * 2
        out[x, y] = a[x, y] + a[x, y - 1]
        a.compute_at(out, y).hoist_storage_root().async_().ring_buffer(2)
        env = dict([func_env(a, ["float32"], ["x", "y"]), func_env(out, ["float32"], ["x", "y"])])
        return out, [inp], [a, out], env

    @case
    def renamed_and_split_update_pure_var():
        inp = hl.ImageParam(u16, 2, "input")
        f, g, out = hl.Func("f"), hl.Func("g"), hl.Func("out")
        r = hl.RDom([(0, 5)], "r")
        g[x, y] = inp[x, y] + 1
        f[x, y] = hl.u16(0)
        f[x, y] = f[x, y] + g[x, y + r.x]
        out[x, y] = f[x, y]
        f.compute_root()
        f.update(0).split(y, yo, yi, 4).reorder(r.x, x, yi, yo)
        g.compute_at(f, yo)
        env = dict([func_env(g, ["uint16"], ["x", "y"]),
                    func_env(f, ["uint16"], ["x", "y"], [rdom_env(r, [("x", (0, 5))])]),
                    func_env(out, ["uint16"], ["x", "y"])])
        return out, [inp], [g, f, out], env

    def type_name(t):
        for code, make in (("int", hl.Int), ("uint", hl.UInt), ("float", hl.Float)):
            if t == make(t.bits()):
                return code + str(t.bits())
        raise ValueError(f"type {t}")

    def introspected(funcs):
        """Env entries read off the Funcs themselves (for generated pipelines)."""
        return {f: {"types": [type_name(t) for t in f.types()], "args": [a.name() for a in f.args()],
                    "updates": []} for f in funcs}

    def truncated_pyramid(levels):
        """Halide's test `truncated_pyramid` (spec workload B14): `levels` pyramid levels with
        repeat_edge, masking selects on parameters, specializations and GuardWithIf."""
        def build():
            inp = hl.Func("input")
            inp[x, y] = hl.random_float()
            inp.compute_root()
            width, height = hl.Param(i32, "width"), hl.Param(i32, "height")
            sizes = [(width, height)]
            for i in range(1, levels):
                sizes.append(((sizes[i - 1][0] + 1) / 2, (sizes[i - 1][1] + 1) / 2))
            made = [inp]
            down = [inp]
            for i in range(1, levels):
                bounded = hl.BoundaryConditions.repeat_edge(down[i - 1], [(0, sizes[i][0]), (0, sizes[i][1])])
                ds = hl.Func(f"downsampled_{i}")
                ds[x, y] = bounded[2 * x - 1, 2 * y - 1] + bounded[2 * x + 2, 2 * y + 2]
                d = hl.Func(f"pyr_down_{i}")
                d[x, y] = hl.select(hl.max(sizes[i][0], sizes[i][1]) > 5, ds[x, y], 0.0)
                d.compute_root().specialize(hl.max(width, height) > 32).vectorize(x, 16).parallel(
                    y, 16, hl.TailStrategy.GuardWithIf)
                made += [bounded, ds, d]
                down.append(d)
            up = [None] * levels
            up[levels - 1] = down[levels - 1]
            for i in range(levels - 2, -1, -1):
                us = hl.Func(f"upsample_{i}")
                us[x, y] = up[i + 1][x / 2 - 1, y / 2 - 1] + up[i + 1][x / 2 + 1, y / 2 + 1]
                u = hl.Func(f"pyr_up_{i}")
                u[x, y] = hl.select(hl.max(sizes[i][0], sizes[i][1]) > 5, down[i][x, y] - us[x, y], down[i][x, y])
                u.compute_root().specialize(hl.max(width, height) > 32).vectorize(x, 16).parallel(
                    y, 16, hl.TailStrategy.GuardWithIf)
                made += [us, u]
                up[i] = u
            return up[0], [width, height], made, introspected(made)
        return build

    # 4 to 20 levels are the spec's B14 sizes (checked in); 24 to 40 go past them, for
    # measuring by hand (from 32 levels Halide's own text holds overflow markers).
    for levels in (4, 8, 12, 16, 20, 24, 32, 40):
        cases[f"truncated_pyramid_L{levels}"] = truncated_pyramid(levels)

    return cases


def lowering_log(name):
    env = dict(os.environ, HL_DEBUG_CODEGEN="2")
    r = subprocess.run([sys.executable, __file__, "--one", name], env=env, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{name}: {r.stderr[-2000:]}")
    return r.stderr, r.stdout


def stages(log):
    """(stage name, text) for every stage, in order; an unchanged stage repeats the text
    before it."""
    out = []
    parts = re.split(r"^Lowering after (.*?):( \(unchanged\))?\n", log, flags=re.M)
    for i in range(1, len(parts) - 2, 3):
        name, unchanged, body = parts[i], parts[i + 1], parts[i + 2]
        if unchanged:
            if out:
                out.append((name, out[-1][1]))
            continue
        # The IR ends at the first blank line; progress messages follow it.
        lines = []
        for line in body.split("\n"):
            if not line.strip():
                break
            lines.append(line)
        out.append((name, "\n".join(lines) + "\n"))
    return out


LOOP = re.compile(r"^( *)((?:for|parallel|vectorized|unrolled|serial|gpu_block|gpu_thread|gpu_lane)(?:<\w+>)?) \((.*)\) \{$")


def split_top(args):
    """Splits at commas outside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in args:
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
            continue
        depth += ch in "(["
        depth -= ch in ")]"
        cur += ch
    out.append(cur.strip())
    return out


def is_atomic(e):
    """Whether `e` prints without parentheses as an operand: a name, a number, or a call."""
    if re.fullmatch(r"-?[\w.$]+", e):
        return True
    if e.startswith("(") and e.endswith(")"):
        depth = 0
        for i, ch in enumerate(e):
            depth += (ch == "(") - (ch == ")")
            if depth == 0:
                return i == len(e) - 1
    m = re.match(r"[\w.$]+\(", e)
    if not m or not e.endswith(")"):
        return False
    depth = 0
    for i, ch in enumerate(e[m.end() - 1:], m.end() - 1):
        depth += (ch == "(") - (ch == ")")
        if depth == 0:
            return i == len(e) - 1
    return False


def to_reference_form(text):
    """Halide 21's text in the reference's spelling. Loops: Halide 21 prints
    `(name, min, extent)` with `loop_extent` lets, the reference `(name, min, max)` with
    `loop_max` lets; other loop headers get max `(min + extent) - 1`, and remaining uses of
    a `loop_extent` let are written `(loop_max - loop_min) + 1`, equal by definition."""
    text = re.sub(r"^ *let [^ ]*\.loop_extent = .*\n", "", text, flags=re.M)
    text = re.sub(r"\(([^ ,]+), ([^,]+), \1\.loop_extent\) \{", r"(\1, \2, \1.loop_max) {", text)
    text = re.sub(r"([\w.$]+)\.loop_extent(?![\w.$])", r"((\1.loop_max - \1.loop_min) + 1)", text)
    lines = []
    for line in text.split("\n"):
        m = LOOP.match(line)
        if m:
            name, lo, ext = split_top(m.group(3))
            if ext != f"{name}.loop_max":
                wrap = lambda e: e if is_atomic(e) else f"({e})"
                line = f"{m.group(1)}{m.group(2)} ({name}, {lo}, ({wrap(lo)} + {wrap(ext)}) - 1) {{"
        lines.append(line)
    text = "\n".join(lines)
    # Booleans print as true/false in the reference, other integer widths as `3_u16`.
    text = re.sub(r"\(uint1\)([01])(?![\w.(])", lambda m: "true" if m.group(1) == "1" else "false", text)
    text = re.sub(r"\((u?)int(\d+)\)(-?\d+)(?![\w.(])",
                  lambda m: f"{m.group(3)}_{'u' if m.group(1) else 'i'}{m.group(2)}", text)
    return infix_bitwise(text)


INFIX_BEFORE = re.compile(r"(?: (?:\+|-|%|<=|>=|<|>|==|!=|&&|\|\||&|\||\^) |\*|/|!)$")
INFIX_AFTER = re.compile(r"^(?: (?:\+|-|%|<=|>=|<|>|==|!=|&&|\|\||&|\||\^) |\*|/)")
BITWISE = re.compile(r"(\((?:u?int|float)\d+(?:x\d+)?\))?bitwise_(and|or|xor)\(")


def infix_bitwise(text):
    """Halide 21 prints the bitwise intrinsics as calls, `(uint8)bitwise_and(a, b)`; the
    reference prints `a & b` with no type prefix, parenthesised where it is an operand of
    another infix operator (or of `!`), its operands parenthesised unless atomic."""
    while True:
        found = list(BITWISE.finditer(text))
        if not found:
            return text
        m = found[-1]  # the last call holds no other one: innermost first
        depth, end = 0, None
        for i in range(m.end() - 1, len(text)):
            depth += (text[i] == "(") - (text[i] == ")")
            if depth == 0:
                end = i + 1
                break
        a, b = split_top(text[m.end():end - 1])
        # A call with a type prefix, `(uint32)shift_right(...)`, is as atomic as without.
        wrap = lambda e: e if is_atomic(re.sub(r"^\((?:u?int|float)\d+(?:x\d+)?\)(?=[\w.$]+\()", "", e)) else f"({e})"
        op = {"and": "&", "or": "|", "xor": "^"}[m.group(2)]
        infix = f"{wrap(a)} {op} {wrap(b)}"
        if INFIX_BEFORE.search(text[:m.start()]) or INFIX_AFTER.match(text[end:]):
            infix = f"({infix})"
        text = text[:m.start()] + infix + text[end:]


def realization_order(log, guess):
    """Halide's realization order, read from the log: it injects realizations from the
    last Func to the first, one `Injecting realization of { ... }` line per group (Funcs
    fused by compute_with share a group, listed in order). Funcs the log does not name
    (inlined ones) keep their place in the case's own `guess`."""
    injected = [g.split(", ") for g in re.findall(r"^Injecting realization of \{ (.*) \}$", log, re.M)]
    realized = [f for group in reversed(injected) for f in group]
    missing = [f for f in realized if f not in guess]
    if missing:
        raise RuntimeError(f"the case's order lacks realized Funcs {missing}")
    it = iter(realized)
    return [next(it) if f in realized else f for f in guess]


def before_and_after(all_stages, stage):
    for i, (name, text) in enumerate(all_stages):
        if name == stage:
            return all_stages[i - 1][1], text
    raise RuntimeError(f"no stage {stage}")


def main():
    if sys.argv[1] == "--one":
        # One pipeline per process: Halide uniquifies Func names within a process.
        cases = pipelines()
        out, params, order, funcs = cases[sys.argv[2]]()
        import halide as hl

        target = "host-cuda" if sys.argv[2].endswith("_cuda") else "host"
        out.compile_to_lowered_stmt("/dev/null", params, hl.StmtOutputFormat.Text, hl.Target(target))
        outs = [o for o in out.outputs()] if isinstance(out, hl.Pipeline) else [out]
        # A Tuple-valued output's buffers are named `<f>.0`, `<f>.1`, ...
        buffer = lambda o: o.name() + (".0" if len(o.types()) > 1 else "")
        env = {"order": [f.name() for f in order], "target": {"profile": False},
               "outputs": [{"func": o.name(), "buffer": buffer(o)} for o in outs],
               "funcs": {f.name(): e for f, e in funcs.items()}}
        print(json.dumps(env, indent=1))
        return
    # `--workloads DIR`: the B14 inputs, as `DIR/truncated_pyramid.L<n>`.
    workloads = sys.argv[1] == "--workloads"
    args = sys.argv[2:] if workloads else sys.argv[1:]
    out_dir = args[0]
    pyramids = [n for n in pipelines() if n.startswith("truncated_pyramid_L")]
    if workloads:
        names = args[1:] or pyramids[:5]
    else:
        # The test corpus holds the smallest pyramid; the others are workloads.
        names = args[1:] or [n for n in pipelines() if n not in pyramids[1:]]
    for name in names:
        log, env = lowering_log(name)
        st = stages(log)
        if workloads:
            d = os.path.join(out_dir, name.replace("_L", ".L"))
        else:
            d = os.path.join(out_dir, f"{name[:-5]}.cuda" if name.endswith("_cuda") else f"{name}.cpu")
        os.makedirs(d, exist_ok=True)
        for prefix, stage in [("bounds", "computation bounds inference"),
                              ("allocbounds", "allocation bounds inference")]:
            before, after = before_and_after(st, stage)
            with open(os.path.join(d, f"{prefix}.input.stmt"), "w") as fh:
                fh.write(to_reference_form(before))
            if not workloads:
                with open(os.path.join(d, f"{prefix}.expected.stmt"), "w") as fh:
                    fh.write(to_reference_form(after))
        # Halide's `t` counter is process-wide; in a fresh process it stands just past the
        # largest `t` name of the pass's input (the oracle's envs are mostly so too).
        # Halide may print warnings on stdout before the env (a dropped prefetch).
        env = json.loads(env[re.search(r"^\{$", env, re.M).start():])
        env["order"] = realization_order(log, env["order"])
        used = [int(n) for n in re.findall(r"\bt(\d+)\b", before_and_after(st, "computation bounds inference")[0])]
        env["fresh_names"] = {"t": max(used) + 1 if used else 0}
        with open(os.path.join(d, "bounds.env.json"), "w") as fh:
            json.dump(env, fh, indent=1)
            fh.write("\n")
        print(d)


if __name__ == "__main__":
    main()
