#pragma once
// The tensors a kernel reads: the graph's tensor inputs and the parameters and buffers ModelNew owns, each
// possibly seen through a chain of layout ops (unsqueeze, expand, view, permute, ...) that only change how
// its storage is indexed. Example: A.unsqueeze(1) traces to n0 = aten.unsqueeze.default(in0, 1); n0 is
// the leaf {base in0, view [4096, 1] with strides [1, 1]}.

#include <map>
#include <set>
#include <string>

#include "kernelagent/core/op_graph.hpp"
#include "kernelagent/families/common/strided_view.hpp"

namespace kernelagent {

struct Leaf {
  std::string base;  // the graph input or owned constant whose storage is read ("in0", "c1")
  StridedView view;  // how the ref sees that storage
};

struct Leaves {
  std::map<std::string, Leaf> by_ref;       // every ref that is a leaf: the bases and the layout ops over them
  std::map<std::string, std::string> why;  // layout ops over a leaf that no view expresses: why not, with the
                                           // node's name and target ("n2 (aten.view.default) needs a copy ...")
  std::set<std::string> splits;            // split ops over a leaf: no value of their own, their pieces are leaves

  const Leaf* find(const std::string& ref) const;
  // True for the nodes a kernel computes nothing for: leaves and the splits their pieces come from.
  bool read_in_place(const std::string& ref) const { return find(ref) || splits.contains(ref); }
};

// The leaves of the graph. A 0-d constant that ModelNew does not own is a literal, not a leaf. With
// `slices`, a slice or select of a leaf is a leaf too, its view's offset where the part starts: only for a
// family that reads the offset (leaf_tensor_expr below); so is a piece of a split, chunk or unbind of a leaf.
Leaves find_leaves(const OpGraph& graph, bool slices = false);

// The Python expression ModelNew passes a kernel for a leaf: the base's own (`tensor_expr`) where its view
// starts at the storage's first element, else a one-element view of the base whose first element is the
// view's, so that the kernel's pointer points there and the view's strides index on from it.
std::string leaf_tensor_expr(const std::string& tensor_expr, const StridedView& view);

}  // namespace kernelagent
