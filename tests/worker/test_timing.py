"""time: no_gpu on the CPU; the harness's sampling rules; real timings on a GPU."""

import pytest

from conftest import cpu_only, gpu_only
from kernelagent_worker import timing

TIME = {"op": "time", "targets": ["eager", "compile", "c1"], "min_ms": 20, "warmup_ms": 5, "rounds": 2,
        "graph_below_us": 50}


@cpu_only
def test_time_answers_no_gpu_on_cpu(worker):
    assert worker.load("relu")["status"] == "ok"
    r = worker.request(TIME)
    assert r["status"] == "no_gpu"
    assert "CUDA" in r["message"]


def test_collect_takes_budget_and_min_reps():
    got = []
    timing.collect(lambda: 3.0, budget_ms=10.0, min_reps=2, into=got)
    assert got == [3.0] * 4                     # 4 x 3 ms >= 10 ms
    got = []
    timing.collect(lambda: 30.0, budget_ms=10.0, min_reps=5, into=got)
    assert len(got) == 5                        # at least min_reps even when one sample exceeds the budget


def test_collect_stops_on_wall_guard_for_zero_length_samples():
    got = []
    timing.collect(lambda: 0.0, budget_ms=1.0, min_reps=5, into=got)
    assert len(got) >= 5                        # ends: 10 x 1 ms of wall time


def test_summary():
    s = timing.summary([1.0, 2.0, 3.0, 4.0, 5.0], "events")
    assert s == {"status": "ok", "median_us": 3000.0, "p10_us": pytest.approx(1400.0),
                 "p90_us": pytest.approx(4600.0), "reps": 5, "method": "events"}


@gpu_only
def test_time_on_gpu(worker):
    assert worker.load("two_outputs")["status"] == "ok"
    assert worker.compile("two_outputs_ok", "c1")["status"] == "ok"
    r = worker.request({**TIME, "targets": ["eager", "compile", "c1", "nope"]})
    assert r["status"] == "ok", r
    res = r["results"]
    assert list(res) == ["eager", "compile", "c1", "nope"]
    for t in ("eager", "compile", "c1"):
        assert res[t]["status"] == "ok", res[t]
        assert res[t]["reps"] >= 5
        assert res[t]["p10_us"] <= res[t]["median_us"] <= res[t]["p90_us"]
        # tiny kernels: all timed by graph replay, torch.compile too (its Python overhead alone can keep its
        # event median above the threshold)
        assert res[t]["method"] == "cuda_graph", res[t]
    assert res["nope"]["status"] == "bad_request"


@gpu_only
def test_time_big_problem_uses_events(worker):
    assert worker.load("relu_big")["status"] == "ok"
    assert worker.compile("relu_ok", "c1")["status"] == "ok"
    r = worker.request({**TIME, "min_ms": 50})
    assert r["status"] == "ok", r
    for t in ("eager", "compile", "c1"):
        res = r["results"][t]
        assert res["status"] == "ok" and res["method"] == "events", res
        # 256 MiB moved: at most ~4.8 TB/s, so at least ~55 us; and not absurdly slow
        assert 50 < res["median_us"] < 2000, res


@gpu_only
def test_time_failing_target_does_not_stop_the_others(worker):
    assert worker.load("relu")["status"] == "ok"
    assert worker.compile("raises_later", "bad")["status"] == "ok"
    r = worker.request({**TIME, "targets": ["bad", "eager"]})
    assert r["status"] == "ok", r
    assert r["results"]["bad"]["status"] == "runtime_error"
    assert "candidate bug on a later call" in r["results"]["bad"]["message"]
    assert r["results"]["eager"]["status"] == "ok"


@gpu_only
def test_time_sticky_error_replies_then_exits_3(fresh_worker):
    w = fresh_worker
    assert w.load("relu")["status"] == "ok"
    assert w.compile("sticky")["status"] == "ok"
    r = w.request({**TIME, "targets": ["eager", "sticky"]})
    assert r["status"] == "cuda_error" and r["sticky"] is True, r
    assert r["results"]["sticky"]["status"] == "cuda_error"
    assert w.read() is None
    assert w.wait() == 3
