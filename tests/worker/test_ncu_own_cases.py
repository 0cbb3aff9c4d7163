"""The fixes of the Nsight Compute cases whose slow kernel is PyTorch's
(tests/data/ncu/families/cases.json, `source` other than "family"): each fix kernel, as emitted into kernels/,
computes what its problem computes. The GPU machine only profiles and times them, so a wrong fix would label
a cause by a kernel that does other work; here each runs on small inputs of the problem's kind (Triton's
interpreter on the CPU) against the problem's own Model.
"""

import json
import re
import types

import pytest
import torch

from conftest import DEVICE, REPO

CASES = REPO / "tests" / "data" / "ncu" / "families"

# Inputs of each problem's kind at sizes the interpreter runs in seconds, with the values that make the
# cases what they are: indices into few bins, arguments across both signs and the poles, long columns.
SMALL = {
    "index_add_few_bins.py": lambda: [torch.randn(6000), torch.randint(0, 16, (6000,))],
    "digamma_wide_range.py": lambda: [torch.cat([torch.rand(5000) * 20 - 10,
                                                 torch.tensor([0.0, -3.0, -2.999999, 10.0, 1e-6, 1e20])])],
    "cumsum_down_columns.py": lambda: [torch.randn(70, 300)],
}


def _module(path, name):
    mod = types.ModuleType(name)
    exec(compile(path.read_text(), str(path), "exec"), mod.__dict__)
    return mod


def _cases():
    cases = json.loads((CASES / "cases.json").read_text())["cases"]
    return [(name, case) for name, case in cases.items() if case.get("source", "family") != "family"]


def test_every_case_from_pytorch_has_small_inputs_here():
    assert _cases(), "no case profiles PyTorch's kernel"
    for name, case in _cases():
        assert case["problem"].rsplit("/", 1)[-1] in SMALL, name


@pytest.mark.parametrize("name,case", _cases(), ids=[n for n, _ in _cases()])
def test_the_fix_computes_what_the_problem_does(name, case):
    problem = _module(REPO / case["problem"], "problem")
    fix = CASES / "kernels" / f"{name}__fix.py"
    # The emitted fix is the case's kernel file with the fix's values set, and none of them calls PyTorch's op.
    for knob, value in case["fix"].items():
        assert re.search(rf"^{knob} = {re.escape(repr(value))}  #", fix.read_text(), re.M), knob
    kernel = _module(fix, "kernel")
    torch.manual_seed(0)
    inputs = [t.to(DEVICE) for t in SMALL[case["problem"].rsplit("/", 1)[-1]]()]
    init = problem.get_init_inputs()
    want = problem.Model(*init).to(DEVICE)(*inputs)
    got = kernel.ModelNew(*init).to(DEVICE)(*inputs)
    assert got.shape == want.shape and got.dtype == want.dtype
    torch.testing.assert_close(got, want, rtol=1e-4, atol=1e-4, equal_nan=True)
