#include "kernelagent/core/layout_ops.hpp"

#include <map>
#include <set>

namespace kernelagent {

namespace {

// aten ops that return their first argument's elements in another shape or order (a view, or a copy to a
// layout), computing nothing.
const std::set<std::string, std::less<>>& layout_targets() {
  static const std::set<std::string, std::less<>> t = {
      "aten.view.default",     "aten._unsafe_view.default", "aten.reshape.default",  "aten.permute.default",
      "aten.transpose.int",    "aten.t.default",            "aten.unsqueeze.default", "aten.squeeze.dim",
      "aten.squeeze.dims",     "aten.squeeze.default",      "aten.expand.default",   "aten.clone.default",
      "aten.alias.default",    "aten.as_strided.default",   "aten.flatten.using_ints", "aten.unflatten.int",
      "aten.movedim.int",      "aten.slice.Tensor",         "aten.select.int",       "aten.narrow.default"};
  return t;
}

// The refs a node reads, positional and keyword.
void refs_of(const Arg& a, std::vector<std::string>& out) {
  if (a.kind == Arg::Kind::ref) out.push_back(a.ref);
  for (const auto& item : a.items) refs_of(item, out);
}

void refs_of_json(const nlohmann::json& j, std::vector<std::string>& out) {
  if (j.is_object()) {
    if (j.contains("ref") && j.at("ref").is_string()) out.push_back(j.at("ref").get<std::string>());
    for (const auto& [k, v] : j.items())
      if (k != "ref") refs_of_json(v, out);
  } else if (j.is_array()) {
    for (const auto& v : j) refs_of_json(v, out);
  }
}

std::vector<std::string> reads(const Node& n) {
  std::vector<std::string> out;
  for (const auto& a : n.args) refs_of(a, out);
  refs_of_json(n.kwargs, out);
  return out;
}

// The ref of a layout node's source, the one tensor it reads; empty if it reads another.
std::string source_of(const Node& n) {
  const auto r = reads(n);
  if (r.size() != 1 || n.args.empty() || n.args[0].kind != Arg::Kind::ref) return "";
  return r.front();
}

}  // namespace

bool is_layout_op(const Node& node) { return layout_targets().contains(node.target) && !source_of(node).empty(); }

namespace {

std::optional<TraceResult> core_of(const TraceResult& trace, bool contiguous, bool move_ops) {
  const OpGraph& g = trace.graph;
  if (g.outputs.size() != 1 || !g.written_inputs.empty()) return std::nullopt;
  std::map<std::string, int> uses;
  for (const auto& n : g.nodes)
    for (const auto& r : reads(n)) ++uses[r];
  for (const auto& o : g.outputs) ++uses[o];

  // After: from the output back while each node is a layout op of a node that nothing else reads.
  std::vector<const Node*> after;
  std::string core_output = g.outputs.front();
  for (const Node* n = g.find_node(core_output); move_ops && n && is_layout_op(*n);) {
    const Node* src = g.find_node(source_of(*n));
    if (!src || uses[src->name] != 1) break;
    after.insert(after.begin(), n);
    core_output = src->name;
    n = src;
  }
  // The output is an input, or a layout op that stays (of an input, or of a value read elsewhere too): no
  // computation for a family to take alone.
  const Node* core_out = g.find_node(core_output);
  if (!core_out || (move_ops && is_layout_op(*core_out))) return std::nullopt;

  // Before: layout ops whose source is an input or another such op (not the core's output).
  std::set<std::string> before_names;
  std::vector<const Node*> before;
  std::set<std::string> after_names;
  for (const Node* n : after) after_names.insert(n->name);
  for (const auto& n : g.nodes) {
    if (!move_ops || after_names.contains(n.name) || n.name == core_output || !is_layout_op(n)) continue;
    const std::string src = source_of(n);
    const GraphInput* in = g.find_input(src);
    if ((in && in->is_tensor) || before_names.contains(src)) {
      before_names.insert(n.name);
      before.push_back(&n);
    }
  }

  // The core: every other node; its inputs are the graph inputs and the layout nodes it reads, in order of
  // first read.
  TraceResult core = trace;
  core.graph.nodes.clear();
  core.graph.inputs.clear();
  core.graph.outputs = {core_output};
  auto around = std::make_shared<LayoutAround>();
  around->original = g;
  std::set<std::string> taken;
  auto take_input = [&](const std::string& ref) {
    if (!taken.insert(ref).second) return;
    GraphInput in;
    if (const GraphInput* gi = g.find_input(ref)) {
      in = *gi;
    } else {
      in.name = ref;
      in.meta = g.find_node(ref)->meta;
    }
    // A layout node's strides are not traced (its meta reads as contiguous): the wrapper makes sure it is.
    const bool unknown = !g.find_input(ref) && in.meta.stride.empty();
    if (in.is_tensor && (unknown || (contiguous && !in.meta.contiguous()))) {
      in.meta.stride.clear();  // read as its contiguous copy
      around->made_contiguous.push_back(ref);
    }
    core.graph.inputs.push_back(std::move(in));
    around->core_inputs.push_back(ref);
  };
  for (const auto& n : g.nodes) {
    if (before_names.contains(n.name) || after_names.contains(n.name)) continue;
    for (const auto& r : reads(n))
      if (before_names.contains(r) || g.find_input(r)) take_input(r);
    core.graph.nodes.push_back(n);
  }
  // Non-tensor inputs the core does not read stay the forward's: only the wrapper passes them on.
  if (core.graph.nodes.empty()) return std::nullopt;
  if (before.empty() && after.empty() && around->made_contiguous.empty()) return std::nullopt;
  for (const Node* n : before) around->before.push_back(*n);
  for (const Node* n : after) around->after.push_back(*n);
  around->core_output = core_output;
  core.around = std::move(around);
  return core;
}

}  // namespace

std::optional<TraceResult> layout_core(const TraceResult& trace, bool contiguous) {
  return core_of(trace, contiguous, true);
}

std::optional<TraceResult> with_contiguous_inputs(const TraceResult& trace) { return core_of(trace, true, false); }

}  // namespace kernelagent
