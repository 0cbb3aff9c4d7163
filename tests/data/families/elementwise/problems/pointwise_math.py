import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Shrinkages, hyperbolic and trigonometric functions, and the ternary and binary helpers: hardshrink,
    softshrink, tanhshrink, sinh, cosh, tan, addcmul, addcdiv, lerp, hypot, logaddexp, copysign."""

    def forward(self, x, y, z):
        return (F.hardshrink(x, 0.4), F.softshrink(x, 0.3), F.tanhshrink(x), torch.sinh(x), torch.cosh(x),
                torch.tan(x * 0.5), torch.addcmul(x, y, z, value=0.5), torch.addcdiv(x, y, z.abs() + 0.5, value=2.0),
                torch.lerp(x, y, 0.3), torch.lerp(x, y, z), torch.hypot(x, y), torch.logaddexp(x, y),
                torch.copysign(x, y))


def get_inputs():
    y = torch.randn(4, 45)
    y[0, :3] = -0.0  # copysign takes the sign of a negative zero
    return [torch.randn(4, 45), y, torch.randn(4, 45)]


def get_init_inputs():
    return []
