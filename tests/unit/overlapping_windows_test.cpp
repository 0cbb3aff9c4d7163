// KernelBench's 42_Max_Pooling_2D (4 x 4 windows of stride 1 over 512 x 512): a thread an output loads each input
// once per window holding it, hits in L1 and waits; its profile on the GPU names those re-reads, and the guided
// search, told that cause, moves to the window family's ring, the fix that ran 1.9x faster there.

#include <gtest/gtest.h>

#include "family_support.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/diagnose/diagnosis.hpp"
#include "kernelagent/gpu/gpu_spec.hpp"
#include "kernelagent/orchestrate/search_strategy.hpp"
#include "kernelagent/prescribe/prescription.hpp"
#include "kernelagent/profile/ncu_report.hpp"
#include "test_data.hpp"

namespace kernelagent {
namespace {

KernelDiagnosis diagnose_case(const std::string& file) {
  const NcuReport report =
      parse_ncu_raw_csv(read_text_file(test::data_dir() / "ncu" / "h100" / "families" / file));
  const auto kernels = select_kernels(report, "^ka_pool_kernel$", true);
  EXPECT_EQ(kernels.size(), 1u);
  const auto gpu = find_gpu_spec(kernels.front()->device_name);
  EXPECT_TRUE(gpu);
  return diagnose_kernel(*kernels.front(), *gpu, ProblemFacts{});
}

TEST(OverlappingWindows, TheDiagnosisNamesTheRereadsAndTheGuidedSearchMovesToTheRing) {
  // Recorded on an H100 (scripts/record-ncu-family-cases pool42_windows_through_l1): 2.68 ms a thread an output,
  // 85 % of its L1 sectors hits, DRAM 48 % busy; the ring 1.41 ms.
  const KernelDiagnosis d = diagnose_case("pool42_windows_through_l1.raw.csv");
  ASSERT_FALSE(d.bottlenecks.empty());
  EXPECT_EQ(d.bottlenecks.front().cause, "l1_rereads") << d.bottlenecks.front().summary;
  EXPECT_FALSE(d.at_roofline);
  EXPECT_EQ(prescribe_for_cause("l1_rereads", true).tags.front(), "bytes_moved");

  const auto gpu = find_gpu_spec("NVIDIA H100 80GB HBM3");
  ASSERT_TRUE(gpu);
  const TraceResult t = TraceResult::from_json(
      test::read_json(test::data_dir() / "families" / "window" / "kernelbench" / "42_Max_Pooling_2D.json"));
  const Family& f = test::family("window");
  auto p = test::recognised(f, t);
  SearchContext ctx;
  ctx.space = &f.knob_space();
  for (const auto& c : f.knob_space().enumerate())
    if (p->valid(c, &*gpu, Precision::strict)) ctx.valid.push_back(c);
  const Config parent = f.knob_space().default_config();
  ASSERT_TRUE(p->valid(parent, &*gpu, Precision::strict));
  Trial measured;
  measured.config = parent;
  measured.result.status = "ok";
  measured.result.median_us = 2680.4;
  measured.reason = "the default configuration";
  ctx.trials.push_back(measured);
  ctx.bound = "memory";
  const std::string cause = d.bottlenecks.front().cause;
  ctx.cause_of = [&](const Config& c) { return c == parent ? cause : std::string(); };
  auto guided = make_guided_search();
  const auto next = guided->next(ctx);
  ASSERT_TRUE(next);
  EXPECT_EQ(next->first.at("tile_kw"), 3) << next->first.dump() << ": " << next->second;
  EXPECT_NE(next->second.find("l1_rereads"), std::string::npos) << next->second;
}

TEST(OverlappingWindows, OneDimensionalWindowsTooWhileDramLooksBusy) {
  // KernelBench 44 (1-D windows of 8 at stride 1) a thread an output, on an H100: DRAM 70 % busy, which alone reads
  // as a bandwidth limit, yet the loads are (84 % of the L1 sectors hits): the ring ran 1.17x faster, DRAM 82 %.
  const KernelDiagnosis d = diagnose_case("pool44_windows_through_l1.raw.csv");
  ASSERT_FALSE(d.bottlenecks.empty());
  EXPECT_EQ(d.bottlenecks.front().cause, "l1_rereads") << d.bottlenecks.front().summary;
}

TEST(OverlappingWindows, DramBusyWithWasteIsNotTheRoofline) {
  // KernelBench 45 a thread an output (11 x 11 windows 11 apart): DRAM 80 % busy reading 2.25x the input, the loads
  // using 4 bytes of every 32-byte sector; the row variant ran 2.56x faster. Without the problem's bytes the
  // verdict weighs DRAM by the share of each sector the loads use.
  const KernelDiagnosis d = diagnose_case("pool45_a_thread_an_output.raw.csv");
  ASSERT_FALSE(d.bottlenecks.empty());
  EXPECT_EQ(d.bottlenecks.front().cause, "uncoalesced_access");
  EXPECT_FALSE(d.at_roofline) << d.roofline_reading;
  EXPECT_NE(d.roofline_reading.find("use 4 of every 32 bytes"), std::string::npos) << d.roofline_reading;
}

}  // namespace
}  // namespace kernelagent
