"""Kernels compiled for a GPU that is not here (python -m kernelagent_worker.target_compile): Triton's own
specialisation and compiler down to SASS for sm_90, with the resources each kernel takes. The check runs
without Triton's interpreter, whatever the environment says."""

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CONV = ROOT / "tests" / "data" / "families" / "conv"


def target_compile(problem, kernel, arch=90):
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["PYTHONPATH"] = str(ROOT / "python")
    r = subprocess.run([sys.executable, "-m", "kernelagent_worker.target_compile", str(problem), str(kernel),
                        "--arch", str(arch), "--json"], capture_output=True, text=True, env=env, timeout=600)
    return r.returncode, json.loads(r.stdout)


def test_a_convolution_compiles_for_hopper_and_says_what_it_takes():
    problem = CONV / "problems" / "conv2d_odd_batch1.py"
    rc, doc = target_compile(problem, CONV / "golden" / "conv2d_odd_batch1__rows_tf32x3.py")
    assert rc == 0 and doc["status"] == 0 and doc["arch"] == 90, doc
    # The input's and the weight's padded copies, then the product, in launch order.
    assert [k["kernel"] for k in doc["kernels"]] == ["ka_relayout_kernel", "ka_relayout_kernel", "ka_conv_gemm_kernel"]
    gemm = doc["kernels"][-1]
    assert 0 < gemm["registers"] <= 255 and gemm["shared_bytes"] > 0 and gemm["num_warps"] == 8
    assert gemm["spill_store_bytes"] == 0
    # 3xTF32 runs on the tensor cores; the IEEE product of the same problem on the FP32 pipe.
    assert gemm["sass"]["hmma"] + gemm["sass"]["hgmma"] > 0 and gemm["sass"]["ffma"] == 0
    rc, ieee = target_compile(problem, CONV / "golden" / "conv2d_odd_batch1.py")
    assert rc == 0
    plain = ieee["kernels"][-1]["sass"]
    assert plain["hmma"] + plain["hgmma"] == 0 and plain["ffma"] > 0


def test_a_cooperative_kernel_sizes_its_grid_from_the_target_and_compiles_once():
    # The map-reduce coop launch asks the GPU how many programs an SM holds (its properties, the compiled
    # kernel's registers) before its first launch; for the target those come from sm_90's figures and ptxas,
    # and the kernel its warmup compiled is reported once.
    mapreduce = ROOT / "tests" / "data" / "families" / "mapreduce"
    rc, doc = target_compile(mapreduce / "problems" / "batch_norm_long_rows.py",
                             mapreduce / "golden" / "batch_norm_long_rows__coop.py")
    assert rc == 0 and doc["status"] == 0, doc
    names = [k["kernel"] for k in doc["kernels"]]
    assert names.count("ka_coop_kernel") == 1 and "ka_fill_kernel" in names, names
    coop = next(k for k in doc["kernels"] if k["kernel"] == "ka_coop_kernel")
    assert 0 < coop["registers"] <= 255


def test_a_kernel_that_does_not_compile_is_named_with_the_compilers_error(tmp_path):
    kernel = tmp_path / "bad.py"
    kernel.write_text('''
import torch
import torch.nn as nn
import triton
import triton.language as tl


@triton.jit
def mismatched_k(x_ptr, BLOCK: tl.constexpr):
    a = tl.load(x_ptr + tl.arange(0, BLOCK)[:, None] * BLOCK + tl.arange(0, BLOCK)[None, :])
    b = tl.load(x_ptr + tl.arange(0, 2 * BLOCK)[:, None] * BLOCK + tl.arange(0, BLOCK)[None, :])
    tl.store(x_ptr + tl.arange(0, BLOCK)[:, None] * BLOCK + tl.arange(0, BLOCK)[None, :], tl.dot(a, b))


class ModelNew(nn.Module):
    def __init__(self, *args):
        super().__init__()

    def forward(self, x, *rest):
        mismatched_k[(1,)](x, BLOCK=16)
        return x
''')
    rc, doc = target_compile(CONV / "problems" / "conv2d_odd_batch1.py", kernel)
    assert rc == 1 and doc["status"] == 1
    assert [k["kernel"] for k in doc["kernels"]] == ["mismatched_k"]
    assert doc["kernels"][0]["error"] and doc["kernels"][0]["registers"] is None


