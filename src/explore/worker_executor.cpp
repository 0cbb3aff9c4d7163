#include "kernelagent/explore/worker_executor.hpp"

#include "kernelagent/core/template.hpp"
#include "kernelagent/measure/timing.hpp"

namespace kernelagent {

namespace fs = std::filesystem;

WorkerExecutor::WorkerExecutor(WorkerClient& worker, HistoryStore& history, std::int64_t run, const Family& family,
                               const TraceResult& trace, CandidateSettings settings)
    : worker_(worker), history_(history), run_(run), family_(family), trace_(trace), settings_(std::move(settings)) {}

fs::path WorkerExecutor::emit(const std::string& name, const Config& config) const {
  const fs::path src = fs::absolute(settings_.candidates_dir / (name + ".py"));
  write_text_file(src, family_.emit(trace_, config, {settings_.problem_label}));
  return src;
}

Reply WorkerExecutor::compile_and_check(CandidateRecord& rec) {
  Reply r = worker_.compile(rec.name, rec.source_path);
  rec.compile_ms = r.body.is_object() ? r.body.value("compile_ms", 0.0) : 0.0;
  if (!r.ok()) return r;
  r = worker_.check(rec.name, settings_.check_seeds, settings_.tolerance.atol, settings_.tolerance.rtol);
  if (r.body.contains("max_abs_err") && r.body.at("max_abs_err").is_number())
    rec.max_abs_err = r.body.at("max_abs_err").get<double>();
  return r;
}

Measurement WorkerExecutor::measure(const Config& config, const std::string& reason) {
  CandidateRecord rec;
  rec.name = next_name();
  rec.family = family_.name();
  rec.family_hash = family_.source_hash();
  rec.config = config;
  rec.reason = reason;
  rec.source_path = emit(rec.name, config).string();

  Reply r = compile_and_check(rec);
  if (r.ok() && worker_.on_gpu()) {
    Timing t = timing_of(worker_.time({rec.name}, settings_.search_min_ms, 1, settings_.graph_below_us), rec.name);
    r.status = t.status;
    r.message = t.message;
    rec.median_us = t.median_us, rec.p10_us = t.p10_us, rec.p90_us = t.p90_us;
    rec.reps = t.reps, rec.method = t.method;
  }
  rec.status = r.status;
  rec.message = r.message;
  history_.record_candidate(run_, rec);
  measured_.push_back(rec);
  return {rec.status, rec.median_us};
}

CandidateRecord WorkerExecutor::adopt(const CandidateRecord& stored) {
  CandidateRecord rec = stored;
  rec.name = next_name();
  rec.source_path = emit(rec.name, rec.config).string();
  return rec;
}

Reply WorkerExecutor::rebuild(const CandidateRecord& candidate) {
  CandidateRecord scratch = candidate;  // the stored figures stay as they were measured
  return compile_and_check(scratch);
}

}  // namespace kernelagent
