#pragma once
// Warm start (DESIGN.md section 7): when the history holds nothing of this problem under these conditions,
// the best configurations of the most similar finished runs of the same family, on the same GPU and under
// the same precision policy, are measured right after the default. Most similar: the same op list in the
// problem signature first, then the nearest input shapes. Example: a ReLU over 4096x8192 was best at
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

// The distance warm starts rank by: signature_distance, or, for the other ops of one family (a sum after a
// max, an mm after a bmm) with as many inputs, the shape distance plus kOtherOps, so that every problem
// with the same ops comes first. nullopt when the numbers of inputs differ.
inline constexpr double kOtherOps = 16;
std::optional<double> family_distance(const std::string& a, const std::string& b);

// The warm starts for a problem with `signature` from `runs` (HistoryStore::finished_runs, newest first):
// the best configurations of the `most` nearest runs, taken into the space, that are valid here, distinct,
// and not the first valid configuration (the default, measured first anyway); nearest first.
std::vector<WarmStart> warm_starts_for(const std::vector<FinishedRun>& runs, const std::string& signature,
                                       const KnobSpace& space, const std::vector<Config>& valid,
                                       std::size_t most = 3);

}  // namespace kernelagent
