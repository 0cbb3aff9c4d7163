"""uncoalesced_access: each lane reads one float 32 floats (128 bytes) from its neighbour's, so every 32-byte
sector carries 4 useful bytes. Useful traffic: 2^22 floats read + 2^22 written = 32 MiB."""
import torch
import triton
import triton.language as tl

STRIDE = 32


@triton.jit
def strided_k(x_ptr, o_ptr, n, STRIDE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    tl.store(o_ptr + offs, tl.load(x_ptr + offs * STRIDE, mask=m), mask=m)


n = 1 << 22
x = torch.randn(n * STRIDE, device="cuda")
o = torch.empty(n, device="cuda")
for _ in range(2):
    strided_k[(triton.cdiv(n, 1024),)](x, o, n, STRIDE=STRIDE, BLOCK=1024)
torch.cuda.synchronize()
