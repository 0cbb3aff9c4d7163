#pragma once
// Working memory across runs (DESIGN.md section 7): how often each one-knob move helped in earlier runs of
// the same family on the same GPU under the same precision policy. Every pair of measured configurations
// of one run that differ in exactly one knob is a move seen in both directions; it helped when the
// configuration it leads to was more than 1 % faster. The guided search tries the moves that helped most
// often first among those its prescription allows.
// Example: in four earlier 4096-class fp32 matmuls, num_warps 8 -> 4 helped in 9 of 12 pairs with the
// same other knobs (3xTF32 tiles want fewer warps); from a 3xTF32 parent, num_warps=4 is tried before
// num_stages=4, whose moves helped in 4 of 12.

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "kernelagent/families/family.hpp"

namespace kernelagent {

class MoveStats {
 public:
  // One run's measured configurations with their median times (failed ones left out).
  void add_run(const std::vector<std::pair<Config, double>>& measured);
  // How often setting `knob` to `value` helped, smoothed towards one half: (helped + 1) / (seen + 2).
  // 0.5 for a move never seen.
  double score(const std::string& knob, const nlohmann::json& value) const;
  // {times it helped, times it was seen}.
  std::pair<int, int> counts(const std::string& knob, const nlohmann::json& value) const;
  bool empty() const { return by_move_.empty(); }

 private:
  struct Count {
    int helped = 0;
    int seen = 0;
  };
  std::map<std::string, Count> by_move_;  // "knob=value"
};

}  // namespace kernelagent
