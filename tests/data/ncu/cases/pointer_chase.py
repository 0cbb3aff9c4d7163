"""long_scoreboard_stalls: every lane follows a random permutation, one dependent load after another; each
load waits for the last, so warps stall on the long scoreboard while DRAM stays nearly idle."""
import torch
import triton
import triton.language as tl


@triton.jit
def chase_k(next_ptr, o_ptr, steps, BLOCK: tl.constexpr):
    idx = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    for _ in range(steps):
        idx = tl.load(next_ptr + idx)
    tl.store(o_ptr + tl.program_id(0) * BLOCK + tl.arange(0, BLOCK), idx)


n = 1 << 24
nxt = torch.randperm(n, device="cuda", dtype=torch.int64).to(torch.int32)
programs, block = 264, 128   # two programs per SM: not a small grid, far too few loads in flight
o = torch.empty(programs * block, device="cuda", dtype=torch.int32)
for _ in range(2):
    chase_k[(programs,)](nxt, o, 2000, BLOCK=block, num_warps=4)
torch.cuda.synchronize()
