"""The matmul family's golden kernels (tests/data/golden/matmul, emitted by the C++ family and compared
byte for byte by tests/unit/matmul_family_test.cpp) run against their problems in the real worker: each
is compiled and checked on three seeds with the fp32 tolerance. On the CPU this runs Triton's interpreter.

A golden file `NAME.py` or `NAME__VARIANT.py` implements the problem tests/data/problems/matmul/NAME.py.
"""

from pathlib import Path

import pytest

from conftest import REPO

GOLDEN = REPO / "tests" / "data" / "golden" / "matmul"
PROBLEMS = REPO / "tests" / "data" / "problems" / "matmul"
KERNELS = sorted(GOLDEN.glob("*.py"))


def problem_of(kernel: Path) -> Path:
    whole = PROBLEMS / kernel.name
    return whole if whole.exists() else PROBLEMS / (kernel.stem.rsplit("__", 1)[0] + ".py")


def test_every_golden_kernel_has_its_problem():
    assert len(KERNELS) >= 20
    for k in KERNELS:
        assert problem_of(k).exists(), k.name


def test_goldens_cover_split_k_and_transposes():
    names = [k.stem for k in KERNELS]
    assert any("splitk" in n and "transposed" in n for n in names)
    assert any("tf32x3" in n for n in names)
    assert "18_Matmul_with_transposed_both" in names


@pytest.mark.parametrize("kernel", KERNELS, ids=[k.stem for k in KERNELS])
def test_golden_kernel_matches_its_problem(worker, kernel):
    r = worker.request({"op": "load", "problem": str(problem_of(kernel)), "seed": 0})
    assert r["status"] == "ok", r
    r = worker.request({"op": "compile", "candidate": kernel.stem, "path": str(kernel)})
    assert r["status"] == "ok", r
    r = worker.request({"op": "check", "candidate": kernel.stem, "seeds": [1, 2, 3], "atol": 1e-4, "rtol": 1e-4})
    assert r["status"] == "ok", r
    assert r["seeds_checked"] == 3
    # Only allocations and views: the product is the kernel's own.
    assert all(op.startswith(("aten.empty", "aten.view", "aten.as_strided")) for op in r["ops"]), r["ops"]
