#include <fmt/format.h>
#include <fmt/ranges.h>

#include <iostream>

#include "kernelagent/cli/arg_checks.hpp"
#include "kernelagent/cli/commands.hpp"
#include "kernelagent/cli/optimize_options.hpp"
#include "kernelagent/cli/report_files.hpp"
#include "kernelagent/cli/session.hpp"
#include "kernelagent/core/output_dir.hpp"
#include "kernelagent/families/user_kernel.hpp"

namespace kernelagent::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The human summary of one optimize: what was found, how fast, under which conditions.
void print_summary(const json& r) {
  const std::string status = r.value("status", "");
  if (status != "ok") return;
  const json& best = r.at("best");
  fmt::print("kernel      {}\n", r.value("kernel_path", ""));
  fmt::print("family      {} {}\n", best.value("family", ""), best.at("config").dump());
  fmt::print("conditions  {} on {}, precision {}, tolerance atol={} rtol={} over {} seeds\n", r.value("dtype", ""),
             r.at("gpu").is_null() ? std::string("CPU (Triton interpreter)") : r.at("gpu").value("device_name", ""),
             r.value("precision", ""), r.at("tolerance").value("atol", 0.0), r.at("tolerance").value("rtol", 0.0),
             r.at("tolerance").at("seeds").size());
  if (r.contains("search")) {
    const json& s = r.at("search");
    const int resumed = s.value("resumed", 0);
    std::vector<std::string> whys;  // the trials measured again, each with why
    for (const auto& t : r.value("trial_list", json::array()))
      if (t.contains("measured_again"))
        whys.push_back(fmt::format("{}, {}", t.value("candidate", ""), t.at("measured_again").value("why", "")));
    std::string notes;
    if (resumed > 0) notes = fmt::format("{} resumed from the history, not measured again", resumed);
    if (!whys.empty())
      notes += fmt::format("{}{} measured again: {}", notes.empty() ? "" : "; ", whys.size(), fmt::join(whys, "; "));
    fmt::print("search      {}: {} trials{}, stopped: {}\n", s.value("strategy", ""), s.value("trials_used", 0),
               notes.empty() ? "" : " (" + notes + ")", s.value("stop_reason", ""));
  }
  if (r.contains("start")) {  // a user's kernel file: where it started and how far the search took it
    const json& st = r.at("start");
    if (st.contains("best_speedup") && st.at("best_speedup").is_number())
      fmt::print("from start  {} {} -> best {} ({:.2f}x, search-time medians)\n", st.at("config").dump(),
                 format_us(st.at("median_us").get<double>()), format_us(st.at("best_median_us").get<double>()),
                 st.at("best_speedup").get<double>());
    else
      fmt::print("from start  {}: {}\n", st.at("config").dump(), st.value("status", ""));
  }
  if (r.contains("profiles")) {
    int diagnosed = 0;
    for (const auto& p : r.at("profiles")) diagnosed += p.contains("diagnosis");
    fmt::print("profiles    {} beam parents profiled with Nsight Compute ({} diagnosed)\n", r.at("profiles").size(),
               diagnosed);
  }
  if (r.at("timing").is_null()) {
    fmt::print("correct     yes (max abs error {}); not timed: {}\n", best.at("max_abs_err").dump(),
               r.value("note", ""));
    return;
  }
  auto t = [&](const json& j) {
    return j.contains("median_us") ? format_us(j.at("median_us").get<double>()) : j.value("status", "n/a");
  };
  const json& b = r.at("baselines");
  fmt::print("time        kernelagent {}   eager {}   torch.compile {}   (median, {} rounds interleaved, method {})\n",
             t(best), t(b.at("eager")), t(b.at("compile")), r.at("timing").value("final_rounds", 0),
             best.value("method", ""));
  // The speedup over the faster of two baselines: the smaller of the two ratios.
  auto faster_ratio = [](const json& speedup) {
    const json& a = speedup.at("vs_eager");
    const json& c = speedup.at("vs_compile");
    if (a.is_number() && c.is_number()) return json(std::min(a.get<double>(), c.get<double>()));
    return a.is_number() ? a : c;
  };
  auto sp = [](const json& v) { return v.is_number() ? fmt::format("{:.2f}x", v.get<double>()) : std::string("n/a"); };
  // The conditions go with the speedup: a TF32 kernel against PyTorch's IEEE fp32 is said so.
  std::string against;
  const json& set = b.value("settings", json(nullptr));
  if (set.is_object() && r.value("dtype", "") == "float32")
    against = fmt::format(" ({} kernel; baselines with fp32 products '{}', TF32 convolutions {})",
                          r.value("precision", "") == "tf32" ? "TF32-allowed" : "fp32-accurate",
                          set.value("fp32_matmul", "?"), set.value("cudnn_allow_tf32", false) ? "on" : "off");
  fmt::print("speedup     {} vs eager, {} vs torch.compile{}\n", sp(r.at("speedup").at("vs_eager")),
             sp(r.at("speedup").at("vs_compile")), against);
  // PyTorch's defaults, where they run the problem's ops unlike the accuracy-matched baselines: what they gain
  // in time and what they cost in accuracy, beside the figures the verdict is counted against.
  if (b.contains("pytorch_default")) {
    const json& d = b.at("pytorch_default");
    const json& e = d.value("error", json::object());
    std::string accuracy = "error not measured";
    if (e.contains("max_abs_err"))
      accuracy =
          fmt::format("max abs error {:.3g} vs the IEEE reference, {} the {} tolerance", e.value("max_abs_err", 0.0),
                      e.value("within_tolerance", false) ? "within" : "beyond", r.value("precision", ""));
    fmt::print("defaults    eager {}   torch.compile {}   ({}; {}); kernelagent {} vs its faster\n", t(d.at("eager")),
               t(d.at("compile")), d.value("why", ""), accuracy, sp(faster_ratio(d.at("speedup"))));
  }
  const json& roof = r.at("roofline");
  if (roof.contains("fraction") && roof.at("fraction").is_number())
    fmt::print("roofline    {:.1f}% of the {} floor {} ({:.2f} TB/s of {:.2f} TB/s nominal)\n",
               100 * roof.at("fraction").get<double>(), roof.value("bound", ""), format_us(roof.value("floor_us", 0.0)),
               roof.value("achieved_bytes_per_s", 0.0) / 1e12, roof.value("peak_bytes_per_s", 0.0) / 1e12);
  fmt::print("trials      {} ({})\n", r.at("trials").value("total", 0), r.at("trials").at("by_status").dump());
}

}  // namespace

