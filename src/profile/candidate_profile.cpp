#include "kernelagent/profile/candidate_profile.hpp"

#include <fmt/format.h>

#include <memory>

#include "kernelagent/core/error.hpp"
#include "kernelagent/core/template.hpp"

namespace kernelagent {

using nlohmann::json;

json CandidateDiagnosis::to_json() const {
  return {{"kernel", kernel},
          {"duration_us", duration_us},
          {"kernels", kernels},
          {"cause", cause},
          {"category", category},
          {"summary", summary},
          {"at_roofline", at_roofline},
          {"sol", {{"compute_pct", sol.compute_pct}, {"memory_pct", sol.memory_pct}, {"dram_pct", sol.dram_pct}}}};
}

CandidateDiagnosis CandidateDiagnosis::from_json(const json& j) {
  if (!j.is_object() || !j.contains("cause") || !j.at("cause").is_string())
    throw UserError(ExitCode::bad_input, "a recorded diagnosis needs a cause (a string, empty when none stood out)");
  CandidateDiagnosis d;
  d.kernel = j.value("kernel", "");
  d.duration_us = j.value("duration_us", 0.0);
  d.kernels = j.value("kernels", 0);
  d.cause = j.at("cause").get<std::string>();
  d.category = j.value("category", "");
  d.summary = j.value("summary", "");
  d.at_roofline = j.value("at_roofline", false);
  const json sol = j.value("sol", json::object());
  d.sol = {sol.value("compute_pct", 0.0), sol.value("memory_pct", 0.0), sol.value("dram_pct", 0.0)};
  return d;
}

CandidateDiagnosis diagnose_candidate(const NcuReport& report, const GpuSpec& gpu, const ProblemFacts& facts) {
  const auto own = select_kernels(report, "", false);
  const KernelProfile* main = nullptr;
  for (const KernelProfile* k : own)
    if (!main || k->duration_ns().value_or(0) > main->duration_ns().value_or(0)) main = k;
  if (!main) throw UserError(ExitCode::bad_input, "the profile holds none of the candidate's own kernels");
  const KernelDiagnosis kd = diagnose_kernel(*main, gpu, facts);
  CandidateDiagnosis d;
  d.kernel = kd.name;
  d.duration_us = kd.duration_us;
  d.kernels = static_cast<int>(own.size());
  d.at_roofline = kd.at_roofline;
  d.sol = kd.sol;
  if (!kd.bottlenecks.empty()) {
    d.cause = kd.bottlenecks.front().cause;
    d.category = kd.bottlenecks.front().category;
    d.summary = kd.bottlenecks.front().summary;
  }
  return d;
}

CandidateProfiler make_ncu_profiler(NcuProfilerSettings s) {
  // A machine where ncu cannot read the counters fails every profile the same way: after two failures in
  // a row the profiler stops trying, so the search does not pay for a doomed ncu run per parent.
  auto failures = std::make_shared<int>(0);
  auto first_error = std::make_shared<std::string>();
  return [s = std::move(s), failures, first_error](const std::string& name, const std::filesystem::path& kernel,
                                                   std::string* error) -> std::optional<CandidateDiagnosis> {
    if (*failures >= kProfileFailuresBeforeGivingUp) {
      if (error) *error = fmt::format("profiling stopped after {} failures: {}", *failures, *first_error);
      return std::nullopt;
    }
    try {
      const NcuRun run = run_ncu(s.ncu, s.python, s.python_dir, s.problem, kernel, s.out_dir / name);
      CandidateDiagnosis d = diagnose_candidate(parse_ncu_raw_csv(read_text_file(run.csv)), s.gpu, s.facts);
      *failures = 0;
      return d;
    } catch (const std::exception& e) {
      if (++*failures == 1) *first_error = e.what();
      if (error) *error = e.what();
      return std::nullopt;
    }
  };
}

}  // namespace kernelagent
