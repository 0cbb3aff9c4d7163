#pragma once
// The reference operation as the worker traced it: an aten op graph with shapes and dtypes
// (the `trace` reply of docs/protocol.md), plus the problem's FLOPs and compulsory bytes.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

namespace kernelagent {

struct TensorMeta {
  std::vector<std::int64_t> shape;
  std::string dtype;  // torch's name without the prefix: "float32", "bfloat16", ...
  std::vector<std::int64_t> stride;  // empty when unknown

  std::int64_t numel() const;
  bool contiguous() const;  // row-major with no gaps (true when the stride is unknown)
};

// One argument of a node: a reference to a tensor (graph input, constant or node), a literal value, or a list.
struct Arg {
  enum class Kind { ref, value, list };
  Kind kind = Kind::value;
  std::string ref;           // kind == ref
  nlohmann::json value;      // kind == value: number, bool, string or null
  std::vector<Arg> items;    // kind == list

  // Numbers, including the non-finite ones the protocol writes as the strings "nan", "inf", "-inf".
  bool is_number() const;
  double number() const;
};

struct Node {
  std::string name;    // "n3"
  std::string target;  // "aten.mul.Tensor"
  std::vector<Arg> args;
  nlohmann::json kwargs;  // name -> {"value": ...} / {"ref": ...}
  TensorMeta meta;

  // The positional argument i, or the keyword `kw`, or nullopt.
  std::optional<Arg> arg(std::size_t i, std::string_view kw) const;
};

// Whether an optional argument was left out or passed as None (PyTorch's default for optional tensors).
bool is_none(const std::optional<Arg>& a);

// Argument i (or keyword kw) of a node as an integer; nullopt where it is absent or not a number.
std::optional<std::int64_t> int_arg(const Node& node, std::size_t i, std::string_view kw);

struct GraphInput {
  std::string name;  // "in0"
  bool is_tensor = true;
  TensorMeta meta;
  nlohmann::json value;  // the literal, for non-tensor inputs
};

// A tensor the model holds: a parameter or buffer (under its state_dict name, e.g. "bn.weight") or a
// tensor constant created in forward.
struct Constant {
  std::string name;  // "c0": how nodes refer to it
  TensorMeta meta;
  std::optional<double> value;  // only for 0-d constants
  std::string param;            // the state_dict name for a parameter or buffer; empty for a plain constant
  std::string kind = "constant";  // "parameter", "buffer" or "constant"
  std::optional<double> fill;   // the value every element holds, when they all hold one (BatchNorm's ones)

  bool owned() const { return !param.empty(); }  // a parameter or buffer ModelNew owns under the same name
};

struct OpGraph {
  std::vector<GraphInput> inputs;
  std::vector<Constant> constants;
  // Every parameter and buffer the model declares (param, kind, shape, dtype; no name), read by the graph or
  // not: ModelNew owns them all. Empty in traces recorded before it was kept.
  std::vector<Constant> state;
  std::vector<Node> nodes;
  std::vector<std::string> outputs;  // refs
  // Graph inputs the reference changes in place (`x.relu_()`, nn.ReLU(inplace=True) on an input), each with
  // the node whose value ends up in it; the in-place ops themselves read as their out-of-place forms.
  std::map<std::string, std::string> written_inputs;

  static OpGraph from_json(const nlohmann::json& j);
  const Node* find_node(std::string_view name) const;
  const GraphInput* find_input(std::string_view name) const;
  const Constant* find_constant(std::string_view name) const;
  // Shape and dtype of whatever `ref` names; nullopt for an unknown name.
  std::optional<TensorMeta> meta_of(std::string_view ref) const;
  // The distinct aten targets, in order of first use; used in messages and problem signatures.
  std::vector<std::string> targets() const;
  // The first target that draws random numbers (aten.bernoulli_, aten.rand_like, aten.native_dropout, ...:
  // a dropout in training mode, torch.rand): a reference that does gives another output on every call, so no
  // kernel can be checked against it. Empty when there is none.
  std::string random_target() const;
  // The nodes named and every node they read, directly or not (ancestors({outputs}): the nodes whose value
  // reaches an output; an unused result of a node of several, such as log_sigmoid_forward's buffer, does not).
  std::set<std::string> ancestors(const std::vector<std::string>& names) const;
};

// aten.rrelu_with_noise's training flag (its fifth argument, False where not given, as aten's default): in
// training its slopes are random; outside it, a leaky ReLU of slope (lower + upper) / 2 that ignores its noise.
bool rrelu_training(const Node& n);

// Rewrites an in-place op on a fresh intermediate (`aten.add_.Scalar` on a mean) as its out-of-place form,
// and one on a graph input too, noting in written_inputs what the input ends up holding; from_json applies it
// to every graph it reads.
void functional_in_place_ops(OpGraph& g);

struct LayoutAround;  // layout_ops.hpp

struct TraceResult {
  OpGraph graph;
  // Set on the core of a problem whose inputs or output pass through layout ops (layout_core): what ModelNew
  // runs around the family's kernel.
  std::shared_ptr<const LayoutAround> around;
  double flops = 0;
  std::int64_t input_bytes = 0;
  std::int64_t output_bytes = 0;

  static TraceResult from_json(const nlohmann::json& reply);
  std::int64_t compulsory_bytes() const { return input_bytes + output_bytes; }
  // A short stable text naming what the problem computes, for history keys: targets, shapes, dtypes.
  std::string signature() const;
};

}  // namespace kernelagent
