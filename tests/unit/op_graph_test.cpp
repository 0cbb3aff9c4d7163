#include <gtest/gtest.h>

#include "kernelagent/core/op_graph.hpp"

using namespace kernelagent;
using nlohmann::json;

namespace {

// A graph over one [4, 8] input whose nodes are given as (target, first argument) pairs, each node's
// first argument a reference: "in0" or an earlier node.
OpGraph graph(const std::vector<std::pair<std::string, std::string>>& nodes) {
  json j = {{"inputs", {{{"name", "in0"}, {"kind", "tensor"}, {"shape", {4, 8}}, {"dtype", "float32"}}}},
            {"nodes", json::array()}};
  for (std::size_t i = 0; i < nodes.size(); ++i)
    j["nodes"].push_back({{"name", "n" + std::to_string(i)},
                          {"target", nodes[i].first},
                          {"args", {{{"ref", nodes[i].second}}, {{"value", 1.0}}}},
                          {"kwargs", json::object()},
                          {"shape", {4, 8}},
                          {"dtype", "float32"}});
  j["outputs"] = {{{"ref", "n" + std::to_string(nodes.size() - 1)}}};
  return OpGraph::from_json(j);
}

}  // namespace

TEST(OpGraph, InPlaceOpsOnFreshIntermediatesReadAsTheirOutOfPlaceForms) {
  // nn.RMSNorm writes mean(x^2).add_(eps): the add_ changes a fresh tensor, so it is an add.
  auto g = graph({{"aten.pow.Tensor_Scalar", "in0"}, {"aten.mean.dim", "n0"}, {"aten.add_.Scalar", "n1"},
                  {"aten.relu_.default", "n2"}});
  EXPECT_EQ(g.nodes[2].target, "aten.add.Scalar");
  EXPECT_EQ(g.nodes[3].target, "aten.relu.default");
}

TEST(OpGraph, InPlaceOpsOnAnInputReadAsTheirOutOfPlaceFormsAndSayWhatTheInputEndsUpHolding) {
  // x.mul_(1).add_(1) returned: the caller's tensor holds the add's value afterwards, which a family must
  // write there; a graph that changes no input says so by an empty written_inputs.
  auto g = graph({{"aten.mul_.Tensor", "in0"}, {"aten.add_.Scalar", "n0"}, {"aten.exp.default", "n1"}});
  EXPECT_EQ(g.nodes[0].target, "aten.mul.Tensor");
  EXPECT_EQ(g.nodes[1].target, "aten.add.Scalar");
  EXPECT_EQ(g.written_inputs, (std::map<std::string, std::string>{{"in0", "n1"}}));
  EXPECT_TRUE(graph({{"aten.exp.default", "in0"}, {"aten.add_.Scalar", "n0"}}).written_inputs.empty());
}

TEST(OpGraph, InPlaceOpsOnViewsAndCopiesStayAsTraced) {
  // On a view: the tensor it views changes too. copy_ and fill_ are not their out-of-place forms.
  auto g = graph({{"aten.neg.default", "in0"}, {"aten.exp.default", "in0"}, {"aten.view.default", "n1"},
                  {"aten.add_.Scalar", "n2"}, {"aten.copy_.default", "n1"}, {"aten.fill_.Scalar", "n1"},
                  {"aten.__and__.Tensor", "n1"}});
  EXPECT_TRUE(g.written_inputs.empty());
  EXPECT_EQ(g.nodes[3].target, "aten.add_.Scalar");
  EXPECT_EQ(g.nodes[4].target, "aten.copy_.default");
  EXPECT_EQ(g.nodes[5].target, "aten.fill_.Scalar");
  EXPECT_EQ(g.nodes[6].target, "aten.__and__.Tensor");  // a dunder, not an in-place op
}

TEST(OpGraph, RandomOpsAreFoundByTheirBaseName) {
  // A dropout's mask: bernoulli_ on a fresh empty_like, read as its out-of-place form like any in-place op.
  EXPECT_EQ(graph({{"aten.empty_like.default", "in0"}, {"aten.bernoulli_.float", "n0"}}).random_target(),
            "aten.bernoulli.float");
  // On an input too (read as its out-of-place form, the input noted as written).
  EXPECT_EQ(graph({{"aten.uniform_.default", "in0"}}).random_target(), "aten.uniform.default");
  EXPECT_EQ(graph({{"aten.native_dropout.default", "in0"}}).random_target(), "aten.native_dropout.default");
  EXPECT_EQ(graph({{"aten.randn_like.default", "in0"}}).random_target(), "aten.randn_like.default");
  EXPECT_EQ(graph({{"aten.relu.default", "in0"}, {"aten.randint_like.low", "n0"}}).random_target(),
            "aten.randint_like.low");
  EXPECT_EQ(graph({{"aten.relu.default", "in0"}, {"aten.round.default", "n0"}}).random_target(), "");
}

TEST(OpGraph, RReLUIsRandomOnlyInTraining) {
  // rrelu_with_noise(self, noise, lower, upper, training): outside training its noise buffer is not read.
  auto rrelu = [](bool training) {
    json j = {{"inputs", {{{"name", "in0"}, {"kind", "tensor"}, {"shape", {4}}, {"dtype", "float32"}}}},
              {"nodes",
               {{{"name", "n0"}, {"target", "aten.empty_like.default"}, {"args", {{{"ref", "in0"}}}},
                 {"kwargs", json::object()}, {"shape", {4}}, {"dtype", "float32"}},
                {{"name", "n1"}, {"target", "aten.rrelu_with_noise.default"},
                 {"args", {{{"ref", "in0"}}, {{"ref", "n0"}}, {{"value", 0.1}}, {{"value", 0.3}}, {{"value", training}}}},
                 {"kwargs", json::object()}, {"shape", {4}}, {"dtype", "float32"}}}},
              {"outputs", {{{"ref", "n1"}}}}};
    return OpGraph::from_json(j);
  };
  EXPECT_EQ(rrelu(true).random_target(), "aten.rrelu_with_noise.default");
  const OpGraph eval = rrelu(false);
  EXPECT_EQ(eval.random_target(), "");
  EXPECT_EQ(eval.ancestors(eval.outputs).count("n0"), 0u);  // the noise buffer is dead
}
