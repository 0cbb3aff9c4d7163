"""A stand-in for the Python worker that fails on demand, for the engine's fault-handling tests.

It speaks the protocol of docs/protocol.md without torch. The candidate's name picks the behaviour of
`compile` and `check`: "crash*" kills the process with SIGSEGV, "exit*" exits with code 7, "hang*" never
answers, "garbage*" writes a line that is not JSON, "sticky*" answers a sticky cuda_error and exits, "slow*"
takes 0.4 s, "killed*" is killed with SIGKILL (as the OOM killer or an operator kills a worker), "spawn*"
starts a `sleep` that would outlive it and logs "spawned PID", any other name succeeds. Every request's op and candidate is appended to $FAKE_LOG so tests can see replays.
FAKE_MODE=nohello exits before the hello; FAKE_MODE=noisy prints to stdout before the hello. FAKE_MODE holds
several modes separated by commas; for a worker slot that goes bad: "slow" makes every compile take 0.4 s,
"once" starts only the first time (later starts exit before the hello, like a GPU that went away),
"crash" kills the process on its first compile. For `kernelagent check` on a GPU without one: "gpu" says
hello as an H200 and times eager at 20 us, compile at 15 us and candidates at 10 us, and traces 1 MB in and
1 MB out; "spills" makes every compiled kernel report 64 bytes of local memory (register spills);
"timecheat" makes a candidate's timing cheat_tampering; "latefail" fails a check of one seed (the
check after the timing) with wrong_result.

Requests that ask for progress notes (docs/protocol.md) get them: a load notes "import" then "reference", a
check notes "candidate" then "reference" (seed 1). A problem path containing "hangimport" hangs after the
import note, "exitimport" exits with code 9 there, "hangref" hangs after the reference note. A check of
"refhang*" hangs in the reference phase, "refexit*" exits with code 9 there, and "slowboth*" takes 0.9 s in
each phase.
"""
import json
import os
import signal
import subprocess
import sys
import time


def log(text):
    path = os.environ.get("FAKE_LOG")
    if path:
        with open(path, "a") as f:
            f.write(text + "\n")


def reply(obj):
    sys.stdout.write(json.dumps(obj) + "\n")
    sys.stdout.flush()


def note(rid, phase, **fields):
    reply({"id": rid, "status": "progress", "phase": phase, **fields})


