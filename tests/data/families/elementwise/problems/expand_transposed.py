import torch
import torch.nn as nn


class Model(nn.Module):
    """An operand read through expand and a transpose: B.t() is [20, 30] over a [30, 20] storage, and a
    column c of shape [20, 1] is expanded over the columns."""

    def forward(self, B, c):
        return B.t() * c.expand(20, 30) - 1.0


def get_inputs():
    return [torch.rand(30, 20), torch.rand(20, 1)]


def get_init_inputs():
    return []
