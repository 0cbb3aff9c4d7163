"""Worker slots from the command line (--gpus), on the CPU: `--device cpu --gpus 0,1` starts two interpreter
workers, so the pool's scheduling, its failure handling and the bench's spreading run here as they do over
GPUs (where each worker is pinned with CUDA_VISIBLE_DEVICES)."""

import json
import sqlite3
import stat
import sys

from cli_harness import DATA, kernelagent, TINY  # noqa: F401  (kernelagent is a fixture)



def optimize(kernelagent, problem, out, db, *flags, python=None):
    args = ["optimize", problem, "--out", out, "--search", "exhaustive", "--trials", "4", "--json", *flags]
    r = kernelagent(*args, db=db) if python is None else kernelagent(*args, db=db, python=python)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout), r


def test_two_slots_measure_what_one_measures_and_record_where(kernelagent, tmp_path):
    problem = tmp_path / "tiny.py"
    problem.write_text(TINY)
    one, _ = optimize(kernelagent, problem, tmp_path / "one", tmp_path / "one.sqlite")
    two, _ = optimize(kernelagent, problem, tmp_path / "two", tmp_path / "two.sqlite", "--gpus", "0,1")
    # The same configurations in the same order with the same statuses, and the same kernel.
    assert [(t["config"], t["status"]) for t in two["trial_list"]] == [(t["config"], t["status"]) for t in one["trial_list"]]
    assert two["best"]["config"] == one["best"]["config"]
    assert (tmp_path / "two" / "kernel.py").read_text() == (tmp_path / "one" / "kernel.py").read_text()
    # Both slots measured, and each trial says which.
    assert {t["measured_on"] for t in one["trial_list"]} == {"cpu0"}
    assert {t["measured_on"] for t in two["trial_list"]} == {"cpu0", "cpu1"}
    assert [s["label"] for s in two["pool"]["slots"]] == ["cpu0", "cpu1"]
    assert sum(s["measured"] for s in two["pool"]["slots"]) == 4
    with sqlite3.connect(tmp_path / "two.sqlite") as db:
        rows = db.execute("SELECT name, measured_on FROM candidates ORDER BY name").fetchall()
    assert {name for name, _ in rows} == {"c0", "c1", "c2", "c3"}
    assert {where for _, where in rows} == {"cpu0", "cpu1"}
    assert (tmp_path / "two" / "worker-slot1.log").exists()


def test_a_slot_whose_worker_cannot_start_is_taken_out_and_the_run_goes_on(kernelagent, tmp_path):
    problem = tmp_path / "tiny.py"
    problem.write_text(TINY)
    # A Python that fails for the second slot only (its stderr is that slot's log).
    wrapper = tmp_path / "python"
    wrapper.write_text(f"""#!/bin/sh
case "$(readlink /proc/self/fd/2)" in *worker-slot1.log) echo "no device here" >&2; exit 1;; esac
exec {sys.executable} "$@"
""")
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IEXEC)
    doc, r = optimize(kernelagent, problem, tmp_path / "o", tmp_path / "h.sqlite", "--gpus", "0,1", python=wrapper)
    said = [line for line in r.stderr.splitlines() if "taken out of the pool" in line]
    assert len(said) == 1, r.stderr
    assert "cpu1" in said[0] and "did not start 3 times" in said[0] and "goes on with 1 slot" in said[0]
    assert doc["status"] == "ok" and len(doc["trial_list"]) == 4
    assert {t["measured_on"] for t in doc["trial_list"]} == {"cpu0"}
    assert doc["pool"]["slots"][1]["retired"] is True
    assert any("cpu1 is taken out of the pool" in w for w in doc["warnings"])


def test_bench_runs_one_problem_per_slot_at_a_time(kernelagent, tmp_path):
    problems = tmp_path / "problems"
    problems.mkdir()
    for name in ("19_ReLU", "21_Sigmoid", "22_Tanh"):
        (problems / f"{name}.py").write_text((DATA / "families" / "elementwise" / "problems" / f"{name}.py").read_text())
    r = kernelagent("bench", problems, "--out", tmp_path / "bench", "--gpus", "0,1", "--json", db=tmp_path / "h.sqlite")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["slots"] == 2
    assert [row["problem"] for row in doc["rows"]] == ["19_ReLU", "21_Sigmoid", "22_Tanh"]  # in the folder's order
    assert all(row["status"] == "ok" for row in doc["rows"])
    assert {row["measured_on"] for row in doc["rows"]} == {"cpu0", "cpu1"}
    assert doc["summary"]["run"] == doc["summary"]["correct"] == 3 and doc["summary"]["timed"] == 0
    with sqlite3.connect(tmp_path / "h.sqlite") as db:
        assert db.execute("SELECT COUNT(*) FROM runs WHERE status = 'ok'").fetchone()[0] == 3


def test_a_bad_gpus_flag_gets_one_clear_message(kernelagent, tmp_path):
    problem = tmp_path / "tiny.py"
    problem.write_text(TINY)
    r = kernelagent("optimize", problem, "--out", tmp_path / "o", "--gpus", "0,x", db=tmp_path / "h.sqlite")
    assert r.returncode == 2 and "--gpus takes 'all' or GPU indices" in r.stderr
