// The HTML report over recorded H200 results (tests/data/reports, copies of bench/results): no golden
// pages; each test asserts that the figures a reader needs are on the page, as the page writes them, and
// that nothing on it can load or run anything.

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <regex>

#include "kernelagent/cli/bench_summary.hpp"
#include "kernelagent/cli/report_files.hpp"
#include "kernelagent/core/error.hpp"
#include "kernelagent/report/bench_page.hpp"
#include "kernelagent/report/figures.hpp"
#include "kernelagent/report/html.hpp"
#include "kernelagent/report/problem_page.hpp"
#include "kernelagent/report/roofline_chart.hpp"
#include "kernelagent/report/svg_chart.hpp"
#include "kernelagent/report/trial_table.hpp"
#include "test_data.hpp"

using namespace kernelagent;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

fs::path reports() { return test::data_dir() / "reports"; }

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

// Nothing on the page runs or loads: no element that runs or fetches, no event handler or source attribute
// in any tag, no link that leaves the page. (Text is escaped, so every '<' left opens a real tag.)
void expect_self_contained(const std::string& html) {
  static const std::regex runs_or_loads(
      R"(<(script|img|iframe|link|object|embed|audio|video|source|base)\b|<[^>]*\s(on[a-z]+|src|srcset)\s*=)",
      std::regex::icase);
  std::smatch m;
  EXPECT_FALSE(std::regex_search(html, m, runs_or_loads)) << m.str();
  EXPECT_NE(html.find("Content-Security-Policy"), std::string::npos);
  for (std::size_t at = html.find("href=\""); at != std::string::npos; at = html.find("href=\"", at + 1))
    EXPECT_EQ(html[at + 6], '#') << html.substr(at, 60);
}

void expect_has(const std::string& html, const std::string& what) {
  EXPECT_NE(html.find(what), std::string::npos) << "the page does not show: " << what;
}

}  // namespace

TEST(ReportHtml, EscapesWhatCouldBecomeMarkup) {
  EXPECT_EQ(report::escape("<a href='x'>&\"</a>"), "&lt;a href=&#39;x&#39;&gt;&amp;&quot;&lt;/a&gt;");
  EXPECT_EQ(report::anchor_id("23_Softmax"), "p-23_Softmax");
  EXPECT_EQ(report::anchor_id("a b/c.py"), "p-a-b-c-py");
}

TEST(ReportFigures, NumbersAsTheTerminalWritesThem) {
  EXPECT_EQ(report::time_us(4192.192), "4.192 ms");
  EXPECT_EQ(report::time_us(499.54), "499.5 us");
  EXPECT_EQ(report::ratio_x(1.4722), "1.47x");
  EXPECT_EQ(report::percent(0.64032), "64.0%");
  EXPECT_EQ(report::si(4.8e12, "B/s"), "4.8 TB/s");
  EXPECT_EQ(report::si(494.7e12 / 3, "FLOP/s"), "165 TFLOP/s");
  EXPECT_EQ(report::config_text(json{{"num_warps", 8}, {"variant", "loop"}}), "num_warps=8 variant=loop");
}

TEST(ReportAxes, TicksAreRound) {
  const report::Axis lin = report::linear_axis(0.3, 9.2, 0, 100);
  EXPECT_EQ(lin.lo, 0);
  EXPECT_EQ(lin.hi, 10);
  EXPECT_EQ(lin.ticks(), (std::vector<double>{0, 2, 4, 6, 8, 10}));
  const report::Axis log = report::log_axis(0.07, 3.1, 0, 100);
  EXPECT_DOUBLE_EQ(log.lo, 0.01);
  EXPECT_DOUBLE_EQ(log.hi, 10);
  EXPECT_DOUBLE_EQ(log.map(0.1), 100.0 / 3);
  EXPECT_EQ(log.ticks().front(), 0.01);
  // Within a decade (speedups near 1x), out to 1, 2 or 5 times a power of ten, not to whole decades.
  const report::Axis near_one = report::log_axis(1.03 / 1.2, 1.38 * 1.2, 0, 100);
  EXPECT_DOUBLE_EQ(near_one.lo, 0.5);
  EXPECT_DOUBLE_EQ(near_one.hi, 2);
  EXPECT_EQ(near_one.ticks(), (std::vector<double>{0.5, 1, 2}));
  EXPECT_EQ(report::tick_label(2e12), "2e+12");
}

