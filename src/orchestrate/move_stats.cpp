#include "kernelagent/orchestrate/move_stats.hpp"

namespace kernelagent {

namespace {

constexpr double kHelps = 0.99;  // the move's target is more than 1 % faster

std::string move_key(const std::string& knob, const nlohmann::json& value) { return knob + "=" + value.dump(); }

}  // namespace

void MoveStats::add_run(const std::vector<std::pair<Config, double>>& measured) {
  for (std::size_t i = 0; i < measured.size(); ++i)
    for (std::size_t j = i + 1; j < measured.size(); ++j) {
      const auto& [a, ta] = measured[i];
      const auto& [b, tb] = measured[j];
      const auto differ = differing_knobs(a, b);
      if (differ.size() != 1 || !a.contains(differ[0]) || !b.contains(differ[0])) continue;
      const std::string& knob = differ[0];
      Count& to_b = by_move_[move_key(knob, b.at(knob))];
      Count& to_a = by_move_[move_key(knob, a.at(knob))];
      ++to_b.seen, ++to_a.seen;
      to_b.helped += tb < ta * kHelps;
      to_a.helped += ta < tb * kHelps;
    }
}

double MoveStats::score(const std::string& knob, const nlohmann::json& value) const {
  auto it = by_move_.find(move_key(knob, value));
  if (it == by_move_.end()) return 0.5;
  return (it->second.helped + 1.0) / (it->second.seen + 2.0);
}

std::pair<int, int> MoveStats::counts(const std::string& knob, const nlohmann::json& value) const {
  auto it = by_move_.find(move_key(knob, value));
  return it == by_move_.end() ? std::pair{0, 0} : std::pair{it->second.helped, it->second.seen};
}

}  // namespace kernelagent
