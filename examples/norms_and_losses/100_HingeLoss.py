import torch
import torch.nn as nn


class Model(nn.Module):
    """Hinge loss; the targets broadcast along the last axis."""

    def forward(self, predictions, targets):
        return torch.mean(torch.clamp(1 - predictions * targets, min=0))


batch_size = 32768
input_shape = (32768,)


def get_inputs():
    return [torch.rand(batch_size, *input_shape), torch.randint(0, 2, (batch_size,)).float() * 2 - 1]


def get_init_inputs():
    return []
