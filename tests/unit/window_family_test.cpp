// The window family's suggestion of one or two outputs a thread for large windows, at KernelBench's pooling
// shapes (shapes-only traces): 45's 11x11 and 46's 3x3x3 windows get it, 42's 4x4 windows keep the default.

#include <gtest/gtest.h>

#include "family_support.hpp"
#include "kernelagent/orchestrate/stages/search_request.hpp"
#include "test_data.hpp"

using namespace kernelagent;

namespace {

std::shared_ptr<const FamilyProblem> kernelbench(const std::string& name) {
  return test::recognised(test::family("window"),
                          TraceResult::from_json(test::read_json(test::data_dir() / "families" / "window" /
                                                                 "kernelbench" / (name + ".json"))));
}

}  // namespace

TEST(WindowFamily, LargeWindowsSuggestOneOrTwoOutputsAThreadFirst) {
  const auto h200 = find_gpu_spec("NVIDIA H200");
  ASSERT_TRUE(h200);
  for (const char* name : {"45_Average_Pooling_2D", "46_Average_Pooling_3D"}) {
    SCOPED_TRACE(name);
    auto p = kernelbench(name);
    const auto sugs = p->suggestions();
    ASSERT_EQ(sugs.size(), 2u);
    EXPECT_NE(sugs[0].reason.find("outputs a thread"), std::string::npos) << sugs[0].reason;
    const KnobSpace& space = p->family().knob_space();
    std::vector<Config> valid;
    for (const auto& c : space.enumerate())
      if (p->valid(c, &*h200, Precision::strict)) valid.push_back(c);
    const auto configs = suggested_configs(*p, space, valid);
    ASSERT_EQ(configs.size(), 2u);
    for (const auto& [c, why] : configs) {
      const auto per_thread = c.at("block").get<std::int64_t>() / (32 * c.at("num_warps").get<std::int64_t>());
      EXPECT_TRUE(per_thread == 1 || per_thread == 2) << c.dump();
      EXPECT_EQ(c.at("tile_kw"), 0);
    }
  }
  EXPECT_TRUE(kernelbench("42_Max_Pooling_2D")->suggestions().empty());
}
