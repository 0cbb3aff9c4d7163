// The window family's suggestions at KernelBench's pooling shapes (shapes-only traces): one or two outputs a
// thread for large windows (45's 11x11 and 46's 3x3x3), the row variant and then a tile of the window's
// columns where neighbouring windows start far apart (45's stride of 11), and the ring variant where windows
// overlap (41, 44: along the row; 42: along both axes; 46: in 3-D).

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
    auto sugs = p->suggestions();
    if (std::string(name) == "45_Average_Pooling_2D") {
      ASSERT_EQ(sugs.size(), 4u);
      sugs.erase(sugs.begin(), sugs.begin() + 2);  // the row variant and the column tile, tested below
    } else {
      ASSERT_EQ(sugs.size(), 3u);
      sugs.erase(sugs.begin());  // the ring, tested below
    }
    ASSERT_EQ(sugs.size(), 2u);
    EXPECT_NE(sugs[0].reason.find("outputs a thread"), std::string::npos) << sugs[0].reason;
    const KnobSpace& space = p->family().knob_space();
    std::vector<Config> valid;
    for (const auto& c : space.enumerate())
      if (p->valid(c, &*h200, Precision::strict)) valid.push_back(c);
    auto configs = suggested_configs(*p, space, valid);
    configs.erase(configs.begin(), configs.begin() + (std::string(name) == "45_Average_Pooling_2D" ? 2 : 1));
    ASSERT_EQ(configs.size(), 2u);
    for (const auto& [c, why] : configs) {
      const auto per_thread = c.at("block").get<std::int64_t>() / (32 * c.at("num_warps").get<std::int64_t>());
      EXPECT_TRUE(per_thread == 1 || per_thread == 2) << c.dump();
      EXPECT_EQ(c.at("tile_kw"), 0);
    }
  }
  // 42's 4 x 4 windows are small: the ring (below) is its only suggestion.
  EXPECT_EQ(kernelbench("42_Max_Pooling_2D")->suggestions().size(), 1u);
}

TEST(WindowFamily, OverlappingWindowsSuggestTheRingFirst) {
  const auto h200 = find_gpu_spec("NVIDIA H200");
  ASSERT_TRUE(h200);
  // 42: 4 x 4 windows of stride 1 over 512 x 512, overlapping along both axes: 8 output rows a program, each
  // input row's segment of 1024 inputs (the 514 an output row's 511 windows span) read once for the 4 of them
  // that hold it; 16 warps keep the 9 segments and the gathered 4 x 512 windows at 22 values a thread.
  auto p42 = kernelbench("42_Max_Pooling_2D");
  const auto s42 = p42->suggestions();
  ASSERT_FALSE(s42.empty());
  EXPECT_EQ(s42[0].knobs.value("tile_kw", 0), 3);
  EXPECT_EQ(s42[0].knobs.value("rows", 0), 8);
  EXPECT_EQ(s42[0].knobs.value("block", 0), 1024);
  EXPECT_EQ(s42[0].knobs.value("num_warps", 0), 16);
  EXPECT_NE(s42[0].reason.find("overlapping windows (4 x 4 of stride 1 x 1)"), std::string::npos) << s42[0].reason;
  // 41 and 44: 1-D windows (a height of 1), overlapping along the row only: one row a program, segments of 512
  // at 4 warps (4 inputs a thread).
  for (const char* name : {"41_Max_Pooling_1D", "44_Average_Pooling_1D"}) {
    SCOPED_TRACE(name);
    auto p = kernelbench(name);
    const auto sugs = p->suggestions();
    ASSERT_FALSE(sugs.empty());
    EXPECT_EQ(sugs[0].knobs.value("tile_kw", 0), 3);
    EXPECT_EQ(sugs[0].knobs.value("rows", 0), 1);
    EXPECT_EQ(sugs[0].knobs.value("block", 0), 512);
    EXPECT_EQ(sugs[0].knobs.value("num_warps", 0), 4);
    const KnobSpace& space = p->family().knob_space();
    std::vector<Config> valid;
    for (const auto& c : space.enumerate())
      if (p->valid(c, &*h200, Precision::strict)) valid.push_back(c);
    // Several output rows a program only where a plane has several; other variants keep one.
    for (const auto& c : valid) EXPECT_EQ(c.at("rows"), 1) << c.dump();
    EXPECT_EQ(suggested_configs(*p, space, valid).size(), sugs.size());
  }
  // 46: 3 x 3 x 3 windows of stride 2 over 128 x 128 x 256 (a 3-D pool's depths are folded into each input
  // row): 4 output rows of one depth a program, segments of 512 (an output row's 128 windows span 257 inputs),
  // 8 warps keep 5 segments and the gathered 4 x 256 windows at 14 values a thread.
  auto p46 = kernelbench("46_Average_Pooling_3D");
  const auto s46 = p46->suggestions();
  ASSERT_FALSE(s46.empty());
  EXPECT_EQ(s46[0].knobs.value("tile_kw", 0), 3);
  EXPECT_EQ(s46[0].knobs.value("rows", 0), 4);
  EXPECT_EQ(s46[0].knobs.value("block", 0), 512);
  EXPECT_EQ(s46[0].knobs.value("num_warps", 0), 8);
  EXPECT_NE(s46[0].reason.find("overlapping windows (3 x 3 x 3 of stride 2 x 2 x 2)"), std::string::npos) << s46[0].reason;
  // 45's windows do not overlap (stride 11 = the window): no ring.
  for (const auto& s : kernelbench("45_Average_Pooling_2D")->suggestions()) EXPECT_NE(s.knobs.value("tile_kw", 0), 3);
}

