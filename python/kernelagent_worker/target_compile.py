"""Compile a kernel file's Triton kernels for a GPU that is not here, down to SASS, and say what they use.

    python -m kernelagent_worker.target_compile PROBLEM.py KERNEL.py [--arch 90] [--json]
    python -m kernelagent_worker.target_compile --pairs PAIRS.json [--arch 90]

With --pairs, a JSON list of [PROBLEM.py, KERNEL.py] is compiled in one process (one import of torch and
Triton for all) and the report is one JSON line per pair, in order.

Builds the candidate's ModelNew and calls it once on inputs of the problem's shapes, dtypes and strides
(allocated, never filled: nothing runs), with every Triton launch turned into a compile for the target: each
kernel goes through Triton's own argument specialisation (alignment, divisibility by 16, constexprs) and its
whole compiler, ptxas included, with the ptxas, cuobjdump and nvdisasm that Triton's wheel carries. So a
kernel that would fail to compile on the GPU fails here, and the resources it takes are known before any GPU
time is spent. Per compiled kernel: registers, spilled bytes, shared memory, warps, stages, and from the SASS
(static instruction counts, not executions) the global loads and asynchronous copies by width and the
tensor-core instructions.

Exit status: 0 every kernel compiled; 1 a kernel failed to compile (its error in the report); 2 the problem
could not be loaded; 3 the candidate failed otherwise (it raised before or between its launches).
This must run without TRITON_INTERPRET=1 (the interpreter replaces the compiler); the module clears it when
it is the entry point.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import asdict, dataclass, field
from types import SimpleNamespace

# SASS instructions counted by what they tell: the width of a global load or of an asynchronous copy to shared
# memory (16 bytes a thread is a whole vector; 4 is a scalar), and which tensor-core instruction the products use.
SASS_COUNTS = {
    "ldg_128": re.compile(r"\bLDG\.E(\.[A-Z_]+)*\.128\b"),
    "ldg_64": re.compile(r"\bLDG\.E(\.[A-Z_]+)*\.64\b"),
    "ldg_32_or_less": re.compile(r"\bLDG\.E(?![.A-Z_0-9]*\.(128|64)\b)"),
    "ldgsts_128": re.compile(r"\bLDGSTS\.E(\.[A-Z_]+)*\.128\b"),
    "ldgsts_narrow": re.compile(r"\bLDGSTS\.E(?![.A-Z_0-9]*\.128\b)"),
    "tma_loads": re.compile(r"\bUTMALDG\b"),
    "hgmma": re.compile(r"\bHGMMA\."),
    "hmma": re.compile(r"\bHMMA\."),
    "ffma": re.compile(r"\bFFMA\b"),
    "stg": re.compile(r"\bSTG\.E\b"),
    # Stores to shared memory: a TF32 product given an operand that is not K-major stores each tile of it
    # again, transposed, for its tensor-core instructions (the attention family's second product at
    # KernelBench 97's shape: 80 where the values' K-major copy leaves 32, as its first product has).
    "sts": re.compile(r"\bSTS(\.[A-Z0-9_]+)*\b"),
}
# One SASS instruction a line of cuobjdump's listing: "/*0040*/  LDG.E R2, desc[UR4][R2.64] ;"
SASS_INSTRUCTION = re.compile(r"^\s+/\*[0-9a-f]{4,}\*/\s+\S", re.MULTILINE)
PTXAS_REGS = re.compile(r"Used (\d+) registers")
PTXAS_SPILL = re.compile(r"(\d+) bytes spill stores, (\d+) bytes spill loads")


@dataclass
class CompiledKernel:
    kernel: str
    num_warps: int = 0
    num_stages: int = 0
    shared_bytes: int = 0
    registers: int | None = None
    spill_store_bytes: int | None = None
    spill_load_bytes: int | None = None
    sass: dict = field(default_factory=dict)
    error: str = ""


def _tool(name: str) -> str:
    import triton
    return os.path.join(os.path.dirname(triton.__file__), "backends", "nvidia", "bin", name)


def _resources(k, arch: int, into: CompiledKernel) -> None:
    """Registers and spills from ptxas -v on the kernel's PTX; instruction counts from its SASS."""
    with tempfile.TemporaryDirectory() as tmp:
        ptx = os.path.join(tmp, "k.ptx")
        cubin = os.path.join(tmp, "k.cubin")
        with open(ptx, "w") as f:
            f.write(k.asm["ptx"])
        with open(cubin, "wb") as f:
            f.write(k.asm["cubin"])
        suffix = "a" if arch >= 90 else ""
        r = subprocess.run([_tool("ptxas"), f"-arch=sm_{arch}{suffix}", "-v", ptx, "-o", os.devnull],
                           capture_output=True, text=True, timeout=300)
        text = r.stdout + r.stderr
        if m := PTXAS_REGS.search(text):
            into.registers = int(m.group(1))
        if m := PTXAS_SPILL.search(text):
            into.spill_store_bytes, into.spill_load_bytes = int(m.group(1)), int(m.group(2))
        r = subprocess.run([_tool("cuobjdump"), "-sass", cubin], capture_output=True, text=True, timeout=300)
        into.sass = {name: len(rx.findall(r.stdout)) for name, rx in SASS_COUNTS.items()}
        into.sass["instructions"] = len(SASS_INSTRUCTION.findall(r.stdout))
        if sass_dir := os.environ.get("KERNELAGENT_SASS_DIR"):
            # The listing itself, for reading what a template compiles to (one file a compiled kernel).
            os.makedirs(sass_dir, exist_ok=True)
            n = len(os.listdir(sass_dir))
            with open(os.path.join(sass_dir, f"{n:03d}_{into.kernel}.sass"), "w") as f:
                f.write(r.stdout)


