"""What a candidate must leave as it found it: the process state a check or a timing relies on.

A candidate runs in the worker's own process, so it could change what judges it: replace a function the
check or the timer calls (torch.allclose, torch.cuda.Event.elapsed_time, time.perf_counter, the worker's own
compare), turn on TF32 or switch off determinism, reseed the random generators, hook or reweight the
reference model, or leave a thread behind that writes later. A `Snapshot` records all of that before the
candidate's code runs (its import, its constructor, each forward, each timing); `changes()` after it names
what differs, and `restore()` puts every changed thing back, so the worker stays honest for whatever runs
next. A change is the status `cheat_tampering`; the message names each change.

What is watched:
  functions   every callable in the modules and classes a check or a timing calls (time, builtins, numpy,
              torch, torch.cuda, torch.cuda.Event, torch.Tensor, torch.nn.functional, torch.testing, the
              random modules), and every name in the worker's own modules and classes, data included
              (check.ALLOCATION_OPS decides what is a cheat); names a candidate adds count too, except
              submodules that an import adds
  flags       torch.backends' precision and determinism switches, float32_matmul_precision, grad mode, the
              default dtype
  rng         torch's CPU and CUDA generators, Python's `random`, numpy's global generator (forwards only:
              a constructor may draw its initial weights)
  threads     a thread the candidate started that is still running when its code returns
  modes       torch function and dispatch modes left on their stacks (a mode left active would see, and
              could answer, every torch call the comparison makes)
  reference   the problem's module, the Problem record, every submodule of the reference model (its
              attributes, hooks, parameters and buffers by identity, and the parameters' values), and the
              global module hooks

A timing is watched more narrowly (`timing=True`): only what the harness calls (time, numpy, torch.cuda and
its events and graphs, the worker's modules) and the flags, since the first torch.compile of the reference,
timed in the same request, legitimately replaces torch.manual_seed and nn.Module.__init__ and leaves a pool of
compile threads behind. Importing torch._dynamo replaces torch.manual_seed too: `Snapshot.take` imports it
first, so that a candidate whose forward is the first to import it is not blamed for it.

Example: a ModelNew whose import runs `torch.cuda.Event.elapsed_time = lambda s, e: 0.001` ->
cheat_tampering, "torch.cuda.Event.elapsed_time was replaced".
"""

from __future__ import annotations

import random
import sys
import threading
import types
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np
import torch

from .fingerprints import digest

WORKER_PACKAGE = __name__.rpartition(".")[0]
_MISSING = object()


def _third_party_namespaces() -> list[tuple[str, Any]]:
    """(label, namespace) of the libraries a check and a timing call into; only their callables are watched
    (their data, such as torch.cuda._initialized, changes on its own)."""
    import builtins
    import time

    spaces = [("time", time), ("builtins", builtins), ("random", random), ("numpy", np), ("numpy.random", np.random),
              ("torch", torch), ("torch.Tensor", torch.Tensor), ("torch.nn.Module", torch.nn.Module),
              ("torch.nn.functional", torch.nn.functional), ("torch.testing", torch.testing),
              ("torch.random", torch.random), ("torch.cuda", torch.cuda), ("torch.cuda.Event", torch.cuda.Event),
              ("torch.cuda.Stream", torch.cuda.Stream), ("torch.cuda.graphs", torch.cuda.graphs),
              ("torch.cuda.random", torch.cuda.random)]
    accel = getattr(torch, "accelerator", None)
    if accel is not None:
        spaces.append(("torch.accelerator", accel))
    return spaces


def _timing_namespaces() -> list[tuple[str, Any]]:
    """What the timing harness (timing.py) calls between its clocks."""
    import time

    return [("time", time), ("numpy", np), ("torch.cuda", torch.cuda), ("torch.cuda.Event", torch.cuda.Event),
            ("torch.cuda.graphs", torch.cuda.graphs)]


def _import_lazy_patchers() -> None:
    """Imports what replaces torch functions when it is first imported (torch._dynamo wraps torch.manual_seed),
    so that it happens before a snapshot rather than inside a candidate's forward."""
    import torch._dynamo  # noqa: F401


