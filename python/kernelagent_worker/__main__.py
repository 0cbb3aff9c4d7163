"""Entry point: `python -m kernelagent_worker`.

The protocol owns the process's real stdin and stdout (channel.claim: every other write goes to stderr).
Then the device is chosen (which sets TRITON_INTERPRET before Triton is imported), the hello is written,
and requests are answered until shutdown or end of input. Exit codes: 0 normal, 3 after a sticky CUDA error.
"""

from __future__ import annotations

import os
import sys


def main() -> int:
    from .channel import claim
    requests, replies = claim()

    from . import device
    dev = device.select()          # before triton is imported

    import torch
    torch.set_grad_enabled(False)  # the reference, torch.compile and candidates all run without autograd

    from .protocol import Worker
    worker = Worker(dev, replies)
    worker.write(device.hello(dev))
    code = worker.serve(requests)
    replies.flush()
    sys.stderr.flush()
    if code != 0:
        os._exit(code)             # after a sticky CUDA error, skip teardown of the poisoned context
    return 0


if __name__ == "__main__":
    sys.exit(main())
