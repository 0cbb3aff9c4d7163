#include "kernelagent/orchestrate/resume.hpp"

#include <algorithm>
#include <map>

namespace kernelagent {

std::vector<StoredCandidate> resumable_candidates(const HistoryStore& history, const CandidateKey& key,
                                                  std::int64_t current_run, const std::vector<Config>& valid) {
  std::vector<StoredCandidate> out;
  std::map<std::string, std::size_t> slot;  // config text -> its place in `out`
  for (auto& stored : history.candidates_matching(key, current_run)) {
    const Config& c = stored.record.config;
    if (std::find(valid.begin(), valid.end(), c) == valid.end()) continue;
    auto [it, first] = slot.emplace(c.dump(), out.size());
    if (first)
      out.push_back(std::move(stored));
    else
      out[it->second] = std::move(stored);  // a later run measured it again: its figures are the newer
  }
  return out;
}

}  // namespace kernelagent
