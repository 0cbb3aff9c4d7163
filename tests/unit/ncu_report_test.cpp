#include "kernelagent/profile/ncu_report.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "kernelagent/core/error.hpp"
#include "kernelagent/core/template.hpp"
#include "test_data.hpp"

using namespace kernelagent;

namespace {

// The project's own copy of the recorded H200 profiles (tests/data/ncu/h200/LABELS.md says what each is).
NcuReport parse_fixture(const std::string& file) {
  return parse_ncu_raw_csv(read_text_file(test::data_dir() / "ncu" / "h200" / file));
}

// The message of the UserError(bad_input) that parsing `text` throws, or "" when it throws none.
std::string bad_input_message(std::string_view text) {
  try {
    parse_ncu_raw_csv(text);
  } catch (const UserError& e) {
    EXPECT_EQ(e.code(), ExitCode::bad_input);
    return e.what();
  }
  ADD_FAILURE() << "no UserError for:\n" << text;
  return "";
}

bool contains(const std::string& s, std::string_view part) { return s.find(part) != std::string::npos; }

// Relative comparison, for values that went through a unit factor.
void expect_close(std::optional<double> got, double want) {
  ASSERT_TRUE(got.has_value());
  EXPECT_NEAR(*got, want, std::abs(want) * 1e-12);
}

// A small raw page: the fixed columns, then metrics with the given units and one kernel row of values.
std::string synthetic(const std::string& metric_header, const std::string& units, const std::string& values) {
  return "\"ID\",\"Kernel Name\",\"Block Size\",\"Grid Size\",\"Device\"," + metric_header + "\n" +
         "\"\",\"\",\"\",\"\",\"\"," + units + "\n" + "\"0\",\"my_k\",\"(256, 1, 1)\",\"(8, 1, 1)\",\"0\"," + values +
         "\n";
}

}  // namespace

TEST(NcuReport, MemCoalescedValuesAreReadAndNormalised) {
  NcuReport r = parse_fixture("mem_coalesced.raw.csv");
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelProfile& k = r.kernels[0];
  EXPECT_EQ(k.id, 0);
  EXPECT_TRUE(contains(k.name, "add_k"));
  EXPECT_EQ(k.block_size, "(128, 1, 1)");
  EXPECT_EQ(k.grid_size, "(65536, 1, 1)");
  EXPECT_EQ(k.device, "0");
  EXPECT_EQ(k.device_name, "NVIDIA H200");
  EXPECT_EQ(k.duration_ns(), 183040.0);  // "183,040" ns
  EXPECT_EQ(k.get("dram__bytes_read.sum"), 536892416.0);
  EXPECT_EQ(k.get("dram__bytes_write.sum"), 249198592.0);
  EXPECT_EQ(k.get("launch__grid_size"), 65536.0);
  EXPECT_EQ(k.get("launch__block_size"), 128.0);
  EXPECT_EQ(k.get("sm__throughput.avg.pct_of_peak_sustained_elapsed"), 7.90);
  EXPECT_EQ(k.get("gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed"), 89.26);
  // A rate in bytes per second, and consistent with the bytes over the duration.
  expect_close(k.get("dram__bytes_read.sum.per_second"), 2933197202797.20);
  EXPECT_NEAR(*k.get("dram__bytes_read.sum.per_second"), 536892416.0 / 183040e-9, 1e9);
  expect_close(k.get("gpc__cycles_elapsed.avg.per_second"), 1431721891.39);  // hz
}

TEST(NcuReport, UnitsRowGivesEachMetricItsUnit) {
  NcuReport r = parse_fixture("mem_coalesced.raw.csv");
  const auto& m = r.kernels[0].metrics;
  EXPECT_EQ(m.at("gpu__time_duration.sum").unit, "ns");
  EXPECT_EQ(m.at("dram__bytes_read.sum").unit, "byte");
  EXPECT_EQ(m.at("dram__bytes_read.sum.per_second").unit, "byte/s");
  EXPECT_EQ(m.at("sm__throughput.avg.pct_of_peak_sustained_elapsed").unit, "%");
  EXPECT_EQ(m.at("gpc__cycles_elapsed.avg.per_second").unit, "hz");
  EXPECT_EQ(m.at("launch__shared_mem_per_block_driver").unit, "byte/block");
  EXPECT_EQ(m.at("launch__shared_mem_per_block_driver").value, 1024);
  EXPECT_EQ(m.at("launch__grid_size").unit, "");
}

