#include "kernelagent/measure/kernel_check.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <optional>
#include <random>
#include <set>

#include "kernelagent/core/status.hpp"
#include "kernelagent/measure/baseline_precision.hpp"
#include "kernelagent/measure/timing.hpp"
#include "kernelagent/measure/tolerance.hpp"

namespace kernelagent {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr const char* kCandidate = "kernel";  // the kernel's name in the worker

json opt_json(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

std::optional<double> ratio(const std::optional<double>& base, const std::optional<double>& mine) {
  if (!base || !mine || *mine <= 0) return std::nullopt;
  return *base / *mine;
}

// A worker's message on one line: an exception's text can hold newlines, the error line must not.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

// The steps of building the kernel whose failure means the file itself is unusable (docs/protocol.md:
// compile's `phase`), not that its kernel computes wrongly.
bool file_is_unusable(const Reply& r) {
  const std::string phase = r.body.is_object() ? r.body.value("phase", std::string()) : std::string();
  if (status_is_cheat(r.status)) return false;
  return phase == "import" || phase == "definition" || phase == "construct";
}

std::string unusable_why(const Reply& r) {
  const std::string phase = r.body.value("phase", std::string());
  if (phase == "import") return "does not import";
  if (phase == "definition") return "defines no ModelNew (a torch.nn.Module subclass)";
  return "ModelNew(*get_init_inputs()) cannot be built";
}

// The worker's message without its "candidate kernel: " or "candidate kernel, " prefix: that is the worker's
// label for the file, which the command names itself.
std::string worker_detail(const Reply& r) {
  std::string m = one_line(r.message.empty() ? r.status : r.message);
  for (const char* sep : {": ", ", "})
    if (const std::string prefix = fmt::format("candidate {}{}", kCandidate, sep); m.starts_with(prefix))
      m.erase(0, prefix.size());
  return m;
}

class Run {
 public:
  Run(const KernelCheckOptions& o, WorkerClient& w) : opt_(o), worker_(w) {}

  KernelCheckOutcome go() {
    begin();
    load_and_trace();
    if (!compile() || !check(opt_.seeds, "correctness")) return failed();
    if (!worker_.on_gpu()) {
      r_["timing"] = nullptr;
      r_["speedup"] = nullptr;
      r_["note"] =
          "no CUDA GPU: the kernel ran on Triton's interpreter; it was checked for correctness, nothing "
          "was timed";
      roofline();
      return passed();
    }
    if (!time() || !check({opt_.seed_after_timing}, "after_timing")) return failed();
    roofline();
    return passed();
  }

 private:
  void phase(const std::string& words) const {
    if (opt_.on_phase) opt_.on_phase(words);
  }

  void begin() {
    const json& hello = worker_.hello();
    std::string gpu_warning;
    if (worker_.on_gpu()) gpu_ = describe_gpu(hello.at("gpu"), &gpu_warning);
    r_ = {{"schema", "kernelagent.check/1"},
          {"status", "running"},
          {"problem", {{"path", fs::absolute(opt_.problem).string()}}},
          {"kernel", {{"path", fs::absolute(opt_.kernel).string()}}},
          {"device", worker_.on_gpu() ? "cuda" : "cpu"},
          {"interpreter", hello.value("interpret", false)},
          {"gpu", gpu_ ? gpu_->to_json() : json(nullptr)},
          {"versions", hello.value("versions", json::object())},
          {"precision", to_string(opt_.precision)},
          {"reference_precision", hello.value("reference_precision", json(nullptr))},
          {"warnings", json::array()}};
    if (!gpu_warning.empty()) r_["warnings"].push_back(gpu_warning);
  }

  void load_and_trace() {
    phase("loading the problem");
    const std::string problem = fs::absolute(opt_.problem).string();
    Reply loaded = worker_.load(problem, 0, to_string(opt_.precision));
    if (!loaded.ok())
      throw UserError(ExitCode::bad_input, one_line(loaded.message.empty() ? loaded.status : loaded.message));
    const json outputs = loaded.body.value("outputs", json::array());
    r_["problem"]["inputs"] = loaded.body.value("inputs", json::array());
    r_["problem"]["outputs"] = outputs;
    dtype_ = !outputs.empty() && outputs.front().is_object() ? outputs.front().value("dtype", "float32") : "float32";
    const Tolerance tol = tolerance_for(dtype_, opt_.precision);
    atol_ = tol.atol;
    rtol_ = tol.rtol;
    r_["dtype"] = dtype_;
    r_["tolerance"] = {{"atol", atol_}, {"rtol", rtol_}};
    r_["seeds"] = opt_.seeds;

    phase("tracing the problem");
    Reply traced = worker_.trace();
    if (!traced.ok()) {
      if (status_kills_worker(traced.status))  // the problem hung or ended the worker: its failure
        throw UserError(ExitCode::bad_input, one_line(traced.message));
      r_["warnings"].push_back(
          fmt::format("the problem could not be traced ({}): no roofline", one_line(traced.message)));
      return;
    }
    try {
      trace_ = TraceResult::from_json(traced.body);
    } catch (const json::exception& e) {
      r_["warnings"].push_back(fmt::format("the trace of the problem could not be read ({}): no roofline", e.what()));
    }
  }

  // False when the kernel failed its first call (or cheated while it was built).
  bool compile() {
    phase("building the kernel");
    const std::string kernel = fs::absolute(opt_.kernel).string();
    Reply built = worker_.compile(kCandidate, kernel);
    if (built.ok()) {
      r_["compile_ms"] = built.body.value("compile_ms", 0.0);
      return true;
    }
    if (file_is_unusable(built))
      throw UserError(ExitCode::bad_input, fmt::format("kernel file {} {}: {}", opt_.kernel.string(),
                                                       unusable_why(built), worker_detail(built)));
    fail(built, "building the kernel");
    return false;
  }

  // The check on `seeds`; records it under `key`. False when the kernel failed.
  bool check(const std::vector<int>& seeds, const std::string& key) {
    phase(fmt::format("checking on {} seed{}", seeds.size(), seeds.size() == 1 ? "" : "s"));
    Reply c = worker_.check(kCandidate, seeds, atol_, rtol_);
    if (c.status == status::bad_problem) throw UserError(ExitCode::bad_input, one_line(c.message));
    json j = {{"status", c.status}, {"seeds", seeds}};
    for (const char* k : {"seeds_checked", "max_abs_err", "max_rel_err", "ops"})
      if (c.body.is_object() && c.body.contains(k)) j[k] = c.body.at(k);
    if (!c.ok()) j["message"] = worker_detail(c);
    r_[key] = j;
    if (c.ok()) return true;
    fail(c, key == "after_timing" ? "the check after the timing" : "the check");
    return false;
  }

  bool time() {
    // The baselines once on their own first: torch.compile's first compilation replaces some torch functions
    // and leaves compile threads behind, which must not happen while the kernel's timing is watched.
    // PyTorch's defaults beside the accuracy-matched baselines where they run the problem's ops differently
    // (an fp32 convolution under strict), as optimize times them (docs/result.md, pytorch_default).
    std::optional<std::string> defaults_differ;
    if (trace_)
      defaults_differ = pytorch_default_differs(opt_.precision, worker_.hello().value("reference_precision", json()),
                                                trace_->graph, dtype_);
    std::vector<std::string> baselines = {"eager", "compile"};
    if (defaults_differ) baselines.insert(baselines.end(), {"eager_default", "compile_default"});
    phase("compiling the reference with torch.compile");
    worker_.time(baselines, 1, 1, opt_.graph_below_us);
    phase("timing eager, torch.compile and the kernel");
    std::vector<std::string> targets = baselines;
    targets.push_back(kCandidate);
    Reply t = worker_.time(targets, opt_.min_ms, opt_.rounds, opt_.graph_below_us);
    eager_ = timing_of(t, "eager");
    compiled_ = timing_of(t, "compile");
    kernel_ = timing_of(t, kCandidate);
    r_["timing"] = {{"harness", "one process; L2 flushed before every repetition; CUDA events; median"},
                    {"min_ms", opt_.min_ms},
                    {"rounds", opt_.rounds},
                    {"interleaved", true},
                    {"graph_below_us", opt_.graph_below_us},
                    // The accuracy-matched baselines' fp32 settings, as optimize's (docs/result.md).
                    {"baseline_settings", baseline_settings(opt_.precision)},
                    {"eager", eager_.to_json()},
                    {"compile", compiled_.to_json()},
                    {"kernel", kernel_.to_json()}};
    if (defaults_differ) {
      const Timing eager_default = timing_of(t, "eager_default"), compile_default = timing_of(t, "compile_default");
      r_["timing"]["pytorch_default"] = {
          {"why", *defaults_differ},
          {"settings", worker_.hello().value("reference_precision", json())},
          {"eager", eager_default.to_json()},
          {"compile", compile_default.to_json()},
          {"speedup",
           {{"vs_eager", opt_json(ratio(eager_default.median_us, kernel_.median_us))},
            {"vs_compile", opt_json(ratio(compile_default.median_us, kernel_.median_us))}}}};
    }
    if (kernel_.status != status::ok) {
      Reply as_reply{kernel_.status, kernel_.message, {}};
      fail(as_reply, "the timing");
      return false;
    }
    r_["speedup"] = {{"vs_eager", opt_json(ratio(eager_.median_us, kernel_.median_us))},
                     {"vs_compile", opt_json(ratio(compiled_.median_us, kernel_.median_us))}};
    return true;
  }

  // The problem's compulsory work and, timed on a known GPU, the fractions of its floor.
  void roofline() {
    json roof = trace_ ? json{{"bytes", trace_->compulsory_bytes()}, {"input_bytes", trace_->input_bytes}, {"flops", trace_->flops}}
                       : json(nullptr);
    if (trace_ && gpu_ && kernel_.median_us) {
      std::string unit;
      const Roofline rl =
          allowed_floor(trace_->compulsory_bytes(), trace_->flops, dtype_, opt_.precision, *gpu_, &unit);
      roof["compute_unit"] = unit;
      roof["floor_us"] = rl.floor_us;
      roof["bound"] = rl.bound;
      roof["peak_bytes_per_s"] = gpu_->dram_bytes_per_s;
      roof["fraction"] = opt_json(rl.fraction(*kernel_.median_us));
      roof["achieved_bytes_per_s"] = rl.bandwidth_bytes_per_s(*kernel_.median_us);
      if (eager_.median_us) roof["eager_fraction"] = opt_json(rl.fraction(*eager_.median_us));
      if (compiled_.median_us) roof["compile_fraction"] = opt_json(rl.fraction(*compiled_.median_us));
    }
    r_["roofline"] = roof;
  }

  void fail(const Reply& r, const std::string& where) {
    r_["status"] = r.status;
    r_["failed_in"] = where;
    r_["message"] = worker_detail(r);
  }

  KernelCheckOutcome failed() {
    r_["passed"] = false;
    return {ExitCode::no_valid_kernel, r_};
  }

  KernelCheckOutcome passed() {
    r_["status"] = std::string(status::ok);
    r_["passed"] = true;
    return {ExitCode::ok, r_};
  }

  const KernelCheckOptions& opt_;
  WorkerClient& worker_;
  json r_;
  std::optional<GpuSpec> gpu_;
  std::optional<TraceResult> trace_;
  std::string dtype_;
  double atol_ = 0, rtol_ = 0;
  Timing eager_, compiled_, kernel_;
};

}  // namespace

KernelCheckOutcome check_kernel(const KernelCheckOptions& options, WorkerClient& worker) {
  return Run(options, worker).go();
}

std::vector<int> fresh_seeds(int count) {
  std::random_device source;
  std::uniform_int_distribution<int> pick(16, std::numeric_limits<int>::max());
  std::set<int> seen;
  std::vector<int> seeds;
  while (static_cast<int>(seeds.size()) < count)
    if (const int s = pick(source); seen.insert(s).second) seeds.push_back(s);
  return seeds;
}

Roofline allowed_floor(std::int64_t bytes, double flops, const std::string& dtype, Precision precision,
                       const GpuSpec& gpu, std::string* unit) {
  if (dtype != "float32") {
    *unit = dtype == "float16" || dtype == "bfloat16" ? "tensor cores" : "CUDA cores";
    return roofline_for(bytes, flops, dtype, true, gpu);
  }
  if (precision == Precision::tf32) {
    *unit = "TF32 tensor cores";
    return roofline_for(bytes, flops, dtype, true, gpu);
  }
  const Roofline cuda_cores = roofline_for(bytes, flops, dtype, false, gpu);
  const Roofline tf32x3 = roofline_for(bytes, flops, dtype, true, gpu, 3);
  // The lower floor is the one no fp32-accurate kernel can beat; a unit whose peak is unknown has floor 0.
  const bool x3_lower = tf32x3.compute_floor_us > 0 && tf32x3.compute_floor_us < cuda_cores.compute_floor_us;
  *unit = x3_lower ? "3xTF32 tensor cores" : "CUDA cores";
  return x3_lower ? tf32x3 : cuda_cores;
}

}  // namespace kernelagent
