"""cumsum over dim 0 of a row-major matrix (problems/cumsum_down_columns.py) two ways, chosen by SCAN:

- "pytorch": PyTorch's own kernel for a scan over an outer dimension: a thread a column, walking down it one
  element at a time, each step a load, an add and a store, so a warp has one 128-byte load in flight at a time.
- "tiles": a program a strip of BLOCK_C columns, loading BLOCK_R rows of the strip at once (a tile in flight,
  not a row), scanning the tile down its rows and carrying the strip's running sum to the next tile.
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl

SCAN = "pytorch"  # kernelagent: "tiles" | pipelining
BLOCK_R = 32  # kernelagent: 8, 16, 64
BLOCK_C = 128  # kernelagent: 64, 256
NUM_WARPS = 4  # kernelagent: 2, 8


@triton.jit
def cumsum_strips(x_ptr, y_ptr, rows: tl.constexpr, cols, BLOCK_R: tl.constexpr, BLOCK_C: tl.constexpr):
    c = tl.program_id(0) * BLOCK_C + tl.arange(0, BLOCK_C)
    carry = tl.zeros([BLOCK_C], dtype=tl.float32)
    for r0 in range(0, rows, BLOCK_R):
        r = r0 + tl.arange(0, BLOCK_R)
        inside = (r < rows)[:, None] & (c < cols)[None, :]
        at = r.to(tl.int64)[:, None] * cols + c[None, :]
        tile = tl.load(x_ptr + at, mask=inside, other=0.0)
        tl.store(y_ptr + at, tl.cumsum(tile, axis=0) + carry[None, :], mask=inside)
        carry += tl.sum(tile, axis=0)


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        if SCAN == "pytorch":
            return torch.cumsum(x, dim=0)
        x = x.contiguous()
        rows = x.shape[0]
        cols = x.numel() // rows
        y = torch.empty_like(x)
        cumsum_strips[(triton.cdiv(cols, BLOCK_C),)](x, y, rows, cols, BLOCK_R=BLOCK_R, BLOCK_C=BLOCK_C,
                                                      num_warps=NUM_WARPS)
        return y