def test_a_problem_that_cannot_be_loaded_is_refused(tmp_path):
    problem = tmp_path / "broken.py"
    problem.write_text("def get_inputs():\n    raise ValueError('no inputs')\n\ndef get_init_inputs():\n    return []\n")
    rc, doc = target_compile(problem, CONV / "golden" / "conv2d_odd_batch1.py")
    assert rc == 2 and "no inputs" in doc["error"]


def test_every_golden_kernel_of_the_tensor_core_families_and_every_family_case_compiles_for_hopper(tmp_path):
    # The interpreter checks these kernels' values; only Triton's compiler for the GPU rejects what the GPU
    # cannot run (layouts, shared memory, a dot's operand shapes). One process compiles them all.
    pairs = []
    for family in ("conv", "matmul", "attention"):
        folder = ROOT / "tests" / "data" / "families" / family
        for case in json.load(open(folder / "cases.json"))["cases"]:
            for variant in case.get("emit", {}):
                golden = folder / "golden" / (case["case"] + (f"__{variant}" if variant else "") + ".py")
                pairs.append([str(folder / "problems" / (case["case"] + ".py")), str(golden)])
    # And the family cases Nsight Compute is to profile on the GPU (tests/data/ncu/families).
    family_cases = ROOT / "tests" / "data" / "ncu" / "families"
    for name, case in json.load(open(family_cases / "cases.json"))["cases"].items():
        # A case whose slow kernel is PyTorch's (`source`) has only its fix to compile.
        own = case.get("source", "family") == "family"
        for suffix in ("", "__fix") if case["fix"] is not None else ("",):
            if not suffix and not own:
                continue
            kernel = family_cases / "kernels" / f"{name}{suffix}.py"
            # A cooperative kernel sizes its grid from the GPU it runs on (the programs an SM holds): it is
            # compiled where it runs.
            if "self.ka_groups = min(" not in kernel.read_text():
                pairs.append([str(ROOT / case["problem"]), str(kernel)])
    assert len(pairs) >= 80
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["PYTHONPATH"] = str(ROOT / "python")
    # Two processes, each compiling every other pair: the compiles are independent and take minutes.
    procs = []
    for half in range(2):
        listing = tmp_path / f"pairs{half}.json"
        listing.write_text(json.dumps(pairs[half::2]))
        procs.append(subprocess.Popen([sys.executable, "-m", "kernelagent_worker.target_compile", "--pairs",
                                       str(listing)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env))
    outs = [proc.communicate(timeout=1500) for proc in procs]
    reports = [json.loads(line) for out, _ in outs for line in out.splitlines()]
    assert len(reports) == len(pairs), "".join(err[-1000:] for _, err in outs)
    failed = [(Path(rep["kernel"]).name, rep["error"] or [k["error"] for k in rep["kernels"] if k["error"]])
              for rep in reports if rep["status"] != 0]
    assert not failed and all(proc.returncode == 0 for proc in procs), failed
    assert all(rep["kernels"] for rep in reports)


def test_the_kernels_a_call_launched_are_described_once_each():
    # kernel_resources.recording wraps Triton's launch path; here the launches compile for sm_90 (no GPU): the
    # registers are ptxas's figure, set where loading the module on a GPU would have set them, the rest Triton's.
    env = {k: v for k, v in os.environ.items() if k != "TRITON_INTERPRET"}
    env["PYTHONPATH"] = str(ROOT / "python")
    code = f"""
import json
from kernelagent_worker import kernel_resources, target_compile
with kernel_resources.recording() as launched:
    status, _, why = target_compile.compile_for_target({str(CONV / 'problems' / 'conv2d_odd_batch1.py')!r},
                                                       {str(CONV / 'golden' / 'conv2d_odd_batch1__rows.py')!r})
print(json.dumps(kernel_resources.describe(launched + launched)))
"""
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=600)
    described = json.loads(r.stdout.strip().splitlines()[-1])
    assert [d["kernel"] for d in described] == ["ka_relayout_kernel", "ka_relayout_kernel", "ka_conv_gemm_kernel"]
    assert all(d["num_warps"] >= 1 and d["shared_bytes"] >= 0 and 0 < d["registers"] <= 255 for d in described)
