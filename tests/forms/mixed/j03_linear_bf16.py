import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.Linear in bfloat16."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(32, 24).bfloat16()

    def forward(self, x):
        return self.fc(x)


def get_inputs():
    return [torch.randn(16, 32).bfloat16()]


def get_init_inputs():
    return []
