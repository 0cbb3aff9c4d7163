import torch
import torch.nn as nn


class Model(nn.Module):
    """ConvTranspose2d with stride 2, padding 1, output_padding 1 and bias."""

    def __init__(self, in_channels, out_channels, kernel_size):
        super().__init__()
        self.conv = nn.ConvTranspose2d(in_channels, out_channels, kernel_size, stride=2, padding=1,
                                       output_padding=1, bias=True)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, 4, 8, 8)]


def get_init_inputs():
    return [4, 4, 3]
