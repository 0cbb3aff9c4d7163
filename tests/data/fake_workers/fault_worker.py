"""The real worker (python/kernelagent_worker) with one fault injected into one candidate, for the
fault-injection suite (tests/e2e/test_faults.py). The engine starts it as its worker through a `--python`
wrapper; everything else is the real worker on Triton's interpreter.

KA_FAULT=KIND:CANDIDATE names the fault and the candidate it hits (e.g. "segfault:c2"); other candidates
are untouched. Kinds, at the candidate's check unless said otherwise:
  compile_error    its compile raises a SyntaxError (at compile)
  segfault         the worker kills itself with SIGSEGV
  illegal_address  the forward raises CUDA's "illegal memory access" error (a sticky CUDA error)
  hang             the forward never returns
  oom              the forward raises torch.OutOfMemoryError
  nan              the forward's output is NaN everywhere (written through numpy: CPU only)
  wrong            the forward's output is one more than it should be (likewise)
  killed           the forward writes the worker's pid to $KA_FAULT_PIDFILE and waits to be killed from outside
  pause            the same, for a test that kills kernelagent itself
  thread           the forward leaves a thread running (cheat_tampering that cannot be put back: the worker
                   ends after its reply and the next candidate needs a new one)
"""

import os
import signal
import sys
import time


def inject(kind: str, target: str) -> None:
    import torch

    from kernelagent_worker import protocol

    def faulty_forward(forward):
        def run(*args, **kwargs):
            if kind == "segfault":
                os.kill(os.getpid(), signal.SIGSEGV)
            if kind == "illegal_address":
                raise RuntimeError("CUDA error: an illegal memory access was encountered (injected fault)")
            if kind == "hang":
                time.sleep(3600)
            if kind == "oom":
                raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 80.00 GiB (injected fault)")
            if kind == "thread":
                import threading
                threading.Thread(target=time.sleep, args=(30,), name="left-running", daemon=True).start()
            if kind in ("killed", "pause"):
                with open(os.environ["KA_FAULT_PIDFILE"], "w") as f:
                    f.write(str(os.getpid()))
                time.sleep(3600)
            out = forward(*args, **kwargs)
            if kind in ("nan", "wrong"):
                # Through numpy, as a kernel writes its output: a torch op here would be caught as PyTorch
                # compute (cheat_torch_compute) before the values are compared. CPU tensors only.
                values = out.detach().numpy()
                if kind == "nan":
                    values[...] = float("nan")
                else:
                    values += 1
            return out
        return run

    original = protocol.Worker.compile

    def compile(self, req):
        name = req.get("candidate")
        if name == target and kind == "compile_error":
            raise SyntaxError(f"candidate {name}: invalid syntax (injected fault)")
        reply = original(self, req)
        if name == target:  # the first call (compile) was the real one; the check meets the fault
            model = self.candidates[name].model
            model.forward = faulty_forward(model.forward)
        return reply

    protocol.Worker.compile = compile


def main() -> int:
    from kernelagent_worker import device

    device.select()  # before triton is imported, as the worker's own main does
    kind, _, target = os.environ.get("KA_FAULT", "").partition(":")
    if kind:
        inject(kind, target)
    from kernelagent_worker.__main__ import main as worker_main

    return worker_main()


if __name__ == "__main__":
    sys.exit(main())
