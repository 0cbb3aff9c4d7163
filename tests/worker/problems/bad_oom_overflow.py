import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x


def get_inputs():
    return [torch.empty(2**62)]  # more bytes than a 64-bit size can count


def get_init_inputs():
    return []