class _TargetDriver:
    """Triton's active driver as the launch path asks it, for a target GPU that is not present."""

    def __init__(self, target):
        self.target = target

    def get_current_target(self):
        return self.target

    def get_current_device(self):
        return 0

    def get_current_stream(self, device=None):
        return 0


# What a launch path may ask the GPU about (KernelAgent's cooperative kernels size their persistent grid from
# it): the SXM H100's and H200's figures, which are the same, for sm_90; other arches get none.
_TARGET_PROPERTIES = {
    90: dict(name="target sm_90", multi_processor_count=132, regs_per_multiprocessor=65536,
             max_threads_per_multi_processor=2048, shared_memory_per_multiprocessor=233472,
             shared_memory_per_block_optin=232448, major=9, minor=0),
}


def _empty_like_meta(t):
    import torch
    if isinstance(t, torch.Tensor):
        return torch.empty_strided(tuple(t.shape), tuple(t.stride()), dtype=t.dtype, device="cpu")
    return t


def compile_for_target(problem_path: str, kernel_path: str, arch: int = 90) -> tuple[int, list[CompiledKernel], str]:
    """(exit status, the kernels compiled in launch order, the reason when the status is 2 or 3)."""
    import torch
    import triton
    from triton.backends.compiler import GPUTarget
    from triton.compiler.compiler import CompiledKernel as TritonCompiledKernel
    from triton.runtime import driver
    from triton.runtime.jit import JITFunction

    from .problem import import_file

    compiled: list[CompiledKernel] = []
    reported: set[int] = set()
    original_run = JITFunction.run

    def compile_instead_of_launch(self, *args, grid, warmup, **kwargs):
        entry = CompiledKernel(kernel=self.fn.__name__)
        compiled.append(entry)
        try:
            k = original_run(self, *args, grid=grid, warmup=True, **kwargs)
        except Exception as e:  # a compile error of this kernel: reported, the forward goes on
            entry.error = f"{type(e).__name__}: {e}".strip()[:2000]
            return None
        if id(k) in reported:  # a launch of a kernel compiled already (by its warmup): reported once
            compiled.remove(entry)
            return k
        reported.add(id(k))
        entry.num_warps, entry.num_stages = k.metadata.num_warps, k.metadata.num_stages
        entry.shared_bytes = k.metadata.shared
        _resources(k, arch, entry)
        # What loading the module on a GPU would have told a launch path that asks (a cooperative kernel's
        # grid sizing reads n_regs), from ptxas; no module is loaded.
        k.n_regs, k.n_spills = entry.registers or 0, entry.spill_store_bytes or 0
        return k

    try:
        problem = import_file(problem_path, "target_problem")
        with torch.device("meta"):
            shaped = problem.get_inputs()
        inputs = [_empty_like_meta(t) for t in shaped]
        init = problem.get_init_inputs()
    except Exception as e:
        return 2, compiled, f"problem file {problem_path}: {type(e).__name__}: {e}"
    JITFunction.run = compile_instead_of_launch
    previous = driver._active  # put back as it was: resetting would look for a GPU driver there may not be
    driver.set_active(_TargetDriver(GPUTarget("cuda", arch, 32)))
    original_init_handles = TritonCompiledKernel._init_handles
    TritonCompiledKernel._init_handles = lambda self: None  # loading a module needs the GPU; nothing runs
    original_properties = torch.cuda.get_device_properties
    if arch in _TARGET_PROPERTIES:
        torch.cuda.get_device_properties = lambda device=None: SimpleNamespace(**_TARGET_PROPERTIES[arch])
    try:
        kernel = import_file(kernel_path, "target_kernel")
        torch.manual_seed(0)
        model = kernel.ModelNew(*init)
        with torch.no_grad():
            model(*inputs)
    except Exception as e:
        return 3, compiled, f"kernel file {kernel_path}: {type(e).__name__}: {e}"
    finally:
        JITFunction.run = original_run
        driver._active = previous
        TritonCompiledKernel._init_handles = original_init_handles
        torch.cuda.get_device_properties = original_properties
    del triton
    return (1 if any(c.error for c in compiled) else 0), compiled, ""


