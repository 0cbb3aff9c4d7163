#pragma once
// The drawing primitives of the report's charts: an axis that maps data to pixels (linear or log10, with
// round ticks), and an SVG canvas that collects shapes. Colours are presentation attributes on the shapes,
// so a chart looks the same outside the page; a shape's tooltip is an SVG <title>, shown on hover by every
// browser with no script.

#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace kernelagent::report {

struct Axis {
  double lo = 0, hi = 1;    // the data domain (already widened to round ticks)
  double from = 0, to = 1;  // the pixels lo and hi map to (to < from for a y axis)
  bool log = false;

  double map(double v) const;         // data -> pixel; a log axis clamps v to its domain first
  std::vector<double> ticks() const;  // linear: steps of 1, 2 or 5 x 10^k; log: decades (and 2, 5 within few)
};

// An axis over [lo, hi] widened to round ticks; a log axis (lo, hi > 0) to whole decades, or within a decade to
// 1, 2 or 5 times a power of ten.
Axis linear_axis(double lo, double hi, double from, double to);
Axis log_axis(double lo, double hi, double from, double to);

// A tick's label: "0.5", "2", "1000", "1e+06" (compact, no trailing zeros).
std::string tick_label(double v);

// The plot area inside a chart's margins.
struct Frame {
  double width = 720, height = 360;
  double left = 72, right = 24, top = 28, bottom = 52;
  double x0() const { return left; }
  double x1() const { return width - right; }
  double y0() const { return height - bottom; }  // the bottom of the plot
  double y1() const { return top; }
};

class Svg {
 public:
  // `label` names the chart for screen readers (aria-label and the chart's own <title>).
  Svg(double width, double height, std::string_view label);

  // `attrs` are presentation attributes written as is (the caller's constants, never data), e.g.
  // R"(stroke="#888" stroke-dasharray="4 3")"; `tooltip` is escaped text, none when empty.
  void line(double x1, double y1, double x2, double y2, std::string_view attrs, std::string_view tooltip = "");
  void rect(double x, double y, double w, double h, std::string_view attrs, std::string_view tooltip = "");
  void circle(double cx, double cy, double r, std::string_view attrs, std::string_view tooltip = "");
  void polyline(const std::vector<std::pair<double, double>>& points, std::string_view attrs);
  // `anchor`: start, middle or end; the text is escaped.
  void text(double x, double y, std::string_view text, std::string_view attrs = "", std::string_view anchor = "start");
  // A link around what is drawn until close_link() (an in-page anchor such as "#p-23_Softmax").
  void open_link(std::string_view href);
  void close_link();

  // An x axis along the bottom of the frame and a y axis along its left, each with ticks, grid lines and a
  // label; axes() draws both.
  void x_axis(const Frame& f, const Axis& x, std::string_view label,
              const std::function<std::string(double)>& tick = tick_label);
  void y_axis(const Frame& f, const Axis& y, std::string_view label,
              const std::function<std::string(double)>& tick = tick_label);
  void axes(const Frame& f, const Axis& x, const Axis& y, std::string_view x_label, std::string_view y_label,
            const std::function<std::string(double)>& x_tick = tick_label,
            const std::function<std::string(double)>& y_tick = tick_label);
  // A row of coloured swatches with their names, from (x, y) rightwards.
  void legend(double x, double y, const std::vector<std::pair<std::string, std::string>>& colour_and_name);

  std::string finish() const;

 private:
  double width_, height_;
  std::string label_;
  std::string body_;
};

}  // namespace kernelagent::report
