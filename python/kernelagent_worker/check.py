"""Correctness and anti-cheat checks of a candidate against the reference.

For each seed: new inputs from get_inputs(); the candidate runs first, on its own copy, while a
TorchDispatchMode records every aten op it calls, the CUDA stream API is watched and a ForwardGuard
(cheat_checks.py) notes what the process looked like before; then the reference runs. Checked in order (the
first failure is the status; docs/check.md explains each with an example):

  cuda_error (sticky)   the forward poisoned the CUDA context
  cheat_tampering       the forward changed a function, flag, random state, thread or the reference model
                        that the check or the timer relies on (integrity.py); put back
  cheat_gpu_state       the forward left L2 persistence set (gpu_state.py); reset
  cheat_torch_compute   an aten op that is not an allocation, a view, metadata or a copy into a tensor the
                        forward allocated itself (Triton launches do not go through the dispatcher, so a real
                        Triton candidate records none; ops issued by Triton's own runtime are not counted)
  cheat_other_stream    a CUDA stream was created or switched to during the forward
  runtime_error / cuda_error / out_of_memory   the forward raised
  cheat_tensor_subclass an output is not a plain torch.Tensor (a subclass's methods could fake the comparison)
  cheat_returns_input   an output shares its storage with an input (the input itself or a view of it), where
                        the reference's output does not share its own input's (x.relu_() returned does)
  cheat_reads_reference an output changed after the forward returned, while the reference ran
  cheat_writes_input    the forward wrote into an input that the reference leaves alone
  wrong_shape / wrong_dtype / wrong_device, nan_or_inf
  cheat_cached_output   a wrong output holds the values of an earlier call's output
  wrong_result          |c - r| > atol + rtol * |r|
  cheat_work_in_flight  the outputs were right only after the whole device was synchronised (GPU)
  wrong_state           a buffer both modules hold (BatchNorm's running statistics), or an input the reference
                        changes in place, differs from the reference's after the same forward from the same state

While the candidate runs, torch.compile'd code is forced to run eagerly (torch.compiler.set_stance), so a
candidate cannot hide PyTorch compute inside an Inductor-generated kernel.

Example: a ModelNew whose forward is `return torch.relu(x)` -> status cheat_torch_compute, ops
["aten.relu.default"].
"""

from __future__ import annotations

import contextlib
import math
from dataclasses import dataclass, field

import torch
from torch.utils._python_dispatch import TorchDispatchMode
from torch.utils._pytree import tree_leaves

from . import cheat_checks
from . import device as device_mod
from .errors import WorkerError, classify, describe, to_worker_error
from .problem import Problem, as_tensor_list, clone_inputs, dtype_name

# Overload packets (str(func.overloadpacket)) a candidate's forward may call. Any op whose schema makes it a
# view (func.is_view) is allowed too.
ALLOCATION_OPS = frozenset({
    "aten.empty", "aten.empty_like", "aten.empty_strided", "aten.new_empty", "aten.new_empty_strided",
})
VIEW_OPS = frozenset({
    "aten.view", "aten._unsafe_view", "aten.reshape", "aten._reshape_alias", "aten.as_strided", "aten.expand",
    "aten.expand_as", "aten.permute", "aten.transpose", "aten.t", "aten.squeeze", "aten.unsqueeze",
    "aten.flatten", "aten.unflatten", "aten.alias", "aten.detach", "aten.slice", "aten.select", "aten.narrow",
    "aten.split", "aten.split_with_sizes", "aten.chunk", "aten.unbind", "aten.view_as", "aten.movedim",
    "aten.contiguous",
})
METADATA_OPS = frozenset({
    "aten.sym_size", "aten.sym_stride", "aten.sym_numel", "aten.sym_storage_offset", "aten.size", "aten.stride",
    "aten.numel", "aten.dim", "aten.storage_offset", "aten.is_contiguous", "aten.is_non_overlapping_and_dense",
    "aten.is_strides_like_format", "aten.is_same_size", "aten.is_complex", "aten.is_floating_point",
})
COPY_OP = "aten.copy_"   # allowed only into a tensor the forward allocated itself
COMPARE_SLICE = 1 << 25   # elements compared at once in float64 (256 MB a copy)


