// The search-efficiency benchmark: on every recorded sweep (tests/data/sweeps/h200), how many trials each
// search strategy needs before it has measured a configuration within 2 % of the exhaustive best. Random
// search is run with 101 seeds (median and worst); exhaustive and guided are deterministic.
// Guided runs twice: cold (no history), and with the other records of the same family, GPU and precision
// policy as its history (leave one out: a record never informs its own search), which gives it warm
// starts from the nearest problems and the move statistics of DESIGN.md section 7, as `optimize` has
// them from the history database.
//   build/debug/search_efficiency [SWEEP_DIR]

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "kernelagent/core/error.hpp"
#include "kernelagent/explore/sweep_record.hpp"
#include "kernelagent/orchestrate/replay_context.hpp"
#include "kernelagent/orchestrate/search_strategy.hpp"
#include "kernelagent/orchestrate/warm_start.hpp"

using namespace kernelagent;
namespace fs = std::filesystem;

namespace {

constexpr double kWithin = 1.02;

// What the history would hold for one record: the other records of its family, GPU and policy.
struct History {
  std::vector<std::pair<Config, std::string>> seeds;
  MoveStats moves;
};

std::string conditions(const SweepRecord& r) {
  const auto& j = r.raw();
  const auto gpu = j.value("gpu", nlohmann::json::object());
  return j.value("family", "") + "|" + (gpu.is_object() ? gpu.value("device_name", "") : "") + "|" +
         j.value("precision", "");
}

std::vector<std::pair<Config, double>> measured(const SweepRecord& r) {
  std::vector<std::pair<Config, double>> out;
  for (const auto& c : r.configs())
    if (auto m = r.measure(c); m.ok()) out.emplace_back(c, *m.median_us);
  return out;
}

History history_for(std::size_t self, const std::vector<SweepRecord>& records) {
  History h;
  std::vector<FinishedRun> runs;
  const SweepRecord& me = records[self];
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (i == self || conditions(records[i]) != conditions(me)) continue;
    const auto m = measured(records[i]);
    if (m.empty()) continue;
    h.moves.add_run(m);
    const auto best = std::min_element(m.begin(), m.end(), [](auto& a, auto& b) { return a.second < b.second; });
    runs.push_back({static_cast<std::int64_t>(i + 1), records[i].name(),
                    records[i].raw().at("problem").value("signature", ""), best->first, best->second});
  }
  for (auto& w : warm_starts_for(runs, me.raw().at("problem").value("signature", ""), me.space(), me.configs()))
    h.seeds.emplace_back(std::move(w.config), std::move(w.reason));
  return h;
}

// Trials until one is within 2 % of the best; the space size + 1 if never.
int trials_to_near_best(SearchStrategy& s, SweepRecord& rec, const History* history = nullptr) {
  SearchContext ctx = replay_context(rec);
  if (history) {
    ctx.seeds = history->seeds;
    ctx.moves = &history->moves;
  }
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
  std::vector<SweepRecord> records;
  for (const auto& f : files) {
    try {
      records.push_back(SweepRecord::load(f));
    } catch (const std::exception& e) {
      std::cerr << f << ": " << e.what() << "\n";
      return 2;
    }
  }
  fmt::print("trials to come within 2 % of the exhaustive best (of the space's valid configurations)\n");
  fmt::print("{:<40} {:>6} {:>11} {:>8} {:>10} {:>14} {:>13}\n", "sweep", "space", "exhaustive", "guided",
             "+history", "random median", "random worst");
  std::vector<double> guided_frac, history_frac, random_frac, exhaustive_frac;
  int guided_beats_random = 0, history_beats_random = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    SweepRecord& rec = records[i];
    if (!rec.best_us()) continue;
    const int space = static_cast<int>(rec.configs().size());
    const int ex = trials_to_near_best(*make_exhaustive_search(), rec);
    const int gd = trials_to_near_best(*make_guided_search(), rec);
    const History h = history_for(i, records);
    const int gh = trials_to_near_best(*make_guided_search(), rec, &h);
    std::vector<double> rnd;
    for (std::uint64_t seed = 1; seed <= 101; ++seed) rnd.push_back(trials_to_near_best(*make_random_search(seed), rec));
    const double rmed = median(rnd), rworst = *std::max_element(rnd.begin(), rnd.end());
    fmt::print("{:<40} {:>6} {:>11} {:>8} {:>10} {:>14.0f} {:>13.0f}\n", files[i].filename().string().substr(0, 40),
               space, ex, gd, gh, rmed, rworst);
    exhaustive_frac.push_back(static_cast<double>(ex) / space);
    guided_frac.push_back(static_cast<double>(gd) / space);
    history_frac.push_back(static_cast<double>(gh) / space);
    random_frac.push_back(rmed / space);
    guided_beats_random += gd < rmed;
    history_beats_random += gh < rmed;
  }
  auto pct = [](double x) { return fmt::format("{:.0f}%", 100 * x); };
  auto worst = [](const std::vector<double>& v) { return *std::max_element(v.begin(), v.end()); };
  fmt::print(
      "\nas a share of the space, median over {} sweeps (worst): exhaustive {} ({}), guided {} ({}), "
      "guided with history {} ({}), random {} ({})\n",
      guided_frac.size(), pct(median(exhaustive_frac)), pct(worst(exhaustive_frac)), pct(median(guided_frac)),
      pct(worst(guided_frac)), pct(median(history_frac)), pct(worst(history_frac)), pct(median(random_frac)),
      pct(worst(random_frac)));
  fmt::print("fewer trials than random's median: guided on {} of {} sweeps, guided with history on {}\n",
             guided_beats_random, guided_frac.size(), history_beats_random);
  return 0;
}
