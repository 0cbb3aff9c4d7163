"""`kernelagent check PROBLEM KERNEL` from the command line, on Triton's interpreter: the documented JSON, the
human summary, fresh seeds, and one clear line for a kernel file that cannot be used. The cheats are in
test_check_cheats.py."""

import json

import pytest

from cli_harness import DATA, kernelagent  # noqa: F401  (kernelagent is a fixture)

CHEATS = DATA / "cheats"
PROBLEM = CHEATS / "scaled_relu.py"
HONEST = CHEATS / "honest.py"


def check(kernelagent, *args):
    return kernelagent("check", *map(str, args), "--device", "cpu", timeout=180)


def test_the_json_document_has_the_documented_fields_and_is_written_to_check_json(kernelagent, tmp_path):
    r = check(kernelagent, PROBLEM, HONEST, "--out", tmp_path, "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc == json.loads((tmp_path / "check.json").read_text())
    assert doc["schema"] == "kernelagent.check/1"
    assert (doc["status"], doc["passed"]) == ("ok", True)
    assert doc["problem"]["path"] == str(PROBLEM) and doc["kernel"]["path"] == str(HONEST)
    assert doc["problem"]["outputs"] == [{"kind": "tensor", "shape": [16, 64], "dtype": "float32"}]
    assert (doc["device"], doc["interpreter"], doc["gpu"]) == ("cpu", True, None)
    assert doc["dtype"] == "float32" and doc["tolerance"] == {"atol": 1e-4, "rtol": 1e-4}
    assert len(doc["seeds"]) == 3 and len(set(doc["seeds"])) == 3 and min(doc["seeds"]) >= 16
    c = doc["correctness"]
    assert (c["status"], c["seeds"], c["seeds_checked"], c["max_abs_err"]) == ("ok", doc["seeds"], 3, 0.0)
    assert "aten.empty_like.default" in c["ops"]  # what the forward called: an allocation, no compute
    # Nothing timed on the CPU, and it says so; the problem's compulsory work is still given.
    assert doc["timing"] is None and doc["speedup"] is None and "nothing was timed" in doc["note"]
    assert doc["roofline"] == {"bytes": 2 * 16 * 64 * 4 + 64 * 4, "input_bytes": 16 * 64 * 4 + 64 * 4, "flops": 0.0}
    assert "after_timing" not in doc and doc["warnings"] == []
    assert (tmp_path / "worker.log").exists()


def test_fresh_seeds_differ_between_checks_and_a_seed_list_repeats_one(kernelagent, tmp_path):
    a = json.loads(check(kernelagent, PROBLEM, HONEST, "--out", tmp_path / "a", "--json", "--seeds", "2").stdout)
    b = json.loads(check(kernelagent, PROBLEM, HONEST, "--out", tmp_path / "b", "--json", "--seeds", "2").stdout)
    assert len(a["seeds"]) == len(b["seeds"]) == 2 and a["seeds"] != b["seeds"]
    again = check(kernelagent, PROBLEM, HONEST, "--out", tmp_path / "c", "--json", "--seed-list",
                  ",".join(map(str, a["seeds"])))
    assert json.loads(again.stdout)["seeds"] == a["seeds"]


def test_the_human_summary_gives_the_verdict_the_seeds_and_why_nothing_was_timed(kernelagent, tmp_path):
    r = check(kernelagent, PROBLEM, HONEST, "--out", tmp_path, "--precision", "tf32")
    assert r.returncode == 0, r.stderr
    lines = {line[:12].strip(): line[12:] for line in r.stdout.splitlines()}
    assert lines["status"] == "ok: passed every check"
    assert lines["conditions"] == "float32 on CPU (Triton interpreter), precision tf32, tolerance atol=0.01 rtol=0.01"
    seeds = lines["seeds"].split(" (")[0].split()
    assert len(seeds) == 3 and f"repeat with --seed-list {','.join(seeds)}" in lines["seeds"]
    assert lines["time"].startswith("not timed: no CUDA GPU")
    assert lines["result"] == str(tmp_path / "check.json")


def test_a_failing_kernel_says_where_and_why_and_exits_1(kernelagent, tmp_path):
    r = check(kernelagent, PROBLEM, CHEATS / "torch_compute.py", "--out", tmp_path)
    assert r.returncode == 1
    assert "status      FAILED cheat_torch_compute in the check: seed " in r.stdout
    assert r.stderr.strip().splitlines()[-1].startswith("kernelagent: kernel file ")


def test_a_kernel_whose_first_call_raises_is_a_failed_kernel_not_bad_input(kernelagent, tmp_path):
    k = tmp_path / "raises.py"
    k.write_text("import torch.nn as nn\nclass ModelNew(nn.Module):\n    def __init__(self, cols):\n"
                 "        super().__init__()\n    def forward(self, x):\n        raise ValueError('no kernel yet')\n")
    r = check(kernelagent, PROBLEM, k, "--out", tmp_path / "out", "--json")
    assert r.returncode == 1, r.stderr
    doc = json.loads(r.stdout)
    assert (doc["status"], doc["failed_in"]) == ("runtime_error", "building the kernel")
    assert "ValueError: no kernel yet" in doc["message"]


@pytest.mark.parametrize("text, words", [
    ("import torch\nclass ModelNew(torch.nn.Module)\n    pass\n", "does not import: import of"),
    ("import no_such_module_here\n", "does not import: import of"),
    ("import torch.nn as nn\nclass Model(nn.Module):\n    pass\n", "defines no ModelNew"),
    ("import torch.nn as nn\nclass ModelNew(nn.Module):\n    def __init__(self):\n        super().__init__()\n",
     "ModelNew(*get_init_inputs()) cannot be built"),
])
def test_a_kernel_file_that_cannot_be_used_is_one_line_naming_the_file(kernelagent, tmp_path, text, words):
    k = tmp_path / "kernel.py"
    k.write_text(text)
    r = check(kernelagent, PROBLEM, k, "--out", tmp_path / "out", "--json")
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert r.stdout == ""
    [line] = [x for x in r.stderr.splitlines() if x.startswith("kernelagent: ")]
    assert line.startswith(f"kernelagent: kernel file {k} ") and words in line, line


@pytest.mark.parametrize("args, words", [
    (["--seeds", "0"], "--seeds"),
    (["--seeds", "2", "--seed-list", "1,2"], "excludes"),
    (["--seed-list", "1,x"], "--seed-list"),
    (["--db", "h.sqlite"], "--db"),
])
def test_bad_flags_are_one_line_and_exit_2(kernelagent, tmp_path, args, words):
    r = kernelagent("check", PROBLEM, HONEST, "--out", tmp_path, *args)
    assert r.returncode == 2 and words in r.stderr and r.stderr.count("\n") == 1, r.stderr


def test_missing_files_are_bad_input(kernelagent, tmp_path):
    r = check(kernelagent, PROBLEM, tmp_path / "nope.py", "--out", tmp_path)
    assert r.returncode == 2 and "kernel file" in r.stderr and "nope.py" in r.stderr
    r = check(kernelagent, tmp_path / "nope.py", HONEST, "--out", tmp_path)
    assert r.returncode == 2 and "nope.py" in r.stderr
    r = check(kernelagent, DATA / "problems" / "bad" / "raises_on_import.py", HONEST, "--out", tmp_path)
    assert r.returncode == 2 and "raises_on_import.py" in r.stderr
