"""Cheat: hides PyTorch compute inside torch.compile (Inductor writes a Triton kernel for it)."""
import torch
import torch.nn as nn


@torch.compile
def relu(x):
    return torch.relu(x)


class ModelNew(nn.Module):
    def forward(self, x):
        return relu(x)
