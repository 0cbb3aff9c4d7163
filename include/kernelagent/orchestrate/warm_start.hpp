#pragma once
// Warm start (DESIGN.md section 7): when the history holds nothing of this problem under these conditions,
// the best configuration of the most similar finished run of the same family, on the same GPU and under
// the same precision policy, is measured right after the default. Most similar: the same op list in the
// problem signature, then the nearest input shapes. Example: a ReLU over 4096x8192 was best at
// num_warps=16; a ReLU over 4096x4096 tries num_warps=16 second, with the reason "warm start from run 7".

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernelagent/families/family.hpp"
#include "kernelagent/history/history_store.hpp"

namespace kernelagent {

struct WarmStart {
  std::int64_t run_id = 0;
  Config config;
  std::string reason;  // "warm start from run N (...)"
};

// How far apart the inputs of two problem signatures (TraceResult::signature) are: nullopt when their
// op lists or their numbers of inputs differ; else the sum of |log2| ratios of the tensors' dimensions
// (ranks padded with leading 1s), plus 1 for every input whose dtype or literal value differs. 0: the same.
std::optional<double> signature_distance(const std::string& a, const std::string& b);

// A stored configuration in today's knob space (a family may have gained or lost knobs since): knobs the
// space no longer has are dropped, and a knob it gained, or a value outside its domain, takes the default.
Config in_space(const Config& stored, const KnobSpace& space);

// The warm start for a problem with `signature` from `runs` (HistoryStore::finished_runs): the nearest
// run whose best configuration, taken into the space, is valid here; nullopt when there is none or when
// that configuration is the first valid one (the default, measured first anyway).
std::optional<WarmStart> warm_start_for(const std::vector<FinishedRun>& runs, const std::string& signature,
                                        const KnobSpace& space, const std::vector<Config>& valid);

}  // namespace kernelagent