def main():
    modes = os.environ.get("FAKE_MODE", "").split(",")
    mode = modes[0]
    if mode == "nohello":
        sys.exit(1)
    if "once" in modes:
        marker = os.environ.get("FAKE_LOG", "fake") + ".started"
        if os.path.exists(marker):
            sys.exit(1)
        open(marker, "w").close()
    if mode == "noisy":
        sys.stdout.write("Some library printed this on import\n")
        sys.stdout.flush()
    log("hello")
    if "gpu" in modes:
        reply({"id": 0, "status": "ok", "op": "hello", "device": "cuda", "interpret": False, "gpu_count": 1,
               "gpu": {"name": "NVIDIA H200", "sm_count": 132, "cc_major": 9, "cc_minor": 0, "l2_bytes": 62914560,
                       "total_memory_bytes": 150754820096, "max_shared_per_block_optin": 232448,
                       "regs_per_sm": 65536},
               "versions": {"python": sys.version.split()[0]},
               "reference_precision": {"fp32_matmul": "highest", "cudnn_allow_tf32": True}})
    else:
        reply({"id": 0, "status": "ok", "op": "hello", "device": "cpu", "interpret": True, "gpu": None,
               "versions": {"python": sys.version.split()[0]}})
    for line in sys.stdin:
        req = json.loads(line)
        op, rid, cand = req.get("op"), req.get("id"), req.get("candidate", "")
        log(f"{op} {cand}".strip())
        if op == "shutdown":
            reply({"id": rid, "status": "ok"})
            return
        if op == "load" and req.get("progress"):
            problem = req.get("problem", "")
            note(rid, "import")
            if "hangimport" in problem:
                time.sleep(3600)
            if "exitimport" in problem:
                os._exit(9)
            note(rid, "reference")
            if "hangref" in problem:
                time.sleep(3600)
        if op == "check" and req.get("progress"):
            note(rid, "candidate", seed=1)
            if cand.startswith("slowboth"):
                time.sleep(0.9)
            if cand.startswith(("refhang", "refexit", "slowboth")):
                note(rid, "reference", seed=1)
            if cand.startswith("refhang"):
                time.sleep(3600)
            if cand.startswith("refexit"):
                os._exit(9)
            if cand.startswith("slowboth"):
                time.sleep(0.9)
        if op == "compile" and "slow" in modes:
            time.sleep(0.4)
        if op == "compile" and "crash" in modes:
            os.kill(os.getpid(), signal.SIGSEGV)
        if op in ("compile", "check"):
            if cand.startswith("crash"):
                os.kill(os.getpid(), signal.SIGSEGV)
            if cand.startswith("exit"):
                os._exit(7)
            if cand.startswith("hang"):
                time.sleep(3600)
            if cand.startswith("slow"):
                began = time.time()
                time.sleep(0.4)
                log(f"span {op} {cand} {began} {time.time()}")
            if cand.startswith("killed"):
                os.kill(os.getpid(), signal.SIGKILL)
            if cand.startswith("spawn"):
                child = subprocess.Popen(["sleep", "300"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
                log(f"spawned {child.pid}")
            if cand.startswith("garbage"):
                sys.stdout.write("Traceback (most recent call last): oops\n")
                sys.stdout.flush()
                continue
            if cand.startswith("sticky"):
                reply({"id": rid, "status": "cuda_error", "sticky": True,
                       "message": "CUDA error: an illegal memory access was encountered"})
                os._exit(3)
        if op == "load" and "gpu" in modes:
            reply({"id": rid, "status": "ok", "inputs": [{"kind": "tensor", "shape": [512, 512], "dtype": "float32"}],
                   "outputs": [{"kind": "tensor", "shape": [512, 512], "dtype": "float32"}], "init_inputs": []})
            continue
        if op == "trace" and "gpu" in modes:
            # "conv": the graph is one convolution, whose PyTorch defaults (TF32) differ from strict's baselines.
            nodes = [{"name": "n0", "target": "aten.convolution.default", "args": [], "kwargs": {},
                      "shape": [512, 512], "dtype": "float32"}] if "conv" in modes else []
            reply({"id": rid, "status": "ok", "flops": 0, "input_bytes": 1000000, "output_bytes": 1000000,
                   "graph": {"inputs": [], "constants": [], "nodes": nodes, "outputs": [{"ref": "n0"}] if nodes else []}})
            continue
        if op == "check" and "latefail" in modes and len(req.get("seeds", [])) == 1:
            reply({"id": rid, "status": "wrong_result", "message": f"candidate {cand}, seed {req['seeds'][0]}: "
                   "output 0: 3 of 9 elements differ", "max_abs_err": 1.0, "max_rel_err": 1.0, "seeds_checked": 1,
                   "ops": []})
            continue
        if op == "time":
            figures = {"eager": 20.0, "compile": 15.0, "eager_default": 12.0, "compile_default": 11.0}
            results = {t: {"status": "ok", "median_us": figures.get(t, 10.0) if "gpu" in modes else 10.0,
                           "p10_us": 9.0, "p90_us": 11.0, "reps": 5, "method": "events"} for t in req["targets"]}
            for t in req["targets"]:
                if "timecheat" in modes and t not in figures:
                    results[t] = {"status": "cheat_tampering", "message": f"while {t} was timed, the process was "
                                  "changed: torch.cuda.Event.elapsed_time was replaced (put back)"}
            reply({"id": rid, "status": "ok", "results": results})
            continue
        reply({"id": rid, "status": "ok", "compile_ms": 1.0,
               "kernels": [{"kernel": "fake_k", "registers": 40, "local_bytes": 64 if "spills" in modes else 0,
                            "shared_bytes": 0,
                            "num_warps": 4, "num_stages": 3}]})


if __name__ == "__main__":
    main()