int run_optimize_command(const CommonOptions& common, const OptimizeArgs& args) {
  require_problem_file(args.problem);
  // A user's kernel file is read before anything starts, so a mark it cannot read is the only message.
  std::unique_ptr<Family> user_kernel;
  if (!args.kernel.empty()) {
    require_file(args.kernel, "kernel file");
    user_kernel = user_kernel_family(args.kernel);
  }
  OptimizeOptions opt = optimize_options(common, args);
  // Before anything is written there (the worker's log first): the problem is not where the run writes, and
  // no other run writes there at once.
  refuse_to_write_over(args.problem, opt.out_dir);
  const OutputLock out_lock(opt.out_dir, "optimize " + args.problem);
  Session session = open_session(common, opt.out_dir / "worker.log");
  if (user_kernel) {  // the file is the only family
    session.families.clear();
    session.families.push_back(std::move(user_kernel));
  }
  use_compile_pool(session, opt);
  if (opt.search == "guided") use_profiler(session, common, args.profile, args.ncu, opt);
  ProgressLine progress(!common.json);
  opt.on_progress = [&](const ProgressEvent& e) { progress(e); };
  OptimizeOutcome out = run_optimize(opt, *session.pool, *session.history, session.families);
  progress.finish();
  session.pool->shutdown();
  const auto report = write_report_beside(opt.out_dir);
  if (common.json) {
    std::cout << out.result.dump(2) << "\n";
  } else {
    print_summary(out.result);
    fmt::print("result      {}\n", (opt.out_dir / "result.json").string());
    if (report) fmt::print("report      {}\n", report->string());
  }
  if (out.code != ExitCode::ok) std::cerr << "kernelagent: " << out.message << "\n";
  return static_cast<int>(out.code);
}

}  // namespace kernelagent::cli
