"""atomic_contention: every element adds into the same global counter, so the updates queue in one L2 slice."""
import torch
import triton
import triton.language as tl


@triton.jit
def atomic_k(x_ptr, total_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=0.0)
    tl.atomic_add(total_ptr + tl.zeros([BLOCK], dtype=tl.int32), x, mask=m)


n = 1 << 24
x = torch.randn(n, device="cuda")
total = torch.zeros(1, device="cuda")
for _ in range(2):
    atomic_k[(triton.cdiv(n, 1024),)](x, total, n, BLOCK=1024)
torch.cuda.synchronize()
