import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """conv2d -> hardtanh -> mean over (H, W)."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 3)

    def forward(self, x):
        return F.hardtanh(self.conv(x)).mean(dim=(2, 3))


def get_inputs():
    return [torch.randn(2, 3, 10, 10)]


def get_init_inputs():
    return []
