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


def test_a_tf32_product_of_values_not_k_major_stores_them_again_in_shared_memory(tmp_path):
    # Attention with value heads of 290 columns: the materialized variant on 3xTF32 is suggested without and
    # then with the values' K-major copy. Without it the second product's tensor-core instructions need each
    # tile of values transposed through shared memory: more shared stores than the first product, whose
    # operands are K-major; with it the same count as the first product.
    problem = DATA / "families" / "attention" / "problems" / "sdpa_wide_values.py"
    out = tmp_path / "tc"
    r = subprocess.run([str(ROOT / "scripts" / "target-compile"), "--out", str(out), str(problem)],
                       capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout + r.stderr
    rows = json.load(open(out / "target-compile.json"))
    stores = {}
    for row in rows:
        c = row["config"]
        if c["variant"] == "materialized" and c["input_precision"] == "tf32x3":
            sass = {k["kernel"]: k["sass"] for k in row["kernels"]}
            assert sass["ka_probs_values_kernel"]["hgmma"] > 0, row
            stores[c["v_k_major"]] = (sass["ka_probs_values_kernel"]["sts"], sass["ka_scores_kernel"]["sts"])
    assert set(stores) == {0, 1}, rows
    assert stores[0][0] > stores[0][1], stores
    assert stores[1][0] == stores[1][1] < stores[0][0], stores
