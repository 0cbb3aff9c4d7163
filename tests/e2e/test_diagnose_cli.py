"""diagnose and profile from the command line: real ncu CSVs in, the documented JSON and clear errors out."""

import json

import pytest

from cli_harness import DATA, kernelagent  # noqa: F401  (kernelagent is a fixture)

NCU = DATA / "ncu" / "h200"


def test_json_has_the_documented_shape_and_ranked_bottlenecks(kernelagent):
    r = kernelagent("diagnose", "--ncu-csv", NCU / "mem_coalesced.raw.csv", "--json")
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["gpu"] == "NVIDIA H200"
    [k] = doc["kernels"]
    assert k["name"] == "add_k" and k["duration_us"] == pytest.approx(183.04)
    assert k["at_roofline"] is True
    assert set(k["sol"]) >= {"compute_pct", "memory_pct", "dram_pct"}
    top = k["bottlenecks"][0]
    assert (top["category"], top["cause"]) == ("memory_bound", "dram_bandwidth_saturated")
    assert {"metric", "value", "threshold", "reading"} <= set(top["evidence"][0])
    confidences = [b["confidence"] for b in k["bottlenecks"]]
    assert confidences == sorted(confidences, reverse=True)


def test_the_human_note_reads_like_an_expert(kernelagent):
    r = kernelagent("diagnose", "--ncu-csv", NCU / "latency_tiny_grid.raw.csv")
    assert r.returncode == 0, r.stderr
    assert "small_grid" in r.stdout and "4 programs for 132 SMs" in r.stdout
    assert "at roofline: no" in r.stdout


def test_library_kernels_are_skipped_unless_asked(kernelagent):
    r = kernelagent("diagnose", "--ncu-csv", NCU / "mixed_program.raw.csv", "--json")
    names = [k["name"] for k in json.loads(r.stdout)["kernels"]]
    assert names == ["add_kernel"]
    r = kernelagent("diagnose", "--ncu-csv", NCU / "mixed_program.raw.csv", "--all-kernels", "--json")
    assert len(json.loads(r.stdout)["kernels"]) > 1
    r = kernelagent("diagnose", "--ncu-csv", NCU / "mixed_program.raw.csv", "--kernel", "sgemm", "--all-kernels", "--json")
    [k] = json.loads(r.stdout)["kernels"]
    assert "tensor_cores_unused" in [b["cause"] for b in k["bottlenecks"]]


@pytest.mark.parametrize("content, words", [
    ("", "empty"),
    ("hello, this is not a profile\n", "no Nsight Compute"),
    ('"ID","Kernel Name","gpu__time_duration.sum"\n"","","ns"\n', "no kernel"),
])
def test_bad_input_gets_one_clear_message(kernelagent, tmp_path, content, words):
    f = tmp_path / "bad.csv"
    f.write_text(content)
    r = kernelagent("diagnose", "--ncu-csv", f)
    assert r.returncode == 2
    assert r.stderr.startswith(f"kernelagent: {f}: ") and words.lower() in r.stderr.lower(), r.stderr


def test_a_csv_without_the_needed_metrics_says_nothing_stands_out(kernelagent, tmp_path):
    f = tmp_path / "thin.csv"
    f.write_text('"ID","Kernel Name","Block Size","Grid Size","some__other_metric"\n"","","","",""\n'
                 '"0","k","(128, 1, 1)","(4, 1, 1)","1"\n')
    r = kernelagent("diagnose", "--ncu-csv", f, "--gpu", "NVIDIA H200", "--json")
    assert r.returncode == 0, r.stderr
    [k] = json.loads(r.stdout)["kernels"]
    assert k["bottlenecks"] == [] and k["at_roofline"] is False


def test_details_page_and_missing_file_are_rejected(kernelagent, tmp_path):
    r = kernelagent("diagnose", "--ncu-csv", NCU / "mixed_program.details.csv")
    assert r.returncode == 2 and "raw" in r.stderr
    r = kernelagent("diagnose", "--ncu-csv", tmp_path / "nope.csv")
    assert r.returncode == 2 and "nope.csv" in r.stderr


def test_profile_without_ncu_or_kernel_says_what_to_do(kernelagent, tmp_path):
    problem = DATA / "families" / "elementwise" / "problems" / "19_ReLU.py"
    r = kernelagent("profile", problem, "--db", tmp_path / "h.sqlite")
    assert r.returncode == 2 and "optimize" in r.stderr
    kernel = DATA / "families" / "elementwise" / "golden" / "19_ReLU.py"
    r = kernelagent("profile", problem, "--kernel", kernel, "--ncu", tmp_path / "no-ncu", "--db", tmp_path / "h.sqlite")
    assert r.returncode == 4 and "--ncu" in r.stderr
