#include "kernelagent/report/conditions.hpp"

#include <fmt/format.h>

#include "kernelagent/report/figures.hpp"
#include "kernelagent/report/html.hpp"

namespace kernelagent::report {

using nlohmann::json;

namespace {

// The strings of an array, joined by ", " (anything else written as JSON).
std::string joined(const json& items) {
  std::string out;
  if (!items.is_array()) return out;
  for (const auto& i : items) out += (out.empty() ? "" : ", ") + (i.is_string() ? i.get<std::string>() : i.dump());
  return out;
}

std::string shapes(const json& tensors) {
  std::string out;
  if (!tensors.is_array()) return out;
  for (const auto& t : tensors) {
    if (!out.empty()) out += ", ";
    if (text_at(t, "kind") != "tensor") {
      out += text_at(t, "kind", "value");
      continue;
    }
    std::string dims;
    for (const auto& d : field(t, "shape")) dims += (dims.empty() ? "" : "x") + d.dump();
    out += fmt::format("{}[{}]", text_at(t, "dtype"), dims);
  }
  return out;
}

std::string gpu_text(const json& result) {
  const json gpu = field(result, "gpu");
  if (!gpu.is_object())
    return result.value("interpreter", false) ? "none: Triton's interpreter on the CPU (correctness only)"
                                              : "none recorded";
  std::string text =
      fmt::format("{} (table entry {}{}; {} SMs, compute capability {}, L2 {})", text_at(gpu, "device_name"),
                  text_at(gpu, "name", "?"), gpu.value("from_table", false) ? "" : ", described from the device",
                  number_at(gpu, "sm_count").value_or(0), text_at(gpu, "compute_capability", "?"),
                  si(number_at(gpu, "l2_bytes").value_or(0), "B"));
  text += fmt::format("; DRAM {}", si(number_at(gpu, "dram_bytes_per_s").value_or(0), "B/s"));
  std::string peaks;
  for (const auto& [key, name] : {std::pair{"peak_fp32", "FP32"}, std::pair{"peak_tf32", "TF32"},
                                  std::pair{"peak_bf16", "BF16"}, std::pair{"peak_fp8", "FP8"}})
    if (const auto p = number_at(gpu, key); p && *p > 0)
      peaks += fmt::format("{}{} {}", peaks.empty() ? "" : ", ", name, si(*p, "FLOP/s"));
  if (!peaks.empty()) text += "; dense peaks " + peaks;
  return text;
}

std::string precision_text(const json& result) {
  const std::string policy = text_at(result, "precision", "?");
  std::string text = policy == "tf32"     ? "tf32 (TF32 tensor cores allowed)"
                     : policy == "strict" ? "strict (fp32 stays fp32-accurate; 3xTF32 allowed)"
                                          : policy;
  const json ref = field(result, "reference_precision");
  const json set = field(field(result, "baselines"), "settings");
  if (set.is_object())
    text += fmt::format("; the baselines: fp32 matmul precision '{}', cuDNN TF32 {}", text_at(set, "fp32_matmul", "?"),
                        set.value("cudnn_allow_tf32", false) ? "allowed" : "off");
  if (ref.is_object())
    text += fmt::format("; PyTorch's {}: fp32 matmul precision '{}', cuDNN TF32 {}",
                        set.is_object() ? "defaults" : "baselines", text_at(ref, "fp32_matmul", "?"),
                        ref.value("cudnn_allow_tf32", false) ? "allowed" : "off");
  return text;
}

std::string tolerance_text(const json& result) {
  const json tol = field(result, "tolerance");
  if (!tol.is_object()) return "-";
  const std::string seeds = joined(field(tol, "seeds"));
  return fmt::format("atol {:g}, rtol {:g}, on {} fresh input seeds ({})", number_at(tol, "atol").value_or(0),
                     number_at(tol, "rtol").value_or(0), field(tol, "seeds").size(), seeds);
}

std::string versions_text(const json& result) {
  const json v = field(result, "versions");
  if (!v.is_object()) return "-";
  return fmt::format("torch {}, triton {}, Python {}, CUDA {}", text_at(v, "torch", "?"), text_at(v, "triton", "?"),
                     text_at(v, "python", "?"), text_at(v, "cuda", "-"));
}

std::string timing_text(const json& result) {
  const json t = field(result, "timing");
  if (!t.is_object())
    return fmt::format("nothing timed{}", result.contains("note") ? ": " + text_at(result, "note") : std::string());
  std::string method = text_at(field(result, "best"), "method");
  if (method.empty()) method = text_at(field(field(result, "baselines"), "eager"), "method", "?");
  std::string text = fmt::format("{}; method {}{}", text_at(t, "harness"),
                                 method == "cuda_graph" ? "CUDA-graph replay"
                                 : method == "events"   ? "CUDA events"
                                                        : method,
                                 method == "cuda_graph" ? ""
                                                        : fmt::format(" (CUDA-graph replay below {:g} us)",
                                                                      number_at(t, "graph_below_us").value_or(0)));
  text += fmt::format("; final: {} rounds{} of at least {:g} ms each; search: at least {:g} ms per candidate",
                      number_at(t, "final_rounds").value_or(0),
                      t.value("interleaved", false) ? " interleaved with the baselines" : "",
                      number_at(t, "final_min_ms").value_or(0), number_at(t, "search_min_ms").value_or(0));
  if (const std::string names = joined(field(t, "finalists")); !names.empty()) text += "; finalists " + names;
  return text;
}

std::string search_text(const json& result) {
  const json s = field(result, "search");
  if (!s.is_object()) return "-";
  std::string text = fmt::format("{}: {} trials", text_at(s, "strategy", "?"), number_at(s, "trials_used").value_or(0));
  if (const auto resumed = number_at(s, "resumed"); resumed && *resumed > 0)
    text += fmt::format(" ({:g} resumed from the history, not measured again)", *resumed);
  text += fmt::format(" of a space of {:g}; stopped: {}", number_at(s, "space").value_or(0),
                      text_at(s, "stop_reason", "?"));
  if (const auto b = number_at(s, "budget")) text += fmt::format("; budget {:g}", *b);
  if (const auto p = number_at(s, "plateau")) text += fmt::format("; plateau {:g}", *p);
  if (const auto t = number_at(s, "target_us")) text += fmt::format("; target {}", time_us(*t));
  if (const auto b = number_at(s, "budget_s")) text += fmt::format("; {:g} s of search at most", *b);
  if (field(s, "warm_starts").is_array() && !field(s, "warm_starts").empty())
    text += fmt::format("; {} warm starts", field(s, "warm_starts").size());
  return text;
}

std::string run_text(const json& result) {
  std::string text;
  if (const auto id = number_at(result, "run_id"))
    text += fmt::format("run {:g} of {}", *id, text_at(result, "history", "?"));
  if (const auto e = number_at(result, "elapsed_s")) text += fmt::format("{}{:.1f} s", text.empty() ? "" : ", ", *e);
  const json stages = field(result, "stages");
  if (stages.is_array() && !stages.empty()) {
    std::string list;
    for (const auto& s : stages)
      list += fmt::format("{}{} {:.1f} s", list.empty() ? "" : ", ", text_at(s, "name"),
                          number_at(s, "seconds").value_or(0));
    text += " (" + list + ")";
  }
  return text.empty() ? "-" : text;
}

}  // namespace

std::string precision_against(const json& result) {
  // A result that says how its baselines ran (baselines.settings) is measured against those settings.
  const json set = field(field(result, "baselines"), "settings");
  if (set.is_object() && text_at(result, "dtype") == "float32")
    return fmt::format("{} kernel against baselines with fp32 matmul precision '{}' and TF32 convolutions {}",
                       text_at(result, "precision") == "tf32" ? "a TF32-allowed" : "an fp32-accurate",
                       text_at(set, "fp32_matmul", "?"), set.value("cudnn_allow_tf32", false) ? "on" : "off");
  const json ref = field(result, "reference_precision");
  if (!ref.is_object() || text_at(result, "dtype") != "float32") return "";
  const std::string fp32 = text_at(ref, "fp32_matmul", "?");
  return fmt::format("{} kernel against PyTorch's fp32 matmul precision '{}'{}",
                     text_at(result, "precision") == "tf32" ? "a TF32-allowed" : "an fp32-accurate", fp32,
                     fp32 == "highest" ? " (IEEE fp32)" : "");
}

std::string conditions_table(const json& result) {
  const json problem = field(result, "problem");
  const std::string ops = joined(field(problem, "ops"));
  const std::vector<std::pair<std::string, std::string>> rows = {
      {"problem", fmt::format("{} ({})", text_at(problem, "name", "?"), text_at(problem, "path", "?"))},
      {"inputs", shapes(field(problem, "inputs"))},
      {"outputs", shapes(field(problem, "outputs"))},
      {"aten ops", ops},
      {"GPU", gpu_text(result)},
      {"dtype", text_at(result, "dtype", "?")},
      {"precision policy", precision_text(result)},
      {"tolerance", tolerance_text(result)},
      {"versions", versions_text(result)},
      {"timing", timing_text(result)},
      {"family",
       fmt::format("{} (source hash {})", text_at(result, "family", "-"), text_at(result, "family_hash", "-"))},
      {"search", search_text(result)},
      {"run", run_text(result)},
  };
  std::string html = "<table class=\"conditions\">\n";
  for (const auto& [name, value] : rows)
    html += fmt::format("<tr><th>{}</th><td>{}</td></tr>\n", escape(name), escape(value.empty() ? "-" : value));
  return html + "</table>\n";
}

}  // namespace kernelagent::report
