#include "kernelagent/report/diagnoses.hpp"

#include <fmt/format.h>

#include "kernelagent/report/figures.hpp"
#include "kernelagent/report/html.hpp"

namespace kernelagent::report {

using nlohmann::json;

namespace {

// The profiled candidates: `profiles` when the result has it, else the trials that carry a diagnosis.
json profiled(const json& result) {
  const json profiles = result.value("profiles", json(nullptr));
  if (profiles.is_array() && !profiles.empty()) return profiles;
  json out = json::array();
  for (const auto& t : result.value("trial_list", json::array()))
    if (t.is_object() && t.contains("diagnosis"))
      out.push_back({{"candidate", t.value("candidate", "")},
                     {"config", t.value("config", json(nullptr))},
                     {"diagnosis", t.at("diagnosis")}});
  return out;
}

// The search-time median and reason of a candidate, from the trial list.
std::pair<std::string, std::string> trial_of(const json& result, const std::string& candidate) {
  for (const auto& t : result.value("trial_list", json::array()))
    if (text_at(t, "candidate") == candidate) {
      const auto us = number_at(t, "median_us");
      return {us ? time_us(*us) : "-", text_at(t, "reason", "-")};
    }
  return {"-", "-"};
}

std::string row(std::string_view evidence, std::string_view value, std::string_view reading) {
  return fmt::format("<tr><td>{}</td><td class=\"num\">{}</td><td>{}</td></tr>\n", escape(evidence), escape(value),
                     escape(reading));
}

std::string evidence_table(const json& d) {
  std::string html =
      "<table class=\"evidence\">\n<tr><th>evidence</th><th class=\"num\">value</th><th>reading</th></tr>\n";
  const json sol = d.value("sol", json::object());
  html +=
      row("kernel", text_at(d, "kernel", text_at(d, "name", "-")),
          fmt::format("the longest of the candidate's {} own kernels in the call", d.value("kernels", json(1)).dump()));
  if (const auto us = number_at(d, "duration_us")) html += row("duration under the profiler", time_us(*us), "one call");
  if (const auto p = number_at(sol, "compute_pct"))
    html += row("SM throughput (compute speed of light)", percent(*p / 100), "of the busiest SM pipe's peak");
  if (const auto p = number_at(sol, "memory_pct"))
    html += row("memory throughput (memory speed of light)", percent(*p / 100), "of the busiest memory unit's peak");
  if (const auto p = number_at(sol, "dram_pct"))
    html += row("DRAM bandwidth", percent(*p / 100), "bytes moved per second against the GPU's DRAM bandwidth");
  if (d.contains("at_roofline"))
    html += row("at its roofline", d.value("at_roofline", false) ? "yes" : "no",
                text_at(d, "roofline_reading", "a unit at its peak, or DRAM at its bandwidth"));
  // The full form of a diagnosis (kernelagent diagnose --json) names each bottleneck's evidence.
  for (const auto& b : d.value("bottlenecks", json::array()))
    for (const auto& e : b.value("evidence", json::array()))
      html += row(text_at(e, "metric"),
                  fmt::format("{:g} (threshold {:g})", number_at(e, "value").value_or(0),
                              number_at(e, "threshold").value_or(0)),
                  fmt::format("{}: {}", text_at(b, "cause"), text_at(e, "reading")));
  return html + "</table>\n";
}

}  // namespace

std::string diagnoses_section(const json& result) {
  const json list = profiled(result);
  if (list.empty()) return "";
  int diagnosed = 0;
  for (const auto& p : list) diagnosed += p.contains("diagnosis");
  std::string html = fmt::format(
      "<p>{} candidates profiled with Nsight Compute ({} diagnosed): each beam parent once, and the moves prescribed "
      "for its cause were tried first (a trial's reason names the cause it answers).</p>\n",
      list.size(), diagnosed);
  for (const auto& p : list) {
    const std::string candidate = text_at(p, "candidate", "?");
    const auto [time, reason] = trial_of(result, candidate);
    html += fmt::format("<h4>{} <span class=\"muted\">{}</span></h4>\n", escape(candidate),
                        escape(config_text(p.value("config", json(nullptr)))));
    if (!p.contains("diagnosis")) {
      html += fmt::format("<p class=\"fail\">Not diagnosed: {}</p>\n", escape(text_at(p, "error", "no diagnosis")));
      continue;
    }
    const json& d = p.at("diagnosis");
    const std::string cause = text_at(d, "cause");
    html += fmt::format("<p><b>{}</b> ({}): {}. Search time {}; chosen because: {}.</p>\n",
                        escape(cause.empty() ? "no cause stood out" : cause), escape(text_at(d, "category", "-")),
                        escape(text_at(d, "summary", "-")), escape(time), escape(reason));
    html += evidence_table(d);
  }
  return html;
}

}  // namespace kernelagent::report
