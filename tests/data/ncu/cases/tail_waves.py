"""tail_effect: compute-heavy programs in 1.1 waves: the second wave keeps a tenth of the SMs busy for as
long as the first kept all of them. The occupancy (programs per SM) is read from the device at run time."""
import torch
import triton
import triton.language as tl


@triton.jit
def tail_k(x_ptr, o_ptr, iters, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    for _ in range(iters):
        x = x * 1.0000001 + 0.0000001
    tl.store(o_ptr + offs, x)


sms = torch.cuda.get_device_properties(0).multi_processor_count
per_sm = 16                     # 4-warp programs with few registers: 16 fit on an SM (64 warps)
programs = int(sms * per_sm * 1.1)
block = 128
x = torch.randn(programs * block, device="cuda")
o = torch.empty_like(x)
for _ in range(2):
    tail_k[(programs,)](x, o, 20000, BLOCK=block, num_warps=4)
torch.cuda.synchronize()
