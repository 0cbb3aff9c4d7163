import torch
import torch.nn as nn


class Model(nn.Module):
    """AvgPool3d whose divisor leaves the padding out, with ceil_mode (KernelBench 46's form, varied)."""

    def __init__(self):
        super().__init__()
        self.avg_pool = nn.AvgPool3d(kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)

    def forward(self, x):
        return self.avg_pool(x)


def get_inputs():
    return [torch.randn(2, 2, 9, 10, 11)]


def get_init_inputs():
    return []
