# kept with the timings it produced (bench/results/h100-2026-12-06/coop-prefetch)
"""Times kernel files of one problem against each other (relative figures for a choice, not a reported result):
L2 flushed before each repetition, CUDA events, median of 30; max abs error against the reference."""
import importlib.util, sys, statistics, torch

def load(path, name):
    spec = importlib.util.spec_from_file_location(name, path)
    m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m); return m

problem = load(sys.argv[1], "problem")
torch.manual_seed(0)
inputs = [x.cuda() if torch.is_tensor(x) else x for x in problem.get_inputs()]
ref_model = problem.Model(*problem.get_init_inputs()).cuda()
with torch.no_grad():
    ref = ref_model(*inputs)
flush = torch.empty(256 * 1024 * 1024, dtype=torch.int8, device="cuda")
for path in sys.argv[2:]:
    m = load(path, "k").ModelNew(*problem.get_init_inputs()).cuda()
    m.load_state_dict(ref_model.state_dict(), strict=False)
    with torch.no_grad():
        out = m(*inputs); torch.cuda.synchronize()
        err = (out - ref).abs().max().item()
        times = []
        for _ in range(30):
            flush.zero_()
            s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            s.record(); m(*inputs); e.record(); torch.cuda.synchronize()
            times.append(s.elapsed_time(e))
    print(f"{path.split('/')[-1]:<28} {statistics.median(times)*1000:9.1f} us  max err {err:.2e}", flush=True)
