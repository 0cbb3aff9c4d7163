import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.Linear over channels of an NCHW input permuted to NHWC, permuted back."""

    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(8, 6)

    def forward(self, x):
        return self.fc(x.permute(0, 2, 3, 1)).permute(0, 3, 1, 2)


def get_inputs():
    return [torch.randn(2, 8, 5, 5)]


def get_init_inputs():
    return []
