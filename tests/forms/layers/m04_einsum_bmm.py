import torch
import torch.nn as nn


class Model(nn.Module):
    """Batched matmul via torch.einsum('bij,bjk->bik')."""

    def forward(self, A, B):
        return torch.einsum('bij,bjk->bik', A, B)


def get_inputs():
    return [torch.randn(4, 32, 40), torch.randn(4, 40, 24)]


def get_init_inputs():
    return []
