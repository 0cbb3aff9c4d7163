"""How far the reference run in one fp32 mode lands from the IEEE fp32 reference.

PyTorch runs fp32 convolutions on TF32 tensor cores by default (cudnn.allow_tf32), so its default eager and
torch.compile are not fp32-accurate; a strict run reports them beside the accuracy-matched baselines, with
this error, so that what the default costs in accuracy is seen next to what it gains in time.

Example: mode_error(problem, "default", [1, 2], 1e-4, 1e-4)
-> {"mode": "default", "max_abs_err": 0.0031, "max_rel_err": 0.9, "within_tolerance": False, "seeds_checked": 2}
"""

from __future__ import annotations

import torch

from . import device as device_mod
from .check import compare
from .errors import WorkerError
from .problem import Problem, as_tensor_list


def _forward(problem: Problem, mode: str, inputs: list, seed: int) -> list:
    torch.manual_seed(seed)
    with device_mod.fp32_mode(mode):
        out = as_tensor_list(problem.model(*inputs))
        device_mod.synchronize(problem.device)
    return out or []


def mode_error(problem: Problem, mode: str, seeds: list, atol: float, rtol: float) -> dict:
    if mode not in ("default", *device_mod.MODES):
        raise WorkerError("bad_request", f"mode_error needs \"mode\": default or one of {sorted(device_mod.MODES)}")
    errs = {"max_abs_err": 0.0, "max_rel_err": 0.0}
    within = True
    for seed in seeds:
        inputs = problem.make_inputs(seed)
        # The state the problem's module holds (BatchNorm's running statistics) is the same for both runs.
        state = {k: v.clone() for k, v in problem.model.state_dict().items()}
        exact = _forward(problem, "ieee", inputs, seed)
        problem.model.load_state_dict(state)
        other = _forward(problem, mode, inputs, seed)
        for k, (o, e) in enumerate(zip(other, exact)):
            if compare(k, o, e, atol, rtol, errs) is not None:
                within = False
    return {"mode": mode, "settings": device_mod.mode_settings(mode), **errs, "within_tolerance": within,
            "seeds_checked": len(seeds)}
