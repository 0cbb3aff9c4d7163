#include "kernelagent/report/trial_table.hpp"

#include <fmt/format.h>

#include "kernelagent/report/figures.hpp"
#include "kernelagent/report/html.hpp"
#include "kernelagent/report/trajectory_chart.hpp"

namespace kernelagent::report {

using nlohmann::json;

std::string status_badge(const std::string& status) {
  return fmt::format("<span class=\"status\" style=\"background:{}\">{}</span>", status_colour(status), escape(status));
}

// "ka_conv_gemm_kernel 204 registers, 512 B local; ka_relayout_kernel 32 registers. " ("" when the trial
// has none: the CPU, a resumed trial).
std::string resources_text(const json& kernels) {
  if (!kernels.is_array() || kernels.empty()) return "";
  std::string out;
  for (const auto& k : kernels) {
    if (!k.is_object()) continue;
    out += text_at(k, "kernel", "?");
    if (const auto regs = number_at(k, "registers")) out += fmt::format(" {:.0f} registers", *regs);
    if (const auto local = number_at(k, "local_bytes"); local && *local > 0)
      out += fmt::format(", {:.0f} B local", *local);
    out += "; ";
  }
  return out.empty() ? "" : out.substr(0, out.size() - 2) + ". ";
}

std::string trial_table(const json& result) {
  const json trials = result.value("trial_list", json::array());
  if (!trials.is_array() || trials.empty()) return "";
  const std::string best = text_at(result.value("best", json(nullptr)), "candidate");
  std::string html =
      "<table class=\"trials\">\n<tr><th class=\"num\">#</th><th>candidate</th><th>status</th>"
      "<th class=\"num\">search time</th><th>reason</th><th>configuration</th><th>on</th><th>notes</th></tr>\n";
  for (std::size_t i = 0; i < trials.size(); ++i) {
    const json& t = trials[i];
    const std::string candidate = text_at(t, "candidate");
    const auto us = number_at(t, "median_us");
    std::string notes;
    if (candidate == best && !best.empty()) notes += "<b>the winner</b> ";
    if (t.contains("resumed_from"))
      notes +=
          escape(fmt::format("resumed from run {} ({}) ", t.at("resumed_from").value("run_id", json(nullptr)).dump(),
                             text_at(t.at("resumed_from"), "candidate")));
    if (t.contains("diagnosis"))
      notes += escape(fmt::format("profiled: {} ", text_at(t.at("diagnosis"), "cause", "no cause stood out")));
    notes += escape(resources_text(t.value("kernels", json(nullptr))));
    const std::string message = text_at(t, "message");
    if (!message.empty()) notes += escape(message.size() > 240 ? message.substr(0, 240) + "..." : message);
    html += fmt::format(
        "<tr><td class=\"num\">{}</td><td class=\"mono\">{}</td><td>{}</td><td class=\"num\">{}</td><td>{}</td>"
        "<td class=\"config\">{}</td><td class=\"mono\">{}</td><td>{}</td></tr>\n",
        i + 1, escape(candidate), status_badge(text_at(t, "status", "?")), us ? time_us(*us) : "-",
        escape(text_at(t, "reason", "-")), escape(config_text(t.value("config", json(nullptr)))),
        escape(text_at(t, "measured_on")), notes);
  }
  return html + "</table>\n";
}

}  // namespace kernelagent::report
