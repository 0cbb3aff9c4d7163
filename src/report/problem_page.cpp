#include "kernelagent/report/problem_page.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kernelagent/report/conditions.hpp"
#include "kernelagent/report/diagnoses.hpp"
#include "kernelagent/report/figures.hpp"
#include "kernelagent/report/html.hpp"
#include "kernelagent/report/page.hpp"
#include "kernelagent/report/roofline_chart.hpp"
#include "kernelagent/report/targets.hpp"
#include "kernelagent/report/timing_chart.hpp"
#include "kernelagent/report/trajectory_chart.hpp"
#include "kernelagent/report/trial_table.hpp"

namespace kernelagent::report {

using nlohmann::json;

namespace {

std::string tile(std::string_view value, std::string_view label, std::string_view cls = "") {
  return fmt::format("<div class=\"tile\"><b class=\"{}\">{}</b><span>{}</span></div>\n", cls, escape(value),
                     escape(label));
}

std::string speedup_cls(std::optional<double> x) { return !x ? "" : *x >= 1 ? "win" : "loss"; }

// The verdict in one sentence, and its figures as tiles.
std::string verdict(const json& r) {
  const json best = field(r, "best");
  const json roof = field(r, "roofline");
  const json trials = field(r, "trials");
  const auto kernel_us = number_at(best, "median_us");
  const auto vs_eager = number_at(field(r, "speedup"), "vs_eager");
  const auto vs_compile = number_at(field(r, "speedup"), "vs_compile");
  const auto fraction = number_at(roof, "fraction");
  const std::string n_trials = fmt::format("{:g}", number_at(trials, "total").value_or(0));
  if (!kernel_us) {
    // The CPU: correctness only.
    const auto err = number_at(best, "max_abs_err");
    const json tol = field(r, "tolerance");
    std::string html = fmt::format(
        "<p class=\"note\"><b>Nothing was timed</b> ({}). What was checked: the kernel ({} {}) matches the "
        "reference within atol {:g} and rtol {:g} on {} fresh input seeds, with a largest absolute error of {}; {} "
        "trials were checked ({}). No speedup or roofline fraction is claimed.</p>\n",
        escape(r.contains("note") ? text_at(r, "note") : "no GPU"), escape(text_at(best, "family")),
        escape(config_text(field(best, "config"))), number_at(tol, "atol").value_or(0),
        number_at(tol, "rtol").value_or(0), field(tol, "seeds").size(), err ? fmt::format("{:.3g}", *err) : "-",
        n_trials, escape(field(trials, "by_status").dump()));
    html += "<div class=\"tiles\">\n" + tile("correct", "on Triton's interpreter") +
            tile(err ? fmt::format("{:.3g}", *err) : "-", "largest absolute error") + tile(n_trials, "trials checked") +
            tile("not timed", "no GPU") + "</div>\n";
    return html;
  }
  std::string sentence = fmt::format("The kernel takes {}", time_us(*kernel_us));
  if (vs_eager || vs_compile) sentence += ": a speedup of ";
  if (vs_eager) sentence += fmt::format("{} over eager", ratio_x(*vs_eager));
  if (vs_compile) sentence += fmt::format("{}{} over torch.compile", vs_eager ? " and " : "", ratio_x(*vs_compile));
  if (fraction)
    sentence += fmt::format("; it reaches {} of the {} floor ({})", percent(*fraction), text_at(roof, "bound", "?"),
                            time_us(number_at(roof, "floor_us").value_or(0)));
  const std::optional<double> vs_faster = vs_eager && vs_compile ? std::optional(std::min(*vs_eager, *vs_compile))
                                          : vs_eager             ? vs_eager
                                                                 : vs_compile;
  if (vs_faster)
    sentence += *vs_faster >= 1 ? fmt::format(". It beats the faster baseline by {}.", ratio_x(*vs_faster))
                                : fmt::format(". It is slower than the faster baseline ({}).", ratio_x(*vs_faster));
  else
    sentence += ".";
  if (const std::string against = precision_against(r); !against.empty())
    sentence += fmt::format(" Measured as {}.", against);
  std::string html = fmt::format("<p class=\"lead\">{}</p>\n<div class=\"tiles\">\n", escape(sentence));
  html += tile(time_us(*kernel_us), "kernel (median)");
  html += tile(vs_eager ? ratio_x(*vs_eager) : "-", "vs eager", speedup_cls(vs_eager));
  html += tile(vs_compile ? ratio_x(*vs_compile) : "-", "vs torch.compile", speedup_cls(vs_compile));
  if (fraction) html += tile(percent(*fraction), fmt::format("of the {} floor", text_at(roof, "bound", "?")));
  if (const auto bw = number_at(roof, "achieved_bytes_per_s"))
    html += tile(si(*bw, "B/s"), "compulsory bytes per second");
  html += tile(n_trials, "trials");
  return html + "</div>\n";
}

// eager, torch.compile and the kernel with their spread, the kernel's speedup over each and the fraction of
// the floor each reaches.
std::string times_table(const json& r) {
  const std::vector<Target> targets = targets_of(r);
  const json roof = field(r, "roofline");
  const auto kernel_us = targets.back().median_us;
  if (!kernel_us) return "";
  const std::optional<double> fractions[] = {number_at(roof, "eager_fraction"), number_at(roof, "compile_fraction"),
                                             number_at(roof, "fraction")};
  std::string html =
      "<table class=\"times\">\n<tr><th></th><th class=\"num\">median</th><th class=\"num\">p10</th>"
      "<th class=\"num\">p90</th><th class=\"num\">spread (p90-p10)/median</th><th class=\"num\">repetitions</th>"
      "<th>method</th><th class=\"num\">kernel speedup</th><th class=\"num\">fraction of floor</th></tr>\n";
  for (std::size_t i = 0; i < targets.size(); ++i) {
    const Target& t = targets[i];
    auto cell = [](const std::optional<double>& us) { return us ? time_us(*us) : std::string("-"); };
    const std::string spread =
        t.median_us && t.p10_us && t.p90_us ? percent((*t.p90_us - *t.p10_us) / *t.median_us) : "-";
    const std::string speedup = t.name != "kernel" && t.median_us ? ratio_x(*t.median_us / *kernel_us) : "";
    html += fmt::format(
        "<tr><th><span class=\"bar\" style=\"background:{}\"></span>{}</th><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td>{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>\n",
        t.colour, escape(t.name), t.median_us ? cell(t.median_us) : escape(t.status), cell(t.p10_us), cell(t.p90_us),
        spread, t.reps ? std::to_string(*t.reps) : "-", escape(t.method), speedup,
        fractions[i] ? percent(*fractions[i]) : "-");
  }
  return html + "</table>\n";
}

// PyTorch's defaults, where they ran the problem's ops unlike the baselines the verdict counts against
// (TF32 convolutions under strict): their times, the kernel's speedup over each, and their error against
// the IEEE reference.
std::string defaults_block(const json& r) {
  const json d = field(field(r, "baselines"), "pytorch_default");
  if (!d.is_object()) return "";
  const auto kernel_us = number_at(field(r, "best"), "median_us");
  std::string html = fmt::format(
      "<p>{}, unlike the baselines above.</p>\n<table class=\"times\">\n<tr><th></th>"
      "<th class=\"num\">median</th><th class=\"num\">p10</th><th class=\"num\">p90</th>"
      "<th class=\"num\">kernel speedup</th></tr>\n",
      escape(text_at(d, "why", "PyTorch's defaults differ")));
  for (const auto& [key, name] :
       {std::pair{"eager", "eager (PyTorch's defaults)"}, std::pair{"compile", "torch.compile (PyTorch's defaults)"}}) {
    const json m = field(d, key);
    const auto median = number_at(m, "median_us");
    auto cell = [](const std::optional<double>& us) { return us ? time_us(*us) : std::string("-"); };
    html += fmt::format(
        "<tr><th>{}</th><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>"
        "<td class=\"num\">{}</td></tr>\n",
        escape(name), median ? cell(median) : escape(text_at(m, "status", "not timed")), cell(number_at(m, "p10_us")),
        cell(number_at(m, "p90_us")), median && kernel_us ? ratio_x(*median / *kernel_us) : "-");
  }
  html += "</table>\n";
  const json e = field(d, "error");
  if (const auto err = number_at(e, "max_abs_err"))
    html += fmt::format(
        "<p>Their largest absolute error against the IEEE fp32 reference: {:.3g} (relative {:.3g}), "
        "{} the run's tolerance, over {} seeds.</p>\n",
        *err, number_at(e, "max_rel_err").value_or(0), e.value("within_tolerance", false) ? "within" : "beyond",
        static_cast<int>(number_at(e, "seeds_checked").value_or(0)));
  return html;
}

std::string kernel_block(const ProblemReport& p, bool source_open) {
  const json best = field(p.result, "best");
  if (!best.is_object()) return "";
  std::string html =
      fmt::format("<p>Candidate <b>{}</b> of the {} family; largest absolute error against the reference {}.</p>\n",
                  escape(text_at(best, "candidate", "?")), escape(text_at(best, "family", "?")),
                  number_at(best, "max_abs_err") ? fmt::format("{:.3g}", *number_at(best, "max_abs_err")) : "-");
  const json config = field(best, "config");
  if (config.is_object() && !config.empty()) {
    html += "<table class=\"config\">\n<tr><th>knob</th><th>value</th></tr>\n";
    for (const auto& [knob, value] : config.items())
      html += fmt::format("<tr><td class=\"mono\">{}</td><td class=\"mono\">{}</td></tr>\n", escape(knob),
                          escape(value.is_string() ? value.get<std::string>() : value.dump()));
    html += "</table>\n";
  }
  if (p.kernel_source) {
    html += fmt::format(
        "<details{}><summary>kernel.py ({} lines)</summary>\n<pre class=\"source\"><code>{}</code></pre>\n</details>\n",
        source_open ? " open" : "", std::count(p.kernel_source->begin(), p.kernel_source->end(), '\n'),
        escape(*p.kernel_source));
  } else {
    html += fmt::format("<p class=\"note\">The kernel's source is not shown: {}</p>\n",
                        escape(p.missing.empty() ? "no kernel.py beside result.json" : p.missing));
  }
  return html;
}

std::string warnings(const json& r) {
  const json w = field(r, "warnings");
  if (!w.is_array() || w.empty()) return "";
  std::string html = "<h3>Warnings</h3>\n<ul>\n";
  for (const auto& item : w)
    html += "<li>" + escape(item.is_string() ? item.get<std::string>() : item.dump()) + "</li>\n";
  return html + "</ul>\n";
}

}  // namespace

std::string problem_section(const ProblemReport& p, bool source_open) {
  const json& r = p.result;
  std::string html = fmt::format("<section class=\"problem\" id=\"{}\">\n", anchor_id(p.name));
  if (!r.is_object()) {
    html += fmt::format("<h2>{}</h2>\n<p class=\"fail\">No result: {}</p>\n</section>\n", escape(p.name),
                        escape(p.missing.empty() ? "result.json is missing" : p.missing));
    return html;
  }
  const std::string status = text_at(r, "status", "?");
  html += fmt::format("<h2>{} {}</h2>\n", escape(p.name), status_badge(status));
  if (status != "ok")
    html += fmt::format("<p class=\"fail\">The run ended with {}: {}</p>\n", escape(status),
                        escape(text_at(r, "message", "no message")));
  else
    html += verdict(r);
  html += "<h3>Conditions</h3>\n" + conditions_table(r);
  if (const std::string times = times_table(r); !times.empty())
    html += "<h3>Eager, torch.compile and the kernel</h3>\n" + times + timing_figure(r) + defaults_block(r);
  if (r.contains("roofline")) html += "<h3>Roofline</h3>\n" + roofline_figure(r);
  if (const std::string trials = trial_table(r); !trials.empty())
    html += "<h3>Search trajectory</h3>\n" + trajectory_figure(r) + "<div class=\"scroll\">\n" + trials + "</div>\n";
  if (const std::string diagnoses = diagnoses_section(r); !diagnoses.empty())
    html += "<h3>Diagnoses of the profiled candidates</h3>\n" + diagnoses;
  if (status == "ok") html += "<h3>The winning kernel</h3>\n" + kernel_block(p, source_open);
  html += warnings(r);
  return html + "</section>\n";
}

std::string problem_page(const ProblemReport& p) {
  const std::string body = "<h1>KernelAgent optimize report</h1>\n" + problem_section(p, true);
  return document(fmt::format("KernelAgent report: {}", p.name), body);
}

}  // namespace kernelagent::report
