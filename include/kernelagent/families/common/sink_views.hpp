#pragma once
// A part or a re-ordering of a computed pointwise value is the same pointwise op of the same part or
// re-ordering of its operands: relu(x)[:, :10] is relu(x[:, :10]), relu(x).t() is relu(x.t()). Sinking such
// views through pointwise ops down to the inputs lets a family that reads inputs through views (the
// elementwise family) compute the value in the output's own order, with no copy. Example: n0 = relu(in0);
// n1 = slice(n0, 1, 0, 10) becomes n1_0 = slice(in0, 1, 0, 10); n1 = relu(n1_0).

#include "kernelagent/core/op_graph.hpp"

namespace kernelagent {

// The graph with every transpose, permute, slice, select and expand of a pointwise node's value rewritten as the
// pointwise op of the same view of its operands (broadcast operands expanded to the value's shape first),
// recursively; the view node keeps its name, so its readers are unchanged. A pointwise node no longer read
// stays in the graph, unread.
OpGraph sink_views(const OpGraph& graph);

}  // namespace kernelagent
