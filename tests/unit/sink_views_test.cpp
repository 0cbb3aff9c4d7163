// Views of computed pointwise values sunk to the inputs. The trace is the elementwise conformance case
// views_of_computed_values (x [6, 20], bias c0 [20]): relu(x)[:, :10].t() + gelu(x + bias)[:, 2:12].t().

#include <gtest/gtest.h>

#include "family_support.hpp"
#include "kernelagent/families/common/sink_views.hpp"

namespace kernelagent {
namespace {

using Ints = std::vector<std::int64_t>;

TEST(SinkViews, ViewsOfPointwiseValuesBecomeThePointwiseOpsOfViewsOfTheInputs) {
  const TraceResult t = test::family_trace("elementwise", "views_of_computed_values");
  const OpGraph g = sink_views(t.graph);
  // n2 = t(slice(relu(x))) keeps its name and is now relu(t(slice(x))): the slice sank first, then the
  // transpose, each through the ReLU.
  const Node* n2 = g.find_node("n2");
  ASSERT_NE(n2, nullptr);
  EXPECT_EQ(n2->target, "aten.relu.default");
  EXPECT_EQ(n2->meta.shape, (Ints{10, 6}));
  const Node* transposed = g.find_node(n2->args.at(0).ref);
  ASSERT_NE(transposed, nullptr);
  EXPECT_EQ(transposed->target, "aten.t.default");
  const Node* sliced = g.find_node(transposed->args.at(0).ref);
  ASSERT_NE(sliced, nullptr);
  EXPECT_EQ(sliced->target, "aten.slice.Tensor");
  EXPECT_EQ(sliced->args.at(0).ref, "in0");
  // The bias [20] broadcasts in x + bias: it is expanded to [6, 20] before its part is taken.
  const Node* n6 = g.find_node("n6");
  ASSERT_NE(n6, nullptr);
  EXPECT_EQ(n6->target, "aten.gelu.default");
  bool bias_expanded = false;
  for (const auto& n : g.nodes)
    if (n.target == "aten.expand.default" && n.args.at(0).ref == "c0") bias_expanded = n.meta.shape == Ints{6, 20};
  EXPECT_TRUE(bias_expanded);
  // The consumer is untouched, and the graph stays in dependency order.
  EXPECT_EQ(g.find_node("n7")->args.at(0).ref, "n2");
  std::set<std::string> seen = {"in0", "c0"};
  for (const auto& n : g.nodes) {
    for (const auto& a : n.args)
      if (a.kind == Arg::Kind::ref) {
        EXPECT_TRUE(seen.contains(a.ref)) << n.name << " reads " << a.ref << " first";
      }
    seen.insert(n.name);
  }
}

}  // namespace
}  // namespace kernelagent
