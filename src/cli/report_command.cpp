#include <fmt/format.h>

#include "kernelagent/cli/commands.hpp"
#include "kernelagent/cli/report_files.hpp"

namespace kernelagent::cli {

int run_report_command(const ReportArgs& args) {
  const std::filesystem::path written = write_report(args.dir, args.out);
  fmt::print("{}\n", written.string());
  return 0;
}

}  // namespace kernelagent::cli
