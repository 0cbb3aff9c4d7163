#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <thread>

#include "kernelagent/cli/bench_summary.hpp"
#include "kernelagent/cli/commands.hpp"
#include "kernelagent/cli/optimize_options.hpp"
#include "kernelagent/cli/report_files.hpp"
#include "kernelagent/cli/session.hpp"
#include "kernelagent/core/output_dir.hpp"

namespace kernelagent::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string cell_us(const json& j) {
  return j.is_object() && j.contains("median_us") ? format_us(j.at("median_us").get<double>()) : "-";
}
std::string cell_x(const json& j) { return j.is_number() ? fmt::format("{:.2f}x", j.get<double>()) : "-"; }

json row_of(const std::string& name, const json& r) {
  json row = {{"problem", name}, {"status", r.value("status", "")}};
  if (r.value("status", "") != "ok") {
    row["message"] = r.value("message", "");
    return row;
  }
  row["eager"] = r.at("baselines").at("eager");
  row["compile"] = r.at("baselines").at("compile");
  if (r.at("baselines").contains("pytorch_default")) row["pytorch_default"] = r.at("baselines").at("pytorch_default");
  row["kernelagent"] = r.at("best");
  row["speedup"] = r.at("speedup");
  row["roofline"] = r.at("roofline");
  row["trials"] = r.at("trials").value("total", 0);
  row["elapsed_s"] = r.value("elapsed_s", 0.0);
  return row;
}

void print_table(const json& rows, const std::string& conditions) {
  fmt::print("{}\n", conditions);
  std::size_t w = 7;  // the problem column fits the longest name
  for (const auto& row : rows) w = std::max(w, row.value("problem", std::string()).size());
  fmt::print("{:<{}} {:>8} {:>11} {:>11} {:>11} {:>8} {:>8} {:>9} {:>7} {:>7} {:>7}\n", "problem", w, "status", "eager",
             "compile", "kernel", "x eager", "x comp", "TB/s", "roof", "trials", "secs");
  for (const auto& row : rows) {
    if (row.value("status", "") != "ok") {
      fmt::print("{:<{}} {:>8} {}\n", row.value("problem", ""), w, row.value("status", ""), row.value("message", ""));
      continue;
    }
    if (!row.at("kernelagent").contains("median_us")) {
      // Nothing was timed (Triton's interpreter): say what was checked instead of a row of dashes.
      const json& err = row.at("kernelagent").at("max_abs_err");
      fmt::print("{:<{}} {:>8} correct on the interpreter (max abs error {}), {} trials, not timed\n",
                 row.value("problem", ""), w, "ok", err.is_number() ? fmt::format("{:.3g}", err.get<double>()) : err.dump(),
                 row.value("trials", 0));
      continue;
    }
    const json& roof = row.at("roofline");
    std::string tbs = roof.contains("achieved_bytes_per_s")
                          ? fmt::format("{:.2f}", roof.at("achieved_bytes_per_s").get<double>() / 1e12) : "-";
    std::string frac = roof.contains("fraction") && roof.at("fraction").is_number()
                           ? fmt::format("{:.1f}%", 100 * roof.at("fraction").get<double>()) : "-";
    fmt::print("{:<{}} {:>8} {:>11} {:>11} {:>11} {:>8} {:>8} {:>9} {:>7} {:>7} {:>7.0f}\n", row.value("problem", ""), w,
               "ok", cell_us(row.at("eager")), cell_us(row.at("compile")), cell_us(row.at("kernelagent")),
               cell_x(row.at("speedup").at("vs_eager")), cell_x(row.at("speedup").at("vs_compile")), tbs, frac,
               row.value("trials", 0), row.value("elapsed_s", 0.0));
  }
}

