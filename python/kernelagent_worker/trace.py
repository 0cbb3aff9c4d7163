"""The reference's aten op graph (make_fx), its FLOPs and its compulsory bytes.

The graph is traced over a function of the tensor inputs only; non-tensor inputs are bound in a closure,
so they appear as literal values in the nodes' arguments. Node arguments are normalised to the op's schema:
every positional argument is in `args` and every keyword-only argument in `kwargs`, defaults filled in, so
`F.leaky_relu(x)` reads `aten.leaky_relu.default(in0, 0.01)` whether or not the slope was written.

Example: torch.relu(x) -> {"inputs": [in0], "nodes": [n0 = aten.relu.default(in0)], "outputs": [n0]}.
"""

from __future__ import annotations

import functools
import math
import operator
from typing import Any

import torch
from torch.fx.experimental.proxy_tensor import make_fx
from torch.utils.flop_counter import FlopCounterMode

from .problem import as_tensor_list, clone_inputs, dtype_name


def _value(v: Any) -> Any:
    """A literal argument as JSON: numbers, bools, strings, null; dtypes/devices/layouts as strings."""
    if v is None or isinstance(v, (bool, int, str)):
        return v
    if isinstance(v, float):
        return v if math.isfinite(v) else ("nan" if math.isnan(v) else ("inf" if v > 0 else "-inf"))
    if isinstance(v, torch.dtype):
        return dtype_name(v)
    return str(v)


def _arg(a: Any, names: dict) -> dict:
    if isinstance(a, torch.fx.Node):
        return {"ref": names[a]}
    if isinstance(a, (list, tuple)):
        return {"list": [_arg(x, names) for x in a]}
    return {"value": _value(a)}


def _normalize(target, args: tuple, kwargs: dict) -> tuple[list, dict]:
    """args/kwargs completed from the op's schema (positional ones in args, keyword-only ones in kwargs)."""
    schema = getattr(target, "_schema", None)
    if schema is None:
        return list(args), dict(kwargs)
    out_args, out_kwargs = [], {}
    pos = 0
    for a in schema.arguments:
        if a.kwarg_only:
            if a.name in kwargs:
                out_kwargs[a.name] = kwargs[a.name]
            elif a.has_default_value():
                out_kwargs[a.name] = a.default_value
            continue
        if pos < len(args):
            out_args.append(args[pos])
        elif a.name in kwargs:
            out_args.append(kwargs[a.name])
        elif a.has_default_value():
            out_args.append(a.default_value)
        else:  # pragma: no cover - a traced call always has its required arguments
            break
        pos += 1
    return out_args, out_kwargs


def _target_name(target) -> str:
    if isinstance(target, torch._ops.OpOverload):
        return str(target)                      # e.g. "aten.relu.default"
    if target is operator.getitem:
        return "getitem"
    return getattr(target, "__name__", str(target))


def _meta(node: torch.fx.Node) -> tuple[list | None, str | None]:
    val = node.meta.get("val")
    if isinstance(val, torch.Tensor):
        return list(val.shape), dtype_name(val.dtype)
    return None, None


def _declared_state(model: torch.nn.Module) -> dict:
    """state_dict name -> ("parameter" or "buffer", tensor), in state_dict order (persistent buffers only)."""
    params = {name for name, _ in model.named_parameters()}
    return {name: ("parameter" if name in params else "buffer", t)
            for name, t in model.state_dict(keep_vars=True).items()}


def _state_names(model: torch.nn.Module) -> dict:
    """id(tensor) -> (state_dict name, "parameter" or "buffer") for the model's parameters and buffers."""
    names = {}
    for name, t in model.named_buffers(remove_duplicate=False):
        names.setdefault(id(t), (name, "buffer"))
    for name, t in model.named_parameters(remove_duplicate=False):
        names.setdefault(id(t), (name, "parameter"))
    return names


