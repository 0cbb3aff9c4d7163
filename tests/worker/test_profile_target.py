"""The process ncu profiles, run on the CPU (interpreter): it loads, warms up and runs the marked call."""

import os
import subprocess
import sys

from conftest import PYTHON_DIR, candidate, problem


def run(*args):
    env = dict(os.environ, PYTHONPATH=str(PYTHON_DIR), KERNELAGENT_DEVICE="cpu")
    return subprocess.run([sys.executable, "-m", "kernelagent_worker.profile_target", *args], capture_output=True,
                          text=True, timeout=300, env=env)


def test_profiles_a_good_candidate():
    r = run(problem("relu"), candidate("relu_ok"), "--warmup", "1")
    assert r.returncode == 0, r.stderr


def test_a_bad_problem_exits_2_with_one_line():
    r = run(problem("bad_no_get_inputs"), candidate("relu_ok"))
    assert r.returncode == 2
    assert "kernelagent_profile:" in r.stderr and "get_inputs" in r.stderr


def test_a_failing_candidate_exits_3():
    r = run(problem("relu"), candidate("raises"))
    assert r.returncode == 3
    assert "kernelagent_profile:" in r.stderr
