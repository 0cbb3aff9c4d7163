"""Loading a KernelBench problem file: `Model`, `get_inputs()`, `get_init_inputs()`.

Everything is built under `torch.manual_seed(seed)` with the worker's device as the default device, in the
order KernelBench's own harness uses (seed, init inputs; seed, Model; seed, inputs), so a candidate's
`ModelNew` built under the same seed draws the same initial parameters.

Example: load("/p/19_ReLU.py", seed=0, device="cuda") -> Problem with model, inputs and a description.
"""

from __future__ import annotations

import importlib.util
import itertools
import os
import sys
from dataclasses import dataclass, field
from typing import Any

import torch

from . import device as device_mod
from .errors import WorkerError, classify, describe

REQUIRED = ("Model", "get_inputs", "get_init_inputs")
SHAPE_HINT = "a KernelBench problem defines Model, get_inputs and get_init_inputs"

_counter = itertools.count()
PRECISIONS = ("strict", "tf32")


def reference_mode(precision: str | None) -> str:
    """The fp32 mode (device.MODES) the reference runs in for correctness: IEEE fp32 under a policy, so that a
    candidate is never checked against PyTorch's TF32 convolutions; PyTorch's own settings without one."""
    return "default" if precision is None else "ieee"


def baseline_mode(precision: str | None) -> str:
    """The fp32 mode of the eager and compile baselines: accuracy-matched under strict, TF32 allowed
    everywhere under tf32, PyTorch's own settings without a policy."""
    return {"strict": "ieee", "tf32": "tf32"}.get(precision, "default")


@dataclass
class Problem:
    path: str
    seed: int
    device: str
    module: Any
    model: torch.nn.Module
    init_inputs: list
    inputs: list
    input_desc: list = field(default_factory=list)
    output_desc: list = field(default_factory=list)
    compile_error: str | None = None
    # The value every element of a parameter or buffer held when Model was built, for those that held one
    # (BatchNorm's ones and zeros): a kernel's ModelNew starts from it (see trace.py).
    init_fill: dict = field(default_factory=dict)
    # The engine's precision policy ("strict" or "tf32"), None when the load did not give one.
    precision: str | None = None
    compiled_by_mode: dict = field(default_factory=dict)   # fp32 mode -> torch.compile(model), built by `time`

    @property
    def reference_mode(self) -> str:
        return reference_mode(self.precision)

    @property
    def baseline_mode(self) -> str:
        return baseline_mode(self.precision)

    def make_inputs(self, seed: int) -> list:
        """Fresh inputs from get_inputs() under torch.manual_seed(seed), on the device."""
        return build_inputs(self.module, seed, self.device, self.path)


def dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def describe_value(v: Any) -> dict:
    if isinstance(v, torch.Tensor):
        return {"kind": "tensor", "shape": list(v.shape), "dtype": dtype_name(v.dtype)}
    return {"kind": "scalar", "value": v}


def as_tensor_list(out: Any) -> list[torch.Tensor] | None:
    """The outputs of a forward as a list of tensors, or None when it is not a tensor or tuple/list of them."""
    if isinstance(out, torch.Tensor):
        return [out]
    if isinstance(out, (tuple, list)) and len(out) > 0 and all(isinstance(o, torch.Tensor) for o in out):
        return list(out)
    return None


def clone_keeping_strides(x: torch.Tensor) -> torch.Tensor:
    """A copy of x with x's sizes and strides. Tensor.clone keeps the strides of a dense tensor only: an
    expanded one (stride 0, `randn(1, 512).expand(64, 512)`) would come back contiguous, and a kernel
    specialised for the problem's strides would refuse it. Such a tensor is copied as the stretch of memory
    its view spans, and viewed again."""
    c = x.clone()
    if c.stride() == x.stride() or x.numel() == 0:
        return c
    span = 1 + sum((size - 1) * stride for size, stride in zip(x.shape, x.stride()))
    memory = x.as_strided((span,), (1,), x.storage_offset()).clone()
    return memory.as_strided(x.shape, x.stride(), 0)


def clone_inputs(inputs: list) -> list:
    """A private copy of the inputs: tensors cloned (strides kept), other values passed through."""
    return [clone_keeping_strides(x) if isinstance(x, torch.Tensor) else x for x in inputs]


def uniform_values(model: torch.nn.Module) -> dict:
    """state_dict name -> the one value all its elements hold, for the parameters and buffers that hold one."""
    out = {}
    for name, t in model.state_dict(keep_vars=True).items():
        # A tensor on the meta device (a trace of shapes only) has no values to compare.
        if isinstance(t, torch.Tensor) and t.numel() > 0 and not t.is_complex() and not t.is_meta:
            first = t.detach().reshape(-1)[0]
            if bool((t.detach() == first).all()):
                out[name] = first.item()
    return out


def _json_init(v: Any) -> Any:
    if isinstance(v, torch.Tensor):
        return describe_value(v)
    if isinstance(v, (list, tuple)):
        return [_json_init(x) for x in v]
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    return repr(v)


