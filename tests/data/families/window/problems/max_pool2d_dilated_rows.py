import torch
import torch.nn as nn


class Model(nn.Module):
    """MaxPool2d whose windows overlap down the columns: dilated rows, a stride of 2 along the row."""

    def __init__(self):
        super().__init__()
        self.maxpool = nn.MaxPool2d(kernel_size=(3, 2), stride=(1, 2), padding=(1, 1), dilation=(2, 1))

    def forward(self, x):
        return self.maxpool(x)


def get_inputs():
    return [torch.randn(2, 3, 13, 19)]


def get_init_inputs():
    return []
