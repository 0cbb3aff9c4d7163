#pragma once
// Prescribe: from a diagnosed cause to the purposes (knob tags, DESIGN.md section 3) whose knobs are worth
// moving, most promising first. Rules speak in tags, never in family names, so every family with tagged
// knobs benefits from every rule.

#include <string>
#include <vector>

namespace kernelagent {

struct Prescription {
  std::string cause;              // the diagnosed cause it answers, or "bound:memory" / "bound:compute"
  std::vector<std::string> tags;  // purposes to move, most promising first
  std::string reason;             // one line, for the decision log
};

// The rule for one cause of the diagnosis (diagnose/diagnosis.hpp); an empty tag list for a cause no knob
// move answers (at the roofline, warp divergence).
Prescription prescribe_for_cause(const std::string& cause, bool tensor_cores_allowed);

// Without a profile, the floor that binds the problem still says where time goes: a memory-bound problem
// wants fewer and better-shaped bytes, a compute-bound one tensor cores and reuse.
Prescription prescribe_for_bound(const std::string& bound, bool tensor_cores_allowed);

// Every cause the rule base answers (for tests: each diagnosis cause must have a rule).
std::vector<std::string> prescribed_causes();

}  // namespace kernelagent
