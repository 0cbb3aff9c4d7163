#include <algorithm>
#include <iostream>

#include <fmt/format.h>

#include "kernelagent/cli/commands.hpp"
#include "kernelagent/cli/session.hpp"
#include "kernelagent/core/error.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/diagnose/diagnosis.hpp"
#include "kernelagent/profile/ncu_report.hpp"

namespace kernelagent::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// The GPU named by --gpu, else the one the profile was taken on, else an unknown GPU with a warning.
GpuSpec gpu_for(const std::string& flag, const KernelProfile& k, std::vector<std::string>& warnings) {
  std::string name = !flag.empty() ? flag : k.device_name;
  if (name.empty()) {
    warnings.push_back("the profile does not name its GPU and --gpu was not given: no peak bandwidth is known");
    return describe_gpu({{"name", "unknown GPU"}}, nullptr);
  }
  json attrs = {{"name", name}};
  if (flag.empty() || flag == k.device_name) {
    // Only values a GPU can have: a corrupted profile must not describe a GPU of -5 or 1e308 SMs.
    if (auto v = k.get("device__attribute_multiprocessor_count"); v && *v >= 1 && *v <= 10'000)
      attrs["sm_count"] = static_cast<int>(*v);
    if (auto v = k.get("device__attribute_l2_cache_size"); v && *v > 0 && *v <= 1e10)
      attrs["l2_bytes"] = static_cast<std::int64_t>(*v);
  }
  std::string warning;
  GpuSpec g = describe_gpu(attrs, &warning);
  if (!warning.empty()) warnings.push_back(warning);
  return g;
}

void print_note(const KernelDiagnosis& d, const KernelProfile& k) {
  // Demangled C++ kernel names run to hundreds of characters; the JSON keeps the whole name.
  const std::string name = d.name.size() > 100 ? d.name.substr(0, 97) + "..." : d.name;
  const bool timed = std::none_of(d.unreadable.begin(), d.unreadable.end(),
                                  [](const UnreadableMetric& u) { return u.metric.starts_with("gpu__time_duration"); });
  const std::string duration = timed ? fmt::format("{:.1f} us", d.duration_us) : "duration unreadable";
  fmt::print("{}  {}  grid {} x block {}\n", name, duration, k.grid_size, k.block_size);
  fmt::print("  speed of light: compute {:.1f}%  memory {:.1f}%  DRAM {:.1f}%\n", d.sol.compute_pct, d.sol.memory_pct,
             d.sol.dram_pct);
  fmt::print("  at roofline: {} ({})\n", d.at_roofline ? "yes" : "no", d.roofline_reading);
  if (!d.unreadable.empty()) {
    fmt::print("  unreadable metrics ({}; each confidence below is multiplied by {}):\n", d.unreadable.size(),
               kUnreadableConfidenceFactor);
    for (const auto& u : d.unreadable) fmt::print("       {} = {}: {}\n", u.metric, u.value, u.why);
  }
  if (d.bottlenecks.empty()) fmt::print("  no bottleneck stands out in the collected metrics\n");
  int rank = 1;
  for (const auto& b : d.bottlenecks) {
    fmt::print("  {}. {} / {} (confidence {:.2f}): {}\n", rank++, b.category, b.cause, b.confidence, b.summary);
    for (const auto& e : b.evidence)
      fmt::print("       {} = {:.4g} (threshold {:.4g}): {}\n", e.metric, e.value, e.threshold, e.reading);
  }
}

}  // namespace

int run_diagnose_command(const DiagnoseArgs& args) {
  std::string text;
  try {
    text = read_text_file(args.csv);
  } catch (const std::exception&) {
    throw UserError(ExitCode::bad_input, fmt::format("cannot read {}", args.csv));
  }
  NcuReport report;
  try {
    report = parse_ncu_raw_csv(text);
  } catch (const UserError& e) {
    throw UserError(e.code(), args.csv + ": " + e.what());  // name the file the message is about
  }
  return report_diagnosis(report, args);
}

int report_diagnosis(const NcuReport& report, const DiagnoseArgs& args) {
  auto kernels = select_kernels(report, args.kernel, args.all_kernels);
  if (kernels.empty())
    throw UserError(ExitCode::bad_input,
                    fmt::format("no kernel in {} matches{}; it holds: {}{}", args.csv,
                                args.kernel.empty() ? "" : " --kernel '" + args.kernel + "'",
                                [&] {
                                  std::string names;
                                  for (const auto& k : report.kernels) names += (names.empty() ? "" : ", ") + k.name.substr(0, 60);
                                  return names;
                                }(),
                                args.all_kernels ? "" : " (library kernels are skipped unless --all-kernels)"));
  ProblemFacts facts;
  if (args.bytes > 0) facts.compulsory_bytes = args.bytes;
  if (args.input_bytes > 0) facts.input_bytes = args.input_bytes;
  if (args.flops > 0) facts.flops = args.flops;
  std::vector<std::string> warnings;
  json out = {{"gpu", ""}, {"kernels", json::array()}};
  for (const KernelProfile* k : kernels) {
    GpuSpec gpu = gpu_for(args.gpu, *k, warnings);
    out["gpu"] = gpu.device_name.empty() ? gpu.name : gpu.device_name;
    ProblemFacts f = facts;
    // A matrix product can use tensor cores; say so with --matmul, or let the kernel's name tell.
    f.matrix_product = args.matmul || std::regex_search(k->name, std::regex("gemm|matmul", std::regex::icase));
    KernelDiagnosis d = diagnose_kernel(*k, gpu, f);
    if (args.json) out["kernels"].push_back(d.to_json());
    else print_note(d, *k);
  }
  for (const auto& w : report.warnings) warnings.push_back("ncu: " + w);
  if (args.json) {
    out["warnings"] = warnings;
    std::cout << out.dump(2) << "\n";
  } else {
    for (const auto& w : warnings) std::cerr << "warning: " << w << "\n";
  }
  return 0;
}

}  // namespace kernelagent::cli