TEST(NcuReport, TextAndMissingCellsAreAbsent) {
  const NcuReport r = parse_fixture("mem_coalesced.raw.csv");
  const KernelProfile& k = r.kernels[0];
  EXPECT_FALSE(k.get("sass__inst_executed_register_spilling_mem_local").has_value());  // "no data"
  EXPECT_FALSE(k.get("derived_tempMetric4").has_value());                              // "nan"
  EXPECT_FALSE(k.get("launch__func_cache_config").has_value());                        // "CachePreferNone"
  EXPECT_FALSE(k.get("Host Name").has_value());                                        // "127.0.0.1"
  EXPECT_FALSE(k.get("Kernel Name").has_value());
  EXPECT_FALSE(k.get("no__such_metric.sum").has_value());
}

TEST(NcuReport, SectionPrefixedColumnsAreReachableByTheBareName) {
  const NcuReport tensor = parse_fixture("compute_tensor.raw.csv");
  const KernelProfile& t = tensor.kernels[0];
  const std::string prefixed =
      "TPC.TriageCompute.sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed";
  EXPECT_EQ(t.get(prefixed), 70.69);
  EXPECT_EQ(t.get("sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed"), 70.69);
  // Where an unprefixed column has the same name, the bare name is that column: 30.97, while the prefixed
  // column is empty in this file.
  const NcuReport coalesced = parse_fixture("mem_coalesced.raw.csv");
  const KernelProfile& m = coalesced.kernels[0];
  EXPECT_EQ(m.get("l1tex__throughput.avg.pct_of_peak_sustained_elapsed"), 30.97);
  EXPECT_FALSE(m.get("SM_A.TriageCompute.l1tex__throughput.avg.pct_of_peak_sustained_elapsed").has_value());
}

TEST(NcuReport, EverySingleKernelFixtureParses) {
  struct Case {
    const char* file;
    const char* name;
    const char* grid;
    double duration_ns;
    double dram_read;
  };
  for (const Case& c : {Case{"mem_coalesced.raw.csv", "add_k", "(65536, 1, 1)", 183040, 536892416},
                        Case{"compute_tensor.raw.csv", "mm_k", "(64, 64, 1)", 1812544, 2993489152},
                        Case{"compute_fp32_alu.raw.csv", "heavy_math_k", "(16384, 1, 1)", 536800, 67116288},
                        Case{"latency_tiny_grid.raw.csv", "tiny_grid_k", "(4, 1, 1)", 1397856, 67117568},
                        Case{"launch_bound_tiny.raw.csv", "add_k", "(1, 1, 1)", 2496, 11520}}) {
    SCOPED_TRACE(c.file);
    NcuReport r = parse_fixture(c.file);
    ASSERT_EQ(r.kernels.size(), 1u);
    EXPECT_EQ(r.kernels[0].name, c.name);
    EXPECT_EQ(r.kernels[0].grid_size, c.grid);
    EXPECT_EQ(r.kernels[0].duration_ns(), c.duration_ns);
    EXPECT_EQ(r.kernels[0].get("dram__bytes_read.sum"), c.dram_read);
    EXPECT_GT(r.kernels[0].metrics.size(), 1000u);
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_TRUE(contains(r.warnings[0], "Unable to access the following 6 metrics"));
    EXPECT_FALSE(contains(r.warnings[0], "==WARNING=="));
  }
  EXPECT_EQ(parse_fixture("compute_tensor.raw.csv").kernels[0].block_size, "(256, 1, 1)");
}

TEST(NcuReport, SharedFixturesMatchTheProjectCopy) {
  // The recorded originals live beside the repository in CI; the tests above read the project's copy.
  const auto shared = test::source_dir() / ".." / "shared" / "fixtures" / "ncu" / "h200";
  if (!std::filesystem::is_directory(shared)) GTEST_SKIP() << "no " << shared;
  int parsed = 0;
  for (const auto& entry : std::filesystem::directory_iterator(shared)) {
    const std::string file = entry.path().filename().string();
    if (!file.ends_with(".raw.csv")) continue;
    SCOPED_TRACE(file);
    const std::string text = read_text_file(entry.path());
    EXPECT_EQ(text, read_text_file(test::data_dir() / "ncu" / "h200" / file));
    EXPECT_FALSE(parse_ncu_raw_csv(text).kernels.empty());
    ++parsed;
  }
  EXPECT_GE(parsed, 6);
}

