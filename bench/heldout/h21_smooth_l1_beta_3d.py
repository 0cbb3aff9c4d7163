import torch
import torch.nn as nn


class Model(nn.Module):
    """Smooth-L1 loss with beta=0.5 (mean) over 3-D tensors (64, 2048, 1024)."""

    def __init__(self, beta: float = 0.5):
        super().__init__()
        self.beta = beta

    def forward(self, predictions, targets):
        return torch.nn.functional.smooth_l1_loss(predictions, targets, beta=self.beta)


batch_size = 64
dim1 = 2048
dim2 = 1024


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2), torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return [0.5]
