"""alu_pipe_saturated: per element a dependent chain of xorshift steps on 32-bit integers (shifts and XORs:
SHF and LOP3 in the SASS, the integer and logic pipe) seeded from the element's bits, with one load and one
store an element: the ALU pipe fills while DRAM idles, and no floating-point pipe has work."""
import torch
import triton
import triton.language as tl


@triton.jit
def alu_k(x_ptr, o_ptr, STEPS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    h = tl.load(x_ptr + offs)
    for _ in tl.static_range(STEPS):
        h = h ^ (h << 13)
        h = h ^ (h >> 17)
        h = h ^ (h << 5)
    tl.store(o_ptr + offs, h)


sms = torch.cuda.get_device_properties(0).multi_processor_count
BLOCK = 1024
n = sms * 16 * BLOCK * 4
x = torch.randint(1, 2**31 - 1, (n,), device="cuda", dtype=torch.int32)
o = torch.empty_like(x)
for _ in range(2):
    alu_k[(n // BLOCK,)](x, o, STEPS=64, BLOCK=BLOCK, num_warps=4)
torch.cuda.synchronize()
