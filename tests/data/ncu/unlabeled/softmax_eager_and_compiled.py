"""Kernels nobody here designed: PyTorch's own softmax and the one torch.compile generates, for a
4096 x 65536 fp32 softmax over the last dimension. Each runs once inside the NVTX range "marked", after
warm-up (and torch.compile's autotuning), so that

    ncu --csv --page raw --set full --nvtx --nvtx-include marked/ --clock-control none python3 THIS.py

profiles exactly those two launches. Their diagnoses are checked by hand (README.md)."""
import torch

x = torch.randn(4096, 65536, device="cuda")
compiled = torch.compile(lambda t: torch.softmax(t, dim=-1))
for _ in range(3):
    torch.softmax(x, dim=-1)
    compiled(x)
torch.cuda.synchronize()
torch.cuda.nvtx.range_push("marked")
torch.softmax(x, dim=-1)
compiled(x)
torch.cuda.synchronize()
torch.cuda.nvtx.range_pop()
