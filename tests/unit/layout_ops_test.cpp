// Layout ops around a computation (layout_ops.hpp): what layout_core takes out of recorded traces
// (tests/data/layout), and the ModelNew a family's kernel gets around it. The e2e test
// tests/e2e/test_layout_cli.py runs these problems through optimize on the interpreter.

#include <gtest/gtest.h>

#include "family_support.hpp"
#include "kernelagent/core/layout_ops.hpp"
#include "kernelagent/families/model_wrapper.hpp"
#include "test_data.hpp"

using namespace kernelagent;

namespace {

TraceResult layout_trace(const std::string& name) {
  return TraceResult::from_json(test::read_json(test::data_dir() / "layout" / "traces" / (name + ".json")));
}

}  // namespace

TEST(LayoutOps, APermuteBeforeAndATransposeAfterLeaveTheSoftmaxAsTheCore) {
  const auto core = layout_core(layout_trace("softmax_permuted_then_transposed"), false);
  ASSERT_TRUE(core.has_value());
  ASSERT_EQ(core->graph.nodes.size(), 1u);
  EXPECT_EQ(core->graph.nodes[0].target, "aten._softmax.default");
  const LayoutAround& a = *core->around;
  ASSERT_EQ(a.before.size(), 1u);
  EXPECT_EQ(a.before[0].target, "aten.permute.default");
  ASSERT_EQ(a.after.size(), 1u);
  EXPECT_EQ(a.after[0].target, "aten.transpose.int");
  // The permute's result is the core's input; its strides are not traced, so the wrapper makes sure it is
  // contiguous.
  EXPECT_EQ(a.core_inputs, std::vector<std::string>{a.before[0].name});
  EXPECT_EQ(a.made_contiguous, a.core_inputs);
  EXPECT_EQ(core->graph.outputs, std::vector<std::string>{a.core_output});
  const std::string wrapper = layout_wrapper(a);
  EXPECT_NE(wrapper.find("class ModelNew(ModelNew):"), std::string::npos);
  EXPECT_NE(wrapper.find("torch.ops.aten.permute.default(in0, [0, 2, 1])"), std::string::npos) << wrapper;
  EXPECT_NE(wrapper.find("torch.ops.aten.transpose.int(" + a.core_output + ", 0, 1)"), std::string::npos) << wrapper;
}

TEST(LayoutOps, AStridedInputIsCopiedToContiguousOnlyWhenAsked) {
  const auto t = layout_trace("argmax_strided_input");
  EXPECT_FALSE(layout_core(t, false).has_value());  // no layout op and nothing to copy: the graph as it is
  const auto core = layout_core(t, true);
  ASSERT_TRUE(core.has_value());
  EXPECT_EQ(core->around->made_contiguous, std::vector<std::string>{"in0"});
  EXPECT_TRUE(core->graph.inputs.at(0).meta.contiguous());
  EXPECT_NE(layout_wrapper(*core->around).find("ka_layout_copy(in0, torch.contiguous_format)"), std::string::npos);
}

TEST(LayoutOps, AGraphOfLayoutOpsAloneOrOfSeveralOutputsHasNoCore) {
  TraceResult t = layout_trace("softmax_permuted_then_transposed");
  t.graph.nodes.erase(t.graph.nodes.begin() + 1, t.graph.nodes.end());  // in0 -> permute -> output
  t.graph.outputs = {t.graph.nodes[0].name};
  EXPECT_FALSE(layout_core(t, true).has_value());
  TraceResult two = layout_trace("softmax_permuted_then_transposed");
  two.graph.outputs.push_back(two.graph.outputs[0]);
  EXPECT_FALSE(layout_core(two, true).has_value());
}

TEST(LayoutOps, TheFlattenAfterAConvolutionsEpilogueIsTakenOutAndTheFamilyTakesTheRest) {
  const auto core = layout_core(layout_trace("conv_times_scalar_parameter_flattened"), false);
  ASSERT_TRUE(core.has_value());
  ASSERT_FALSE(core->around->after.empty());
  EXPECT_TRUE(core->around->before.empty());
  const Family& conv = test::family("conv");
  EXPECT_TRUE(conv.recognise(*core)) << conv.recognise(*core).why_not;
}

TEST(LayoutOps, AChannelsLastInstanceNormIsTheWholeGraphOverItsInputMadeContiguous) {
  const auto t = layout_trace("instance_norm_channels_last");
  const Family& mapreduce = test::family("mapreduce");
  EXPECT_FALSE(mapreduce.recognise(t));  // the view of the copy of a channels-last input cannot be followed
  const auto whole = with_contiguous_inputs(t);
  ASSERT_TRUE(whole.has_value());
  EXPECT_EQ(whole->graph.nodes.size(), t.graph.nodes.size());  // nothing moved out
  EXPECT_TRUE(whole->around->before.empty() && whole->around->after.empty());
  EXPECT_EQ(whole->around->made_contiguous, std::vector<std::string>{"in0"});
  EXPECT_TRUE(mapreduce.recognise(*whole)) << mapreduce.recognise(*whole).why_not;
  // A graph whose inputs are contiguous already gains nothing.
  EXPECT_FALSE(with_contiguous_inputs(layout_trace("softmax_permuted_then_transposed")).has_value());
}
