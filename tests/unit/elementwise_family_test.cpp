// The elementwise family against recorded traces (tests/data/traces, from the real worker) and golden
// kernels (tests/data/golden/elementwise). KA_UPDATE_GOLDEN=1 rewrites the golden files.

#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "kernelagent/core/template.hpp"
#include "kernelagent/families/elementwise/elementwise_family.hpp"
#include "test_data.hpp"

using namespace kernelagent;
namespace fs = std::filesystem;

namespace {

ElementwiseFamily family() { return ElementwiseFamily(test::source_dir() / "families" / "elementwise"); }

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST(ElementwiseFamily, ImplementsEveryRecordedActivationTrace) {
  auto f = family();
  auto traces = files_in(test::data_dir() / "traces");
  ASSERT_GE(traces.size(), 14u);
  for (const auto& p : traces) {
    auto t = TraceResult::from_json(test::read_json(p));
    auto why = f.why_not(t);
    EXPECT_FALSE(why.has_value()) << p.filename() << ": " << why.value_or("");
  }
}

TEST(ElementwiseFamily, EmitsTheGoldenKernelForEveryTrace) {
  auto f = family();
  const bool update = std::getenv("KA_UPDATE_GOLDEN") != nullptr;
  for (const auto& p : files_in(test::data_dir() / "traces")) {
    auto t = TraceResult::from_json(test::read_json(p));
    std::string src = f.emit(t, f.knob_space().default_config(), {p.stem().string() + ".py"});
    fs::path golden = test::data_dir() / "golden" / "elementwise" / (p.stem().string() + ".py");
    if (update) {
      std::ofstream(golden) << src;
      continue;
    }
    ASSERT_TRUE(fs::exists(golden)) << golden << " is missing; run the tests with KA_UPDATE_GOLDEN=1";
    EXPECT_EQ(src, read_text_file(golden)) << "emitted kernel differs from " << golden;
  }
}

TEST(ElementwiseFamily, RejectsWhatItCannotFuseWithAReason) {
  auto f = family();
  auto cases = files_in(test::data_dir() / "traces_unsupported");
  ASSERT_GE(cases.size(), 5u);
  for (const auto& p : cases) {
    auto j = test::read_json(p);
    auto why = f.why_not(TraceResult::from_json(j));
    ASSERT_TRUE(why.has_value()) << p.filename() << " was accepted";
    EXPECT_NE(why->find(j.at("expect").get<std::string>()), std::string::npos) << p.filename() << ": " << *why;
    EXPECT_THROW(f.emit(TraceResult::from_json(j), f.knob_space().default_config(), {"x"}), std::runtime_error);
  }
}

TEST(ElementwiseFamily, KnobSpaceHasTaggedKnobsAndDefaultFirst) {
  auto f = family();
  const auto& space = f.knob_space();
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
  auto f = family();
  auto t = TraceResult::from_json(test::read_json(test::data_dir() / "traces" / "19_ReLU.json"));  // 16000 elements
  nlohmann::json big = {{"num_warps", 16}, {"elems_per_thread", 32}, {"eviction", "none"}};  // 16384 elements
  nlohmann::json small = {{"num_warps", 4}, {"elems_per_thread", 4}, {"eviction", "none"}};
  EXPECT_TRUE(f.valid(small, t, nullptr, Precision::strict));
  EXPECT_TRUE(f.valid(big, t, nullptr, Precision::strict));  // 16384 is the power of two that covers 16000
  t.graph.outputs = {"n0"};
  t.graph.nodes[0].meta.shape = {16, 100};
  t.graph.inputs[0].meta.shape = {16, 100};
  EXPECT_FALSE(f.valid(big, t, nullptr, Precision::strict));
}

TEST(ElementwiseFamily, UsesSixtyFourBitOffsetsOnlyWhenNeeded) {
  auto f = family();
  auto t = TraceResult::from_json(test::read_json(test::data_dir() / "traces" / "19_ReLU.json"));
  auto cfg = f.knob_space().default_config();
  EXPECT_NE(f.emit(t, cfg, {"x"}).find("offsets = pid * BLOCK"), std::string::npos);
  for (auto* shape : {&t.graph.inputs[0].meta.shape, &t.graph.nodes[0].meta.shape}) *shape = {8192, 393216};  // 3.2e9 elements
  t.graph.inputs[0].meta.stride = {393216, 1};
  std::string src = f.emit(t, cfg, {"x"});
  EXPECT_NE(src.find("pid.to(tl.int64) * BLOCK"), std::string::npos);
  EXPECT_NE(src.find("torch.empty((8192, 393216)"), std::string::npos);
}

TEST(ElementwiseFamily, EvictionKnobChangesTheLoads) {
  auto f = family();
  auto t = TraceResult::from_json(test::read_json(test::data_dir() / "traces" / "25_Swish.json"));
  auto cfg = f.knob_space().default_config();
  cfg["eviction"] = "evict_first";
  EXPECT_NE(f.emit(t, cfg, {"x"}).find("eviction_policy=\"evict_first\""), std::string::npos);
  cfg["eviction"] = "none";
  EXPECT_EQ(f.emit(t, cfg, {"x"}).find("eviction_policy"), std::string::npos);
  cfg["num_warps"] = 16;
  cfg["elems_per_thread"] = 4;
  EXPECT_EQ(ElementwiseFamily::block_of(cfg), 2048);
  EXPECT_NE(f.emit(t, cfg, {"x"}).find("BLOCK=2048, num_warps=16"), std::string::npos);
}

TEST(ElementwiseFamily, ScalarForwardArgumentsAreCheckedAtRunTime) {
  auto f = family();
  auto t = TraceResult::from_json(test::read_json(test::data_dir() / "traces" / "5_Matrix_scalar_multiplication.json"));
  std::string src = f.emit(t, f.knob_space().default_config(), {"x"});
  EXPECT_NE(src.find("def forward(self, in0, in1):"), std::string::npos);
  EXPECT_NE(src.find("assert in1 == 3.14"), std::string::npos);
}