def _fail(path: str, what: str, exc: BaseException, todo: str) -> WorkerError:
    found = classify(exc)
    if found and found[0] == "out_of_memory":
        return WorkerError("out_of_memory", f"problem file {path}: {what} ran out of memory ({describe(exc)}): "
                                            "use smaller shapes or a device with more memory")
    if found and found[0] == "cuda_error":
        return WorkerError("cuda_error", f"problem file {path}: {what} raised {describe(exc)}", sticky=found[1])
    return WorkerError("bad_problem", f"problem file {path}: {what} raised {describe(exc)}: {todo}")


def import_file(path: str, prefix: str):
    """Import a Python file under a fresh module name (Triton needs the real file for its source)."""
    name = f"{prefix}_{next(_counter)}"
    spec = importlib.util.spec_from_file_location(name, path)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def _is_unicode_text(s: str) -> bool:
    """False for a str that cannot be written as UTF-8 (lone surrogates such as "\\ud800"): the engine reads
    replies as UTF-8 JSON and writes the value into the kernel file's guard."""
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def build_inputs(module, seed: int, dev: str, path: str) -> list:
    try:
        torch.manual_seed(seed)
        with torch.device(dev):
            raw = module.get_inputs()
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        raise _fail(path, "get_inputs()", e, "fix get_inputs so that it returns the forward's arguments") from e
    if not isinstance(raw, (list, tuple)):
        raise WorkerError("bad_problem", f"problem file {path}: get_inputs() returned a {type(raw).__name__}; "
                                         "it must return a list of the forward's arguments")
    inputs = []
    for i, x in enumerate(raw):
        if isinstance(x, torch.Tensor):
            inputs.append(x if x.device.type == dev else x.to(dev))
        elif isinstance(x, str) and not _is_unicode_text(x):
            raise WorkerError("bad_problem", f"problem file {path}: get_inputs()[{i}] is a string that is not valid "
                                             "Unicode text (it holds a lone surrogate); pass a plain string")
        elif x is None or isinstance(x, (bool, int, float, str)):
            inputs.append(x)
        else:
            raise WorkerError("bad_problem", f"problem file {path}: get_inputs()[{i}] is a {type(x).__name__}; "
                                             "inputs must be tensors or numbers")
    return inputs


def _no_note(phase: str, **fields) -> None:
    pass


def load(path: str, seed: int, dev: str, note=_no_note, precision: str | None = None) -> Problem:
    """The problem, loaded; `note(phase)` is called as each phase starts (import, init_inputs, model, inputs,
    reference), so that a problem that hangs or ends the process is caught in a named phase. Its one reference
    run is in the reference's fp32 mode for `precision` (Problem.reference_mode)."""
    if not isinstance(path, str) or not path:
        raise WorkerError("bad_request", "load needs \"problem\": the absolute path of a problem file")
    if os.path.isdir(path):
        raise WorkerError("bad_problem", f"problem file {path} is a directory: pass the path of a KernelBench "
                                         f"problem file ({SHAPE_HINT})")
    if not os.path.isfile(path):
        raise WorkerError("bad_problem", f"problem file {path} does not exist: pass the path of a KernelBench "
                                         f"problem file ({SHAPE_HINT})")
    note("import")
    try:
        module = import_file(path, "kernelagent_problem")
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        raise _fail(path, "import", e, "fix the file so that it imports") from e
    for name in REQUIRED:
        if not hasattr(module, name):
            call = "" if name == "Model" else "()"
            raise WorkerError("bad_problem", f"problem file {path} has no {name}{call}: {SHAPE_HINT}")
    if not (isinstance(module.Model, type) and issubclass(module.Model, torch.nn.Module)):
        raise WorkerError("bad_problem", f"problem file {path}: Model is not a torch.nn.Module subclass: {SHAPE_HINT}")

    note("init_inputs")
    try:
        torch.manual_seed(seed)
        with torch.device(dev):
            init_inputs = list(module.get_init_inputs())
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        raise _fail(path, "get_init_inputs()", e, "fix get_init_inputs so that it returns Model's arguments") from e
    note("model")
    try:
        torch.manual_seed(seed)
        with torch.device(dev):
            model = module.Model(*init_inputs)
        model = model.to(dev)
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        raise _fail(path, "Model(*get_init_inputs())", e, "fix Model's constructor or get_init_inputs") from e
    note("inputs")
    inputs = build_inputs(module, seed, dev, path)
    init_fill = uniform_values(model)

    note("reference")
    try:
        torch.manual_seed(seed)
        with device_mod.fp32_mode(reference_mode(precision)):
            out = model(*clone_inputs(inputs))
            device_mod.synchronize(dev)
    except KeyboardInterrupt:
        raise
    except BaseException as e:
        raise _fail(path, "Model.forward", e, "fix forward or get_inputs") from e
    outs = as_tensor_list(out)
    if outs is None:
        raise WorkerError("bad_problem", f"problem file {path}: Model.forward returned a {type(out).__name__}; "
                                         "it must return a tensor or a tuple/list of tensors")
    return Problem(path=path, seed=seed, device=dev, module=module, model=model, init_inputs=init_inputs,
                   inputs=inputs, input_desc=[describe_value(x) for x in inputs],
                   output_desc=[describe_value(o) for o in outs], init_fill=init_fill, precision=precision)


def load_reply(p: Problem) -> dict:
    return {"inputs": p.input_desc, "outputs": p.output_desc, "init_inputs": [_json_init(v) for v in p.init_inputs]}
