"""Drives the real worker (`python -m kernelagent_worker`) as a subprocess over its pipes.

Paths come from this file's location, so the tests do not depend on the working directory. By default the
worker runs on the CPU with Triton's interpreter; KERNELAGENT_TEST_DEVICE=cuda runs the same tests on a GPU.
"""

from __future__ import annotations

import itertools
import json
import os
import queue
import signal
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
PYTHON_DIR = REPO / "python"
PROBLEMS = HERE / "problems"
CANDIDATES = HERE / "candidates"
DEVICE = os.environ.get("KERNELAGENT_TEST_DEVICE", "cpu")

if str(PYTHON_DIR) not in sys.path:          # for the direct unit tests of the worker's modules
    sys.path.insert(0, str(PYTHON_DIR))

START_TIMEOUT = 180.0
REPLY_TIMEOUT = 180.0

gpu_only = pytest.mark.skipif(DEVICE != "cuda", reason="needs KERNELAGENT_TEST_DEVICE=cuda and a GPU")
cpu_only = pytest.mark.skipif(DEVICE == "cuda", reason="CPU (interpreter) behaviour")


def problem(name: str) -> str:
    return str(PROBLEMS / f"{name}.py")


def candidate(name: str) -> str:
    return str(CANDIDATES / f"{name}.py")


class WorkerProc:
    """One worker process; `request` sends a request and returns its reply."""

    def __init__(self):
        env = dict(os.environ)
        env["PYTHONPATH"] = os.pathsep.join([str(PYTHON_DIR)] + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
        if DEVICE == "cuda":
            env.pop("KERNELAGENT_DEVICE", None)
            env.pop("TRITON_INTERPRET", None)
        else:
            env["KERNELAGENT_DEVICE"] = "cpu"
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([sys.executable, "-m", "kernelagent_worker"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr, env=env,
                                     cwd=tempfile.gettempdir(), start_new_session=True)
        self.ended = False
        self.lines: queue.Queue = queue.Queue()
        self.ids = itertools.count(1)
        threading.Thread(target=self._pump, daemon=True).start()
        self.hello = self.read(START_TIMEOUT)
        assert self.hello is not None, f"worker exited before its hello: {self.stderr_tail()}"

    def _pump(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8"))
        self.lines.put(None)

    def read(self, timeout: float = REPLY_TIMEOUT) -> dict | None:
        """The next reply, or None at end of file; raises TimeoutError when none comes in time."""
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise TimeoutError(f"no reply within {timeout} s") from None
        if line is None:
            return None
        try:
            return json.loads(line)
        except ValueError:
            raise AssertionError(f"reply is not JSON: {line!r}") from None

    def send_line(self, line: str) -> None:
        self.proc.stdin.write(line.encode("utf-8") + b"\n")
        self.proc.stdin.flush()

    def request(self, req: dict, timeout: float = REPLY_TIMEOUT) -> dict:
        req = {"id": next(self.ids), **req}
        self.send_line(json.dumps(req))
        reply = self.read(timeout)
        assert reply is not None, f"worker died on {req}: {self.stderr_tail()}"
        if reply.get("sticky"):
            self.ended = True      # the worker exits after a sticky reply, by design
        assert reply["id"] == req["id"], reply
        assert "status" in reply, reply
        return reply

    def load(self, name: str, seed: int = 0) -> dict:
        return self.request({"op": "load", "problem": problem(name), "seed": seed})

    def compile(self, cand: str, name: str | None = None) -> dict:
        return self.request({"op": "compile", "candidate": name or cand, "path": candidate(cand)})

    def check(self, name: str, seeds=(1, 2, 3), atol: float = 1e-4, rtol: float = 1e-4) -> dict:
        return self.request({"op": "check", "candidate": name, "seeds": list(seeds), "atol": atol, "rtol": rtol})

    def wait(self, timeout: float = 60.0) -> int:
        return self.proc.wait(timeout)

    def stderr_tail(self, n: int = 4000) -> str:
        self.stderr.seek(0)
        return self.stderr.read().decode("utf-8", "replace")[-n:]

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait(30)

    def close(self) -> None:
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
                self.proc.wait(30)
            except (OSError, subprocess.TimeoutExpired):
                pass
        self.kill()
        self.stderr.close()


_shared: dict[str, WorkerProc] = {}


@pytest.fixture(scope="session")
def _shared_worker_reaper():
    yield
    if "w" in _shared:
        _shared.pop("w").close()


@pytest.fixture
def worker(_shared_worker_reaper):
    """A worker shared by the tests that leave it usable (each starts with its own load). One that a test left
    dead (a sticky failure ends the worker by design) is replaced, so that test fails alone instead of every
    test after it failing on a broken pipe."""
    w = _shared.get("w")
    if w is None or w.ended or w.proc.poll() is not None:
        if w is not None:
            w.close()
        w = _shared["w"] = WorkerProc()
    yield w


@pytest.fixture
def fresh_worker():
    """A worker of its own, for tests that end or break it."""
    w = WorkerProc()
    yield w
    w.close()
