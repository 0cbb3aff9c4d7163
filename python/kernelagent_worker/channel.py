"""The protocol's channel: the process's real stdin and stdout, kept away from everything else.

Before anything else runs, file descriptor 1 is pointed at stderr (so a problem's or a candidate's print, a
library's C-level write or a kernel's printf cannot corrupt the reply channel) and descriptor 0 at
/dev/null (so nothing else can consume requests). Used by the worker and by the Ray proxy alike.
"""

from __future__ import annotations

import os
import sys
from typing import TextIO


def claim() -> tuple[TextIO, TextIO]:
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
