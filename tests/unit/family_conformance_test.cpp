// Every kernel family against its own test data, tests/data/families/<name>/cases.json: each case names a
// recorded trace (scripts/record-trace) that the family must refuse with a reason containing a phrase, or
// implement with the kernels of its golden files. KA_UPDATE_GOLDEN=1 rewrites the golden files after a
// deliberate change (review the diff). tests/worker/test_golden_kernels.py runs the same golden kernels
// against their problems on Triton's interpreter.

#include <cstdlib>
#include <fstream>
#include <set>

#include <gtest/gtest.h>

#include "family_support.hpp"
#include "kernelagent/core/template.hpp"

using namespace kernelagent;
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

Config with(Config c, const json& changes) {
  for (const auto& [k, v] : changes.items()) c[k] = v;
  return c;
}

void check_golden(const std::string& src, const fs::path& golden) {
  if (std::getenv("KA_UPDATE_GOLDEN") != nullptr) {
    fs::create_directories(golden.parent_path());
    std::ofstream(golden) << src;
    return;
  }
  ASSERT_TRUE(fs::exists(golden)) << golden << " is missing; run the tests with KA_UPDATE_GOLDEN=1";
  EXPECT_EQ(src, read_text_file(golden)) << "emitted kernel differs from " << golden;
}

class FamilyConformance : public ::testing::TestWithParam<std::string> {};

}  // namespace

TEST_P(FamilyConformance, EveryCaseIsRefusedWithItsReasonOrEmitsItsGoldenKernels) {
  const std::string name = GetParam();
  const Family& f = test::family(name);
  const fs::path dir = test::data_dir() / "families" / name;
  const json cases = test::read_json(dir / "cases.json").at("cases");
  ASSERT_FALSE(cases.empty());
  int implemented = 0, refused = 0;
  std::set<std::string> goldens_used;
  for (const auto& c : cases) {
    const std::string case_name = c.at("case").get<std::string>();
    const std::string from = c.value("from", name);
    SCOPED_TRACE(name + "/" + case_name + (from != name ? " (trace from " + from + ")" : ""));
    const TraceResult trace = test::family_trace(from, case_name);
    Recognition r = f.recognise(trace);
    if (c.contains("why_not")) {
      ++refused;
      ASSERT_FALSE(r) << "the family implements a trace it should refuse";
      EXPECT_NE(r.why_not.find(c.at("why_not").get<std::string>()), std::string::npos) << r.why_not;
      continue;
    }
    ++implemented;
    ASSERT_TRUE(r) << r.why_not;
    ASSERT_TRUE(c.contains("emit")) << "a case the family implements names the kernels it emits";
    for (const auto& [variant, spec] : c.at("emit").items()) {
      SCOPED_TRACE(variant.empty() ? "first valid configuration" : variant);
      const json knobs = spec.contains("knobs") ? spec.at("knobs") : spec;
      std::optional<GpuSpec> gpu;
      if (spec.contains("gpu")) gpu = find_gpu_spec(spec.at("gpu").get<std::string>());
      Config config;
      if (variant.empty()) {
        ASSERT_NO_THROW(config = test::first_valid(*r.problem)) << "no configuration of the space is valid";
      } else {
        config = with(f.knob_space().default_config(), knobs);
      }
      EXPECT_EQ(r.problem->valid(config, gpu ? &*gpu : nullptr, Precision::strict), spec.value("valid", true))
          << config.dump();
      const std::string stem = variant.empty() ? case_name : case_name + "__" + variant;
      goldens_used.insert(stem + ".py");
      check_golden(r.problem->emit(config, {case_name + ".py"}), dir / "golden" / (stem + ".py"));
    }
  }
  EXPECT_GT(implemented, 0);
  EXPECT_GT(refused, 0) << "each family's data shows at least one problem it refuses and why";
  // Every golden file belongs to a case, so none is left behind unchecked.
  for (const auto& e : fs::directory_iterator(dir / "golden"))
    EXPECT_TRUE(goldens_used.contains(e.path().filename().string())) << e.path() << " belongs to no case";
}

INSTANTIATE_TEST_SUITE_P(Families, FamilyConformance, ::testing::ValuesIn([] {
                           std::vector<std::string> names;
                           for (const auto& f : test::families()) names.push_back(f->name());
                           return names;
                         }()),
                         [](const auto& param_info) { return param_info.param; });

TEST(FamilyConformance, EveryFamilyFolderHasTestData) {
  for (const auto& f : test::families())
    EXPECT_TRUE(fs::exists(test::data_dir() / "families" / f->name() / "cases.json")) << f->name();
}
