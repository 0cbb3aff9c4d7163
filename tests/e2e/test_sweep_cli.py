"""sweep and optimize --replay from the command line: a record written from real interpreter runs, and the
search replayed against the H200 records with no GPU."""

import json

from cli_harness import DATA, ROOT, kernelagent, TINY  # noqa: F401  (kernelagent is a fixture)

SWEEPS = DATA / "sweeps" / "h200"
SQUARE = ROOT / "examples" / "matmul" / "1_Square_matrix_multiplication_.py"



def test_sweep_records_every_configuration_of_the_space(kernelagent, tmp_path):
    problem = tmp_path / "tiny.py"
    problem.write_text(TINY)
    out = tmp_path / "tiny.sweep.json"
    r = kernelagent("sweep", problem, "--out", out, "--family", "elementwise", db=tmp_path / "h.sqlite")
    assert r.returncode == 0, r.stderr
    rec = json.loads(out.read_text())
    assert rec["schema"] == "kernelagent.sweep/1" and rec["family"] == "elementwise"
    space = 1
    for k in rec["knobs"]:
        space *= len(k["domain"])
    configs = [json.dumps(c["config"], sort_keys=True) for c in rec["configs"]]
    assert len(configs) == len(set(configs)) and 1 < len(configs) <= space
    assert all(c["status"] == "ok" for c in rec["configs"])
    assert rec["device"] == "cpu"  # checked on the interpreter, never timed
    assert "median_us" not in rec["configs"][0]


def test_sweep_names_an_unknown_family(kernelagent, tmp_path):
    problem = tmp_path / "tiny.py"
    problem.write_text(TINY)
    r = kernelagent("sweep", problem, "--out", tmp_path / "s.json", "--family", "convolution", db=tmp_path / "h.sqlite")
    assert r.returncode == 2 and "convolution" in r.stderr


def test_replay_runs_the_search_on_a_record_without_a_gpu(kernelagent):
    r = kernelagent("optimize", SQUARE, "--replay", SWEEPS / "1_Square_matrix_multiplication_.sweep.json",
                    "--search", "exhaustive", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["strategy"] == "exhaustive" and doc["stop_reason"] == "space exhausted"
    record = json.loads((SWEEPS / "1_Square_matrix_multiplication_.sweep.json").read_text())
    assert len(doc["trials"]) == len(record["configs"]) >= 32
    assert doc["best"]["median_us"] == doc["sweep_best_us"]
    assert doc["best"]["config"]["input_precision"] == "tf32x3"
    again = kernelagent("optimize", SQUARE, "--replay", SWEEPS / "1_Square_matrix_multiplication_.sweep.json",
                        "--search", "exhaustive", "--json")
    assert json.loads(again.stdout)["trials"] == doc["trials"]  # deterministic


def test_replay_of_a_file_that_is_not_a_sweep_is_refused(kernelagent, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "kernelagent.result/1"}')
    r = kernelagent("optimize", SQUARE, "--replay", bad)
    assert r.returncode == 2 and "not a sweep record" in r.stderr
