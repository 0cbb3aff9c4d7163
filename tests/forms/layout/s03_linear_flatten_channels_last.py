import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.Linear on flatten(1) of a channels_last input."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(75, 10)

    def forward(self, x):
        return self.fc(x.flatten(1))


def get_inputs():
    return [torch.randn(4, 3, 5, 5).to(memory_format=torch.channels_last)]


def get_init_inputs():
    return []