def _storage_ptr(t) -> int | None:
    return t.untyped_storage().data_ptr() if isinstance(t, torch.Tensor) else None


@dataclass
class Watch:
    """What one candidate forward did."""
    ops: list = field(default_factory=list)        # every aten op called, in order of first call
    compute: list = field(default_factory=list)    # the ones that are not allowed
    streams: list = field(default_factory=list)    # stream API calls
    own: set = field(default_factory=set)          # storages the forward allocated
    triton_depth: int = 0                          # > 0 while Triton's runtime launches a kernel

    def note_op(self, name: str) -> None:
        if name not in self.ops:
            self.ops.append(name)


class _OpRecorder(TorchDispatchMode):
    def __init__(self, watch: Watch):
        super().__init__()
        self.watch = watch

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        out = func(*args, **(kwargs or {}))
        w = self.watch
        if w.triton_depth:
            return out
        name, packet = str(func), str(func.overloadpacket)
        w.note_op(name)
        if packet in ALLOCATION_OPS:
            w.own.update(p for p in map(_storage_ptr, tree_leaves(out)) if p)
        elif packet in VIEW_OPS or packet in METADATA_OPS or func.is_view:
            pass
        elif packet == COPY_OP and args and _storage_ptr(args[0]) in w.own:
            pass
        elif name not in w.compute:
            w.compute.append(name)
        return out


def _triton_kernel_classes() -> list:
    import triton.runtime.autotuner as autotuner
    import triton.runtime.interpreter as interpreter
    import triton.runtime.jit as jit

    return [jit.JITFunction, interpreter.InterpretedFunction, autotuner.Autotuner, autotuner.Heuristics]


@contextlib.contextmanager
def _triton_runtime_unrecorded(watch: Watch):
    """Mark the time spent inside Triton's launcher (the interpreter copies arguments with torch ops there)."""
    def wrap(orig):
        def run(self, *args, **kwargs):
            watch.triton_depth += 1
            try:
                return orig(self, *args, **kwargs)
            finally:
                watch.triton_depth -= 1
        return run

    patched = []
    try:
        for cls in _triton_kernel_classes():
            orig = cls.__dict__.get("run")
            if orig is not None:
                setattr(cls, "run", wrap(orig))
                patched.append((cls, orig))
        yield
    finally:
        for cls, orig in reversed(patched):
            setattr(cls, "run", orig)


@contextlib.contextmanager
def _streams_recorded(watch: Watch):
    """Record stream creation (torch.cuda.Stream / ExternalStream) and switching (set_stream, stream)."""
    def note(label: str) -> None:
        if not watch.triton_depth:
            watch.streams.append(label)
            watch.note_op(label)

    def in_use(stream) -> bool:
        # The stream that already runs (or None: no switch) is no other stream.
        if stream is None:
            return True
        try:
            return stream == torch.cuda.current_stream(stream.device)
        except Exception:
            return False

    def wrap_fn(orig, label):
        def fn(*args, **kwargs):
            stream = args[0] if args else kwargs.get("stream")
            if not in_use(stream):
                note(label)
            return orig(*args, **kwargs)
        return fn

    def wrap_new(orig_new, label):
        def new(cls, *args, **kwargs):
            # torch.cuda.current_stream() wraps the stream in use as Stream(stream_id=...): asking which stream
            # runs is honest (launchers pass it on); only a new stream is recorded.
            if "stream_id" not in kwargs:
                note(label)
            return orig_new(cls, *args, **kwargs)
        return staticmethod(new)

    restore = []
    try:
        for cls, label in ((torch.cuda.Stream, "torch.cuda.Stream"), (torch.cuda.ExternalStream, "torch.cuda.ExternalStream")):
            orig = cls.__dict__.get("__new__")
            if isinstance(orig, staticmethod):
                setattr(cls, "__new__", wrap_new(orig.__func__, label))
                restore.append((cls, "__new__", orig))
        for mod, attr, label in ((torch.cuda, "set_stream", "torch.cuda.set_stream"),
                                 (torch.cuda, "stream", "torch.cuda.stream"),
                                 (getattr(torch, "accelerator", None), "set_stream", "torch.accelerator.set_stream")):
            orig = getattr(mod, attr, None) if mod is not None else None
            if orig is not None:
                setattr(mod, attr, wrap_fn(orig, label))
                restore.append((mod, attr, orig))
        yield
    finally:
        for obj, attr, orig in reversed(restore):
            setattr(obj, attr, orig)


