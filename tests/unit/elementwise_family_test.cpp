// The elementwise family's own rules: its knob space, block pruning, 64-bit offsets, the eviction knob,
// broadcast operands and the forward's guards. tests/data/families/elementwise (the conformance test) holds
// its golden kernels and the problems it refuses.

#include <gtest/gtest.h>

#include "family_support.hpp"

using namespace kernelagent;

namespace {

const Family& family() { return test::family("elementwise"); }
TraceResult trace(const std::string& name) { return test::family_trace("elementwise", name); }

}  // namespace

TEST(ElementwiseFamily, KnobSpaceHasTaggedKnobsAndDefaultFirst) {
  const auto& space = family().knob_space();
  ASSERT_EQ(space.knobs.size(), 3u);
  for (const auto& k : space.knobs) EXPECT_FALSE(k.tags.empty()) << k.name;
  auto all = space.enumerate();
  EXPECT_EQ(all.size(), 3u * 4u * 2u);
  EXPECT_EQ(all.front(), space.default_config());
  std::set<std::string> distinct;
  for (const auto& c : all) distinct.insert(c.dump());
  EXPECT_EQ(distinct.size(), all.size());
}

TEST(ElementwiseFamily, PrunesBlocksLargerThanTheProblem) {
  auto t = trace("19_ReLU");  // 16000 elements
  nlohmann::json big = {{"num_warps", 16}, {"elems_per_thread", 32}, {"eviction", "none"}};  // 16384 elements
  nlohmann::json small = {{"num_warps", 4}, {"elems_per_thread", 4}, {"eviction", "none"}};
  EXPECT_TRUE(test::recognised(family(), t)->valid(small, nullptr, Precision::strict));
  EXPECT_TRUE(test::recognised(family(), t)->valid(big, nullptr, Precision::strict));  // 16384 covers 16000
  t.graph.outputs = {"n0"};
  t.graph.nodes[0].meta.shape = {16, 100};
  t.graph.inputs[0].meta.shape = {16, 100};
  t.graph.inputs[0].meta.stride = {100, 1};
  EXPECT_FALSE(test::recognised(family(), t)->valid(big, nullptr, Precision::strict));
}

TEST(ElementwiseFamily, UsesSixtyFourBitOffsetsOnlyWhenNeeded) {
  auto t = trace("19_ReLU");
  auto cfg = family().knob_space().default_config();
  EXPECT_NE(test::recognised(family(), t)->emit(cfg, {"x"}).find("offsets = pid * BLOCK"), std::string::npos);
  for (auto* shape : {&t.graph.inputs[0].meta.shape, &t.graph.nodes[0].meta.shape}) *shape = {8192, 393216};  // 3.2e9 elements
  t.graph.inputs[0].meta.stride = {393216, 1};
  std::string src = test::recognised(family(), t)->emit(cfg, {"x"});
  EXPECT_NE(src.find("pid.to(tl.int64) * BLOCK"), std::string::npos);
  EXPECT_NE(src.find("torch.empty((8192, 393216)"), std::string::npos);
}

TEST(ElementwiseFamily, EvictionKnobChangesTheLoads) {
  auto p = test::recognised(family(), trace("25_Swish"));
  auto cfg = family().knob_space().default_config();
  cfg["eviction"] = "evict_first";
  EXPECT_NE(p->emit(cfg, {"x"}).find("eviction_policy=\"evict_first\""), std::string::npos);
  cfg["eviction"] = "none";
  EXPECT_EQ(p->emit(cfg, {"x"}).find("eviction_policy"), std::string::npos);
  cfg["num_warps"] = 16;
  cfg["elems_per_thread"] = 4;
  EXPECT_NE(p->emit(cfg, {"x"}).find("BLOCK=2048, num_warps=16"), std::string::npos);
}

TEST(ElementwiseFamily, BroadcastOperandsAreReadAtTheirOwnOffsets) {
  const auto cfg = family().knob_space().default_config();
  // A.unsqueeze(1) * B over [48, 40]: A is read once per row, B as the output is laid out.
  const std::string diag = test::recognised(family(), trace("diag_scale_rows"))->emit(cfg, {"x"});
  EXPECT_NE(diag.find("tl.load(n0_ptr + (offsets // 40), mask=mask)"), std::string::npos) << diag;
  EXPECT_NE(diag.find("tl.load(in1_ptr + offsets, mask=mask)"), std::string::npos) << diag;
  // A row vector added to every row, and a column through expand and a transposed matrix.
  const std::string row = test::recognised(family(), trace("broadcast_add"))->emit(cfg, {"x"});
  EXPECT_NE(row.find("(offsets % 1000)"), std::string::npos) << row;
  const std::string tr = test::recognised(family(), trace("expand_transposed"))->emit(cfg, {"x"});
  EXPECT_NE(tr.find("(offsets // 30)"), std::string::npos) << tr;
  EXPECT_NE(tr.find("(offsets % 30) * 20"), std::string::npos) << tr;
  // A bool mask stays a mask; the parameter is read through ModelNew, which owns it under its name.
  const std::string masked = test::recognised(family(), trace("masked_scale"))->emit(cfg, {"x"});
  EXPECT_NE(masked.find("self.get_parameter(\"scale\")"), std::string::npos) << masked;
  EXPECT_NE(masked.find("register_parameter(\"scale\", nn.Parameter(torch.empty((33,), dtype=torch.float32)))"),
            std::string::npos) << masked;
  EXPECT_NE(masked.find("v_in1 = tl.load(in1_ptr + offsets, mask=mask)\n"), std::string::npos) << masked;
}

TEST(ElementwiseFamily, RefusesOperandsThatDoNotBroadcast) {
  auto t = trace("broadcast_add");
  t.graph.inputs[1].meta.shape = {999};
  t.graph.inputs[1].meta.stride = {1};
  EXPECT_NE(test::why_not(family(), t).find("does not broadcast to the output's shape"), std::string::npos)
      << test::why_not(family(), t);
}

TEST(ElementwiseFamily, ForwardGuardsShapesDtypesAndScalars) {
  auto p = test::recognised(family(), trace("5_Matrix_scalar_multiplication"));
  std::string src = p->emit(family().knob_space().default_config(), {"x"});
  EXPECT_NE(src.find("def forward(self, in0, in1):"), std::string::npos);
  EXPECT_NE(src.find("if in1 != 3.14:"), std::string::npos) << src;
  EXPECT_NE(src.find("if tuple(in0.shape) != (64, 96) or in0.dtype != torch.float32 or not in0.is_contiguous():"),
            std::string::npos) << src;
}
