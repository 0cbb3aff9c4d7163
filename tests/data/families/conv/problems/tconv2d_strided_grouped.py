import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.ConvTranspose2d(8, 12, (3, 5), stride=(2, 3), padding=(1, 2), output_padding=(1, 0), dilation=(2, 1), groups=4, bias=True)

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.rand(2, 8, 5, 6)]


def get_init_inputs():
    return []
