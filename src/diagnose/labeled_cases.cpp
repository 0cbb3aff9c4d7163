#include "kernelagent/diagnose/labeled_cases.hpp"

#include <fstream>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "kernelagent/core/template.hpp"

namespace kernelagent {

std::vector<LabeledCase> load_labeled_cases(const std::filesystem::path& labels_json) {
  std::ifstream in(labels_json);
  if (!in) throw std::runtime_error("cannot read " + labels_json.string());
  auto j = nlohmann::json::parse(in);
  std::vector<LabeledCase> cases;
  for (const auto& c : j.at("cases")) {
    LabeledCase l;
    l.file = c.at("file").get<std::string>();
    l.kernel = c.value("kernel", std::string());
    if (c.contains("bytes")) l.facts.compulsory_bytes = c.at("bytes").get<double>();
    if (c.contains("input_bytes")) l.facts.input_bytes = c.at("input_bytes").get<double>();
    if (c.contains("flops")) l.facts.flops = c.at("flops").get<double>();
    l.facts.matrix_product = c.value("matmul", false);
    l.category = c.at("category").get<std::string>();
    l.cause = c.at("cause").get<std::string>();
    l.source = c.value("source", l.source);
    l.family = c.value("family", std::string());
    l.at_roofline = c.at("at_roofline").get<bool>();
    cases.push_back(std::move(l));
  }
  return cases;
}

std::vector<LoadedCase> load_case_profiles(const std::filesystem::path& labels_json) {
  std::vector<LoadedCase> out;
  for (const auto& label : load_labeled_cases(labels_json)) {
    NcuReport report = parse_ncu_raw_csv(read_text_file(labels_json.parent_path() / label.file));
    auto kernels = select_kernels(report, label.kernel, true);
    if (kernels.size() != 1)
      throw std::runtime_error(label.file + ": kernel regex '" + label.kernel + "' selects " +
                               std::to_string(kernels.size()) + " kernels, not one");
    const KernelProfile& k = *kernels.front();
    std::string warning;
    GpuSpec gpu = describe_gpu({{"name", k.device_name.empty() ? "unknown GPU" : k.device_name}}, &warning);
    out.push_back({label, k, std::move(gpu)});
  }
  return out;
}

CaseResult diagnose_case(const LoadedCase& c, const DiagnosisThresholds& thresholds) {
  CaseResult r{c.label, diagnose_kernel(c.kernel, c.gpu, c.label.facts, thresholds), "", ""};
  if (!r.diagnosis.bottlenecks.empty()) r.top1 = r.diagnosis.bottlenecks[0].cause;
  if (r.diagnosis.bottlenecks.size() > 1) r.top2 = r.diagnosis.bottlenecks[1].cause;
  return r;
}

std::vector<CaseResult> run_labeled_cases(const std::filesystem::path& labels_json) {
  std::vector<CaseResult> out;
  for (const auto& c : load_case_profiles(labels_json)) out.push_back(diagnose_case(c));
  return out;
}

}  // namespace kernelagent
