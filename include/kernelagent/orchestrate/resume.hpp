#pragma once
// Resuming an optimize (docs/history.md): what earlier runs of the same problem measured under the same
// conditions (every field of the CandidateKey) becomes the search's already-measured trials, so the same
// command after a kill goes on where the killed run stopped and measures no configuration twice.

#include <cstdint>
#include <vector>

#include "kernelagent/families/family.hpp"
#include "kernelagent/history/history_store.hpp"

namespace kernelagent {

// The stored candidates with `key` from runs other than `current_run`: one per configuration (its newest
// measurement), in the order the configurations were first measured, and only configurations of `valid`
// (what this search may measure at all).
std::vector<StoredCandidate> resumable_candidates(const HistoryStore& history, const CandidateKey& key,
                                                  std::int64_t current_run, const std::vector<Config>& valid);

}  // namespace kernelagent
