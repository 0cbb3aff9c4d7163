"""The channel itself: hello, bad requests, shutdown, end of input, stdout noise kept off the channel."""

import json

from conftest import DEVICE, WorkerProc, problem


def test_hello(worker):
    h = worker.hello
    assert h["id"] == 0 and h["status"] == "ok" and h["op"] == "hello"
    assert h["device"] == DEVICE
    assert set(h["versions"]) == {"python", "torch", "triton", "cuda"}
    assert h["versions"]["triton"]
    assert h["reference_precision"]["fp32_matmul"] in ("highest", "high", "medium")
    if DEVICE == "cpu":
        assert h["interpret"] is True
        assert h["gpu"] is None
    else:
        assert h["interpret"] is False
        gpu = h["gpu"]
        for key in ("name", "sm_count", "cc_major", "cc_minor", "l2_bytes", "total_memory_bytes",
                    "max_shared_per_block_optin", "regs_per_sm"):
            assert gpu[key] is not None, key
        assert gpu["sm_count"] > 0 and gpu["l2_bytes"] > 0


def test_unknown_op_is_bad_request(worker):
    r = worker.request({"op": "frobnicate"})
    assert r["status"] == "bad_request"
    assert "frobnicate" in r["message"]


def test_request_not_json_is_bad_request_with_null_id(worker):
    worker.send_line("this is not json")
    r = worker.read()
    assert r == {"id": None, "status": "bad_request", "message": r["message"]}
    worker.send_line("[1, 2]")
    assert worker.read()["status"] == "bad_request"


def test_blank_lines_are_ignored(worker):
    worker.send_line("")
    r = worker.request({"op": "nope"})
    assert r["status"] == "bad_request"


def test_ops_before_load_are_bad_requests(fresh_worker):
    for op in ("trace", "check"):
        r = fresh_worker.request({"op": op, "candidate": "c1", "seeds": [1], "atol": 0, "rtol": 0})
        assert r["status"] == "bad_request", r
        assert "load" in r["message"]
    r = fresh_worker.request({"op": "compile", "candidate": "c1", "path": "/nonexistent.py"})
    assert r["status"] == "bad_request"


def test_prints_and_fd1_writes_do_not_reach_the_channel(worker):
    # relu.py prints at import and in forward; noisy_fd.py writes bytes straight to file descriptor 1.
    assert worker.load("relu")["status"] == "ok"
    assert worker.load("noisy_fd")["status"] == "ok"
    assert worker.request({"op": "trace"})["status"] == "ok"
    assert worker.request({"op": "nope"})["status"] == "bad_request"   # the next line is still a reply


def test_reply_is_one_json_line_per_request(worker):
    ids = []
    for _ in range(3):
        ids.append(worker.request({"op": "nope"})["id"])
    assert ids == sorted(ids) and len(set(ids)) == 3


def test_release_answers_and_keeps_the_problem_loaded(worker):
    assert worker.request({"op": "load", "problem": problem("relu"), "seed": 0})["status"] == "ok"
    r = worker.request({"op": "release"})
    assert r["status"] == "ok"
    assert r["released_bytes"] >= 0 and r["reserved_bytes"] >= 0
    assert worker.request({"op": "trace"})["status"] == "ok"     # the problem is still there


def test_shutdown_exits_zero(fresh_worker):
    r = fresh_worker.request({"op": "shutdown"})
    assert r["status"] == "ok"
    assert fresh_worker.read() is None
    assert fresh_worker.wait() == 0


def test_end_of_input_exits_zero():
    w = WorkerProc()
    try:
        w.proc.stdin.close()
        assert w.read() is None
        assert w.wait() == 0
    finally:
        w.close()


def test_non_finite_numbers_are_strings():
    from kernelagent_worker.protocol import encode

    line = encode({"id": 1, "status": "ok", "a": float("inf"), "b": [float("-inf"), float("nan")], "c": 1.5})
    assert json.loads(line) == {"id": 1, "status": "ok", "a": "inf", "b": ["-inf", "nan"], "c": 1.5}


def _notes_then_reply(w, req: dict) -> tuple[list, dict]:
    """Sends `req` with progress notes asked for; the notes' (phase, seed) in order, and the reply."""
    w.send_line(json.dumps({**req, "progress": True}))
    notes = []
    while True:
        r = w.read()
        assert r is not None and r["id"] == req["id"], r
        if r["status"] != "progress":
            return notes, r
        notes.append((r["phase"], r.get("seed")))


def test_progress_notes_name_each_phase_before_the_one_reply(worker):
    notes, reply = _notes_then_reply(worker, {"id": 901, "op": "load", "problem": problem("relu"), "seed": 0})
    assert reply["status"] == "ok"
    assert notes == [("import", None), ("init_inputs", None), ("model", None), ("inputs", None), ("reference", None)]
    assert worker.compile("relu_ok", "noted")["status"] == "ok"
    notes, reply = _notes_then_reply(worker, {"id": 902, "op": "check", "candidate": "noted", "seeds": [1, 2],
                                              "atol": 1e-4, "rtol": 1e-4})
    assert reply["status"] == "ok"
    assert notes == [("candidate", 1), ("reference", 1), ("candidate", 2), ("reference", 2)]
    # Without "progress", exactly one line per request, as before.
    assert worker.check("noted")["status"] == "ok"
    assert worker.request({"op": "release"})["status"] == "ok"
