// The map-reduce family's own rules against its recorded traces (tests/data/families/mapreduce): what each
// problem lowers to (domain, reduced axes, reductions, levels), how the kernels walk the domain, what is
// refused, and the first configuration of each variant at KernelBench's shapes (the traces resized). Its
// golden kernels are the conformance test's.

#include <gtest/gtest.h>

#include <map>

#include "family_support.hpp"
#include "kernelagent/families/mapreduce/layout.hpp"
#include "kernelagent/families/mapreduce/program.hpp"
#include "kernelagent/orchestrate/stages/search_request.hpp"

using namespace kernelagent;
using namespace kernelagent::mapreduce;
using nlohmann::json;

namespace {

std::size_t count_of(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++n;
  return n;
}

TraceResult trace(const std::string& name) { return test::family_trace("mapreduce", name); }

Program lowered(const std::string& name) {
  auto r = lower(trace(name));
  if (auto* why = std::get_if<std::string>(&r)) throw std::runtime_error(name + ": " + *why);
  return std::get<Program>(std::move(r));
}

std::vector<std::size_t> reduced_axes(const Program& p) {
  std::vector<std::size_t> out;
  for (std::size_t a = 0; a < p.reduced.size(); ++a)
    if (p.reduced[a]) out.push_back(a);
  return out;
}

std::vector<ReduceOp> ops_at(const Program& p, Level level) {
  std::vector<ReduceOp> out;
  for (const auto& r : p.reductions)
    if (r.level == level) out.push_back(r.op);
  return out;
}

// The recorded trace with every size replaced as `sizes` says (sizes of 1 stay), strides contiguous again:
// the small fixture at KernelBench's shape, for the pruning rules that depend on it.
TraceResult resized(const std::string& name, const std::map<std::int64_t, std::int64_t>& sizes) {
  json j = test::read_json(test::data_dir() / "families" / "mapreduce" / "traces" / (name + ".json"));
  auto map_shape = [&](json& shape) {
    for (auto& d : shape)
      if (d.is_number_integer() && sizes.contains(d.get<std::int64_t>())) d = sizes.at(d.get<std::int64_t>());
  };
  auto contiguous = [](const json& shape) {
    std::vector<std::int64_t> stride(shape.size(), 1);
    for (std::size_t i = shape.size(); i-- > 1;) stride[i - 1] = stride[i] * shape[i].get<std::int64_t>();
    return stride;
  };
  for (auto& in : j["graph"]["inputs"])
    if (in.contains("shape")) {
      map_shape(in["shape"]);
      in["stride"] = contiguous(in["shape"]);
    }
  for (auto& c : j["graph"]["constants"]) map_shape(c["shape"]);
  for (auto& n : j["graph"]["nodes"]) {
    if (n.contains("shape") && n["shape"].is_array()) map_shape(n["shape"]);
    // The sizes a view or a layer norm names.
    if (n["target"] == "aten.view.default" || n["target"] == "aten.native_layer_norm.default")
      for (auto& item : n["args"][1]["list"])
        if (sizes.contains(item["value"].get<std::int64_t>())) item["value"] = sizes.at(item["value"].get<std::int64_t>());
  }
  return TraceResult::from_json(j);
}

// The first configuration of a variant that is valid, in the knob space's order: what the guided search
// measures first of that variant.
Config first_of(const FamilyProblem& p, const std::string& variant, const GpuSpec* gpu) {
  for (const auto& c : p.family().knob_space().enumerate())
    if (c.at("variant") == variant && p.valid(c, gpu, Precision::strict)) return c;
  return json();
}

}  // namespace

