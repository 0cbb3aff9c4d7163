# A ConvTranspose2d over an unbatched [C, H, W] input.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.ConvTranspose2d(3, 4, 3, stride=2)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(3, 7, 9)]


def get_init_inputs():
    return []
