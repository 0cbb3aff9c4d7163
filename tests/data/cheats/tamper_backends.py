"""Cheat: switches PyTorch's precision and determinism flags in its forward (TF32 for the reference's
products, lower fp32 matmul precision, nondeterministic cuDNN), which would loosen the reference it is
compared with and speed up the baselines' rivals.
Caught by the watch on torch.backends: cheat_tampering, naming each flag (all are put back).
"""
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def scaled_relu(x_ptr, w_ptr, y_ptr, n, cols, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    w = tl.load(w_ptr + offs % cols, mask=mask, other=0.0)
    tl.store(y_ptr + offs, tl.maximum(x, 0.0) * w, mask=mask)


def launch(x, w, y):
    scaled_relu[(triton.cdiv(x.numel(), 1024),)](x, w, y, x.numel(), x.shape[-1], BLOCK=1024)


class ModelNew(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.w = nn.Parameter(torch.empty(cols))

    def forward(self, x):
        y = torch.empty_like(x)
        launch(x, self.w, y)
        torch.backends.cuda.matmul.allow_tf32 = True
        torch.backends.cudnn.allow_tf32 = not torch.backends.cudnn.allow_tf32
        torch.set_float32_matmul_precision("medium")
        torch.backends.cudnn.deterministic = not torch.backends.cudnn.deterministic
        return y
