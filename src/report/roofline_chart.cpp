#include "kernelagent/report/roofline_chart.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "kernelagent/report/figures.hpp"
#include "kernelagent/report/html.hpp"
#include "kernelagent/report/svg_chart.hpp"
#include "kernelagent/report/targets.hpp"

namespace kernelagent::report {

using nlohmann::json;

namespace {

constexpr std::string_view kRoof = R"(stroke="#222" stroke-width="2.5")";
constexpr std::string_view kLabel = R"(font-size="12" fill="#222")";

// The labels of points that share a column, spread so that none overlaps the next (at least `gap` px).
std::vector<double> spread_labels(std::vector<double> ys, double gap) {
  std::vector<std::size_t> order(ys.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ys[a] < ys[b]; });
  for (std::size_t k = 1; k < order.size(); ++k) ys[order[k]] = std::max(ys[order[k]], ys[order[k - 1]] + gap);
  return ys;
}

std::string caption(const json& result, const Roofs& roofs) {
  const json& roof = result.at("roofline");
  const double bytes = number_at(roof, "bytes").value_or(0);
  const double flops = number_at(roof, "flops").value_or(0);
  std::string text = fmt::format("Compulsory traffic {} (inputs read once, outputs written once)", si(bytes, "B"));
  text += flops > 0 ? fmt::format(", {} counted; arithmetic intensity {:.3g} FLOP/B", si(flops, "FLOP"),
                                  bytes > 0 ? flops / bytes : 0.0)
                    : ", no FLOPs counted (the work is moving data)";
  if (const auto floor = number_at(roof, "floor_us"))
    text += fmt::format(". Floor {} ({}-bound", time_us(*floor), text_at(roof, "bound", "?"));
  if (!roofs.unit.empty()) text += fmt::format(", products on {}", roofs.unit);
  if (number_at(roof, "floor_us")) text += ")";
  if (const auto f = number_at(roof, "fraction")) text += fmt::format("; the kernel reaches {} of it", percent(*f));
  if (!roofs.peak_note.empty()) text += fmt::format(". Compute roof: {}", roofs.peak_note);
  return text + ".";
}

std::string figure(const std::string& svg, const std::string& caption_text) {
  return fmt::format("<figure class=\"chart\">\n{}<figcaption>{}</figcaption>\n</figure>\n", svg, escape(caption_text));
}

// Every timed target as (its name, colour, time).
std::vector<Target> timed_targets(const json& result) {
  std::vector<Target> out;
  for (const Target& t : targets_of(result))
    if (t.median_us && *t.median_us > 0) out.push_back(t);
  return out;
}

// The classic roofline, log-log: FLOP/s against FLOP/B.
std::string compute_roofline(const json& result, const Roofs& roofs, double bytes, double flops) {
  const double ai = flops / bytes;
  const double ridge = roofs.flops_per_s / roofs.bytes_per_s;
  const std::vector<Target> timed = timed_targets(result);
  Frame f{.width = 720, .height = 400, .right = 150};
  const double x_lo = std::min(ai, ridge) / 8, x_hi = std::max(ai, ridge) * 8;
  double y_lo = roofs.bytes_per_s * x_lo, y_hi = roofs.flops_per_s * 2;
  for (const Target& t : timed) y_lo = std::min(y_lo, flops / (*t.median_us * 1e-6) / 2);
  const Axis x = log_axis(x_lo, x_hi, f.x0(), f.x1());
  const Axis y = log_axis(y_lo, y_hi, f.y0(), f.y1());
  Svg svg(f.width, f.height, "Roofline: attained FLOP/s against arithmetic intensity");
  svg.axes(f, x, y, "arithmetic intensity (FLOP per compulsory byte)", "FLOP/s (log)", tick_label,
           [](double v) { return si(v, ""); });
  // The roofs: DRAM up to the ridge (from where it enters the plot), then the unit's peak.
  const double x_start = std::max(x.lo, y.lo / roofs.bytes_per_s);
  svg.line(x.map(x_start), y.map(roofs.bytes_per_s * x_start), x.map(ridge), y.map(roofs.flops_per_s), kRoof,
           fmt::format("DRAM roof: {}", si(roofs.bytes_per_s, "B/s")));
  svg.line(x.map(ridge), y.map(roofs.flops_per_s), x.map(x.hi), y.map(roofs.flops_per_s), kRoof,
           fmt::format("{} roof: {}", roofs.unit, si(roofs.flops_per_s, "FLOP/s")));
  // The labels: the compute roof's above it from the ridge on, the DRAM roof's below and right of the rising
  // line, where nothing else is drawn.
  svg.text(x.map(ridge) + 6, y.map(roofs.flops_per_s) - 7,
           fmt::format("{} {}", roofs.unit, si(roofs.flops_per_s, "FLOP/s")), kLabel);
  const double lx = std::sqrt(x_start * ridge);
  svg.text(x.map(lx) + 10, y.map(roofs.bytes_per_s * lx) + 14, fmt::format("DRAM {}", si(roofs.bytes_per_s, "B/s")),
           kLabel);
  // The problem's intensity, and the roof above it: 100% of the floor.
  const double px = x.map(ai);
  svg.line(px, f.y0(), px, f.y1(), R"(stroke="#555" stroke-dasharray="4 4")",
           fmt::format("arithmetic intensity {:.3g} FLOP/B", ai));
  svg.text(px + 4, f.y0() - 6, fmt::format("AI {:.3g} FLOP/B", ai), R"(font-size="11" fill="#555")");
  const double attainable = std::min(roofs.flops_per_s, ai * roofs.bytes_per_s);
  svg.circle(px, y.map(attainable), 5, R"(fill="white" stroke="#222" stroke-width="2")",
             fmt::format("the roof at this intensity: {} (the floor)", si(attainable, "FLOP/s")));
  std::vector<double> label_y;
  for (const Target& t : timed) label_y.push_back(y.map(flops / (*t.median_us * 1e-6)) + 4);
  label_y = spread_labels(label_y, 15);
  for (std::size_t i = 0; i < timed.size(); ++i) {
    const Target& t = timed[i];
    const double rate = flops / (*t.median_us * 1e-6);
    const double py = y.map(rate);
    const std::string tip = fmt::format("{}: {} in {}, {} of the roof at this intensity", t.name, si(rate, "FLOP/s"),
                                        time_us(*t.median_us), percent(rate / attainable));
    svg.circle(px, py, 6, fmt::format(R"(fill="{}" stroke="white" stroke-width="1.5")", t.colour), tip);
    svg.line(px + 8, py, f.x1() + 6, label_y[i] - 4, fmt::format(R"(stroke="{}" stroke-width="0.8")", t.colour));
    svg.text(f.x1() + 10, label_y[i], fmt::format("{} {}", t.name, percent(rate / attainable)),
             fmt::format(R"(font-size="12" fill="{}")", t.colour));
  }
  return svg.finish();
}

// A problem with no FLOPs: the compulsory bytes per second each target reaches, against the DRAM roof.
std::string memory_roofline(const json& result, const Roofs& roofs, double bytes) {
  const std::vector<Target> timed = timed_targets(result);
  Frame f{.width = 720,
          .height = 80.0 + 38.0 * static_cast<double>(timed.size()),
          .left = 110,
          .right = 40,
          .top = 30,
          .bottom = 48};
  double hi = roofs.bytes_per_s;
  for (const Target& t : timed) hi = std::max(hi, bytes / (*t.median_us * 1e-6));
  const Axis x = linear_axis(0, hi * 1.05, f.x0(), f.x1());
  const Axis y{0, static_cast<double>(timed.size()), f.y1(), f.y0(), false};
  Svg svg(f.width, f.height, "Memory roofline: compulsory bytes per second against the DRAM bandwidth");
  svg.x_axis(f, x, "compulsory bytes per second (TB/s)", [](double v) { return fmt::format("{:g}", v / 1e12); });
  for (std::size_t i = 0; i < timed.size(); ++i) {
    const Target& t = timed[i];
    const double rate = bytes / (*t.median_us * 1e-6);
    const double top = y.map(static_cast<double>(i)) + 8,
                 h = (f.y0() - f.y1()) / static_cast<double>(timed.size()) - 16;
    const std::string tip = fmt::format("{}: {} of compulsory traffic in {}, {} of the DRAM roof", t.name,
                                        si(rate, "B/s"), time_us(*t.median_us), percent(rate / roofs.bytes_per_s));
    svg.rect(x.map(0), top, x.map(rate) - x.map(0), h, fmt::format(R"(fill="{}")", t.colour), tip);
    svg.text(f.x0() - 6, top + h / 2 + 4, t.name, kLabel, "end");
    const double end = x.map(rate);
    const bool inside = end - x.map(0) > 170;
    svg.text(inside ? end - 6 : end + 6, top + h / 2 + 4,
             fmt::format("{} ({})", si(rate, "B/s"), percent(rate / roofs.bytes_per_s)),
             inside ? R"(font-size="12" fill="white")" : kLabel, inside ? "end" : "start");
  }
  const double roof_x = x.map(roofs.bytes_per_s);
  svg.line(roof_x, f.y1() - 4, roof_x, f.y0(), kRoof, fmt::format("DRAM roof: {}", si(roofs.bytes_per_s, "B/s")));
  svg.text(roof_x - 4, f.y1() - 10, fmt::format("DRAM roof {}", si(roofs.bytes_per_s, "B/s")), kLabel, "end");
  return svg.finish();
}

}  // namespace

Roofs roofs_of(const json& result) {
  Roofs r;
  const json gpu = result.value("gpu", json(nullptr));
  const json roof = result.value("roofline", json(nullptr));
  if (!gpu.is_object()) return r;
  r.bytes_per_s = number_at(roof, "peak_bytes_per_s").value_or(number_at(gpu, "dram_bytes_per_s").value_or(0));
  r.unit = text_at(roof, "compute_unit");
  const std::string dtype = text_at(result, "dtype");
  const double tf32 = number_at(gpu, "peak_tf32").value_or(0);
  if (r.unit == "3xTF32 tensor cores") {
    r.flops_per_s = tf32 / 3;
    r.peak_note = fmt::format("three TF32 products per product, the TF32 peak {} / 3", si(tf32, "FLOP/s"));
  } else if (r.unit == "TF32 tensor cores") {
    r.flops_per_s = tf32;
  } else if (dtype == "float32") {
    r.flops_per_s = number_at(gpu, "peak_fp32").value_or(0);
  } else if (dtype == "bfloat16" || dtype == "float16") {
    r.flops_per_s = number_at(gpu, "peak_bf16").value_or(0);
  } else if (dtype.starts_with("float8")) {
    r.flops_per_s = number_at(gpu, "peak_fp8").value_or(0);
  }
  return r;
}

std::string roofline_figure(const json& result) {
  const json roof = result.value("roofline", json(nullptr));
  if (!roof.is_object()) return "<p class=\"note\">No roofline: the run ended before the problem was traced.</p>\n";
  const Roofs roofs = roofs_of(result);
  const double bytes = number_at(roof, "bytes").value_or(0);
  const double flops = number_at(roof, "flops").value_or(0);
  const std::string text = caption(result, roofs);
  if (roofs.bytes_per_s <= 0 || bytes <= 0) {
    const std::string why = result.value("gpu", json(nullptr)).is_object() ? "the GPU's DRAM bandwidth is not known"
                                                                           : "there is no GPU: nothing was timed";
    return fmt::format("<p class=\"note\">No roofline chart: {}. {}</p>\n", why, escape(text));
  }
  if (timed_targets(result).empty())
    return fmt::format("<p class=\"note\">No roofline chart: nothing was timed. {}</p>\n", escape(text));
  if (flops > 0 && roofs.flops_per_s > 0) return figure(compute_roofline(result, roofs, bytes, flops), text);
  return figure(memory_roofline(result, roofs, bytes), text);
}

}  // namespace kernelagent::report
