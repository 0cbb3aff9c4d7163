"""index_add_ of many values onto few bins (problems/index_add_few_bins.py), two ways, chosen by ACCUMULATE:

- "pytorch": PyTorch's own index_add_ kernel, an atomic add per element (RED instructions: no result used);
- "per_program": each program sums its block into the bins first (a masked sum per bin) and then adds one
  value per bin, so the atomics to one address fall from one per element to one per program.

The first is what a user gets without writing a kernel; the case of cases.json profiles it against the second,
the fix the atomic-contention prescription (reduce before the atomic) makes. (torch.compile's kernel for the
same line cannot be profiled here: its first call replaces torch.nn.Module.__init__ and starts a thread, which
the worker's integrity check refuses.)
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl

ACCUMULATE = 'pytorch'  # kernelagent: "per_program" | reduction_tree
BLOCK = 4096  # kernelagent: 1024, 2048, 8192, 16384
NUM_WARPS = 8  # kernelagent: 4, 16


@triton.jit
def sum_into_bins(x_ptr, index_ptr, out_ptr, n, BINS: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    inside = offs < n
    x = tl.load(x_ptr + offs, mask=inside, other=0.0)
    bin_of = tl.load(index_ptr + offs, mask=inside, other=-1)
    for b in tl.static_range(BINS):
        tl.atomic_add(out_ptr + b, tl.sum(tl.where(bin_of == b, x, 0.0), axis=0), sem="relaxed")


class ModelNew(nn.Module):
    def __init__(self, bins):
        super().__init__()
        self.bins = bins

    def forward(self, x, index):
        out = torch.zeros(self.bins, device=x.device, dtype=x.dtype)
        if ACCUMULATE == "pytorch":
            return out.index_add_(0, index, x)
        n = x.numel()
        sum_into_bins[(triton.cdiv(n, BLOCK),)](x, index, out, n, BINS=self.bins,
                                                 BLOCK=BLOCK, num_warps=NUM_WARPS)
        return out
