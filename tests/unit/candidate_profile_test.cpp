// Profile and Diagnose of one candidate inside a search: the main kernel of a multi-kernel profile, the
// cause the search acts on, the record's form, and a profiler that gives up on a machine where ncu fails.

#include <gtest/gtest.h>

#include "kernelagent/core/error.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/profile/candidate_profile.hpp"
#include "test_data.hpp"

namespace kernelagent {
namespace {

NcuReport fixture(const std::string& file) {
  return parse_ncu_raw_csv(read_text_file(test::data_dir() / "ncu" / "h200" / file));
}

GpuSpec h200() { return *find_gpu_spec("NVIDIA H200"); }

TEST(CandidateProfile, TheLongestOwnKernelIsTheOneDiagnosed) {
  // A candidate's call can launch several kernels of its own (a split reduction's fold): the one that
  // ran longest does the work. Here a 1.3 ms four-program walk beside a 0.2 ms streaming add.
  NcuReport report = fixture("mem_coalesced.raw.csv");
  NcuReport walk = fixture("latency_tiny_grid.raw.csv");
  report.kernels.insert(report.kernels.end(), walk.kernels.begin(), walk.kernels.end());
  const CandidateDiagnosis d = diagnose_candidate(report, h200(), {});
  EXPECT_EQ(d.kernel, "tiny_grid_k");
  EXPECT_EQ(d.kernels, 2);
  EXPECT_EQ(d.cause, "small_grid");
  EXPECT_EQ(d.category, "underutilized");
  EXPECT_FALSE(d.at_roofline);
  EXPECT_GT(d.duration_us, 1000);
}

TEST(CandidateProfile, LibraryKernelsAreNotTheCandidates) {
  // mixed_program holds torch's fills, a CUTLASS SGEMM and torch's softmax besides one Triton kernel.
  const CandidateDiagnosis d = diagnose_candidate(fixture("mixed_program.raw.csv"), h200(), {});
  EXPECT_EQ(d.kernel, "add_kernel");
  EXPECT_EQ(d.kernels, 1);
  NcuReport only_library = fixture("mixed_program.raw.csv");
  only_library.kernels.erase(only_library.kernels.begin() + 2);  // the add_kernel
  EXPECT_THROW(diagnose_candidate(only_library, h200(), {}), UserError);
}

TEST(CandidateProfile, RoundTripsThroughJson) {
  const CandidateDiagnosis d =
      diagnose_candidate(fixture("mem_coalesced.raw.csv"), h200(), {.compulsory_bytes = 805306368.0});
  EXPECT_EQ(d.cause, "dram_bandwidth_saturated");
  EXPECT_TRUE(d.at_roofline);
  const CandidateDiagnosis back = CandidateDiagnosis::from_json(d.to_json());
  EXPECT_EQ(back.cause, d.cause);
  EXPECT_EQ(back.kernel, d.kernel);
  EXPECT_DOUBLE_EQ(back.sol.dram_pct, d.sol.dram_pct);
  EXPECT_EQ(back.at_roofline, d.at_roofline);
  EXPECT_THROW(CandidateDiagnosis::from_json({{"kernel", "k"}}), UserError);
}

TEST(CandidateProfile, AProfilerThatKeepsFailingStopsTrying) {
  NcuProfilerSettings s;
  s.ncu.ncu = "/nonexistent/ncu";
  s.python = "/nonexistent/python";
  s.out_dir = ::testing::TempDir();
  s.gpu = h200();
  CandidateProfiler profile = make_ncu_profiler(s);
  for (int i = 0; i < kProfileFailuresBeforeGivingUp; ++i) {
    std::string error;
    EXPECT_FALSE(profile("c" + std::to_string(i), "/nonexistent/k.py", &error));
    EXPECT_FALSE(error.empty());
    EXPECT_EQ(error.find("profiling stopped"), std::string::npos) << error;
  }
  std::string error;
  EXPECT_FALSE(profile("c9", "/nonexistent/k.py", &error));
  EXPECT_NE(error.find("profiling stopped after 2 failures"), std::string::npos) << error;
}

}  // namespace
}  // namespace kernelagent
