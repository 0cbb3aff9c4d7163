#pragma once
// Nsight Compute's raw page (`ncu --csv --page raw`) parsed into one metric table per profiled kernel.
// Parsing is defensive (DESIGN.md section 5): `==PROF==` / `==WARNING==` lines, the profiled program's own
// stdout before or after the table, the units row, thousands separators and "n/a" values are all handled;
// a metric that is missing is simply absent, never an error. A cell that holds something other than a finite
// number ("n/a", "nan", "1e400", text) is absent from the metrics too, and kept with its text among the
// kernel's unreadable cells, so that a diagnosis that needed it can say so. Text that is not an ncu raw
// table (no metric columns, or no kernel row with a single number in them) is refused.

#include <map>
#include <optional>
#include <regex>
#include <string>
#include <string_view>
#include <vector>

namespace kernelagent {

// One metric as ncu reported it. `value` is normalised to base units: durations in nanoseconds, sizes in
// bytes, rates in bytes (or ops) per second, frequencies in hertz; percentages stay 0..100; counts as is.
// `unit` is ncu's unit string from the units row ("ns", "Kbyte", "%", ...).
struct Metric {
  double value = 0;
  std::string unit;
};

struct KernelProfile {
  int id = 0;                  // the "ID" column: launch order within the profile
  std::string name;            // the "Kernel Name" column (possibly a demangled C++ signature)
  std::string block_size;      // e.g. "(128, 1, 1)"
  std::string grid_size;       // e.g. "(65536, 1, 1)"
  std::string device;          // the "Device" column (an index)
  std::string device_name;     // device__attribute_display_name, e.g. "NVIDIA H200"; empty when absent
  // Numeric metrics by name. A column with a section prefix ("SM_A.TriageCompute.l1tex__throughput...")
  // is also reachable by the bare metric name when no unprefixed column has that name.
  std::map<std::string, Metric, std::less<>> metrics;
  // Metric columns whose cell held something other than a finite number, by name (and bare alias), with the
  // cell's text: "n/a", "nan", "1e400" (out of range), "12 apples". Empty cells are simply absent.
  std::map<std::string, std::string, std::less<>> unreadable;

  // The normalised value of a metric, or nullopt when it is absent or was not a number ("n/a").
  std::optional<double> get(std::string_view metric) const;
  // The text of the metric's cell when it could not be read as a number, else nullopt.
  std::optional<std::string> unreadable_text(std::string_view metric) const;
  // gpu__time_duration.sum in nanoseconds.
  std::optional<double> duration_ns() const;
};

struct NcuReport {
  std::vector<KernelProfile> kernels;
  std::vector<std::string> warnings;  // ncu's ==WARNING== lines, without the prefix
};

// Throws UserError(ExitCode::bad_input) with a clear message for text that holds no ncu raw CSV table
// (empty, not CSV, a details page, a header without kernel rows, a table without a single ncu metric column,
// or one whose kernel rows hold no number in any metric column).
NcuReport parse_ncu_raw_csv(std::string_view text);

// True for kernels that belong to PyTorch or its libraries (names with `at::`, `at_cuda_detail`, `c10::`,
// cuBLAS/cuDNN/CUTLASS internals) rather than to the candidate being profiled.
bool is_library_kernel(std::string_view kernel_name);

// The kernels whose name matches `name_regex` (ECMAScript, searched, not anchored; empty matches all),
// library kernels left out unless `include_library`.
std::vector<const KernelProfile*> select_kernels(const NcuReport& report, const std::string& name_regex,
                                                 bool include_library);

}  // namespace kernelagent
