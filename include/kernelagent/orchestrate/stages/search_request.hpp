#pragma once
// What an optimize's search step is asked (knob_search.hpp): the configurations the problem, the GPU (none
// on the CPU) and the precision policy allow, in the knob space's order, default first; the strategy and its
// limits; the conditions that decide what is resumed from the history.

#include "kernelagent/orchestrate/knob_search.hpp"
#include "kernelagent/orchestrate/stages/optimize_state.hpp"

namespace kernelagent {

// Needs the stages up to the baselines: the trace, its dtype and the family.
KnobSearchRequest search_request(const OptimizeState& state);

// The problem's suggestions (FamilyProblem::suggestions) as configurations of `valid`: each the valid one that
// sets the suggested knobs with the fewest others off the default, with its reason; a suggestion no valid
// configuration satisfies is dropped, and a configuration suggested twice is kept once.
std::vector<std::pair<Config, std::string>> suggested_configs(const FamilyProblem& problem, const KnobSpace& space,
                                                              const std::vector<Config>& valid);

}  // namespace kernelagent
