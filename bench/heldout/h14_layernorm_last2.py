import torch
import torch.nn as nn


class Model(nn.Module):
    """LayerNorm over the last two axes (128, 128) of a (48, 192, 128, 128) tensor, with weight and bias."""

    def __init__(self, normalized_shape: tuple):
        super().__init__()
        self.ln = nn.LayerNorm(normalized_shape=normalized_shape)

    def forward(self, x):
        return self.ln(x)


batch_size = 48
features = 192
dim1 = 128
dim2 = 128


def get_inputs():
    return [torch.randn(batch_size, features, dim1, dim2)]


def get_init_inputs():
    return [(dim1, dim2)]
