#pragma once
// One problem's report: the verdict, the conditions it was measured under, eager, torch.compile and the
// kernel with their spread, the roofline, the search trajectory with every trial's reason and
// configuration, the diagnoses of the profiled candidates with their evidence, and the winning kernel's
// configuration and source. On the CPU, where nothing is timed, it says so and shows what was checked.

#include <string>

#include "kernelagent/report/report_input.hpp"

namespace kernelagent::report {

// The <section> of one problem, with id anchor_id(problem.name) (a bench page links its rows to it).
// `source_open`: the kernel's source shown unfolded (the problem's own page) or folded (a bench page).
std::string problem_section(const ProblemReport& problem, bool source_open);

// A whole document for one optimize.
std::string problem_page(const ProblemReport& problem);

}  // namespace kernelagent::report
