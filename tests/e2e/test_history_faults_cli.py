"""What the history holds stays true when things go wrong around a run: failures caused from outside a
candidate are measured again, not taken over as its verdict; a damaged or locked database is said so with
one clear message and exit code; a killed run is listed as interrupted."""

import json
import os
import sqlite3
import subprocess
import sys

from cli_harness import TINY, binary, kernelagent  # noqa: F401  (kernelagent is a fixture)


def newest_candidate_becomes(db, status, message, signal=0, timeout_s=None):
    """Rewrites the newest stored candidate as a run that met such a failure would have stored it."""
    with sqlite3.connect(db) as con:
        con.execute("UPDATE candidates SET status = ?, message = ?, worker_signal = ?, timeout_s = ?, median_us = NULL "
                    "WHERE id = (SELECT MAX(id) FROM candidates)", (status, message, signal, timeout_s))


def test_a_failure_from_outside_the_candidate_is_measured_again_and_said_so(kernelagent, tmp_path):
    problem, out, db = tmp_path / "tiny.py", tmp_path / "out", tmp_path / "h.sqlite"
    problem.write_text(TINY)
    r = kernelagent("optimize", problem, "--out", out, db=db)
    assert r.returncode == 0, r.stderr

    # Run 1's candidate timed out under `--timeout 0.001`: this run allows 180 s, so it measures it again.
    newest_candidate_becomes(db, "timeout", "no reply within 0.0 s; worker killed", timeout_s=0.001)
    r = kernelagent("optimize", problem, "--out", out, db=db)
    assert r.returncode == 0, r.stderr
    result = json.loads((out / "result.json").read_text())
    assert result["search"]["resumed"] == 0
    [earlier] = result["search"]["not_taken_over"]
    assert earlier["run_id"] == 1 and earlier["status"] == "timeout"
    assert earlier["why"] == "timed out under --timeout 0.001 s in run 1"
    [trial] = result["trial_list"]
    assert trial["status"] == "ok" and trial["measured_again"]["why"] == earlier["why"]
    assert "measured again: timed out under --timeout 0.001 s in run 1" in r.stderr  # the progress line
    assert "1 measured again: c0, timed out under --timeout 0.001 s in run 1" in r.stdout  # the summary

    # Its worker was killed by SIGKILL (the OOM killer, an operator): not the candidate's doing.
    newest_candidate_becomes(db, "crashed", "worker killed by signal 9 (Killed)", signal=9)
    r = kernelagent("optimize", problem, "--out", out, db=db)
    assert r.returncode == 0, r.stderr
    result = json.loads((out / "result.json").read_text())
    assert result["trial_list"][0]["measured_again"]["why"] == \
        "its worker was killed by SIGKILL in run 2, from outside the candidate"

    # A segfault is the candidate's own: its verdict, taken over without measuring anything.
    newest_candidate_becomes(db, "crashed", "worker killed by signal 11 (Segmentation fault)", signal=11)
    r = kernelagent("optimize", problem, "--out", out, db=db)
    assert r.returncode == 1, r.stderr
    result = json.loads((out / "result.json").read_text())
    assert result["search"]["resumed"] == 1 and result["search"]["not_taken_over"] == []
    assert result["trial_list"][0]["status"] == "crashed" and "measured_again" not in result["trial_list"][0]


def test_history_on_a_database_with_damaged_pages_fails_clearly(kernelagent, tmp_path):
    db = tmp_path / "h.sqlite"
    with sqlite3.connect(db) as con:  # version 3 of the schema, as an earlier kernelagent left it, holding many runs
        con.executescript("""
            CREATE TABLE runs (id INTEGER PRIMARY KEY, started_at TEXT NOT NULL DEFAULT 'then', finished_at TEXT,
              command TEXT NOT NULL, problem_path TEXT NOT NULL, problem_hash TEXT NOT NULL,
              problem_signature TEXT NOT NULL, device TEXT NOT NULL, gpu TEXT NOT NULL, versions TEXT NOT NULL,
              precision TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'running', eager_us REAL, compile_us REAL,
              best_us REAL, best_family TEXT, best_config TEXT, result_json TEXT);
            CREATE TABLE candidates (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),
              name TEXT NOT NULL, family TEXT NOT NULL, family_hash TEXT NOT NULL, config TEXT NOT NULL,
              source_path TEXT NOT NULL, status TEXT NOT NULL, message TEXT NOT NULL, compile_ms REAL,
              max_abs_err REAL, median_us REAL, p10_us REAL, p90_us REAL, reps INTEGER NOT NULL DEFAULT 0,
              method TEXT NOT NULL DEFAULT '', created_at TEXT NOT NULL DEFAULT 'then', UNIQUE (run_id, name));
            CREATE TABLE measurements (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL REFERENCES runs(id),
              target TEXT NOT NULL, phase TEXT NOT NULL, status TEXT NOT NULL, median_us REAL, p10_us REAL,
              p90_us REAL, reps INTEGER NOT NULL DEFAULT 0, method TEXT NOT NULL DEFAULT '',
              created_at TEXT NOT NULL DEFAULT 'then');
            ALTER TABLE candidates ADD COLUMN reason TEXT NOT NULL DEFAULT '';
            CREATE INDEX runs_by_problem ON runs(problem_hash);
            ALTER TABLE candidates ADD COLUMN measured_on TEXT NOT NULL DEFAULT '';
            ALTER TABLE measurements ADD COLUMN measured_on TEXT NOT NULL DEFAULT '';
            PRAGMA user_version = 3;""")
        con.executemany("INSERT INTO runs (command, problem_path, problem_hash, problem_signature, device, gpu, "
                        "versions, precision, status, result_json) VALUES ('optimize', ?, 'h', 's', 'cpu', '', '{}', "
                        "'strict', 'ok', ?)", [(f"/p/{i}.py", "x" * 500) for i in range(400)])
    con.close()
    size = db.stat().st_size
    with open(db, "r+b") as f:  # the header (page 1) stays sound; pages in the middle do not
        f.seek(size // 2)
        f.write(b"\x5a" * 3 * 4096)
    r = kernelagent("history", "--limit", "1000", db=db)
    assert r.returncode == 2, (r.returncode, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("kernelagent: the history database") and "is damaged" in lines[0]
    assert "internal error" not in r.stderr


def test_a_database_locked_past_the_wait_fails_clearly(tmp_path):
    problem, out, db = tmp_path / "tiny.py", tmp_path / "out", tmp_path / "h.sqlite"
    problem.write_text(TINY)
    env = dict(os.environ, KERNELAGENT_DEVICE="cpu", TRITON_INTERPRET="1", KERNELAGENT_DB_WAIT="2")
    cmd = [str(binary()), "optimize", str(problem), "--out", str(out), "--python", sys.executable, "--device", "cpu",
           "--db", str(db)]
    assert subprocess.run(cmd, env=env, capture_output=True, timeout=600).returncode == 0  # creates the database
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process writing, for longer than the run waits
    try:
        r = subprocess.run(cmd + ["--fresh"], env=env, capture_output=True, text=True, timeout=600)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    assert r.returncode == 4, (r.returncode, r.stderr)
    assert "internal error" not in r.stderr
    assert r.stderr.count("is locked by another process; waiting up to 2 s") == 1
    assert "stayed locked by another process for 2 s" in r.stderr.strip().splitlines()[-1]
