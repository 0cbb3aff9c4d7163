import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Linear with out_features=1 then sigmoid (a matvec-shaped Linear)."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(64, 1)

    def forward(self, x):
        return torch.sigmoid(self.fc(x))


def get_inputs():
    return [torch.randn(50, 64)]


def get_init_inputs():
    return []