// The profiled softmax on the H200: conditions, times with spread, the memory roofline, every trial with
// its reason, the five diagnoses with their evidence.
TEST(ReportProblem, ProfiledOptimizeShowsEveryFigure) {
  const report::ProblemReport p = cli::read_problem_report(reports() / "optimize-profiled");
  EXPECT_EQ(p.name, "23_Softmax");
  const std::string html = report::problem_page(p);
  expect_self_contained(html);
  // The conditions.
  for (const char* s :
       {"NVIDIA H200", "H200 SXM", "132 SMs", "float32", "strict (fp32 stays fp32-accurate",
        "fp32 matmul precision &#39;highest&#39;", "atol 0.0001, rtol 0.0001, on 3 fresh input seeds (1, 2, 3)",
        "torch 2.11.0+cu130, triton 3.6.0", "CUDA events", "5 rounds interleaved with the baselines",
        "guided: 10 trials", "stopped: trial budget", "float32[4096x393216]", "aten._softmax.default"})
    expect_has(html, s);
  // Eager, torch.compile and the kernel with their spread.
  for (const char* s : {"4.192 ms", "4.094 ms", "4.306 ms", "6.172 ms", "6.115 ms", "6.212 ms", "4.731 ms", "4.727 ms",
                        "4.768 ms", "1.47x", "1.13x", "64.0%", "43.5%", "56.7%"})
    expect_has(html, s);
  // The roofline: no FLOPs, so the DRAM roof alone, and the floor.
  for (const char* s :
       {"Memory roofline", "DRAM roof 4.8 TB/s", "floor 2.684 ms", "Compulsory traffic 12.9 GB", "3.07 TB/s (64.0%)"})
    expect_has(html, s);
  // The trajectory: ten points with tooltips, each trial's reason in the table, escaped.
  const json result = p.result;
  for (const auto& t : result.at("trial_list")) expect_has(html, report::escape(t.at("reason").get<std::string>()));
  expect_has(html, "Search trajectory");
  expect_has(html, "best so far");
  EXPECT_GE(count(html, "<title>trial "), 10u);
  // The diagnoses of the five profiled candidates, with their evidence rows.
  for (const char* s : {"dram_bandwidth_saturated", "long_scoreboard_stalls", "register_limited_occupancy",
                        "DRAM moves 3.57 TB/s, 74% of the 4.8 TB/s peak", "74.4%", "39.3%", "5.404 ms",
                        "registers allow 3 blocks per SM: 38% theoretical occupancy", "ka_softmax_coop_kernel"})
    expect_has(html, s);
  EXPECT_EQ(count(html, "<table class=\"evidence\">"), 5u);
  // The winner's configuration; its source was not recorded with this result, and the page says so.
  expect_has(html,
             "Measured as an fp32-accurate kernel against PyTorch&#39;s fp32 matmul precision &#39;highest&#39; "
             "(IEEE fp32).");
  expect_has(html, "split_r=12");
  expect_has(html, "no kernel.py beside result.json");
}

// A matrix product under 3xTF32: the compute roofline with the unit's roof at a third of the TF32 peak, the
// problem's intensity, and the kernel's source, escaped.
TEST(ReportProblem, MatmulShowsTheComputeRooflineAndTheSource) {
  const report::ProblemReport p = cli::read_problem_report(reports() / "optimize-matmul");
  const report::Roofs roofs = report::roofs_of(p.result);
  EXPECT_EQ(roofs.unit, "3xTF32 tensor cores");
  EXPECT_DOUBLE_EQ(roofs.flops_per_s, 494.7e12 / 3);
  EXPECT_DOUBLE_EQ(roofs.bytes_per_s, 4.8e12);
  const std::string html = report::problem_page(p);
  expect_self_contained(html);
  for (const char* s : {"Roofline: attained FLOP/s against arithmetic intensity", "3xTF32 tensor cores 165 TFLOP/s",
                        "DRAM 4.8 TB/s", "AI 683 FLOP/B", "137 GFLOP counted", "Floor 833.5 us (compute-bound",
                        "the kernel reaches 57.7% of it", "1.444 ms", "1.86x", "1.93x", "BLOCK_M=128"})
    expect_has(html, s);
  ASSERT_TRUE(p.kernel_source.has_value());
  expect_has(html, "@triton.jit");
  expect_has(html, report::escape("K_STEPS = cdiv(cdiv(K, BLOCK_K), SPLIT_K)"));
  EXPECT_EQ(html.find("no kernel.py beside"), std::string::npos);
}

