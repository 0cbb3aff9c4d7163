#pragma once
// Layout ops around a problem's computation: views, permutes, reshapes and copies to another layout that the
// reference applies to its inputs before it computes, or to the result after. A family recognises the
// computation in between (the core); ModelNew runs the layout ops as PyTorch does, around the family's
// kernel, and copies a non-contiguous input of the core to contiguous memory where the family needs it.
//
// Example: `torch.softmax(x.permute(0, 2, 1), dim=1).transpose(0, 1)` is the reduction family's softmax over
// the permuted input made contiguous, with the permute before the kernel and the transpose after it.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "kernelagent/core/op_graph.hpp"

namespace kernelagent {

struct LayoutAround {
  OpGraph original;                           // the problem's graph: its inputs are ModelNew's parameters
  std::vector<Node> before;                   // layout nodes over the inputs, in graph order
  std::vector<Node> after;                    // layout nodes from the core's output to the graph's output
  std::vector<std::string> core_inputs;       // the core's forward arguments, in order
  std::vector<std::string> made_contiguous;   // core inputs copied to contiguous memory first where they are not
  std::string core_output;
};

// Whether the node only changes the layout of its first argument (a view, a permute, a copy to a layout).
bool is_layout_op(const Node& node);

// The core of `trace` with its layout ops taken out (`trace.around` set), or nullopt when there is nothing to
// take out. With `contiguous`, every non-contiguous input of the core is read as its contiguous copy. A graph
// with several outputs, one that changes an input in place, or one that is layout ops alone has no core.
std::optional<TraceResult> layout_core(const TraceResult& trace, bool contiguous);

// The whole of `trace` with its non-contiguous inputs read as their contiguous copies and no op moved out
// (an InstanceNorm of a channels-last input traces as a copy to contiguous memory and a view of it, which a
// family follows only from a contiguous input); nullopt where every input is contiguous already.
std::optional<TraceResult> with_contiguous_inputs(const TraceResult& trace);

}  // namespace kernelagent
