#include "kernelagent/families/model_wrapper.hpp"

#include <set>

#include <fmt/format.h>

#include "kernelagent/core/layout_ops.hpp"
#include "kernelagent/families/common/pointwise_ops.hpp"

namespace kernelagent {

namespace {

// A Python literal of a JSON scalar: numbers round-trip, strings are quoted (JSON escapes are Python's).
std::string py_literal(const nlohmann::json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  if (v.is_null()) return "None";
  if (v.is_number_float()) return float_literal(v.get<double>());
  return v.dump();
}

std::string fill_literal(double fill, const std::string& dtype) {
  if (dtype == "bool") return fill != 0 ? "True" : "False";
  if (dtype.starts_with("int") || dtype.starts_with("uint")) return fmt::format("{}", static_cast<long long>(fill));
  return float_literal(fill);
}

std::string guard(const GraphInput& in) {
  if (!in.is_tensor) {
    const std::string lit = py_literal(in.value);
    return fmt::format(
        "        if {0} != {1}:\n"
        "            raise ValueError(\"this kernel was specialised for {0} == \" + repr({1}))\n",
        in.name, lit);
  }
  const std::string shape = py_tuple(in.meta.shape);
  if (in.meta.contiguous())
    return fmt::format(
        "        if tuple({0}.shape) != {1} or {0}.dtype != torch.{2} or not {0}.is_contiguous():\n"
        "            raise ValueError(\"this kernel was specialised for {0} of shape {1}, dtype {2}, contiguous\")\n",
        in.name, shape, in.meta.dtype);
  const std::string stride = py_tuple(in.meta.stride);
  return fmt::format(
      "        if tuple({0}.shape) != {1} or {0}.dtype != torch.{2} or {0}.stride() != {3}:\n"
      "            raise ValueError(\"this kernel was specialised for {0} of shape {1}, dtype {2}, stride {3}\")\n",
      in.name, shape, in.meta.dtype, stride);
}

// Lines that create the parameter or buffer `c` under its dotted name, making the submodules on its path.
// `note`: the comment above it; by default, where its values come from.
std::string own(const Constant& c, std::set<std::string>& modules, const std::string& note = "") {
  std::string lines;
  std::string parent;
  std::string leaf = c.param;
  for (std::size_t dot; (dot = leaf.find('.')) != std::string::npos;) {
    const std::string part = leaf.substr(0, dot);
    const std::string path = parent.empty() ? part : parent + "." + part;
    if (modules.insert(path).second)
      lines += fmt::format("        self{}.add_module(\"{}\", nn.Module())\n",
                           parent.empty() ? "" : fmt::format(".get_submodule(\"{}\")", parent), part);
    parent = path;
    leaf = leaf.substr(dot + 1);
  }
  const std::string owner = parent.empty() ? "self" : fmt::format("self.get_submodule(\"{}\")", parent);
  const std::string value =
      c.fill ? fmt::format("torch.full({}, {}, dtype=torch.{})", py_tuple(c.meta.shape), fill_literal(*c.fill, c.meta.dtype),
                           c.meta.dtype)
             : fmt::format("torch.empty({}, dtype=torch.{})", py_tuple(c.meta.shape), c.meta.dtype);
  if (!note.empty()) lines += fmt::format("        # {}: {}\n", c.param, note);
  else if (!c.fill) lines += fmt::format("        # {}: its values come with load_state_dict(Model.state_dict())\n", c.param);
  if (c.kind == "buffer")
    lines += fmt::format("        {}.register_buffer(\"{}\", {})\n", owner, leaf, value);
  else
    lines += fmt::format("        {}.register_parameter(\"{}\", nn.Parameter({}))\n", owner, leaf, value);
  return lines;
}

std::string strip_newline(std::string s) {
  while (!s.empty() && s.back() == '\n') s.pop_back();
  return s;
}

}  // namespace

std::string py_tuple(const std::vector<std::int64_t>& v) {
  return fmt::format("({}{})", fmt::join(v, ", "), v.size() == 1 ? "," : "");
}

ModelWrapper model_wrapper(const TraceResult& trace) {
  ModelWrapper w;
  const OpGraph& g = trace.graph;
  for (const auto& in : g.inputs) {
    w.forward_params += (w.forward_params.empty() ? "" : ", ") + in.name;
    w.forward_checks += guard(in);
  }
  // One device for every tensor the kernels read: the first input's. Triton would fail on a pointer to
  // another device's memory with a message that names neither tensor.
  std::string first;
  std::vector<std::string> others;
  for (const auto& in : g.inputs) {
    if (!in.is_tensor) continue;
    if (first.empty()) first = in.name;
    else others.push_back(in.name);
  }
  for (const auto& c : g.constants)
    if (c.owned() && !first.empty()) others.push_back(*owned_tensor_expr(g, c.name));
  if (!others.empty())
    w.forward_checks += fmt::format(
        "        if any(t.device != {0}.device for t in ({1}{2})):\n"
        "            raise ValueError(\"every input and parameter must be on {0}'s device\")\n",
        first, fmt::join(others, ", "), others.size() == 1 ? "," : "");
  std::set<std::string> modules;
  std::set<std::string> owned;
  for (const auto& c : g.constants)
    if (c.owned() && owned.insert(c.param).second) w.model_init += own(c, modules);
  // The state the kernels do not read (BatchNorm's counter in evaluation mode) is owned too, so that
  // Model's state_dict loads whole; its values are never used.
  for (const auto& c : g.state)
    if (owned.insert(c.param).second) {
      Constant unused = c;
      unused.fill = std::nullopt;
      w.model_init += own(unused, modules, "declared by the reference, not read by the kernels");
    }
  if (w.model_init.empty()) w.model_init = "        # The reference holds no parameters or buffers.\n";
  if (w.forward_checks.empty()) w.forward_checks = "        # The forward takes no inputs to check.\n";
  w.forward_checks = strip_newline(w.forward_checks);
  w.model_init = strip_newline(w.model_init);
  return w;
}

namespace {

// An argument of a layout op as Python: a name, a list, or a literal (torch's memory formats by name).
std::string py_arg(const Arg& a) {
  if (a.kind == Arg::Kind::ref) return a.ref;
  if (a.kind == Arg::Kind::list) {
    std::vector<std::string> items;
    for (const auto& item : a.items) items.push_back(py_arg(item));
    return fmt::format("[{}]", fmt::join(items, ", "));
  }
  if (a.value.is_string()) {
    const auto text = a.value.get<std::string>();
    for (const char* format : {"torch.contiguous_format", "torch.channels_last", "torch.channels_last_3d",
                               "torch.preserve_format"})
      if (text == format) return text;
  }
  return py_literal(a.value);
}

// `name = torch.ops.aten.op.overload(args, kw=value)`, as the reference ran it.
// A copy (aten.clone, and .contiguous() of a strided tensor) is ka_layout_copy: the check allows PyTorch to copy
// only into memory the forward allocated.
std::string layout_line(const Node& n) {
  if (n.target == "aten.clone.default") {
    const auto format = n.arg(1, "memory_format");
    return fmt::format("        {} = ka_layout_copy({}{})\n", n.name, py_arg(n.args.at(0)),
                       format && !is_none(format) ? ", " + py_arg(*format) : "");
  }
  std::vector<std::string> args;
  for (const auto& a : n.args) args.push_back(py_arg(a));
  if (n.kwargs.is_object())
    for (const auto& [key, value] : n.kwargs.items())
      if (auto a = n.arg(n.args.size(), key)) args.push_back(key + "=" + py_arg(*a));
  return fmt::format("        {} = torch.ops.{}({})\n", n.name, n.target, fmt::join(args, ", "));
}

}  // namespace

std::string layout_wrapper(const LayoutAround& around) {
  TraceResult whole;
  whole.graph = around.original;
  const ModelWrapper outer = model_wrapper(whole);
  std::string body = outer.forward_checks + "\n";
  for (const auto& n : around.before) body += layout_line(n);
  for (const auto& name : around.made_contiguous)
    body += fmt::format("        {0} = {0} if {0}.is_contiguous() else ka_layout_copy({0}, torch.contiguous_format)  # read row-major\n", name);
  body += fmt::format("        {} = super().forward({})\n", around.core_output, fmt::join(around.core_inputs, ", "));
  for (const auto& n : around.after) body += layout_line(n);
  body += fmt::format("        return {}\n", around.original.outputs.front());
  return fmt::format(
      "\n\ndef ka_layout_copy(t, memory_format=torch.preserve_format):\n"
      "    out = torch.empty_like(t, memory_format=memory_format)\n"
      "    out.copy_(t)\n"
      "    return out\n"
      "\n\nclass ModelNew(ModelNew):\n"
      "    # The reference's layout ops (views, permutes, copies to another layout) around the kernel above, run\n"
      "    # as PyTorch runs them: a view costs nothing, a copy one read and one write.\n"
      "    def forward(self, {}):\n{}",
      outer.forward_params, body);
}

std::optional<std::string> owned_tensor_expr(const OpGraph& graph, const std::string& ref) {
  if (const auto* in = graph.find_input(ref); in && in->is_tensor) return in->name;
  if (const auto* c = graph.find_constant(ref); c && c->owned())
    return fmt::format("self.{}(\"{}\")", c->kind == "buffer" ? "get_buffer" : "get_parameter", c->param);
  return std::nullopt;
}

}  // namespace kernelagent
