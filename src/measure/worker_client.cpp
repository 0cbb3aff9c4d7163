#include "kernelagent/measure/worker_client.hpp"

#include <fmt/format.h>

#include "kernelagent/core/error.hpp"
#include "kernelagent/core/status.hpp"

namespace kernelagent {

using nlohmann::json;

namespace {

Reply from_exchange(const Exchange& ex) {
  switch (ex.outcome) {
    case Exchange::Outcome::reply: {
      Reply r;
      r.status = ex.reply.value("status", std::string(status::protocol_error));
      r.message = ex.reply.value("message", std::string());
      r.body = ex.reply;
      return r;
    }
    case Exchange::Outcome::timeout: return {std::string(status::timeout), ex.detail, {}};
    case Exchange::Outcome::crashed: return {std::string(status::crashed), ex.detail, {}, ex.signal};
    case Exchange::Outcome::protocol_error: return {std::string(status::protocol_error), ex.detail, {}};
  }
  return {std::string(status::protocol_error), "unknown outcome", {}};
}

}  // namespace

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

Reply WorkerClient::send(json req, std::chrono::milliseconds timeout) {
  req["id"] = next_id_++;
  Reply r = from_exchange(process_.request(req, timeout));
  // A sticky CUDA error poisons the context: the worker exits after replying, we restart on next use.
  if (r.status == status::cuda_error && r.body.value("sticky", false)) process_.kill();
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

Reply WorkerClient::load(const std::string& problem_path, int seed) {
  json req = {{"op", "load"}, {"problem", problem_path}, {"seed", seed}};
  load_request_.reset();
  if (auto failed = ensure_ready({})) return *failed;
  Reply r = send(req, timeouts_.load);
  if (r.ok()) load_request_ = req;
  return r;
}

Reply WorkerClient::trace() {
  if (auto failed = ensure_ready({})) return *failed;
  return send({{"op", "trace"}}, timeouts_.trace);
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
  return send({{"op", "check"}, {"candidate", candidate}, {"seeds", seeds}, {"atol", atol}, {"rtol", rtol}},
              timeouts_.check);
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