@contextlib.contextmanager
def watching(watch: Watch):
    """Everything a candidate's forward is watched with."""
    with contextlib.ExitStack() as stack:
        stack.enter_context(_triton_runtime_unrecorded(watch))
        stack.enter_context(_streams_recorded(watch))
        stack.enter_context(torch.compiler.set_stance("force_eager"))
        stack.enter_context(_OpRecorder(watch))
        yield


@dataclass
class Run:
    """One watched forward of a candidate."""
    out: object = None
    exc: BaseException | None = None
    seen: list | None = None     # the outputs as the current stream saw them when the forward returned (GPU)
    guard: cheat_checks.GuardVerdict = field(default_factory=cheat_checks.GuardVerdict)


def run_watched(model: torch.nn.Module, inputs: list, seed: int, dev: str, watch: Watch, problem=None) -> Run:
    """model(*inputs) under watch and under a ForwardGuard (cheat_checks.py), synchronised."""
    before = torch.cuda.current_stream() if dev == "cuda" else None
    run = Run()
    torch.manual_seed(seed)
    guard = cheat_checks.ForwardGuard(problem, dev)
    try:
        with watching(watch):
            run.out = model(*inputs)
        run.seen = cheat_checks.in_stream_order(as_tensor_list(run.out), dev)
        device_mod.synchronize(dev)
    except KeyboardInterrupt:
        raise
    except BaseException as e:  # SystemExit from a candidate is a failure of the candidate, not of the worker
        run.exc = e
    found = classify(run.exc) if run.exc is not None else None
    if not (found and found[1]):   # after a sticky CUDA error nothing more runs in this process
        run.guard = guard.end()
    if dev == "cuda" and run.exc is None and torch.cuda.current_stream() != before:
        watch.streams.append("current stream changed")
    return run


def _to_wide(t: torch.Tensor) -> torch.Tensor:
    t = t.detach()
    return t.to(torch.complex128) if t.is_complex() else t.to(torch.float64)


def compare(index: int, c: torch.Tensor, r: torch.Tensor, atol: float, rtol: float, errs: dict):
    """(status, message) of the first difference between output `index` of the candidate and the reference,
    or None; errs' max_abs_err / max_rel_err are raised to this output's."""
    if tuple(c.shape) != tuple(r.shape):
        return "wrong_shape", f"output {index}: shape {list(c.shape)}, expected {list(r.shape)}"
    if c.dtype != r.dtype:
        return "wrong_dtype", f"output {index}: dtype {dtype_name(c.dtype)}, expected {dtype_name(r.dtype)}"
    if c.device.type != r.device.type:
        return "wrong_device", f"output {index}: on device {c.device.type}, expected {r.device.type}"
    # In slices of the flattened outputs: the float64 copies of a 7.5 GB output would need 60 GB at once.
    cf, rf = c.detach().reshape(-1), r.detach().to(c.device).reshape(-1)
    n = cf.numel()
    if not (c.is_floating_point() or c.is_complex()):
        # Integers and bools are exact: an index or a count off by one is wrong however large it is (a
        # relative tolerance let int64 arithmetic done in fp32 pass, and argmax indices off by one past 10^4).
        n_bad, first_bad = 0, None
        for start in range(0, max(n, 1), COMPARE_SLICE):
            cs, rs = cf[start:start + COMPARE_SLICE], rf[start:start + COMPARE_SLICE]
            bad = cs != rs
            k = int(bad.sum().item())
            if k:
                diff = (cs[bad].to(torch.float64) - rs[bad].to(torch.float64)).abs()
                errs["max_abs_err"] = max(errs["max_abs_err"], diff.max().item())
                if first_bad is None:
                    i = int(bad.nonzero()[0].item())
                    first_bad = (start + i, cs[i].item(), rs[i].item())
            n_bad += k
        if n_bad:
            flat, got, want = first_bad
            where = [int(i) for i in torch.unravel_index(torch.tensor(flat), tuple(c.shape))] if c.dim() else []
            return "wrong_result", (f"output {index}: {n_bad} of {n} {dtype_name(c.dtype)} elements differ (integers "
                                    f"and bools must be equal; first at {where}: {got} vs {want})")
        return None
    n_bad_finite = n_bad = 0
    first_bad = None
    for start in range(0, max(n, 1), COMPARE_SLICE):
        cd, rd = _to_wide(cf[start:start + COMPARE_SLICE]), _to_wide(rf[start:start + COMPARE_SLICE])
        finite = torch.isfinite(cd) & torch.isfinite(rd)
        diff = (cd - rd).abs()
        if bool(finite.any()):
            errs["max_abs_err"] = max(errs["max_abs_err"], diff[finite].max().item())
            nz = finite & (rd != 0)
            if bool(nz.any()):
                errs["max_rel_err"] = max(errs["max_rel_err"], (diff[nz] / rd[nz].abs()).max().item())
        n_bad_finite += int((~torch.isfinite(cd) & torch.isfinite(rd)).sum().item())
        bad = ~torch.isclose(cd, rd, rtol=rtol, atol=atol, equal_nan=True)
        k = int(bad.sum().item())
        if k and first_bad is None:
            i = int(bad.nonzero()[0].item())
            first_bad = (start + i, cd[i].item(), rd[i].item())
        n_bad += k
    if n_bad_finite:
        return "nan_or_inf", (f"output {index}: {n_bad_finite} of {n} elements are NaN or Inf where the "
                              "reference is finite")
    if n_bad:
        flat, got, want = first_bad
        where = [int(i) for i in torch.unravel_index(torch.tensor(flat), tuple(c.shape))] if c.dim() else []
        return "wrong_result", (f"output {index}: {n_bad} of {n} elements differ beyond atol + rtol*|ref| "
                                f"(atol={atol}, rtol={rtol}; first at {where}: {got} vs {want})")
    return None


