"""Importing, building and first-calling a candidate's `ModelNew`.

The candidate file is imported from its path under a unique module name (Triton reads a kernel's source
from its file, so the file must be real). `ModelNew(*init_inputs)` is built under the load seed, the
reference's parameters and buffers are copied into it where names and shapes match, and it is called once
on a copy of the load inputs so that Triton compiles its kernels. All of that runs under a ForwardGuard
(cheat_checks.py): an import that replaces a function the check or the timer calls, or sets a flag, is
`cheat_tampering`. A failure's `phase` says which step failed: import, definition (no ModelNew), construct
(ModelNew(*init_inputs)) or first_call.

Example: build("c7", "/tmp/c7.py", problem) -> (Candidate, compile_ms) or WorkerError("compile_error", ...).
"""

from __future__ import annotations

import os
import re
import time
from dataclasses import dataclass, field
from typing import Any

import torch

from . import cheat_checks
from . import device as device_mod
from .errors import WorkerError, classify, describe, is_triton_compile_error
from .problem import Problem, as_tensor_list, clone_inputs, import_file


@dataclass
class Candidate:
    name: str
    path: str
    module: Any
    model: torch.nn.Module
    # What its calls returned (cheat_checks.samples_of), from the first call on: a later call that returns
    # one of them again is a cached output.
    samples: list = field(default_factory=list)


def copy_matching_state(src: torch.nn.Module, dst: torch.nn.Module) -> list[str]:
    """Copy src's parameters and buffers into dst where the names and shapes match; returns the names copied."""
    dst_state = dst.state_dict()
    matched = {k: v for k, v in src.state_dict().items() if k in dst_state and dst_state[k].shape == v.shape}
    dst.load_state_dict(matched, strict=False)
    return sorted(matched)


def _first_call_error(name: str, exc: BaseException) -> WorkerError:
    found = classify(exc)
    if found:
        status, sticky = found
        err = WorkerError(status, f"candidate {name}: first call: {describe(exc)}", phase="first_call")
        if sticky:
            err.extra["sticky"] = True
        return err
    if is_triton_compile_error(exc):
        return WorkerError("compile_error", f"candidate {name}: Triton compilation failed: {describe(exc)}",
                           phase="first_call")
    return WorkerError("runtime_error", f"candidate {name}: first call raised {describe(exc)}", phase="first_call")


def build(name: str, path: str, problem: Problem) -> tuple[Candidate, float]:
    """The candidate, built and called once, or WorkerError; what its code changed in the process is put back
    and is the error cheat_tampering (or cheat_gpu_state), before any failure of its own."""
    guard = cheat_checks.ForwardGuard(problem, problem.device, rng=False)
    try:
        built = _build(name, path, problem)
    except WorkerError as e:
        verdict = guard.end() if not e.extra.get("sticky") else cheat_checks.GuardVerdict()
        if verdict.status:
            raise _guard_error(name, verdict) from e
        raise
    verdict = guard.end()
    if verdict.status:
        raise _guard_error(name, verdict)
    return built


def _guard_error(name: str, verdict: cheat_checks.GuardVerdict) -> WorkerError:
    return WorkerError(verdict.status, f"candidate {name}: its import, ModelNew(*init_inputs) or first call changed "
                                       f"what the check and the timer rely on: {verdict.message} ({verdict.aftermath})",
                       **({"sticky": True} if verdict.restart else {}))


def _build(name: str, path: str, problem: Problem) -> tuple[Candidate, float]:
    if not isinstance(path, str) or not os.path.isfile(path):
        raise WorkerError("compile_error", f"candidate {name}: file {path} does not exist", phase="import")
    t0 = time.perf_counter()
    prefix = "kernelagent_candidate_" + re.sub(r"\W", "_", str(name))
    try:
        module = import_file(path, prefix)
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        found = classify(e)
        if found and found[1]:
            raise WorkerError("cuda_error", f"candidate {name}: import: {describe(e)}", sticky=True, phase="import") from e
        raise WorkerError("compile_error", f"candidate {name}: import of {path} failed: {describe(e)}",
                          phase="import") from e
    model_cls = getattr(module, "ModelNew", None)
    if not (isinstance(model_cls, type) and issubclass(model_cls, torch.nn.Module)):
        raise WorkerError("compile_error", f"candidate {name}: {path} defines no ModelNew (a torch.nn.Module subclass)",
                          phase="definition")
    try:
        torch.manual_seed(problem.seed)
        with torch.device(problem.device):
            model = model_cls(*problem.init_inputs)
        model = model.to(problem.device)
        copy_matching_state(problem.model, model)
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        found = classify(e)
        if found:
            raise WorkerError(found[0], f"candidate {name}: ModelNew(*init_inputs): {describe(e)}", phase="construct",
                              **({"sticky": True} if found[1] else {})) from e
        raise WorkerError("compile_error", f"candidate {name}: ModelNew(*init_inputs) raised {describe(e)}",
                          phase="construct") from e
    try:
        torch.manual_seed(problem.seed)
        first = as_tensor_list(model(*clone_inputs(problem.inputs))) or []
        device_mod.synchronize(problem.device)
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        raise _first_call_error(name, e) from e
    compile_ms = (time.perf_counter() - t0) * 1000.0
    return Candidate(name=name, path=path, module=module, model=model,
                     samples=[cheat_checks.samples_of(first, "its first call (at compile)")]), compile_ms
