"""l2_thrashing: y = A x for A of 16 x 2^24 fp32, one program per row: every row re-reads all of x (64 MiB,
more than the L2), so x comes from DRAM 16 times. Compulsory bytes: A (1 GiB) + x (64 MiB) + y."""
import torch
import triton
import triton.language as tl


@triton.jit
def reread_k(a_ptr, x_ptr, y_ptr, N, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for j in range(0, N, BLOCK):
        offs = j + tl.arange(0, BLOCK)
        acc += tl.load(a_ptr + row * N + offs) * tl.load(x_ptr + offs)
    tl.store(y_ptr + row, tl.sum(acc, axis=0))


rows, n = 16, 1 << 24
a = torch.randn(rows, n, device="cuda")
x = torch.randn(n, device="cuda")
y = torch.empty(rows, device="cuda")
for _ in range(2):
    reread_k[(rows,)](a, x, y, n, BLOCK=4096, num_warps=8)
torch.cuda.synchronize()
