"""Works on its first call (compile), raises an ordinary error on every later call."""
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        if self.calls > 1:
            raise ValueError("candidate bug on a later call")
        return torch.empty_like(x)
