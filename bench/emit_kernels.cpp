// The kernels a search would measure first, written as files with no worker and no GPU: for each recorded
// trace (scripts/record-trace --meta), the family that takes it (the first in the families' order), its
// default configuration and the configurations its shapes suggest, valid on the GPU named under the policy.
// scripts/target-compile compiles them for that GPU on a machine without one.
//   build/debug/emit_kernels --out DIR [--gpu "NVIDIA H200"] [--precision strict|tf32] [--set JSON]
//                            NAME=TRACE.json...
// Writes DIR/NAME__LABEL.py (LABEL: default, suggested1, ...) and DIR/index.json: for each file, its name,
// the trace's NAME, the family, the configuration and why it is there. --set '{"num_warps": 8}' sets those
// knobs in every configuration written (one that is then not valid is skipped, and said).

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "kernelagent/core/precision.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/families/registry.hpp"
#include "kernelagent/gpu/gpu_spec.hpp"
#include "kernelagent/orchestrate/stages/search_request.hpp"

namespace fs = std::filesystem;
using nlohmann::json;
using namespace kernelagent;

namespace {

int usage() {
  std::cerr << "usage: emit_kernels --out DIR [--gpu NAME] [--precision strict|tf32] [--set JSON] NAME=TRACE.json...\n";
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  fs::path out;
  std::string gpu_name = "NVIDIA H200";
  Precision precision = Precision::strict;
  json set = json::object();
  std::vector<std::pair<std::string, fs::path>> traces;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      if (a == "--out" && i + 1 < argc) {
        out = argv[++i];
      } else if (a == "--gpu" && i + 1 < argc) {
        gpu_name = argv[++i];
      } else if (a == "--set" && i + 1 < argc) {
        set = json::parse(argv[++i]);
      } else if (a == "--precision" && i + 1 < argc) {
        precision = parse_precision(argv[++i]);
      } else if (const auto eq = a.find('='); eq != std::string::npos && !a.starts_with("-")) {
        traces.emplace_back(a.substr(0, eq), a.substr(eq + 1));
      } else {
        return usage();
      }
    }
    if (out.empty() || traces.empty()) return usage();
    const auto gpu = find_gpu_spec(gpu_name);
    if (!gpu) throw std::runtime_error("no GPU spec for " + gpu_name);
    const auto families = load_families(fs::path(KA_SOURCE_DIR) / "families");
    fs::create_directories(out);
    json index = json::array();
    for (const auto& [name, trace_path] : traces) {
      const TraceResult trace = TraceResult::from_json(json::parse(read_text_file(trace_path)));
      std::shared_ptr<const FamilyProblem> problem;
      for (const auto& f : families)
        if (auto r = f->recognise(trace); r.problem) {
          problem = r.problem;
          break;
        }
      if (!problem) {
        std::cerr << name << ": no family takes it\n";
        continue;
      }
      const KnobSpace& space = problem->family().knob_space();
      std::vector<Config> valid;
      for (const auto& c : space.enumerate())
        if (problem->valid(c, &*gpu, precision)) valid.push_back(c);
      if (valid.empty()) {
        std::cerr << name << ": no configuration of " << problem->family().name() << " is valid\n";
        continue;
      }
      // The search's first measurement is the default where valid, else the first valid configuration.
      const Config def = space.default_config();
      std::vector<std::pair<std::string, std::pair<Config, std::string>>> picks;
      const bool default_valid = std::find(valid.begin(), valid.end(), def) != valid.end();
      picks.push_back({"default", {default_valid ? def : valid.front(), "the default configuration"}});
      int n = 0;
      for (auto& s : suggested_configs(*problem, space, valid))
        if (s.first != picks.front().second.first) picks.push_back({fmt::format("suggested{}", ++n), std::move(s)});
      for (auto& [label, pick] : picks) {
        for (const auto& [k, v] : set.items()) pick.first[k] = v;
        if (!set.empty() && !problem->valid(pick.first, &*gpu, precision)) {
          std::cerr << fmt::format("{} {}: not valid with {}\n", name, label, set.dump());
          continue;
        }
        const std::string file = fmt::format("{}__{}.py", name, label);
        std::ofstream(out / file) << problem->emit(pick.first, {name + ".py"});
        index.push_back({{"file", file},
                         {"name", name},
                         {"family", problem->family().name()},
                         {"config", pick.first},
                         {"why", pick.second}});
      }
    }
    std::ofstream(out / "index.json") << index.dump(1) << "\n";
    std::cout << fmt::format("{} kernel files in {}\n", index.size(), out.string());
  } catch (const std::exception& e) {
    std::cerr << "emit_kernels: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
