import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv_transpose3d = nn.ConvTranspose3d(8, 8, 3, stride=2, padding=1, output_padding=1, groups=4, bias=False)

    def forward(self, x):
        return self.conv_transpose3d(x)


def get_inputs():
    return [torch.rand(1, 8, 3, 4, 5)]


def get_init_inputs():
    return []
