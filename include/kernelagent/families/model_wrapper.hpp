#pragma once
// The parts of ModelNew that every family's kernel file shares, made from the trace by the base: the
// forward's parameters, the guards that refuse inputs other than those the kernel was specialised for,
// and the parameters and buffers ModelNew owns under the reference's names, so that
// ModelNew.load_state_dict(Model.state_dict()) works.
//
// Example: a BatchNorm2d(64) problem gives ModelNew a submodule "bn" with the parameter "weight" (ones,
// as BatchNorm starts) and the buffer "running_mean"; the kernel reads them as self.get_parameter("bn.weight").

#include <optional>
#include <string>

#include "kernelagent/core/op_graph.hpp"

namespace kernelagent {

struct ModelWrapper {
  std::string forward_params;  // "in0, in1"
  std::string forward_checks;  // lines at the top of forward (8 spaces in, no trailing newline)
  std::string model_init;      // lines of __init__ after super().__init__() (8 spaces in, no trailing newline)
};

ModelWrapper model_wrapper(const TraceResult& trace);

struct LayoutAround;

// A subclass of the emitted ModelNew, under the same name, whose forward takes the problem's own inputs, runs
// the layout ops before the kernel, calls the kernel's forward and runs the layout ops after it.
std::string layout_wrapper(const LayoutAround& around);

// The Python expression ModelNew.forward reads a tensor of the graph through: a forward input's name, or
// the parameter or buffer ModelNew owns; nullopt for anything else (a node, a plain constant).
std::optional<std::string> owned_tensor_expr(const OpGraph& graph, const std::string& ref);

// A Python tuple literal: (3,) for one element, () for none.
std::string py_tuple(const std::vector<std::int64_t>& v);

}  // namespace kernelagent
