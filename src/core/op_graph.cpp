#include "kernelagent/core/op_graph.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <fmt/format.h>

namespace kernelagent {

using nlohmann::json;

std::int64_t TensorMeta::numel() const {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

bool TensorMeta::contiguous() const {
  if (stride.empty()) return true;
  if (stride.size() != shape.size()) return false;
  std::int64_t expected = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    if (shape[i] != 1 && stride[i] != expected) return false;
    expected *= shape[i];
  }
  return true;
}

namespace {

// A node with several results (e.g. aten.var_mean) has null shape and dtype; its getitem nodes carry them.
TensorMeta meta_from_json(const json& j) {
  TensorMeta m;
  auto field = [&](const char* key) { return j.contains(key) && !j.at(key).is_null(); };
  if (field("shape")) m.shape = j.at("shape").get<std::vector<std::int64_t>>();
  if (field("dtype")) m.dtype = j.at("dtype").get<std::string>();
  if (field("stride")) m.stride = j.at("stride").get<std::vector<std::int64_t>>();
  return m;
}

Arg arg_from_json(const json& j) {
  Arg a;
  if (j.contains("ref")) {
    a.kind = Arg::Kind::ref;
    a.ref = j.at("ref").get<std::string>();
  } else if (j.contains("list")) {
    a.kind = Arg::Kind::list;
    for (const auto& item : j.at("list")) a.items.push_back(arg_from_json(item));
  } else if (j.contains("value")) {
    a.kind = Arg::Kind::value;
    a.value = j.at("value");
  } else {
    throw std::runtime_error("trace: an argument is neither ref, value nor list: " + j.dump());
  }
  return a;
}

}  // namespace

bool Arg::is_number() const {
  if (kind != Kind::value) return false;
  if (value.is_number()) return true;
  return value.is_string() && (value == "nan" || value == "inf" || value == "-inf");
}

double Arg::number() const {
  if (value.is_number()) return value.get<double>();
  if (value == "nan") return std::numeric_limits<double>::quiet_NaN();
  return value == "inf" ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
}

std::optional<Arg> Node::arg(std::size_t i, std::string_view kw) const {
  if (i < args.size()) return args[i];
  if (kwargs.is_object() && kwargs.contains(std::string(kw))) return arg_from_json(kwargs.at(std::string(kw)));
  return std::nullopt;
}

namespace {

// aten ops that may return a view of their first argument (or are not plain computations): an in-place op
// on their result would also change the tensor they view.
bool may_be_a_view(std::string_view target) {
  static const char* const views[] = {
      "view", "_unsafe_view", "reshape", "slice", "select", "expand", "permute", "transpose", "t", "unsqueeze",
      "squeeze", "as_strided", "alias", "diagonal", "narrow", "unfold", "split", "split_with_sizes", "chunk",
      "unbind", "detach", "view_as", "expand_as", "movedim", "flatten", "unflatten", "_reshape_alias", "T"};
  if (target.rfind("aten.", 0) != 0) return true;  // operator.getitem and anything else outside aten
  target.remove_prefix(5);
  const std::string_view base = target.substr(0, target.find('.'));
  for (const char* v : views)
    if (base == v) return true;
  return false;
}

}  // namespace

// make_fx keeps a model's in-place ops (`x.add_(eps)`, `torch.relu_(x)`) and names their result as a new
// node, which every later reader of the tensor refers to. Where the tensor changed in place is a fresh
// intermediate (not an input, a parameter or a view of another tensor), the op is its out-of-place form,
// and is written so that the families, which know the out-of-place forms, see it. Where it is a graph input
// itself (nn.ReLU(inplace=True) on the forward's argument), so is the op, and written_inputs says which node's
// value the input must hold afterwards: a family that writes it there (or refuses) keeps the reference's
// semantics. copy_, fill_ and zero_ differ from their out-of-place forms (or have none) and are left alone.
void functional_in_place_ops(OpGraph& g) {
  std::set<std::string> fresh;  // nodes whose values are their own storage
  std::map<std::string, std::string> input_of;  // a graph input, or an in-place result on one -> the input
  for (const auto& in : g.inputs)
    if (in.is_tensor) input_of[in.name] = in.name;
  for (auto& n : g.nodes) {
    const std::string_view t = n.target;
    const auto dot = t.find('.', 5);
    if (t.rfind("aten.", 0) == 0 && dot != std::string_view::npos && dot > 6 && t[dot - 1] == '_' &&
        t[dot - 2] != '_') {
      const std::string base(t.substr(5, dot - 6));
      const bool exempt = base == "copy" || base == "fill" || base == "zero" || base == "set" || base == "resize";
      const std::string target = n.args.empty() || n.args[0].kind != Arg::Kind::ref ? "" : n.args[0].ref;
      if (!exempt && input_of.contains(target)) {
        n.target = "aten." + base + std::string(t.substr(dot));
        g.written_inputs[input_of.at(target)] = n.name;
        input_of[n.name] = input_of.at(target);
        continue;
      }
      if (!exempt && fresh.count(target)) n.target = "aten." + base + std::string(t.substr(dot));
    }
    if (!may_be_a_view(n.target)) fresh.insert(n.name);
  }
}

OpGraph OpGraph::from_json(const json& j) {
  OpGraph g;
  for (const auto& in : j.at("inputs")) {
    GraphInput gi;
    gi.name = in.at("name").get<std::string>();
    gi.is_tensor = in.value("kind", std::string("tensor")) == "tensor";
    if (gi.is_tensor) gi.meta = meta_from_json(in);
    else gi.value = in.value("value", json());
    g.inputs.push_back(std::move(gi));
  }
  for (const auto& c : j.value("constants", json::array())) {
    Constant k;
    k.name = c.at("name").get<std::string>();
    k.meta = meta_from_json(c);
    if (c.contains("value") && c.at("value").is_number()) k.value = c.at("value").get<double>();
    k.param = c.value("param", std::string());
    k.kind = c.value("kind", std::string(k.param.empty() ? "constant" : "parameter"));
    if (c.contains("fill") && c.at("fill").is_number()) k.fill = c.at("fill").get<double>();
    g.constants.push_back(std::move(k));
  }
  for (const auto& c : j.value("state", json::array())) {
    Constant k;
    k.meta = meta_from_json(c);
    k.param = c.value("param", std::string());
    k.kind = c.value("kind", std::string("parameter"));
    if (!k.param.empty()) g.state.push_back(std::move(k));
  }
  for (const auto& n : j.at("nodes")) {
    Node node;
    node.name = n.at("name").get<std::string>();
    node.target = n.at("target").get<std::string>();
    for (const auto& a : n.value("args", json::array())) node.args.push_back(arg_from_json(a));
    node.kwargs = n.value("kwargs", json::object());
    node.meta = meta_from_json(n);
    g.nodes.push_back(std::move(node));
  }
  for (const auto& o : j.at("outputs")) g.outputs.push_back(o.at("ref").get<std::string>());
  functional_in_place_ops(g);
  // rrelu outside training ignores its noise buffer (an empty_like): without the reference, that node is
  // dead and no family is asked to compute uninitialised memory.
  for (auto& n : g.nodes)
    if (n.target == "aten.rrelu_with_noise.default" && n.args.size() >= 2 && !rrelu_training(n)) n.args[1] = Arg{};
  return g;
}

const Node* OpGraph::find_node(std::string_view name) const {
  auto it = std::find_if(nodes.begin(), nodes.end(), [&](const Node& n) { return n.name == name; });
  return it == nodes.end() ? nullptr : &*it;
}

std::set<std::string> OpGraph::ancestors(const std::vector<std::string>& names) const {
  std::set<std::string> out;
  std::vector<std::string> todo = names;
  while (!todo.empty()) {
    const std::string ref = todo.back();
    todo.pop_back();
    const Node* n = find_node(ref);
    if (!n || !out.insert(ref).second) continue;
    std::vector<const Arg*> args;
    for (const auto& a : n->args) args.push_back(&a);
    while (!args.empty()) {
      const Arg* a = args.back();
      args.pop_back();
      if (a->kind == Arg::Kind::ref) todo.push_back(a->ref);
      for (const auto& item : a->items) args.push_back(&item);
    }
  }
  return out;
}

const GraphInput* OpGraph::find_input(std::string_view name) const {
  auto it = std::find_if(inputs.begin(), inputs.end(), [&](const GraphInput& n) { return n.name == name; });
  return it == inputs.end() ? nullptr : &*it;
}

const Constant* OpGraph::find_constant(std::string_view name) const {
  auto it = std::find_if(constants.begin(), constants.end(), [&](const Constant& n) { return n.name == name; });
  return it == constants.end() ? nullptr : &*it;
}

std::optional<TensorMeta> OpGraph::meta_of(std::string_view ref) const {
  if (const auto* n = find_node(ref)) return n->meta;
  if (const auto* i = find_input(ref); i && i->is_tensor) return i->meta;
  if (const auto* c = find_constant(ref)) return c->meta;
  return std::nullopt;
}

std::vector<std::string> OpGraph::targets() const {
  std::vector<std::string> out;
  for (const auto& n : nodes)
    if (std::find(out.begin(), out.end(), n.target) == out.end()) out.push_back(n.target);
  return out;
}

bool rrelu_training(const Node& n) {
  auto training = n.arg(4, "training");
  return training && training->kind == Arg::Kind::value && training->value.is_boolean() && training->value.get<bool>();
}

std::string OpGraph::random_target() const {
  // aten's random ops by their base name ("aten.bernoulli_.float" -> "bernoulli"); an in-place form ends in '_'.
  static const std::set<std::string> random_ops = {
      "bernoulli", "rand", "rand_like", "randn", "randn_like", "randint", "randint_like", "randperm",
      "normal", "uniform", "exponential", "geometric", "cauchy", "log_normal", "multinomial",
      "native_dropout", "dropout", "feature_dropout", "alpha_dropout", "rrelu_with_noise"};
  for (const auto& n : nodes) {
    std::string_view t = n.target;
    if (t.rfind("aten.", 0) != 0) continue;
    t.remove_prefix(5);
    std::string base(t.substr(0, t.find('.')));
    if (!base.empty() && base.back() == '_') base.pop_back();
    if (base == "rrelu_with_noise" && !rrelu_training(n)) continue;  // random only in training
    if (random_ops.count(base)) return n.target;
  }
  return {};
}

TraceResult TraceResult::from_json(const json& reply) {
  TraceResult t;
  t.graph = OpGraph::from_json(reply.at("graph"));
  t.flops = reply.value("flops", 0.0);
  t.input_bytes = reply.value("input_bytes", std::int64_t{0});
  t.output_bytes = reply.value("output_bytes", std::int64_t{0});
  return t;
}

std::string TraceResult::signature() const {
  std::string s;
  for (const auto& in : graph.inputs) {
    if (!in.is_tensor) {
      s += fmt::format("{}={};", in.name, in.value.dump());
      continue;
    }
    s += fmt::format("{}:{}[{}];", in.name, in.meta.dtype, fmt::join(in.meta.shape, "x"));
  }
  for (const auto& n : graph.nodes) s += n.target + ";";
  return s;
}

bool is_none(const std::optional<Arg>& a) { return !a || (a->kind == Arg::Kind::value && a->value.is_null()); }

std::optional<std::int64_t> int_arg(const Node& node, std::size_t i, std::string_view kw) {
  auto a = node.arg(i, kw);
  if (!a || !a->is_number()) return std::nullopt;
  return static_cast<std::int64_t>(a->number());
}

}  // namespace kernelagent