// The mapreduce bench: the summary, the table with links to each problem's section, the sorted speedups
// with the 1.0 line, and each problem's fraction of its floor; the failures say why.
TEST(ReportBench, MapreduceBenchShowsTheSummaryTableAndCharts) {
  const report::BenchReport b = cli::read_bench_report(reports() / "bench-mapreduce");
  ASSERT_EQ(b.problems.size(), 5u);
  const std::string html = report::bench_page(b);
  expect_self_contained(html);
  expect_has(html,
             "5 problems run, 3 correct, 2 of 3 timed faster than the faster of eager and torch.compile; "
             "geomean 1.45x vs the faster baseline, 1.45x vs torch.compile; median 84.3% of the roofline floor");
  for (const char* s : {"3 / 5", "2 / 3", "1.45x", "84.3%", "NVIDIA H200", "torch 2.11.0+cu130"}) expect_has(html, s);
  // Each row links to its problem's section, and each section is on the page.
  for (const auto& row : b.bench.at("rows")) {
    const std::string id = report::anchor_id(row.at("problem").get<std::string>());
    expect_has(html, "href=\"#" + id + "\"");
    EXPECT_EQ(count(html, "id=\"" + id + "\""), 1u) << id;
  }
  // The speedups over the faster baseline, sorted: 2.15x, 1.45x, 0.99x; the 1.0 line drawn.
  const std::size_t chart = html.find("Speedup of each kernel over the faster");
  ASSERT_NE(chart, std::string::npos);
  const std::size_t a = html.find("95_CrossEntropyLoss: 2.15x", chart), b1 = html.find("40_LayerNorm: 1.45x", chart),
                    c = html.find("12_Matmul_with_diagonal_matrices_: 0.99x", chart);
  ASSERT_NE(c, std::string::npos);
  EXPECT_LT(a, b1);
  EXPECT_LT(b1, c);
  expect_has(html, "1.0x: as fast as the faster baseline");
  // Each kernel's fraction of its floor.
  for (const char* s : {"84.3%", "55.8%", "86.9%", "Fraction of the roofline floor"}) expect_has(html, s);
  // The failures: their status and message, in the table and in their sections.
  EXPECT_GE(count(html, ">no_valid_kernel</span>"), 4u);
  expect_has(html, "none of the 8 candidates passed (statuses: {&quot;out_of_memory&quot;:8})");
}