// The rows of an earlier bench.json in the output folder that --resume keeps: every problem that had its
// turn (ok or failed: a failure is a finding, not a gap), measured on the same GPU under the same policy.
std::map<std::string, json> finished_rows(const fs::path& out_dir, const std::string& gpu, const std::string& precision) {
  const fs::path path = out_dir / "bench.json";
  if (!fs::exists(path)) return {};
  json doc;
  try {
    std::ifstream in(path);
    doc = json::parse(in);
  } catch (const json::exception& e) {
    throw UserError(ExitCode::bad_input, fmt::format("--resume: {} is not a bench.json ({})", path.string(), e.what()));
  }
  if (doc.value("precision", "") != precision || doc.value("gpu", "") != gpu)
    throw UserError(ExitCode::bad_input,
                    fmt::format("--resume: {} was measured on {} under {}, not on {} under {}; give another --out",
                                path.string(), doc.value("gpu", "?"), doc.value("precision", "?"), gpu, precision));
  std::map<std::string, json> kept;
  for (const auto& row : doc.value("rows", json::array())) {
    const std::string status = row.value("status", "");
    if (status != "not_run" && status != "no_worker" && !status.empty()) kept[row.value("problem", "")] = row;
  }
  return kept;
}

}  // namespace

int run_bench_command(const CommonOptions& common, const BenchArgs& args) {
  if (!fs::is_directory(args.dir))
    throw UserError(ExitCode::bad_input, fmt::format("{} is not a folder of problem files", args.dir));
  std::vector<fs::path> problems;
  for (const auto& e : fs::directory_iterator(args.dir))
    if (e.is_regular_file() && e.path().extension() == ".py") problems.push_back(e.path());
  std::sort(problems.begin(), problems.end());
  if (problems.empty()) throw UserError(ExitCode::bad_input, fmt::format("{} holds no .py problem files", args.dir));
  const fs::path out_dir = bench_out_dir(args);
  for (const auto& p : problems) refuse_to_write_over(p, out_dir);
  const OutputLock out_lock(out_dir, "bench " + args.dir);

  Session session = open_session(common, out_dir / "worker.log");
  ProgressLine progress(!common.json);
  std::mutex progress_mu;  // the slots' runs report from their own threads
  json versions = session.worker->hello().value("versions", json::object());
  std::string gpu_name = session.worker->on_gpu() ? session.worker->hello().at("gpu").value("name", "") : "CPU (Triton interpreter)";

  // One problem per worker slot at a time: each live slot takes the next problem not yet taken; the compile
  // workers are shared out among the slots that run at once.
  std::vector<int> live;
  for (int i = 0; i < session.pool->size(); ++i)
    if (!session.pool->retired(i)) live.push_back(i);
  const int at_once = static_cast<int>(std::min(live.size(), problems.size()));
  std::vector<json> rows(problems.size());
  std::vector<bool> ran(problems.size(), false);
  std::vector<std::size_t> to_run;
  const std::map<std::string, json> kept =
      args.resume ? finished_rows(out_dir, gpu_name, args.precision) : std::map<std::string, json>{};
  for (std::size_t i = 0; i < problems.size(); ++i) {
    if (auto it = kept.find(problems[i].stem().string()); it != kept.end()) {
      rows[i] = it->second;
      ran[i] = true;
    } else {
      to_run.push_back(i);
    }
  }
  if (args.resume && !common.json)
    fmt::print("resumed     {} of {} problems from {}; {} to run\n", problems.size() - to_run.size(), problems.size(),
               (out_dir / "bench.json").string(), to_run.size());
  std::atomic<int> failures{0};
  std::atomic<std::size_t> next{0};
  // bench.json is rewritten after every problem, so a bench stopped part way (a time limit, a lost machine)
  // keeps the table and summary of what it finished; `complete` says whether every problem had its turn.
  std::mutex doc_mu;
  auto bench_doc = [&](const json& rows_json, bool complete) {
    return json{{"schema", "kernelagent.bench/1"}, {"gpu", gpu_name}, {"versions", versions},
                {"precision", args.precision}, {"slots", at_once}, {"complete", complete}, {"rows", rows_json},
                {"summary", summarize_bench(rows_json).to_json()}};
  };
  auto write_partial = [&]() {
    std::lock_guard lock(doc_mu);
    json rows_json = json::array();
    for (std::size_t i = 0; i < problems.size(); ++i)
      rows_json.push_back(ran[i] ? rows[i]
                                 : json{{"problem", problems[i].stem().string()}, {"status", "not_run"},
                                        {"message", "the bench had not reached this problem when bench.json was written"}});
    write_file_atomically(out_dir / "bench.json", bench_doc(rows_json, false).dump(2) + "\n");
  };
  auto run_one = [&](std::size_t i, WorkerClient& worker, HistoryStore& history, const std::string& label) {
    const fs::path& p = problems[i];
    OptimizeOptions opt = optimize_options(common, args, p);
    opt.on_progress = [&](const ProgressEvent& e) {
      std::lock_guard lock(progress_mu);
      progress(e);
    };
    use_compile_pool(session, opt);
    opt.compile_workers = at_once > 1 ? opt.compile_workers / at_once : opt.compile_workers;
    OptimizeOutcome out;
    try {
      out = run_optimize(opt, worker, history, session.families);
    } catch (const UserError& e) {
      out.code = e.code();
      out.result = {{"status", "error"}, {"message", e.what()}};
    }
    {
      std::lock_guard lock(progress_mu);
      progress.finish();
    }
    if (out.code != ExitCode::ok) ++failures;
    {
      std::lock_guard lock(doc_mu);
      rows[i] = row_of(p.stem().string(), out.result);
      rows[i]["measured_on"] = label;
      ran[i] = true;
    }
    write_partial();
    // A slot whose worker no longer comes up takes no more problems.
    return out.result.value("status", "") != "no_worker";
  };
  if (at_once <= 1) {
    for (std::size_t i : to_run)
      run_one(i, *session.worker, *session.history, session.pool->slot(session.pool->home()).label);
  } else {
    std::vector<std::thread> threads;
    for (int slot : live)
      threads.emplace_back([&, slot]() {
        // Each thread writes the history through its own connection (SQLite's WAL takes them in turn).
        HistoryStore history(session.history->path());
        try {
          for (std::size_t n = next++; n < to_run.size(); n = next++)
            if (!run_one(to_run[n], session.pool->worker(slot), history, session.pool->slot(slot).label)) break;
        } catch (const std::exception& e) {
          std::lock_guard lock(progress_mu);
          std::cerr << "kernelagent: " << session.pool->slot(slot).label << ": " << e.what() << "\n";
        }
      });
    for (auto& t : threads) t.join();
  }
  json rows_json = json::array();
  for (std::size_t i = 0; i < problems.size(); ++i) {
    if (!ran[i]) {
      ++failures;
      rows[i] = {{"problem", problems[i].stem().string()}, {"status", "not_run"},
                 {"message", "every worker slot was out of the pool before this problem's turn"}};
    }
    rows_json.push_back(rows[i]);
  }
  const json& rows_ref = rows_json;
  session.pool->shutdown();
  const std::string conditions =
      fmt::format("{} | torch {} triton {} | precision {} | {}", gpu_name, versions.value("torch", "?"),
                  versions.value("triton", "?"), args.precision,
                  session.worker->on_gpu() ? "times are medians of the final interleaved measurement"
                                           : "no GPU: correctness only, nothing timed");
  const BenchSummary summary = summarize_bench(rows_ref);
  const json doc = bench_doc(rows_ref, true);
  write_file_atomically(out_dir / "bench.json", doc.dump(2) + "\n");
  const auto report = write_report_beside(out_dir);
  if (common.json) std::cout << doc.dump(2) << "\n";
  else {
    print_table(rows_ref, conditions);
    fmt::print("summary     {}\n", summary_line(summary));
    fmt::print("written     {}\n", (out_dir / "bench.json").string());
    if (report) fmt::print("report      {}\n", report->string());
  }
  return failures == 0 ? 0 : static_cast<int>(ExitCode::no_valid_kernel);
}

}  // namespace kernelagent::cli
