import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer('pw', torch.rand(24) * 2 + 0.5)

    def forward(self, x, y):
        return F.binary_cross_entropy_with_logits(x, y, pos_weight=self.pw, reduction='mean')


def get_inputs():
    return [torch.randn(4, 16, 24), torch.randint(0, 2, (4, 16, 24)).float()]


def get_init_inputs():
    return []
