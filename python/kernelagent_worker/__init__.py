"""KernelAgent's GPU-side worker.

Run as ``python -m kernelagent_worker``. It speaks the line-delimited JSON protocol of docs/protocol.md on
its stdin/stdout: the C++ engine sends requests (load, trace, compile, check, time, release, shutdown) and the worker
answers each with one reply. The worker reports facts; every decision (tolerances, targets, budgets) comes
in the request.

Modules, one job each:
  __main__   entry point: claims stdin/stdout for the protocol, writes the hello, runs the loop
  protocol   JSON lines in and out, dispatch of requests, status replies
  device     cuda or cpu (Triton interpreter), the hello's device facts
  problem    loading a KernelBench problem file, building its model and inputs
  trace      the reference's aten graph, FLOPs and compulsory bytes
  candidate  importing and building a candidate's ModelNew
  check      correctness and anti-cheat checks of a candidate against the reference
  timing     the one timing harness for eager, torch.compile and candidates
  errors     exceptions -> protocol statuses (out of memory, sticky CUDA errors, ...)
"""

__version__ = "0.1.0"