TEST(MapReduceLowering, NormsReduceTheirAxesOfOneDomain) {
  struct Expect {
    const char* name;
    std::vector<std::int64_t> domain;
    std::vector<std::size_t> reduced;
    std::vector<ReduceOp> row_ops;
  };
  for (const Expect& e : {
           Expect{"layer_norm", {4, 8, 6, 5}, {1, 2, 3}, {ReduceOp::moments}},
           Expect{"batch_norm", {4, 8, 6, 5}, {0, 2, 3}, {ReduceOp::moments}},
           Expect{"batch_norm_cudnn", {4, 8, 6, 5}, {0, 2, 3}, {ReduceOp::moments}},
           // InstanceNorm in its input's own [N, C, H, W], not the [1, N * C, H, W] its BatchNorm form views.
           Expect{"instance_norm", {4, 8, 6, 5}, {2, 3}, {ReduceOp::moments}},
           Expect{"group_norm", {4, 2, 4, 30}, {2, 3}, {ReduceOp::moments}},
           Expect{"rms_norm", {4, 8, 6, 5}, {1}, {ReduceOp::sum}},
           Expect{"frobenius_norm", {4, 8, 6, 5}, {0, 1, 2, 3}, {ReduceOp::sum}},
           Expect{"l1_norm", {16, 300}, {1}, {ReduceOp::sum}},
           Expect{"max_norm_rows", {9, 50}, {1}, {ReduceOp::max}},
           Expect{"standardize", {5, 37, 6}, {1}, {ReduceOp::sum, ReduceOp::moments}},
       }) {
    SCOPED_TRACE(e.name);
    const Program p = lowered(e.name);
    EXPECT_EQ(p.domain, e.domain);
    EXPECT_EQ(reduced_axes(p), e.reduced);
    EXPECT_EQ(ops_at(p, Level::row), e.row_ops);
    EXPECT_TRUE(ops_at(p, Level::total).empty());
    ASSERT_EQ(p.outputs.size(), 1u);
    EXPECT_EQ(p.outputs[0].level, Level::element);
  }
}

TEST(MapReduceLowering, LossesEndInATotalOrAWholeTensorRow) {
  // Cross-entropy: a logsumexp per row, the target's log-probability gathered, then two totals (the loss
  // and the count of rows not ignored).
  const Program ce = lowered("cross_entropy");
  EXPECT_EQ(ce.domain, (std::vector<std::int64_t>{32, 100}));
  EXPECT_EQ(ops_at(ce, Level::row), (std::vector<ReduceOp>{ReduceOp::logsumexp}));
  EXPECT_EQ(ops_at(ce, Level::total), (std::vector<ReduceOp>{ReduceOp::sum, ReduceOp::sum}));
  EXPECT_EQ(ce.outputs[0].level, Level::total);
  bool gathered = false;
  for (const auto& v : ce.values) gathered = gathered || v.kind == Value::Kind::gathered;
  EXPECT_TRUE(gathered);
  // The triplet loss: two L2 distances per row, then their clamped difference's mean.
  const Program tri = lowered("triplet_margin_loss");
  EXPECT_EQ(ops_at(tri, Level::row), (std::vector<ReduceOp>{ReduceOp::sum, ReduceOp::sum}));
  EXPECT_EQ(ops_at(tri, Level::total), (std::vector<ReduceOp>{ReduceOp::sum}));
  // Losses over every element are one row: its value is the output.
  for (const char* name : {"mse_loss", "huber_loss", "kl_div_loss", "hinge_loss"}) {
    SCOPED_TRACE(name);
    const Program p = lowered(name);
    EXPECT_EQ(p.rows(), 1);
    EXPECT_EQ(p.outputs[0].level, Level::row);
    EXPECT_TRUE(p.outputs[0].shape.empty());
  }
  // Hinge's targets broadcast along the last axis: an operand with a zero stride over the first.
  const Program hinge = lowered("hinge_loss");
  bool broadcast = false;
  for (const auto& o : hinge.operands) broadcast = broadcast || (o.strides == std::vector<std::int64_t>{0, 1});
  EXPECT_TRUE(broadcast);
}