def _worker_namespaces() -> list[tuple[str, Any]]:
    """The worker's own modules and the classes they define: every name in them is watched."""
    spaces = []
    for name, mod in list(sys.modules.items()):
        if mod is None or not (name == WORKER_PACKAGE or name.startswith(WORKER_PACKAGE + ".")):
            continue
        spaces.append((name, mod))
        for attr, value in list(vars(mod).items()):
            if isinstance(value, type) and value.__module__ == name:
                spaces.append((f"{name}.{attr}", value))
    return spaces


def _reference_namespaces(problem) -> list[tuple[str, Any]]:
    if problem is None:
        return []
    spaces = [("the problem's module", problem.module), ("the Problem record", problem)]
    for sub, m in problem.model.named_modules():
        label = f"the reference model{'.' + sub if sub else ''}"
        spaces.append((label, m))
        spaces.append((f"{label}'s class", type(m)))
    return spaces


def _containers(problem) -> list[tuple[str, dict]]:
    """Dicts that are changed in place rather than rebound: hooks, parameters, buffers and submodules."""
    import torch.nn.modules.module as module_mod

    out = [(f"torch.nn.modules.module.{k}", v) for k, v in vars(module_mod).items()
           if k.startswith("_global_") and isinstance(v, dict)]
    if problem is not None:
        for sub, m in problem.model.named_modules():
            label = f"the reference model{'.' + sub if sub else ''}"
            for k, v in vars(m).items():
                if isinstance(v, dict) and ("hooks" in k or k in ("_parameters", "_buffers", "_modules")):
                    out.append((f"{label}.{k}", v))
    return out


def _flag_accessors() -> dict[str, tuple[Callable[[], Any], Callable[[Any], None]]]:
    """name -> (read, write) of every switch that changes how PyTorch computes or what it allows."""
    def attr(obj, name):
        return (lambda: getattr(obj, name), lambda v: setattr(obj, name, v))

    b = torch.backends
    flags = {
        "torch.backends.cuda.matmul.allow_tf32": attr(b.cuda.matmul, "allow_tf32"),
        "torch.backends.cuda.matmul.allow_fp16_reduced_precision_reduction":
            attr(b.cuda.matmul, "allow_fp16_reduced_precision_reduction"),
        "torch.backends.cuda.matmul.allow_bf16_reduced_precision_reduction":
            attr(b.cuda.matmul, "allow_bf16_reduced_precision_reduction"),
        "torch.backends.cudnn.allow_tf32": attr(b.cudnn, "allow_tf32"),
        "torch.backends.cudnn.deterministic": attr(b.cudnn, "deterministic"),
        "torch.backends.cudnn.benchmark": attr(b.cudnn, "benchmark"),
        "torch.backends.cudnn.enabled": attr(b.cudnn, "enabled"),
        "torch.float32_matmul_precision": (torch.get_float32_matmul_precision, torch.set_float32_matmul_precision),
        "torch.deterministic_algorithms": (
            lambda: (torch.are_deterministic_algorithms_enabled(),
                     torch.is_deterministic_algorithms_warn_only_enabled()),
            lambda v: torch.use_deterministic_algorithms(v[0], warn_only=v[1])),
        "torch.grad_enabled": (torch.is_grad_enabled, torch.set_grad_enabled),
        "torch.default_dtype": (torch.get_default_dtype, torch.set_default_dtype),
    }
    # The fp32_precision switches of newer PyTorch, where they exist.
    for label, obj in (("torch.backends", b), ("torch.backends.cuda.matmul", b.cuda.matmul),
                       ("torch.backends.cudnn", b.cudnn), ("torch.backends.cudnn.conv", getattr(b.cudnn, "conv", None)),
                       ("torch.backends.cudnn.rnn", getattr(b.cudnn, "rnn", None))):
        if obj is not None and hasattr(obj, "fp32_precision"):
            flags[f"{label}.fp32_precision"] = attr(obj, "fp32_precision")
    return flags


def _read_flags(accessors) -> dict:
    out = {}
    for name, (read, _) in accessors.items():
        try:
            out[name] = read()
        except Exception:  # a switch this build cannot read is not watched
            pass
    return out


