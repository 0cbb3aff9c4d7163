"""xu_pipe_saturated: per element a dependent chain of exp2 and reciprocal square roots (tl.math.exp2 and
tl.math.rsqrt are MUFU.EX2 and MUFU.RSQ in the SASS, the XU pipe) with one multiply each on the FMA pipe:
the XU issues a quarter of the FMA's instructions a cycle, so it fills first while DRAM (one read and one
write a element) idles."""
import torch
import triton
import triton.language as tl


@triton.jit
def xu_k(x_ptr, o_ptr, STEPS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    for _ in tl.static_range(STEPS):
        x = tl.math.rsqrt(tl.math.exp2(x * 0.5) + 1.0)
    tl.store(o_ptr + offs, x)


sms = torch.cuda.get_device_properties(0).multi_processor_count
BLOCK = 1024
n = sms * 16 * BLOCK * 4
x = torch.randn(n, device="cuda")
o = torch.empty_like(x)
for _ in range(2):
    xu_k[(n // BLOCK,)](x, o, STEPS=64, BLOCK=BLOCK, num_warps=4)
torch.cuda.synchronize()
