import torch
import torch.nn as nn


class Model(nn.Module):
    """KernelBench 38's L1 normalisation over rows of an odd length (4099 floats): no row after the first
    starts on a 16-byte boundary, and each starts at a different offset from one."""

    def forward(self, x):
        return x / torch.mean(torch.abs(x), dim=1, keepdim=True)


def get_inputs():
    return [torch.rand(7, 4099)]


def get_init_inputs():
    return []
