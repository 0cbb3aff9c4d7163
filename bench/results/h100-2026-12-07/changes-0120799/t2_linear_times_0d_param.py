import torch
import torch.nn as nn


class Model(nn.Module):
    """A linear layer times a 0-d parameter plus a 0-d buffer."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(4096, 4096)
        self.scale = nn.Parameter(torch.tensor(0.75))
        self.register_buffer("shift", torch.tensor(-0.5))

    def forward(self, x):
        return self.fc(x) * self.scale + self.shift


def get_inputs():
    return [torch.randn(4096, 4096)]


def get_init_inputs():
    return []
