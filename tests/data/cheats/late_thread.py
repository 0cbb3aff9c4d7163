"""Cheat: returns an empty output and starts a thread that fills it in a second later, once the checker
would have compared it (or after a timer stopped).
Caught by the watch on threads: cheat_tampering, as soon as its first call (when the kernel is built)
returns with the thread still running; the worker ends after its reply.
"""
import threading
import time

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

        def later():
            time.sleep(1.0)
            launch(x, self.w, y)

        threading.Thread(target=later, name="late-writer", daemon=True).start()
        return y