TEST(WindowFamily, WindowsFarApartSuggestTheRowVariantThenATileOfTheirColumns) {
  const auto h200 = find_gpu_spec("NVIDIA H200");
  ASSERT_TRUE(h200);
  auto p = kernelbench("45_Average_Pooling_2D");
  const auto sugs = p->suggestions();
  ASSERT_GE(sugs.size(), 2u);
  EXPECT_NE(sugs[0].reason.find("start 11 inputs apart"), std::string::npos) << sugs[0].reason;
  EXPECT_NE(sugs[0].reason.find("one contiguous segment of 256 inputs"), std::string::npos) << sugs[0].reason;
  EXPECT_NE(sugs[1].reason.find("start 11 inputs apart"), std::string::npos) << sugs[1].reason;
  const KnobSpace& space = p->family().knob_space();
  std::vector<Config> valid;
  for (const auto& c : space.enumerate())
    if (p->valid(c, &*h200, Precision::strict)) valid.push_back(c);
  const auto configs = suggested_configs(*p, space, valid);
  ASSERT_GE(configs.size(), 2u);
  // The row variant: a segment of 256 inputs serves 23 windows of 11 (22 * 11 + 11 = 253 inputs), whose
  // selection tile of 256 x 32 is 32 values a thread at 8 warps.
  const Config& rows = configs[0].first;
  EXPECT_EQ(rows.at("tile_kw"), 2);
  EXPECT_EQ(rows.at("block"), 256);
  EXPECT_EQ(rows.at("num_warps"), 8);
  const Config& c = configs[1].first;
  EXPECT_EQ(c.at("tile_kw"), 1);
  // 16 values a thread: 256 outputs times 16 columns (11 rounded up) over 8 warps.
  EXPECT_EQ(c.at("block").get<std::int64_t>() * 16 / (32 * c.at("num_warps").get<std::int64_t>()), 16);
  // With a stride of 1 the selection tile would hold a segment's square: no row variant is valid (41, 44's
  // overlapping windows keep the other variants).
  for (const auto& cfg : valid) {
    if (cfg.at("tile_kw") == 2) {
      EXPECT_LE(cfg.at("block").get<std::int64_t>(), 2048) << cfg.dump();
    }
  }
  // Windows 1 (42) or 2 (46) inputs apart need no column tile: their loads coalesce as they are.
  for (const char* name : {"42_Max_Pooling_2D", "46_Average_Pooling_3D"})
    for (const auto& s : kernelbench(name)->suggestions()) {
      EXPECT_NE(s.knobs.value("tile_kw", 0), 1) << name;
      EXPECT_NE(s.knobs.value("tile_kw", 0), 2) << name;
    }
}

