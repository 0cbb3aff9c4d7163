import torch
import torch.nn as nn


class Model(nn.Module):
    """A linear layer without bias applied to one row: x (1, 8192) @ W.T with W (24576, 8192) -> (1, 24576)."""

    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.fc = nn.Linear(in_features, out_features, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc(x)


in_features = 8192
out_features = 24576


def get_inputs():
    return [torch.rand(1, in_features)]


def get_init_inputs():
    return [in_features, out_features]
