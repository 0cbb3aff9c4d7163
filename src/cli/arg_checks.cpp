#include "kernelagent/cli/arg_checks.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <filesystem>

#include "kernelagent/core/error.hpp"

namespace kernelagent::cli {

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The value as the user typed it, shortened: a message quotes it, never pages of it.
std::string shown(std::string_view value) {
  if (value.size() > 40) return fmt::format("'{}...'", value.substr(0, 37));
  return fmt::format("'{}'", value);
}

std::string plain(double v) { return fmt::format("{:g}", v); }

}  // namespace

CLI::Validator whole_number(std::int64_t min, std::int64_t max, std::string hint) {
  std::string expected = max == INT32_MAX || max == INT64_MAX ? fmt::format("a whole number of at least {}", min)
                                                              : fmt::format("a whole number from {} to {}", min, max);
  return CLI::Validator(
      [=](std::string& value) -> std::string {
        const std::string_view v = trimmed(value);
        std::int64_t n = 0;
        auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
        if (v.empty() || ec != std::errc{} || ptr != v.data() + v.size() || n < min || n > max)
          return fmt::format("expected {}, not {}{}", expected, shown(value), hint.empty() ? "" : " (" + hint + ")");
        value = std::string(v);
        return "";
      },
      min == 0 ? "INT>=0" : fmt::format("INT>={}", min));
}

CLI::Validator seed_number() {
  return CLI::Validator(
      [](std::string& value) -> std::string {
        const std::string_view v = trimmed(value);
        std::uint64_t n = 0;
        auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), n);
        if (v.empty() || ec != std::errc{} || ptr != v.data() + v.size())
          return fmt::format("expected a whole number from 0 to {}, not {}", UINT64_MAX, shown(value));
        value = std::string(v);
        return "";
      },
      "UINT");
}

CLI::Validator real_number(double min, bool inclusive, std::optional<double> max, std::string what) {
  std::string expected = fmt::format("{} {} {}", what, inclusive ? "of at least" : "above", plain(min));
  if (max) expected = fmt::format("{} from {} to {}", what, plain(min), plain(*max));
  if (max && !inclusive) expected = fmt::format("{} above {} and at most {}", what, plain(min), plain(*max));
  return CLI::Validator(
      [=](std::string& value) -> std::string {
        const std::string_view v = trimmed(value);
        double x = 0;
        auto [ptr, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
        const bool read = !v.empty() && ec == std::errc{} && ptr == v.data() + v.size() && std::isfinite(x);
        if (!read || (inclusive ? x < min : x <= min) || (max && x > *max))
          return fmt::format("expected {}, not {}", expected, shown(value));
        value = std::string(v);
        return "";
      },
      "NUMBER");
}

CLI::Validator nonempty_path(std::string hint) {
  return CLI::Validator(
      [=](std::string& value) -> std::string {
        if (trimmed(value).empty())
          return "expected a path, not an empty string" + (hint.empty() ? "" : " (" + hint + ")");
        return "";
      },
      "PATH");
}

CLI::Validator one_of(std::vector<std::string> choices) {
  std::string listed;
  for (const auto& c : choices) listed += (listed.empty() ? "" : ", ") + c;
  return CLI::Validator(
      [=](std::string& value) -> std::string {
        if (std::find(choices.begin(), choices.end(), value) != choices.end()) return "";
        return fmt::format("expected one of {}, not {}", listed, shown(value));
      },
      "{" + listed + "}");
}

void require_file(const std::string& path, std::string_view what, std::string_view folder_hint) {
  std::error_code ec;
  const std::filesystem::file_status st = std::filesystem::status(path, ec);
  if (std::filesystem::is_directory(st))
    throw UserError(ExitCode::bad_input, fmt::format("{} {} is a directory, not a file{}", what, path, folder_hint));
  if (!std::filesystem::exists(st))
    throw UserError(ExitCode::bad_input, fmt::format("{} {} does not exist", what, path));
  if (!std::filesystem::is_regular_file(st))
    throw UserError(ExitCode::bad_input, fmt::format("{} {} is not a regular file", what, path));
}

void require_problem_file(const std::string& path) {
  require_file(path, "problem file",
               ": pass one KernelBench problem file (Model, get_inputs, get_init_inputs), or run `kernelagent bench "
               "DIR` over a folder of them");
}

std::string short_parse_message(const CLI::ParseError& e) {
  std::string m = e.what();
  // "--trials: 1 required INT:INT>=1 missing": the flag was given without its value.
  if (dynamic_cast<const CLI::ArgumentMismatch*>(&e) && m.ends_with(" missing") && m.find(": ") != std::string::npos)
    return m.substr(0, m.find(": ")) + ": its value is missing";
  for (const auto& [prefix, said] :
       {std::pair{"The following argument was not expected: ", "unexpected argument: "},
        std::pair{"The following arguments were not expected: ", "unexpected arguments: "}})
    if (m.starts_with(prefix)) return said + m.substr(std::string_view(prefix).size());
  if (m.starts_with("Could not convert: ")) {  // "Could not convert: --x = abc"
    const std::string rest = m.substr(19);
    const auto eq = rest.find(" = ");
    if (eq != std::string::npos)
      return fmt::format("{}: cannot read {}", rest.substr(0, eq), shown(rest.substr(eq + 3)));
  }
  if (m == "A subcommand is required") return "a subcommand is required";
  // CLI11's sentences start with a capital ("Expected exactly 1 argument ..."); ours follow "kernelagent: ".
  if (m.size() > 1 && m[0] >= 'A' && m[0] <= 'Z' && m[1] >= 'a' && m[1] <= 'z')
    m[0] = static_cast<char>(m[0] - 'A' + 'a');
  return m;
}

std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& choices) {
  auto distance = [](std::string_view a, std::string_view b) {
    std::vector<std::size_t> row(b.size() + 1);
    for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
    for (std::size_t i = 1; i <= a.size(); ++i) {
      std::size_t diagonal = row[0];
      row[0] = i;
      for (std::size_t j = 1; j <= b.size(); ++j) {
        const std::size_t above = row[j];
        row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
        diagonal = above;
      }
    }
    return row[b.size()];
  };
  std::optional<std::string> best;
  std::size_t best_distance = 3;  // two edits at most: "optimise", "diagnos", "histroy"
  for (const auto& c : choices)
    if (const std::size_t d = distance(word, c); d < best_distance) best = c, best_distance = d;
  if (!best && word.size() >= 3)  // an abbreviation: "opt", "diag"
    for (const auto& c : choices)
      if (c.starts_with(word)) return c;
  return best;
}

}  // namespace kernelagent::cli
