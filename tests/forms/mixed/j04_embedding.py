import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """nn.Embedding lookup with int64 indices."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(0)
        self.emb = nn.Embedding(50, 16)

    def forward(self, idx):
        return self.emb(idx)


def get_inputs():
    return [torch.randint(0, 50, (8, 12))]


def get_init_inputs():
    return []
