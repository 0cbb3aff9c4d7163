"""What the engine has to handle: a sticky CUDA error (reply, then exit 3), a crash (no reply, the process
ends) and a hang (no reply; the engine kills the process group)."""

import os
import signal

import pytest

from conftest import gpu_only


def test_sticky_cuda_error_replies_then_exits_3(fresh_worker):
    w = fresh_worker
    assert w.load("relu")["status"] == "ok"
    assert w.compile("sticky")["status"] == "ok"          # the first call works
    r = w.check("sticky")                                 # later calls raise "CUDA error: an illegal memory access"
    assert r["status"] == "cuda_error", r
    assert r["sticky"] is True
    assert "illegal memory access" in r["message"]
    assert w.read() is None                               # nothing more on the channel
    assert w.wait() == 3


@gpu_only
def test_real_illegal_memory_access(fresh_worker):
    w = fresh_worker
    assert w.load("relu")["status"] == "ok"
    assert w.compile("gpu_illegal_access")["status"] == "ok"
    r = w.check("gpu_illegal_access")
    assert r["status"] == "cuda_error" and r["sticky"] is True, r
    assert w.read() is None
    assert w.wait() == 3


def test_crash_ends_the_process_without_a_reply(fresh_worker):
    w = fresh_worker
    assert w.load("relu")["status"] == "ok"
    w.send_line('{"id": 41, "op": "compile", "candidate": "boom", "path": "%s"}'
                % os.path.join(os.path.dirname(__file__), "candidates", "crash.py"))
    assert w.read() is None                               # end of file on the reply pipe
    assert w.wait() == 7                                  # the candidate's exit code


def test_hang_gets_no_reply_and_is_killed(fresh_worker):
    w = fresh_worker
    assert w.load("relu")["status"] == "ok"
    w.send_line('{"id": 42, "op": "compile", "candidate": "stuck", "path": "%s"}'
                % os.path.join(os.path.dirname(__file__), "candidates", "hang.py"))
    with pytest.raises(TimeoutError):
        w.read(timeout=3.0)
    assert w.proc.poll() is None                          # still running, still silent
    os.killpg(w.proc.pid, signal.SIGKILL)                 # what the engine does: kill the process group
    assert w.wait() == -signal.SIGKILL
