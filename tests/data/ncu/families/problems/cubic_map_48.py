import torch
import torch.nn as nn


class Model(nn.Module):
    """48 steps of x <- x (1.5 - 0.5 x^2) (Newton's step towards 1/sqrt(1)): four multiplies and adds a step,
    192 an element for one read and one write."""

    def __init__(self):
        super().__init__()

    def forward(self, x):
        for _ in range(48):
            x = x * (1.5 - 0.5 * x * x)
        return x


def get_inputs():
    return [torch.rand(4096, 65536)]


def get_init_inputs():
    return []