TEST(NcuReport, MixedProgramSkipsTheProgramOutputAndReadsSevenKernels) {
  NcuReport r = parse_fixture("mixed_program.raw.csv");
  ASSERT_EQ(r.kernels.size(), 7u);
  for (int i = 0; i < 7; ++i) EXPECT_EQ(r.kernels[i].id, i);
  for (int i : {0, 1, 3, 4})
    EXPECT_TRUE(r.kernels[i].name.starts_with("void at::<unnamed>::distribution_elementwise_grid_stride_kernel<"));
  EXPECT_EQ(r.kernels[2].name, "add_kernel");
  EXPECT_EQ(r.kernels[2].grid_size, "(16384, 1, 1)");
  EXPECT_EQ(r.kernels[2].duration_ns(), 44832.0);
  EXPECT_EQ(r.kernels[5].name, "void cutlass::Kernel2<cutlass_80_simt_sgemm_256x128_8x4_nn_align1>(T1::Params)");
  EXPECT_EQ(r.kernels[5].duration_ns(), 448064.0);
  EXPECT_TRUE(r.kernels[6].name.starts_with("void <unnamed>::softmax_warp_forward<float, float, float, 11, 0, 0>"));
  EXPECT_EQ(r.kernels[6].block_size, "(32, 4, 1)");
  ASSERT_EQ(r.warnings.size(), 1u);
}

TEST(NcuReport, DefaultSelectionKeepsTheTritonKernelOnly) {
  NcuReport r = parse_fixture("mixed_program.raw.csv");
  auto chosen = select_kernels(r, "", false);
  ASSERT_EQ(chosen.size(), 1u);
  EXPECT_EQ(chosen[0]->name, "add_kernel");
  EXPECT_EQ(chosen[0], &r.kernels[2]);
  EXPECT_EQ(select_kernels(r, "", true).size(), 7u);
}

TEST(NcuReport, RegexSelectsOneKernel) {
  NcuReport r = parse_fixture("mixed_program.raw.csv");
  auto gemm = select_kernels(r, "sgemm_256x128", true);
  ASSERT_EQ(gemm.size(), 1u);
  EXPECT_EQ(gemm[0]->id, 5);
  auto softmax = select_kernels(r, "softmax_warp_forward", true);
  ASSERT_EQ(softmax.size(), 1u);
  EXPECT_EQ(softmax[0]->id, 6);
  EXPECT_TRUE(select_kernels(r, "softmax_warp_forward", false).empty());  // a library kernel
  EXPECT_EQ(select_kernels(r, "^add_kernel$", false).size(), 1u);
  EXPECT_EQ(select_kernels(r, "distribution_elementwise", true).size(), 4u);
  EXPECT_TRUE(select_kernels(r, "^add_k$", true).empty());  // searched, but anchors still anchor
}

TEST(NcuReport, BadRegexIsABadInputNamingTheRegex) {
  NcuReport r = parse_fixture("launch_bound_tiny.raw.csv");
  try {
    select_kernels(r, "add_(k", false);
    FAIL() << "no error for a bad regex";
  } catch (const UserError& e) {
    EXPECT_EQ(e.code(), ExitCode::bad_input);
    EXPECT_TRUE(contains(e.what(), "add_(k")) << e.what();
  }
}

TEST(NcuReport, LibraryKernelsAreRecognised) {
  NcuReport r = parse_fixture("mixed_program.raw.csv");
  for (const auto& k : r.kernels) EXPECT_EQ(is_library_kernel(k.name), k.name != "add_kernel") << k.name;
  EXPECT_TRUE(is_library_kernel("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>>"));
  EXPECT_TRUE(is_library_kernel("ampere_sgemm_128x64_nn"));
  EXPECT_TRUE(is_library_kernel("sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n_tilesize128x128x64"));
  EXPECT_TRUE(is_library_kernel("nvjet_tst_192x192_64x3_2x1_v_bz_coopB_TNT"));
  EXPECT_TRUE(is_library_kernel("void cub::DeviceRadixSortOnesweepKernel<int>(int *)"));
  EXPECT_FALSE(is_library_kernel("add_k"));
  EXPECT_FALSE(is_library_kernel("mm_k"));
  EXPECT_FALSE(is_library_kernel("triton_poi_fused_add_0"));
  EXPECT_FALSE(is_library_kernel("ampere_tuned_softmax_k"));
}

