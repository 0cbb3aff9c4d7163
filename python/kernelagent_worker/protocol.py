"""The line-delimited JSON protocol of docs/protocol.md: requests in, one reply per request out.

Every reply carries the request's id and a status. A handler either returns the reply's fields (status ok
unless it says otherwise) or raises; exceptions become statuses (errors.py), with the traceback on stderr,
never on the protocol channel. After a reply that says `"sticky": true` the worker exits with code 3.

A request with `"progress": true` also gets a note before each phase of its work (`load`: import,
init_inputs, model, inputs, reference; `check`: candidate and reference, per seed), so that the engine
knows what was running when the worker hangs or dies: {"id": 4, "status": "progress", "phase": "reference",
"seed": 2}. The reply still comes last, exactly once.

Example: '{"id": 7, "op": "nope"}' -> {"id": 7, "status": "bad_request", "message": "unknown op 'nope' ..."}
"""

from __future__ import annotations

import gc
import json
import math
import sys
import traceback
from typing import Any, Callable, TextIO

import torch

from . import candidate as candidate_mod
from . import cheat_checks
from . import check as check_mod
from . import device as device_mod
from . import kernel_resources
from . import mode_error as mode_error_mod
from . import problem as problem_mod
from . import timing
from . import trace as trace_mod
from .errors import WorkerError, to_worker_error

EXIT_STICKY = 3

# The status an unexpected exception in a handler becomes (when it is not a memory or CUDA error).
DEFAULT_FAILURE = {"load": "bad_problem", "trace": "trace_failed", "compile": "compile_error",
                   "check": "runtime_error", "time": "runtime_error", "mode_error": "runtime_error"}

# The baselines `time` knows besides compiled candidates: eager and torch.compile of the reference, in the
# policy's fp32 mode (Problem.baseline_mode) or, with "_default", in PyTorch's defaults.
BASELINES = {"eager": (False, False), "compile": (True, False), "eager_default": (False, True),
             "compile_default": (True, True)}


def jsonable(v: Any) -> Any:
    """v with non-finite floats as the strings "inf", "-inf", "nan" (JSON has no such numbers)."""
    if isinstance(v, float):
        if math.isfinite(v):
            return v
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, str):  # a lone surrogate would make the line unreadable as UTF-8 JSON
        return v.encode("utf-8", "replace").decode("utf-8")
    if v is None or isinstance(v, (bool, int)):
        return v
    if hasattr(v, "item") and callable(v.item):     # numpy / 0-d torch scalars
        try:
            return jsonable(v.item())
        except (TypeError, ValueError, RuntimeError):
            pass
    return str(v)


def encode(reply: dict) -> str:
    return json.dumps(jsonable(reply), allow_nan=False)


