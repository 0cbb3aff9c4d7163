import torch
import torch.nn as nn


class Model(nn.Module):
    """Cross-entropy of logits against integer class targets (KernelBench 95 at a small shape)."""

    def forward(self, predictions, targets):
        return torch.nn.functional.cross_entropy(predictions, targets)


def get_inputs():
    return [torch.rand(32, 100), torch.randint(0, 100, (32,))]


def get_init_inputs():
    return []
