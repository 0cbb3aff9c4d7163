// The ncu parser and the diagnosis under garbage: random bytes, random CSV-looking text and real recorded
// profiles with cells replaced, bytes flipped, lines dropped or cut short. Whatever comes in, parsing either
// refuses it with a bad-input UserError or yields kernels whose diagnosis holds only finite figures,
// confidences in 0..1 and, when a metric it needed was unreadable, names it and lowers every confidence.
// Seeded: a failure reproduces.

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "kernelagent/core/error.hpp"
#include "kernelagent/core/template.hpp"
#include "kernelagent/diagnose/diagnosis.hpp"
#include "kernelagent/profile/ncu_report.hpp"
#include "test_data.hpp"

using namespace kernelagent;

namespace {

GpuSpec h200() { return *find_gpu_spec("NVIDIA H200"); }

// Values a corrupted or hand-edited profile holds where numbers belong: unparseable, out of range, absurd.
const std::vector<std::string> kGarbage = {"n/a",  "nan",  "NaN",  "inf",       "-inf", "1e400", "-1e400", "1e308",
                                           "-5",   "-0.5", "abc",  "12 apples", "1,2",  "0x10",  "--",     "1e-300",
                                           "9e18", "\"",   "1e15", "4000",      "0",    " ",     "1.2.3",  "+-1"};

// Cells garbage in a metric the diagnosis always reads must be named when they cannot be used.
const std::vector<std::string> kAlwaysRead = {"gpu__time_duration.sum",
                                              "dram__bytes_read.sum",
                                              "launch__grid_size",
                                              "sm__throughput.avg.pct_of_peak_sustained_elapsed",
                                              "launch__waves_per_multiprocessor",
                                              "sm__maximum_warps_per_active_cycle_pct"};

// Every recorded raw page: the project's own and the shared originals beside the repository, each distinct
// text once (the shared ones are byte-for-byte copies today; NcuReport.SharedFixturesMatchTheProjectCopy).
std::vector<std::filesystem::path> fixtures() {
  std::vector<std::filesystem::path> files;
  std::set<std::string> seen;
  for (const auto& dir : {test::data_dir() / "ncu" / "h200", test::data_dir() / "ncu" / "unlabeled",
                          test::source_dir() / ".." / "shared" / "fixtures" / "ncu" / "h200"}) {
    if (!std::filesystem::is_directory(dir)) continue;
    std::vector<std::filesystem::path> here;
    for (const auto& e : std::filesystem::directory_iterator(dir))
      if (e.path().string().ends_with(".csv")) here.push_back(e.path());
    std::sort(here.begin(), here.end());
    for (const auto& f : here)
      if (seen.insert(read_text_file(f)).second) files.push_back(f);
  }
  return files;
}

// What parsing and diagnosing `text` must satisfy, whatever it is. Returns the diagnoses (empty when refused).
std::vector<KernelDiagnosis> parse_and_diagnose(const std::string& text, const std::string& what) {
  SCOPED_TRACE(what);
  NcuReport report;
  try {
    report = parse_ncu_raw_csv(text);
  } catch (const UserError& e) {
    EXPECT_EQ(e.code(), ExitCode::bad_input) << e.what();
    EXPECT_FALSE(std::string(e.what()).empty());
    return {};
  } catch (const std::exception& e) {
    ADD_FAILURE() << "an exception that is not a UserError escaped: " << e.what();
    return {};
  }
  EXPECT_FALSE(report.kernels.empty());
  std::vector<KernelDiagnosis> out;
  const GpuSpec gpu = h200();
  ProblemFacts facts;
  facts.compulsory_bytes = 1e8;
  facts.matrix_product = true;
  for (const auto& k : report.kernels) {
    KernelDiagnosis d;
    try {
      d = diagnose_kernel(k, gpu, facts);
      (void)d.to_json().dump();
    } catch (const std::exception& e) {
      ADD_FAILURE() << "the diagnosis threw: " << e.what();
      continue;
    }
    EXPECT_TRUE(std::isfinite(d.duration_us) && d.duration_us >= 0) << d.duration_us;
    EXPECT_TRUE(std::isfinite(d.sol.compute_pct) && std::isfinite(d.sol.memory_pct) && std::isfinite(d.sol.dram_pct));
    for (const auto& b : d.bottlenecks) {
      EXPECT_TRUE(std::isfinite(b.confidence) && b.confidence >= 0 && b.confidence <= 1) << b.cause;
      if (!d.unreadable.empty()) {
        EXPECT_LE(b.confidence, kUnreadableConfidenceFactor) << b.cause;
      }
      for (const auto& e : b.evidence) EXPECT_TRUE(std::isfinite(e.value)) << b.cause << " " << e.metric;
    }
    for (const auto& u : d.unreadable) EXPECT_FALSE(u.metric.empty() || u.why.empty());
    out.push_back(std::move(d));
  }
  return out;
}

// Splits a raw page into lines, finds the header row and rewrites one cell of one kernel row.
struct Page {
  std::vector<std::string> lines;
  std::size_t header = std::string::npos;

