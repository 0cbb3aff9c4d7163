#include "kernelagent/profile/ncu_report.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <set>
#include <utility>

#include "kernelagent/core/error.hpp"

namespace kernelagent {

namespace {

constexpr std::string_view kRawHint = "expected the output of `ncu --csv --page raw`";

// One CSV record on one line (RFC 4180: quoted fields, doubled quotes, commas inside quotes). nullopt when
// the line is not well-formed CSV, e.g. an unterminated quote or text after a closing quote: such a line is
// program output or ncu noise, never a table row. A raw-page row never spans lines (kernel names and
// metric values hold no newlines), so a line-based reader is enough.
std::optional<std::vector<std::string>> split_csv_row(std::string_view line) {
  std::vector<std::string> fields;
  std::size_t i = 0;
  while (true) {
    std::string field;
    if (i < line.size() && line[i] == '"') {
      ++i;
      while (true) {
        if (i >= line.size()) return std::nullopt;  // unterminated quote
        if (line[i] == '"') {
          if (i + 1 < line.size() && line[i + 1] == '"') {
            field += '"';
            i += 2;
            continue;
          }
          ++i;
          break;
        }
        field += line[i++];
      }
      if (i < line.size() && line[i] != ',') return std::nullopt;  // text after the closing quote
    } else {
      std::size_t end = line.find(',', i);
      if (end == std::string_view::npos) end = line.size();
      field.assign(line.substr(i, end - i));
      i = end;
    }
    fields.push_back(std::move(field));
    if (i >= line.size()) return fields;
    ++i;  // the comma
  }
}

// The text with every byte that is not part of a well-formed UTF-8 sequence replaced by '?': kernel names,
// metric names and ncu's warnings end up in JSON (diagnose --json, result.json), which holds UTF-8 only, and a
// corrupted file must not make writing it throw.
std::string valid_utf8(std::string_view in) {
  std::string out;
  out.reserve(in.size());
  auto byte = [&](std::size_t i) { return static_cast<unsigned char>(in[i]); };
  for (std::size_t i = 0; i < in.size();) {
    const unsigned char c = byte(i);
    std::size_t n = 0;                   // continuation bytes
    unsigned char lo = 0x80, hi = 0xBF;  // the range of the first continuation byte
    if (c >= 0xC2 && c <= 0xDF) {
      n = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {  // no overlong forms, no surrogates
      n = 2;
      lo = c == 0xE0 ? 0xA0 : 0x80;
      hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {  // nothing past U+10FFFF
      n = 3;
      lo = c == 0xF0 ? 0x90 : 0x80;
      hi = c == 0xF4 ? 0x8F : 0xBF;
    } else if (c >= 0x80) {  // a stray continuation byte, or one no sequence starts with
      out += '?';
      ++i;
      continue;
    }
    bool ok = i + n < in.size();  // the sequence's last byte is in the text
    for (std::size_t k = 1; ok && k <= n; ++k) {
      const unsigned char b = byte(i + k);
      ok = k == 1 ? (b >= lo && b <= hi) : (b >= 0x80 && b <= 0xBF);
    }
    if (!ok) {
      out += '?';
      ++i;
      continue;
    }
    out.append(in.substr(i, n + 1));
    i += n + 1;
  }
  return out;
}

std::vector<std::string_view> split_lines(std::string_view text) {
  std::vector<std::string_view> lines;
  std::size_t start = 0;
  while (start <= text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);  // CRLF files
    lines.push_back(line);
    start = end + 1;
  }
  return lines;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// A cell as a finite number, or nullopt ("n/a", "no data", "", "(128, 1, 1)", "PolicySpread", ...).
// ncu groups thousands with commas ("1,812,544"); a comma is accepted only as such a separator, so a
// list-like cell such as "1,2" is not silently read as 12.
std::optional<double> parse_number(std::string_view cell) {
  cell = trim(cell);
  auto digit_at = [&](std::size_t j) { return j < cell.size() && is_digit(cell[j]); };
  std::string plain;
  bool in_fraction = false;  // past the decimal point or exponent, where no separator may appear
  for (std::size_t i = 0; i < cell.size(); ++i) {
    char c = cell[i];
    if (c == '.' || c == 'e' || c == 'E') in_fraction = true;
    if (c != ',') {
      plain += c;
      continue;
    }
    bool separator = !in_fraction && i > 0 && digit_at(i - 1) && digit_at(i + 1) && digit_at(i + 2) &&
                     digit_at(i + 3) && !digit_at(i + 4);
    if (!separator) return std::nullopt;
  }
  if (plain.empty()) return std::nullopt;
  double value = 0;
  const char* end = plain.data() + plain.size();
  auto [ptr, ec] = std::from_chars(plain.data(), end, value);
  if (ec != std::errc{} || ptr != end || !std::isfinite(value)) return std::nullopt;
  return value;
}

struct Scale {
  std::string_view unit;
  double factor;
};

// ncu's size prefixes are decimal: the same launch reports "Driver Shared Memory Per Block" as 1,024
// byte/block in base units and as 1.02 Kbyte/block in auto units, "Shared Memory Configuration Size"
// 32,768 byte as 32.77 Kbyte (binary prefixes would give 1.00 and 32.00).
constexpr Scale kBytes[] = {{"byte", 1}, {"Kbyte", 1e3}, {"Mbyte", 1e6}, {"Gbyte", 1e9}, {"Tbyte", 1e12},
                            {"B", 1},    {"KB", 1e3},    {"MB", 1e6},    {"GB", 1e9},    {"TB", 1e12}};
// Seconds per time unit: durations are kept in nanoseconds, rates per second.
constexpr Scale kSeconds[] = {{"ns", 1e-9}, {"nsecond", 1e-9}, {"us", 1e-6}, {"usecond", 1e-6},
                              {"ms", 1e-3}, {"msecond", 1e-3}, {"s", 1},     {"second", 1}};
// Matched lower-cased: ncu writes "hz" in base units and "Mhz"/"Ghz" in auto units.
constexpr Scale kHertz[] = {{"hz", 1}, {"khz", 1e3}, {"mhz", 1e6}, {"ghz", 1e9}};

template <std::size_t N>
std::optional<double> lookup(const Scale (&table)[N], std::string_view unit) {
  for (const auto& s : table)
    if (s.unit == unit) return s.factor;
  return std::nullopt;
}

// The factor that takes a value in `unit` to the base units promised in the header. A unit this does not
// know ("sector", "inst/cycle", "%", "register/thread") keeps its value.
double unit_factor(std::string_view unit) {
  std::size_t slash = unit.find('/');
  if (slash == std::string_view::npos) {
    if (auto s = lookup(kSeconds, unit)) return *s * 1e9;
    if (auto b = lookup(kBytes, unit)) return *b;
    std::string lower;
    for (char c : unit) lower += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
    return lookup(kHertz, lower).value_or(1);
  }
  std::string_view numerator = unit.substr(0, slash), denominator = unit.substr(slash + 1);
  double scale = lookup(kBytes, numerator).value_or(1);  // "Kbyte/block" is bytes per block
  // Anything per unit of time is a per-second rate: "Gbyte/second", "byte/s", "cycle/nsecond" (a frequency).
  if (auto s = lookup(kSeconds, denominator)) return scale / *s;
  return scale;
}

// The metric name without its section prefix: "SM_A.TriageCompute.l1tex__throughput.avg.pct..." ->
// "l1tex__throughput.avg.pct...". Metric names start at the first dotted part with a double underscore.
std::string_view bare_metric_name(std::string_view column) {
  std::size_t pos = 0;
  while (pos < column.size()) {
    std::size_t dot = column.find('.', pos);
    std::string_view part = column.substr(pos, dot == std::string_view::npos ? std::string_view::npos : dot - pos);
    if (part.find("__") != std::string_view::npos) return column.substr(pos);
    if (dot == std::string_view::npos) break;
    pos = dot + 1;
  }
  return column;
}

enum class Role { metric, id, name, block_size, grid_size, device, device_name, ignored };

// Columns that fill KernelProfile's fields rather than its metrics.
constexpr std::pair<std::string_view, Role> kFieldColumns[] = {{"ID", Role::id},
                                                               {"Kernel Name", Role::name},
                                                               {"Block Size", Role::block_size},
                                                               {"Grid Size", Role::grid_size},
                                                               {"Device", Role::device},
                                                               {"device__attribute_display_name", Role::device_name}};

struct Column {
  Role role = Role::metric;
  std::vector<std::string> keys;  // the metric's name and, for a prefixed column, its bare alias
  bool ncu_metric = false;        // named as ncu names its metrics: unit__counter... ("dram__bytes_read.sum")
};

std::vector<Column> describe_columns(const std::vector<std::string>& header) {
  const std::set<std::string_view> names(header.begin(), header.end());
  std::set<std::string_view> taken;
  std::vector<Column> columns(header.size());
  for (std::size_t i = 0; i < header.size(); ++i) {
    const std::string& h = header[i];
    Column& c = columns[i];
    if (!taken.insert(h).second) {
      c.role = Role::ignored;  // a duplicate column name: the first one wins
      continue;
    }
    for (const auto& [name, role] : kFieldColumns)
      if (h == name) c.role = role;
    if (c.role != Role::metric) continue;
    c.keys.push_back(h);
    std::string_view bare = bare_metric_name(h);
    c.ncu_metric = bare.find("__") != std::string_view::npos;
    if (bare != h && !names.contains(bare) && taken.insert(bare).second) c.keys.emplace_back(bare);
  }
  return columns;
}

bool has_column(const std::vector<std::string>& header, std::string_view name) {
  for (const auto& h : header)
    if (h == name) return true;
  return false;
}

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// A kernel row of the table, or nullopt when the row is not one (its ID is not a launch number).
std::optional<KernelProfile> read_kernel(const std::vector<std::string>& row, const std::vector<Column>& columns,
                                         const std::vector<std::string>& units) {
  KernelProfile k;
  bool has_id = false;
  for (std::size_t i = 0; i < row.size(); ++i) {
    const std::string& cell = row[i];
    switch (columns[i].role) {
      case Role::id: {
        std::string_view id = trim(cell);
        auto [ptr, ec] = std::from_chars(id.data(), id.data() + id.size(), k.id);
        has_id = !id.empty() && ec == std::errc{} && ptr == id.data() + id.size();
        break;
      }
      case Role::name:
        k.name = cell;
        break;
      case Role::block_size:
        k.block_size = cell;
        break;
      case Role::grid_size:
        k.grid_size = cell;
        break;
      case Role::device:
        k.device = cell;
        break;
      case Role::device_name:
        k.device_name = cell;
        break;
      case Role::ignored:
        break;
      case Role::metric: {
        const std::string_view text = trim(cell);
        if (text.empty()) break;  // not collected: absent, not unreadable
        const std::optional<double> value = parse_number(text);
        const double normalised = value ? *value * unit_factor(units[i]) : 0;
        if (value && std::isfinite(normalised)) {
          Metric m{normalised, units[i]};
          for (const auto& key : columns[i].keys) k.metrics.emplace(key, m);
        } else {  // "n/a", "nan", "1e400", text, or a value that overflows once its unit is applied
          for (const auto& key : columns[i].keys) k.unreadable.emplace(key, std::string(text));
        }
        break;
      }
    }
  }
  if (!has_id) return std::nullopt;
  return k;
}

// A table with the ID and Kernel Name columns can still be something else: a hand-made CSV, a spreadsheet
// export, random text. ncu's raw page names its metrics unit__counter... and holds numbers in them; a table
// with no such column, or whose kernel rows hold no number in any of them, is refused rather than "diagnosed"
// kernel by kernel from nothing.
void refuse_what_is_not_an_ncu_table(const std::vector<std::string>& header, const std::vector<Column>& columns,
                                     const NcuReport& report) {
  bool has_metric_column = false;
  for (const auto& c : columns) has_metric_column |= c.role == Role::metric && c.ncu_metric;
  if (!has_metric_column) {
    std::string shown;
    for (std::size_t i = 0; i < header.size() && i < 6; ++i)
      shown += (i ? ", " : "") + std::string("\"") + header[i].substr(0, 40) + "\"";
    if (header.size() > 6) shown += ", ...";
    throw UserError(ExitCode::bad_input, fmt::format("this table has no Nsight Compute metric column (ncu names "
                                                     "them like dram__bytes_read.sum; its columns are {}): {}",
                                                     shown, kRawHint));
  }
  for (const auto& k : report.kernels)
    for (const auto& [name, metric] : k.metrics)
      if (bare_metric_name(name).find("__") != std::string_view::npos) return;  // one number is enough
  throw UserError(ExitCode::bad_input,
                  fmt::format("no kernel row (of {}) holds a number in any Nsight Compute metric column (every "
                              "value is empty or text such as n/a): there is nothing to diagnose; {}",
                              report.kernels.size(), kRawHint));
}

}  // namespace

std::optional<double> KernelProfile::get(std::string_view metric) const {
  auto it = metrics.find(metric);
  if (it == metrics.end()) return std::nullopt;
  return it->second.value;
}

std::optional<std::string> KernelProfile::unreadable_text(std::string_view metric) const {
  auto it = unreadable.find(metric);
  if (it == unreadable.end()) return std::nullopt;
  return it->second;
}

std::optional<double> KernelProfile::duration_ns() const { return get("gpu__time_duration.sum"); }

NcuReport parse_ncu_raw_csv(std::string_view input) {
  if (input.find_first_not_of(" \t\r\n") == std::string_view::npos)
    throw UserError(ExitCode::bad_input, "the Nsight Compute output is empty: " + std::string(kRawHint));
  const std::string checked = valid_utf8(input);
  const std::string_view text = checked;

  const std::vector<std::string_view> lines = split_lines(text);
  NcuReport report;
  std::string first_error;  // ncu's own reason when it produced no table, e.g. no permission on the counters
  for (std::string_view line : lines) {
    if (starts_with(line, "==WARNING==")) report.warnings.emplace_back(trim(line.substr(11)));
    if (starts_with(line, "==ERROR==") && first_error.empty()) first_error = trim(line.substr(9));
  }

  // The header is the first CSV row that starts with "ID" and names the kernel; lines before it are ncu's
  // messages and whatever the profiled program printed.
  std::size_t at = 0;
  std::vector<std::string> header;
  for (; at < lines.size(); ++at) {
    auto row = split_csv_row(lines[at]);
    if (row && !row->empty() && (*row)[0] == "ID" && has_column(*row, "Kernel Name")) {
      header = std::move(*row);
      break;
    }
  }
  if (header.empty()) {
    std::string msg = "no Nsight Compute raw table found: " + std::string(kRawHint);
    if (!first_error.empty()) msg += "; ncu reported: " + first_error;
    throw UserError(ExitCode::bad_input, msg);
  }
  if (has_column(header, "Metric Name") && has_column(header, "Metric Value"))
    throw UserError(ExitCode::bad_input,
                    "this is an Nsight Compute details page (one row per metric), not the raw page: profile "
                    "again with `ncu --csv --page raw`");
  ++at;

  // The units row has the header's width and an empty ID. It is taken only when it is there, so a table
  // without one (older ncu, hand-trimmed files) still parses, with every unit empty.
  std::vector<std::string> units(header.size());
  if (at < lines.size()) {
    auto row = split_csv_row(lines[at]);
    if (row && row->size() == header.size() && trim((*row)[0]).empty()) {
      units = std::move(*row);
      ++at;
    }
  }

  // Kernel rows run until the first line that is not one: ncu's trailing lines or the program's output.
  const std::vector<Column> columns = describe_columns(header);
  for (; at < lines.size(); ++at) {
    auto row = split_csv_row(lines[at]);
    if (!row || row->size() != header.size()) break;
    auto kernel = read_kernel(*row, columns, units);
    if (!kernel) break;
    report.kernels.push_back(std::move(*kernel));
  }
  if (report.kernels.empty())
    throw UserError(ExitCode::bad_input,
                    "the Nsight Compute raw table has a header but no kernel rows: no launch matched the "
                    "profiling filters; check the kernel name regex and --launch-skip/--launch-count");
  refuse_what_is_not_an_ncu_table(header, columns, report);
  return report;
}

bool is_library_kernel(std::string_view kernel_name) {
  // Substrings of demangled names that only PyTorch and the NVIDIA libraries it calls produce; specific
  // enough that a generated kernel, a plain identifier named after its problem, does not hit them.
  static constexpr std::string_view kMarkers[] = {
      // PyTorch's own kernels; its persistent softmax (PersistentSoftmax.cuh) lives in an anonymous
      // namespace, not in at::.
      "at::", "at_cuda_detail", "c10::", "<unnamed>::softmax_warp_",
      // CUTLASS, cuBLAS(Lt) and cuDNN GEMM, GEMV and convolution kernels.
      "cutlass", "cublas", "cudnn", "xmma", "nvjet", "gemv2T_kernel", "gemv2N_kernel", "gemvx::", "gemmSN_",
      "gemmk1_kernel", "splitKreduce_kernel",
      // CUB and Thrust, behind PyTorch's sort, scan and unique.
      "cub::", "thrust::"};
  for (std::string_view marker : kMarkers)
    if (kernel_name.find(marker) != std::string_view::npos) return true;
  // cuBLAS's older SASS kernels are named after the architecture: "ampere_sgemm_128x64_nn".
  for (std::string_view arch : {"maxwell_", "volta_", "turing_", "ampere_"})
    if (starts_with(kernel_name, arch) && kernel_name.find("gemm") != std::string_view::npos) return true;
  return false;
}

std::vector<const KernelProfile*> select_kernels(const NcuReport& report, const std::string& name_regex,
                                                 bool include_library) {
  std::optional<std::regex> pattern;
  if (!name_regex.empty()) {
    try {
      pattern.emplace(name_regex, std::regex::ECMAScript);
    } catch (const std::regex_error& e) {
      throw UserError(ExitCode::bad_input,
                      "the kernel name regex '" + name_regex + "' is not a valid ECMAScript regex (" + e.what() + ")");
    }
  }
  std::vector<const KernelProfile*> selected;
  for (const auto& k : report.kernels) {
    if (!include_library && is_library_kernel(k.name)) continue;
    if (pattern && !std::regex_search(k.name, *pattern)) continue;
    selected.push_back(&k);
  }
  return selected;
}

}  // namespace kernelagent
