import torch
import torch.nn as nn


class Model(nn.Module):
    """A batched product of bfloat16 matrices: on a GPU the matmul family's; on Triton's interpreter refused,
    whose tl.dot reads bfloat16 operands as integers."""

    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        return torch.bmm(a, b)


def get_inputs():
    return [torch.randn(2, 32, 48).bfloat16(), torch.randn(2, 48, 16).bfloat16()]


def get_init_inputs():
    return []
