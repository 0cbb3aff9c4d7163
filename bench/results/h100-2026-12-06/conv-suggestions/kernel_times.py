"""Times kernel files of one problem against each other and against eager and torch.compile ("eager",
"compile" as paths): relative figures for a choice, not a reported result. L2 flushed before each repetition,
CUDA events, median of REPS; max abs error against the reference; with BREAKDOWN=1 the CUDA time of each
kernel a call launches (torch.profiler, 5 calls)."""
import importlib.util, os, sys, statistics, torch

REPS = int(os.environ.get("REPS", "20"))

def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m

problem = load(sys.argv[1], "problem")
torch.manual_seed(0)
inputs = [x.cuda() if torch.is_tensor(x) else x for x in problem.get_inputs()]
torch.backends.cudnn.allow_tf32 = False
ref_model = problem.Model(*problem.get_init_inputs()).cuda()
with torch.no_grad():
    ref = ref_model(*inputs)
if os.environ.get("TF32") == "1":
    torch.backends.cudnn.allow_tf32 = True
    torch.backends.cuda.matmul.allow_tf32 = True
flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
for path in sys.argv[2:]:
    try:
        if path in ("eager", "compile"):
            m = problem.Model(*problem.get_init_inputs()).cuda()
            m.load_state_dict(ref_model.state_dict())
            if path == "compile":
                m = torch.compile(m)
        else:
            m = load(path, "k").ModelNew(*problem.get_init_inputs()).cuda()
            m.load_state_dict(ref_model.state_dict(), strict=False)
        with torch.no_grad():
            out = m(*inputs); torch.cuda.synchronize()
            err = (out - ref).abs().max().item()
            times = []
            for _ in range(REPS):
                flush.zero_()
                s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
                s.record(); m(*inputs); e.record(); torch.cuda.synchronize()
                times.append(s.elapsed_time(e))
            print(f"{path.split('/')[-1]:<28} {statistics.median(times)*1000:9.1f} us  max err {err:.2e}", flush=True)
            if os.environ.get("BREAKDOWN") == "1":
                with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CUDA]) as prof:
                    for _ in range(5):
                        flush.zero_(); m(*inputs)
                    torch.cuda.synchronize()
                for ev in prof.key_averages():
                    if ev.device_time_total > 0:
                        print(f"    {ev.key[:60]:<60} {ev.device_time_total / max(ev.count, 1):9.1f} us x{ev.count // 5}", flush=True)
    except Exception as exc:
        print(f"{path.split('/')[-1]:<28} failed: {type(exc).__name__}: {str(exc)[:200]}", flush=True)
