// The leaves a family reads (graph inputs and parameters through layout ops) and, for the families that ask,
// slices of them: views whose offset is where the part starts. The trace is the map-reduce conformance case
// slices_of_input_and_weight (x [4, 17, 10]; x[:, 1:-2:2], x[:, 0] unsqueezed, w[3:13] of a [16] parameter).

#include <gtest/gtest.h>

#include "family_support.hpp"
#include "kernelagent/families/common/leaves.hpp"

namespace kernelagent {
namespace {

using Ints = std::vector<std::int64_t>;

TEST(Leaves, SlicesAreLeavesWithTheirStartAsOffsetOnlyWhereAsked) {
  const TraceResult t = test::family_trace("mapreduce", "slices_of_input_and_weight");
  const Leaves plain = find_leaves(t.graph);
  EXPECT_EQ(plain.find("n0"), nullptr);  // a family that does not read offsets sees no slice as a leaf
  EXPECT_EQ(plain.find("n1"), nullptr);

  const Leaves sliced = find_leaves(t.graph, true);
  // x[:, 1:-2:2]: channels 1, 3, ..., 13 (the end -2 is 15), each a step of two channels' 10 elements apart.
  const Leaf* every_second = sliced.find("n0");
  ASSERT_NE(every_second, nullptr);
  EXPECT_EQ(every_second->base, "in0");
  EXPECT_EQ(every_second->view.shape, (Ints{4, 7, 10}));
  EXPECT_EQ(every_second->view.stride, (Ints{170, 20, 1}));
  EXPECT_EQ(every_second->view.offset, 10);
  // x[:, 0] drops the axis; unsqueezed again it keeps the offset (0 here) and gains a size-1 axis.
  const Leaf* first = sliced.find("n2");
  ASSERT_NE(first, nullptr);
  EXPECT_EQ(first->view.shape, (Ints{4, 1, 10}));
  EXPECT_EQ(first->view.offset, 0);
  const Leaf* part_of_w = sliced.find("n6");
  ASSERT_NE(part_of_w, nullptr);
  EXPECT_EQ(part_of_w->view.shape, (Ints{10}));
  EXPECT_EQ(part_of_w->view.offset, 3);

  EXPECT_EQ(leaf_tensor_expr("in0", first->view), "in0");
  EXPECT_EQ(leaf_tensor_expr("in0", every_second->view), "in0.as_strided((1,), (1,), in0.storage_offset() + 10)");
}

// The elementwise case slices_steps_and_splits: x [6, 20]; a, b, c = x.split([5, 7, 8], dim=1); a[:, -3:],
// x[:, 1::4][:, :3], c[..., 2:5].
TEST(Leaves, PiecesOfASplitAreLeavesAndTheSplitHasNoValueOfItsOwn) {
  const TraceResult t = test::family_trace("elementwise", "slices_steps_and_splits");
  const Leaves plain = find_leaves(t.graph);
  EXPECT_FALSE(plain.read_in_place("n0"));
  EXPECT_EQ(plain.find("n1"), nullptr);

  const Leaves sliced = find_leaves(t.graph, true);
  EXPECT_TRUE(sliced.read_in_place("n0"));  // the split itself
  EXPECT_EQ(sliced.find("n0"), nullptr);
  const Leaf* c = sliced.find("n3");  // the third piece starts after 5 + 7 columns
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->view.shape, (Ints{6, 8}));
  EXPECT_EQ(c->view.stride, (Ints{20, 1}));
  EXPECT_EQ(c->view.offset, 12);
  const Leaf* tail_of_a = sliced.find("n4");  // a[:, -3:]: columns 2 to 4
  ASSERT_NE(tail_of_a, nullptr);
  EXPECT_EQ(tail_of_a->view.shape, (Ints{6, 3}));
  EXPECT_EQ(tail_of_a->view.offset, 2);
  const Leaf* every_fourth = sliced.find("n8");  // x[:, 1::4][:, :3]: columns 1, 5, 9
  ASSERT_NE(every_fourth, nullptr);
  EXPECT_EQ(every_fourth->view.stride, (Ints{20, 4}));
  EXPECT_EQ(every_fourth->view.offset, 1);
  EXPECT_EQ(sliced.find("n10")->view.offset, 14);  // c[..., 2:5]
  EXPECT_EQ(sliced.find("n5"), nullptr);           // relu computes
}

}  // namespace
}  // namespace kernelagent
