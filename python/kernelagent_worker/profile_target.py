"""The process Nsight Compute profiles: one problem, one candidate kernel file, one marked call.

    python -m kernelagent_worker.profile_target PROBLEM.py KERNEL.py [--warmup N]

Loads the problem, builds the candidate's ModelNew (as `compile` does), runs it N times so Triton's JIT and
the caches are warm, then runs it once more inside the NVTX range "kernelagent_profile". The engine runs
this under `ncu --nvtx --nvtx-include kernelagent_profile/`, so exactly that call's kernels are profiled.
Exit status: 0 profiled; 2 the problem could not be loaded; 3 the candidate failed. The reason goes to
stderr as one line starting with "kernelagent_profile:".
"""

from __future__ import annotations

import argparse
import sys

from . import device as device_mod

RANGE = "kernelagent_profile"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="kernelagent_worker.profile_target")
    parser.add_argument("problem")
    parser.add_argument("kernel")
    parser.add_argument("--warmup", type=int, default=3)
    args = parser.parse_args(argv)

    dev = device_mod.select()          # before triton is imported
    import torch                       # noqa: E402  (after the device choice, like the worker)

    from . import candidate as candidate_mod
    from . import problem as problem_mod
    from .errors import WorkerError

    try:
        problem = problem_mod.load(args.problem, 0, dev)
    except WorkerError as e:
        print(f"kernelagent_profile: {e}", file=sys.stderr)
        return 2
    try:
        cand, _ = candidate_mod.build("profiled", args.kernel, problem)
        inputs = problem_mod.clone_inputs(problem.inputs)
        with torch.no_grad():
            for _ in range(max(0, args.warmup)):
                cand.model(*inputs)
            device_mod.synchronize(dev)
            if dev == "cuda":
                torch.cuda.nvtx.range_push(RANGE)
            cand.model(*inputs)
            device_mod.synchronize(dev)
            if dev == "cuda":
                torch.cuda.nvtx.range_pop()
    except WorkerError as e:
        print(f"kernelagent_profile: {e}", file=sys.stderr)
        return 3
    except Exception as e:  # a candidate's own exception: reported, not a traceback
        print(f"kernelagent_profile: candidate failed: {type(e).__name__}: {e}", file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
