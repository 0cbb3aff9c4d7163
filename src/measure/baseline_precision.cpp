#include "kernelagent/measure/baseline_precision.hpp"

#include <fmt/format.h>

#include <set>
#include <vector>

namespace kernelagent {

using nlohmann::json;

namespace {

// "aten.convolution.default" -> "convolution".
std::string op_name(const std::string& target) {
  std::string name = target.starts_with("aten.") ? target.substr(5) : target;
  if (const auto dot = name.find('.'); dot != std::string::npos) name.resize(dot);
  return name;
}

// The ops cuDNN runs (cudnn.allow_tf32 decides their fp32 math) and the ones cuBLAS runs as a matrix product
// (float32_matmul_precision decides theirs), as a trace names them.
bool is_convolution(const std::string& op) {
  return op.find("convolution") != std::string::npos || op.starts_with("conv");
}

bool is_product(const std::string& op) {
  static const std::set<std::string> products = {"mm",     "bmm",    "addmm",     "baddbmm", "addbmm",
                                                 "matmul", "linear", "tensordot", "einsum"};
  return products.contains(op) || op.find("scaled_dot_product") != std::string::npos;
}

}  // namespace

json baseline_settings(Precision policy) {
  return policy == Precision::strict ? json{{"fp32_matmul", "highest"}, {"cudnn_allow_tf32", false}}
                                     : json{{"fp32_matmul", "high"}, {"cudnn_allow_tf32", true}};
}

std::optional<std::string> pytorch_default_differs(Precision policy, const json& defaults, const OpGraph& graph,
                                                   const std::string& dtype) {
  if (dtype != "float32" || !defaults.is_object()) return std::nullopt;
  bool convolution = false, product = false;
  for (const auto& target : graph.targets()) {
    const std::string op = op_name(target);
    convolution |= is_convolution(op);
    product |= is_product(op);
  }
  const json mine = baseline_settings(policy);
  std::vector<std::string> why;
  const auto cudnn = defaults.find("cudnn_allow_tf32");
  if (convolution && cudnn != defaults.end() && cudnn->is_boolean() && *cudnn != mine.at("cudnn_allow_tf32"))
    why.push_back(cudnn->get<bool>() ? "runs fp32 convolutions on TF32 tensor cores (cudnn.allow_tf32 is True)"
                                     : "runs fp32 convolutions in IEEE fp32 (cudnn.allow_tf32 is False)");
  const auto matmul = defaults.find("fp32_matmul");
  if (product && matmul != defaults.end() && matmul->is_string() &&
      (*matmul == "highest") != (mine.at("fp32_matmul") == "highest"))
    why.push_back(*matmul == "highest"
                      ? "runs fp32 products in IEEE fp32 (float32_matmul_precision 'highest')"
                      : fmt::format("runs fp32 products on TF32 tensor cores (float32_matmul_precision '{}')",
                                    matmul->get<std::string>()));
  if (why.empty()) return std::nullopt;
  return fmt::format("PyTorch's default {}", fmt::join(why, " and "));
}

}  // namespace kernelagent
