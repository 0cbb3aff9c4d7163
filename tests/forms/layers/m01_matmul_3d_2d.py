import torch
import torch.nn as nn


class Model(nn.Module):
    """torch.matmul of a 3-D tensor by a 2-D matrix."""

    def forward(self, A, B):
        return torch.matmul(A, B)


def get_inputs():
    return [torch.randn(4, 32, 48), torch.randn(48, 40)]


def get_init_inputs():
    return []
