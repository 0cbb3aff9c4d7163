"""`kernelagent optimize PROBLEM --kernel KERNEL.py` from the command line, on Triton's interpreter: a user's own
kernel file tuned over the constants it marks (docs/user-kernels.md). On the CPU the search checks each
configuration and times none; the H200 figures are in bench/README.md."""

import json
import re

from cli_harness import DATA, ROOT, kernelagent  # noqa: F401  (kernelagent is a fixture)

PROBLEM = DATA / "user_kernels" / "small_layer_norm.py"
KERNEL = ROOT / "examples" / "user_kernels" / "layer_norm_naive.py"


def test_a_users_kernel_is_tuned_over_its_marks_and_written_back_as_that_file(kernelagent, tmp_path):
    out = tmp_path / "out"
    r = kernelagent("optimize", PROBLEM, "--kernel", KERNEL, "--out", out, "--trials", "3", "--json",
                    db=tmp_path / "h.sqlite", timeout=400)
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["status"] == "ok" and doc["family"] == "kernel:layer_norm_naive"
    # Three configurations checked, the file's own first; each knob comes from one marked constant.
    configs = [t["config"] for t in doc["trial_list"]]
    assert len(configs) == 3 and len({json.dumps(c, sort_keys=True) for c in configs}) == 3
    start = {"STATS_BLOCK": 256, "APPLY_BLOCK": 256, "STATS_SPLIT": 1, "num_warps": 1}
    assert configs[0] == start and doc["start"]["config"] == start and doc["start"]["status"] == "ok"
    assert all(t["status"] == "ok" for t in doc["trial_list"]), doc["trial_list"]
    # Nothing is timed on the CPU, so there is no speedup over the start to give.
    assert doc["start"]["median_us"] is None and doc["start"]["best_median_us"] is None
    assert "best_speedup" not in doc["start"]
    # kernel.py is the user's file with the winner's values set, and every other line as it was.
    best = doc["best"]["config"]
    tuned = (out / "kernel.py").read_text().splitlines()
    original = KERNEL.read_text().splitlines()
    assert tuned[0].startswith("# small_layer_norm.py: configuration ")
    assert len(tuned) == len(original) + 1
    changed = [(a, b) for a, b in zip(original, tuned[1:]) if a != b]
    for before, after in changed:
        name = before.split(" ")[0]
        assert re.match(rf"{name} = \d+  # kernelagent: ", after), after
    values = {line.split(" ")[0]: int(line.split(" ")[2]) for line in tuned if "# kernelagent: " in line and " = " in line}
    assert values == {"STATS_BLOCK": best["STATS_BLOCK"], "APPLY_BLOCK": best["APPLY_BLOCK"],
                      "STATS_SPLIT": best["STATS_SPLIT"], "NUM_WARPS": best["num_warps"]}
    # The tuned file is itself a kernel file that can be tuned again, and the check passes it.
    again = kernelagent("check", PROBLEM, out / "kernel.py", "--device", "cpu", "--seeds", "1", timeout=300)
    assert again.returncode == 0 and "ok: passed every check" in again.stdout, again.stdout + again.stderr
    # Split statistics (parts of a row combined where it is normalised; at 300 elements a row, 8 parts of 256
    # leave 6 empty) pass the check too.
    split = tmp_path / "split.py"
    split.write_text(KERNEL.read_text().replace("STATS_SPLIT = 1  #", "STATS_SPLIT = 8  #"))
    r = kernelagent("check", PROBLEM, split, "--device", "cpu", "--seeds", "1", timeout=300)
    assert r.returncode == 0 and "ok: passed every check" in r.stdout, r.stdout + r.stderr


def test_a_kernel_file_without_marks_or_with_a_bad_mark_gets_one_clear_line(kernelagent, tmp_path):
    plain = tmp_path / "plain.py"
    plain.write_text(KERNEL.read_text().replace("# kernelagent:", "# values:"))
    r = kernelagent("optimize", PROBLEM, "--kernel", plain, "--out", tmp_path / "a", db=tmp_path / "h.sqlite")
    assert r.returncode == 2 and "marks no constant to tune" in r.stderr and str(plain) in r.stderr, r.stderr
    assert not (tmp_path / "a").exists()  # refused before anything was written
    bad = tmp_path / "bad.py"
    bad.write_text(KERNEL.read_text().replace("NUM_WARPS = 1  # kernelagent: 2, 4", "NUM_WARPS = 1  # kernelagent: 2, four"))
    r = kernelagent("optimize", PROBLEM, "--kernel", bad, "--out", tmp_path / "b", db=tmp_path / "h.sqlite")
    assert r.returncode == 2 and re.search(r"bad\.py line \d+: 'four' in the values of NUM_WARPS", r.stderr), r.stderr
    r = kernelagent("optimize", PROBLEM, "--kernel", tmp_path / "missing.py", "--out", tmp_path / "c")
    assert r.returncode == 2 and "missing.py" in r.stderr, r.stderr
