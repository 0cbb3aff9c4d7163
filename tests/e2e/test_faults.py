"""Fault injection: `kernelagent optimize` on Triton's interpreter against the faults a real run meets, each
as a user would see it. Every case starts from a history that already holds an earlier run of the problem
(two trials), runs the same command with one more trial and one fault injected (the real worker with a
fault in candidate c2: tests/data/fake_workers/fault_worker.py, or a fault from outside: kill -9, a locked
or corrupted database), and checks what the user saw (exit code, one clear message, statuses in
result.json) and that nothing already stored was lost (the earlier run's trials are still listed).

The module prints a table, fault -> what the user saw -> history intact, and writes it to
fault_table.md under pytest's base temporary folder (its path is printed too)."""

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import time

import pytest

from cli_harness import ROOT, TINY, binary

FAULT_WORKER = ROOT / "tests" / "data" / "fake_workers" / "fault_worker.py"
ROWS = []  # (fault, what the user saw, history intact), in the order the cases ran


@pytest.fixture(scope="module")
def earlier(tmp_path_factory, request):
    """A history holding one finished run of the problem with two trials, and the wrapper that starts the
    fault-injecting worker; each case works on its own copy of the history."""
    base = tmp_path_factory.mktemp("faults")
    problem = base / "tiny.py"
    problem.write_text(TINY)
    wrapper = base / "python-with-faults"
    wrapper.write_text(f"#!/bin/sh\nexec {sys.executable} -u {FAULT_WORKER}\n")
    wrapper.chmod(0o755)
    db = base / "history.sqlite"
    r = subprocess.run(command(problem, base / "first", db, wrapper, "--trials", "2"), env=env(), capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr
    stored = candidates_of(db)
    assert len(stored) == 2

    def print_table():
        lines = ["| fault | what the user saw | history intact |", "|---|---|---|"]
        cell = lambda text: text.replace("|", "\\|")  # noqa: E731  (a message may hold "|ref|")
        lines += [f"| {cell(f)} | {cell(saw)} | {cell(kept)} |" for f, saw, kept in ROWS]
        table = "\n".join(lines)
        path = tmp_path_factory.getbasetemp() / "fault_table.md"
        path.write_text(table + "\n")
        # Printed past pytest's output capture, so that a plain `pytest` run shows it.
        capture = request.config.pluginmanager.get_plugin("capturemanager")
        with capture.global_and_fixture_disabled():
            print("\n" + table + f"\n(fault table written to {path})")

    request.addfinalizer(print_table)
    return {"problem": problem, "wrapper": wrapper, "db": db, "stored": stored}


def env(**extra):
    return dict(os.environ, KERNELAGENT_DEVICE="cpu", TRITON_INTERPRET="1", **extra)


def command(problem, out, db, python, *extra):
    return [str(binary()), "optimize", str(problem), "--out", str(out), "--python", str(python), "--device", "cpu",
            "--db", str(db), *map(str, extra)]


def candidates_of(db, run_id=None):
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as con:
        query = "SELECT run_id, name, config, status FROM candidates"
        rows = con.execute(query + (" WHERE run_id = ?" if run_id else "") + " ORDER BY id",
                           (run_id,) if run_id else ()).fetchall()
    return rows


def copy_history(earlier, tmp_path):
    db = tmp_path / "history.sqlite"
    for suffix in ("", "-wal", "-shm"):
        src = earlier["db"].parent / (earlier["db"].name + suffix)
        if src.exists():
            shutil.copy(src, db.parent / (db.name + suffix))
    return db


def history_intact(earlier, db):
    """'yes (...)' when the earlier run's trials are all still stored as they were, and `history` lists it."""
    try:
        kept = candidates_of(db, run_id=earlier["stored"][0][0])
    except sqlite3.Error as e:
        return f"no: {e}"
    listed = subprocess.run([str(binary()), "history", "--json", "--db", str(db)], capture_output=True, text=True,
                            timeout=60)
    runs = json.loads(listed.stdout)["runs"] if listed.returncode == 0 else []
    ok = kept == earlier["stored"] and any(r["id"] == earlier["stored"][0][0] and r["status"] == "ok" for r in runs)
    return f"yes ({len(kept)} earlier trials kept, `history` lists the run)" if ok else f"no: {kept} / {runs}"


def last_line(stderr):
    lines = [line for line in stderr.strip().splitlines() if line.startswith("kernelagent: ")]
    return lines[-1] if lines else ""


def clip(text, n=110):
    text = " ".join(text.split())
    return text if len(text) <= n else text[: n - 3] + "..."


# fault -> (KA_FAULT kind, extra flags, status of c2, words of c2's message)
CANDIDATE_FAULTS = {
    "worker segfault": ("segfault", [], "crashed", "signal 11"),
    "illegal address (CUDA error, simulated)": ("illegal_address", [], "cuda_error", "illegal memory access"),
    "candidate hangs": ("hang", ["--timeout", "8"], "timeout", "no reply within 8.0 s"),
    "out of memory": ("oom", [], "out_of_memory", "out of memory"),
    "compile error": ("compile_error", [], "compile_error", "invalid syntax"),
    "NaN output": ("nan", [], "nan_or_inf", "NaN or Inf"),
    "wrong output": ("wrong", [], "wrong_result", "differ beyond"),
}


@pytest.mark.parametrize("fault", CANDIDATE_FAULTS)
def test_a_faulty_candidate_is_recorded_with_its_status_and_the_run_goes_on(earlier, tmp_path, fault):
    kind, flags, status, words = CANDIDATE_FAULTS[fault]
    db = copy_history(earlier, tmp_path)
    out = tmp_path / "out"
    r = subprocess.run(command(earlier["problem"], out, db, earlier["wrapper"], "--trials", "3", *flags),
                       env=env(KA_FAULT=f"{kind}:c2"), capture_output=True, text=True, timeout=600)
    result = json.loads((out / "result.json").read_text())
    trials = {t["candidate"]: t for t in result["trial_list"]}
    saw = f"exit {r.returncode}; c2 {trials.get('c2', {}).get('status')}: {clip(trials.get('c2', {}).get('message', ''))}"
    kept = history_intact(earlier, db)
    ROWS.append((fault, saw, kept))
    assert r.returncode == 0, r.stderr  # the two resumed trials passed: the run has a kernel
    assert "Traceback" not in r.stderr
    assert result["status"] == "ok" and result["search"]["resumed"] == 2
    assert trials["c2"]["status"] == status and words in trials["c2"]["message"], trials["c2"]
    assert {t["status"] for n, t in trials.items() if n != "c2"} == {"ok"}
    assert kept.startswith("yes"), kept
    # The fault's trial is stored with its status, next to the earlier ones.
    assert [row[3] for row in candidates_of(db, result["run_id"])] == [status]


def test_a_candidate_that_ends_the_worker_is_followed_by_candidates_measured_as_usual(earlier, tmp_path):
    # A thread left running cannot be put back: the worker replies cheat_tampering and exits. The next
    # candidate must get a new worker, not the closed pipe of the old one (on the GPU this failed every
    # finalist's final measurement).
    db = copy_history(earlier, tmp_path)
    out = tmp_path / "out"
    r = subprocess.run(command(earlier["problem"], out, db, earlier["wrapper"], "--trials", "4"),
                       env=env(KA_FAULT="thread:c2"), capture_output=True, text=True, timeout=600)
    result = json.loads((out / "result.json").read_text())
    trials = {t["candidate"]: t for t in result["trial_list"]}
    ROWS.append(("a thread left running (the worker ends)",
                 f"exit {r.returncode}; c2 {trials['c2']['status']}, c3 {trials['c3']['status']}",
                 history_intact(earlier, db)))
    assert r.returncode == 0, r.stderr
    assert trials["c2"]["status"] == "cheat_tampering" and "left-running" in trials["c2"]["message"], trials["c2"]
    assert trials["c3"]["status"] == "ok", trials["c3"]


def wait_for(path, process, seconds=120):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and process.poll() is None:
        if path.exists() and path.read_text().strip():
            return int(path.read_text())
        time.sleep(0.05)
    raise AssertionError(f"{path} never appeared (exit {process.poll()})")


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead too
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_kill_9_of_the_worker_is_a_crash_of_that_candidate(earlier, tmp_path):
    db = copy_history(earlier, tmp_path)
    out, pidfile = tmp_path / "out", tmp_path / "worker.pid"
    run = subprocess.Popen(command(earlier["problem"], out, db, earlier["wrapper"], "--trials", "3"),
                           env=env(KA_FAULT="killed:c2", KA_FAULT_PIDFILE=str(pidfile)), stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, text=True)
    os.kill(wait_for(pidfile, run), signal.SIGKILL)
    _, stderr = run.communicate(timeout=600)
    result = json.loads((out / "result.json").read_text())
    c2 = {t["candidate"]: t for t in result["trial_list"]}["c2"]
    kept = history_intact(earlier, db)
    ROWS.append(("kill -9 of the worker", f"exit {run.returncode}; c2 {c2['status']}: {clip(c2.get('message', ''))}",
                 kept))
    assert run.returncode == 0, stderr
    assert c2["status"] == "crashed" and "signal 9" in c2["message"], c2
    assert kept.startswith("yes"), kept


def test_kill_9_of_kernelagent_mid_run_then_the_same_command_resumes(earlier, tmp_path):
    db = copy_history(earlier, tmp_path)
    out, pidfile = tmp_path / "out", tmp_path / "worker.pid"
    cmd = command(earlier["problem"], out, db, earlier["wrapper"], "--trials", "3")
    run = subprocess.Popen(cmd, env=env(KA_FAULT="pause:c2", KA_FAULT_PIDFILE=str(pidfile)),
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = wait_for(pidfile, run)  # kernelagent is checking c2, its worker waiting in c2's forward
    run.send_signal(signal.SIGKILL)
    run.wait(timeout=60)
    deadline = time.monotonic() + 30
    while alive(worker) and time.monotonic() < deadline:
        time.sleep(0.05)
    worker_gone = not alive(worker)
    again = subprocess.run(cmd, env=env(), capture_output=True, text=True, timeout=600)
    result = json.loads((out / "result.json").read_text())
    kept = history_intact(earlier, db)
    ROWS.append(("kill -9 of kernelagent mid-run, then the same command",
                 f"killed by SIGKILL (exit {run.returncode}), its worker {'gone' if worker_gone else 'LEFT RUNNING'}; rerun: exit "
                 f"{again.returncode}, {result['search']['resumed']} trials resumed, c2 "
                 f"{ {t['candidate']: t for t in result['trial_list']}['c2']['status'] }", kept))
    assert run.returncode == -signal.SIGKILL
    assert worker_gone, "the worker outlived the kernelagent that started it"
    assert again.returncode == 0, again.stderr
    assert result["status"] == "ok" and result["search"]["resumed"] == 2 and result["trials"]["total"] == 3
    assert kept.startswith("yes"), kept


def db_fault_row(fault, r, earlier, db, intact=None):
    said = last_line(r.stderr) or "no message about the database"
    ROWS.append((fault, f"exit {r.returncode}: {clip(said, 140)}",
                 intact if intact is not None else history_intact(earlier, db)))


def assert_clear_database_failure(r, db, *words):
    line = last_line(r.stderr)
    assert r.returncode not in (0, 70), (r.returncode, r.stderr)  # a failure, and not an internal error
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr
    assert str(db) in line and any(w in line.lower() for w in words), r.stderr


def test_a_database_locked_by_another_process_fails_clearly(earlier, tmp_path):
    db = copy_history(earlier, tmp_path)
    holder = sqlite3.connect(db, timeout=0, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")  # another process holds the write lock for the whole run
    try:
        # A short wait: the lock is held past any wait; the default wait is 30 s.
        r = subprocess.run(command(earlier["problem"], tmp_path / "out", db, sys.executable, "--trials", "3"),
                           env=env(KERNELAGENT_DB_WAIT="3"), capture_output=True, text=True, timeout=300)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    db_fault_row("database locked by another process", r, earlier, db)
    assert_clear_database_failure(r, db, "locked", "busy")
    assert history_intact(earlier, db).startswith("yes")


def test_a_corrupted_database_is_refused_clearly(earlier, tmp_path):
    db = copy_history(earlier, tmp_path)
    # Every page into the database file first: a page whose newer copy sits in the write-ahead log would be
    # read from there, and the damage below would not be seen (nor be damage).
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = bytearray(db.read_bytes())
    page = 4096
    assert len(data) > 3 * page
    # A valid file header; garbage over the b-tree header of every page after the first (a torn write).
    for at in range(page, len(data), page):
        data[at:at + 16] = b"\xde\xad\xbe\xef" * 4
    db.write_bytes(bytes(data))
    before = db.read_bytes()
    r = subprocess.run(command(earlier["problem"], tmp_path / "out", db, sys.executable, "--trials", "3"),
                       env=env(), capture_output=True, text=True, timeout=300)
    listed = subprocess.run([str(binary()), "history", "--db", str(db)], capture_output=True, text=True, timeout=60)
    untouched = db.read_bytes() == before
    db_fault_row("corrupted database (valid header, damaged pages)", r, earlier, db,
                 intact=f"n/a (the fault is the history); file left {'as it was' if untouched else 'CHANGED'}; "
                        f"`history` exit {listed.returncode}")
    assert_clear_database_failure(r, db, "corrupt", "malformed", "damaged")
    assert_clear_database_failure(listed, db, "corrupt", "malformed", "damaged")
    assert untouched
