#include "kernelagent/report/svg_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "kernelagent/report/html.hpp"

namespace kernelagent::report {

namespace {

// The step of about five ticks over `span`: 1, 2 or 5 times a power of ten.
double round_step(double span) {
  if (span <= 0) return 1;
  const double raw = span / 5;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (const double m : {1.0, 2.0, 5.0})
    if (raw <= m * p) return m * p;
  return 10 * p;
}

std::string title_of(std::string_view tooltip) {
  return tooltip.empty() ? std::string() : fmt::format("<title>{}</title>", escape(tooltip));
}

// A closed or self-closing element with an optional tooltip.
std::string shape(std::string_view head, std::string_view attrs, std::string_view tooltip) {
  if (tooltip.empty()) return fmt::format("<{} {}/>\n", head, attrs);
  const std::string_view tag = head.substr(0, head.find(' '));
  return fmt::format("<{} {}>{}</{}>\n", head, attrs, title_of(tooltip), tag);
}

}  // namespace

double Axis::map(double v) const {
  if (log) {
    const double c = std::clamp(v, lo, hi);
    return from + (std::log10(c) - std::log10(lo)) / (std::log10(hi) - std::log10(lo)) * (to - from);
  }
  return from + (v - lo) / (hi - lo) * (to - from);
}

std::vector<double> Axis::ticks() const {
  std::vector<double> t;
  if (log) {
    // 1, 2 and 5 times each power of ten within the domain; over more than two decades the powers alone.
    const int d0 = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
    const int d1 = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
    const bool fine = d1 - d0 <= 2;
    for (int d = d0; d <= d1; ++d)
      for (const double m : {1.0, 2.0, 5.0}) {
        const double v = m * std::pow(10.0, d);
        if ((m == 1 || fine) && v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) t.push_back(v);
      }
    return t;
  }
  const double step = round_step(hi - lo);
  for (double v = lo; v <= hi + step * 1e-9; v += step) t.push_back(std::fabs(v) < step * 1e-9 ? 0.0 : v);
  return t;
}

Axis linear_axis(double lo, double hi, double from, double to) {
  if (!(hi > lo)) hi = lo + (lo == 0 ? 1 : std::fabs(lo));
  const double step = round_step(hi - lo);
  return {std::floor(lo / step) * step, std::ceil(hi / step) * step, from, to, false};
}

Axis log_axis(double lo, double hi, double from, double to) {
  lo = std::max(lo, 1e-300);
  hi = std::max(hi, lo);
  // Out to the nearest 1, 2 or 5 times a power of ten when the domain spans less than a decade (so that a few
  // speedups near 1x are not squashed into a corner), else to whole decades.
  const bool narrow = hi / lo < 10;
  auto down = [&](double v) {
    const double p = std::pow(10.0, std::floor(std::log10(v) + 1e-9));
    if (!narrow) return p;
    return v >= 5 * p * (1 - 1e-9) ? 5 * p : v >= 2 * p * (1 - 1e-9) ? 2 * p : p;
  };
  auto up = [&](double v) {
    const double p = std::pow(10.0, std::floor(std::log10(v) + 1e-9));
    if (v <= p * (1 + 1e-9)) return p;
    if (!narrow) return 10 * p;
    return v <= 2 * p * (1 + 1e-9) ? 2 * p : v <= 5 * p * (1 + 1e-9) ? 5 * p : 10 * p;
  };
  const double l = down(lo);
  double h = up(hi);
  if (h <= l) h = narrow ? up(l * 1.5) : l * 10;
  return {l, h, from, to, true};
}

std::string tick_label(double v) {
  const double a = std::fabs(v);
  if (a != 0 && (a >= 1e6 || a < 1e-3)) return fmt::format("{:.0e}", v);
  return fmt::format("{:g}", v);
}

Svg::Svg(double width, double height, std::string_view label) : width_(width), height_(height), label_(label) {}

void Svg::line(double x1, double y1, double x2, double y2, std::string_view attrs, std::string_view tooltip) {
  body_ += shape(fmt::format("line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\"", x1, y1, x2, y2), attrs,
                 tooltip);
}

void Svg::rect(double x, double y, double w, double h, std::string_view attrs, std::string_view tooltip) {
  body_ += shape(fmt::format("rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"", x, y,
                             std::max(w, 0.0), std::max(h, 0.0)),
                 attrs, tooltip);
}

void Svg::circle(double cx, double cy, double r, std::string_view attrs, std::string_view tooltip) {
  body_ += shape(fmt::format("circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\"", cx, cy, r), attrs, tooltip);
}

void Svg::polyline(const std::vector<std::pair<double, double>>& points, std::string_view attrs) {
  if (points.size() < 2) return;
  std::string pts;
  for (const auto& [x, y] : points) pts += fmt::format("{:.1f},{:.1f} ", x, y);
  pts.pop_back();
  body_ += fmt::format("<polyline points=\"{}\" fill=\"none\" {}/>\n", pts, attrs);
}

void Svg::text(double x, double y, std::string_view text, std::string_view attrs, std::string_view anchor) {
  body_ += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"{}\" {}>{}</text>\n", x, y, anchor, attrs,
                       escape(text));
}