TEST(MapReduceLowering, BatchNormUpdatesItsRunningStatisticsAndCounter) {
  const Program p = lowered("batch_norm");
  int rows = 0, totals = 0;
  for (const auto& u : p.updates) (u.level == Level::row ? rows : totals)++;
  EXPECT_EQ(rows, 2);    // running_mean, running_var
  EXPECT_EQ(totals, 1);  // num_batches_tracked
  // The weight and the running statistics are per channel: row operands (the rows are the channels).
  int row_operands = 0;
  for (const auto& o : p.operands) row_operands += o.level == Level::row;
  EXPECT_GE(row_operands, 3);
}

TEST(MapReduceLowering, RefusesWithTheReason) {
  auto why = [](const TraceResult& t) {
    auto r = lower(t);
    return std::holds_alternative<std::string>(r) ? std::get<std::string>(r) : std::string();
  };
  EXPECT_NE(why(trace("unsupported_two_axes_sets")).find("one set of reduced axes per problem"), std::string::npos);
  EXPECT_NE(why(trace("unsupported_int_sum")).find("reduces a int64 tensor"), std::string::npos);
  EXPECT_NE(why(test::family_trace("elementwise", "19_ReLU")).find("no reduction"), std::string::npos);
  // x / norm(x, dim=1) without keepdim on a square x: PyTorch divides column j by row j's norm, which is not
  // a per-row value broadcast along its row.
  json j = test::read_json(test::data_dir() / "families" / "mapreduce" / "traces" / "l2_norm.json");
  j["graph"]["inputs"][0]["shape"] = {300, 300};
  j["graph"]["inputs"][0]["stride"] = {300, 1};
  for (auto& n : j["graph"]["nodes"]) {
    if (n["target"] == "aten.linalg_vector_norm.default") {
      n["args"][3]["value"] = false;
      n["shape"] = {300};
    } else {
      n["shape"] = {300, 300};
    }
  }
  EXPECT_NE(why(TraceResult::from_json(j)).find("broadcasts the per-row value"), std::string::npos) << why(TraceResult::from_json(j));
}

