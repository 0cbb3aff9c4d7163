# A Conv2d over an unbatched [C, H, W] input (traced as a batch of one, then squeezed), a ReLU and a scale after.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 5, 3, padding=1)

    def forward(self, x):
        return torch.relu(self.conv(x)) * 2.0


def get_inputs():
    return [torch.randn(3, 12, 10)]


def get_init_inputs():
    return []
