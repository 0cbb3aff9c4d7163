"""What a candidate must leave as it found it (integrity.py, gpu_state.py, fingerprints.py, cheat_checks.py):
the snapshots name what changed and put it back; the GPU-only cheats of tests/data/cheats are caught by the
worker itself on a GPU (KERNELAGENT_TEST_DEVICE=cuda, as scripts/gpu-check runs these tests).

The whole suite of cheats runs through `kernelagent check` in tests/e2e/test_check_cheats.py.
"""

from __future__ import annotations

import random
import threading
import time
from pathlib import Path

import pytest
import torch

from conftest import gpu_only
from kernelagent_worker import cheat_checks, gpu_state, integrity
from kernelagent_worker.fingerprints import digest, same_values

CHEATS = Path(__file__).resolve().parents[1] / "data" / "cheats"


def test_a_replaced_function_is_named_and_put_back():
    real = time.perf_counter
    snap = integrity.Snapshot.take()
    time.perf_counter = lambda: 0.0
    try:
        assert integrity.settle(snap) == "time.perf_counter was replaced"
        assert time.perf_counter is real
    finally:
        time.perf_counter = real


def test_a_method_added_to_torch_tensor_is_taken_out():
    snap = integrity.Snapshot.take()
    torch.Tensor.allclose_for_me = lambda self, other: True
    assert integrity.settle(snap) == "torch.Tensor.allclose_for_me was added"
    assert not hasattr(torch.Tensor, "allclose_for_me")


def test_flags_and_random_state_are_named_and_put_back():
    was_tf32, was_precision = torch.backends.cuda.matmul.allow_tf32, torch.get_float32_matmul_precision()
    snap = integrity.Snapshot.take()
    other_precision = "medium" if was_precision != "medium" else "high"
    torch.backends.cuda.matmul.allow_tf32 = not was_tf32
    torch.set_float32_matmul_precision(other_precision)
    torch.manual_seed(123)
    random.seed(5)
    what = integrity.settle(snap)
    assert "torch.backends.cuda.matmul.allow_tf32 changed" in what
    assert f"torch.float32_matmul_precision changed from '{was_precision}' to '{other_precision}'" in what
    assert "torch CPU generator's state changed" in what and "Python random's state changed" in what
    assert torch.backends.cuda.matmul.allow_tf32 == was_tf32
    assert torch.get_float32_matmul_precision() == was_precision
    assert integrity.settle(snap) is None  # everything is as the snapshot found it again


def test_an_untouched_process_has_no_changes_even_after_torch_dynamo_is_imported():
    snap = integrity.Snapshot.take()   # imports torch._dynamo first: its import replaces torch.manual_seed
    torch.empty(3)
    assert snap.changes() == []


def test_a_running_thread_cannot_be_put_back():
    snap = integrity.Snapshot.take(rng=False)
    stop = threading.Event()
    t = threading.Thread(target=stop.wait, name="lingering", daemon=True)
    t.start()
    try:
        changes = snap.changes()
        assert [c.what for c in changes] == ["thread 'lingering' was started and is still running"]
        assert not changes[0].undoable
    finally:
        stop.set()
        t.join()


def test_pytorchs_own_compile_worker_timer_is_not_the_candidates_thread_though_a_thread_of_its_name_is():
    # Inductor's compile pool starts its idle timer whenever it is used, also while a candidate runs (seen on
    # the H200 during a Triton candidate's first call): the thread runs PyTorch's code, not the candidate's.
    from torch._inductor.compile_worker.timer import Timer

    snap = integrity.Snapshot.take(rng=False)
    timer = Timer(60.0, lambda: None)
    timer.record_call()
    stop = threading.Event()
    impostor = threading.Thread(target=stop.wait, name="subproc_worker_timer", daemon=True)
    impostor.start()
    try:
        assert timer.background_thread.is_alive()
        assert [c.what for c in snap.changes()] == ["thread 'subproc_worker_timer' was started and is still running"]
    finally:
        timer.quit()
        stop.set()
        impostor.join()


def test_the_timing_snapshot_leaves_out_what_torch_compile_changes_legitimately():
    snap = integrity.Snapshot.take(timing=True)
    real = torch.nn.Module.__setstate__
    torch.nn.Module.__setstate__ = lambda self, state: real(self, state)   # as torch.compile's first use does
    try:
        assert snap.changes() == []
    finally:
        torch.nn.Module.__setstate__ = real
    real_elapsed = torch.cuda.Event.elapsed_time
    torch.cuda.Event.elapsed_time = lambda self, end: 0.001
    assert integrity.settle(snap) == "torch.cuda.Event.elapsed_time was replaced"
    assert torch.cuda.Event.elapsed_time is real_elapsed


