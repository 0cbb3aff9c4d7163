#pragma once
// The command line's own checks and messages. CLI11's validators describe a failure by the range they test
// ("Value abc not in range 0 to 1.797693e+308", all 309 digits of it) and its errors exit with codes 105 to
// 114; these validators say what a flag expects and what it got, and every argument error becomes one short
// line and exit code 2 (ExitCode::bad_input), as the README promises. --help and --version still exit 0.

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace kernelagent::cli {

// A whole number in [min, max]: "--trials: expected a whole number of at least 1, not 'abc'".
CLI::Validator whole_number(std::int64_t min, std::int64_t max = INT32_MAX, std::string hint = "");
// An unsigned 64-bit whole number (a seed).
CLI::Validator seed_number();
// A finite number above `min` (or at least `min` when `inclusive`), at most `max` when given:
// "--timeout: expected a number of seconds above 0, not '0'".
CLI::Validator real_number(double min, bool inclusive, std::optional<double> max = std::nullopt,
                           std::string what = "a number");
// One of a few words: "--device: expected one of auto, cpu, not 'gpu'".
CLI::Validator one_of(std::vector<std::string> choices);
// A path that is not empty: `--db ''` is refused, not taken for the default.
CLI::Validator nonempty_path(std::string hint);

// A file given on the command line: UserError(bad_input) saying whether it is missing, a directory or not a
// regular file. `what` names it ("problem file"); `folder_hint` is added when it is a directory.
void require_file(const std::string& path, std::string_view what, std::string_view folder_hint = "");
// The problem file of optimize, sweep, replay and profile.
void require_problem_file(const std::string& path);

// One short line for an argument error of CLI11, without "Run with --help" (the caller adds where to look).
std::string short_parse_message(const CLI::ParseError& e);

// The closest of `choices` to `word` within two edits, for "did you mean"; nullopt when none is that close.
std::optional<std::string> closest(std::string_view word, const std::vector<std::string>& choices);

}  // namespace kernelagent::cli
