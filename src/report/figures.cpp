#include "kernelagent/report/figures.hpp"

#include <fmt/format.h>

#include <cmath>

namespace kernelagent::report {

using nlohmann::json;

std::string time_us(double us) {
  if (us >= 1000) return fmt::format("{:.3f} ms", us / 1000);
  return fmt::format("{:.1f} us", us);
}

std::string ratio_x(double ratio) { return fmt::format("{:.2f}x", ratio); }

std::string percent(double fraction) { return fmt::format("{:.1f}%", 100 * fraction); }

std::string si(double value, std::string_view unit) {
  static constexpr const char* kPrefixes[] = {"", "k", "M", "G", "T", "P", "E"};
  int i = 0;
  double v = value;
  while (std::fabs(v) >= 1000 && i < 6) {
    v /= 1000;
    ++i;
  }
  return fmt::format("{:.3g} {}{}", v, kPrefixes[i], unit);
}

json field(const json& j, std::string_view key) {
  if (!j.is_object()) return nullptr;
  const auto it = j.find(key);
  return it == j.end() ? json(nullptr) : *it;
}

std::optional<double> number_at(const json& j, std::string_view key) {
  if (!j.is_object()) return std::nullopt;
  const auto it = j.find(key);
  if (it == j.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

std::string text_at(const json& j, std::string_view key, std::string_view fallback) {
  if (!j.is_object()) return std::string(fallback);
  const auto it = j.find(key);
  if (it == j.end() || !it->is_string()) return std::string(fallback);
  return it->get<std::string>();
}

std::string config_text(const json& config) {
  if (!config.is_object()) return config.is_null() ? "" : config.dump();
  std::string out;
  for (const auto& [key, value] : config.items()) {
    if (!out.empty()) out += ' ';
    out += key + "=" + (value.is_string() ? value.get<std::string>() : value.dump());
  }
  return out;
}

}  // namespace kernelagent::report
