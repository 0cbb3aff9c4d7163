import torch
import torch.nn as nn


class Model(nn.Module):
    """A convolution, BatchNorm in evaluation mode and a ReLU (a network's inference block): the BatchNorm's
    running statistics, weight and bias read once an output channel in the convolution's epilogue."""

    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 6, 3, padding=1)
        self.bn = nn.BatchNorm2d(6)
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.5, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.uniform_(0.5, 1.5)
            self.bn.bias.uniform_(-0.5, 0.5)
        self.bn.eval()

    def forward(self, x):
        return torch.relu(self.bn(self.conv(x)))


def get_inputs():
    return [torch.randn(2, 3, 9, 7)]


def get_init_inputs():
    return []
