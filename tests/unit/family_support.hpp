#pragma once
// What the family tests share: the families loaded from the source tree once, and each family's recorded
// traces under tests/data/families/<name>/traces.

#include <map>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "kernelagent/families/family.hpp"
#include "kernelagent/families/registry.hpp"
#include "test_data.hpp"

namespace kernelagent::test {

inline const std::vector<std::unique_ptr<Family>>& families() {
  static const auto loaded = load_families(source_dir() / "families");
  return loaded;
}

inline const Family& family(const std::string& name) {
  const Family* f = find_family(families(), name);
  if (!f) throw std::runtime_error("no family " + name);
  return *f;
}

inline TraceResult family_trace(const std::string& family_name, const std::string& trace_name) {
  return TraceResult::from_json(read_json(data_dir() / "families" / family_name / "traces" / (trace_name + ".json")));
}

// The problem as `f` recognises it; throws with the family's reason when it does not.
inline std::shared_ptr<const FamilyProblem> recognised(const Family& f, const TraceResult& t) {
  Recognition r = f.recognise(t);
  if (!r) throw std::runtime_error(f.name() + " does not implement the trace: " + r.why_not);
  return r.problem;
}

// The reason `f` gives for not implementing `t`, or "" when it does.
inline std::string why_not(const Family& f, const TraceResult& t) { return f.recognise(t).why_not; }

// The first configuration of the space that is valid for the problem: what a one-trial run would use.
inline Config first_valid(const FamilyProblem& p, const GpuSpec* gpu = nullptr, Precision precision = Precision::strict) {
  // The space is enumerated once per family (the conv family's has about 70,000 configurations).
  static std::map<const Family*, std::vector<Config>> spaces;
  auto [it, fresh] = spaces.try_emplace(&p.family());
  if (fresh) it->second = p.family().knob_space().enumerate();
  for (const auto& c : it->second)
    if (p.valid(c, gpu, precision)) return c;
  throw std::runtime_error("no valid configuration");
}

// One call per question over a family, recognising the trace each time: for tests that ask about many
// traces or edit one between questions.
struct FamilyCalls {
  const Family& f;
  std::string name() const { return f.name(); }
  const KnobSpace& knob_space() const { return f.knob_space(); }
  const std::string& source_hash() const { return f.source_hash(); }
  std::optional<std::string> why_not(const TraceResult& t) const {
    Recognition r = f.recognise(t);
    return r ? std::nullopt : std::optional<std::string>(r.why_not);
  }
  bool valid(const Config& c, const TraceResult& t, const GpuSpec* gpu, Precision precision) const {
    Recognition r = f.recognise(t);
    return r && r.problem->valid(c, gpu, precision);
  }
  std::string emit(const TraceResult& t, const Config& c, const EmitContext& ctx) const {
    return recognised(f, t)->emit(c, ctx);
  }
};

}  // namespace kernelagent::test
