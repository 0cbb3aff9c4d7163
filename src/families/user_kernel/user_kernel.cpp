#include "kernelagent/families/user_kernel.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <sstream>
#include <stdexcept>

#include "kernelagent/core/error.hpp"
#include "kernelagent/core/hash.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/families/common/pointwise_ops.hpp"
#include "kernelagent/families/registry.hpp"

namespace kernelagent {

using nlohmann::json;

namespace {

// NAME [: annotation] = VALUE  # kernelagent: v1, v2, ... [| tag, tag]   (at the start of a line: module level)
const std::regex& mark_line() {
  static const std::regex re(
      R"(^([A-Za-z_][A-Za-z0-9_]*)(\s*:[^=#]*)?(\s*=\s*)([^#]*?)(\s*#\s*kernelagent\s*:\s*)(.*)$)");
  return re;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::string line;
  std::istringstream in(text);
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

// Commas outside quotes separate the values: 'a,b' is one string.
std::vector<std::string> split_values(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  char quote = 0;
  for (char c : s) {
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == ',') {
      out.push_back(trim(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!trim(cur).empty() || !out.empty()) out.push_back(trim(cur));
  return out;
}

// A Python literal of a knob: an integer, a number, True/False or a quoted string; nullopt otherwise.
std::optional<json> parse_value(const std::string& text) {
  static const std::regex integer(R"(^[+-]?[0-9]+$)");
  static const std::regex number(R"(^[+-]?([0-9]+\.[0-9]*|\.[0-9]+|[0-9]+)([eE][+-]?[0-9]+)?$)");
  const std::string t = trim(text);
  if (std::regex_match(t, integer)) {
    try {
      return json(std::stoll(t));
    } catch (const std::exception&) {
      return std::nullopt;  // beyond 64 bits
    }
  }
  if (std::regex_match(t, number)) return json(std::stod(t));
  if (t == "True") return json(true);
  if (t == "False") return json(false);
  if (t.size() >= 2 && (t.front() == '\'' || t.front() == '"') && t.back() == t.front() &&
      t.find(t.front(), 1) == t.size() - 1 && t.find('\\') == std::string::npos)
    return json(t.substr(1, t.size() - 2));
  return std::nullopt;
}

// The value as Python source: 1024, 0.5, 1e-05, True, "tf32".
std::string python_literal(const json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  if (v.is_number_integer()) return std::to_string(v.get<std::int64_t>());
  if (v.is_number()) return float_literal(v.get<double>());  // stays a float in Python
  return "\"" + v.get<std::string>() + "\"";
}

struct InferredPurpose {
  std::vector<std::string> tags;
  int tile_exponent = 0;
};

// What a constant's name says of its purpose, in the knob tags' vocabulary.
InferredPurpose infer_purpose(const std::string& knob) {
  std::string upper = knob;
  std::transform(upper.begin(), upper.end(), upper.begin(), [](unsigned char c) { return std::toupper(c); });
  if (upper == "NUM_WARPS") return {{"parallelism", "occupancy"}, 0};
  if (upper == "NUM_STAGES") return {{"pipelining"}, 0};
  if (upper.starts_with("BLOCK") || upper.starts_with("TILE")) return {{"parallelism", "reuse"}, 1};
  if (upper.find("SPLIT") != std::string::npos) return {{"parallelism"}, 0};
  if (upper.find("GROUP") != std::string::npos) return {{"l2_locality"}, 0};
  if (upper.find("VEC") != std::string::npos) return {{"coalescing", "bytes_moved"}, 0};
  return {{}, 0};
}

// num_warps and num_stages are the names the search knows Triton's launch options by.
std::string knob_name(const std::string& constant) {
  std::string lower = constant;
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
  return lower == "num_warps" || lower == "num_stages" ? lower : constant;
}

// A kernel file as a problem: every configuration is valid; emit sets the constants.
class UserKernelProblem : public FamilyProblem {
 public:
  UserKernelProblem(const Family& family, TraceResult trace, std::vector<UserKnob> knobs)
      : FamilyProblem(family, std::move(trace)), knobs_(std::move(knobs)) {}

  std::string emit(const Config& config, const EmitContext& ctx) const override {
    return emit_user_kernel(family().templates().at("kernel"), knobs_, config, ctx.problem_label);
  }

 protected:
  bool valid_config(const Config&, const GpuSpec*, Precision) const override { return true; }
  Emission emission(const Config&) const override {
    throw std::logic_error("a user's kernel file is emitted whole, not from a template");
  }

 private:
  std::vector<UserKnob> knobs_;
};

// Any traced problem: the user says which problem the file implements; the check judges it.
Recognition recognise_user_kernel(const Family& family, const TraceResult& trace) {
  const std::string& text = family.templates().at("kernel");
  return {std::make_shared<UserKernelProblem>(family, trace, read_user_knobs(text, family.dir().string())), ""};
}

}  // namespace

std::vector<UserKnob> read_user_knobs(const std::string& text, const std::string& file_label) {
  auto fail = [&](int line, const std::string& why) {
    throw UserError(ExitCode::bad_input, fmt::format("{} line {}: {}", file_label, line, why));
  };
  std::vector<UserKnob> knobs;
  std::set<std::string> seen;
  const auto lines = split_lines(text);
  for (int i = 0; i < static_cast<int>(lines.size()); ++i) {
    const std::string& line = lines[i];
    // An assignment carrying the mark; the words '# kernelagent:' in a docstring are no mark.
    static const std::regex marked_assignment(
        R"(^\s*[A-Za-z_][A-Za-z0-9_]*\s*(:[^=#]*)?=[^=#][^#]*#\s*kernelagent\s*:)");
    if (!std::regex_search(line, marked_assignment)) continue;
    std::smatch m;
    if (!std::regex_match(line, m, mark_line()))
      fail(i + 1,
           "a '# kernelagent:' mark follows a module-level assignment (not indented), "
           "NAME = VALUE  # kernelagent: V1, V2");
    UserKnob k;
    k.constant = m[1].str();
    k.knob = knob_name(k.constant);
    k.line = i + 1;
    if (!seen.insert(k.knob).second) fail(k.line, fmt::format("{} is marked twice", k.constant));
    const auto current = parse_value(m[4].str());
    if (!current)
      fail(k.line, fmt::format("the value of {} ({}) is not a number, True/False or a quoted string", k.constant,
                               trim(m[4].str())));
    std::string list = m[6].str();
    std::string tag_part;
    if (const auto bar = list.find('|'); bar != std::string::npos) {
      tag_part = list.substr(bar + 1);
      list = list.substr(0, bar);
    }
    k.values.push_back(*current);  // the file's own value first: the starting configuration
    for (const auto& token : split_values(list)) {
      const auto v = parse_value(token);
      if (!v)
        fail(k.line,
             fmt::format("'{}' in the values of {} is not a number, True/False or a quoted string", token, k.constant));
      if (std::find(k.values.begin(), k.values.end(), *v) == k.values.end()) k.values.push_back(*v);
    }
    if (k.values.size() < 2)
      fail(k.line,
           fmt::format("{} lists no value other than its own: list the values to try after the mark", k.constant));
    const InferredPurpose inferred = infer_purpose(k.knob);
    k.tile_exponent = inferred.tile_exponent;
    if (!trim(tag_part).empty()) {
      k.tags_inferred = false;
      for (const auto& t : split_values(tag_part)) {
        if (std::find(knob_tags().begin(), knob_tags().end(), t) == knob_tags().end())
          fail(k.line, fmt::format("'{}' is not a purpose tag; the tags are {}", t, fmt::join(knob_tags(), ", ")));
        k.tags.push_back(t);
      }
    } else {
      k.tags = inferred.tags;
    }
    knobs.push_back(std::move(k));
  }
  if (knobs.empty())
    throw UserError(ExitCode::bad_input,
                    fmt::format("{} marks no constant to tune: mark each with its values, e.g. "
                                "BLOCK_SIZE = 1024  # kernelagent: 256, 512, 1024, 2048 (docs/user-kernels.md)",
                                file_label));
  return knobs;
}

std::string emit_user_kernel(const std::string& text, const std::vector<UserKnob>& knobs, const Config& config,
                             const std::string& problem_label) {
  auto lines = split_lines(text);
  for (const auto& k : knobs) {
    if (!config.is_object() || !config.contains(k.knob)) continue;
    std::smatch m;
    const std::string line = lines.at(k.line - 1);
    if (!std::regex_match(line, m, mark_line()))
      throw std::logic_error(fmt::format("line {} no longer holds the mark of {}", k.line, k.constant));
    // The mark lists the rest of the domain, the file's first value among it, so the file can be tuned again
    // over the same values.
    const json& chosen = config.at(k.knob);
    std::vector<std::string> rest;
    for (const auto& v : k.values)
      if (v != chosen) rest.push_back(python_literal(v));
    const std::string mark = m[6].str();
    const auto bar = mark.find('|');
    lines[k.line - 1] = m[1].str() + m[2].str() + m[3].str() + python_literal(chosen) + m[5].str() +
                        fmt::format("{}", fmt::join(rest, ", ")) +
                        (bar == std::string::npos ? std::string() : " " + mark.substr(bar));
  }
  std::string out =
      fmt::format("# {}: configuration {}, set by kernelagent optimize --kernel\n", problem_label, config.dump());
  for (const auto& l : lines) out += l + "\n";
  return out;
}

std::unique_ptr<Family> user_kernel_family(const std::filesystem::path& kernel_file) {
  std::string text;
  try {
    text = read_text_file(kernel_file);
  } catch (const std::exception&) {
    throw UserError(ExitCode::bad_input, fmt::format("cannot read the kernel file {}", kernel_file.string()));
  }
  const auto knobs = read_user_knobs(text, kernel_file.string());
  json manifest = {{"name", "kernel:" + kernel_file.stem().string()},
                   {"description", "the kernel file " + kernel_file.string() + ", tuned over its marked constants"},
                   {"templates", {{"kernel", kernel_file.filename().string()}}},
                   {"facts", {{"user_kernel", true}}},
                   {"knobs", json::array()}};
  for (const auto& k : knobs)
    manifest["knobs"].push_back(
        {{"name", k.knob},
         {"domain", k.values},
         {"default", k.values.front()},
         {"tags", k.tags},
         {"tile_exponent", k.tile_exponent},
         {"purpose",
          fmt::format("{} (line {}); tags {}", k.constant, k.line,
                      k.tags.empty()    ? std::string("none: untagged")
                      : k.tags_inferred ? fmt::format("{}, inferred from its name", fmt::join(k.tags, ", "))
                                        : fmt::format("{}, as the file names them", fmt::join(k.tags, ", ")))}});
  FamilyFiles files;
  files.dir = kernel_file;
  files.manifest = manifest;
  files.space = KnobSpace::from_manifest(manifest);
  files.templates["kernel"] = text;
  // The file's text and the code that reads it: an edit to either is another family in the history.
  files.hash = hash_hex(manifest.dump() + text + family_code_hash());
  return std::make_unique<Family>(std::move(files), &recognise_user_kernel);
}

}  // namespace kernelagent