TEST(WindowFamily, EverySuggestionIsAValidConfigurationAtAnyShape) {
  // A suggestion the space cannot hold is dropped unseen: each must be valid at small planes too (an
  // AvgPool2d of 11 x 11 windows over 45 x 50 inputs has 16 outputs a plane, fewer than 256 a program).
  const auto h200 = find_gpu_spec("NVIDIA H200");
  ASSERT_TRUE(h200);
  for (const char* name : {"max_pool1d", "max_pool2d", "max_pool3d_ceil", "avg_pool1d", "avg_pool2d",
                           "avg_pool3d_no_pad_count", "avg_pool2d_divisor", "adaptive_avg_pool2d", "adaptive_max_pool3d",
                           "adaptive_max_pool1d", "adaptive_avg_pool2d_even", "max_pool2d_dilated_rows",
                           "avg_pool2d_strided_overlap"}) {
    SCOPED_TRACE(name);
    auto p = test::recognised(test::family("window"), test::family_trace("window", name));
    const KnobSpace& space = p->family().knob_space();
    std::vector<Config> valid;
    for (const auto& c : space.enumerate())
      if (p->valid(c, &*h200, Precision::strict)) valid.push_back(c);
    EXPECT_EQ(suggested_configs(*p, space, valid).size(), p->suggestions().size());
  }
  auto small45 = test::recognised(test::family("window"), test::family_trace("window", "avg_pool2d"));
  ASSERT_FALSE(small45->suggestions().empty());
  EXPECT_EQ(small45->suggestions().front().knobs.value("tile_kw", 0), 2);
  // Its 4 outputs a row fit one segment of 64 inputs (44 of them used), at one warp.
  EXPECT_EQ(small45->suggestions().front().knobs.value("block", 0), 64);
  EXPECT_EQ(small45->suggestions().front().knobs.value("num_warps", 0), 1);
}

TEST(WindowFamily, TheRowVariantIsRefusedWhereItsSelectionTileWouldNotFit) {
  // 42's windows of 4 inputs at stride 1: a segment of 256 inputs serves 253 outputs, a selection tile of
  // 256 x 256, 128 values a thread even at 16 warps; 3-D pools have no row variant.
  const auto h200 = find_gpu_spec("NVIDIA H200");
  ASSERT_TRUE(h200);
  for (const char* name : {"42_Max_Pooling_2D", "46_Average_Pooling_3D"}) {
    SCOPED_TRACE(name);
    auto p = kernelbench(name);
    for (const auto& c : p->family().knob_space().enumerate()) {
      if (c.at("tile_kw") == 2 && c.at("block").get<std::int64_t>() >= 256) {
        EXPECT_FALSE(p->valid(c, &*h200, Precision::strict)) << c.dump();
      }
    }
  }
}

TEST(WindowFamily, AdaptivePoolingIsAnOrdinaryPoolWhereTheOutputDividesTheInput) {
  // 16 x 12 to 4 x 3: windows and strides of 4; 17 x 18 to 5 x 7: windows of varying size, the row variant
  // (which assumes one window size and stride) refused.
  const auto h200 = find_gpu_spec("NVIDIA H200");
  ASSERT_TRUE(h200);
  auto even = test::recognised(test::family("window"), test::family_trace("window", "adaptive_avg_pool2d_even"));
  auto uneven = test::recognised(test::family("window"), test::family_trace("window", "adaptive_avg_pool2d"));
  Config rows = even->family().knob_space().default_config();
  rows["tile_kw"] = 2;
  rows["block"] = 32;
  rows["num_warps"] = 1;
  EXPECT_TRUE(even->valid(rows, &*h200, Precision::strict));
  EXPECT_FALSE(uneven->valid(rows, &*h200, Precision::strict));
  const std::string regular = even->emit(rows, {"even"});
  EXPECT_NE(regular.find("KH=4, KW=4"), std::string::npos);
  EXPECT_NE(regular.find("SH=4, SW=4"), std::string::npos);
  Config loop = uneven->family().knob_space().default_config();
  loop["block"] = 128;
  const std::string text = uneven->emit(loop, {"uneven"});
  // Rows of 17 to 5: windows of 4 or 5 rows; columns of 18 to 7: windows of 3 or 4 columns.
  EXPECT_NE(text.find("KH=5, KW=4"), std::string::npos);
  EXPECT_NE(text.find("ADAPTIVE=True"), std::string::npos);
  EXPECT_NE(text.find("Adaptive average pooling"), std::string::npos);
}