TEST(NcuReport, DetailsPageIsRejected) {
  std::string msg = bad_input_message(read_text_file(test::data_dir() / "ncu" / "h200" / "mixed_program.details.csv"));
  EXPECT_TRUE(contains(msg, "details page")) << msg;
  EXPECT_TRUE(contains(msg, "--page raw")) << msg;
}

TEST(NcuReport, EmptyOrUnrelatedTextIsRejected) {
  EXPECT_TRUE(contains(bad_input_message(""), "empty"));
  EXPECT_TRUE(contains(bad_input_message("\n \r\n\n"), "empty"));
  std::string msg = bad_input_message("hello world\nx,y,z\n\"ID\",\"Name\"\n{\"a\": 1}\n");
  EXPECT_TRUE(contains(msg, "no Nsight Compute raw table found")) << msg;
  EXPECT_TRUE(contains(msg, "ncu --csv --page raw")) << msg;
}

TEST(NcuReport, NcuErrorIsQuotedWhenThereIsNoTable) {
  std::string msg = bad_input_message(
      "==PROF== Connected to process 12 (/usr/bin/python3)\n"
      "==ERROR== ERR_NVGPUCTRPERM - The user does not have permission to access NVIDIA GPU Performance Counters\n"
      "==PROF== Disconnected from process 12\n");
  EXPECT_TRUE(contains(msg, "ERR_NVGPUCTRPERM")) << msg;
}

TEST(NcuReport, HeaderWithoutKernelRowsIsRejected) {
  std::string text = synthetic("\"gpu__time_duration.sum\"", "\"ns\"", "\"1\"");
  text = text.substr(0, text.rfind("\"0\","));  // header and units only
  std::string msg = bad_input_message(text);
  EXPECT_TRUE(contains(msg, "no kernel rows")) << msg;
  msg = bad_input_message("==PROF== Connected\n\"ID\",\"Kernel Name\",\"x__y.sum\"\n==PROF== Disconnected\n");
  EXPECT_TRUE(contains(msg, "no kernel rows")) << msg;
}

TEST(NcuReport, NotApplicableAndThousandsSeparatorsInQuotedCells) {
  NcuReport r = parse_ncu_raw_csv(synthetic(
      "\"gpu__time_duration.sum\",\"dram__bytes_read.sum\",\"sm__warps_active.avg.pct_of_peak_sustained_active\","
      "\"launch__registers_per_thread\",\"l1tex__t_sectors.sum\",\"smsp__inst_executed.sum\"",
      "\"ns\",\"byte\",\"%\",\"register/thread\",\"sector\",\"inst\"",
      "\"1,812,544\",\"n/a\",\"no data\",\"\",\"1,23\",\"-2.5e3\""));
  const KernelProfile& k = r.kernels[0];
  EXPECT_EQ(k.duration_ns(), 1812544.0);
  EXPECT_FALSE(k.get("dram__bytes_read.sum").has_value());
  EXPECT_FALSE(k.get("sm__warps_active.avg.pct_of_peak_sustained_active").has_value());
  EXPECT_FALSE(k.get("launch__registers_per_thread").has_value());
  EXPECT_FALSE(k.get("l1tex__t_sectors.sum").has_value());  // "1,23" is not a thousands group
  EXPECT_EQ(k.get("smsp__inst_executed.sum"), -2500.0);
  EXPECT_EQ(k.metrics.size(), 2u);
  EXPECT_EQ(k.name, "my_k");
  EXPECT_EQ(k.block_size, "(256, 1, 1)");
  EXPECT_TRUE(r.warnings.empty());
}

TEST(NcuReport, MissingMetricIsAbsentNotAnError) {
  NcuReport r = parse_ncu_raw_csv(synthetic("\"dram__bytes_read.sum\"", "\"byte\"", "\"100\""));
  EXPECT_FALSE(r.kernels[0].duration_ns().has_value());
  EXPECT_FALSE(r.kernels[0].get("gpu__time_duration.sum").has_value());
  EXPECT_EQ(r.kernels[0].get("dram__bytes_read.sum"), 100.0);
}

