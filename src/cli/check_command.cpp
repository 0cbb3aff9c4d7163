// `kernelagent check PROBLEM.py KERNEL.py`: the honest evaluation of a kernel someone wrote (docs/check.md).
// The work is measure/kernel_check; this file reads the flags, starts the one worker, and prints the result
// for a person (or as JSON) and writes it to check.json.

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>

#include "kernelagent/cli/arg_checks.hpp"
#include "kernelagent/cli/commands.hpp"
#include "kernelagent/cli/session.hpp"
#include "kernelagent/core/output_dir.hpp"
#include "kernelagent/measure/kernel_check.hpp"
#include "kernelagent/orchestrate/optimize_run.hpp"

namespace kernelagent::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string number(const json& v) { return v.is_number() ? fmt::format("{:.3g}", v.get<double>()) : v.dump(); }

void print_timing(const json& r) {
  const json& t = r.at("timing");
  auto us = [](const json& j) {
    return j.contains("median_us") ? format_us(j.at("median_us").get<double>()) : j.value("status", "n/a");
  };
  fmt::print("time        kernel {}   eager {}   torch.compile {}   (median, {} rounds interleaved, method {})\n",
             us(t.at("kernel")), us(t.at("eager")), us(t.at("compile")), t.value("rounds", 0),
             t.at("kernel").value("method", "n/a"));
  if (!r.contains("speedup")) return;
  auto sp = [](const json& v) { return v.is_number() ? fmt::format("{:.2f}x", v.get<double>()) : std::string("n/a"); };
  // The conditions go with the speedup, as optimize states them.
  const json& set = t.value("baseline_settings", json::object());
  fmt::print(
      "speedup     {} vs eager, {} vs torch.compile (precision {}; baselines with fp32 products '{}', TF32 "
      "convolutions {})\n",
      sp(r.at("speedup").at("vs_eager")), sp(r.at("speedup").at("vs_compile")), r.value("precision", ""),
      set.value("fp32_matmul", "?"), set.value("cudnn_allow_tf32", false) ? "on" : "off");
  if (t.contains("pytorch_default")) {
    const json& d = t.at("pytorch_default");
    fmt::print("defaults    eager {}   torch.compile {}   ({}); the kernel {} and {} over them\n", us(d.at("eager")),
               us(d.at("compile")), d.value("why", ""), sp(d.at("speedup").at("vs_eager")),
               sp(d.at("speedup").at("vs_compile")));
  }
  const json& roof = r.value("roofline", json(nullptr));
  if (roof.is_object() && roof.contains("fraction") && roof.at("fraction").is_number())
    fmt::print("roofline    {:.1f}% of the {} floor {} on {} ({:.2f} TB/s of {:.2f} TB/s nominal)\n",
               100 * roof.at("fraction").get<double>(), roof.value("bound", ""), format_us(roof.value("floor_us", 0.0)),
               roof.value("compute_unit", ""), roof.value("achieved_bytes_per_s", 0.0) / 1e12,
               roof.value("peak_bytes_per_s", 0.0) / 1e12);
}

// The human summary: the verdict first, then the conditions it holds under, then the figures.
void print_summary(const json& r, bool seeds_given) {
  fmt::print("kernel      {}\n", r.at("kernel").value("path", ""));
  fmt::print("problem     {}\n", r.at("problem").value("path", ""));
  if (r.value("passed", false))
    fmt::print("status      ok: passed every check\n");
  else
    fmt::print("status      FAILED {} in {}: {}\n", r.value("status", ""), r.value("failed_in", ""),
               r.value("message", ""));
  if (r.contains("tolerance"))
    fmt::print("conditions  {} on {}, precision {}, tolerance atol={} rtol={}\n", r.value("dtype", ""),
               r.at("gpu").is_null() ? std::string("CPU (Triton interpreter)") : r.at("gpu").value("device_name", ""),
               r.value("precision", ""), number(r.at("tolerance").at("atol")), number(r.at("tolerance").at("rtol")));
  if (r.contains("seeds")) {
    const auto seeds = r.at("seeds").get<std::vector<int>>();
    std::string after;
    if (r.contains("after_timing"))
      after = fmt::format(", then {} after the timing", fmt::join(r.at("after_timing").at("seeds"), " "));
    fmt::print("seeds       {} ({}){}\n", fmt::join(seeds, " "),
               seeds_given ? "given" : fmt::format("fresh; repeat with --seed-list {}", fmt::join(seeds, ",")), after);
  }
  if (r.contains("correctness"))
    fmt::print("correctness {} seed(s) checked, max abs error {}, max rel error {}\n",
               r.at("correctness").value("seeds_checked", 0), number(r.at("correctness").value("max_abs_err", json())),
               number(r.at("correctness").value("max_rel_err", json())));
  if (r.contains("timing") && r.at("timing").is_object())
    print_timing(r);
  else if (r.contains("note"))
    fmt::print("time        not timed: {}\n", r.value("note", ""));
  for (const auto& w : r.value("warnings", json::array())) fmt::print("warning     {}\n", w.get<std::string>());
}

}  // namespace

int run_check_command(const CommonOptions& common, const CheckArgs& args) {
  require_problem_file(args.problem);
  require_file(args.kernel, "kernel file");
  const fs::path out_dir =
      args.out.empty() ? fs::path("kernelagent-out") / fs::path(args.problem).stem() / "check" : fs::path(args.out);
  std::error_code ec;
  fs::create_directories(out_dir, ec);
  if (ec) throw UserError(ExitCode::bad_input, fmt::format("cannot create {}: {}", out_dir.string(), ec.message()));

  const OptimizeOptions optimize_defaults;  // the check times as optimize's final measurement does
  KernelCheckOptions opt;
  opt.problem = args.problem;
  opt.kernel = args.kernel;
  opt.precision = parse_precision(args.precision);
  opt.seeds = args.seed_list.empty() ? fresh_seeds(args.seeds) : args.seed_list;
  opt.seed_after_timing = fresh_seeds(1).front();
  opt.graph_below_us = common.graph_below_us;
  opt.min_ms = optimize_defaults.final_min_ms;
  opt.rounds = optimize_defaults.final_rounds;
  ProgressLine progress(!common.json);
  const std::string label = fs::path(args.kernel).filename().string();
  opt.on_phase = [&](const std::string& words) { progress({.problem = label, .stage = "check", .note = words}); };

  std::unique_ptr<WorkerClient> worker = start_worker(common, Paths::locate(common.home), out_dir / "worker.log");
  KernelCheckOutcome out = check_kernel(opt, *worker);
  progress.finish();
  worker->shutdown();
  write_file_atomically(out_dir / "check.json", out.result.dump(2) + "\n");
  if (common.json) {
    std::cout << out.result.dump(2) << "\n";
  } else {
    print_summary(out.result, !args.seed_list.empty());
    fmt::print("result      {}\n", (out_dir / "check.json").string());
  }
  if (out.code != ExitCode::ok)
    std::cerr << fmt::format("kernelagent: kernel file {} failed: {}: {}\n", args.kernel,
                             out.result.value("status", ""), out.result.value("message", ""));
  return static_cast<int>(out.code);
}

}  // namespace kernelagent::cli
