"""Problems whose computation sits between layout ops (tests/data/layout/problems): a permute before and a
transpose after a softmax, an input that arrives transposed, an InstanceNorm of a channels-last input, a flatten after a convolution scaled by a learned
0-d parameter. optimize on the interpreter gives a kernel for the computation and a ModelNew that runs the
layout ops around it; the file stands alone, and reads the parameters it owns (after load_state_dict of other
values too, so a 0-d parameter is not folded in as the number it held when traced)."""

import json
import subprocess
import sys
import textwrap

import pytest

from cli_harness import DATA, kernelagent  # noqa: F401  (kernelagent is a fixture)

PROBLEMS = sorted((DATA / "layout" / "problems").glob("*.py"))
FAMILY = {"softmax_permuted_then_transposed": "reduction", "argmax_strided_input": "reduction",
          "conv_times_scalar_parameter_flattened": "conv", "instance_norm_channels_last": "mapreduce"}
# The convolution family re-views its own output; the reduction family needs ModelNew's layout ops around it.
WRAPPED = {"softmax_permuted_then_transposed", "argmax_strided_input", "instance_norm_channels_last"}


@pytest.mark.parametrize("problem", PROBLEMS, ids=lambda p: p.stem)
def test_the_kernel_runs_the_layout_ops_around_it_and_reads_its_parameters(kernelagent, problem, tmp_path):
    out = tmp_path / "out"
    r = kernelagent("optimize", problem, "--out", out, "--trials", "1", db=tmp_path / "h.sqlite")
    assert r.returncode == 0, r.stderr
    result = json.loads((out / "result.json").read_text())
    assert result["status"] == "ok" and result["family"] == FAMILY[problem.stem]
    source = (out / "kernel.py").read_text()
    assert ("class ModelNew(ModelNew):" in source) == (problem.stem in WRAPPED)
    check = textwrap.dedent(f"""
        import importlib.util, torch
        def load(path, name):
            spec = importlib.util.spec_from_file_location(name, path)
            mod = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(mod)
            return mod
        prob = load({str(problem)!r}, "problem")
        kern = load({str(out / "kernel.py")!r}, "kernel")
        torch.manual_seed(99)
        model = prob.Model(*prob.get_init_inputs())
        with torch.no_grad():
            for p in model.parameters():
                p.add_(0.5)       # values other than the ones traced
        new = kern.ModelNew(*prob.get_init_inputs())
        new.load_state_dict(model.state_dict())
        inputs = prob.get_inputs()
        ref, got = model(*inputs), new(*inputs)
        assert got.shape == ref.shape, (got.shape, ref.shape)
        torch.testing.assert_close(got, ref, atol=1e-4, rtol=1e-4)
        print("drop-in ok")
    """)
    run = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "drop-in ok" in run.stdout
