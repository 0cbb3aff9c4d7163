#include "kernelagent/orchestrate/stages/search_profiler.hpp"

#include <set>

namespace kernelagent {

namespace {

// What a profile's diagnosis is told about the problem: its compulsory work, and whether tensor cores could
// do it (the product families).
ProblemFacts problem_facts(const TraceResult& trace, const Family& family) {
  ProblemFacts facts;
  facts.compulsory_bytes = static_cast<double>(trace.compulsory_bytes());
  facts.input_bytes = static_cast<double>(trace.input_bytes);
  if (trace.flops > 0) facts.flops = static_cast<double>(trace.flops);
  facts.matrix_product = family.fact("matrix_product");
  return facts;
}

}  // namespace

CandidateProfiler search_profiler(const OptimizeState& s) {
  if (!s.on_gpu || !s.gpu || !s.opt.make_profiler) return {};
  // The profiled process loads the problem on the GPU the workers hold: their allocators' cached memory
  // goes back to the driver first (a 6 GiB softmax's timings had left 132.6 GiB of 139.8 cached).
  return [&executor = *s.executor, inner = s.opt.make_profiler(problem_facts(s.trace, *s.family), *s.gpu)](
             const std::string& name, const std::filesystem::path& kernel, std::string* error) {
    executor.release_memory();
    return inner(name, kernel, error);
  };
}

void profile_every_passed(KnobSearchOutcome& searched, const CandidateProfiler& profiler,
                          const std::function<void(const SearchProfile&)>& on_profile) {
  std::set<std::string> done;
  for (const auto& p : searched.profiles) done.insert(p.candidate);
  for (const auto& t : searched.trials) {
    if (!t.passed() || t.resumed_from_run || done.count(t.candidate.name) || t.candidate.source_path.empty()) continue;
    SearchProfile p{t.candidate.name, t.candidate.config, std::nullopt, ""};
    p.diagnosis = profiler(t.candidate.name, t.candidate.source_path, &p.error);
    searched.profiles.push_back(p);
    if (on_profile) on_profile(searched.profiles.back());
  }
}

}  // namespace kernelagent
