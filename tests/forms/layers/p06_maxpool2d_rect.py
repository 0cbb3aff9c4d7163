import torch
import torch.nn as nn


class Model(nn.Module):
    """MaxPool2d with a (2, 3) window and (1, 2) stride."""

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(kernel_size=(2, 3), stride=(1, 2))

    def forward(self, x):
        return self.pool(x)


def get_inputs():
    return [torch.randn(2, 4, 16, 17)]


def get_init_inputs():
    return []
