#include "kernelagent/families/common/batch_norm_eval.hpp"

#include <fmt/format.h>

namespace kernelagent {

bool is_batch_norm_eval(const Node& n) {
  if (n.target == "aten._native_batch_norm_legit_no_training.default") return true;
  if (n.target != "aten.native_batch_norm.default") return false;
  auto training = n.arg(5, "training");
  return training && training->kind == Arg::Kind::value && training->value.is_boolean() && !training->value.get<bool>();
}

PointwiseExpr batch_norm_eval_expr(const Node& n, const std::string& x,
                                   const std::function<std::optional<std::string>(std::size_t, std::string_view)>& channel) {
  const bool legit = n.target == "aten._native_batch_norm_legit_no_training.default";
  auto eps = n.arg(legit ? 6 : 7, "eps");
  if (!eps || !eps->is_number()) return {"", n.name + " (batch_norm): eps is not a constant"};
  auto mean = channel(3, "running_mean"), var = channel(4, "running_var");
  if (!mean || !var)
    return {"", n.name + " (batch_norm) in evaluation mode reads running statistics that are not [C] tensors of the module"};
  std::string e = fmt::format("(({} - {}) * tl.rsqrt({} + {}))", x, *mean, *var, float_literal(eps->number()));
  auto absent = [&](std::size_t i, std::string_view kw) { return is_none(n.arg(i, kw)); };
  if (!absent(1, "weight")) {
    auto w = channel(1, "weight");
    if (!w) return {"", n.name + " (batch_norm): its weight is not a [C] tensor"};
    e = fmt::format("({} * {})", e, *w);
  }
  if (!absent(2, "bias")) {
    auto b = channel(2, "bias");
    if (!b) return {"", n.name + " (batch_norm): its bias is not a [C] tensor"};
    e = fmt::format("({} + {})", e, *b);
  }
  return {e, ""};
}

}  // namespace kernelagent
