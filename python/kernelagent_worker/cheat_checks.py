"""The checks of one candidate forward that catch a faked result, beside the comparison of values.

check.py runs them in this order for each seed (docs/check.md has the whole list with examples):

  ForwardGuard         around the forward: what it changed in the process (integrity.py: cheat_tampering)
                       or left on the GPU (gpu_state.py: cheat_gpu_state); both are put back
  in_stream_order      a copy of the outputs taken on the current stream right after the forward returns,
                       before the device is synchronised: compared with the reference like the outputs, so
                       work still in flight on another stream (a lazy result) shows (cheat_work_in_flight;
                       GPU only, the CPU has no streams)
  written_inputs       which inputs the forward wrote to: the candidate ran on its own copy, so before the
                       reference runs that copy must still equal the reference's (cheat_writes_input, unless
                       the reference writes the same values into its own input: an in-place operation)
  Seal                 the outputs' digests when the forward returned, checked again after the reference has
                       run: an output filled in later (a hook on the reference, a thread, a patched function)
                       is cheat_reads_reference. The candidate always runs first, on fresh inputs of a fresh
                       seed, so the reference's output for them does not exist while it runs; the
                       reference's outputs of earlier seeds are dropped before the next seed
  cached_from          when an output is wrong, whether its values are those of an earlier call's output (the
                       first call at compile, or an earlier seed): cheat_cached_output

Example: a ModelNew that returns the output of its first call on every call -> cheat_cached_output, "output
0 holds the values the candidate returned on its first call".
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from . import gpu_state, integrity
from .fingerprints import digest, same_sample, same_values, sample


@dataclass
class GuardVerdict:
    status: str | None = None   # cheat_tampering, cheat_gpu_state or None
    message: str = ""
    restart: bool = False       # what changed cannot be put back in this process (a thread, a weight)

    @property
    def aftermath(self) -> str:
        return ("the worker ends after this reply: that cannot be put back in its process" if self.restart
                else "put back")


class ForwardGuard:
    """Snapshot before a candidate's code runs; `end()` compares, puts back, and says what changed."""

    def __init__(self, problem, dev: str, rng: bool = True, timing: bool = False):
        self.dev = dev
        self.gpu_before = gpu_state.read(dev)   # first: reading it the first time loads the driver library
        self.snapshot = integrity.Snapshot.take(problem, rng=rng, timing=timing)

    def end(self) -> GuardVerdict:
        changes = self.snapshot.changes()
        gpu_after = gpu_state.read(self.dev)
        left = gpu_state.describe(self.gpu_before, gpu_after)
        if left:
            gpu_state.reset(self.dev, self.gpu_before)
        if changes:
            integrity.restore(changes)
            return GuardVerdict("cheat_tampering", integrity.describe(changes), any(not c.undoable for c in changes))
        if left:
            return GuardVerdict("cheat_gpu_state", left)
        return GuardVerdict()


def blame_timing(results: dict, candidates: list[str], verdict: GuardVerdict) -> None:
    """After a `time` request: what changed while it ran is put on its candidates (the baselines are PyTorch's
    own code). With one candidate per request, as `kernelagent check` times it, the blame is exact."""
    if not verdict.status:
        return
    for name in candidates:
        results[name] = {"status": verdict.status,
                         "message": f"while {', '.join(candidates)} {'was' if len(candidates) == 1 else 'were'} "
                                    f"timed, the process was changed: {verdict.message} ({verdict.aftermath})"}


def in_stream_order(outs: list | None, dev: str) -> list | None:
    """Copies of the outputs made on the current stream, or None on the CPU, and where they would take more
    than half the free device memory (the check must not run the kernel out of memory: then it is not made)."""
    if dev != "cuda" or not outs or any(not o.is_cuda for o in outs):
        return None
    free, _ = torch.cuda.mem_get_info()
    if sum(o.numel() * o.element_size() for o in outs) > free // 2:
        return None
    return [o.detach().clone() for o in outs]


def written_inputs(mine: list, pristine: list) -> list[int]:
    """Indices of the tensor inputs whose candidate copy no longer equals the untouched original."""
    return [i for i, (m, p) in enumerate(zip(mine, pristine))
            if isinstance(m, torch.Tensor) and isinstance(p, torch.Tensor) and not same_values(m, p)]


def input_verdict(written: list[int], mine: list, reference_inputs: list) -> tuple[str, str] | None:
    """After the reference ran: (status, message) when the candidate's inputs differ from the reference's."""
    for i, (m, r) in enumerate(zip(mine, reference_inputs)):
        if not (isinstance(m, torch.Tensor) and isinstance(r, torch.Tensor)) or same_values(m, r):
            continue
        if i in written:
            return "cheat_writes_input", (f"the forward wrote into input {i}, which the reference leaves as it "
                                          "is; a kernel must not change its inputs")
        return "wrong_state", f"the reference writes into input {i} in place; the candidate does not"
    return None


class Seal:
    """The outputs' digests at one moment."""

    def __init__(self, outs: list):
        self.digests = [digest(o) for o in outs]

    def broken(self, outs: list) -> int | None:
        """The first output whose values changed since the seal, or None."""
        for i, (o, d) in enumerate(zip(outs, self.digests)):
            if digest(o) != d:
                return i
        return None


def samples_of(outs: list, label: str) -> dict:
    """What to remember of one call's outputs to recognise them later."""
    return {"label": label, "samples": [sample(o) for o in outs]}


def cached_from(index: int, out: torch.Tensor, earlier: list[dict]) -> str | None:
    """The label of the earlier call whose output `index` held the same values, or None."""
    now = sample(out)
    for call in reversed(earlier):
        got = call["samples"]
        if index < len(got) and same_sample(now, got[index]):
            return call["label"]
    return None