TEST(NcuReport, UnitsAreNormalisedToBaseUnits) {
  struct Case {
    const char* unit;
    const char* cell;
    double want;
  };
  const Case cases[] = {
      {"nsecond", "7", 7},
      {"usecond", "1.5", 1.5e3},
      {"us", "2", 2e3},
      {"msecond", "2.98", 2.98e6},
      {"ms", "1", 1e6},
      {"second", "1", 1e9},
      {"s", "0.5", 0.5e9},
      {"byte", "1,024", 1024},
      {"Kbyte", "32.77", 32770},
      {"Mbyte", "11.80", 11.8e6},
      {"Gbyte", "2", 2e9},
      {"Tbyte", "1", 1e12},
      {"KB", "4", 4e3},
      {"MB", "4", 4e6},
      {"GB", "4", 4e9},
      {"byte/second", "5", 5},
      {"byte/s", "5", 5},
      {"Kbyte/second", "5", 5e3},
      {"Mbyte/second", "5", 5e6},
      {"Gbyte/second", "826.98", 826.98e9},
      {"Tbyte/second", "4.03", 4.03e12},
      {"Kbyte/block", "1.02", 1020},
      {"cycle/nsecond", "1.21", 1.21e9},
      {"cycle/usecond", "832.57", 832.57e6},
      {"cycle/second", "9", 9},
      {"hz", "1,431,721,891.39", 1431721891.39},
      {"Khz", "3", 3e3},
      {"Mhz", "885", 885e6},
      {"Ghz", "2.52", 2.52e9},
      {"%", "83.74", 83.74},
      {"inst/cycle", "0.31", 0.31},
      {"sector", "2,097,573", 2097573},
      {"sector/s", "3", 3},
      {"", "132", 132},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.unit);
    NcuReport r = parse_ncu_raw_csv(
        synthetic("\"m__x.sum\"", std::string("\"") + c.unit + "\"", std::string("\"") + c.cell + "\""));
    expect_close(r.kernels[0].get("m__x.sum"), c.want);
    EXPECT_EQ(r.kernels[0].metrics.at("m__x.sum").unit, c.unit);
  }
}

TEST(NcuReport, TrailingProfilerLinesAndProgramOutputEndTheTable) {
  std::string text = "==PROF== Connected to process 7 (/usr/bin/python3)\n" +
                     synthetic("\"gpu__time_duration.sum\"", "\"ns\"", "\"2,496\"") +
                     "==PROF== Disconnected from process 7\n"
                     "\"1\",\"late_k\",\"(1, 1, 1)\",\"(1, 1, 1)\",\"0\",\"5\"\n"
                     "==WARNING== Found outstanding GPU clock reset, trying to revert...Success.\n";
  NcuReport r = parse_ncu_raw_csv(text);
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].duration_ns(), 2496.0);
  ASSERT_EQ(r.warnings.size(), 1u);
  EXPECT_EQ(r.warnings[0], "Found outstanding GPU clock reset, trying to revert...Success.");
}

TEST(NcuReport, CrlfLineEndingsParse) {
  std::string text =
      "==PROF== Connected\r\n{\"note\": \"program output\"}\r\n" +
      synthetic("\"gpu__time_duration.sum\",\"launch__grid_size\"", "\"usecond\",\"\"", "\"1.50\",\"8\"");
  std::string crlf;
  for (char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  NcuReport r = parse_ncu_raw_csv(crlf);
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].device, "0");
  EXPECT_TRUE(r.kernels[0].device_name.empty());
  EXPECT_EQ(r.kernels[0].duration_ns(), 1500.0);
  EXPECT_EQ(r.kernels[0].get("launch__grid_size"), 8.0);  // not "8\r"
}

TEST(NcuReport, QuotedFieldsWithCommasQuotesAndDuplicateColumns) {
  std::string text =
      "\"ID\",\"Kernel Name\",\"x__a.sum\",\"x__a.sum\",\"S.T.x__b.sum\",\"x__c.sum\"\n"
      "\"\",\"\",\"\",\"\",\"byte\",\"\"\n"
      "\"3\",\"void f<(1, 2)>(\"\"q\"\", int)\",\"1\",\"2\",\"3,000\",4\n";
  NcuReport r = parse_ncu_raw_csv(text);
  ASSERT_EQ(r.kernels.size(), 1u);
  const KernelProfile& k = r.kernels[0];
  EXPECT_EQ(k.id, 3);
  EXPECT_EQ(k.name, "void f<(1, 2)>(\"q\", int)");
  EXPECT_EQ(k.get("x__a.sum"), 1.0);  // the first of two columns with one name
  EXPECT_EQ(k.get("S.T.x__b.sum"), 3000.0);
  EXPECT_EQ(k.get("x__b.sum"), 3000.0);
  EXPECT_EQ(k.get("x__c.sum"), 4.0);  // an unquoted field
  EXPECT_TRUE(k.block_size.empty());  // columns that are not there stay empty
}

