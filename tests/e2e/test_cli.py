"""The CLI as a user meets it: optimize, bench and history, good and bad input."""

import json
import math
import shutil
import subprocess
import sys
import textwrap

import pytest

from cli_harness import DATA, ROOT, TINY, kernelagent  # noqa: F401  (kernelagent is a fixture)

def _supported(family: str) -> list:
    return sorted(p for p in (DATA / "families" / family / "problems").glob("*.py") if not p.stem.startswith("unsupported_"))


def _spread(problems: list, most: int = 3) -> list:
    """At most `most` of a family's problems, evenly spread over their sorted names. Every problem's kernels
    are checked by the golden-kernel and conformance tests; an optimize of each on the interpreter (3 to 30 s)
    would hold the suite past its time on the CI machine (with five a family the Python tests took 26.5 to 29.5
    of its 28 to 31 minutes), so a few stand for the family end to end."""
    step = max(1, -(-len(problems) // most))
    return problems[::step]


ACTIVATIONS = _spread(_supported("elementwise"))
REDUCTIONS = _spread(_supported("reduction"))
MATMULS = _spread(_supported("matmul"))
NORMS_AND_LOSSES = _spread(_supported("mapreduce"))
SCANS = _spread(_supported("scan"))
POOLS = _spread(_supported("window"))
ATTENTION = _spread(_supported("attention"))
# Three convolutions stand for the family here (each runs about 20 s on the interpreter); its conformance
# and golden-kernel tests cover the rest.
CONVS = [p for p in _supported("conv") if p.stem in ("conv2d_bias_strided", "conv1d_dilated_strided", "depthwise_separable")]


@pytest.mark.parametrize("problem", ACTIVATIONS + REDUCTIONS + MATMULS + NORMS_AND_LOSSES + SCANS + POOLS + ATTENTION + CONVS,
                         ids=lambda p: f"{p.parent.parent.name}/{p.stem}")
def test_optimize_writes_a_correct_drop_in_kernel(kernelagent, problem, tmp_path):
    out = tmp_path / "out"
    # Two trials on the interpreter: the default configuration and one more, both checked.
    r = kernelagent("optimize", problem, "--out", out, "--trials", "2", db=tmp_path / "h.sqlite")
    assert r.returncode == 0, r.stderr
    result = json.loads((out / "result.json").read_text())
    assert result["status"] == "ok"
    # Two trials, or the whole space when a tiny problem leaves fewer valid configurations.
    assert result["trials"]["by_status"] == {"ok": min(2, result["search"]["space"])}
    # A matrix-vector product is a matmul problem that the specialised matvec family takes first.
    matvec = problem.stem.startswith(("4_", "4b_"))
    assert result["family"] == ("matvec" if matvec else problem.parent.parent.name)
    assert result["interpreter"] is True and result["timing"] is None
    # The tolerance of the output's dtype: fp32's 1e-4, or 1e-2 for a half-precision output.
    tol = result["tolerance"]["atol"]
    assert tol == (1e-2 if result["dtype"] in ("float16", "bfloat16") else 1e-4)
    # optimize's check is |got - ref| <= atol + rtol * |ref|: where the values are large (pow_forms reaches 1e6)
    # the largest absolute error may pass atol; it is finite, and the drop-in check below holds both tolerances.
    assert math.isfinite(result["best"]["max_abs_err"])
    assert "Triton interpreter" in r.stdout and "not timed" in r.stdout

    # The kernel file stands alone: a fresh process with only torch and triton runs ModelNew in place of
    # Model on inputs it has not seen, with Model's parameters and buffers loaded by name.
    check = textwrap.dedent(f"""
        import importlib.util, torch
        def load(path, name):
            spec = importlib.util.spec_from_file_location(name, path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            return mod
        prob = load({str(problem)!r}, "problem")
        kern = load({str(out / "kernel.py")!r}, "kernel")
        torch.manual_seed(1234)
        inputs = prob.get_inputs()
        model = prob.Model(*prob.get_init_inputs())
        new = kern.ModelNew(*prob.get_init_inputs())
        new.load_state_dict(model.state_dict())
        ref = model(*inputs)
        got = new(*inputs)
        torch.testing.assert_close(got, ref, atol={tol}, rtol={tol}, equal_nan=True)  # a NaN where the reference has one (cummax)
        print("drop-in ok")
    """)
    run = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "drop-in ok" in run.stdout


def test_bench_prints_one_table_and_writes_json(kernelagent, tmp_path):
    out = tmp_path / "bench"
    r = kernelagent("bench", DATA / "families" / "elementwise" / "problems", "--out", out, db=tmp_path / "h.sqlite")
    assert r.returncode == 0, r.stderr
    doc = json.loads((out / "bench.json").read_text())
    every = _supported("elementwise")
    assert [row["problem"] for row in doc["rows"]] == [p.stem for p in every]
    assert all(row["status"] == "ok" for row in doc["rows"])
    for p in every:
        assert p.stem in r.stdout
    # Who won: on the interpreter every kernel is checked and none is timed, and the summary says so.
    n = len(every)
    assert doc["summary"] == {"problems": n, "run": n, "correct": n, "timed": 0, "wins": 0,
                              "geomean_speedup_vs_faster_baseline": None, "geomean_speedup_vs_compile": None,
                              "median_roofline_fraction": None}
    summary = [line for line in r.stdout.splitlines() if line.startswith("summary ")]
    assert summary == [f"summary     {n} problems run, {n} correct (a kernel passed the checks against the "
                       "reference); nothing was timed, so no wins or speedups"]
    assert doc["complete"] is True


def test_a_bench_stopped_part_way_keeps_the_problems_it_finished(tmp_path):
    """bench.json is rewritten after every problem: a bench killed by a time limit keeps its finished rows."""
    import os
    import signal
    import time
    from cli_harness import binary
    problems = tmp_path / "problems"
    problems.mkdir()
    (problems / "a_relu.py").write_text(TINY)
    for name in ("b_relu", "c_relu"):  # larger, so that the first bench.json comes well before the last
        (problems / f"{name}.py").write_text(TINY.replace("torch.randn(32, 64)", "torch.randn(1024, 2048)"))
    out = tmp_path / "bench"
    env = dict(os.environ, KERNELAGENT_DEVICE="cpu", TRITON_INTERPRET="1")
    bench = subprocess.Popen([str(binary()), "bench", str(problems), "--out", str(out), "--db", str(tmp_path / "h.sqlite"),
                              "--python", sys.executable, "--device", "cpu", "--trials", "2"],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + 300
        while not (out / "bench.json").exists() and bench.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        first = json.loads((out / "bench.json").read_text())
    finally:
        os.killpg(bench.pid, signal.SIGKILL)
        bench.wait()
    assert first["complete"] is False
    statuses = [row["status"] for row in first["rows"]]
    assert [row["problem"] for row in first["rows"]] == ["a_relu", "b_relu", "c_relu"]
    done = statuses.count("ok")
    assert 1 <= done < 3 and statuses == ["ok"] * done + ["not_run"] * (3 - done)
    assert first["summary"]["problems"] == 3 and first["summary"]["run"] == done and first["summary"]["correct"] == done


def test_history_lists_the_runs_of_this_database(kernelagent, tmp_path):
    db = tmp_path / "h.sqlite"
    problem = DATA / "families" / "elementwise" / "problems" / "19_ReLU.py"
    for _ in range(2):
        assert kernelagent("optimize", problem, "--out", tmp_path / "o", db=db).returncode == 0
    r = kernelagent("history", "--json", db=db)
    assert r.returncode == 0, r.stderr
    runs = json.loads(r.stdout)["runs"]
    assert len(runs) == 2
    assert all(run["status"] == "ok" and run["problem"].endswith("19_ReLU.py") for run in runs)
    table = kernelagent("history", db=db)
    assert "19_ReLU.py" in table.stdout


def test_optimize_json_is_the_result_document(kernelagent, tmp_path):
    r = kernelagent("optimize", DATA / "families" / "elementwise" / "problems" / "25_Swish.py", "--out", tmp_path / "o", "--json",
                    db=tmp_path / "h.sqlite")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc == json.loads((tmp_path / "o" / "result.json").read_text())
    assert doc["problem"]["ops"] == ["aten.sigmoid.default", "aten.mul.Tensor"]
    # The baselines' own fp32 precision is a condition of every speedup: PyTorch's default is IEEE fp32.
    assert doc["reference_precision"]["fp32_matmul"] == "highest"
    # Every stage ran, in order, each with its wall time.
    assert [s["name"] for s in doc["stages"]] == ["load", "trace", "choose_family", "baselines", "search",
                                                   "finalists", "write"]
    assert all(s["seconds"] >= 0 for s in doc["stages"])
    assert sum(s["seconds"] for s in doc["stages"]) <= doc["elapsed_s"]


@pytest.mark.parametrize("name, words", [
    ("missing_get_inputs", "get_inputs"),
    ("raises_on_import", "broken on purpose"),
    ("returns_non_tensor", "tensor"),
    ("too_much_memory", "memory"),
    ("not_python", "not_python.py"),
])
def test_a_bad_problem_file_gets_one_clear_message(kernelagent, tmp_path, name, words):
    r = kernelagent("optimize", DATA / "problems" / "bad" / f"{name}.py", "--out", tmp_path / "o",
                    db=tmp_path / "h.sqlite")
    assert r.returncode == 2
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("kernelagent: ") and words in last, r.stderr
    assert "Traceback" not in r.stderr
    result = json.loads((tmp_path / "o" / "result.json").read_text())
    assert result["status"] in ("bad_problem", "out_of_memory")
    assert [s["name"] for s in result["stages"]] == ["load"]  # the stage that ended the run is the last


def test_an_unsupported_problem_names_its_ops(kernelagent, tmp_path):
    r = kernelagent("optimize", DATA / "problems" / "unsupported" / "sort.py", "--out", tmp_path / "o",
                    db=tmp_path / "h.sqlite")
    assert r.returncode == 3
    assert "no kernel family implements this problem" in r.stderr and "aten.sort" in r.stderr
    result = json.loads((tmp_path / "o" / "result.json").read_text())
    assert [s["name"] for s in result["stages"]] == ["load", "trace", "choose_family"]


def test_a_reference_that_draws_random_numbers_is_refused_as_such(kernelagent, tmp_path):
    r = kernelagent("optimize", DATA / "problems" / "unsupported" / "dropout_training.py", "--out", tmp_path / "o",
                    db=tmp_path / "h.sqlite")
    assert r.returncode == 3
    assert "draws random numbers (aten.bernoulli" in r.stderr and "eval mode" in r.stderr
    assert json.loads((tmp_path / "o" / "result.json").read_text())["status"] == "unsupported"


def test_bfloat16_products_are_refused_on_the_interpreter_with_the_reason(kernelagent, tmp_path):
    r = kernelagent("optimize", DATA / "problems" / "unsupported" / "bmm_bfloat16.py", "--out", tmp_path / "o",
                    db=tmp_path / "h.sqlite")
    assert r.returncode == 3
    assert "bfloat16 inputs cannot be checked on Triton's interpreter" in r.stderr, r.stderr
    result = json.loads((tmp_path / "o" / "result.json").read_text())
    assert result["status"] == "unsupported" and result["interpreter"] is True


def test_a_forward_that_branches_on_a_tensors_value_is_refused_as_such(kernelagent, tmp_path):
    r = kernelagent("optimize", DATA / "problems" / "unsupported" / "data_dependent_branch.py", "--out",
                    tmp_path / "o", db=tmp_path / "h.sqlite")
    assert r.returncode == 3
    assert "reads the value of a tensor in Python" in r.stderr and "make_fx" not in r.stderr, r.stderr


def test_a_tensor_of_no_elements_is_refused_by_its_shape(kernelagent, tmp_path):
    r = kernelagent("optimize", DATA / "problems" / "unsupported" / "empty_rows.py", "--out", tmp_path / "o",
                    db=tmp_path / "h.sqlite")
    assert r.returncode == 3
    assert "get_inputs()[0] has no elements (shape [0, 5])" in r.stderr, r.stderr
    assert json.loads((tmp_path / "o" / "result.json").read_text())["status"] == "unsupported"


def test_missing_problem_file_and_bad_flags(kernelagent, tmp_path):
    r = kernelagent("optimize", tmp_path / "nope.py", db=tmp_path / "h.sqlite")
    assert r.returncode == 2 and "does not exist" in r.stderr
    r = kernelagent("optimize", DATA / "families" / "elementwise" / "problems" / "19_ReLU.py", "--precision", "fast")
    assert r.returncode != 0 and "precision" in r.stderr
    r = kernelagent("frobnicate")
    assert r.returncode != 0


def test_a_python_without_torch_is_an_environment_error(kernelagent, tmp_path):
    r = kernelagent("optimize", DATA / "families" / "elementwise" / "problems" / "19_ReLU.py", "--out", tmp_path / "o",
                    python="/nonexistent/python3", db=tmp_path / "h.sqlite")
    assert r.returncode == 4
    assert "--python" in r.stderr


def test_nothing_stored_is_lost_when_a_run_fails(kernelagent, tmp_path):
    db = tmp_path / "h.sqlite"
    assert kernelagent("optimize", DATA / "families" / "elementwise" / "problems" / "19_ReLU.py", "--out", tmp_path / "a",
                       db=db).returncode == 0
    assert kernelagent("optimize", DATA / "problems" / "bad" / "raises_on_import.py", "--out", tmp_path / "b",
                       db=db).returncode == 2
    runs = json.loads(kernelagent("history", "--json", db=db).stdout)["runs"]
    assert [r["status"] for r in runs] == ["bad_problem", "ok"]


@pytest.mark.parametrize("breakage,words", [
    ("manifest", "manifest.json"),
    ("template", "kernel.py.in"),
])
def test_a_broken_kernel_family_folder_is_named(kernelagent, tmp_path, breakage, words):
    # A copy of the installation with one family's manifest half-written, or one of its templates gone.
    home = tmp_path / "home"
    shutil.copytree(ROOT / "python", home / "python", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(ROOT / "families", home / "families")
    family = home / "families" / "mapreduce"
    if breakage == "manifest":
        text = (family / "manifest.json").read_text()
        (family / "manifest.json").write_text(text[: len(text) // 2])
    else:
        (family / "kernel.py.in").unlink()
    r = kernelagent("optimize", DATA / "families" / "elementwise" / "problems" / "19_ReLU.py", "--out", tmp_path / "o",
                    "--home", home, db=tmp_path / "h.sqlite")
    assert r.returncode == 4, r.stderr
    assert words in r.stderr and str(family) in r.stderr, r.stderr
    assert "internal error" not in r.stderr


def test_a_resumed_bench_keeps_the_finished_rows_and_runs_the_others(kernelagent, tmp_path):
    """bench --resume: a bench spread over several sittings is one table; a row kept is not measured again."""
    problems = tmp_path / "problems"
    problems.mkdir()
    for name in ("a_relu", "b_relu"):
        (problems / f"{name}.py").write_text(TINY)
    out = tmp_path / "bench"
    r = kernelagent("bench", problems, "--out", out, db=tmp_path / "h.sqlite")
    assert r.returncode == 0, r.stderr
    first = json.loads((out / "bench.json").read_text())
    # As a bench stopped after its first problem leaves it, with a mark on the kept row.
    doc = json.loads(json.dumps(first))
    doc["rows"][0]["elapsed_s"] = 1234.5
    doc["rows"][1] = {"problem": "b_relu", "status": "not_run", "message": "not reached"}
    doc["complete"] = False
    (out / "bench.json").write_text(json.dumps(doc))
    (problems / "c_relu.py").write_text(TINY)
    r = kernelagent("bench", problems, "--out", out, "--resume", db=tmp_path / "h.sqlite")
    assert r.returncode == 0, r.stderr
    assert "resumed     1 of 3 problems" in r.stdout
    again = json.loads((out / "bench.json").read_text())
    assert [row["problem"] for row in again["rows"]] == ["a_relu", "b_relu", "c_relu"]
    assert again["rows"][0]["elapsed_s"] == 1234.5  # kept, not run again
    assert [row["status"] for row in again["rows"]] == ["ok", "ok", "ok"]
    assert again["complete"] is True and again["summary"]["run"] == 3
    # Another policy's bench.json is not resumed into.
    r = kernelagent("bench", problems, "--out", out, "--resume", "--precision", "tf32", db=tmp_path / "h.sqlite")
    assert r.returncode == 2 and "under strict, not on" in r.stderr
