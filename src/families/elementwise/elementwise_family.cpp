#include "kernelagent/families/elementwise/elementwise_family.hpp"

#include <map>
#include <set>

#include <fmt/format.h>

#include "kernelagent/core/hash.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/families/elementwise/pointwise_ops.hpp"

namespace kernelagent {

using nlohmann::json;

namespace {

bool float_dtype(const std::string& dt) {
  return dt == "float32" || dt == "float16" || dt == "bfloat16" || dt == "float64";
}

std::string compute_dtype(const TraceResult& trace) {
  for (const auto& in : trace.graph.inputs)
    if (in.is_tensor && in.meta.dtype == "float64") return "tl.float64";
  return "tl.float32";
}

std::string var_of(const std::string& ref) { return "v_" + ref; }

// The number of elements every tensor of the problem has (the output's).
std::int64_t problem_numel(const TraceResult& trace) {
  auto meta = trace.graph.meta_of(trace.graph.outputs.front());
  return meta ? meta->numel() : 0;
}

}  // namespace

ElementwiseFamily::ElementwiseFamily(const std::filesystem::path& dir) {
  FamilyFiles files = FamilyFiles::read(dir);
  space_ = std::move(files.space);
  template_ = files.templates.at("template");
  hash_ = files.hash;
}

std::int64_t ElementwiseFamily::block_of(const Config& c) {
  return 32 * c.at("num_warps").get<std::int64_t>() * c.at("elems_per_thread").get<std::int64_t>();
}

std::optional<std::string> ElementwiseFamily::why_not(const TraceResult& trace) const {
  const OpGraph& g = trace.graph;
  if (g.outputs.empty()) return "the problem has no outputs";
  if (g.nodes.empty()) return "the reference computes nothing (it returns its inputs)";
  const std::int64_t n = problem_numel(trace);
  for (const auto& node : g.nodes) {
    if (node.meta.numel() != n) return fmt::format("{} ({}) changes the element count", node.name, node.target);
    if (is_identity_view(node.target)) continue;
    OperandFn any = [](const Arg&) -> std::optional<std::string> { return "x"; };
    auto e = pointwise_expr(node, any, "tl.float32");
    if (e.expr.empty()) return e.why_not;
  }
  for (const auto& in : g.inputs) {
    if (!in.is_tensor) continue;
    if (!float_dtype(in.meta.dtype)) return fmt::format("input {} has dtype {}: only floating-point inputs are fused", in.name, in.meta.dtype);
    if (in.meta.numel() != n) return fmt::format("input {} has {} elements and the output {}: broadcasting is not supported by the elementwise family", in.name, in.meta.numel(), n);
    if (!in.meta.contiguous()) return fmt::format("input {} is not contiguous", in.name);
  }
  for (const auto& c : g.constants)
    if (!c.value) return fmt::format("the model holds a tensor constant {} of shape [{}]: only 0-d constants fold into the kernel", c.name, fmt::join(c.meta.shape, ","));
  for (const auto& out : g.outputs)
    if (!g.find_node(out)) return fmt::format("output {} is not computed by the graph (it is an input or a constant)", out);
  return std::nullopt;
}

bool ElementwiseFamily::valid(const Config& config, const TraceResult& trace, const GpuSpec*, Precision) const {
  const std::int64_t block = block_of(config);
  if (block > 65536) return false;
  // A program far larger than the problem is mostly mask; keep the smallest block that covers it.
  const std::int64_t n = problem_numel(trace);
  return block <= std::max<std::int64_t>(pow2_at_least(n), 32 * config.at("num_warps").get<std::int64_t>() * 4);
}

std::string ElementwiseFamily::emit(const TraceResult& trace, const Config& config, const EmitContext& ctx) const {
  if (auto why = why_not(trace)) throw std::runtime_error("elementwise family cannot emit this problem: " + *why);
  const OpGraph& g = trace.graph;
  const std::string compute = compute_dtype(trace);
  const std::int64_t n = problem_numel(trace);
  const std::int64_t block = block_of(config);
  const bool evict_first = config.at("eviction").get<std::string>() == "evict_first";

  // Which graph inputs the kernel reads: those some node uses.
  std::set<std::string> used;
  for (const auto& node : g.nodes) {
    std::function<void(const Arg&)> mark = [&](const Arg& a) {
      if (a.kind == Arg::Kind::ref) used.insert(a.ref);
      for (const auto& item : a.items) mark(item);
    };
    for (const auto& a : node.args) mark(a);
  }

  std::string kernel_params, launch_args, loads, body, stores, allocs, ret;
  std::string first_tensor;
  std::map<std::string, std::string> alias;  // identity views: node -> the ref it re-views
  for (const auto& in : g.inputs) {
    if (!in.is_tensor) continue;
    if (first_tensor.empty()) first_tensor = in.name;
    if (!used.contains(in.name)) continue;
    kernel_params += in.name + "_ptr, ";
    launch_args += in.name + ", ";
    loads += fmt::format("    {} = tl.load({}_ptr + offsets, mask=mask{}).to({})\n", var_of(in.name), in.name,
                         evict_first ? ", eviction_policy=\"evict_first\"" : "", compute);
  }

  OperandFn operand = [&](const Arg& a) -> std::optional<std::string> {
    if (a.kind != Arg::Kind::ref) return std::nullopt;
    std::string ref = a.ref;
    while (alias.contains(ref)) ref = alias.at(ref);
    if (const auto* c = g.find_constant(ref); c && c->value) return float_literal(*c->value);
    if (g.find_input(ref) || g.find_node(ref)) return var_of(ref);
    return std::nullopt;
  };
  for (const auto& node : g.nodes) {
    if (is_identity_view(node.target)) {
      alias[node.name] = node.args.at(0).ref;
      continue;
    }
    auto e = pointwise_expr(node, operand, compute);
    body += fmt::format("    {} = {}  # {}\n", var_of(node.name), e.expr, node.target);
  }

  std::vector<std::string> outs;
  for (std::size_t i = 0; i < g.outputs.size(); ++i) {
    std::string ref = g.outputs[i];
    const auto meta = *g.meta_of(ref);
    while (alias.contains(ref)) ref = alias.at(ref);
    const std::string out = fmt::format("out{}", i);
    kernel_params += out + "_ptr, ";
    launch_args += out + ", ";
    stores += fmt::format("    tl.store({0}_ptr + offsets, {1}.to({0}_ptr.dtype.element_ty), mask=mask)\n", out,
                          var_of(ref));
    allocs += fmt::format("        {} = torch.empty(({}{}), dtype=torch.{}, device={}.device)\n", out,
                          fmt::join(meta.shape, ", "), meta.shape.size() == 1 ? "," : "", meta.dtype, first_tensor);
    outs.push_back(out);
  }
  ret = outs.size() == 1 ? outs.front() : "(" + fmt::format("{}", fmt::join(outs, ", ")) + ")";

  // Offsets past 2^31 need 64-bit arithmetic; below that 32-bit is cheaper.
  const bool wide = n + block >= (std::int64_t{1} << 31);
  auto strip = [](std::string s) {
    while (!s.empty() && s.back() == '\n') s.pop_back();
    return s;
  };
  return fill_template(template_, {
      {"PROBLEM", ctx.problem_label},
      {"CONFIG", config.dump()},
      {"KERNEL_PARAMS", kernel_params},
      {"PROGRAM_START", wide ? "pid.to(tl.int64) * BLOCK" : "pid * BLOCK"},
      {"LOADS", strip(loads)},
      {"BODY", strip(body)},
      {"STORES", strip(stores)},
      {"FORWARD_PARAMS", forward_params(g)},
      {"FORWARD_CHECKS", forward_guards(g)},
      {"ALLOCS", strip(allocs)},
      {"NUMEL_OF", outs.front()},
      {"BLOCK", std::to_string(block)},
      {"LAUNCH_ARGS", launch_args},
      {"NUM_WARPS", std::to_string(config.at("num_warps").get<int>())},
      {"RETURN", ret},
  });
}

}  // namespace kernelagent
