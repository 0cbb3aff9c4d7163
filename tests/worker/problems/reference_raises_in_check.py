"""A problem whose reference loads and traces but raises when the check calls it (on fresh inputs): a
failure of the problem, which must not be blamed on the candidate being checked."""
import sys

import torch
import torch.nn as nn


def _called_by_the_check() -> bool:
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_filename.replace("\\", "/").endswith("kernelagent_worker/check.py"):
            return True
        frame = frame.f_back
    return False


class Model(nn.Module):
    def forward(self, x):
        if _called_by_the_check():
            raise ValueError("the reference fails on the check's inputs")
        return torch.relu(x)


def get_inputs():
    return [torch.randn(16, 256)]


def get_init_inputs():
    return []
