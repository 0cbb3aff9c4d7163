import torch
import torch.nn as nn


class Model(nn.Module):
    """x * weight + bias with a learned per-column weight and a buffer: exercises parameter copying,
    constants in the trace and the flop counter (a Linear) ."""

    def __init__(self, features: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(features))
        self.register_buffer("bias", torch.tensor(0.5))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.weight + self.bias


def get_inputs():
    return [torch.randn(8, 32)]


def get_init_inputs():
    return [32]
