"""fp32_pipe_saturated: per element eight independent chains of fused multiply-adds (FFMA in the SASS, the
FMA pipe), long enough that the one load and one store an element are nothing beside them: the FMA pipe
is the busy unit, with every warp scheduler issuing to it, and no transcendental, integer or tensor work."""
import torch
import triton
import triton.language as tl


@triton.jit
def fma_k(x_ptr, o_ptr, STEPS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    a0 = x
    a1 = x + 1.0
    a2 = x + 2.0
    a3 = x + 3.0
    a4 = x + 4.0
    a5 = x + 5.0
    a6 = x + 6.0
    a7 = x + 7.0
    for _ in tl.static_range(STEPS):
        a0 = a0 * 0.999 + 0.001
        a1 = a1 * 0.999 + 0.001
        a2 = a2 * 0.999 + 0.001
        a3 = a3 * 0.999 + 0.001
        a4 = a4 * 0.999 + 0.001
        a5 = a5 * 0.999 + 0.001
        a6 = a6 * 0.999 + 0.001
        a7 = a7 * 0.999 + 0.001
    tl.store(o_ptr + offs, a0 + a1 + a2 + a3 + a4 + a5 + a6 + a7)


sms = torch.cuda.get_device_properties(0).multi_processor_count
BLOCK = 1024
n = sms * 16 * BLOCK * 4
x = torch.randn(n, device="cuda")
o = torch.empty_like(x)
for _ in range(2):
    fma_k[(n // BLOCK,)](x, o, STEPS=128, BLOCK=BLOCK, num_warps=4)
torch.cuda.synchronize()
