#include "kernelagent/report/timing_chart.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kernelagent/report/figures.hpp"
#include "kernelagent/report/html.hpp"
#include "kernelagent/report/svg_chart.hpp"
#include "kernelagent/report/targets.hpp"

namespace kernelagent::report {

using nlohmann::json;

std::string timing_figure(const json& result) {
  std::vector<Target> timed;
  for (const Target& t : targets_of(result))
    if (t.median_us) timed.push_back(t);
  if (timed.empty()) return "";
  const std::optional<double> floor = number_at(result.value("roofline", json(nullptr)), "floor_us");
  double hi = floor.value_or(0);
  for (const Target& t : timed) hi = std::max(hi, t.p90_us.value_or(*t.median_us));
  Frame f{.width = 760,
          .height = 60.0 + 40.0 * static_cast<double>(timed.size()),
          .left = 110,
          .right = 170,
          .top = 26,
          .bottom = 44};
  // Microseconds or milliseconds on the axis, as the times are written.
  const bool ms = hi >= 2000;
  const double unit = ms ? 1000 : 1;
  const Axis x = linear_axis(0, hi * 1.04 / unit, f.x0(), f.x1());
  auto px = [&](double us) { return x.map(us / unit); };
  Svg svg(f.width, f.height, "Final times: median and 10th to 90th percentile");
  svg.x_axis(f, x, ms ? "time (ms), final interleaved measurement" : "time (us), final interleaved measurement");
  const double row = (f.y0() - f.y1()) / static_cast<double>(timed.size());
  for (std::size_t i = 0; i < timed.size(); ++i) {
    const Target& t = timed[i];
    const double top = f.y1() + row * static_cast<double>(i) + 7, h = row - 14, mid = top + h / 2;
    const std::string spread = t.p10_us && t.p90_us
                                   ? fmt::format("p10 {} .. p90 {}", time_us(*t.p10_us), time_us(*t.p90_us))
                                   : std::string("no spread recorded");
    const std::string tip = fmt::format("{}: median {}, {}{}{}", t.name, time_us(*t.median_us), spread,
                                        t.reps ? fmt::format(", {} repetitions", *t.reps) : "",
                                        t.method.empty() ? "" : fmt::format(", timed by {}", t.method));
    svg.rect(px(0), top, px(*t.median_us) - px(0), h, fmt::format(R"(fill="{}" fill-opacity="0.85")", t.colour), tip);
    if (t.p10_us && t.p90_us) {
      constexpr std::string_view whisker = R"(stroke="#111" stroke-width="1.5")";
      svg.line(px(*t.p10_us), mid, px(*t.p90_us), mid, whisker, spread);
      svg.line(px(*t.p10_us), mid - 6, px(*t.p10_us), mid + 6, whisker);
      svg.line(px(*t.p90_us), mid - 6, px(*t.p90_us), mid + 6, whisker);
    }
    svg.text(f.x0() - 6, mid + 4, t.name, R"(font-size="12" fill="#222")", "end");
    svg.text(f.x1() + 8, mid + 4,
             t.p10_us && t.p90_us
                 ? fmt::format("{}, spread {}", time_us(*t.median_us), percent((*t.p90_us - *t.p10_us) / *t.median_us))
                 : time_us(*t.median_us),
             R"(font-size="11" fill="#222")");
  }
  if (floor && *floor > 0) {
    const double fx = px(*floor);
    svg.line(fx, f.y1() - 6, fx, f.y0(), R"(stroke="#c0392b" stroke-width="2" stroke-dasharray="5 3")",
             fmt::format("the roofline floor: {}", time_us(*floor)));
    svg.text(fx, f.y1() - 10, fmt::format("floor {}", time_us(*floor)), R"(font-size="11" fill="#c0392b")", "middle");
  }
  return fmt::format(
      "<figure class=\"chart\">\n{}<figcaption>Medians of the final interleaved measurement (bars) with their "
      "10th to 90th percentiles (whiskers; the spread is (p90 - p10) / median); the dashed line is the roofline "
      "floor.</figcaption>\n</figure>\n",
      svg.finish());
}

}  // namespace kernelagent::report
