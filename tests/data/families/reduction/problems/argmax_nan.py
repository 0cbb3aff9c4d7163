import torch
import torch.nn as nn


class Model(nn.Module):
    """argmax over the middle dimension of rows holding NaNs: torch answers the index of a column's first
    NaN (a NaN beats any number)."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return torch.argmax(x, dim=self.dim)


def get_inputs():
    x = torch.randn(4, 300, 33)
    x[1, 17, :] = float("nan")                          # every column of batch 1
    x[2, 200, 3] = float("nan")                         # two in one column: the first is the answer
    x[2, 5, 3] = float("nan")
    x[3, 299, 32] = float("nan")                        # the last row of the last column
    return [x]


def get_init_inputs():
    return [1]
