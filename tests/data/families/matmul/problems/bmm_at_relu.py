# A 3-D product written with `@` (traced as bmm then a view of its result) with a ReLU after it.
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, a, b):
        return torch.relu(a @ b)


def get_inputs():
    return [torch.randn(2, 13, 17), torch.randn(2, 17, 11)]


def get_init_inputs():
    return []
