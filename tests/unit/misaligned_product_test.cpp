// KernelBench's 8_Matmul_with_irregular_shapes_ (8205 x 2949 by 2949 x 5921, rows not 16-byte aligned): its
// profile on the GPU names the misalignment, and the guided search, told that cause, moves to the aligned
// copy of the operands, the fix that made it 3.9x faster there.

#include <gtest/gtest.h>

#include "family_support.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/diagnose/diagnosis.hpp"
#include "kernelagent/gpu/gpu_spec.hpp"
#include "kernelagent/orchestrate/search_strategy.hpp"
#include "kernelagent/profile/ncu_report.hpp"
#include "test_data.hpp"

namespace kernelagent {
namespace {

TEST(MisalignedProduct, TheDiagnosisNamesTheMisalignmentAndTheGuidedSearchAlignsTheOperands) {
  // The profile of the family's 3xTF32 kernel without ALIGN, recorded on an H100 (scripts/record-ncu-family-cases
  // matmul8_misaligned_rows): 14.3 ms; the same with ALIGN=1, 3.7 ms.
  const NcuReport report = parse_ncu_raw_csv(
      read_text_file(test::data_dir() / "ncu" / "h100" / "families" / "matmul8_misaligned_rows.raw.csv"));
  const auto kernels = select_kernels(report, "^ka_matmul_kernel$", true);
  ASSERT_EQ(kernels.size(), 1u);
  const auto gpu = find_gpu_spec(kernels.front()->device_name);
  ASSERT_TRUE(gpu);
  ProblemFacts facts;
  facts.matrix_product = true;
  const KernelDiagnosis d = diagnose_kernel(*kernels.front(), *gpu, facts);
  ASSERT_FALSE(d.bottlenecks.empty());
  EXPECT_EQ(d.bottlenecks.front().cause, "narrow_async_copies");

  // The search over the problem's own space at its KernelBench shape, the profiled kernel measured first.
  const TraceResult t = TraceResult::from_json(
      test::read_json(test::data_dir() / "families" / "matmul" / "kernelbench" / "8_Matmul_with_irregular_shapes_.json"));
  const Family& f = test::family("matmul");
  auto p = test::recognised(f, t);
  SearchContext ctx;
  ctx.space = &f.knob_space();
  for (const auto& c : f.knob_space().enumerate())
    if (p->valid(c, &*gpu, Precision::strict)) ctx.valid.push_back(c);
  Config parent = f.knob_space().default_config();
  parent["input_precision"] = "tf32x3";
  parent["ALIGN"] = 0;
  ASSERT_TRUE(p->valid(parent, &*gpu, Precision::strict));
  Trial measured;
  measured.config = parent;
  measured.result.status = "ok";
  measured.result.median_us = 14263.5;
  measured.reason = "the default configuration";
  ctx.trials.push_back(measured);
  ctx.bound = "compute";
  const std::string cause = d.bottlenecks.front().cause;
  ctx.cause_of = [&](const Config& c) { return c == parent ? cause : std::string(); };
  auto guided = make_guided_search();
  const auto next = guided->next(ctx);
  ASSERT_TRUE(next);
  Config aligned = parent;
  aligned["ALIGN"] = 1;
  EXPECT_EQ(next->first, aligned) << next->second;
  EXPECT_NE(next->second.find("narrow_async_copies"), std::string::npos) << next->second;
}

}  // namespace
}  // namespace kernelagent