def _copy_state(src: torch.nn.Module, dst: torch.nn.Module) -> None:
    """dst's parameters and buffers set to src's where the names and shapes match."""
    from .candidate import copy_matching_state

    with torch.no_grad():
        copy_matching_state(src, dst)


def _compare_buffers(ref: torch.nn.Module, cand: torch.nn.Module, atol: float, rtol: float) -> str | None:
    """What differs between the buffers both modules hold, or None."""
    mine = dict(cand.named_buffers())
    for name, r in ref.named_buffers():
        c = mine.get(name)
        if c is None or c.shape != r.shape:
            continue
        if r.is_floating_point():
            close = torch.isclose(_to_wide(c), _to_wide(r.to(c.device)), rtol=rtol, atol=atol, equal_nan=True)
        else:
            close = c == r.to(c.device)
        if not bool(close.all()):
            return (f"buffer {name} differs from the reference's after the forward "
                    f"({int((~close).sum().item())} of {r.numel()} elements)")
    return None


def _returned_inputs(outs: list, inputs: list) -> dict:
    """Output index -> the index of the input whose storage it shares."""
    at = {}
    for j, x in enumerate(inputs):
        p = _storage_ptr(x)
        if p:
            at.setdefault(p, j)
    return {i: at[_storage_ptr(o)] for i, o in enumerate(outs) if _storage_ptr(o) in at}


def _no_note(phase: str, **fields) -> None:
    pass


def _answer_varies(problem, index: int, ref: torch.Tensor, seed: int) -> bool:
    """Whether the reference's output `index` changes with the inputs: run once more on another seed's inputs.
    A wrong output that repeats an earlier call's is a cached answer only where the right answer moved; where
    the problem's answer is the same for any inputs (a logsumexp of rows holding +inf), it is just wrong."""
    kept = {name: t.clone() for name, t in problem.model.state_dict().items()}  # a training-mode BatchNorm's
    try:
        torch.manual_seed(seed + 7919)
        with device_mod.fp32_mode(problem.reference_mode):
            other = as_tensor_list(problem.model(*problem.make_inputs(seed + 7919)))
    except Exception:
        return True
    finally:
        problem.model.load_state_dict(kept)
    if not other or index >= len(other):
        return True
    return not cheat_checks.same_sample(cheat_checks.sample(ref), cheat_checks.sample(other[index]))


