import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, num_classes: int = 10):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(num_classes) + 0.5, requires_grad=False)

    def forward(self, logits, target):
        return F.cross_entropy(logits, target, weight=self.weight)


def get_inputs():
    return [torch.randn(128, 10), torch.randint(0, 10, (128,))]


def get_init_inputs():
    return [10]
