import torch
import torch.nn as nn


class Model(nn.Module):
    """BatchNorm2d in training mode with rows long enough to be shared by co-resident programs (the coop
    variant): only one program of a row may update its running statistics."""

    def __init__(self, num_features: int):
        super().__init__()
        self.bn = nn.BatchNorm2d(num_features=num_features)

    def forward(self, x):
        return self.bn(x)


def get_inputs():
    return [torch.rand(2, 4, 16, 16)]


def get_init_inputs():
    return [4]
