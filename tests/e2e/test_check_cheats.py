"""The cheat suite: `kernelagent check` on every kernel of tests/data/cheats, each of which fakes a result in
its own way, must report the status its entry in cases.json names.

On the CPU (Triton's interpreter) a GPU-only cheat (`cpu_status` ok) is asserted to be what it is there, a
correct kernel, which shows that on a GPU it fails for the cheat alone; scripts/check-cheats asserts its
GPU status on a GPU (scripts/gpu-check runs it).
"""

import json

import pytest

from cli_harness import DATA, kernelagent  # noqa: F401  (kernelagent is a fixture)

CHEATS = DATA / "cheats"
SUITE = json.loads((CHEATS / "cases.json").read_text())
PROBLEM = CHEATS / SUITE["problem"]


def _check(kernelagent, kernel, out, *flags):
    r = kernelagent("check", PROBLEM, CHEATS / kernel, "--device", "cpu", "--out", out, "--json", *flags,
                    timeout=180)
    assert r.returncode in (0, 1), (r.returncode, r.stderr[-3000:])
    return r, json.loads(r.stdout)


@pytest.mark.parametrize("case", SUITE["cases"], ids=[c["kernel"].removesuffix(".py") for c in SUITE["cases"]])
def test_each_cheat_gets_its_status(kernelagent, tmp_path, case):
    expected = case.get("cpu_status", case["status"])
    r, doc = _check(kernelagent, case["kernel"], tmp_path / "out")
    assert doc["status"] == expected, (case["kernel"], doc.get("message"))
    assert r.returncode == (0 if expected == "ok" else 1)
    assert doc["passed"] is (expected == "ok")
    if expected == "ok":
        assert doc["correctness"]["seeds_checked"] == 3 and doc["timing"] is None
        return
    # The verdict is one line on stderr naming the file and the status; the document says where it failed.
    assert r.stderr.strip().splitlines()[-1].startswith(f"kernelagent: kernel file {CHEATS / case['kernel']} failed: "
                                                        f"{expected}: ")
    if "failed_in" in case:
        assert doc["failed_in"] == case["failed_in"]
    if "words" in case:
        assert case["words"] in doc["message"], doc["message"]
    if "caught_with_seed_list" in case:
        # Even the seeds it was tuned for do not let it through: the last of them runs with the model's
        # parameters changed, which answers computed from the values it was built with do not follow.
        seeds = ",".join(map(str, case["caught_with_seed_list"]))
        r, tuned = _check(kernelagent, case["kernel"], tmp_path / "tuned", "--seed-list", seeds)
        assert (r.returncode, tuned["status"]) == (1, case["status"]), tuned.get("message")
        assert "parameters and buffers changed" in tuned["message"]