TEST(NcuReport, UnitsRowMayBeAbsent) {
  NcuReport r =
      parse_ncu_raw_csv("\"ID\",\"Kernel Name\",\"gpu__time_duration.sum\"\n\"0\",\"k\",\"10\"\n\"1\",\"k\",\"20\"\n");
  ASSERT_EQ(r.kernels.size(), 2u);
  EXPECT_EQ(r.kernels[1].duration_ns(), 20.0);
  EXPECT_EQ(r.kernels[1].metrics.at("gpu__time_duration.sum").unit, "");
}

TEST(NcuReport, CellsThatAreNotFiniteNumbersAreKeptWithTheirText) {
  NcuReport r = parse_ncu_raw_csv(synthetic(
      "\"gpu__time_duration.sum\",\"dram__bytes_read.sum\",\"dram__bytes_write.sum\",\"launch__grid_size\","
      "\"SEC.x__y.sum\",\"launch__block_size\"",
      "\"ns\",\"byte\",\"Tbyte\",\"\",\"\",\"\"", "\"nan\",\"1e400\",\"1e300\",\"n/a\",\"12 apples\",\"128\""));
  const KernelProfile& k = r.kernels[0];
  EXPECT_FALSE(k.duration_ns().has_value());
  EXPECT_EQ(k.unreadable_text("gpu__time_duration.sum"), "nan");
  EXPECT_EQ(k.unreadable_text("dram__bytes_read.sum"), "1e400");   // out of range
  EXPECT_EQ(k.unreadable_text("dram__bytes_write.sum"), "1e300");  // 1e312 bytes once the unit is applied
  EXPECT_EQ(k.unreadable_text("launch__grid_size"), "n/a");
  EXPECT_EQ(k.unreadable_text("x__y.sum"), "12 apples");  // reachable by the bare name too
  EXPECT_FALSE(k.unreadable_text("Kernel Name").has_value());
  EXPECT_EQ(k.metrics.size(), 1u);  // launch__block_size
}

TEST(NcuReport, EmptyCellsAreAbsentNotUnreadable) {
  NcuReport r = parse_ncu_raw_csv(synthetic("\"gpu__time_duration.sum\",\"x__y.sum\"", "\"ns\",\"\"", "\"5\",\"  \""));
  EXPECT_TRUE(r.kernels[0].unreadable.empty());
  EXPECT_FALSE(r.kernels[0].get("x__y.sum").has_value());
}

TEST(NcuReport, ATableOfTextIsNotAnNcuTable) {
  // The two columns the header needs, then anything: refused, not diagnosed kernel by kernel.
  std::string msg = bad_input_message(
      "\"ID\",\"Kernel Name\",\"foo\",\"bar\"\n\"0\",\"qwerty\",\"zz\",\"1\"\n"
      "\"1\",\"asdf\",\"2\",\"3\"\n");
  EXPECT_TRUE(contains(msg, "no Nsight Compute metric column")) << msg;
  EXPECT_TRUE(contains(msg, "\"foo\"")) << msg;
  msg = bad_input_message(
      "\"ID\",\"Kernel Name\",\"lorem__ipsum\",\"dolor__sit.sum\"\n"
      "\"0\",\"qwerty\",\"zz\",\"n/a\"\n\"1\",\"asdf\",\"\",\"yy\"\n");
  EXPECT_TRUE(contains(msg, "no kernel row (of 2) holds a number")) << msg;
}

TEST(NcuReport, BytesThatAreNotUtf8AreReplacedSoTheReportCanBeWrittenAsJson) {
  std::string text = synthetic("\"gpu__time_duration.sum\"", "\"ns\"", "\"5\"");
  text.replace(text.find("my_k"), 4, "my\xff\xc3_k");
  NcuReport r = parse_ncu_raw_csv(text);
  EXPECT_EQ(r.kernels[0].name, "my??_k");
  EXPECT_NO_THROW((void)nlohmann::json(r.kernels[0].name).dump());
  text = synthetic("\"gpu__time_duration.sum\"", "\"ns\"", "\"5\"");
  text.replace(text.find("my_k"), 4, "caf\xc3\xa9_k");  // well-formed UTF-8 stays as it is
  EXPECT_EQ(parse_ncu_raw_csv(text).kernels[0].name, "caf\xc3\xa9_k");
}
