// The performance table of the recorded sweeps: for every record under a folder (tests/data/sweeps/h200 by
// default), the winner's time against eager and torch.compile from the sweep's final interleaved
// measurement, its fraction of the roofline floor, the configurations measured and the conditions
// (dtype, precision policy, GPU). The trials a guided search needs on the same records are
// search_efficiency's table.
//   build/debug/sweep_table [SWEEP_DIR]

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string ms(const json& timing) {
  if (!timing.is_object() || !timing.contains("median_us")) return "-";
  return fmt::format("{:.3f}", timing.at("median_us").get<double>() / 1000);
}

std::string ratio(const json& base, const json& mine) {
  if (!base.is_object() || !mine.is_object() || !base.contains("median_us") || !mine.contains("median_us")) return "-";
  return fmt::format("{:.2f}x", base.at("median_us").get<double>() / mine.at("median_us").get<double>());
}

// The knobs that say what the winner is, in a few words.
std::string summary(const json& config) {
  std::string out;
  for (const auto& [k, v] : config.items()) out += (out.empty() ? "" : " ") + k + "=" + (v.is_string() ? v.get<std::string>() : v.dump());
  return out;
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
  fmt::print("| problem | family | precision | eager ms | compile ms | KernelAgent ms | x eager | x compile | roofline | configs (ok) | winner |\n");
  fmt::print("|---|---|---|---|---|---|---|---|---|---|---|\n");
  std::string gpu;
  for (const auto& f : files) {
    json r;
    try {
      std::ifstream in(f);
      r = json::parse(in);
    } catch (const std::exception& e) {
      std::cerr << f << ": " << e.what() << "\n";
      return 2;
    }
    if (r.value("device", "") != "cuda") continue;  // an interpreter record has no times
    gpu = r.at("gpu").value("device_name", "");
    const json& base = r.at("baselines");
    const json& best = r.at("best");
    int ok = 0;
    for (const auto& c : r.at("configs")) ok += c.value("status", "") == "ok";
    const json& roof = r.value("roofline", json::object());
    const std::string frac = roof.contains("fraction") && roof.at("fraction").is_number()
                                 ? fmt::format("{:.0f}% {}", 100 * roof.at("fraction").get<double>(), roof.value("bound", ""))
                                 : "-";
    fmt::print("| {} | {} | {} {} | {} | {} | {} | {} | {} | {} | {} ({}) | {} |\n",
               r.at("problem").value("name", f.filename().string()), r.value("family", ""), r.value("dtype", ""),
               r.value("precision", ""), ms(base.value("eager", json())), ms(base.value("compile", json())), ms(best),
               ratio(base.value("eager", json()), best), ratio(base.value("compile", json()), best), frac,
               r.at("configs").size(), ok, summary(best.value("config", json::object())));
  }
  fmt::print("\nGPU: {}; times are medians of the sweep's final measurement, interleaved with the baselines, L2 flushed.\n",
             gpu);
  return 0;
}
