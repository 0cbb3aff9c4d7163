// `kernelagent sweep`: every valid configuration of one family's knob space, compiled, checked and timed
// with the same harness as optimize, written as a record (docs/sweep.md) that `replay` and the
// search-efficiency benchmark run against without a GPU.

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iostream>

#include "kernelagent/cli/arg_checks.hpp"
#include "kernelagent/cli/commands.hpp"
#include "kernelagent/cli/optimize_options.hpp"
#include "kernelagent/cli/session.hpp"
#include "kernelagent/core/output_dir.hpp"

namespace kernelagent::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

json knobs_json(const KnobSpace& space) {
  json knobs = json::array();
  for (const auto& k : space.knobs)
    knobs.push_back({{"name", k.name},
                     {"domain", k.domain},
                     {"default", k.default_value},
                     {"tags", k.tags},
                     {"variant", k.variant},
                     {"tile_exponent", k.tile_exponent}});
  return knobs;
}

// The record: what the problem and the machine were, and every configuration's outcome.
json sweep_record(const json& r, const Family& family, const Config& only) {
  json configs = json::array();
  for (const auto& t : r.value("trial_list", json::array())) {
    json c = {{"config", t.at("config")}, {"status", t.at("status")}};
    if (t.contains("median_us")) c["median_us"] = t.at("median_us");
    if (t.contains("message")) c["message"] = t.at("message");
    if (t.contains("diagnosis")) c["diagnosis"] = t.at("diagnosis");
    configs.push_back(std::move(c));
  }
  json problem = r.at("problem");
  problem.erase("path");
  return {{"schema", "kernelagent.sweep/1"},
          {"problem", problem},
          {"family", family.name()},
          {"family_hash", family.source_hash()},
          {"knobs", knobs_json(family.knob_space())},
          {"device", r.value("device", "")},
          {"gpu", r.value("gpu", json(nullptr))},
          {"versions", r.value("versions", json::object())},
          {"precision", r.value("precision", "")},
          {"dtype", r.value("dtype", "")},
          {"tolerance", r.value("tolerance", json(nullptr))},
          {"baselines", r.value("baselines", json(nullptr))},
          {"best", r.value("best", json(nullptr))},
          {"roofline", r.value("roofline", json(nullptr))},
          {"search_min_ms",
           r.contains("timing") && r.at("timing").is_object() ? r.at("timing").value("search_min_ms", 0.0) : 0.0},
          {"where", only},
          {"configs", configs}};
}

// Every named knob must be one of a family's (the one --family names, else any) with each value in its
// domain there. Without --family, any family that has the knob with the value will do: BLOCK_M=128 is a
// matmul value, though the matvec family (tried first) has a BLOCK_M of its own.
void check_where(const Config& only, const std::vector<std::unique_ptr<Family>>& families, const std::string& name) {
  for (const auto& [knob, values] : only.items())
    for (const auto& value : values) {
      const Knob* seen = nullptr;
      bool in_domain = false;
      for (const auto& f : families) {
        if (!name.empty() && f->name() != name) continue;
        for (const auto& k : f->knob_space().knobs) {
          if (k.name != knob) continue;
          if (!seen) seen = &k;
          in_domain = in_domain || std::find(k.domain.begin(), k.domain.end(), value) != k.domain.end();
        }
      }
      if (!seen)
        throw UserError(ExitCode::bad_input, fmt::format("--where: no {} has a knob '{}'",
                                                         name.empty() ? "family" : "family " + name, knob));
      if (!in_domain)
        throw UserError(ExitCode::bad_input, fmt::format("--where: {} is not in {}'s domain {}", value.dump(), knob,
                                                         json(seen->domain).dump()));
    }
}

}  // namespace

int run_sweep_command(const CommonOptions& common, const SweepArgs& args) {
  require_problem_file(args.problem);
  const fs::path out = args.out;
  if (out.has_parent_path() && !fs::is_directory(out.parent_path()))
    throw UserError(ExitCode::bad_input, fmt::format("the folder of --out {} does not exist", args.out));
  OptimizeOptions opt = optimize_options(common, args);
  std::error_code ec;
  if (fs::exists(out, ec) && fs::equivalent(out, args.problem, ec))
    throw UserError(ExitCode::bad_input,
                    fmt::format("--out {} is the problem file itself: the record would write over it", args.out));
  refuse_to_write_over(args.problem, opt.out_dir);
  const OutputLock out_lock(opt.out_dir, "sweep " + args.problem);
  Session session = open_session(common, opt.out_dir / "worker.log");
  check_where(opt.only, session.families, args.family);
  use_compile_pool(session, opt);
  if (args.profile) {
    use_profiler(session, common, "on", args.ncu, opt);
    opt.profile_all = true;
  }
  ProgressLine progress(!common.json);
  opt.on_progress = [&](const ProgressEvent& e) { progress(e); };
  OptimizeOutcome res = run_optimize(opt, *session.pool, *session.history, session.families);
  progress.finish();
  session.pool->shutdown();
  if (res.code != ExitCode::ok && !res.result.contains("trial_list")) {
    std::cerr << "kernelagent: " << res.message << "\n";
    return static_cast<int>(res.code);
  }
  const std::string family_name = res.result.value("family", "");
  const Family* family = nullptr;
  for (const auto& f : session.families)
    if (f->name() == family_name) family = f.get();
  if (!family) throw UserError(ExitCode::unsupported, "the sweep found no family for the problem");
  const json record = sweep_record(res.result, *family, opt.only);
  write_file_atomically(out, record.dump(1) + "\n");
  if (common.json) {
    std::cout << record.dump(2) << "\n";
  } else {
    int ok = 0;
    for (const auto& c : record.at("configs")) ok += c.value("status", "") == "ok";
    fmt::print("sweep       {} configurations of {} ({} ok), {}\n", record.at("configs").size(), family_name, ok,
               record.at("device").get<std::string>() == "cuda"
                   ? "timed on " + res.result.at("gpu").value("device_name", std::string("the GPU"))
                   : std::string("checked on the interpreter, not timed"));
    fmt::print("record      {}\n", out.string());
  }
  if (res.code != ExitCode::ok) std::cerr << "kernelagent: " << res.message << "\n";
  return static_cast<int>(res.code);
}

}  // namespace kernelagent::cli
