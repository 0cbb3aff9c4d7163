"""The output folder (--out): the problem is never written over, one run writes there at a time, and the
folder's kernel.py and result.json are always the same run's."""

import json
import os
import subprocess
import sys
import time

from cli_harness import DATA, TINY, binary, kernelagent  # noqa: F401  (kernelagent is a fixture)

# Large enough that a run takes seconds on Triton's interpreter, so another can start meanwhile.
SLOW = TINY.replace("randn(32, 64)", "randn(512, 512)")


def test_a_problem_where_the_run_would_write_is_refused(kernelagent, tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    (out / "candidates").mkdir()
    # A problem named kernel.py in --out (--out the problem's own folder), or any file the run writes there.
    for problem in (out / "kernel.py", out / "result.json", out / "candidates" / "c0.py"):
        problem.write_text(TINY)
        r = kernelagent("optimize", problem, "--out", out, db=tmp_path / "h.sqlite")
        assert r.returncode == 2, r.stderr
        assert "is where the run would write" in r.stderr and "internal error" not in r.stderr
        assert problem.read_text() == TINY  # untouched
    # The problem beside the run's files, under another name, is fine.
    ok = out / "relu.py"
    ok.write_text(TINY)
    r = kernelagent("optimize", ok, "--out", out, db=tmp_path / "h.sqlite")
    assert r.returncode == 0, r.stderr
    assert ok.read_text() == TINY


def test_a_second_run_on_the_same_out_fails_naming_the_first(tmp_path):
    problem, out = tmp_path / "slow.py", tmp_path / "out"
    problem.write_text(SLOW)
    env = dict(os.environ, KERNELAGENT_DEVICE="cpu", TRITON_INTERPRET="1")

    def cmd(db, trials=3):
        return [str(binary()), "optimize", str(problem), "--out", str(out), "--trials", str(trials), "--python",
                sys.executable, "--device", "cpu", "--db", str(tmp_path / db)]

    first = subprocess.Popen(cmd("a.sqlite"), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        lock = out / ".kernelagent.lock"
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (lock.exists() and f"pid {first.pid}" in lock.read_text()):
            time.sleep(0.05)
        assert first.poll() is None, "the first run ended before the second could start"
        second = subprocess.run(cmd("b.sqlite"), env=env, capture_output=True, text=True, timeout=120)
        assert second.returncode == 2, second.stderr
        assert "another kernelagent run is writing to" in second.stderr
        assert f"pid {first.pid}" in second.stderr and "optimize" in second.stderr
        assert not (tmp_path / "b.sqlite").exists()  # it stopped before it began anything
    finally:
        first.kill()
        first.wait(timeout=60)
    # The lock dies with its run: the same command now runs.
    again = subprocess.run(cmd("b.sqlite", trials=1), env=env, capture_output=True, text=True, timeout=600)
    assert again.returncode == 0, again.stderr


def test_what_an_earlier_run_left_in_out_is_cleared(kernelagent, tmp_path):
    problem, out, db = tmp_path / "tiny.py", tmp_path / "out", tmp_path / "h.sqlite"
    problem.write_text(TINY)
    (out / "candidates").mkdir(parents=True)
    (out / "notes.txt").write_text("mine")
    (out / "candidates" / "mine.py").write_text("mine")
    r = kernelagent("optimize", problem, "--out", out, "--trials", "3", db=db)
    assert r.returncode == 0, r.stderr
    assert sorted(p.name for p in (out / "candidates").glob("c*.py")) == ["c0.py", "c1.py", "c2.py"]

    r = kernelagent("optimize", problem, "--out", out, "--trials", "1", "--fresh", db=db)
    assert r.returncode == 0, r.stderr
    result = json.loads((out / "result.json").read_text())
    assert sorted(p.name for p in (out / "candidates").glob("c*.py")) == ["c0.py"]  # no stale c1, c2
    assert (out / "kernel.py").read_text() == (out / "candidates" / f"{result['best']['candidate']}.py").read_text()
    assert (out / "notes.txt").read_text() == "mine" and (out / "candidates" / "mine.py").read_text() == "mine"

    # A run that finds no kernel leaves no kernel.py of an earlier one beside its result.
    (tmp_path / "tiny.py").write_text((DATA / "problems" / "unsupported" / "sort.py").read_text())
    r = kernelagent("optimize", problem, "--out", out, db=db)
    assert r.returncode == 3, r.stderr
    assert json.loads((out / "result.json").read_text())["status"] == "unsupported"
    assert not (out / "kernel.py").exists()
    assert not list((out / "candidates").glob("c*.py"))
    # Every file was written whole and renamed into place: no temporary file is left.
    assert not [p.name for p in out.iterdir() if p.name.startswith(".") and p.name != ".kernelagent.lock"]
