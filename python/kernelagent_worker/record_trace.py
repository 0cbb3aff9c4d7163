"""Records a problem's trace as a test fixture: the `trace` reply of the worker (docs/protocol.md), written
as JSON, so the C++ families can be tested against real traces without Python.

Example: python -m kernelagent_worker.record_trace problems/relu.py traces/relu.json
With --meta the problem runs on PyTorch's meta device: shapes, strides and dtypes without values or
arithmetic, for problems too large to run on a CPU (a KernelBench convolution at its own shapes).
"""

from __future__ import annotations

import json
import sys

from . import device as device_mod


def record(problem_path: str, out_path: str, meta: bool = False) -> None:
    dev = "meta" if meta else device_mod.select()  # before anything imports triton
    from . import problem as problem_mod
    from . import trace as trace_mod

    p = problem_mod.load(problem_path, 0, dev)
    reply = {"status": "ok", **trace_mod.trace(p.model, p.inputs, p.init_fill)}
    with open(out_path, "w") as f:
        json.dump(reply, f, indent=1)
        f.write("\n")


def main(argv: list[str]) -> int:
    meta = "--meta" in argv
    argv = [a for a in argv if a != "--meta"]
    if len(argv) != 2:
        print("usage: python -m kernelagent_worker.record_trace [--meta] PROBLEM.py OUT.json", file=sys.stderr)
        return 2
    try:
        record(argv[0], argv[1], meta)
    except Exception as e:  # a WorkerError names the problem and what to fix
        print(f"record_trace: {getattr(e, 'status', type(e).__name__)}: {getattr(e, 'message', e)}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
