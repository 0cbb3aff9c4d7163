"""Every family's emitted ModelNew refuses inputs other than those its kernel was specialised for (another
shape, dtype or layout) with one clear ValueError, instead of reading out of bounds or returning a tensor of
the old shape. One golden kernel of each family, its problem's inputs changed."""

import importlib.util
from pathlib import Path

import pytest
import torch

from conftest import REPO

FAMILIES = REPO / "tests" / "data" / "families"
CASES = [("elementwise", "broadcast_add"), ("reduction", "sum_middle"), ("matmul", "2_Standard_matrix_multiplication_"),
         ("matvec", "4_Matrix_vector_multiplication_"), ("mapreduce", "layer_norm")]


def _module(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _problem_of(family: str, case: str) -> Path:
    own = FAMILIES / family / "problems" / f"{case}.py"
    return own if own.exists() else FAMILIES / "matmul" / "problems" / f"{case}.py"


@pytest.mark.parametrize("family,case", CASES, ids=[f for f, _ in CASES])
def test_model_new_refuses_other_shapes_dtypes_and_layouts(family, case):
    prob = _module(_problem_of(family, case), f"guard_problem_{family}")
    kern = _module(FAMILIES / family / "golden" / f"{case}.py", f"guard_kernel_{family}")
    torch.manual_seed(0)
    inputs = prob.get_inputs()
    model = kern.ModelNew(*prob.get_init_inputs())
    first = next(i for i, x in enumerate(inputs) if isinstance(x, torch.Tensor))

    def with_first(x):
        changed = list(inputs)
        changed[first] = x
        return changed

    x = inputs[first]
    bigger = torch.rand(*[d + 1 for d in x.shape])
    with pytest.raises(ValueError, match="specialised for in0 of shape"):
        model(*with_first(bigger))
    with pytest.raises(ValueError, match="dtype float32"):
        model(*with_first(x.double()))
    if x.dim() >= 2 and x.shape[-1] > 1:
        strided = torch.rand(*x.shape[:-1], 2 * x.shape[-1])[..., ::2]
        with pytest.raises(ValueError, match="contiguous"):
            model(*with_first(strided))
