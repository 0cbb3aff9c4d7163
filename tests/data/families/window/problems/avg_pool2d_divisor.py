import torch
import torch.nn as nn


class Model(nn.Module):
    """AvgPool2d with a divisor override and padding."""

    def __init__(self):
        super().__init__()
        self.avg_pool = nn.AvgPool2d(kernel_size=3, stride=2, padding=1, divisor_override=5)

    def forward(self, x):
        return self.avg_pool(x)


def get_inputs():
    return [torch.randn(2, 3, 17, 18)]


def get_init_inputs():
    return []
