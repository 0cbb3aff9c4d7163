#include "kernelagent/report/trajectory_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "kernelagent/report/figures.hpp"
#include "kernelagent/report/html.hpp"
#include "kernelagent/report/svg_chart.hpp"
#include "kernelagent/report/targets.hpp"

namespace kernelagent::report {

using nlohmann::json;

std::string status_colour(std::string_view status) {
  if (status == "ok") return "#0072b2";
  if (status.starts_with("wrong_") || status == "nan_or_inf") return "#e69f00";
  if (status.starts_with("cheat_")) return "#9b59b6";
  if (status == "compile_error" || status == "runtime_error") return "#d55e00";
  if (status == "timeout" || status == "crashed" || status == "cuda_error" || status == "out_of_memory" ||
      status == "protocol_error")
    return "#8b0000";
  return "#555555";
}

namespace {

std::string tooltip(std::size_t n, const json& trial) {
  std::string tip = fmt::format("trial {}: {} {}", n, text_at(trial, "candidate"), text_at(trial, "status"));
  if (const auto us = number_at(trial, "median_us")) tip += " " + time_us(*us);
  if (trial.contains("resumed_from")) tip += " (resumed from an earlier run)";
  tip += "\nreason: " + text_at(trial, "reason", "-");
  tip += "\nconfig: " + config_text(trial.value("config", json(nullptr)));
  const std::string message = text_at(trial, "message");
  if (!message.empty()) tip += "\n" + message.substr(0, 300);
  return tip;
}

}  // namespace

std::string trajectory_figure(const json& result) {
  const json trials = result.value("trial_list", json::array());
  if (!trials.is_array()) return "";
  double lo = 0, hi = 0;
  bool any = false;
  for (const auto& t : trials)
    if (const auto us = number_at(t, "median_us"); us && *us > 0) {
      lo = any ? std::min(lo, *us) : *us;
      hi = any ? std::max(hi, *us) : *us;
      any = true;
    }
  if (!any) return "";
  // The references: the final medians of the baselines and the floor, when they fit within a decade of the
  // trials (a reference far off would squash the trials into a line).
  struct Reference {
    std::string name, colour, dash;
    double us;
  };
  std::vector<Reference> refs;
  for (const Target& t : targets_of(result))
    if (t.name != "kernel" && t.median_us) refs.push_back({t.name + " (final)", t.colour, "6 4", *t.median_us});
  if (const auto floor = number_at(result.value("roofline", json(nullptr)), "floor_us"))
    refs.push_back({"floor", "#c0392b", "2 3", *floor});
  std::erase_if(refs, [&](const Reference& r) { return r.us <= 0 || r.us < lo / 10 || r.us > hi * 10; });
  for (const Reference& r : refs) {
    lo = std::min(lo, r.us);
    hi = std::max(hi, r.us);
  }
  const bool log = hi / lo > 4;
  const double unit = hi >= 2000 ? 1000 : 1;
  Frame f{.width = 760, .height = 380, .right = 190, .top = 54};
  const double n = static_cast<double>(trials.size());
  const Axis x = linear_axis(n > 1 ? 1 : 0, std::max(n, 2.0), f.x0(), f.x1());
  const Axis y = log ? log_axis(lo / unit / 1.1, hi / unit * 1.1, f.y0(), f.y1())
                     : linear_axis(lo / unit * 0.9, hi / unit * 1.05, f.y0(), f.y1());
  Svg svg(f.width, f.height, "Search trajectory: each trial's time by trial number, with the best so far");
  svg.axes(
      f, x, y, "trial", fmt::format("search-time median ({}{})", unit > 1 ? "ms" : "us", log ? ", log" : ""),
      [](double v) { return fmt::format("{:g}", v); }, tick_label);
  for (const Reference& r : refs) {
    const double py = y.map(r.us / unit);
    svg.line(f.x0(), py, f.x1(), py,
             fmt::format(R"(stroke="{}" stroke-width="1.5" stroke-dasharray="{}")", r.colour, r.dash),
             fmt::format("{}: {}", r.name, time_us(r.us)));
    svg.text(f.x1() + 6, py + 4, fmt::format("{} {}", r.name, time_us(r.us)),
             fmt::format(R"(font-size="11" fill="{}")", r.colour));
  }
  // The best so far, as steps.
  std::vector<std::pair<double, double>> best;
  std::optional<double> running;
  for (std::size_t i = 0; i < trials.size(); ++i) {
    const auto us = number_at(trials[i], "median_us");
    const bool ok = text_at(trials[i], "status") == "ok";
    if (!ok || !us || *us <= 0 || (running && *running <= *us)) continue;
    const double px = x.map(static_cast<double>(i + 1));
    if (running) best.emplace_back(px, y.map(*running / unit));
    running = *us;
    best.emplace_back(px, y.map(*us / unit));
  }
  if (running) best.emplace_back(x.map(std::max(n, 2.0)), y.map(*running / unit));
  svg.polyline(best, R"(stroke="#009e73" stroke-width="2")");
  std::map<std::string, std::string> seen;  // status -> colour, for the legend
  const double band = f.y1() - 12;          // failed trials have no time: a band above the plot
  for (std::size_t i = 0; i < trials.size(); ++i) {
    const json& t = trials[i];
    const std::string status = text_at(t, "status", "?");
    const std::string colour = status_colour(status);
    seen.emplace(status, colour);
    const double px = x.map(static_cast<double>(i + 1));
    const auto us = number_at(t, "median_us");
    const std::string tip = tooltip(i + 1, t);
    if (us && *us > 0) {
      const std::string attrs = t.contains("resumed_from")
                                    ? fmt::format(R"(fill="white" stroke="{}" stroke-width="2")", colour)
                                    : fmt::format(R"(fill="{}" stroke="white" stroke-width="1")", colour);
      svg.circle(px, y.map(*us / unit), 5, attrs, tip);
    } else {
      const std::string attrs = fmt::format(R"(stroke="{}" stroke-width="2.5")", colour);
      svg.line(px - 5, band - 5, px + 5, band + 5, attrs, tip);
      svg.line(px - 5, band + 5, px + 5, band - 5, attrs, tip);
    }
  }
  std::vector<std::pair<std::string, std::string>> legend;
  for (const auto& [status, colour] : seen) legend.emplace_back(colour, status);
  legend.emplace_back("#009e73", "best so far");
  svg.legend(f.x0(), 16, legend);
  const bool any_failed = std::any_of(trials.begin(), trials.end(), [](const json& t) {
    const auto us = number_at(t, "median_us");
    return !us || *us <= 0;
  });
  if (any_failed) svg.text(f.x0() - 6, band + 4, "no time", R"(font-size="10" fill="#555")", "end");
  return fmt::format(
      "<figure class=\"chart\">\n{}<figcaption>Each trial's search-time median (hover a point for its reason and "
      "configuration; a hollow point was resumed from an earlier run, a cross failed and has no time). The "
      "reported times are those of the final interleaved measurement, not these.</figcaption>\n</figure>\n",
      svg.finish());
}

}  // namespace kernelagent::report
