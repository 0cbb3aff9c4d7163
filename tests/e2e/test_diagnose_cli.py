"""diagnose and profile from the command line: real ncu CSVs in, the documented JSON and clear errors out."""

import csv
import io
import json
import random
import subprocess

import pytest

from cli_harness import DATA, binary, kernelagent  # noqa: F401  (kernelagent is a fixture)

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


# ---- values that cannot be read, or cannot be right, and text that is not a profile ----------------------

def _page_with(metric: str, value: str, fixture: str = "mem_coalesced.raw.csv") -> str:
    """The fixture's raw page with the first kernel row's cell of `metric` set to `value`."""
    lines = (NCU / fixture).read_text().split("\n")
    head = next(i for i, line in enumerate(lines) if line.startswith('"ID",'))
    names = next(csv.reader([lines[head]]))
    row = next(csv.reader([lines[head + 2]]))
    row[names.index(metric)] = value
    out = io.StringIO()
    csv.writer(out, quoting=csv.QUOTE_ALL, lineterminator="").writerow(row)
    lines[head + 2] = out.getvalue()
    return "\n".join(lines)


@pytest.mark.parametrize("metric, value, why", [
    ("gpu__time_duration.sum", "n/a", "not a finite number"),
    ("gpu__time_duration.sum", "nan", "not a finite number"),
    ("dram__bytes_read.sum", "1e400", "not a finite number"),
    ("dram__bytes_read.sum", "1e308", "petabyte"),
    ("gpu__time_duration.sum", "-5", "negative"),
])
def test_unreadable_or_absurd_values_are_named_and_lower_the_confidence(kernelagent, tmp_path, metric, value, why):
    f = tmp_path / "edited.csv"
    f.write_text(_page_with(metric, value))
    r = kernelagent("diagnose", "--ncu-csv", f, "--json")
    assert r.returncode == 0, r.stderr
    [k] = json.loads(r.stdout)["kernels"]
    named = {u["metric"]: u for u in k["unreadable_metrics"]}
    assert metric in named and why in named[metric]["why"], k["unreadable_metrics"]
    shown = named[metric]["value"]  # the cell's text, or the number as read
    assert shown == value or float(shown) == float(value), shown
    assert all(b["confidence"] <= 0.5 for b in k["bottlenecks"]), k["bottlenecks"]
    assert "unreadable" in k["roofline_reading"]
    text = kernelagent("diagnose", "--ncu-csv", f)
    assert text.returncode == 0 and "unreadable metrics (1;" in text.stdout and metric in text.stdout, text.stdout
    # The clean page names nothing.
    clean = json.loads(kernelagent("diagnose", "--ncu-csv", NCU / "mem_coalesced.raw.csv", "--json").stdout)
    assert clean["kernels"][0]["unreadable_metrics"] == []


def test_a_csv_of_random_text_is_refused_not_diagnosed(kernelagent, tmp_path):
    f = tmp_path / "words.csv"
    rng = random.Random(3)
    words = ["lorem", "ipsum", "dolor", "n/a", "sit", "amet"]
    rows = ['"ID","Kernel Name","alpha","beta","gamma"'] + [
        ",".join(f'"{x}"' for x in [str(i), rng.choice(words), rng.choice(words), rng.choice(words), rng.choice(words)])
        for i in range(5)]
    f.write_text("\n".join(rows) + "\n")
    r = kernelagent("diagnose", "--ncu-csv", f)
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "no Nsight Compute metric column" in r.stderr, r.stderr


def _mutations(rng: random.Random):
    """(name, text, metric or None) for random bytes and damaged copies of the recorded profiles; the metric
    is set when the damage is a value in a metric the diagnosis always reads, which must then be named."""
    garbage = ["n/a", "nan", "inf", "1e400", "-1e400", "1e308", "-5", "abc", "1,2", "0x10", "9e18", "+-1"]
    always_read = ["gpu__time_duration.sum", "dram__bytes_read.sum", "launch__grid_size",
                   "sm__throughput.avg.pct_of_peak_sustained_elapsed", "launch__waves_per_multiprocessor"]
    fixtures = sorted(NCU.glob("*.raw.csv"))
    shared = NCU.parents[3].parent / "shared" / "fixtures" / "ncu" / "h200"
    if shared.is_dir():  # the recorded originals, where they differ from the project's copy
        fixtures += [p for p in sorted(shared.glob("*.raw.csv")) if not (NCU / p.name).exists()
                     or p.read_bytes() != (NCU / p.name).read_bytes()]
    for i in range(8):
        yield f"random-bytes-{i}", bytes(rng.randrange(256) for _ in range(rng.randrange(2000))), None
    for i in range(16):
        fixture = rng.choice(fixtures)
        data = bytearray(fixture.read_bytes())
        kind = i % 4
        if kind == 0:
            for _ in range(30):
                data[rng.randrange(len(data))] = rng.randrange(256)
            yield f"{fixture.name}-flipped-{i}", bytes(data), None
        elif kind == 1:
            yield f"{fixture.name}-cut-{i}", bytes(data[:rng.randrange(len(data))]), None
        elif kind == 2:
            lines = bytes(data).split(b"\n")
            del lines[rng.randrange(len(lines))]
            yield f"{fixture.name}-line-dropped-{i}", b"\n".join(lines), None
        else:
            metric = rng.choice(always_read)
            if fixture.name.startswith("mixed_program"):
                fixture = NCU / "mem_coalesced.raw.csv"
            yield (f"{fixture.name}-{metric}-garbage-{i}",
                   _page_with(metric, rng.choice(garbage), fixture.name).encode(), metric)


