#include "kernelagent/report/targets.hpp"

#include "kernelagent/report/figures.hpp"

namespace kernelagent::report {

using nlohmann::json;

namespace {

Target target(std::string name, std::string colour, const json& m) {
  Target t{std::move(name), std::move(colour), text_at(m, "status", "not timed")};
  t.median_us = number_at(m, "median_us");
  t.p10_us = number_at(m, "p10_us");
  t.p90_us = number_at(m, "p90_us");
  if (const auto reps = number_at(m, "reps")) t.reps = static_cast<int>(*reps);
  t.method = text_at(m, "method");
  if (t.median_us) t.status = "ok";
  return t;
}

}  // namespace

std::vector<Target> targets_of(const json& result) {
  const json baselines = result.value("baselines", json::object());
  const json none = json::object();
  return {target("eager", "#7f7f7f", baselines.is_object() ? baselines.value("eager", none) : none),
          target("torch.compile", "#e69f00", baselines.is_object() ? baselines.value("compile", none) : none),
          target("kernel", "#0072b2", result.value("best", none))};
}

}  // namespace kernelagent::report
