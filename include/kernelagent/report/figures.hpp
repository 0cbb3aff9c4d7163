#pragma once
// The report's numbers as a reader expects them: times in us or ms (as the terminal prints them), ratios
// as "1.47x", fractions as percentages, rates and amounts with SI prefixes. And the defensive reading of a
// number from a result, whose fields may be absent or null.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace kernelagent::report {

// "4.192 ms", "499.5 us" (the terminal summary's format).
std::string time_us(double us);
// "1.47x"
std::string ratio_x(double ratio);
// 0.6403 -> "64.0%"
std::string percent(double fraction);
// A value with an SI prefix and a unit, three significant digits: si(3.07e12, "B/s") -> "3.07 TB/s".
std::string si(double value, std::string_view unit);

// The value at `key` of an object, or null when `j` is not an object or the key is absent.
nlohmann::json field(const nlohmann::json& j, std::string_view key);
// The number at `key` of an object, or nullopt when `j` is not an object, the key is absent or not a number.
std::optional<double> number_at(const nlohmann::json& j, std::string_view key);
// The string at `key`, or `fallback`.
std::string text_at(const nlohmann::json& j, std::string_view key, std::string_view fallback = "");

// A configuration as the search writes it: {"num_warps":4,"block":1024} -> "num_warps=4 block=1024".
std::string config_text(const nlohmann::json& config);

}  // namespace kernelagent::report
