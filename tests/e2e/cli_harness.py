"""The harness of the end-to-end tests: the real kernelagent binary driving the real worker on Triton's
interpreter. (Not named conftest.py: tests/worker has its own conftest module, imported by name.)"""

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data"

# A problem small enough for the interpreter: the end-to-end tests of sweeps and worker slots write it.
TINY = """import torch
import torch.nn as nn
class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x) * 2.0
def get_inputs():
    return [torch.randn(32, 64)]
def get_init_inputs():
    return []
"""


def binary() -> pathlib.Path:
    return pathlib.Path(os.environ.get("KERNELAGENT_BIN", ROOT / "build" / "debug" / "kernelagent"))


@pytest.fixture(scope="session")
def kernelagent():
    exe = binary()
    if not exe.exists():
        pytest.fail(f"{exe} is not built; run scripts/build debug (or set KERNELAGENT_BIN)")

    def run(*args, timeout=600, python=sys.executable, db=None):
        env = dict(os.environ, KERNELAGENT_DEVICE="cpu", TRITON_INTERPRET="1")
        cmd = [str(exe), *map(str, args)]
        if args and args[0] in ("optimize", "bench", "sweep"):
            cmd += ["--python", python, "--device", "cpu"]
        if db is not None and args and args[0] in ("optimize", "bench", "sweep", "history"):
            cmd += ["--db", str(db)]
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, env=env)

    return run
