"""Entry point: `python -m kernelagent_worker`.

The protocol owns the process's real stdin and stdout. Before anything else runs, file descriptor 1 is
pointed at stderr (so a problem's or a candidate's print, a library's C-level write or a kernel's printf
cannot corrupt the reply channel) and descriptor 0 at /dev/null (so nothing else can consume requests).
Then the device is chosen (which sets TRITON_INTERPRET before Triton is imported), the hello is written,
and requests are answered until shutdown or end of input. Exit codes: 0 normal, 3 after a sticky CUDA error.
"""

from __future__ import annotations

import os
import sys


def _claim_channel():
    """(requests in, replies out) on private copies of fds 0 and 1; fd 1 then goes to stderr, fd 0 to null."""
    sys.stdout.flush()
    out_fd, in_fd = os.dup(1), os.dup(0)
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    sys.stdout = sys.stderr
    sys.stdin = open(os.devnull, "r")
    replies = os.fdopen(out_fd, "w", encoding="utf-8")
    requests = os.fdopen(in_fd, "r", encoding="utf-8")
    return requests, replies


def main() -> int:
    requests, replies = _claim_channel()

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