def check(problem: Problem, cand_name: str, model: torch.nn.Module, seeds: list, atol: float, rtol: float,
          note=_no_note, earlier: list | None = None) -> dict:
    """The seeds' check (_check_seeds), the last of several with the reference's floating parameters and
    buffers changed (x 1.25 + 0.125; the candidate gets them as on every seed, by name): a kernel that folded
    in a parameter's value as it was when traced, instead of reading it, is right with the values the model
    was built with and wrong after load_state_dict of others. The reference's own values are put back."""
    if len(seeds) < 2 or not any(t.is_floating_point() for t in problem.model.state_dict().values()):
        return _check_seeds(problem, cand_name, model, seeds, atol, rtol, note, earlier)
    first = _check_seeds(problem, cand_name, model, seeds[:-1], atol, rtol, note, earlier)
    if first["status"] != "ok":
        return first
    kept = {name: t.clone() for name, t in problem.model.state_dict().items()}
    try:
        with torch.no_grad():
            for t in problem.model.state_dict().values():  # the state_dict's tensors are the model's own
                if t.is_floating_point():
                    t.mul_(1.25).add_(0.125)
        last = _check_seeds(problem, cand_name, model, seeds[-1:], atol, rtol, note, earlier)
    finally:
        problem.model.load_state_dict(kept)
    if last["status"] != "ok" and "message" in last:
        last["message"] += " (with the model's parameters and buffers changed from the values it was built with)"
    last["seeds_checked"] += first["seeds_checked"]
    for key in ("max_abs_err", "max_rel_err"):
        last[key] = max(last[key], first[key])
    last["ops"] = first["ops"] + [o for o in last["ops"] if o not in first["ops"]]
    return last


