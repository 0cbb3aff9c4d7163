"""Cheat (GPU only): sets a persisting-L2 limit and an access policy window over its weight and input on
the current stream, so that they survive the timing harness's L2 flush and every timed call reads them
from L2.
Caught by reading the context's persisting-L2 limit and the stream's window after the forward:
cheat_gpu_state (both are reset). On the CPU there is no L2 to keep: it is a correct kernel there (the
CPU asserts that), and scripts/gpu-check asserts the status on a GPU.
"""
import ctypes

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


def keep_in_l2(x):
    cu = ctypes.CDLL("libcuda.so.1")
    cu.cuCtxSetLimit(0x06, ctypes.c_size_t(32 << 20))          # CU_LIMIT_PERSISTING_L2_CACHE_SIZE
    window = (ctypes.c_ubyte * 64)()                            # CUstreamAttrValue.accessPolicyWindow
    ctypes.c_void_p.from_buffer(window, 0).value = x.data_ptr()
    ctypes.c_size_t.from_buffer(window, 8).value = x.numel() * x.element_size()
    ctypes.c_float.from_buffer(window, 16).value = 1.0          # hitRatio
    ctypes.c_int.from_buffer(window, 20).value = 2              # hitProp: CU_ACCESS_PROPERTY_PERSISTING
    ctypes.c_int.from_buffer(window, 24).value = 1              # missProp: CU_ACCESS_PROPERTY_STREAMING
    stream = ctypes.c_void_p(torch.cuda.current_stream().cuda_stream)
    cu.cuStreamSetAttribute(stream, 1, ctypes.byref(window))    # CU_STREAM_ATTRIBUTE_ACCESS_POLICY_WINDOW


class ModelNew(nn.Module):
    def __init__(self, cols):
        super().__init__()
        self.w = nn.Parameter(torch.empty(cols))

    def forward(self, x):
        if x.is_cuda:
            keep_in_l2(x)
        y = torch.empty_like(x)
        launch(x, self.w, y)
        return y