class Worker:
    def __init__(self, dev: str, out: TextIO):
        self.dev = dev
        self.out = out
        self.problem: problem_mod.Problem | None = None
        self.candidates: dict[str, candidate_mod.Candidate] = {}
        self.handlers: dict[str, Callable[[dict], dict]] = {
            "load": self.load, "trace": self.trace, "compile": self.compile, "check": self.check,
            "time": self.time, "mode_error": self.mode_error, "release": self.release, "shutdown": self.shutdown,
        }
        self.exit_code: int | None = None   # set when the worker must exit after the current reply
        self._progress_id: Any = None       # the id of the request being served, when it asked for notes

    # ---- channel -------------------------------------------------------------------------------------------

    def write(self, reply: dict) -> None:
        self.out.write(encode(reply) + "\n")
        self.out.flush()

    def note(self, phase: str, **fields) -> None:
        """Tells the engine which phase of the current request starts, when the request asked for notes."""
        if self._progress_id is None or self.out is None:
            return
        self.write({"id": self._progress_id, "status": "progress", "phase": phase, **fields})

    def handle_line(self, line: str) -> dict | None:
        """The reply to one request line (None for a blank line)."""
        if not line.strip():
            return None
        try:
            req = json.loads(line)
        except ValueError as e:
            return {"id": None, "status": "bad_request", "message": f"request is not JSON: {e}"}
        if not isinstance(req, dict):
            return {"id": None, "status": "bad_request", "message": "request is not a JSON object"}
        rid = req.get("id")
        op = req.get("op")
        handler = self.handlers.get(op) if isinstance(op, str) else None
        if handler is None:
            return {"id": rid, "status": "bad_request",
                    "message": f"unknown op {op!r}: expected one of {', '.join(self.handlers)}"}
        self._progress_id = rid if req.get("progress") is True else None
        try:
            fields = handler(req)
        except KeyboardInterrupt:
            raise
        except BaseException as e:
            if not isinstance(e, WorkerError) or e.__cause__ is not None:
                traceback.print_exc(file=sys.stderr)   # for debugging; the reply carries the message
            err = to_worker_error(e, DEFAULT_FAILURE.get(op, "internal_error"))
            fields = {"status": err.status, "message": err.message, **err.extra}
        finally:
            self._progress_id = None
        if fields.get("status") == "out_of_memory" and self.dev == "cuda":
            gc.collect()
            torch.cuda.empty_cache()
        if fields.get("sticky"):
            self.exit_code = EXIT_STICKY
        return {"id": rid, "status": "ok", **fields}

    def serve(self, inp: TextIO) -> int:
        """Answer requests until shutdown, end of input or a sticky error; returns the exit code."""
        while True:
            line = inp.readline()
            if not line:
                return 0
            reply = self.handle_line(line)
            if reply is not None:
                self.write(reply)
            if self.exit_code is not None:
                return self.exit_code

    # ---- requests ------------------------------------------------------------------------------------------

    def _need_problem(self) -> problem_mod.Problem:
        if self.problem is None:
            raise WorkerError("bad_request", "no problem is loaded: send load first")
        return self.problem

    def _need_candidate(self, name: Any) -> candidate_mod.Candidate:
        if name not in self.candidates:
            raise WorkerError("bad_request", f"candidate {name!r} is not compiled: send compile first")
        return self.candidates[name]

    def load(self, req: dict) -> dict:
        seed = req.get("seed", 0)
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise WorkerError("bad_request", "load needs \"seed\": an integer")
        precision = req.get("precision")
        if precision is not None and precision not in problem_mod.PRECISIONS:
            raise WorkerError("bad_request", f"load's \"precision\" is strict or tf32, not {precision!r}")
        self.problem = None          # a second load replaces the first, candidates included
        self.candidates.clear()
        gc.collect()
        if self.dev == "cuda":
            torch.cuda.empty_cache()
        self.problem = problem_mod.load(req.get("problem"), seed, self.dev, note=self.note, precision=precision)
        return problem_mod.load_reply(self.problem)

    def trace(self, req: dict) -> dict:
        p = self._need_problem()
        try:
            return trace_mod.trace(p.model, p.inputs, p.init_fill)
        except Exception as e:
            raise to_worker_error(e, "trace_failed", "trace of the reference failed: ") from e

    def compile(self, req: dict) -> dict:
        p = self._need_problem()
        name, path = req.get("candidate"), req.get("path")
        if not isinstance(name, str) or not name:
            raise WorkerError("bad_request", "compile needs \"candidate\": a name")
        self.candidates.pop(name, None)
        with kernel_resources.recording() as launched:
            cand, compile_ms = candidate_mod.build(name, path, p)
        self.candidates[name] = cand
        return {"compile_ms": compile_ms, "kernels": kernel_resources.describe(launched)}

    def check(self, req: dict) -> dict:
        p = self._need_problem()
        cand = self._need_candidate(req.get("candidate"))
        seeds, atol, rtol = check_mod.validate(req)
        return check_mod.check(p, cand.name, cand.model, seeds, atol, rtol, note=self.note, earlier=cand.samples)

    def time(self, req: dict) -> dict:
        if self.dev != "cuda":
            raise WorkerError("no_gpu", "time needs a CUDA GPU; this worker runs on the CPU (Triton interpreter)")
        p = self._need_problem()
        targets = req.get("targets")
        if not (isinstance(targets, list) and targets and all(isinstance(t, str) for t in targets)):
            raise WorkerError("bad_request", "time needs \"targets\": a non-empty list of names")
        params = {}
        for key, minimum in (("min_ms", 0.0), ("warmup_ms", 0.0), ("rounds", 1), ("graph_below_us", 0.0)):
            v = req.get(key)
            if not (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and v >= minimum):
                raise WorkerError("bad_request", f"time needs \"{key}\": a number >= {minimum}")
            params[key] = v
        if not isinstance(params["rounds"], int):
            raise WorkerError("bad_request", "time needs \"rounds\": an integer >= 1")

        fns, modes, results = {}, {}, {}
        for t in targets:
            if t in BASELINES:
                compiled, default = BASELINES[t]
                mode = "default" if default else p.baseline_mode
                model = p.model
                if compiled:
                    # One torch.compile per mode: Inductor reads the fp32 settings when it compiles.
                    if mode not in p.compiled_by_mode:
                        p.compiled_by_mode[mode] = torch.compile(p.model)
                    model = p.compiled_by_mode[mode]
                fns[t] = (lambda m, xs: lambda: m(*xs))(model, p.inputs)
                modes[t] = mode
            elif t in self.candidates:
                fns[t] = (lambda m, xs: lambda: m(*xs))(self.candidates[t].model, problem_mod.clone_inputs(p.inputs))
            else:
                results[t] = {"status": "bad_request", "message": f"unknown target {t!r}: {', '.join(BASELINES)} "
                                                                  "or a compiled candidate's name"}
        gpu = torch.cuda.get_device_properties(torch.cuda.current_device())
        guard = cheat_checks.ForwardGuard(p, self.dev, timing=True)
        try:
            results.update(timing.time_targets(
                fns, l2_bytes=gpu.L2_cache_size, modes={t: (lambda m: lambda: device_mod.fp32_mode(m))(m)
                                                        for t, m in modes.items()},
                warmup_failure={"compile": "compile_error", "compile_default": "compile_error"}, **params))
            cheat_checks.blame_timing(results, [t for t in fns if t in self.candidates], guard.end())
        except timing.StickyError as e:
            results.update(e.results)
            ordered = {t: results[t] for t in targets if t in results}
            return {"status": "cuda_error", "sticky": True, "message": str(e), "results": ordered}
        return {"results": {t: results[t] for t in targets},
                "modes": {t: {"mode": m, **device_mod.mode_settings(m)} for t, m in modes.items()}}

    def mode_error(self, req: dict) -> dict:
        """The error of the reference run in `mode` against the IEEE fp32 reference (mode_error.py)."""
        p = self._need_problem()
        seeds, atol, rtol = check_mod.validate(req, "mode_error")
        return mode_error_mod.mode_error(p, req.get("mode"), seeds, atol, rtol)

    def release(self, req: dict) -> dict:
        """Hands the GPU memory PyTorch's caching allocator keeps for reuse back to the driver, so that
        another process (the one Nsight Compute profiles) can load the problem beside this worker. A
        softmax of 4096 x 393216 fp32 left 132.6 GiB of the H200's 139.8 cached after its timings."""
        if self.dev != "cuda":
            return {"released_bytes": 0, "reserved_bytes": 0}
        before = torch.cuda.memory_reserved()
        gc.collect()
        torch.cuda.empty_cache()
        after = torch.cuda.memory_reserved()
        return {"released_bytes": before - after, "reserved_bytes": after}

    def shutdown(self, req: dict) -> dict:
        self.exit_code = 0
        return {}
