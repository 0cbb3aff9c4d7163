#pragma once
// The search context of a replay: what a recorded sweep tells the search about its problem, as a live run's
// context would from the GPU (`replay`, search_efficiency, the search tests).

#include "kernelagent/explore/sweep_record.hpp"
#include "kernelagent/orchestrate/search_strategy.hpp"

namespace kernelagent {

// The record's knob space, its configurations in order, the floor that binds the problem and, for a sweep
// made with --profile, each configuration's diagnosed cause, so the guided search prescribes from it as it
// would from a live profile of its parents. The context points into `rec`, which must outlive it.
SearchContext replay_context(const SweepRecord& rec);

}  // namespace kernelagent