  explicit Page(const std::string& text) {
    std::size_t start = 0;
    while (start <= text.size()) {
      std::size_t end = text.find('\n', start);
      if (end == std::string::npos) end = text.size();
      lines.push_back(text.substr(start, end - start));
      start = end + 1;
    }
    for (std::size_t i = 0; i < lines.size(); ++i)
      if (lines[i].starts_with("\"ID\",")) {
        header = i;
        break;
      }
  }
  std::string text() const {
    std::string t;
    for (std::size_t i = 0; i < lines.size(); ++i) t += lines[i] + (i + 1 < lines.size() ? "\n" : "");
    return t;
  }
  // The quoted cells of a line (the raw page quotes every cell and holds no newline in one).
  static std::vector<std::string> cells(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (c == '"' && quoted && i + 1 < line.size() && line[i + 1] == '"')
        cur += '"', ++i;
      else if (c == '"')
        quoted = !quoted;
      else if (c == ',' && !quoted)
        out.push_back(std::exchange(cur, ""));
      else
        cur += c;
    }
    out.push_back(cur);
    return out;
  }
  static std::string join(const std::vector<std::string>& cells) {
    std::string line;
    for (std::size_t i = 0; i < cells.size(); ++i) {
      std::string quoted;
      for (char c : cells[i]) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
      line += (i ? "," : "") + ("\"" + quoted + "\"");
    }
    return line;
  }
  // The index of the column named `name`, or -1.
  int column(const std::string& name) const {
    const auto head = cells(lines[header]);
    for (std::size_t i = 0; i < head.size(); ++i)
      if (head[i] == name) return static_cast<int>(i);
    return -1;
  }
  // The first kernel row: two lines below the header (the units row between).
  std::size_t first_row() const { return header + 2; }
  void set_cell(std::size_t row, int col, const std::string& value) {
    auto c = cells(lines[row]);
    c[static_cast<std::size_t>(col)] = value;
    lines[row] = join(c);
  }
};

}  // namespace

TEST(NcuFuzz, RandomBytesAreRefusedOrDiagnosedWithoutACrash) {
  std::mt19937 rng(20261204);
  for (int i = 0; i < 300; ++i) {
    std::string text(std::uniform_int_distribution<int>(0, 1500)(rng), '\0');
    for (char& c : text) c = static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
    if (i % 3 == 0) text = "\"ID\",\"Kernel Name\",\"dram__bytes_read.sum\"\n" + text;  // a header, then noise
    parse_and_diagnose(text, "random bytes #" + std::to_string(i));
  }
}

TEST(NcuFuzz, RandomTextTablesAreRefused) {
  // CSV-shaped text with the two columns the header needs and words everywhere else: "diagnosed" kernel by
  // kernel before, refused now, whether or not its column names look like ncu's.
  std::mt19937 rng(7);
  const std::vector<std::string> words = {"alpha", "beta", "x", "", "n/a", "qwerty", "dram", "sum", "%", "total"};
  auto word = [&] { return words[std::uniform_int_distribution<std::size_t>(0, words.size() - 1)(rng)]; };
  for (int i = 0; i < 100; ++i) {
    const int columns = std::uniform_int_distribution<int>(1, 12)(rng);
    std::vector<std::string> head = {"ID", "Kernel Name"};
    for (int c = 0; c < columns; ++c) head.push_back(i % 2 ? word() + "__" + word() + ".sum" : word());
    std::string text = Page::join(head) + "\n";
    const int rows = std::uniform_int_distribution<int>(1, 5)(rng);
    for (int r = 0; r < rows; ++r) {
      std::vector<std::string> row = {std::to_string(r), word()};
      for (int c = 0; c < columns; ++c) row.push_back(word());
      text += Page::join(row) + "\n";
    }
    EXPECT_TRUE(parse_and_diagnose(text, "random table #" + std::to_string(i)).empty()) << text;
  }
}

