#include "kernelagent/report/page.hpp"

#include <fmt/format.h>

#include "kernelagent/report/html.hpp"

namespace kernelagent::report {

namespace {

constexpr std::string_view kStyle = R"(
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #1d2125; background: #fff;
       max-width: 1180px; margin: 0 auto; padding: 20px 28px 60px; line-height: 1.4; }
h1 { font-size: 1.6em; margin: 0.2em 0 0.1em; }
h2 { font-size: 1.3em; margin: 1.6em 0 0.4em; padding-top: 0.6em; border-top: 2px solid #d0d7de; }
h3 { font-size: 1.05em; margin: 1.3em 0 0.4em; color: #333; }
p.lead { font-size: 1.05em; margin: 0.3em 0 0.8em; }
table { border-collapse: collapse; margin: 0.4em 0 1em; font-size: 0.88em; }
th, td { padding: 4px 7px; border-bottom: 1px solid #e3e6ea; text-align: left; vertical-align: top; }
th { background: #f3f5f7; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.frac { white-space: nowrap; }
div.scroll { overflow-x: auto; }
td.config, td.mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 0.92em; }
table.conditions th { width: 12em; background: none; }
.note { background: #fff8e1; border-left: 4px solid #e69f00; padding: 8px 12px; margin: 0.8em 0; }
.fail { background: #fdecea; border-left: 4px solid #c0392b; padding: 8px 12px; margin: 0.8em 0; }
.status { display: inline-block; padding: 0 7px; border-radius: 9px; color: #fff; font-size: 0.85em; }
.tiles { display: flex; flex-wrap: wrap; gap: 10px; margin: 0.6em 0 1em; }
.tile { border: 1px solid #d0d7de; border-radius: 6px; padding: 6px 12px; min-width: 7em; }
.tile b { display: block; font-size: 1.35em; font-variant-numeric: tabular-nums; }
.tile span { color: #555; font-size: 0.85em; }
.win { color: #007a4d; } .loss { color: #b03a2e; }
figure.chart { margin: 0.6em 0 1.2em; }
figure.chart svg { max-width: 100%; height: auto; display: block; }
figcaption { color: #444; font-size: 0.88em; max-width: 720px; margin-top: 4px; }
pre.source { background: #f6f8fa; border: 1px solid #e3e6ea; padding: 10px 12px; overflow-x: auto;
             font-size: 12px; line-height: 1.35; }
details { margin: 0.4em 0 1em; }
summary { cursor: pointer; color: #0b5cad; }
a { color: #0b5cad; }
.bar { display: inline-block; height: 9px; background: #0072b2; vertical-align: middle; margin-right: 6px; }
.muted { color: #666; }
footer { margin-top: 3em; color: #666; font-size: 0.85em; }
)";

}  // namespace

std::string document(std::string_view title, std::string_view body) {
  return fmt::format(
      "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
      "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
      "<meta name=\"generator\" content=\"kernelagent report\">\n"
      "<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n{}"
      "<footer>Written by kernelagent report: one self-contained file, no script, nothing loaded.</footer>\n"
      "</body>\n</html>\n",
      escape(title), kStyle, body);
}

}  // namespace kernelagent::report
