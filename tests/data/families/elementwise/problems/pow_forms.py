import torch
import torch.nn as nn


class Model(nn.Module):
    """Powers without an exact cheap form: fractional and large odd exponents of a signed base, a tensor
    exponent, a constant base."""

    def forward(self, x, y):
        return (torch.nan_to_num(x ** 1.5, nan=-7.0) + (x.abs() + 0.5) ** -2.5 + x ** 9 * 1e-3
                + torch.nan_to_num(x ** y, nan=3.0) + 2.0 ** y)


def get_inputs():
    x = torch.randn(19, 41)
    y = torch.randint(-3, 4, (19, 41)).float() + (torch.rand(19, 41) < 0.5).float() * 0.5
    return [x, y]


def get_init_inputs():
    return []