def graph_of(model: torch.nn.Module, inputs: list, init_fill: dict | None = None) -> dict:
    """The JSON graph of model(*inputs) (see docs/protocol.md, `trace`). A tensor the graph reads from the
    model is a constant; a parameter or buffer keeps its state_dict name ("param") and kind, and, from
    `init_fill`, the value all its elements held when the model was built ("fill")."""
    tensor_pos = [i for i, x in enumerate(inputs) if isinstance(x, torch.Tensor)]

    def fn(*tensors):
        args = list(inputs)
        for i, t in zip(tensor_pos, tensors):
            args[i] = t
        return model(*args)

    tensors = [inputs[i].clone() for i in tensor_pos]
    gm = make_fx(fn, tracing_mode="real")(*tensors)

    g_inputs = []
    for i, x in enumerate(inputs):
        if isinstance(x, torch.Tensor):
            g_inputs.append({"name": f"in{i}", "kind": "tensor", "shape": list(x.shape), "dtype": dtype_name(x.dtype),
                             "stride": list(x.stride())})
        else:
            g_inputs.append({"name": f"in{i}", "kind": "scalar", "value": _value(x)})

    names: dict = {}
    state = _state_names(model)
    constants, nodes, outputs = [], [], []
    placeholders = iter(tensor_pos)
    for node in gm.graph.nodes:
        if node.op == "placeholder":
            names[node] = f"in{next(placeholders)}"
        elif node.op == "get_attr":
            t = functools.reduce(getattr, node.target.split("."), gm)
            name = f"c{len(constants)}"
            names[node] = name
            c = {"name": name, "shape": list(t.shape), "dtype": dtype_name(t.dtype), "kind": "constant"}
            # A 0-d constant's value, where there is one: a shapes-only (--meta) trace has none to read
            # (BatchNorm's num_batches_tracked), and the kernels read model state from the model anyway.
            if isinstance(t, torch.Tensor) and t.dim() == 0 and not t.is_meta:
                c["value"] = _value(t.item())
            if id(t) in state:
                c["param"], c["kind"] = state[id(t)]
                if init_fill and c["param"] in init_fill:
                    c["fill"] = _value(init_fill[c["param"]])
            constants.append(c)
        elif node.op == "call_function":
            name = f"n{len(nodes)}"
            names[node] = name
            args, kwargs = _normalize(node.target, node.args, node.kwargs)
            shape, dtype = _meta(node)
            nodes.append({"name": name, "target": _target_name(node.target),
                          "args": [_arg(a, names) for a in args],
                          "kwargs": {k: _arg(v, names) for k, v in kwargs.items()},
                          "shape": shape, "dtype": dtype})
        elif node.op == "output":
            outputs = [_arg(a, names) for a in torch.utils._pytree.tree_leaves(node.args[0])]
        else:  # call_module / call_method do not occur in make_fx graphs
            raise RuntimeError(f"unexpected fx node {node.op} {node.target}")
    # Every parameter and buffer the model declares, read by the graph or not (BatchNorm's counter in
    # evaluation mode): ModelNew owns them all, so that Model's state_dict loads into it whole.
    state = [{"param": name, "kind": kind, "shape": list(t.shape), "dtype": str(t.dtype).removeprefix("torch.")}
             for name, (kind, t) in _declared_state(model).items()]
    return {"inputs": g_inputs, "constants": constants, "nodes": nodes, "outputs": outputs, "state": state}


def _distinct_bytes(tensors: list[torch.Tensor]) -> int:
    """Bytes of the distinct storages behind `tensors`, each counted once (at most its storage's size)."""
    per_storage: dict = {}
    for t in tensors:
        # Meta tensors (a trace of shapes only) all report address 0: a view's base stands for its storage.
        key = (t.device, id(t._base if t._base is not None else t)) if t.is_meta else (t.device, t.untyped_storage().data_ptr())
        n = t.numel() * t.element_size()
        cap = t.untyped_storage().nbytes()
        seen = per_storage.get(key, (0, cap, set()))
        ident = (t.storage_offset(), tuple(t.shape), tuple(t.stride()), t.dtype)
        if ident not in seen[2]:
            seen[2].add(ident)
            per_storage[key] = (seen[0] + n, cap, seen[2])
    return sum(min(total, cap) for total, cap, _ in per_storage.values())


def trace(model: torch.nn.Module, inputs: list, init_fill: dict | None = None) -> dict:
    """The `trace` reply's payload: flops, input_bytes, output_bytes, graph."""
    graph = graph_of(model, inputs, init_fill)
    with FlopCounterMode(display=False) as counter:
        out = model(*clone_inputs(inputs))
    outs = as_tensor_list(out) or []
    # The parameters and buffers the graph reads are inputs too (a LayerNorm's weight and bias).
    by_name = dict(model.state_dict(keep_vars=True))
    held = [by_name[c["param"]] for c in graph["constants"] if c.get("param") in by_name]
    return {
        "flops": int(counter.get_total_flops()),
        "input_bytes": _distinct_bytes([x for x in inputs if isinstance(x, torch.Tensor)] + held),
        "output_bytes": _distinct_bytes(outs),
        "graph": graph,
    }
