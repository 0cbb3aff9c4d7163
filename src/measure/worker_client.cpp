#include "kernelagent/measure/worker_client.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "kernelagent/core/error.hpp"
#include "kernelagent/core/status.hpp"

namespace kernelagent {

using nlohmann::json;
using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

namespace {

// A string field of a reply, or "" when it is absent or not a string: a broken worker must not make the
// engine throw.
std::string text_of(const json& j, const char* key) {
  if (!j.is_object()) return "";
  auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

std::string seconds(milliseconds ms) { return fmt::format("{:.1f} s", static_cast<double>(ms.count()) / 1000.0); }

bool is_note(const json& reply) { return text_of(reply, "status") == "progress"; }

// What the problem was doing when its worker hung or died, from the request's last progress note.
std::string doing(std::string_view op, const json& note) {
  const std::string phase = text_of(note, "phase");
  if (op == "trace") return "while it was traced (Model.forward under make_fx)";
  if (phase == "import") return "while it was imported";
  if (phase == "init_inputs") return "in get_init_inputs()";
  if (phase == "model") return "in Model(*get_init_inputs())";
  if (phase == "inputs") return "in get_inputs()";
  if (phase == "reference") return "in its first run of Model.forward";
  return "while it was loaded";
}

bool worker_lost(const Reply& r) {
  return r.status == status::timeout || r.status == status::crashed || r.status == status::protocol_error;
}

// The message of a load or trace whose worker hung or died: the problem file is what hung, not "the worker".
std::string problem_lost(const std::string& problem, std::string_view op, const Reply& r) {
  if (r.status == status::timeout)
    return fmt::format("problem file {} hung {}: {}", problem, doing(op, r.phase), r.message);
  if (r.status == status::protocol_error)
    return fmt::format("problem file {}: the worker's reply to {} it could not be read ({})", problem,
                       op == "trace" ? "tracing" : "loading", r.message);
  return fmt::format("problem file {} ended its worker {}: {}", problem, doing(op, r.phase), r.message);
}

Reply from_exchange(const Exchange& ex) {
  switch (ex.outcome) {
    case Exchange::Outcome::reply: {
      Reply r;
      r.status = text_of(ex.reply, "status");
      if (r.status.empty()) r.status = status::protocol_error;
      r.message = text_of(ex.reply, "message");
      r.body = ex.reply;
      return r;
    }
    case Exchange::Outcome::timeout: return {std::string(status::timeout), ex.detail, {}};
    case Exchange::Outcome::crashed:
      return {std::string(status::crashed), ex.detail, {}, ex.signal};
    case Exchange::Outcome::protocol_error: return {std::string(status::protocol_error), ex.detail, {}};
  }
  return {std::string(status::protocol_error), "unknown outcome", {}};
}

}  // namespace

std::string Reply::phase_name() const { return text_of(phase, "phase"); }

WorkerClient::WorkerClient(WorkerCommand command, WorkerTimeouts timeouts)
    : command_(command), timeouts_(timeouts), process_(std::move(command)) {}

const json& WorkerClient::start() {
  Exchange ex = process_.start(timeouts_.start);
  if (ex.outcome != Exchange::Outcome::reply || ex.reply.value("op", std::string()) != "hello") {
    std::string where = command_.stderr_path.empty() ? "" : fmt::format(" (its log: {})", command_.stderr_path);
    throw UserError(ExitCode::environment,
                    fmt::format("the Python worker did not start with '{}': {}{}. Check that this Python has "
                                "torch and triton installed (pip install -r python/requirements.txt) or pass "
                                "--python PATH.",
                                command_.argv.empty() ? "" : command_.argv.front(), ex.detail, where));
  }
  if (ex.reply.value("status", std::string()) != "ok")  // a worker that knows why it cannot serve says so
    throw UserError(ExitCode::environment,
                    fmt::format("the worker did not start: {}", ex.reply.value("message", ex.reply.dump())));
  hello_ = ex.reply;
  started_once_ = true;
  compiled_here_.clear();
  return hello_;
}

Reply WorkerClient::send(json req, milliseconds timeout) {
  req["id"] = next_id_++;
  const std::string op = text_of(req, "op");
  // Loads and checks say which phase they are in, so a hang or a crash is put on what was running.
  if (op == "load" || op == "check") req["progress"] = true;
  const Clock::time_point started = Clock::now();
  json note;                                         // the last progress note
  std::optional<Clock::time_point> reference_since;  // a check's reference is running since then
  Clock::duration in_reference{0};                   // time the check's reference runs took so far
  Exchange ex = process_.request(req, timeout);
  while (ex.outcome == Exchange::Outcome::reply && is_note(ex.reply)) {
    const Clock::time_point now = Clock::now();
    if (reference_since) in_reference += now - *std::exchange(reference_since, std::nullopt);
    note = ex.reply;
    if (op == "check" && text_of(note, "phase") == "reference") reference_since = now;
    if (on_note_) on_note_(note);
    // The candidate's clock stops while the reference runs; each reference run has the load timeout.
    const Clock::time_point until = reference_since ? *reference_since + timeouts_.load
                                                    : started + timeout + in_reference;
    ex = process_.receive(std::max(milliseconds(0), std::chrono::duration_cast<milliseconds>(until - now)));
  }
  Reply r = from_exchange(ex);
  r.phase = note;
  if (ex.outcome == Exchange::Outcome::timeout)  // the budget that ran out, not the last wait's remainder
    r.message = fmt::format("no reply within {}; worker killed", seconds(reference_since ? timeouts_.load : timeout));
  // A sticky reply (a CUDA error that poisons the context, or a change a candidate made that cannot be put
  // back, such as a thread it left running): the worker exits after replying, we restart on next use.
  if (r.body.is_object() && r.body.value("sticky", false)) process_.kill();
  if (status_kills_worker(r.status)) process_.kill();
  return r;
}

std::optional<Reply> WorkerClient::ensure_ready(const std::vector<std::string>& candidates) {
  unavailable_ = false;
  if (!process_.running()) {
    Exchange ex = process_.start(timeouts_.start);
    unavailable_ = true;
    if (ex.outcome != Exchange::Outcome::reply)
      return Reply{std::string(status::crashed), "worker failed to restart: " + ex.detail, {}};
    const std::string device = ex.reply.value("device", std::string());
    if (ex.reply.value("status", std::string()) != "ok" ||
        (started_once_ && device != hello_.value("device", std::string()))) {
      process_.kill();
      return Reply{std::string(status::crashed),
                   fmt::format("worker restarted on '{}' instead of '{}': {}", device,
                               hello_.value("device", std::string()), ex.reply.value("message", std::string())),
                   {}};
    }
    ++restarts_;
    compiled_here_.clear();
    if (load_request_) {
      Reply r = send(*load_request_, timeouts_.load);
      if (!r.ok()) return Reply{r.status, "reloading the problem after a worker restart failed: " + r.message, {}};
    }
    unavailable_ = false;
  }
  for (const auto& name : candidates) {
    if (compiled_here_.contains(name)) continue;
    auto it = candidate_paths_.find(name);
    if (it == candidate_paths_.end()) continue;  // the worker itself will say it does not know it
    Reply r = send({{"op", "compile"}, {"candidate", name}, {"path", it->second}}, timeouts_.compile);
    if (!r.ok()) return r;
    compiled_here_.insert(name);
  }
  return std::nullopt;
}

Reply WorkerClient::load(const std::string& problem_path, int seed, const std::string& precision) {
  json req = {{"op", "load"}, {"problem", problem_path}, {"seed", seed}};
  if (!precision.empty()) req["precision"] = precision;
  load_request_.reset();
  if (auto failed = ensure_ready({})) return *failed;
  Reply r = send(req, timeouts_.load);
  if (r.ok()) load_request_ = req;
  if (worker_lost(r)) r.message = problem_lost(problem_path, "load", r);
  return r;
}

Reply WorkerClient::trace() {
  if (auto failed = ensure_ready({})) return *failed;
  Reply r = send({{"op", "trace"}}, timeouts_.trace);
  if (worker_lost(r) && load_request_) r.message = problem_lost(text_of(*load_request_, "problem"), "trace", r);
  return r;
}

Reply WorkerClient::compile(const std::string& candidate, const std::string& path) {
  if (auto failed = ensure_ready({})) return *failed;
  Reply r = send({{"op", "compile"}, {"candidate", candidate}, {"path", path}}, timeouts_.compile);
  if (r.ok()) {
    candidate_paths_[candidate] = path;
    compiled_here_.insert(candidate);
  }
  return r;
}

Reply WorkerClient::check(const std::string& candidate, const std::vector<int>& seeds, double atol, double rtol) {
  if (auto failed = ensure_ready({candidate})) return *failed;
  Reply r = send({{"op", "check"}, {"candidate", candidate}, {"seeds", seeds}, {"atol", atol}, {"rtol", rtol}},
                 timeouts_.check);
  if (!worker_lost(r) || r.phase.is_null()) return r;
  const json seed_field = r.phase.value("seed", json());
  const int seed = seed_field.is_number_integer() ? seed_field.get<int>() : 0;
  if (r.phase_name() != "reference") {  // the candidate's doing: say where
    r.message += fmt::format(" (candidate {} was running on seed {})", candidate, seed);
    return r;
  }
  // The reference hung or ended the worker after the candidate had run: the problem's failure.
  const std::string problem = load_request_ ? text_of(*load_request_, "problem") : std::string("(not loaded)");
  r.message = fmt::format("problem file {} {} in its reference (Model.forward) on seed {} of the check, after "
                          "candidate {} had run: {}",
                          problem, r.status == status::timeout ? "hung" : "ended its worker", seed, candidate,
                          r.message);
  r.status = status::bad_problem;
  return r;
}

Reply WorkerClient::time(const std::vector<std::string>& targets, double min_ms, int rounds,
                         double graph_below_us) {
  if (auto failed = ensure_ready(targets)) return *failed;
  return send({{"op", "time"},
               {"targets", targets},
               {"min_ms", min_ms},
               {"warmup_ms", 25},
               {"rounds", rounds},
               {"graph_below_us", graph_below_us}},
              timeouts_.time);
}

Reply WorkerClient::mode_error(const std::string& mode, const std::vector<int>& seeds, double atol, double rtol) {
  if (auto failed = ensure_ready({})) return *failed;
  // As many reference runs as a check's, each with the load timeout a reference run has.
  const auto limit = timeouts_.load * (2 * static_cast<int>(seeds.size()) + 1);
  return send({{"op", "mode_error"}, {"mode", mode}, {"seeds", seeds}, {"atol", atol}, {"rtol", rtol}}, limit);
}

Reply WorkerClient::release() {
  if (!process_.running()) return {"ok", "", {}};
  return send({{"op", "release"}}, std::chrono::milliseconds(60'000));
}

void WorkerClient::shutdown() {
  if (!process_.running()) return;
  send({{"op", "shutdown"}}, std::chrono::milliseconds(10'000));
  process_.kill();
}

}  // namespace kernelagent