def _rng_states() -> dict:
    states = {"torch CPU generator": torch.get_rng_state(), "Python random": random.getstate(),
              "numpy random": np.random.get_state()}
    if torch.cuda.is_available() and torch.cuda.is_initialized():
        states["torch CUDA generators"] = torch.cuda.get_rng_state_all()
    return states


def _same_rng(a: Any, b: Any) -> bool:
    if isinstance(a, torch.Tensor):
        return isinstance(b, torch.Tensor) and torch.equal(a, b)
    if isinstance(a, (list, tuple)):
        return isinstance(b, (list, tuple)) and len(a) == len(b) and all(_same_rng(x, y) for x, y in zip(a, b))
    if isinstance(a, np.ndarray):
        return isinstance(b, np.ndarray) and np.array_equal(a, b)
    return a == b


def _set_rng(name: str, state: Any) -> None:
    if name == "torch CPU generator":
        torch.set_rng_state(state)
    elif name == "torch CUDA generators":
        torch.cuda.set_rng_state_all(state)
    elif name == "Python random":
        random.setstate(state)
    else:
        np.random.set_state(state)


def _mode_depths() -> tuple[int, int]:
    return torch._C._len_torch_function_stack(), torch._C._len_torch_dispatch_stack()


def _pop_modes(function_depth: int, dispatch_depth: int) -> None:
    while torch._C._len_torch_function_stack() > function_depth:
        torch._C._pop_torch_function_stack()
    while torch._C._len_torch_dispatch_stack() > dispatch_depth:
        torch._C._pop_torch_dispatch_stack()


def _parameter_digests(problem) -> dict:
    if problem is None:
        return {}
    return {name: digest(p) for name, p in problem.model.named_parameters()}


@dataclass
class Change:
    what: str                       # "torch.cuda.Event.elapsed_time was replaced"
    undo: Callable[[], None] = field(repr=False)
    undoable: bool = True           # False: only a new process is as before (a running thread, a weight)


@dataclass
class Snapshot:
    """The watched state at one moment. `rng=False` leaves the random generators out (a constructor draws
    its initial weights from them)."""
    problem: Any = None
    rng: bool = True
    namespaces: list = field(default_factory=list)     # (label, owner, dict copy, watch all names?)
    containers: list = field(default_factory=list)     # (label, dict, dict copy)
    flags: dict = field(default_factory=dict)
    rng_states: dict = field(default_factory=dict)
    threads: set = field(default_factory=set)
    parameters: dict = field(default_factory=dict)
    modes: tuple = (0, 0)                              # depths of the torch function and dispatch mode stacks
    watch_threads: bool = True

    @classmethod
    def take(cls, problem=None, rng: bool = True, timing: bool = False) -> "Snapshot":
        """`timing`: only what the timing harness calls, and the flags (see the module's note)."""
        _import_lazy_patchers()
        if timing:
            s = cls(problem=None, rng=False, watch_threads=False)
            third_party, own = _timing_namespaces(), _worker_namespaces()
        else:
            s = cls(problem=problem, rng=rng)
            third_party, own = _third_party_namespaces(), _worker_namespaces() + _reference_namespaces(problem)
        for label, owner in third_party:
            s.namespaces.append((label, owner, dict(vars(owner)), False))
        for label, owner in own:
            s.namespaces.append((label, owner, dict(vars(owner)), True))
        s.containers = [(label, d, dict(d)) for label, d in _containers(s.problem)] if not timing else []
        s.flags = _read_flags(_flag_accessors())
        if s.rng:
            s.rng_states = _rng_states()
        s.threads = {t.ident for t in threading.enumerate()}
        s.parameters = _parameter_digests(s.problem)
        s.modes = _mode_depths()
        return s

    def changes(self) -> list[Change]:
        """What differs now from the snapshot, each with how to put it back."""
        found: list[Change] = []
        for label, owner, before, watch_all in self.namespaces:
            found += _namespace_changes(label, owner, before, watch_all)
        for label, d, before in self.containers:
            found += _container_changes(label, d, before)
        accessors = _flag_accessors()
        now = _read_flags(accessors)
        for name, was in self.flags.items():
            if name in now and now[name] != was:
                found.append(Change(f"{name} changed from {was!r} to {now[name]!r}",
                                    (lambda w, v: lambda: w(v))(accessors[name][1], was)))
        if self.rng:
            now_rng = _rng_states()
            for name, was in self.rng_states.items():
                if not _same_rng(was, now_rng.get(name)):
                    found.append(Change(f"the {name}'s state changed (reseeded, or random numbers drawn)",
                                        (lambda n, v: lambda: _set_rng(n, v))(name, was)))
        for t in threading.enumerate() if self.watch_threads else []:
            if t.ident not in self.threads and t.is_alive() and not _runs_library_code(t):
                found.append(Change(f"thread {t.name!r} was started and is still running", lambda: None, False))
        now_modes = _mode_depths()
        if now_modes != self.modes:
            found.append(Change(f"the torch function and dispatch mode stacks are {now_modes[0]} and {now_modes[1]} "
                                f"deep, not {self.modes[0]} and {self.modes[1]} (a mode left active)",
                                (lambda f, d: lambda: _pop_modes(f, d))(*self.modes),
                                all(n >= b for n, b in zip(now_modes, self.modes))))
        now_params = _parameter_digests(self.problem)
        for name, was in self.parameters.items():
            if name in now_params and now_params[name] != was:
                found.append(Change(f"the reference model's parameter {name} was written to", lambda: None, False))
        return found


