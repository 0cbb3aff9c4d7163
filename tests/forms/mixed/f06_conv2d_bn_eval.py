import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """Conv2d followed by BatchNorm2d in eval mode."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.conv = nn.Conv2d(4, 8, 3)
        self.bn = nn.BatchNorm2d(8)
        with torch.no_grad():
            self.bn.running_mean.copy_(torch.randn(8))
            self.bn.running_var.copy_(torch.rand(8) + 0.5)
            self.bn.weight.copy_(torch.randn(8))
            self.bn.bias.copy_(torch.randn(8))
        self.eval()

    def forward(self, x):
        return self.bn(self.conv(x))


def get_inputs():
    return [torch.randn(2, 4, 14, 14)]


def get_init_inputs():
    return []