// An older bench.json without a summary gets the one bench writes today, computed from its rows.
TEST(ReportBench, AnOlderBenchGetsItsSummaryFromItsRows) {
  const fs::path dir = test::temp_dir("report-old-bench");
  fs::copy(reports() / "bench-mapreduce", dir, fs::copy_options::recursive);
  json bench = test::read_json(dir / "bench.json");
  const json rows = bench.at("rows");
  bench.erase("summary");
  std::ofstream(dir / "bench.json") << bench.dump();
  const report::BenchReport b = cli::read_bench_report(dir);
  EXPECT_EQ(b.summary_line, cli::summary_line(cli::summarize_bench(rows)));
  EXPECT_EQ(b.bench.at("summary"), cli::summarize_bench(rows).to_json());
  // The report is written beside bench.json by default, and its path returned.
  const fs::path written = cli::write_report(dir);
  EXPECT_EQ(written, fs::absolute(dir / "report.html"));
  std::ifstream in(written);
  const std::string html((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  expect_has(html, report::escape(b.summary_line));
  fs::remove_all(dir);
}

// Whatever a result holds is shown as text: a hostile problem name or message cannot become markup.
TEST(ReportProblem, TextFromTheResultIsEscaped) {
  report::ProblemReport p = cli::read_problem_report(reports() / "optimize-profiled");
  p.name = "<script>alert(1)</script>";
  p.result["status"] = "no_valid_kernel";
  p.result["message"] = "<img src=x onerror=alert(1)>";
  p.result["trial_list"][0]["reason"] = "</title><script>x</script>";
  const std::string html = report::problem_page(p);
  expect_self_contained(html);
  expect_has(html, "&lt;script&gt;alert(1)&lt;/script&gt;");
  expect_has(html, "&lt;img src=x onerror=alert(1)&gt;");
}

// A trial that failed has no time: a cross in the band above the plot, with its status and message; a
// resumed trial says where it came from.
TEST(ReportProblem, FailedAndResumedTrialsAreDrawnAndSaidSo) {
  report::ProblemReport p = cli::read_problem_report(reports() / "optimize-profiled");
  json& trials = p.result["trial_list"];
  trials[2]["status"] = "compile_error";
  trials[2].erase("median_us");
  trials[2]["message"] = "CompilationError: out of shared memory";
  trials[4]["resumed_from"] = {{"run_id", 3}, {"candidate", "c9"}};
  const std::string html = report::problem_page(p);
  EXPECT_EQ(count(html, "<title>trial 3: c2 compile_error\nreason: "), 2u);  // the cross's two strokes
  expect_has(html, "CompilationError: out of shared memory");
  expect_has(html, ">compile_error</text>");  // in the legend
  expect_has(html, "<title>trial 5: c4 ok 6.241 ms (resumed from an earlier run)");
  expect_has(html, "resumed from run 3 (c9)");
  expect_has(html, ">no time</text>");
}

// The CPU: nothing timed, and the page says what was checked instead of drawing empty charts.
TEST(ReportProblem, OnTheCpuThePageSaysNothingWasTimed) {
  const report::ProblemReport p = cli::read_problem_report(reports() / "optimize-cpu");
  ASSERT_TRUE(p.result.is_object());
  ASSERT_TRUE(p.result.at("timing").is_null());
  const std::string html = report::problem_page(p);
  expect_self_contained(html);
  for (const char* s : {"Nothing was timed", "What was checked", "Triton&#39;s interpreter on the CPU",
                        "No speedup or roofline fraction is claimed", "No roofline chart", "not timed"})
    expect_has(html, s);
  EXPECT_EQ(html.find("Search trajectory: each trial"), std::string::npos);  // no chart without times
  EXPECT_EQ(html.find("Final times: median"), std::string::npos);
  ASSERT_TRUE(p.kernel_source.has_value());
  expect_has(html, "ModelNew");
}

TEST(ReportFiles, NeitherAResultNorABenchIsBadInput) {
  const fs::path dir = test::temp_dir("report-empty");
  try {
    cli::write_report(dir);
    FAIL() << "an empty folder was reported";
  } catch (const UserError& e) {
    EXPECT_EQ(e.code(), ExitCode::bad_input);
    EXPECT_NE(std::string(e.what()).find("neither an optimize's output"), std::string::npos) << e.what();
  }
  EXPECT_THROW(cli::write_report(dir / "missing"), UserError);
  fs::remove_all(dir);
}

// A bench row whose problem folder holds no result still gets its section, which says why.
TEST(ReportFiles, ABenchRowWithoutItsFolderSaysWhy) {
  const fs::path dir = test::temp_dir("report-missing-row");
  fs::copy(reports() / "bench-mapreduce", dir, fs::copy_options::recursive);
  fs::remove_all(dir / "34_InstanceNorm");
  const report::BenchReport b = cli::read_bench_report(dir);
  const std::string html = report::bench_page(b);
  expect_has(html, "id=\"p-34_InstanceNorm\"");
  expect_has(html, "No result: no result.json in");
  fs::remove_all(dir);
}

// A convolution under strict: the baselines ran with TF32 off, and PyTorch's TF32 defaults are shown beside
// them with their times, the kernel's speedup over each and their error against the IEEE reference.
TEST(ReportProblem, PyTorchsDefaultsAreShownBesideTheAccuracyMatchedBaselines) {
  report::ProblemReport p = cli::read_problem_report(reports() / "optimize-profiled");
  json& r = p.result;
  r["baselines"]["settings"] = {{"fp32_matmul", "highest"}, {"cudnn_allow_tf32", false}};
  r["baselines"]["pytorch_default"] = {
      {"why", "PyTorch's default runs fp32 convolutions on TF32 tensor cores (cudnn.allow_tf32 is True)"},
      {"settings", {{"fp32_matmul", "highest"}, {"cudnn_allow_tf32", true}}},
      {"eager", {{"status", "ok"}, {"median_us", 2365.0}, {"p10_us", 2300.0}, {"p90_us", 2400.0}}},
      {"compile", {{"status", "compile_error"}, {"message", "inductor failed"}}},
      {"error", {{"max_abs_err", 0.0031}, {"max_rel_err", 0.5}, {"within_tolerance", false}, {"seeds_checked", 3}}}};
  const std::string html = report::problem_page(p);
  expect_self_contained(html);
  for (const char* s : {"convolutions on TF32 tensor cores (cudnn.allow_tf32 is True), unlike the baselines above",
                        "eager (PyTorch&#39;s defaults)", "2.365 ms", "0.56x", "compile_error",
                        "0.0031 (relative 0.5), beyond the run's tolerance, over 3 seeds",
                        "the baselines: fp32 matmul precision &#39;highest&#39;, cuDNN TF32 off",
                        "against baselines with fp32 matmul precision &#39;highest&#39; and TF32 convolutions off"})
    expect_has(html, s);
}

TEST(Report, ATrialsKernelsSayWhatTheyTake) {
  const nlohmann::json kernels = nlohmann::json::parse(
      R"([{"kernel": "ka_conv_gemm_kernel", "registers": 255, "local_bytes": 512}, {"kernel": "ka_relayout_kernel",
          "registers": 32, "local_bytes": 0}])");
  EXPECT_EQ(report::resources_text(kernels),
            "ka_conv_gemm_kernel 255 registers, 512 B local; ka_relayout_kernel 32 registers. ");
  EXPECT_EQ(report::resources_text(nlohmann::json::array()), "");
  EXPECT_EQ(report::resources_text(nlohmann::json(nullptr)), "");
}
