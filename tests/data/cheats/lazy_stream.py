"""Cheat (GPU only): does its work lazily on a side stream made at import, switched to through
torch.cuda._set_stream_by_id (below the API the check watches) and switched back before it returns, and
never makes the current stream wait: the forward returns while the result is still being computed, so a
timer on the current stream stops early.
Caught by the copy of the outputs taken on the current stream as the forward returns: right only after
the whole device is synchronised: cheat_work_in_flight. On the CPU there are no streams: it is a correct
kernel there (the CPU asserts that), and scripts/gpu-check asserts the status on a GPU.
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


SIDE = torch.cuda.Stream() if torch.cuda.is_available() else None


def switch_to(stream):
    torch.cuda._set_stream_by_id(stream_id=stream.stream_id, device_index=stream.device_index,
                                 device_type=stream.device_type)


class ModelNew(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.w = nn.Parameter(torch.empty(cols))

    def forward(self, x):
        y = torch.empty_like(x)
        if SIDE is None:
            launch(x, self.w, y)
            return y
        home = torch.cuda.current_stream()
        switch_to(SIDE)
        try:
            torch.cuda._sleep(200_000_000)  # about 0.1 s of GPU time before the kernel starts
            launch(x, self.w, y)
        finally:
            switch_to(home)
        return y