def test_what_changed_during_a_timing_is_put_on_its_candidate():
    results = {"eager": {"status": "ok"}, "c1": {"status": "ok", "median_us": 1.0}}
    cheat_checks.blame_timing(results, ["c1"], cheat_checks.GuardVerdict("cheat_tampering", "time.perf_counter was replaced"))
    assert results["c1"]["status"] == "cheat_tampering" and "while c1 was timed" in results["c1"]["message"]
    assert results["eager"] == {"status": "ok"}
    cheat_checks.blame_timing(results, ["c1"], cheat_checks.GuardVerdict())
    assert results["c1"]["status"] == "cheat_tampering"  # an empty verdict changes nothing


def test_digests_see_a_single_changed_or_moved_element():
    t = torch.arange(10, dtype=torch.float32)
    d = digest(t)
    assert digest(t.clone()) == d
    moved = t.clone()
    moved[[2, 3]] = moved[[3, 2]]
    changed = t.clone()
    changed[7] = -0.0 if t[7] == 0 else 0.0
    assert digest(moved) != d and digest(changed) != d
    assert digest(torch.zeros(3, dtype=torch.bool)) != digest(torch.ones(3, dtype=torch.bool))
    assert same_values(torch.tensor([float("nan"), 1.0]), torch.tensor([float("nan"), 1.0]))
    assert not same_values(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.5]))


def test_loading_the_driver_for_the_gpu_state_is_not_a_change_of_the_worker():
    # On a GPU the first guard loads libcuda; a module global rebound then would be blamed on the candidate.
    gpu_state._libcuda.cache_clear()
    snap = integrity.Snapshot.take()
    gpu_state._libcuda()
    assert snap.changes() == []


def test_no_gpu_state_is_read_on_the_cpu():
    assert gpu_state.read("cpu") == {}
    assert gpu_state.describe({}, {}) is None
    assert gpu_state.describe({"persisting_l2_limit_bytes": 0}, {"persisting_l2_limit_bytes": 4096}) == \
        "the persisting-L2 limit is 4096 bytes (was 0)"


# ---- the GPU-only cheats, caught by the worker on a GPU ---------------------------------------------------

@pytest.fixture
def cheats(fresh_worker):
    r = fresh_worker.request({"op": "load", "problem": str(CHEATS / "scaled_relu.py"), "seed": 0})
    assert r["status"] == "ok", r
    return fresh_worker


def _compile(w, name):
    return w.request({"op": "compile", "candidate": name, "path": str(CHEATS / f"{name}.py")})


@gpu_only
def test_lazy_work_on_a_side_stream_is_work_in_flight(cheats):
    assert _compile(cheats, "lazy_stream")["status"] == "ok"
    r = cheats.check("lazy_stream")
    assert r["status"] == "cheat_work_in_flight", r


@gpu_only
def test_l2_persistence_is_gpu_state_and_is_reset(cheats):
    r = _compile(cheats, "l2_persistence")
    assert r["status"] == "cheat_gpu_state", r
    # The window is set wherever the driver takes it; the context's persisting-L2 limit may stay 0 where the
    # machine does not let a process raise it (an H100 here did not), so either change names the cheat.
    assert "persisting-L2 limit" in r["message"] or "access policy window" in r["message"], r
    assert _compile(cheats, "honest")["status"] == "ok"   # the state was reset: the honest kernel is clean
    assert cheats.check("honest")["status"] == "ok"


@gpu_only
def test_a_timer_faked_only_while_timed_is_caught_in_the_timing(cheats):
    assert _compile(cheats, "timer_after_warmup")["status"] == "ok"
    assert cheats.check("timer_after_warmup")["status"] == "ok"
    r = cheats.request({"op": "time", "targets": ["eager", "timer_after_warmup"], "min_ms": 20, "warmup_ms": 5,
                        "rounds": 1, "graph_below_us": 0})
    assert r["results"]["timer_after_warmup"]["status"] == "cheat_tampering", r
    assert "torch.cuda.Event.elapsed_time was replaced" in r["results"]["timer_after_warmup"]["message"]


def test_the_gpu_state_names_what_changed_and_nothing_when_it_cannot_be_read_after():
    before = {"persisting_l2_limit_bytes": 0, "access_policy_window_bytes": 0}
    assert gpu_state.describe(before, dict(before)) is None
    left = gpu_state.describe(before, {"persisting_l2_limit_bytes": 31457280, "access_policy_window_bytes": 0})
    assert left == "the persisting-L2 limit is 31457280 bytes (was 0)"
    # Unreadable after (a poisoned context): no change is claimed, and no key is missing.
    assert gpu_state.describe(before, {}) is None
    assert gpu_state.describe(before, {"persisting_l2_limit_bytes": 0}) is None
