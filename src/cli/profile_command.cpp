#include <fmt/format.h>

#include "kernelagent/cli/arg_checks.hpp"
#include "kernelagent/cli/commands.hpp"
#include "kernelagent/cli/session.hpp"
#include "kernelagent/core/hash.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/profile/ncu_runner.hpp"

namespace kernelagent::cli {

namespace fs = std::filesystem;

int run_profile_command(const CommonOptions& common, const ProfileArgs& args) {
  require_problem_file(args.problem);
  Paths paths = Paths::locate(common.home);
  HistoryStore history(common.db.empty() ? default_history_path() : fs::path(common.db));
  const auto last = history.latest_result(hash_hex(read_text_file(args.problem)));

  // The kernel: the one given, else the best one KernelAgent found for this problem.
  std::string kernel = args.kernel;
  if (kernel.empty()) {
    if (!last || !last->contains("kernel_path"))
      throw UserError(ExitCode::bad_input,
                      fmt::format("no kernel to profile: pass --kernel K.py, or run `kernelagent optimize {}` first "
                                  "(the history {} has no successful run of it)",
                                  args.problem, history.path().string()));
    kernel = last->at("kernel_path").get<std::string>();
  }
  require_file(kernel, "kernel file");

  NcuOptions opt;
  opt.ncu = args.ncu;
  opt.clock_control = args.clock_control;
  opt.full_set = args.full_set;
  const fs::path out = args.out.empty() ? fs::path("kernelagent-out") / fs::path(args.problem).stem() / "profile"
                                        : fs::path(args.out);
  NcuRun run = run_ncu(opt, locate_python(common.python, paths), paths.python_dir(), args.problem, kernel, out);

  DiagnoseArgs diag;
  diag.csv = run.csv.string();
  diag.json = common.json;
  // What the problem must move and compute makes the verdicts sharper: useful bytes, FLOPs. Given, or what
  // the history's last optimize of the problem measured.
  if (last && last->contains("roofline")) {
    diag.bytes = last->at("roofline").value("bytes", 0.0);
    diag.input_bytes = last->at("roofline").value("input_bytes", 0.0);
    diag.flops = last->at("roofline").value("flops", 0.0);
  }
  if (args.bytes > 0) diag.bytes = args.bytes;
  if (args.input_bytes > 0) diag.input_bytes = args.input_bytes;
  if (args.flops > 0) diag.flops = args.flops;
  // Tensor-core verdicts are only fair where tensor cores could do the work.
  if (!args.matmul && last) {
    const auto families = load_families_or_explain(paths);
    const Family* f = find_family(families, last->value("family", ""));
    diag.matmul = f && f->fact("matrix_product");
  } else {
    diag.matmul = args.matmul;
  }
  if (!common.json) fmt::print("profiled {} (ncu raw page: {})\n", kernel, run.csv.string());
  return report_diagnosis(parse_ncu_raw_csv(read_text_file(run.csv)), diag);
}

}  // namespace kernelagent::cli