# Threads PyTorch starts on its own whenever its compile workers are used (the pool's idle timer, its reply
# reader), at moments no candidate chooses: seen starting during a Triton candidate's first call on the GPU.
# They are recognised by the code they run, not by their name, which any thread can take.
_LIBRARY_THREAD_CODE = ("torch._inductor.compile_worker.",)


def _runs_library_code(t: threading.Thread) -> bool:
    target = getattr(t, "_target", None) or type(t).run
    function = getattr(target, "__func__", target)
    return (getattr(function, "__module__", None) or "").startswith(_LIBRARY_THREAD_CODE)


def _is_watched(value: Any) -> bool:
    return callable(value) or isinstance(value, (staticmethod, classmethod, property))


def _namespace_changes(label: str, owner: Any, before: dict, watch_all: bool) -> list[Change]:
    now = vars(owner)
    found = []

    def put_back(key, value):
        return lambda: setattr(owner, key, value)

    def take_out(key):
        return lambda: delattr(owner, key)

    for key, was in before.items():
        cur = now.get(key, _MISSING)
        if cur is was or not (watch_all or _is_watched(was) or _is_watched(cur)):
            continue
        if cur is _MISSING:
            found.append(Change(f"{label}.{key} was deleted", put_back(key, was)))
        else:
            found.append(Change(f"{label}.{key} was replaced", put_back(key, was)))
    for key in now.keys() - before.keys():
        cur = now[key]
        if isinstance(cur, types.ModuleType) or not (watch_all or _is_watched(cur)):
            continue  # importing a submodule binds it in its package
        found.append(Change(f"{label}.{key} was added", take_out(key)))
    return found


def _container_changes(label: str, d: dict, before: dict) -> list[Change]:
    if d.keys() == before.keys() and all(d[k] is before[k] for k in before):
        return []

    def restore():
        d.clear()
        d.update(before)
    return [Change(f"{label} was changed ({len(before)} entries before, {len(d)} now)", restore)]


def restore(changes: list[Change]) -> None:
    for c in changes:
        try:
            c.undo()
        except Exception:  # putting one thing back must not stop the others
            pass


def describe(changes: list[Change], limit: int = 6) -> str:
    shown = [c.what for c in changes[:limit]]
    more = len(changes) - len(shown)
    return "; ".join(shown) + (f"; and {more} more" if more > 0 else "")


def settle(before: Snapshot) -> str | None:
    """Compares the state with `before`, puts back whatever changed, and names the changes (None: none)."""
    changes = before.changes()
    if not changes:
        return None
    restore(changes)
    return describe(changes)
