import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear without bias, then an added bias parameter, then exact GELU."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.fc = nn.Linear(48, 40, bias=False)
        self.bias = nn.Parameter(torch.randn(40))

    def forward(self, x):
        return F.gelu(self.fc(x) + self.bias)


def get_inputs():
    return [torch.randn(24, 48)]


def get_init_inputs():
    return []
