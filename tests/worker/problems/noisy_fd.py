import os

import torch
import torch.nn as nn


class Model(nn.Module):
    """Writes straight to file descriptor 1, below Python's sys.stdout."""

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        os.write(1, b"raw bytes on fd 1 {not json\n")
        return x + 1


def get_inputs():
    return [torch.randn(4)]


def get_init_inputs():
    return []
