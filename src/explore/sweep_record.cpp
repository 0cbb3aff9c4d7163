#include "kernelagent/explore/sweep_record.hpp"

#include <fmt/format.h>

#include <fstream>

#include "kernelagent/core/error.hpp"
#include "kernelagent/profile/candidate_profile.hpp"

namespace kernelagent {

using nlohmann::json;

SweepRecord SweepRecord::load(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) throw UserError(ExitCode::bad_input, fmt::format("cannot read the sweep record {}", path.string()));
  json j = json::parse(in, nullptr, false);
  if (j.is_discarded()) throw UserError(ExitCode::bad_input, fmt::format("{} is not JSON", path.string()));
  return from_json(j, path.string());
}

SweepRecord SweepRecord::from_json(const json& j, const std::string& origin) {
  if (!j.is_object() || j.value("schema", "") != "kernelagent.sweep/1" || !j.contains("configs") ||
      !j.contains("knobs"))
    throw UserError(ExitCode::bad_input,
                    fmt::format("{} is not a sweep record (kernelagent.sweep/1 with knobs and configs); "
                                "make one with `kernelagent sweep`",
                                origin));
  SweepRecord r;
  r.raw_ = j;
  for (const auto& k : j.at("knobs")) {
    Knob knob;
    knob.name = k.at("name").get<std::string>();
    knob.domain = k.at("domain").get<std::vector<json>>();
    knob.default_value = k.at("default");
    knob.tags = k.value("tags", std::vector<std::string>{});
    knob.variant = k.value("variant", false);
    knob.tile_exponent = k.value("tile_exponent", 0);
    r.space_.knobs.push_back(std::move(knob));
  }
  for (const auto& c : j.at("configs")) {
    Measurement m;
    m.status = c.value("status", "not_run");
    if (c.contains("median_us") && c.at("median_us").is_number()) m.median_us = c.at("median_us").get<double>();
    r.order_.push_back(c.at("config"));
    r.by_config_[c.at("config").dump()] = m;
    if (c.contains("diagnosis"))
      r.causes_[c.at("config").dump()] = CandidateDiagnosis::from_json(c.at("diagnosis")).cause;
  }
  return r;
}

Measurement SweepRecord::measure(const Config& config, const std::string&) { return measure(config); }

Measurement SweepRecord::measure(const Config& config) const {
  auto it = by_config_.find(config.dump());
  // A configuration the sweep did not measure was pruned as invalid for this problem or GPU.
  if (it == by_config_.end()) return {"invalid_config", std::nullopt};
  return it->second;
}

std::optional<double> SweepRecord::best_us() const {
  std::optional<double> best;
  for (const auto& [k, m] : by_config_)
    if (m.ok() && (!best || *m.median_us < *best)) best = m.median_us;
  return best;
}

std::string SweepRecord::cause(const Config& config) const {
  auto it = causes_.find(config.dump());
  return it == causes_.end() ? std::string() : it->second;
}

std::string SweepRecord::name() const { return raw_.contains("problem") ? raw_.at("problem").value("name", "") : ""; }

std::string SweepRecord::bound() const {
  const json roof = raw_.value("roofline", json::object());
  return roof.is_object() ? roof.value("bound", "memory") : "memory";
}

}  // namespace kernelagent
