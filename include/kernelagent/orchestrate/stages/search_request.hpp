#pragma once
// What an optimize's search step is asked (knob_search.hpp): the configurations the problem, the GPU (none
// on the CPU) and the precision policy allow, in the knob space's order, default first; the strategy and its
// limits; the conditions that decide what is resumed from the history.

#include "kernelagent/orchestrate/knob_search.hpp"
#include "kernelagent/orchestrate/stages/optimize_state.hpp"

namespace kernelagent {

// Needs the stages up to the baselines: the trace, its dtype and the family.
KnobSearchRequest search_request(const OptimizeState& state);

}  // namespace kernelagent
