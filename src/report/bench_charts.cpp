#include "kernelagent/report/bench_charts.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "kernelagent/report/figures.hpp"
#include "kernelagent/report/html.hpp"
#include "kernelagent/report/svg_chart.hpp"

namespace kernelagent::report {

using nlohmann::json;

namespace {

struct Bar {
  std::string problem;
  double value = 0;
  std::string tooltip;
};

constexpr double kRow = 24;

Frame bar_frame(std::size_t bars) {
  return {
      .width = 760, .height = 78 + kRow * static_cast<double>(bars), .left = 250, .right = 90, .top = 22, .bottom = 50};
}

// The problem's name beside its bar, a link to its section.
void bar_label(Svg& svg, const Frame& f, double mid, const std::string& problem) {
  svg.open_link("#" + anchor_id(problem));
  const std::string shown = problem.size() > 36 ? problem.substr(0, 35) + "…" : problem;
  svg.text(f.x0() - 6, mid + 4, shown, R"(font-size="12" fill="#0b5cad")", "end");
  svg.close_link();
}

}  // namespace

std::optional<double> speedup_vs_faster(const json& row) {
  if (!number_at(row.value("kernelagent", json(nullptr)), "median_us")) return std::nullopt;
  const json speedup = row.value("speedup", json(nullptr));
  const auto e = number_at(speedup, "vs_eager"), c = number_at(speedup, "vs_compile");
  if (e && c) return std::min(*e, *c);
  return e ? e : c;
}

std::string speedup_figure(const json& rows) {
  std::vector<Bar> bars;
  for (const auto& row : rows)
    if (const auto x = speedup_vs_faster(row)) {
      const json sp = row.at("speedup");
      bars.push_back(
          {text_at(row, "problem"), *x,
           fmt::format("{}: {} vs the faster baseline ({} vs eager, {} vs torch.compile)", text_at(row, "problem"),
                       ratio_x(*x), number_at(sp, "vs_eager") ? ratio_x(*number_at(sp, "vs_eager")) : "-",
                       number_at(sp, "vs_compile") ? ratio_x(*number_at(sp, "vs_compile")) : "-")});
    }
  if (bars.empty()) return "";
  std::stable_sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) { return a.value > b.value; });
  double lo = 1, hi = 1;
  for (const Bar& b : bars) {
    lo = std::min(lo, b.value);
    hi = std::max(hi, b.value);
  }
  const Frame f = bar_frame(bars.size());
  const Axis x = log_axis(lo / 1.2, hi * 1.2, f.x0(), f.x1());
  Svg svg(f.width, f.height, "Speedup of each kernel over the faster of eager and torch.compile");
  svg.x_axis(f, x, "speedup over the faster of eager and torch.compile (log; right of 1.0 is a win)",
             [](double v) { return fmt::format("{:g}x", v); });
  const double one = x.map(1.0);
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    const double top = f.y1() + kRow * static_cast<double>(i) + 4, mid = top + (kRow - 8) / 2;
    const double end = x.map(b.value);
    const bool win = b.value >= 1;
    svg.open_link("#" + anchor_id(b.problem));
    svg.rect(std::min(one, end), top, std::fabs(end - one), kRow - 8, win ? R"(fill="#009e73")" : R"(fill="#d55e00")",
             b.tooltip);
    svg.close_link();
    bar_label(svg, f, mid, b.problem);
    svg.text(win ? end + 5 : end - 5, mid + 4, ratio_x(b.value), R"(font-size="11" fill="#222")",
             win ? "start" : "end");
  }
  svg.line(one, f.y1() - 6, one, f.y0(), R"(stroke="#222" stroke-width="2")", "1.0x: as fast as the faster baseline");
  svg.text(one, f.y1() - 10, "1.0x", R"(font-size="11" fill="#222")", "middle");
  return fmt::format(
      "<figure class=\"chart\">\n{}<figcaption>Each timed problem's kernel against the faster of eager and "
      "torch.compile in the same final interleaved measurement, sorted; green bars are wins. A bar links to the "
      "problem's section.</figcaption>\n</figure>\n",
      svg.finish());
}

std::string floor_fraction_figure(const json& rows) {
  std::vector<Bar> bars;
  for (const auto& row : rows) {
    const json roof = row.value("roofline", json(nullptr));
    if (const auto fr = number_at(roof, "fraction"))
      bars.push_back({text_at(row, "problem"), *fr,
                      fmt::format("{}: {} of the {} floor {} ({})", text_at(row, "problem"), percent(*fr),
                                  text_at(roof, "bound", "?"), time_us(number_at(roof, "floor_us").value_or(0)),
                                  text_at(roof, "compute_unit", "?"))});
  }
  if (bars.empty()) return "";
  std::stable_sort(bars.begin(), bars.end(), [](const Bar& a, const Bar& b) { return a.value > b.value; });
  const Frame f = bar_frame(bars.size());
  const Axis x = linear_axis(0, 1, f.x0(), f.x1());
  Svg svg(f.width, f.height, "Fraction of the roofline floor each kernel reaches");
  svg.x_axis(f, x, "fraction of the roofline floor (floor time / kernel time)",
             [](double v) { return fmt::format("{:g}%", 100 * v); });
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const Bar& b = bars[i];
    const double top = f.y1() + kRow * static_cast<double>(i) + 4, mid = top + (kRow - 8) / 2;
    svg.open_link("#" + anchor_id(b.problem));
    svg.rect(x.map(0), top, x.map(std::min(b.value, 1.0)) - x.map(0), kRow - 8, R"(fill="#0072b2")", b.tooltip);
    svg.close_link();
    bar_label(svg, f, mid, b.problem);
    svg.text(x.map(std::min(b.value, 1.0)) + 5, mid + 4, percent(b.value), R"(font-size="11" fill="#222")");
  }
  svg.line(x.map(1), f.y1() - 6, x.map(1), f.y0(), R"(stroke="#c0392b" stroke-width="2" stroke-dasharray="5 3")",
           "the floor: compulsory bytes at the DRAM bandwidth, or the FLOPs at the unit's peak");
  return fmt::format(
      "<figure class=\"chart\">\n{}<figcaption>The roofline floor (compulsory bytes over the DRAM bandwidth, or the "
      "FLOPs over the peak of the unit used, whichever is longer) over each kernel's time; 100% is the "
      "physical limit.</figcaption>\n</figure>\n",
      svg.finish());
}

}  // namespace kernelagent::report
