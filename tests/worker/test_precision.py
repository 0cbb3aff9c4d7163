"""The fp32 modes the worker runs PyTorch in: the reference in IEEE fp32 under a policy, the baselines in
the policy's mode, PyTorch's defaults beside them, and the defaults' error against the IEEE reference."""

import pytest
import torch

from conftest import DEVICE, gpu_only, problem
from kernelagent_worker import device as device_mod
from kernelagent_worker import problem as problem_mod


def settings():
    return {"fp32_matmul": torch.get_float32_matmul_precision(), "cudnn_allow_tf32": torch.backends.cudnn.allow_tf32}


def test_a_mode_holds_inside_its_block_and_the_settings_found_come_back():
    before = settings()
    with device_mod.fp32_mode("ieee"):
        assert settings() == {"fp32_matmul": "highest", "cudnn_allow_tf32": False}
        with device_mod.fp32_mode("tf32"):
            assert settings() == {"fp32_matmul": "high", "cudnn_allow_tf32": True}
        assert settings() == {"fp32_matmul": "highest", "cudnn_allow_tf32": False}
    assert settings() == before
    with pytest.raises(RuntimeError), device_mod.fp32_mode("tf32"):
        raise RuntimeError("a forward that raises")
    assert settings() == before
    with device_mod.fp32_mode("default"):
        assert settings() == device_mod.reference_precision()


def test_each_policy_has_its_reference_and_baseline_mode():
    assert [problem_mod.reference_mode(p) for p in (None, "strict", "tf32")] == ["default", "ieee", "ieee"]
    assert [problem_mod.baseline_mode(p) for p in (None, "strict", "tf32")] == ["default", "ieee", "tf32"]


def test_a_load_with_an_unknown_precision_is_refused(worker):
    r = worker.request({"op": "load", "problem": problem("relu"), "seed": 0, "precision": "fast"})
    assert r["status"] == "bad_request" and "precision" in r["message"] and "fast" in r["message"]


def test_the_defaults_error_against_the_ieee_reference(worker):
    assert worker.request({"op": "load", "problem": problem("conv_wide"), "seed": 0, "precision": "strict"})["status"] == "ok"
    r = worker.request({"op": "mode_error", "mode": "default", "seeds": [1, 2], "atol": 1e-4, "rtol": 1e-4})
    assert r["status"] == "ok", r
    assert r["mode"] == "default" and r["seeds_checked"] == 2
    assert r["settings"] == worker.hello["reference_precision"]
    if DEVICE == "cpu" or not worker.hello["reference_precision"]["cudnn_allow_tf32"]:
        # No TF32 here: the defaults are the IEEE reference.
        assert r["max_abs_err"] == 0.0 and r["within_tolerance"] is True
    else:
        # cuDNN's TF32 convolution, over 576 products a sum: far beyond 1e-4.
        assert r["max_abs_err"] > 1e-4 and r["within_tolerance"] is False
    ieee = worker.request({"op": "mode_error", "mode": "ieee", "seeds": [1], "atol": 1e-4, "rtol": 1e-4})
    assert ieee["status"] == "ok" and ieee["within_tolerance"] is True
    bad = worker.request({"op": "mode_error", "mode": "bf16", "seeds": [1], "atol": 1e-4, "rtol": 1e-4})
    assert bad["status"] == "bad_request" and "mode" in bad["message"]
    bad = worker.request({"op": "mode_error", "mode": "default", "seeds": [], "atol": 1e-4, "rtol": 1e-4})
    assert bad["status"] == "bad_request" and "mode_error needs" in bad["message"]


@gpu_only
def test_the_baselines_are_timed_in_the_policys_mode_and_the_defaults_in_pytorchs(worker):
    assert worker.request({"op": "load", "problem": problem("conv_wide"), "seed": 0, "precision": "strict"})["status"] == "ok"
    r = worker.request({"op": "time", "targets": ["eager", "compile", "eager_default", "compile_default"],
                        "min_ms": 5, "warmup_ms": 2, "rounds": 2, "graph_below_us": 0})
    assert r["status"] == "ok", r
    assert all(r["results"][t]["status"] == "ok" for t in r["results"]), r
    assert r["modes"]["eager"] == {"mode": "ieee", "fp32_matmul": "highest", "cudnn_allow_tf32": False}
    assert r["modes"]["compile"]["mode"] == "ieee"
    assert r["modes"]["eager_default"] == {"mode": "default", **worker.hello["reference_precision"]}