def test_fuzzed_profiles_are_refused_or_diagnosed_with_their_unreadable_metrics_named(kernelagent, tmp_path):
    rng = random.Random(20261204)
    seen = {"refused": 0, "diagnosed": 0}
    for name, data, metric in _mutations(rng):
        f = tmp_path / f"{name}.csv"
        f.write_bytes(data)
        r = subprocess.run([str(binary()), "diagnose", "--ncu-csv", str(f), "--all-kernels", "--json"],
                           capture_output=True, timeout=60)
        assert r.returncode in (0, 2), (name, r.returncode, r.stderr[-2000:])  # no crash, no internal error (70)
        err = r.stderr.decode("utf-8", "replace")
        if r.returncode == 2:
            seen["refused"] += 1
            assert err.startswith("kernelagent: ") and err.count("\n") == 1, (name, err)
            continue
        seen["diagnosed"] += 1
        doc = json.loads(r.stdout)  # valid JSON, whatever bytes the file held
        assert doc["kernels"], name
        for k in doc["kernels"]:
            assert all(0 <= b["confidence"] <= 1 for b in k["bottlenecks"]), name
            if k["unreadable_metrics"]:
                assert all(b["confidence"] <= 0.5 for b in k["bottlenecks"]), name
        if metric:
            assert metric in {u["metric"] for u in doc["kernels"][0]["unreadable_metrics"]}, (name, doc["kernels"][0])
    assert seen["refused"] > 0 and seen["diagnosed"] > 0, seen


# ---- profile of a kernel file of one's own --------------------------------------------------------------

FAKE_NCU = DATA / "fake_ncu" / "ncu"


def _profile(kernelagent, tmp_path, kernel, *flags):
    import os
    import sys
    os.environ["FAKE_NCU_CSV"] = str(NCU / "mem_coalesced.raw.csv")
    try:
        return kernelagent("profile", DATA / "cheats" / "scaled_relu.py", "--kernel", kernel, "--ncu", FAKE_NCU,
                           "--python", sys.executable, "--db", tmp_path / "h.sqlite", "--out", tmp_path / "prof",
                           *flags)
    finally:
        del os.environ["FAKE_NCU_CSV"]


def test_profile_of_a_users_kernel_file_is_diagnosed_as_diagnose_does(kernelagent, tmp_path):
    # The profiled program really loads the problem and runs the user's ModelNew (on the CPU here); the
    # stand-in ncu then prints a recorded page, so the diagnosis is that page's.
    r = _profile(kernelagent, tmp_path, DATA / "cheats" / "honest.py", "--json", "--bytes", "8448", "--flops", "0")
    assert r.returncode == 0, r.stderr
    profiled = json.loads(r.stdout)
    same = kernelagent("diagnose", "--ncu-csv", tmp_path / "prof" / "profile.ncu.csv", "--bytes", "8448", "--flops",
                       "0", "--json")
    assert profiled == json.loads(same.stdout)
    assert [k["name"] for k in profiled["kernels"]] == ["add_k"]
    text = _profile(kernelagent, tmp_path, DATA / "cheats" / "honest.py")
    assert text.returncode == 0 and text.stdout.startswith(f"profiled {DATA / 'cheats' / 'honest.py'} (ncu raw page: ")


def test_profile_of_a_kernel_file_whose_model_new_raises_names_the_failure(kernelagent, tmp_path):
    k = tmp_path / "broken.py"
    k.write_text("import torch.nn as nn\nclass ModelNew(nn.Module):\n    def __init__(self, cols):\n"
                 "        super().__init__()\n    def forward(self, x):\n        raise ValueError('not yet')\n")
    r = _profile(kernelagent, tmp_path, k, "--json")
    assert r.returncode == 2 and r.stdout == ""
    assert "the profiled program failed" in r.stderr and "not yet" in r.stderr, r.stderr
