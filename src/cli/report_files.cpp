#include "kernelagent/cli/report_files.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <sstream>

#include "kernelagent/cli/bench_summary.hpp"
#include "kernelagent/core/error.hpp"
#include "kernelagent/core/output_dir.hpp"
#include "kernelagent/report/bench_page.hpp"
#include "kernelagent/report/problem_page.hpp"

namespace kernelagent::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::optional<std::string> read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

json read_json(const fs::path& p) {
  const auto text = read_text(p);
  if (!text) throw UserError(ExitCode::bad_input, fmt::format("cannot read {}", p.string()));
  try {
    return json::parse(*text);
  } catch (const json::parse_error& e) {
    throw UserError(ExitCode::bad_input, fmt::format("{} is not JSON: {}", p.string(), e.what()));
  }
}

// The problem's name as result.json gives it ("23_Softmax.py" -> "23_Softmax").
std::string problem_name(const json& result, const fs::path& fallback) {
  std::string name;
  if (result.is_object() && result.contains("problem") && result.at("problem").is_object())
    name = result.at("problem").value("name", "");
  if (name.ends_with(".py")) name.resize(name.size() - 3);
  return name.empty() ? fallback.filename().string() : name;
}

// bench.json's summary as the summary line reads it.
BenchSummary summary_of(const json& s) {
  BenchSummary b;
  auto count = [&](const char* key) { return s.contains(key) && s.at(key).is_number() ? s.at(key).get<int>() : 0; };
  auto maybe = [&](const char* key) {
    return s.contains(key) && s.at(key).is_number() ? std::optional(s.at(key).get<double>()) : std::nullopt;
  };
  b.problems = count("problems");
  b.run = count("run");
  b.correct = count("correct");
  b.timed = count("timed");
  b.wins = count("wins");
  b.geomean_vs_faster_baseline = maybe("geomean_speedup_vs_faster_baseline");
  b.geomean_vs_compile = maybe("geomean_speedup_vs_compile");
  b.median_roofline_fraction = maybe("median_roofline_fraction");
  return b;
}

bool is_bench(const json& doc) { return doc.is_object() && doc.value("schema", "") == "kernelagent.bench/1"; }
bool is_result(const json& doc) { return doc.is_object() && doc.value("schema", "") == "kernelagent.result/1"; }

}  // namespace

report::ProblemReport read_problem_report(const fs::path& input, const std::string& name) {
  const bool folder = fs::is_directory(input);
  const fs::path result_path = folder ? input / "result.json" : input;
  report::ProblemReport p;
  p.name = name;
  if (!fs::is_regular_file(result_path)) {
    if (p.name.empty()) p.name = input.filename().string();
    p.missing = fmt::format("no result.json in {}", input.string());
    return p;
  }
  p.result = read_json(result_path);
  if (!p.result.is_object())
    throw UserError(ExitCode::bad_input, fmt::format("{} is not a result (a JSON object)", result_path.string()));
  if (p.name.empty()) p.name = problem_name(p.result, folder ? input : result_path.parent_path());
  const fs::path kernel = result_path.parent_path() / "kernel.py";
  if (result_path.filename() == "result.json" && fs::is_regular_file(kernel))
    p.kernel_source = read_text(kernel);
  else if (p.result.value("status", "") == "ok")
    p.missing = fmt::format("no kernel.py beside {}", result_path.filename().string());
  return p;
}

report::BenchReport read_bench_report(const fs::path& input) {
  const fs::path bench_path = fs::is_directory(input) ? input / "bench.json" : input;
  const fs::path dir = bench_path.parent_path();
  report::BenchReport b;
  b.bench = read_json(bench_path);
  if (!is_bench(b.bench) || !b.bench.contains("rows") || !b.bench.at("rows").is_array())
    throw UserError(
        ExitCode::bad_input,
        fmt::format("{} is not a bench's bench.json (schema kernelagent.bench/1 with rows)", bench_path.string()));
  b.name = fs::absolute(dir).lexically_normal().filename().string();
  if (b.name.empty()) b.name = fs::absolute(dir).lexically_normal().parent_path().filename().string();
  const json& rows = b.bench.at("rows");
  if (!b.bench.contains("summary") || !b.bench.at("summary").is_object())
    b.bench["summary"] = summarize_bench(rows).to_json();
  b.summary_line = summary_line(summary_of(b.bench.at("summary")));
  for (const auto& row : rows) {
    const std::string problem = row.value("problem", "");
    report::ProblemReport p = read_problem_report(dir / problem, problem);
    if (!p.result.is_object() && row.value("status", "") != "ok")
      p.missing = fmt::format("{} ({}: {})", p.missing, row.value("status", "?"), row.value("message", ""));
    b.problems.push_back(std::move(p));
  }
  return b;
}

fs::path write_report(const fs::path& input, const fs::path& out) {
  if (!fs::exists(input)) throw UserError(ExitCode::bad_input, fmt::format("{} does not exist", input.string()));
  std::string html;
  fs::path folder = fs::is_directory(input) ? input : input.parent_path();
  if (fs::is_directory(input) ? fs::is_regular_file(input / "bench.json") : is_bench(read_json(input))) {
    html = report::bench_page(read_bench_report(input));
  } else if (fs::is_directory(input) ? fs::is_regular_file(input / "result.json") : is_result(read_json(input))) {
    html = report::problem_page(read_problem_report(input));
  } else {
    throw UserError(
        ExitCode::bad_input,
        fmt::format("{} is neither an optimize's output (result.json) nor a bench's (bench.json)", input.string()));
  }
  const fs::path target = out.empty() ? folder / "report.html" : out;
  std::error_code ec;
  if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
  write_file_atomically(target, html);
  return fs::absolute(target);
}

std::optional<fs::path> write_report_beside(const fs::path& dir) {
  try {
    return write_report(dir, dir / "report.html");
  } catch (const std::exception& e) {
    std::cerr << "kernelagent: the report was not written: " << e.what() << "\n";
    return std::nullopt;
  }
}

}  // namespace kernelagent::cli
