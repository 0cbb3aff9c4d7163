#include "kernelagent/report/bench_page.hpp"

#include <fmt/format.h>

#include "kernelagent/report/bench_charts.hpp"
#include "kernelagent/report/conditions.hpp"
#include "kernelagent/report/figures.hpp"
#include "kernelagent/report/html.hpp"
#include "kernelagent/report/page.hpp"
#include "kernelagent/report/problem_page.hpp"
#include "kernelagent/report/trial_table.hpp"

namespace kernelagent::report {

using nlohmann::json;

namespace {

std::string cell_us(const json& m) {
  const auto us = number_at(m, "median_us");
  return us ? time_us(*us) : escape(text_at(m, "status", "-"));
}

std::string cell_x(const std::optional<double>& x) {
  if (!x) return "-";
  return fmt::format("<span class=\"{}\">{}</span>", *x >= 1 ? "win" : "loss", ratio_x(*x));
}

std::string conditions(const json& b) {
  const json v = b.value("versions", json::object());
  return fmt::format(
      "<table class=\"conditions\">\n<tr><th>GPU</th><td>{}</td></tr>\n<tr><th>precision policy</th><td>{}</td></tr>\n"
      "<tr><th>versions</th><td>torch {}, triton {}, Python {}, CUDA {}</td></tr>\n"
      "<tr><th>problems at once</th><td>{}</td></tr>\n<tr><th>times</th><td>{}</td></tr>\n</table>\n",
      escape(text_at(b, "gpu", "?")), escape(text_at(b, "precision", "?")), escape(text_at(v, "torch", "?")),
      escape(text_at(v, "triton", "?")), escape(text_at(v, "python", "?")), escape(text_at(v, "cuda", "-")),
      number_at(b, "slots").value_or(1),
      "medians of each problem's final measurement, interleaved with its baselines (the conditions of each are in "
      "its section)");
}

std::string summary_tiles(const json& s, const std::string& line) {
  auto tile = [](const std::string& value, const std::string& label, const std::string& cls = "") {
    return fmt::format("<div class=\"tile\"><b class=\"{}\">{}</b><span>{}</span></div>\n", cls, escape(value),
                       escape(label));
  };
  auto n = [&](const char* key) { return fmt::format("{:g}", number_at(s, key).value_or(0)); };
  std::string html = fmt::format("<p class=\"lead\">{}</p>\n<div class=\"tiles\">\n", escape(line));
  html += tile(n("correct") + " / " + n("problems"), "correct");
  html += tile(n("wins") + " / " + n("timed"), "wins over the faster baseline");
  const auto g = number_at(s, "geomean_speedup_vs_faster_baseline");
  html += tile(g ? ratio_x(*g) : "-", "geomean vs the faster baseline", !g ? "" : *g >= 1 ? "win" : "loss");
  const auto gc = number_at(s, "geomean_speedup_vs_compile");
  html += tile(gc ? ratio_x(*gc) : "-", "geomean vs torch.compile", !gc ? "" : *gc >= 1 ? "win" : "loss");
  const auto m = number_at(s, "median_roofline_fraction");
  html += tile(m ? percent(*m) : "-", "median fraction of the floor");
  return html + "</div>\n";
}

std::string table(const json& rows) {
  std::string html =
      "<table class=\"bench\">\n<tr><th>problem</th><th>status</th><th class=\"num\">eager</th>"
      "<th class=\"num\">torch.compile</th><th class=\"num\">kernel</th><th class=\"num\">x eager</th>"
      "<th class=\"num\">x compile</th><th class=\"num\">x faster</th><th>fraction of floor</th>"
      "<th class=\"num\">TB/s</th><th class=\"num\">trials</th><th class=\"num\">secs</th></tr>\n";
  for (const auto& row : rows) {
    const std::string problem = text_at(row, "problem", "?");
    const std::string status = text_at(row, "status", "?");
    const std::string name = fmt::format("<a href=\"#{}\">{}</a>", anchor_id(problem), escape(problem));
    if (status != "ok") {
      html += fmt::format("<tr><td>{}</td><td>{}</td><td colspan=\"10\">{}</td></tr>\n", name, status_badge(status),
                          escape(text_at(row, "message")));
      continue;
    }
    const json kernel = row.value("kernelagent", json(nullptr));
    if (!number_at(kernel, "median_us")) {
      const auto err = number_at(kernel, "max_abs_err");
      html += fmt::format(
          "<tr><td>{}</td><td>{}</td><td colspan=\"10\">correct on the interpreter (largest absolute error {}), {:g} "
          "trials, not timed</td></tr>\n",
          name, status_badge(status), err ? fmt::format("{:.3g}", *err) : "-", number_at(row, "trials").value_or(0));
      continue;
    }
    const json sp = row.value("speedup", json(nullptr));
    const json roof = row.value("roofline", json(nullptr));
    const auto fraction = number_at(roof, "fraction");
    const std::string frac =
        fraction ? fmt::format("<span class=\"bar\" style=\"width:{:.0f}px\" title=\"of the {} floor\"></span>{}",
                               40 * std::min(*fraction, 1.0), escape(text_at(roof, "bound")), percent(*fraction))
                 : "-";
    const auto bw = number_at(roof, "achieved_bytes_per_s");
    html += fmt::format(
        "<tr><td>{}</td><td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"frac\">{}</td><td "
        "class=\"num\">{}</td>"
        "<td class=\"num\">{:g}</td><td class=\"num\">{:.0f}</td></tr>\n",
        name, status_badge(status), cell_us(row.value("eager", json(nullptr))),
        cell_us(row.value("compile", json(nullptr))), cell_us(kernel), cell_x(number_at(sp, "vs_eager")),
        cell_x(number_at(sp, "vs_compile")), cell_x(speedup_vs_faster(row)), frac,
        bw ? fmt::format("{:.2f}", *bw / 1e12) : "-", number_at(row, "trials").value_or(0),
        number_at(row, "elapsed_s").value_or(0));
  }
  return html + "</table>\n";
}

}  // namespace

std::string bench_page(const BenchReport& b) {
  const json rows = b.bench.value("rows", json::array());
  std::string body = fmt::format("<h1>KernelAgent bench: {}</h1>\n", escape(b.name));
  // The policy goes with the speedups (its problems share it; the first result that says so speaks for all).
  std::string line = b.summary_line;
  for (const ProblemReport& p : b.problems)
    if (const std::string against = precision_against(p.result); !against.empty()) {
      line += fmt::format(". Precision {}: {}.", text_at(b.bench, "precision", "?"), against);
      break;
    }
  body += summary_tiles(b.bench.value("summary", json::object()), line);
  body += conditions(b.bench);
  body += "<h3>Problems</h3>\n<div class=\"scroll\">\n" + table(rows) + "</div>\n";
  if (const std::string chart = speedup_figure(rows); !chart.empty()) body += "<h3>Speedups</h3>\n" + chart;
  if (const std::string chart = floor_fraction_figure(rows); !chart.empty())
    body += "<h3>Fraction of the roofline floor</h3>\n" + chart;
  for (const ProblemReport& p : b.problems) body += problem_section(p, false);
  return document(fmt::format("KernelAgent bench: {}", b.name), body);
}

}  // namespace kernelagent::report