TEST(NcuFuzz, GarbageInAMetricTheDiagnosisReadsIsNamedAndLowersTheConfidence) {
  // Every garbage value in every always-read metric of one profile, and a rotating few in three more (each
  // parse of a 160 KB page takes a while in a debug build).
  int named = 0, tried = 0;
  const auto dir = test::data_dir() / "ncu" / "h200";
  for (const std::string file :
       {"mem_coalesced.raw.csv", "compute_tensor.raw.csv", "latency_tiny_grid.raw.csv", "launch_bound_tiny.raw.csv"}) {
    const Page page(read_text_file(dir / file));
    ASSERT_NE(page.header, std::string::npos) << file;
    for (std::size_t m = 0; m < kAlwaysRead.size(); ++m) {
      const std::string& metric = kAlwaysRead[m];
      const int col = page.column(metric);
      ASSERT_GE(col, 0) << file << " has no " << metric;
      for (std::size_t v = 0; v < kGarbage.size(); ++v) {
        if (file != "mem_coalesced.raw.csv" && (v + m) % 4 != 0) continue;
        const std::string& value = kGarbage[v];
        Page mutated = page;
        mutated.set_cell(mutated.first_row(), col, value);
        const std::string what = file + ": " + metric + " = '" + value + "'";
        const auto diagnoses = parse_and_diagnose(mutated.text(), what);
        ASSERT_EQ(diagnoses.size(), 1u) << what;  // one bad cell leaves plenty to diagnose
        // Unreadable text, an out-of-range number and an absurd one must all be named ("1e-300", "1e15", " "
        // and, outside durations and percentages, "0" and "4000" are values a metric can have).
        const bool percent = metric.find("pct") != std::string::npos;
        const bool absurd = !(value == "1e-300" || value == "1e15" || value == " " ||
                              (value == "0" && metric != "gpu__time_duration.sum") || (value == "4000" && !percent));
        if (!absurd) continue;
        ++tried;
        bool found = false;
        for (const auto& u : diagnoses.front().unreadable) found |= u.metric.find(metric) != std::string::npos;
        EXPECT_TRUE(found) << what << ": not named among the unreadable metrics";
        named += found;
      }
    }
  }
  EXPECT_EQ(named, tried);
  EXPECT_GT(tried, 150);
}

TEST(NcuFuzz, MutatedRealProfilesNeverCrashTheParserOrTheDiagnosis) {
  std::mt19937 rng(1234);
  const auto files = fixtures();
  ASSERT_GE(files.size(), 10u);
  for (const auto& file : files) {
    const std::string original = read_text_file(file);
    for (int i = 0; i < 8; ++i) {
      std::string text = original;
      const std::string what = file.filename().string() + " mutation " + std::to_string(i);
      switch (i % 4) {
        case 0:  // bytes flipped anywhere
          for (int n = 0; n < 20; ++n)
            text[std::uniform_int_distribution<std::size_t>(0, text.size() - 1)(rng)] =
                static_cast<char>(std::uniform_int_distribution<int>(0, 255)(rng));
          break;
        case 1:  // cut short
          text.resize(std::uniform_int_distribution<std::size_t>(0, text.size())(rng));
          break;
        case 2: {  // a line dropped or doubled
          Page p(text);
          const std::size_t at = std::uniform_int_distribution<std::size_t>(0, p.lines.size() - 1)(rng);
          if (rng() % 2)
            p.lines.erase(p.lines.begin() + static_cast<long>(at));
          else
            p.lines.insert(p.lines.begin() + static_cast<long>(at), p.lines[at]);
          text = p.text();
          break;
        }
        case 3: {  // many cells of every kernel row replaced by garbage
          Page p(text);
          if (p.header == std::string::npos) break;
          const std::size_t width = Page::cells(p.lines[p.header]).size();
          for (std::size_t row = p.first_row(); row < p.lines.size(); ++row) {
            auto cells = Page::cells(p.lines[row]);
            if (cells.size() != width) continue;
            for (int n = 0; n < 300; ++n) cells[2 + rng() % (width - 2)] = kGarbage[rng() % kGarbage.size()];
            p.lines[row] = Page::join(cells);
          }
          text = p.text();
          break;
        }
      }
      parse_and_diagnose(text, what);
    }
  }
}