TEST(MapReduceLayout, WalksKeptAndReducedAxesAsFourIndices) {
  // BatchNorm: rows are the channels; the batch is looped over and the positions are a tile's columns.
  const Program bn = lowered("batch_norm");
  const Layout b = Layout::of(bn);
  EXPECT_EQ(b.kept_inner, (std::vector<std::size_t>{1}));
  EXPECT_EQ(b.reduced_outer, (std::vector<std::size_t>{0}));
  EXPECT_EQ(b.reduced_inner, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(b.k_in, 8);
  EXPECT_EQ(b.j_out, 4);
  EXPECT_EQ(b.j_in, 30);
  // RMSNorm over channels: the positions are contiguous rows, the channels a tile's columns.
  const Program rms = lowered("rms_norm");
  const Layout r = Layout::of(rms);
  EXPECT_EQ(r.kept_outer, (std::vector<std::size_t>{0}));
  EXPECT_EQ(r.kept_inner, (std::vector<std::size_t>{2, 3}));
  EXPECT_EQ(r.reduced_inner, (std::vector<std::size_t>{1}));
  EXPECT_EQ(r.offset(rms.operands[0].strides, "k_out", "k_in", "j_out", "j_in"), "k_out * 240 + k_in + j_in * 30");
  // GroupNorm's weight differs per channel inside a group: the group and channel axes stay apart.
  const Layout g = Layout::of(lowered("group_norm"));
  EXPECT_EQ(g.kept_inner, (std::vector<std::size_t>{1}));
  EXPECT_EQ(g.reduced_outer, (std::vector<std::size_t>{2}));
  EXPECT_EQ(g.reduced_inner, (std::vector<std::size_t>{3}));
}

TEST(MapReduceFamily, EachVariantStartsWhereItCanPayAtKernelBenchShapes) {
  const Family& f = test::family("mapreduce");
  const GpuSpec h200 = *find_gpu_spec("NVIDIA H200");
  // MSE over [32768, 32768]: one row of 1G elements; the split variant's first configuration fills the
  // GPU at least twice (512 programs), and neither registers nor a lone loop is offered.
  auto mse = test::recognised(f, resized("mse_loss", {{24, 32768}, {40, 16384}}));
  EXPECT_EQ(first_of(*mse, "split", &h200).value("split", 0), 512) << first_of(*mse, "split", &h200).dump();
  EXPECT_TRUE(first_of(*mse, "registers", &h200).is_null());
  EXPECT_TRUE(first_of(*mse, "loop", &h200).is_null());
  // RMSNorm over the 64 channels of [112, 64, 512, 512]: 64 contiguous rows a program in registers.
  auto rms = test::recognised(f, resized("rms_norm", {{4, 112}, {8, 64}, {6, 512}, {5, 512}}));
  const Config r = first_of(*rms, "registers", &h200);
  EXPECT_EQ(r.value("block_k", 0), 64) << r.dump();
  EXPECT_EQ(r.value("block_j", 0), 64) << r.dump();
  // InstanceNorm's 7168 rows of 262144: co-resident chunks of 4096 held in registers (64 programs a row),
  // only with a GPU.
  auto inorm = test::recognised(f, resized("instance_norm", {{4, 112}, {8, 64}, {32, 7168}, {6, 512}, {5, 512}}));
  const Config c = first_of(*inorm, "coop", &h200);
  EXPECT_EQ(c.value("chunk", 0), 4096) << c.dump();
  EXPECT_EQ(c.value("block_j", 0), 4096) << c.dump();
  EXPECT_TRUE(first_of(*inorm, "coop", nullptr).is_null());
  const std::string src = inorm->emit(c, {"x"});
  EXPECT_NE(src.find("ka_coop_kernel[(self.ka_groups * 64,)]"), std::string::npos);
  // Nothing is asked of L2 ahead of the loads (on the H100 a prefetch of the next row's chunk made DRAM read
  // 1.56x the input and the kernel 1.30x slower): the chunk is loaded once, where the row comes.
  EXPECT_EQ(src.find("prefetch"), std::string::npos);
  EXPECT_EQ(count_of(src, " x_n0__instance_0 = tl.load("), 1u) << src;
  // A chunk of 8192 is held whole in one step of 8192 (GroupNorm's 2M-position rows: 6.32 ms on the H100, against
  // 7.06 ms read twice in two steps of 4096); in two steps it is read again for the writes.
  Config held = c;
  held["chunk"] = 8192;
  held["block_j"] = 8192;
  held["num_warps"] = 8;
  ASSERT_TRUE(inorm->valid(held, &h200, Precision::strict)) << held.dump();
  EXPECT_EQ(count_of(inorm->emit(held, {"x"}), " x_n0__instance_0 = tl.load("), 1u);
  Config twice = c;
  twice["chunk"] = 8192;
  ASSERT_TRUE(inorm->valid(twice, &h200, Precision::strict)) << twice.dump();
  EXPECT_EQ(count_of(inorm->emit(twice, {"x"}), " x_n0__instance_0 = tl.load("), 2u);
  // The reread hints: the reduction's read is kept in L2 (evict_last) for the second, which goes evict_first
  // with the stores; the rows in flight are capped at half the L2 (a row of 262144 floats read: 1 MiB). A chunk
  // held in registers has no second read to keep anything for.
  Config reread = twice;
  reread["eviction"] = "reread";
  ASSERT_TRUE(inorm->valid(reread, &h200, Precision::strict)) << reread.dump();
  const std::string rsrc = inorm->emit(reread, {"x"});
  EXPECT_EQ(count_of(rsrc, "eviction_policy=\"evict_last\")"), 1u) << rsrc;
  EXPECT_EQ(count_of(rsrc, "eviction_policy=\"evict_first\")"), 2u) << rsrc;  // the second read, the store
  EXPECT_NE(rsrc.find("l2 // 2 // 1048576))"), std::string::npos) << rsrc;
  EXPECT_EQ(inorm->emit(twice, {"x"}).find("l2 // 2"), std::string::npos);
  held["eviction"] = "reread";
  EXPECT_FALSE(inorm->valid(held, &h200, Precision::strict));
  // LayerNorm's 16 rows of 4M: the split variant, 32 programs a row (512 in all).
  auto ln = test::recognised(f, resized("layer_norm", {{4, 16}, {8, 64}, {6, 256}, {5, 257}}));
  EXPECT_EQ(first_of(*ln, "split", &h200).value("split", 0), 32) << first_of(*ln, "split", &h200).dump();
}

TEST(MapReduceFamily, LongRowsAreSuggestedAHeldChunkOfCoResidentPrograms) {
  const auto h200 = find_gpu_spec("NVIDIA H200");
  ASSERT_TRUE(h200);
  const Family& f = test::family("mapreduce");
  const KnobSpace& space = f.knob_space();
  auto suggested = [&](const FamilyProblem& p, const GpuSpec* gpu) {
    std::vector<Config> valid;
    for (const auto& c : space.enumerate())
      if (p.valid(c, gpu, Precision::strict)) valid.push_back(c);
    return suggested_configs(p, space, valid);
  };
  // InstanceNorm's rows of 262144: chunks of 4096 at 4 warps, 64 programs a row.
  auto inorm = test::recognised(f, resized("instance_norm", {{4, 112}, {8, 64}, {32, 7168}, {6, 512}, {5, 512}}));
  auto s34 = suggested(*inorm, &*h200);
  ASSERT_EQ(s34.size(), 1u);
  EXPECT_EQ(s34[0].first.at("variant"), "coop");
  EXPECT_EQ(s34[0].first.at("chunk"), 4096);
  EXPECT_EQ(s34[0].first.at("block_j"), 4096);
  EXPECT_EQ(s34[0].first.at("num_warps"), 4);
  EXPECT_NE(s34[0].second.find("64 co-resident programs"), std::string::npos) << s34[0].second;
  // Without a GPU (the interpreter) the coop variant is not valid: no suggestion survives.
  EXPECT_TRUE(suggested(*inorm, nullptr).empty());
  // KernelBench 35's GroupNorm (8 groups of 8 channels of 512 x 512: rows of 2M): chunks of 8192 at 8 warps,
  // held in one step (256 programs a row).
  auto gnorm = test::recognised(f, TraceResult::from_json(test::read_json(
                                       test::data_dir() / "families" / "mapreduce" / "kernelbench" / "35_GroupNorm_.json")));
  // Its rows read 8 MiB: also chunks of 16384 walked in two steps, read again from L2 (the reread hints).
  auto s35 = suggested(*gnorm, &*h200);
  ASSERT_EQ(s35.size(), 2u);
  EXPECT_EQ(s35[0].first.at("chunk"), 8192);
  EXPECT_EQ(s35[0].first.at("block_j"), 8192);
  EXPECT_EQ(s35[0].first.at("num_warps"), 8);
  EXPECT_EQ(s35[1].first.at("chunk"), 16384);
  EXPECT_EQ(s35[1].first.at("block_j"), 8192);
  EXPECT_EQ(s35[1].first.at("eviction"), "reread");
  // BatchNorm's rows of 16M read 64 MiB: one in flight would not fit half the L2, no walked chunk is suggested.
  auto bnorm = test::recognised(f, resized("batch_norm", {{4, 64}, {8, 64}, {6, 512}, {5, 512}}));
  for (const auto& [config, why] : suggested(*bnorm, &*h200)) EXPECT_NE(config.at("eviction"), "reread") << why;
  // Short rows (the small LayerNorm fixture) get nothing: a row in registers serves them.
  auto ln = test::recognised(f, TraceResult::from_json(test::read_json(
                                    test::data_dir() / "families" / "mapreduce" / "traces" / "layer_norm.json")));
  EXPECT_TRUE(suggested(*ln, &*h200).empty());
}

