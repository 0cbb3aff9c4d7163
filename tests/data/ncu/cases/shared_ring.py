"""shared_memory_limited_occupancy: a copy that stages its tiles through a 160 KB ring in shared memory, so
one program fits an SM: 4 warps of 64, too few loads in flight to keep DRAM busy, while registers and the
warp limit would allow 16 programs. Written in Gluon, which allocates shared memory explicitly."""
import torch
from triton.experimental import gluon
from triton.experimental.gluon import language as gl


@gluon.jit
def ring_k(x_ptr, o_ptr, chunks, SLOTS: gl.constexpr, BLOCK: gl.constexpr):
    layout: gl.constexpr = gl.BlockedLayout([4], [32], [4], [0])
    ring = gl.allocate_shared_memory(gl.float32, [SLOTS, BLOCK], gl.SwizzledSharedLayout(1, 1, 1, [0]))
    offs = gl.arange(0, BLOCK, layout=layout)
    base = gl.program_id(0) * chunks * BLOCK
    for i in range(chunks):
        slot = ring.index(i % SLOTS)
        slot.store(gl.load(x_ptr + base + i * BLOCK + offs))
        gl.store(o_ptr + base + i * BLOCK + offs, slot.load(layout))


sms = torch.cuda.get_device_properties(0).multi_processor_count
SLOTS, BLOCK, chunks = 80, 512, 256                 # 80 x 512 floats = 160 KB of shared memory per program
programs = sms * 4                                  # four whole waves of one program per SM
x = torch.randn(programs * chunks * BLOCK, device="cuda")
o = torch.empty_like(x)
for _ in range(2):
    ring_k[(programs,)](x, o, chunks, SLOTS=SLOTS, BLOCK=BLOCK, num_warps=4)
torch.cuda.synchronize()
assert torch.equal(o, x)
