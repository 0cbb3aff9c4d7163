#include <iostream>

#include <fmt/format.h>

#include "kernelagent/cli/commands.hpp"
#include "kernelagent/cli/session.hpp"
#include "kernelagent/history/history_store.hpp"

namespace kernelagent::cli {

namespace fs = std::filesystem;
using nlohmann::json;

int run_history_command(const CommonOptions& common, const HistoryArgs& args) {
  if (args.limit <= 0) throw UserError(ExitCode::bad_input, "--limit must be positive");
  const fs::path db = common.db.empty() ? default_history_path() : fs::path(common.db);
  if (!fs::exists(db)) {
    if (common.json) std::cout << json({{"history", db.string()}, {"runs", json::array()}}).dump(2) << "\n";
    else fmt::print("no runs yet ({} does not exist)\n", db.string());
    return 0;
  }
  HistoryStore store(db);
  auto runs = store.runs(args.limit);
  if (common.json) {
    json out = json::array();
    for (const auto& r : runs)
      out.push_back({{"id", r.id},
                     {"started_at", r.started_at},
                     {"finished_at", r.finished_at},
                     {"problem", r.problem_path},
                     {"device", r.device},
                     {"gpu", r.gpu},
                     {"precision", r.precision},
                     {"status", r.status},
                     {"eager_us", r.eager_us ? json(*r.eager_us) : json()},
                     {"compile_us", r.compile_us ? json(*r.compile_us) : json()},
                     {"best_us", r.best_us ? json(*r.best_us) : json()},
                     {"best_family", r.best_family},
                     {"best_config", r.best_config},
                     {"candidates", r.candidates},
                     {"host", r.host},
                     {"pid", r.pid}});
    std::cout << json({{"history", db.string()}, {"runs", out}}).dump(2) << "\n";
    return 0;
  }
  fmt::print("{:>4}  {:<20} {:<28} {:<14} {:<16} {:>10} {:>10} {:>10} {:>5}\n", "id", "started", "problem", "gpu",
             "status", "eager", "compile", "best", "cands");
  auto us = [](const std::optional<double>& v) { return v ? format_us(*v) : std::string("-"); };
  for (const auto& r : runs)
    fmt::print("{:>4}  {:<20} {:<28} {:<14} {:<16} {:>10} {:>10} {:>10} {:>5}\n", r.id, r.started_at.substr(0, 19),
               fs::path(r.problem_path).filename().string(), r.gpu.empty() ? "cpu" : r.gpu, r.status, us(r.eager_us),
               us(r.compile_us), us(r.best_us), r.candidates);
  return 0;
}

}  // namespace kernelagent::cli
