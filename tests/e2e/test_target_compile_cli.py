"""scripts/target-compile from the command line: a problem traced on the meta device, the kernels a search
would measure first written by build/debug/emit_kernels, and each compiled for sm_90 with Triton's compiler,
on a machine without a GPU (docs/target-compile.md)."""

import json
import subprocess

from cli_harness import DATA, ROOT


def test_the_first_configurations_of_a_problem_compile_for_hopper(tmp_path):
    problem = DATA / "families" / "conv" / "problems" / "conv2d_bias_strided.py"
    out = tmp_path / "tc"
    r = subprocess.run([str(ROOT / "scripts" / "target-compile"), "--out", str(out), str(problem)],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = json.load(open(out / "target-compile.json"))
    # The default configuration, then the suggestions of an fp32 convolution of 3 channels: the window rows
    # over a padded channels-last copy with 3xTF32, and 3xTF32 in the weight's order.
    assert [row["file"] for row in rows] == ["conv2d_bias_strided__default.py", "conv2d_bias_strided__suggested1.py",
                                             "conv2d_bias_strided__suggested2.py"]
    assert all(row["status"] == 0 and row["family"] == "conv" for row in rows)
    assert rows[1]["config"]["K_ORDER"] == "rows" and rows[1]["config"]["input_precision"] == "tf32x3"
    gemm = [k for k in rows[1]["kernels"] if k["kernel"] == "ka_conv_gemm_kernel"]
    assert len(gemm) == 1 and gemm[0]["sass"]["hmma"] + gemm[0]["sass"]["hgmma"] > 0
    assert "ka_conv_gemm_kernel" in r.stdout and "3 kernel files, 0 failed to compile for sm_90" in r.stdout


def test_a_problem_no_family_takes_is_said_and_nothing_is_compiled(tmp_path):
    problem = tmp_path / "sort.py"
    problem.write_text("import torch\nimport torch.nn as nn\n\n\nclass Model(nn.Module):\n"
                       "    def forward(self, x):\n        return torch.sort(x, dim=1).values\n\n\n"
                       "def get_inputs():\n    return [torch.randn(4, 8)]\n\n\ndef get_init_inputs():\n    return []\n")
    r = subprocess.run([str(ROOT / "scripts" / "target-compile"), "--out", str(tmp_path / "tc"), str(problem)],
                       capture_output=True, text=True, timeout=600)
    assert "sort: no family takes it" in r.stderr, r.stdout + r.stderr
    assert "0 kernel files" in r.stdout
