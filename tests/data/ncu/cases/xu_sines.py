"""xu_pipe_saturated: per element a dependent chain of approximate sines and cosines (sin.approx.f32 and
cos.approx.f32 in inline PTX: MUFU.SIN and MUFU.COS in the SASS, the XU pipe), one multiply each on the
FMA pipe: the XU issues a quarter of the FMA's instructions a cycle, so it fills first while DRAM idles."""
import torch
import triton
import triton.language as tl


@triton.jit
def sines_k(x_ptr, o_ptr, STEPS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    for _ in tl.static_range(STEPS):
        x = tl.inline_asm_elementwise("sin.approx.f32 $0, $1;", "=r,r", [x * 1.5], dtype=tl.float32, is_pure=True,
                                      pack=1)
        x = tl.inline_asm_elementwise("cos.approx.f32 $0, $1;", "=r,r", [x * 1.5], dtype=tl.float32, is_pure=True,
                                      pack=1)
    tl.store(o_ptr + offs, x)


sms = torch.cuda.get_device_properties(0).multi_processor_count
BLOCK = 1024
n = sms * 16 * BLOCK * 4
x = torch.randn(n, device="cuda")
o = torch.empty_like(x)
for _ in range(2):
    sines_k[(n // BLOCK,)](x, o, STEPS=64, BLOCK=BLOCK, num_warps=4)
torch.cuda.synchronize()
