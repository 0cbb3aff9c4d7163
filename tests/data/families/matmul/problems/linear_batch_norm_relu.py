import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.Linear, BatchNorm1d in evaluation mode and a ReLU: the BatchNorm's running statistics, weight and
    bias broadcast along the product's columns in its epilogue."""

    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(24, 20)
        self.bn = nn.BatchNorm1d(20)
        with torch.no_grad():
            self.bn.running_mean.uniform_(-0.5, 0.5)
            self.bn.running_var.uniform_(0.5, 2.0)
            self.bn.weight.uniform_(0.5, 1.5)
            self.bn.bias.uniform_(-0.5, 0.5)
        self.bn.eval()

    def forward(self, x):
        return torch.relu(self.bn(self.linear(x)))


def get_inputs():
    return [torch.randn(10, 24)]


def get_init_inputs():
    return []
