"""register_limited_occupancy: each program keeps a 128x128 fp32 tile live in registers (128 floats per
thread) across a loop of dependent loads, so a thread needs about 160 registers and only 3 four-warp
programs fit an SM (12 of 64 warps): too few warps to hide the load latency, while shared memory and the
warp limit would allow many more. The chase is coalesced (a warp reads 128 consecutive bytes a step, each
step a far jump) so that latency, not scattered access, is what the few warps fail to hide."""
import torch
import triton
import triton.language as tl


@triton.jit
def regs_k(x_ptr, next_ptr, o_ptr, steps, R: tl.constexpr, C: tl.constexpr):
    pid = tl.program_id(0)
    cols = tl.arange(0, C)
    keep = tl.load(x_ptr + pid * R * C + tl.arange(0, R)[:, None] * C + cols[None, :])
    # The chase depends on the tile, so the tile is loaded (and held) before the loop; the row maxima are
    # reduced inside each warp, with no shared memory.
    idx = pid * C + cols + (tl.max(tl.max(keep, axis=1), axis=0) > 1e30).to(tl.int32)
    for _ in range(steps):
        idx = tl.load(next_ptr + idx)                                     # one dependent load after another
    tl.store(o_ptr + pid * R * C + tl.arange(0, R)[:, None] * C + cols[None, :], keep * idx[None, :].to(tl.float32))


sms = torch.cuda.get_device_properties(0).multi_processor_count
programs, R, C = sms * 3 * 4, 128, 128            # four whole waves of 3 programs per SM
n = 1 << 24                                       # 64 MiB of int32, more than the L2
jump = 1_000_003 * C                              # far enough that each step misses the caches
nxt = ((torch.arange(n, device="cuda", dtype=torch.int64) + jump) % n).to(torch.int32)
x = torch.randn(programs * R * C, device="cuda")
o = torch.empty_like(x)
for _ in range(2):
    regs_k[(programs,)](x, nxt, o, 200, R=R, C=C, num_warps=4)
torch.cuda.synchronize()
