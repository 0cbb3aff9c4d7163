"""Every family's golden kernels (tests/data/families/FAMILY/golden, emitted by the C++ families and compared
byte for byte by tests/unit/family_conformance_test.cpp) run against their problems in the real worker: each is
compiled and checked on three seeds with the tolerance of its output's dtype (fp32's: 1e-4). On the CPU this runs Triton's interpreter.

A golden file `CASE.py` or `CASE__VARIANT.py` belongs to the case CASE of the family's cases.json, whose problem
is problems/CASE.py in the family's folder (or in the folder of the family named by the case's "from").
"""

import json
from pathlib import Path

import pytest

from conftest import DEVICE, REPO

FAMILIES = REPO / "tests" / "data" / "families"


def _kernels() -> list[tuple[Path, Path]]:
    """(golden kernel, its problem) for every golden file of every family."""
    out = []
    for cases_file in sorted(FAMILIES.glob("*/cases.json")):
        family = cases_file.parent
        for case in json.loads(cases_file.read_text())["cases"]:
            if "emit" not in case:
                continue
            problem = FAMILIES / case.get("from", family.name) / "problems" / f"{case['case']}.py"
            for variant, spec in case["emit"].items():
                kernel = family / "golden" / (case["case"] + (f"__{variant}" if variant else "") + ".py")
                # A variant for a GPU's spec (a cooperative kernel, whose programs wait on each other) runs only
                # on a GPU: Triton's interpreter runs programs one after another.
                if isinstance(spec, dict) and "gpu" in spec and DEVICE != "cuda":
                    continue
                out.append((kernel, problem))
    return out


KERNELS = _kernels()


def test_every_golden_kernel_has_its_problem():
    assert len(KERNELS) >= 60
    for kernel, problem in KERNELS:
        assert kernel.exists(), kernel
        assert problem.exists(), f"{kernel.name}: no problem {problem}"


def test_goldens_cover_split_k_split_rows_broadcasts_and_transposes():
    names = [f"{k.parent.parent.name}/{k.stem}" for k, _ in KERNELS]
    assert any("splitk" in n and "transposed" in n for n in names)
    assert any("tf32x3" in n for n in names)
    assert "matmul/18_Matmul_with_transposed_both" in names
    assert "matvec/4_Matrix_vector_multiplication___split4" in names
    assert sum(n.startswith("reduction/") and "__split" in n for n in names) >= 3
    assert "elementwise/diag_scale_rows" in names


@pytest.mark.parametrize("kernel,problem", KERNELS, ids=[f"{k.parent.parent.name}/{k.stem}" for k, _ in KERNELS])
def test_golden_kernel_matches_its_problem(worker, kernel, problem):
    r = worker.request({"op": "load", "problem": str(problem), "seed": 0})
    assert r["status"] == "ok", r
    # The tolerance of the output's dtype, as optimize takes it (src/measure/tolerance.cpp): fp32's, or
    # 1e-2 for a half-precision output.
    half = any(o.get("dtype") in ("float16", "bfloat16") for o in r.get("outputs", []))
    tol = 1e-2 if half else 1e-4
    r = worker.request({"op": "compile", "candidate": kernel.stem, "path": str(kernel)})
    assert r["status"] == "ok", r
    r = worker.request({"op": "check", "candidate": kernel.stem, "seeds": [1, 2, 3], "atol": tol, "rtol": tol})
    assert r["status"] == "ok", r
    assert r["seeds_checked"] == 3
    # Only allocations, views and metadata: the computation is the kernel's own.
    assert all(op.startswith(("aten.empty", "aten.view", "aten.as_strided", "aten.is_contiguous", "aten.stride",
                              "aten.sym_", "aten.size", "aten.lift_fresh"))
               for op in r["ops"]), r["ops"]
