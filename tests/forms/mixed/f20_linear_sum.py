import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear then sum over features (Gemm_Sum)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 24)

    def forward(self, x):
        return self.fc(x).sum(dim=1, keepdim=True)


def get_inputs():
    return [torch.randn(16, 32)]


def get_init_inputs():
    return []
