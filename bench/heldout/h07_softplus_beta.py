import torch
import torch.nn as nn


class Model(nn.Module):
    """Softplus with beta=2 and threshold=10 on a 2-D tensor (8192, 20000)."""

    def __init__(self, beta: float = 2.0, threshold: float = 10.0):
        super().__init__()
        self.beta = beta
        self.threshold = threshold

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.softplus(x, beta=self.beta, threshold=self.threshold)


batch_size = 8192
dim = 20000


def get_inputs():
    x = torch.randn(batch_size, dim) * 4
    return [x]


def get_init_inputs():
    return [2.0, 10.0]
