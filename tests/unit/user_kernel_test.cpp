// A user's kernel file as a family (optimize --kernel): its marked constants read as knobs, the tags inferred
// from their names or given, the file's own values first, clear errors for marks that cannot be read, and a
// configuration emitted as the same file with only the marked values changed.

#include "kernelagent/families/user_kernel.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "kernelagent/core/error.hpp"
#include "test_data.hpp"

using namespace kernelagent;
using nlohmann::json;

namespace {

const char* kFile = R"(""" A kernel. The constants marked '# kernelagent:' are tuned. """
import triton
BLOCK_SIZE = 1024  # kernelagent: 256, 512, 1024, 2048
NUM_WARPS: int = 4  # kernelagent: 2, 8
EPS = 1e-5  # kernelagent: 1e-6, 0.5 | reduction_tree
MODE = "fast"  # kernelagent: 'slow', "fast", 'a,b' | tail
FLAG = False  # kernelagent: True
OTHER = 3


def launch(x):
    k[(1,)](x, BLOCK=BLOCK_SIZE, num_warps=NUM_WARPS)
)";

std::string message_of(const std::string& text) {
  try {
    read_user_knobs(text, "k.py");
  } catch (const UserError& e) {
    EXPECT_EQ(e.code(), ExitCode::bad_input);
    return e.what();
  }
  return "";
}

}  // namespace

TEST(UserKernel, EachMarkedConstantIsAKnobWhoseDomainStartsWithTheFilesOwnValue) {
  const std::string text = kFile;
  const auto knobs = read_user_knobs(text, "k.py");
  ASSERT_EQ(knobs.size(), 5u);
  EXPECT_EQ(knobs[0].knob, "BLOCK_SIZE");
  EXPECT_EQ(knobs[0].line, 3);
  EXPECT_EQ(json(knobs[0].values), json::parse("[1024, 256, 512, 2048]"));  // 1024 once, first
  EXPECT_EQ(knobs[0].tags, (std::vector<std::string>{"parallelism", "reuse"}));
  EXPECT_TRUE(knobs[0].tags_inferred);
  EXPECT_EQ(knobs[0].tile_exponent, 1);
  // NUM_WARPS is the launch option the search knows as num_warps; the annotation is kept.
  EXPECT_EQ(knobs[1].knob, "num_warps");
  EXPECT_EQ(knobs[1].constant, "NUM_WARPS");
  EXPECT_EQ(json(knobs[1].values), json::parse("[4, 2, 8]"));
  EXPECT_EQ(knobs[1].tags, (std::vector<std::string>{"parallelism", "occupancy"}));
  EXPECT_EQ(json(knobs[2].values), json::parse("[1e-5, 1e-6, 0.5]"));
  EXPECT_EQ(knobs[2].tags, (std::vector<std::string>{"reduction_tree"}));
  EXPECT_FALSE(knobs[2].tags_inferred);
  EXPECT_EQ(json(knobs[3].values), json::parse(R"(["fast", "slow", "a,b"])"));
  EXPECT_EQ(json(knobs[4].values), json::parse("[false, true]"));
  EXPECT_TRUE(knobs[4].tags.empty());  // a name that says nothing: untagged
}

TEST(UserKernel, AConfigurationIsTheSameFileWithOnlyTheMarkedValuesChanged) {
  const std::string text = kFile;
  const auto knobs = read_user_knobs(text, "k.py");
  const std::string out = emit_user_kernel(
      text, knobs, json{{"BLOCK_SIZE", 256}, {"num_warps", 8}, {"EPS", 0.5}, {"MODE", "a,b"}, {"FLAG", true}}, "p.py");
  EXPECT_EQ(
      out.substr(0, out.find('\n')),
      R"(# p.py: configuration {"BLOCK_SIZE":256,"EPS":0.5,"FLAG":true,"MODE":"a,b","num_warps":8}, set by kernelagent optimize --kernel)");
  // Each mark lists the rest of the domain, the file's first value among it, tags kept as given.
  EXPECT_NE(out.find("\nBLOCK_SIZE = 256  # kernelagent: 1024, 512, 2048\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\nNUM_WARPS: int = 8  # kernelagent: 4, 2\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\nEPS = 0.5  # kernelagent: 1e-05, 1e-06 | reduction_tree\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\nMODE = \"a,b\"  # kernelagent: \"fast\", \"slow\" | tail\n"), std::string::npos) << out;
  EXPECT_NE(out.find("\nFLAG = True  # kernelagent: False\n"), std::string::npos) << out;
  // Everything else as it was, the launch that reads the constants included.
  EXPECT_EQ(out.substr(out.find("OTHER = 3")), text.substr(text.find("OTHER = 3")));
  // The emitted file reads back with the new values first: it can be tuned again.
  const auto again = read_user_knobs(out.substr(out.find('\n') + 1), "k.py");
  EXPECT_EQ(json(again[0].values), json::parse("[256, 1024, 512, 2048]"));
  EXPECT_EQ(again[2].tags, knobs[2].tags);
  // A float that is a whole number stays a float in Python.
  EXPECT_NE(emit_user_kernel(text, knobs, json{{"EPS", 2.0}}, "p.py").find("\nEPS = 2.0  #"), std::string::npos);
}

TEST(UserKernel, MarksThatCannotBeReadAreRefusedNamingTheLine) {
  EXPECT_NE(message_of("X = 1\n").find("marks no constant to tune"), std::string::npos);
  EXPECT_NE(message_of("A = 1\nB = 2  # kernelagent: 3, x\n").find("k.py line 2: 'x' in the values of B"),
            std::string::npos);
  EXPECT_NE(message_of("B = f(2)  # kernelagent: 3\n").find("the value of B (f(2)) is not a number"),
            std::string::npos);
  EXPECT_NE(message_of("B = 2  # kernelagent: 2\n").find("lists no value other than its own"), std::string::npos);
  EXPECT_NE(message_of("B = 2  # kernelagent: 3 | speed\n").find("'speed' is not a purpose tag"), std::string::npos);
  EXPECT_NE(message_of("B = 2  # kernelagent: 3\nB = 4  # kernelagent: 5\n").find("line 2: B is marked twice"),
            std::string::npos);
  EXPECT_NE(message_of("def f():\n    B = 2  # kernelagent: 3\n")
                .find("line 2: a '# kernelagent:' mark follows a "
                      "module-level assignment"),
            std::string::npos);
  // The words in a docstring or a comparison are no mark.
  EXPECT_NE(message_of("\"\"\"Mark with '# kernelagent: 1, 2'.\"\"\"\nif a == b:  # kernelagent: 1\n    pass\n")
                .find("marks no constant"),
            std::string::npos);
}

TEST(UserKernel, TheFamilyOfAFileIsNamedAfterItAndHashesItsText) {
  const auto dir = test::temp_dir("user-kernel");
  const auto file = dir / "my_kernel.py";
  std::ofstream(file) << "import torch\nBLOCK = 64  # kernelagent: 128\n";
  const auto family = user_kernel_family(file);
  EXPECT_EQ(family->name(), "kernel:my_kernel");
  EXPECT_TRUE(family->fact("user_kernel"));
  EXPECT_EQ(family->knob_space().default_config(), json({{"BLOCK", 64}}));
  EXPECT_EQ(family->knob_space().enumerate().size(), 2u);
  const std::string hash = family->source_hash();
  std::ofstream(file) << "import torch\nBLOCK = 64  # kernelagent: 128\n# an edit\n";
  EXPECT_NE(user_kernel_family(file)->source_hash(), hash);
  // Any traced problem is the file's: the check judges whether it implements it.
  TraceResult trace;
  const Recognition r = family->recognise(trace);
  ASSERT_TRUE(r);
  EXPECT_TRUE(r.problem->valid(json{{"BLOCK", 128}}, nullptr, Precision::strict));
  EXPECT_NE(r.problem->emit(json{{"BLOCK", 128}}, {"p.py"}).find("\nBLOCK = 128  # kernelagent: 64\n"),
            std::string::npos);
  EXPECT_THROW(user_kernel_family(dir / "missing.py"), UserError);
}
