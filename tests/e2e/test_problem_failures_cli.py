"""A problem that hangs or ends its worker: the run ends within the documented limit, names the problem file
and what it was doing, and never blames a candidate for the reference's failure."""

import json
import sqlite3
import subprocess
import sys
import textwrap
import time

import pytest

from cli_harness import kernelagent  # noqa: F401  (kernelagent is a fixture)

# The problem's code knows who calls it: the load (problem.py), the trace (trace.py) or the check (check.py).
PROBLEM = textwrap.dedent('''
    import os, sys, time
    import torch
    import torch.nn as nn

    def called_from(module):
        frame = sys._getframe(1)
        while frame is not None:
            if frame.f_code.co_filename.replace("\\\\", "/").endswith("kernelagent_worker/" + module):
                return True
            frame = frame.f_back
        return False

    {at_import}

    class Model(nn.Module):
        def forward(self, x):
            {in_forward}
            return torch.relu(x) * 2.0

    def get_inputs():
        return [torch.randn(32, 64)]

    def get_init_inputs():
        return []
''')

CASES = {
    # name: (code at import, code in forward, --load-timeout, words of the message, result status, stages)
    "sleeps_at_import": ("time.sleep(3600)", "pass", "3",
                         "hung while it was imported: no reply within 3.0 s", "timeout", ["load"]),
    "exits_at_import": ("os._exit(9)", "pass", "60",
                        "ended its worker while it was imported: worker exited with code 9", "crashed", ["load"]),
    "sleeps_in_its_first_forward": ("", "time.sleep(3600) if called_from('problem.py') else None", "3",
                                    "hung in its first run of Model.forward", "timeout", ["load"]),
    # The load must finish within the limit before the trace hangs: a few seconds more on a busy machine.
    "sleeps_when_traced": ("", "time.sleep(3600) if called_from('trace.py') else None", "8",
                           "hung while it was traced", "timeout", ["load", "trace"]),
}


def write_problem(tmp_path, name, at_import, in_forward):
    p = tmp_path / f"{name}.py"
    p.write_text(PROBLEM.format(at_import=at_import, in_forward=in_forward))
    return p


@pytest.mark.parametrize("name", CASES)
def test_a_problem_that_hangs_or_exits_while_loading_or_tracing_is_named(kernelagent, tmp_path, name):
    at_import, in_forward, limit, words, status, stages = CASES[name]
    problem = write_problem(tmp_path, name, at_import, in_forward)
    started = time.monotonic()
    r = kernelagent("optimize", problem, "--out", tmp_path / "o", "--load-timeout", limit, db=tmp_path / "h.sqlite",
                    timeout=300)
    assert time.monotonic() - started < 120  # bounded by --load-timeout, not a fixed 600 s
    assert r.returncode == 2, r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith(f"kernelagent: problem file {problem} ") and words in last, r.stderr
    if status == "timeout":
        assert "--load-timeout" in last
    assert f"[{problem.name}] load  (at most {limit} s)" in r.stderr  # the progress line says the bound
    result = json.loads((tmp_path / "o" / "result.json").read_text())
    assert result["status"] == status and [s["name"] for s in result["stages"]] == stages


def run_candidates(db):
    with sqlite3.connect(db) as con:
        return con.execute("SELECT name, status FROM candidates").fetchall()


@pytest.mark.parametrize("in_forward, words", [
    ("time.sleep(3600) if called_from('check.py') else None", "hung in its reference (Model.forward) on seed 1"),
    ("os._exit(9) if called_from('check.py') else None", "ended its worker in its reference (Model.forward)"),
    ("(_ for _ in ()).throw(ValueError('bad on fresh inputs')) if called_from('check.py') else None",
     "the reference (Model.forward) on seed 1, after candidate c0 had run: ValueError: bad on fresh inputs"),
], ids=["hangs", "exits", "raises"])
def test_a_reference_that_fails_in_the_check_is_not_blamed_on_the_candidate(kernelagent, tmp_path, in_forward, words):
    problem = write_problem(tmp_path, "reference_fails_in_check", "", in_forward)
    db = tmp_path / "h.sqlite"
    # The reference's budget in a check is --load-timeout: enough for the good runs of a busy machine.
    r = kernelagent("optimize", problem, "--out", tmp_path / "o", "--load-timeout", "6", "--timeout", "120",
                    "--trials", "2", db=db, timeout=300)
    assert r.returncode == 2, r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith(f"kernelagent: problem file {problem}") and words in last, r.stderr
    assert "after candidate c0 had run" in last
    result = json.loads((tmp_path / "o" / "result.json").read_text())
    assert result["status"] == "bad_problem"
    assert [s["name"] for s in result["stages"]][-1] == "search"
    # The candidate is not recorded with a timeout, crash or failure that was the reference's.
    assert run_candidates(db) == []
    runs = json.loads(kernelagent("history", "--json", db=db).stdout)["runs"]
    assert [run["status"] for run in runs] == ["bad_problem"]


STRING_INPUT = textwrap.dedent('''
    import torch
    import torch.nn as nn
    import torch.nn.functional as F

    MODE = {mode!r}

    class Model(nn.Module):
        def forward(self, x, mode, approximate):
            if mode != MODE:
                return x
            return F.gelu(x, approximate=approximate) * 2.0

    def get_inputs():
        return [torch.randn(32, 64), MODE, "tanh"]

    def get_init_inputs():
        return []
''')


def test_string_inputs_are_kept_as_python_strings_in_the_kernel(kernelagent, tmp_path):
    # Quotes, a backslash, a newline and a non-ASCII letter: the kernel's guard must still be valid Python and
    # compare the very string (an unescaped message once made the candidate a syntax error).
    mode = 'it"s \\ a\nmode \u00e9 \'q\''
    problem = tmp_path / "string_input.py"
    problem.write_text(STRING_INPUT.format(mode=mode))
    out = tmp_path / "o"
    r = kernelagent("optimize", problem, "--out", out, "--trials", "1", db=tmp_path / "h.sqlite")
    assert r.returncode == 0, r.stderr
    assert json.loads((out / "result.json").read_text())["status"] == "ok"
    check = textwrap.dedent(f'''
        import importlib.util, torch
        def load(path, name):
            spec = importlib.util.spec_from_file_location(name, path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            return mod
        prob = load({str(problem)!r}, "problem")
        kern = load({str(out / "kernel.py")!r}, "kernel")
        x = torch.randn(32, 64)
        torch.testing.assert_close(kern.ModelNew()(x, prob.MODE, "tanh"), prob.Model()(x, prob.MODE, "tanh"))
        try:
            kern.ModelNew()(x, "another mode", "tanh")
        except ValueError as e:
            assert "specialised for" in str(e), e
        else:
            raise AssertionError("another string was not refused")
        print("string guard ok")
    ''')
    run = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0 and "string guard ok" in run.stdout, run.stderr


def test_a_string_input_that_is_not_unicode_text_is_refused_clearly(kernelagent, tmp_path):
    problem = tmp_path / "surrogate_input.py"
    problem.write_text(STRING_INPUT.format(mode="a\ud800b"))
    r = kernelagent("optimize", problem, "--out", tmp_path / "o", db=tmp_path / "h.sqlite")
    assert r.returncode == 2, r.stderr
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith(f"kernelagent: problem file {problem}: get_inputs()[1] is a string that is not valid "
                           "Unicode text"), last
