#pragma once
// Resuming an optimize (docs/history.md): what earlier runs of the same problem measured under the same
// conditions (every field of the CandidateKey) becomes the search's already-measured trials, so the same
// command after a kill goes on where the killed run stopped and measures no configuration twice.
//
// Only verdicts on the candidate itself are taken over. A failure caused from outside it is measured again:
// a `timeout` when this run allows longer than the run that recorded it (or that run's deadline is not
// known), a `crash` of a worker ended by a signal that comes from outside the process (SIGKILL from the OOM
// killer or an operator, SIGTERM, SIGINT, SIGHUP, SIGQUIT). Example: `optimize p.py --timeout 0.001` stores
// c0 as `timeout`; `optimize p.py` (180 s) measures c0's configuration again, "timed out under --timeout
// 0.001 s in run 1".

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernelagent/families/family.hpp"
#include "kernelagent/history/history_store.hpp"

namespace kernelagent {

// A stored trial that is not a verdict on its candidate, so this run measures its configuration again.
struct MeasureAgain {
  StoredCandidate stored;
  std::string why;  // e.g. "timed out under --timeout 0.001 s in run 3"
};

struct ResumePlan {
  std::vector<StoredCandidate> taken_over;  // the search's first trials, not measured again
  std::vector<MeasureAgain> measure_again;  // in the order the configurations were first measured
};

// Why a stored candidate is not taken over by a run whose compile and check deadline is `timeout_s`
// seconds, or nullopt when its status is a verdict on the candidate (ok, wrong_result, compile_error,
// cheat_*, nan_or_inf, a crash by the candidate's own fault, a timeout under as long a deadline, ...).
std::optional<std::string> why_measure_again(const StoredCandidate& stored, double timeout_s);

// The stored candidates with `key` from runs other than `current_run`: one per configuration (its newest
// measurement), in the order the configurations were first measured, and only configurations of `valid`
// (what this search may measure at all), split by why_measure_again.
ResumePlan plan_resume(const HistoryStore& history, const CandidateKey& key, std::int64_t current_run,
                       const std::vector<Config>& valid, double timeout_s);

}  // namespace kernelagent
