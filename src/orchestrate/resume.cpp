#include "kernelagent/orchestrate/resume.hpp"

#include <fmt/format.h>
#include <signal.h>

#include <algorithm>
#include <map>

#include "kernelagent/core/status.hpp"

namespace kernelagent {

namespace {

// Signals one process sends another to end it: the OOM killer's and an operator's SIGKILL, a service
// manager's SIGTERM, a terminal's SIGINT, SIGHUP and SIGQUIT. The faults of a candidate's own code end its
// worker with others (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT), or with an exit code.
const char* outside_signal_name(int signal) {
  switch (signal) {
    case SIGKILL:
      return "SIGKILL";
    case SIGTERM:
      return "SIGTERM";
    case SIGINT:
      return "SIGINT";
    case SIGHUP:
      return "SIGHUP";
    case SIGQUIT:
      return "SIGQUIT";
    default:
      return nullptr;
  }
}

}  // namespace

std::optional<std::string> why_measure_again(const StoredCandidate& stored, double timeout_s) {
  const CandidateRecord& c = stored.record;
  if (c.status == status::timeout) {
    if (!c.timeout_s)
      return fmt::format("timed out in run {} under a --timeout the history did not record", stored.run_id);
    if (timeout_s > *c.timeout_s)
      return fmt::format("timed out under --timeout {:g} s in run {}", *c.timeout_s, stored.run_id);
    return std::nullopt;
  }
  if (c.status == status::crashed)
    if (const char* name = outside_signal_name(c.worker_signal))
      return fmt::format("its worker was killed by {} in run {}, from outside the candidate", name, stored.run_id);
  return std::nullopt;
}

ResumePlan plan_resume(const HistoryStore& history, const CandidateKey& key, std::int64_t current_run,
                       const std::vector<Config>& valid, double timeout_s) {
  std::vector<StoredCandidate> newest;
  std::map<std::string, std::size_t> slot;  // config text -> its place in `newest`
  for (auto& stored : history.candidates_matching(key, current_run)) {
    const Config& c = stored.record.config;
    if (std::find(valid.begin(), valid.end(), c) == valid.end()) continue;
    auto [it, first] = slot.emplace(c.dump(), newest.size());
    if (first)
      newest.push_back(std::move(stored));
    else
      newest[it->second] = std::move(stored);  // a later run measured it again: its figures are the newer
  }
  ResumePlan plan;
  for (auto& stored : newest) {
    if (auto why = why_measure_again(stored, timeout_s))
      plan.measure_again.push_back({std::move(stored), std::move(*why)});
    else
      plan.taken_over.push_back(std::move(stored));
  }
  return plan;
}

}  // namespace kernelagent
