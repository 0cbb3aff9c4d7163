"""Raises in forward."""
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        raise ValueError("candidate bug: index out of range")
