// The reduction family against recorded traces (tests/data/traces_reduction, from the real worker) and
// golden kernels (tests/data/golden/reduction). KA_UPDATE_GOLDEN=1 rewrites the golden files.

#include <cstdlib>
#include <fstream>

#include <gtest/gtest.h>

#include "kernelagent/core/template.hpp"
#include "kernelagent/families/reduction/reduction_family.hpp"
#include "test_data.hpp"

using namespace kernelagent;
namespace fs = std::filesystem;

namespace {

ReductionFamily family() { return ReductionFamily(test::source_dir() / "families" / "reduction"); }

std::vector<fs::path> traces(const std::string& folder) {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(test::data_dir() / folder))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

TraceResult trace(const std::string& name) {
  return TraceResult::from_json(test::read_json(test::data_dir() / "traces_reduction" / (name + ".json")));
}

// The first configuration of the space that is valid for a trace: what a one-trial run would use.
Config first_valid(const ReductionFamily& f, const TraceResult& t) {
  for (const auto& c : f.knob_space().enumerate())
    if (f.valid(c, t, nullptr, Precision::strict)) return c;
  throw std::runtime_error("no valid configuration");
}

}  // namespace

TEST(ReductionFamily, RecognisesEachRecordedReductionWithItsShape) {
  struct Expect { const char* name; const char* op; std::int64_t outer, r, inner; };
  for (const Expect& e : {Expect{"softmax", "softmax", 8, 1000, 1}, Expect{"log_softmax", "log_softmax", 8, 1500, 1},
                          Expect{"sum_middle", "sum", 4, 300, 33}, Expect{"mean_middle", "mean", 4, 300, 33},
                          Expect{"max_middle", "max", 4, 300, 33}, Expect{"min_last", "min", 16, 5000, 1},
                          Expect{"argmax_middle", "argmax", 4, 300, 33}, Expect{"argmin_middle", "argmin", 4, 300, 33}}) {
    std::string why;
    auto s = ReductionFamily::recognise(trace(e.name), &why);
    ASSERT_TRUE(s.has_value()) << e.name << ": " << why;
    EXPECT_EQ(s->op, e.op) << e.name;
    EXPECT_EQ(s->outer, e.outer) << e.name;
    EXPECT_EQ(s->r, e.r) << e.name;
    EXPECT_EQ(s->inner, e.inner) << e.name;
  }
  EXPECT_EQ(ReductionFamily::recognise(trace("argmax_middle"), nullptr)->out_dtype, "int64");
  EXPECT_EQ(ReductionFamily::recognise(trace("sum_middle"), nullptr)->out_shape, (std::vector<std::int64_t>{4, 1, 33}));
}

TEST(ReductionFamily, DeclinesElementwiseAndOtherGraphsWithAReason) {
  auto f = family();
  for (const auto& p : traces("traces")) {
    auto why = f.why_not(TraceResult::from_json(test::read_json(p)));
    ASSERT_TRUE(why.has_value()) << p.filename();
    EXPECT_NE(why->find("is not a reduction"), std::string::npos) << *why;
  }
  auto t = trace("max_middle");
  t.graph.outputs = {"n2"};  // the indices of max.dim, not its values
  EXPECT_NE(f.why_not(t)->find("indices"), std::string::npos);
}

TEST(ReductionFamily, PrunesByLayoutTileSizeAndLength) {
  auto f = family();
  auto last = trace("softmax"), middle = trace("sum_middle");
  auto cfg = [](int r, int i, int w) { return Config{{"block_r", r}, {"block_i", i}, {"num_warps", w}}; };
  EXPECT_TRUE(f.valid(cfg(1024, 1, 8), last, nullptr, Precision::strict));
  EXPECT_FALSE(f.valid(cfg(1024, 16, 8), last, nullptr, Precision::strict));   // columns only for an inner dim
  EXPECT_FALSE(f.valid(cfg(256, 1, 8), middle, nullptr, Precision::strict));   // strided rows need column blocks
  EXPECT_TRUE(f.valid(cfg(256, 64, 8), middle, nullptr, Precision::strict));
  EXPECT_FALSE(f.valid(cfg(4096, 16, 8), middle, nullptr, Precision::strict));  // 64K elements in registers
  EXPECT_FALSE(f.valid(cfg(4096, 1, 8), last, nullptr, Precision::strict));     // a tile 4x the 1000-long row
}

TEST(ReductionFamily, SoftmaxKeepsARowInRegistersOnlyWhenItFits) {
  auto f = family();
  Config c{{"block_r", 1024}, {"block_i", 1}, {"num_warps", 8}};
  EXPECT_NE(f.emit(trace("softmax"), c, {"x"}).find("ONE_TILE=True"), std::string::npos);      // 1000 <= 1024
  EXPECT_NE(f.emit(trace("log_softmax"), c, {"x"}).find("ONE_TILE=False"), std::string::npos);  // 1500 > 1024
}

TEST(ReductionFamily, EmitsTheGoldenKernelForEveryTrace) {
  auto f = family();
  const bool update = std::getenv("KA_UPDATE_GOLDEN") != nullptr;
  fs::create_directories(test::data_dir() / "golden" / "reduction");
  for (const auto& p : traces("traces_reduction")) {
    auto t = TraceResult::from_json(test::read_json(p));
    std::string src = f.emit(t, first_valid(f, t), {p.stem().string() + ".py"});
    fs::path golden = test::data_dir() / "golden" / "reduction" / (p.stem().string() + ".py");
    if (update) {
      std::ofstream(golden) << src;
      continue;
    }
    ASSERT_TRUE(fs::exists(golden)) << golden << " is missing; run the tests with KA_UPDATE_GOLDEN=1";
    EXPECT_EQ(src, read_text_file(golden)) << "emitted kernel differs from " << golden;
  }
}
