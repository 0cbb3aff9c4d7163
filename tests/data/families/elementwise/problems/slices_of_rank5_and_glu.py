import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Rank 5 at odd sizes: GLU over dimension 2 of one input, times a stepped slice of one chunk of another,
    plus the SiLU of a slice of its other chunk (`a[...]` is an alias of the slice)."""

    def forward(self, x, y):
        a, b = y.chunk(2, dim=0)
        return F.glu(x, dim=2) * a[..., ::2][..., :3] + F.silu(b[..., 1::2][..., :3])


def get_inputs():
    return [torch.randn(3, 5, 14, 7, 3), torch.randn(6, 5, 7, 7, 6)]


def get_init_inputs():
    return []