def _check_seeds(problem: Problem, cand_name: str, model: torch.nn.Module, seeds: list, atol: float, rtol: float,
                 note=_no_note, earlier: list | None = None) -> dict:
    """The `check` reply without id: status, message (on failure), max_abs_err, max_rel_err, seeds_checked, ops.
    `note(phase, seed=...)` is called before the candidate's run ("candidate") and the reference's ("reference")
    on each seed, so that a hang or a crash is put on the one that was running. The reference failing here
    is the problem's failure, not the candidate's: status bad_problem, naming the problem file. `earlier`
    holds what the candidate's earlier calls returned (cheat_checks.samples_of); this check's calls are added."""
    dev = problem.device
    errs = {"max_abs_err": 0.0, "max_rel_err": 0.0}
    ops: list = []
    checked = 0
    earlier = [] if earlier is None else earlier

    def reply(status: str, message: str | None = None, **extra) -> dict:
        r = {"status": status, **({"message": message} if message else {}), **errs, "seeds_checked": checked,
             "ops": ops, **extra}
        return r

    for seed in seeds:
        inputs = problem.make_inputs(seed)
        mine = clone_inputs(inputs)
        # Both start from the reference's parameters and buffers, so a module that updates its buffers in
        # forward (BatchNorm in training mode) can be compared after the call.
        _copy_state(problem.model, model)
        watch = Watch()
        note("candidate", seed=seed)
        run = run_watched(model, mine, seed, dev, watch, problem)
        out, exc = run.out, run.exc
        checked += 1
        ops.extend(o for o in watch.ops if o not in ops)
        where = f"candidate {cand_name}, seed {seed}"
        found = classify(exc) if exc is not None else None
        if found and found[1]:
            return reply("cuda_error", f"{where}: {describe(exc)}", sticky=True)
        if run.guard.status == "cheat_tampering":
            # What cannot be put back (a running thread, a written weight) ends this worker after the reply.
            return reply("cheat_tampering", f"{where}: the forward changed what the check relies on: "
                                            f"{run.guard.message} ({run.guard.aftermath})",
                         **({"sticky": True} if run.guard.restart else {}))
        if run.guard.status:
            return reply(run.guard.status, f"{where}: the forward left state on the GPU for later calls: "
                                           f"{run.guard.message} (reset)")
        if watch.compute:
            return reply("cheat_torch_compute", f"{where}: the forward ran PyTorch compute ops "
                                                f"{', '.join(watch.compute)}; compute must be done by the "
                                                "candidate's own kernels")
        if watch.streams:
            return reply("cheat_other_stream", f"{where}: the forward used another CUDA stream "
                                               f"({', '.join(watch.streams)}); work must run on the current stream")
        if exc is not None:
            status = found[0] if found else "runtime_error"
            return reply(status, f"{where}: forward raised {describe(exc)}")
        outs = as_tensor_list(out)
        if outs is None:
            return reply("wrong_shape", f"{where}: the forward returned a {type(out).__name__}, expected "
                                        f"{len(problem.output_desc)} tensor(s)")
        k = next((k for k, o in enumerate(outs) if type(o) is not torch.Tensor), None)
        if k is not None:
            return reply("cheat_tensor_subclass", f"{where}: output {k} is of type {type(outs[k]).__qualname__}, a "
                                                  "subclass of torch.Tensor whose Python methods could answer the comparison; "
                                                  "return a plain tensor")
        # An output in an input's storage is judged once the reference has run: right only where the reference
        # returns the same input changed in place (x.relu_()), whose values are then checked as both.
        returned = _returned_inputs(outs, mine)
        # Before the reference runs, `inputs` is as get_inputs() made it; the candidate's outputs are sealed.
        written = cheat_checks.written_inputs(mine, inputs)
        seal = cheat_checks.Seal(outs)
        note("reference", seed=seed)
        try:
            torch.manual_seed(seed)
            with device_mod.fp32_mode(problem.reference_mode):
                ref = as_tensor_list(problem.model(*inputs))
                device_mod.synchronize(dev)
        except KeyboardInterrupt:
            raise
        except BaseException as e:
            err = to_worker_error(e, "bad_problem", f"problem file {problem.path}: the reference (Model.forward) "
                                                    f"on seed {seed}, after candidate {cand_name} had run: ")
            return reply(err.status, err.message, **err.extra)
        ref_returned = _returned_inputs(ref or [], inputs)
        i = next((i for i, j in returned.items() if ref_returned.get(i) != j), None)
        if i is not None:
            return reply("cheat_returns_input", f"{where}: output {i} shares storage with an input; the "
                                                "candidate must write its own output")
        k = seal.broken(outs)
        if k is not None:
            return reply("cheat_reads_reference", f"{where}: output {k} changed after the forward had returned, "
                                                  "while the reference ran; a result must be complete when the "
                                                  "forward returns")
        bad = cheat_checks.input_verdict(written, mine, inputs)
        if bad:
            return reply(bad[0], f"{where}: {bad[1]}")
        if ref is None or len(outs) != len(ref):
            return reply("wrong_shape", f"{where}: {len(outs)} outputs, expected {len(ref or [])}")
        for k, (c, r) in enumerate(zip(outs, ref)):
            bad = compare(k, c, r, atol, rtol, errs)
            if bad and bad[0] == "wrong_result":
                stale = cheat_checks.cached_from(k, c, earlier)
                if stale and _answer_varies(problem, k, r, seed):
                    return reply("cheat_cached_output", f"{where}: output {k} holds the values the candidate "
                                                        f"returned on {stale}; {bad[1]}")
            if bad:
                return reply(bad[0], f"{where}: {bad[1]}")
        for k, (c, r) in enumerate(zip(run.seen or [], ref)):
            if compare(k, c, r, atol, rtol, {"max_abs_err": 0.0, "max_rel_err": 0.0}):
                return reply("cheat_work_in_flight", f"{where}: output {k} was not complete on the current stream "
                                                     "when the forward returned (work still in flight on another "
                                                     "stream); it was right only after the whole device was "
                                                     "synchronised")
        bad = _compare_buffers(problem.model, model, atol, rtol)
        if bad:
            return reply("wrong_state", f"{where}: {bad}")
        earlier.append(cheat_checks.samples_of(outs, f"seed {seed}"))
        del out, outs, ref, inputs, mine, run, seal
    return reply("ok")


def validate(req: dict, op: str = "check") -> tuple[list, float, float]:
    seeds, atol, rtol = req.get("seeds"), req.get("atol"), req.get("rtol")
    if not (isinstance(seeds, list) and seeds and all(isinstance(s, int) and not isinstance(s, bool) for s in seeds)):
        raise WorkerError("bad_request", f"{op} needs \"seeds\": a non-empty list of integers")
    for key, v in (("atol", atol), ("rtol", rtol)):
        if not (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= 0):
            raise WorkerError("bad_request", f"{op} needs \"{key}\": a number >= 0")
    return seeds, float(atol), float(rtol)
