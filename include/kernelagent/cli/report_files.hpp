#pragma once
// `kernelagent report` and the report.html that optimize and bench write: reads an optimize's output
// (result.json, kernel.py) or a bench's (bench.json and a folder per problem with its result.json and
// kernel.py) and writes the self-contained page (src/report/).

#include <filesystem>
#include <optional>

#include "kernelagent/report/report_input.hpp"

namespace kernelagent::cli {

// One optimize's output: a folder holding result.json (and kernel.py), or a result.json file by any name
// (its kernel.py is looked for beside it only when it is named result.json). `name`: the problem's name,
// "" for the one result.json gives. A folder without result.json gives a report that says so.
report::ProblemReport read_problem_report(const std::filesystem::path& folder_or_file, const std::string& name = "");

// A bench's output folder (or its bench.json): bench.json, with its summary computed from its rows when an
// older bench.json has none, and each row's problem folder.
report::BenchReport read_bench_report(const std::filesystem::path& folder_or_file);

// Writes the report of `input` (an optimize's or a bench's output, a folder or its JSON file) to `out`
// (default: report.html in the input's folder) and returns the path written. UserError(bad_input) when the
// input is neither, or cannot be read; UserError(environment) when the file cannot be written.
std::filesystem::path write_report(const std::filesystem::path& input, const std::filesystem::path& out = {});

// For optimize and bench: writes DIR/report.html. A report that cannot be written never fails the run
// whose result is already written: one line on stderr says why, and nullopt comes back.
std::optional<std::filesystem::path> write_report_beside(const std::filesystem::path& dir);

}  // namespace kernelagent::cli
