"""optimize resumes from the history: the same command again measures nothing already measured, a run
killed mid-search is continued where it stopped, and --fresh measures everything again."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

from cli_harness import binary, kernelagent  # noqa: F401  (kernelagent is a fixture)

# Large enough that one trial takes seconds on Triton's interpreter, so a run can be killed between two.
SLOW = """import torch
import torch.nn as nn
class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x) * 2.0
def get_inputs():
    return [torch.randn(512, 512)]
def get_init_inputs():
    return []
"""

TINY = SLOW.replace("randn(512, 512)", "randn(32, 64)")


def candidates_of(db, run_id):
    with sqlite3.connect(db) as con:
        return con.execute("SELECT name, config, reason FROM candidates WHERE run_id = ? ORDER BY id",
                           (run_id,)).fetchall()


def optimize(kernelagent, problem, out, db, *extra):
    r = kernelagent("optimize", problem, "--out", out, "--trials", "3", *extra, db=db)
    assert r.returncode == 0, r.stderr
    return r, json.loads((out / "result.json").read_text())


def test_the_same_command_again_resumes_and_fresh_measures_again(kernelagent, tmp_path):
    problem, db, out = tmp_path / "tiny.py", tmp_path / "h.sqlite", tmp_path / "out"
    problem.write_text(TINY)
    _, first = optimize(kernelagent, problem, out, db)
    assert first["search"]["resumed"] == 0 and first["search"]["trials_used"] == 3
    assert first["search"]["strategy"] == "guided" and first["search"]["stop_reason"] == "trial budget"
    assert first["search"]["space"] >= 3
    assert all(t["reason"] for t in first["trial_list"])
    measured = candidates_of(db, first["run_id"])
    assert len(measured) == 3 and all(reason for _, _, reason in measured)

    r, second = optimize(kernelagent, problem, out, db)
    assert second["status"] == "ok"
    assert second["search"]["resumed"] == 3 and second["trials"]["total"] == 3
    assert "3 resumed from the history" in r.stdout
    assert candidates_of(db, second["run_id"]) == []  # nothing compiled or checked again
    assert [t["config"] for t in second["trial_list"]] == [t["config"] for t in first["trial_list"]]
    assert all(t["resumed_from"]["run_id"] == first["run_id"] for t in second["trial_list"])
    assert [t["reason"] for t in second["trial_list"]] == [t["reason"] for t in first["trial_list"]]
    assert (out / "kernel.py").read_text() == (out / "candidates" / f"{second['best']['candidate']}.py").read_text()

    _, fresh = optimize(kernelagent, problem, out, db, "--fresh")
    assert fresh["search"]["resumed"] == 0
    assert len(candidates_of(db, fresh["run_id"])) == 3
    assert "resumed_from" not in fresh["trial_list"][0]


def test_a_run_killed_mid_search_is_continued_by_the_same_command(tmp_path):
    problem, db, out = tmp_path / "slow.py", tmp_path / "h.sqlite", tmp_path / "out"
    problem.write_text(SLOW)
    cmd = [str(binary()), "optimize", str(problem), "--out", str(out), "--trials", "3", "--python", sys.executable,
           "--device", "cpu", "--db", str(db)]
    env = dict(os.environ, KERNELAGENT_DEVICE="cpu", TRITON_INTERPRET="1")

    # Kill the run as soon as its first candidate is committed, while it works on the second.
    run = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 300
    recorded = []
    while time.monotonic() < deadline and run.poll() is None:
        try:
            recorded = candidates_of(db, 1)
        except sqlite3.OperationalError:  # the database or its tables do not exist yet
            recorded = []
        if recorded:
            break
        time.sleep(0.02)
    assert run.poll() is None, "the run ended before it could be killed"
    run.send_signal(signal.SIGKILL)
    run.wait(timeout=60)
    killed = candidates_of(db, 1)
    assert 1 <= len(killed) < 3
    # Its process is gone: the history lists it as interrupted, not as running forever.
    listed = subprocess.run([str(binary()), "history", "--json", "--db", str(db)], capture_output=True, text=True,
                            timeout=60)
    assert listed.returncode == 0, listed.stderr
    [killed_run] = json.loads(listed.stdout)["runs"]
    assert killed_run["status"] == "interrupted" and killed_run["pid"] == run.pid

    again = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr
    result = json.loads((out / "result.json").read_text())
    assert result["search"]["resumed"] == len(killed)
    assert result["search"]["trials_used"] == 3 and result["status"] == "ok"
    remeasured = candidates_of(db, result["run_id"])
    assert len(remeasured) == 3 - len(killed)
    killed_configs = {json.dumps(json.loads(c), sort_keys=True) for _, c, _ in killed}
    assert not killed_configs & {json.dumps(json.loads(c), sort_keys=True) for _, c, _ in remeasured}
    # The continued search is the one the killed run would have made.
    _, uninterrupted = optimize_fresh(problem, tmp_path / "whole", db, env)
    assert [t["config"] for t in result["trial_list"]] == [t["config"] for t in uninterrupted["trial_list"]]


def optimize_fresh(problem, out, db, env):
    cmd = [str(binary()), "optimize", str(problem), "--out", str(out), "--trials", "3", "--fresh", "--python",
           sys.executable, "--device", "cpu", "--db", str(db)]
    r = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    return r, json.loads((out / "result.json").read_text())