void Svg::open_link(std::string_view href) { body_ += fmt::format("<a href=\"{}\">\n", escape(href)); }

void Svg::close_link() { body_ += "</a>\n"; }

namespace {
constexpr std::string_view kGrid = R"(stroke="#e3e6ea" stroke-width="1")";
constexpr std::string_view kTickText = R"(font-size="11" fill="#555")";
constexpr std::string_view kFrame = R"(stroke="#444" stroke-width="1")";
}  // namespace

void Svg::x_axis(const Frame& f, const Axis& x, std::string_view label,
                 const std::function<std::string(double)>& tick) {
  for (const double t : x.ticks()) {
    const double px = x.map(t);
    line(px, f.y1(), px, f.y0(), kGrid);
    text(px, f.y0() + 16, tick(t), kTickText, "middle");
  }
  line(f.x0(), f.y0(), f.x1(), f.y0(), kFrame);
  text((f.x0() + f.x1()) / 2, f.height - 12, label, R"(font-size="12" fill="#222")", "middle");
}

void Svg::y_axis(const Frame& f, const Axis& y, std::string_view label,
                 const std::function<std::string(double)>& tick) {
  for (const double t : y.ticks()) {
    const double py = y.map(t);
    line(f.x0(), py, f.x1(), py, kGrid);
    text(f.x0() - 6, py + 4, tick(t), kTickText, "end");
  }
  line(f.x0(), f.y0(), f.x0(), f.y1(), kFrame);
  const double mid = (f.y0() + f.y1()) / 2;
  body_ += fmt::format(
      "<text x=\"14\" y=\"{0:.1f}\" text-anchor=\"middle\" font-size=\"12\" fill=\"#222\" "
      "transform=\"rotate(-90 14 {0:.1f})\">{1}</text>\n",
      mid, escape(label));
}

void Svg::axes(const Frame& f, const Axis& x, const Axis& y, std::string_view x_label, std::string_view y_label,
               const std::function<std::string(double)>& x_tick, const std::function<std::string(double)>& y_tick) {
  x_axis(f, x, x_label, x_tick);
  y_axis(f, y, y_label, y_tick);
}

void Svg::legend(double x, double y, const std::vector<std::pair<std::string, std::string>>& colour_and_name) {
  for (const auto& [colour, name] : colour_and_name) {
    rect(x, y - 9, 10, 10, fmt::format("fill=\"{}\"", escape(colour)));
    text(x + 14, y, name, R"(font-size="11" fill="#333")");
    x += 24 + 6.5 * static_cast<double>(name.size());
  }
}

std::string Svg::finish() const {
  return fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {0:.0f} {1:.0f}\" width=\"{0:.0f}\" "
      "height=\"{1:.0f}\" role=\"img\" aria-label=\"{2}\" font-family=\"sans-serif\">\n<title>{2}</title>\n"
      "{3}</svg>\n",
      width_, height_, escape(label_), body_);
}

}  // namespace kernelagent::report
