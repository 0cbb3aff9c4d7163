import torch
import torch.nn as nn


class Model(nn.Module):
    """A linear layer times a 0-d parameter and plus a 0-d buffer: both read from the module when the kernel
    runs (one scalar load each), not folded in as the values they held when traced."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(24, 20)
        self.scale = nn.Parameter(torch.tensor(0.75))
        self.register_buffer("shift", torch.tensor(-0.5))

    def forward(self, x):
        return self.fc(x) * self.scale + self.shift


def get_inputs():
    return [torch.randn(18, 24)]


def get_init_inputs():
    return []
