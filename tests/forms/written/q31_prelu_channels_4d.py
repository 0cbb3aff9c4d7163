import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.act = nn.PReLU(num_parameters=8, init=0.1)

    def forward(self, x):
        return self.act(x)


def get_inputs():
    return [torch.randn(2, 8, 10, 10)]


def get_init_inputs():
    return []