def _line(c: CompiledKernel) -> str:
    if c.error:
        return f"{c.kernel}: does not compile: {c.error.splitlines()[0]}"
    s = c.sass
    return (f"{c.kernel}: {c.registers} registers, {c.spill_store_bytes} B spilled, {c.shared_bytes} B shared, "
            f"{c.num_warps} warps, {c.num_stages} stages; global loads 128/64/<=32-bit {s['ldg_128']}/{s['ldg_64']}/"
            f"{s['ldg_32_or_less']}, async copies 128-bit/narrower {s['ldgsts_128']}/{s['ldgsts_narrow']}, "
            f"HGMMA {s['hgmma']}, HMMA {s['hmma']}, FFMA {s['ffma']}, shared stores {s['sts']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="kernelagent_worker.target_compile")
    parser.add_argument("problem", nargs="?")
    parser.add_argument("kernel", nargs="?")
    parser.add_argument("--pairs", help="a JSON file: a list of [problem, kernel] pairs, one report line each")
    parser.add_argument("--arch", type=int, default=90, help="compute capability as one number (90: Hopper)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.pairs:
        worst = 0
        for problem, kernel in json.load(open(args.pairs)):
            status, kernels, why = compile_for_target(problem, kernel, args.arch)
            worst = max(worst, status)
            print(json.dumps({"problem": problem, "kernel": kernel, "status": status, "arch": args.arch,
                              "error": why, "kernels": [asdict(k) for k in kernels]}), flush=True)
        return worst
    if not (args.problem and args.kernel):
        parser.error("give PROBLEM.py and KERNEL.py, or --pairs")
    status, kernels, why = compile_for_target(args.problem, args.kernel, args.arch)
    if args.json:
        print(json.dumps({"status": status, "arch": args.arch, "error": why, "kernels": [asdict(k) for k in kernels]}))
    else:
        for k in kernels:
            print(_line(k))
        if why:
            print(f"target_compile: {why}", file=sys.stderr)
    return status


if __name__ == "__main__":
    if os.environ.get("TRITON_INTERPRET") == "1":
        del os.environ["TRITON_INTERPRET"]
    sys.exit(main())
