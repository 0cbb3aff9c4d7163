#pragma once
// What a report is drawn from, already read from disk (the CLI reads the folders: cli/report_files.hpp),
// so the pages are pure functions of these documents.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace kernelagent::report {

// One optimize: its result.json and the winning kernel's source.
struct ProblemReport {
  std::string name;                          // the problem's name: its output folder's (bench) or its file's stem
  nlohmann::json result;                     // result.json; null when there is none (see `missing`)
  std::optional<std::string> kernel_source;  // kernel.py, when it is beside result.json
  std::string missing;                       // why `result` is null, or why the source is absent
};

// One bench: bench.json (its summary filled in where an older bench.json has none), the line that sums it
// up, and each problem's report in the order of bench.json's rows.
struct BenchReport {
  std::string name;      // the bench's folder name
  nlohmann::json bench;  // bench.json
  std::string summary_line;
  std::vector<ProblemReport> problems;
};

}  // namespace kernelagent::report
