#pragma once
// The search's profiles (Profile and Diagnose, on a GPU with a profiler: Nsight Compute in the CLI): the
// profiler of candidates the guided search asks the diagnosis of its beam parents from, and a sweep's
// profile of every candidate that passed.

#include <functional>

#include "kernelagent/orchestrate/knob_search.hpp"
#include "kernelagent/orchestrate/stages/optimize_state.hpp"
#include "kernelagent/profile/candidate_profile.hpp"

namespace kernelagent {

// The profiler of candidates on this run's GPU, or none (the CPU, or no profiler asked for). Needs the
// search's executor: before each profile the workers hand their cached GPU memory back.
CandidateProfiler search_profiler(const OptimizeState& state);

// Profiles every candidate this run measured that passed and the search did not profile, in order, so a
// sweep's record holds each configuration's diagnosis for replays; `on_profile` sees each as taken.
void profile_every_passed(KnobSearchOutcome& searched, const CandidateProfiler& profiler,
                          const std::function<void(const SearchProfile&)>& on_profile);

}  // namespace kernelagent
