"""l2_thrashing: every program sums all of x (128 MiB, twice the L2), each starting at its own offset and
wrapping around, so at any moment the programs read different parts of x and a line is evicted before the
next program reaches it: x comes from DRAM once per program. Compulsory bytes: x once, plus y.
Recorded profile: DRAM traffic far above the compulsory bytes with a low L2 hit rate (l2_thrashing, second),
and, first, uncoalesced_access: the wrapped offset keeps Triton from vectorising the loads, so one load
instruction uses 4 of every 32 bytes it touches (the neighbouring lanes' loads fill the sectors from L1)."""
import torch
import triton
import triton.language as tl


@triton.jit
def reread_k(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    p = tl.program_id(0)
    start = (p * (n // tl.num_programs(0))) // BLOCK * BLOCK
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for j in range(0, n, BLOCK):
        base = tl.multiple_of((start + j) % n, BLOCK)   # n is a multiple of BLOCK: a chunk never wraps
        acc += tl.load(x_ptr + base + tl.arange(0, BLOCK))
    tl.store(y_ptr + p, tl.sum(acc, axis=0))


sms = torch.cuda.get_device_properties(0).multi_processor_count
programs, n = sms * 2, 1 << 25
x = torch.randn(n, device="cuda")
y = torch.empty(programs, device="cuda")
for _ in range(2):
    reread_k[(programs,)](x, y, n, BLOCK=4096, num_warps=8)
torch.cuda.synchronize()
