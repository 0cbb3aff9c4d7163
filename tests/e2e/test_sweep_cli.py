"""sweep and replay from the command line: a record written from real interpreter runs, and the
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


def test_sweep_where_keeps_only_the_configurations_with_those_values(kernelagent, tmp_path):
    problem = tmp_path / "tiny.py"
    problem.write_text(TINY)
    out = tmp_path / "part.sweep.json"
    r = kernelagent("sweep", problem, "--out", out, "--family", "elementwise", "--where", "num_warps=4",
                    "--where", "num_warps=8", "--where", "eviction=none", db=tmp_path / "h.sqlite")
    assert r.returncode == 0, r.stderr
    rec = json.loads(out.read_text())
    assert rec["where"] == {"num_warps": [4, 8], "eviction": ["none"]}  # one knob's values are alternatives
    assert rec["configs"] and all(c["config"]["num_warps"] in (4, 8) and c["config"]["eviction"] == "none"
                                  for c in rec["configs"])
    assert {c["config"]["num_warps"] for c in rec["configs"]} == {4, 8}
    per_thread = next(k for k in rec["knobs"] if k["name"] == "elems_per_thread")
    assert len(rec["configs"]) <= 2 * len(per_thread["domain"])


def test_sweep_where_refuses_an_unknown_knob_or_value(kernelagent, tmp_path):
    problem = tmp_path / "tiny.py"
    problem.write_text(TINY)
    for where, said in (("BLOCK_Q=4", "BLOCK_Q"), ("num_warps=3", "domain"), ("num_warps", "KNOB=VALUE")):
        r = kernelagent("sweep", problem, "--out", tmp_path / "s.json", "--family", "elementwise", "--where", where,
                        db=tmp_path / "h.sqlite")
        assert r.returncode == 2 and said in r.stderr, (where, r.stderr)


def test_sweep_where_takes_a_value_of_any_family_without_family(kernelagent, tmp_path):
    # BLOCK_M=128 is in the matmul family's domain, not in the matvec family's (which also has a BLOCK_M).
    problem = tmp_path / "tiny.py"
    problem.write_text(TINY)
    r = kernelagent("sweep", problem, "--out", tmp_path / "s.json", "--where", "BLOCK_M=128", db=tmp_path / "h.sqlite")
    assert "domain" not in r.stderr, r.stderr


def test_sweep_names_an_unknown_family(kernelagent, tmp_path):
    problem = tmp_path / "tiny.py"
    problem.write_text(TINY)
    r = kernelagent("sweep", problem, "--out", tmp_path / "s.json", "--family", "convolution", db=tmp_path / "h.sqlite")
    assert r.returncode == 2 and "convolution" in r.stderr


def test_replay_runs_the_search_on_a_record_without_a_gpu(kernelagent):
    r = kernelagent("replay", SQUARE, SWEEPS / "1_Square_matrix_multiplication_.sweep.json",
                    "--search", "exhaustive", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["strategy"] == "exhaustive" and doc["stop_reason"] == "space exhausted"
    record = json.loads((SWEEPS / "1_Square_matrix_multiplication_.sweep.json").read_text())
    assert len(doc["trials"]) == len(record["configs"]) >= 32
    assert doc["best"]["median_us"] == doc["sweep_best_us"]
    assert doc["best"]["config"]["input_precision"] == "tf32x3"
    again = kernelagent("replay", SQUARE, SWEEPS / "1_Square_matrix_multiplication_.sweep.json",
                        "--search", "exhaustive", "--json")
    assert json.loads(again.stdout)["trials"] == doc["trials"]  # deterministic


def test_replay_of_a_file_that_is_not_a_sweep_is_refused(kernelagent, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"schema": "kernelagent.result/1"}')
    r = kernelagent("replay", SQUARE, bad)
    assert r.returncode == 2 and "not a sweep record" in r.stderr


def test_replay_prints_each_trial_and_how_soon_it_came_near_the_best(kernelagent):
    r = kernelagent("replay", SQUARE, SWEEPS / "1_Square_matrix_multiplication_.sweep.json", "--trials", "3")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("replay      ") and "with the guided search" in r.stdout
    assert "stopped     trial budget after 3 trials" in r.stdout


def test_optimize_points_a_replay_at_its_own_subcommand(kernelagent):
    r = kernelagent("optimize", SQUARE, "--replay", SWEEPS / "1_Square_matrix_multiplication_.sweep.json")
    assert r.returncode != 0
    assert "kernelagent replay PROBLEM.py S.json" in r.stderr
