#pragma once
// The search step of one optimize. First what it starts from: the trials earlier runs measured of this
// very problem under the same conditions (resumed from the history), or, when there are none, a warm start
// from similar problems, and how often each knob move helped in the family's earlier runs. Then the strategy runs
// through the worker-backed executor until a limit stops it. A resumed trial is never measured again; its stored result
// counts towards the best and the finalists. A stored failure caused from outside the candidate (resume.hpp) is not
// taken over: the guided search measures its configuration again first, and the trial says so.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kernelagent/explore/worker_executor.hpp"
#include "kernelagent/history/history_store.hpp"
#include "kernelagent/orchestrate/resume.hpp"
#include "kernelagent/orchestrate/search_strategy.hpp"
#include "kernelagent/orchestrate/warm_start.hpp"
#include "kernelagent/profile/candidate_profile.hpp"

namespace kernelagent {

// One trial of this run's search, as result.json's trial_list and the finalists see it.
struct SearchTrial {
  CandidateRecord candidate;          // named in this run; a resumed trial keeps its stored figures
  std::int64_t resumed_from_run = 0;  // 0: measured by this run
  std::string resumed_from_name;      // its name in that run
  // Measured by this run again because an earlier run's failure of this configuration came from outside it.
  std::optional<MeasureAgain> measured_again;
  bool passed() const { return candidate.status == "ok"; }
};

struct KnobSearchRequest {
  std::string strategy = "guided";  // exhaustive, random or guided
  std::uint64_t seed = 1;           // of the random strategy
  SearchLimits limits;
  bool fresh = false;            // ignore the history: no resume, no warm start
  std::string bound = "memory";  // which floor binds the problem: the guided strategy prescribes from it
  CandidateKey key;              // the conditions: only stored candidates with this key are resumed
  std::string signature;         // the problem's (TraceResult::signature): warm starts look for similar ones
  std::vector<Config> valid;     // the configurations the problem, GPU and precision policy allow
  double timeout_s = 0;          // this run's compile and check deadline: a shorter one's timeouts are measured again
  // Valid configurations the problem itself suggests (FamilyProblem::suggestions), with their reasons: the
  // guided search measures them right after the default, before warm starts.
  std::vector<std::pair<Config, std::string>> suggested;
};

// What the search starts from, before anything is measured.
struct SearchStart {
  std::vector<SearchTrial> resumed;         // adopted by the executor: named in this run, sources emitted
  std::vector<MeasureAgain> measure_again;  // stored, but failures from outside: measured again
  std::vector<WarmStart> warm_starts;       // only when nothing was resumed, and only on a GPU
  MoveStats moves;                          // of the finished runs of the family on this GPU under this policy
};

// `run` is this run (its own candidates are never resumed).
SearchStart start_search(const KnobSearchRequest& request, const KnobSpace& space, WorkerExecutor& executor,
                         const HistoryStore& history, std::int64_t run);

// One profiled candidate of the search: a beam parent the guided search asked the diagnosis of.
struct SearchProfile {
  std::string candidate;  // its name in this run
  Config config;
  std::optional<CandidateDiagnosis> diagnosis;  // nullopt when profiling failed
  std::string error;                            // why it failed
};

struct KnobSearchOutcome {
  std::vector<SearchTrial> trials;  // the resumed ones first, then those measured now, in order
  std::string strategy;
  std::string stop_reason;                  // as run_search says it
  std::vector<SearchProfile> profiles;      // in the order they were taken
  std::vector<MeasureAgain> measure_again;  // the stored trials not taken over (SearchStart's)
};

// `on_trial` sees each trial as it is measured, with the number of trials so far (resumed ones included).
// With a `profiler`, the diagnosis of a configuration's kernel (which the guided search asks for its beam
// parents) comes from profiling its candidate, once per configuration; `on_profile` sees each as taken.
KnobSearchOutcome run_knob_search(const KnobSearchRequest& request, const KnobSpace& space, SearchStart start,
                                  WorkerExecutor& executor,
                                  const std::function<void(const SearchTrial&, int trials)>& on_trial = {},
                                  const CandidateProfiler& profiler = {},
                                  const std::function<void(const SearchProfile&)>& on_profile = {});

}  // namespace kernelagent
