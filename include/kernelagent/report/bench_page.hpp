#pragma once
// A bench's report: its conditions, the summary of who won, the table (each row a link to its problem's
// section), the speedups per problem and each kernel's fraction of its floor, then every problem's section
// (problem_page.hpp) in the same page.

#include <string>

#include "kernelagent/report/report_input.hpp"

namespace kernelagent::report {

std::string bench_page(const BenchReport& bench);

}  // namespace kernelagent::report
