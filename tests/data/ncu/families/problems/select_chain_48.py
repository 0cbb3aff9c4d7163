import torch
import torch.nn as nn


class Model(nn.Module):
    """48 compare-and-select steps an element (take y's value where x passes a threshold): a comparison and a
    select a step, no arithmetic, for two reads and one write an element."""

    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        for i in range(48):
            x = torch.where(x > 0.5 + 0.01 * i, y, x)
        return x


def get_inputs():
    return [torch.randn(4096, 65536), torch.randn(4096, 65536)]


def get_init_inputs():
    return []
