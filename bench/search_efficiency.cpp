// The search-efficiency benchmark: on every recorded sweep (tests/data/sweeps/h200), how many trials each
// search strategy needs before it has measured a configuration within 2 % of the exhaustive best. Random
// search is run with 101 seeds (median and worst); exhaustive and guided are deterministic.
//   build/debug/search_efficiency [SWEEP_DIR]

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "kernelagent/core/error.hpp"
#include "kernelagent/explore/sweep_record.hpp"
#include "kernelagent/orchestrate/search_strategy.hpp"

using namespace kernelagent;
namespace fs = std::filesystem;

namespace {

constexpr double kWithin = 1.02;

// Trials until one is within 2 % of the best; the space size + 1 if never.
int trials_to_near_best(SearchStrategy& s, SweepRecord& rec) {
  SearchContext ctx;
  ctx.space = &rec.space();
  ctx.valid = rec.configs();
  ctx.bound = rec.bound();
  const double goal = *rec.best_us() * kWithin;
  SearchOutcome out = run_search(s, rec, ctx, {});
  for (std::size_t i = 0; i < out.trials.size(); ++i)
    if (out.trials[i].result.ok() && *out.trials[i].result.median_us <= goal) return static_cast<int>(i) + 1;
  return static_cast<int>(rec.configs().size()) + 1;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n == 0 ? 0 : (n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2);
}

}  // namespace

int main(int argc, char** argv) {
  const fs::path dir = argc > 1 ? fs::path(argv[1]) : fs::path(KA_TEST_DATA) / "sweeps" / "h200";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().string().ends_with(".sweep.json")) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::cerr << "no *.sweep.json in " << dir << "\n";
    return 2;
  }
  fmt::print("trials to come within 2 % of the exhaustive best (of the space's valid configurations)\n");
  fmt::print("{:<40} {:>6} {:>11} {:>8} {:>14} {:>13}\n", "sweep", "space", "exhaustive", "guided", "random median",
             "random worst");
  std::vector<double> guided_frac, random_frac, exhaustive_frac;
  int guided_beats_random = 0;
  for (const auto& f : files) {
    try {
      SweepRecord rec = SweepRecord::load(f);
      if (!rec.best_us()) continue;
      const int space = static_cast<int>(rec.configs().size());
      const int ex = trials_to_near_best(*make_exhaustive_search(), rec);
      const int gd = trials_to_near_best(*make_guided_search(), rec);
      std::vector<double> rnd;
      for (std::uint64_t seed = 1; seed <= 101; ++seed)
        rnd.push_back(trials_to_near_best(*make_random_search(seed), rec));
      const double rmed = median(rnd), rworst = *std::max_element(rnd.begin(), rnd.end());
      fmt::print("{:<40} {:>6} {:>11} {:>8} {:>14.0f} {:>13.0f}\n", f.filename().string().substr(0, 40), space, ex, gd,
                 rmed, rworst);
      exhaustive_frac.push_back(static_cast<double>(ex) / space);
      guided_frac.push_back(static_cast<double>(gd) / space);
      random_frac.push_back(rmed / space);
      guided_beats_random += gd < rmed;
    } catch (const std::exception& e) {
      std::cerr << f << ": " << e.what() << "\n";
      return 2;
    }
  }
  auto pct = [](double x) { return fmt::format("{:.0f}%", 100 * x); };
  fmt::print(
      "\nas a share of the space, median over {} sweeps (worst): exhaustive {} ({}), guided {} ({}), random {} ({})\n",
      guided_frac.size(), pct(median(exhaustive_frac)),
      pct(*std::max_element(exhaustive_frac.begin(), exhaustive_frac.end())), pct(median(guided_frac)),
      pct(*std::max_element(guided_frac.begin(), guided_frac.end())), pct(median(random_frac)),
      pct(*std::max_element(random_frac.begin(), random_frac.end())));
  fmt::print("guided needs fewer trials than random's median on {} of {} sweeps\n", guided_beats_random,
             guided_frac.size());
  return 0;
}
