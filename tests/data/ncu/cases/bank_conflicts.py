"""bank_conflicts: a 32x32 fp32 tile transposed through shared memory with a plain row-major layout (no
swizzle, no padding): a warp reads one column, 32 floats 128 bytes apart, so all 32 lanes hit the same bank
and every load is replayed 32 ways. Written in Gluon, Triton's explicit-layout dialect, because plain Triton
swizzles its shared buffers and never shows the conflict."""
import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def bank_k(x_ptr, o_ptr):
    rows: gl.constexpr = gl.BlockedLayout([1, 1], [1, 32], [4, 1], [1, 0])   # a warp holds a row: coalesced
    cols: gl.constexpr = gl.BlockedLayout([1, 1], [32, 1], [1, 4], [0, 1])   # a warp holds a column
    plain: gl.constexpr = gl.SwizzledSharedLayout(1, 1, 1, [1, 0])            # row pitch 32 words, no swizzle
    base = gl.program_id(0) * 1024
    r = gl.arange(0, 32, layout=gl.SliceLayout(1, rows))
    c = gl.arange(0, 32, layout=gl.SliceLayout(0, rows))
    tile = gl.load(x_ptr + base + r[:, None] * 32 + c[None, :])
    smem = gl.allocate_shared_memory(gl.float32, [32, 32], plain, tile)
    t = smem.load(cols)                                                        # 32-way conflict
    rt = gl.arange(0, 32, layout=gl.SliceLayout(1, cols))
    ct = gl.arange(0, 32, layout=gl.SliceLayout(0, cols))
    gl.store(o_ptr + base + ct[None, :] * 32 + rt[:, None], t)                 # lanes along rows: coalesced


n = 1 << 26
x = torch.randn(n, device="cuda")
o = torch.empty_like(x)
for _ in range(2):
    bank_k[(n // 1024,)](x, o, num_warps=4)
torch.cuda.synchronize()
assert torch.equal(o.view(-1, 32, 32), x.view(-1, 32, 32).transpose(1, 2))
