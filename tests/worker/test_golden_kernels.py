"""The golden kernels of the matmul, matvec and reduction families (tests/data/golden/FAMILY, emitted by the
C++ families and compared byte for byte by tests/unit/FAMILY_family_test.cpp) run against their problems in
the real worker: each is compiled and checked on three seeds with the fp32 tolerance. On the CPU this runs
Triton's interpreter.

A golden file `golden/FAMILY/NAME.py` or `NAME__VARIANT.py` implements the problem
tests/data/problems/DIR/NAME.py, DIR being matmul for the two product families.
"""

from pathlib import Path

import pytest

from conftest import REPO

DATA = REPO / "tests" / "data"
PROBLEM_DIR = {"matmul": "matmul", "matvec": "matmul", "reduction": "reduction"}
KERNELS = sorted(k for family in PROBLEM_DIR for k in (DATA / "golden" / family).glob("*.py"))


def problem_of(kernel: Path) -> Path:
    problems = DATA / "problems" / PROBLEM_DIR[kernel.parent.name]
    whole = problems / kernel.name
    return whole if whole.exists() else problems / (kernel.stem.rsplit("__", 1)[0] + ".py")


def test_every_golden_kernel_has_its_problem():
    assert len(KERNELS) >= 30
    for k in KERNELS:
        assert problem_of(k).exists(), k.name


def test_goldens_cover_split_k_split_rows_and_transposes():
    names = [f"{k.parent.name}/{k.stem}" for k in KERNELS]
    assert any("splitk" in n and "transposed" in n for n in names)
    assert any("tf32x3" in n for n in names)
    assert "matmul/18_Matmul_with_transposed_both" in names
    assert "matvec/4_Matrix_vector_multiplication___split4" in names
    assert sum(n.startswith("reduction/") and "__split" in n for n in names) >= 3


@pytest.mark.parametrize("kernel", KERNELS, ids=[f"{k.parent.name}/{k.stem}" for k in KERNELS])
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
