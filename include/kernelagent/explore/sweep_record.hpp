#pragma once
// A recorded sweep (docs/sweep.md): every configuration of one family's knob space with its measured
// outcome. Loaded, it is a measurement executor that answers from the record instead of a GPU, so the
// search can run, be tested and be compared with no GPU, deterministically.

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "kernelagent/explore/measure_executor.hpp"
#include "kernelagent/families/family.hpp"

namespace kernelagent {

class SweepRecord : public MeasureExecutor {
 public:
  // Throws UserError(bad_input) for a file that is not a kernelagent.sweep/1 record.
  static SweepRecord load(const std::filesystem::path& path);
  static SweepRecord from_json(const nlohmann::json& record, const std::string& origin);

  Measurement measure(const Config& config, const std::string& reason) override;
  // Answers as if `slots` GPUs measured at once (the search proposes batches of that many), to see what a
  // multi-GPU search would measure; 1 by default.
  void set_slots(int slots) { slots_ = slots < 1 ? 1 : slots; }
  int capacity() const override { return slots_; }
  // The recorded outcome of a configuration; "invalid_config" for one the sweep pruned.
  Measurement measure(const Config& config) const;

  const KnobSpace& space() const { return space_; }
  // Configurations in the order they were recorded (the knob space's order, default first).
  const std::vector<Config>& configs() const { return order_; }
  std::optional<double> best_us() const;
  const nlohmann::json& raw() const { return raw_; }
  std::string name() const;
  // "memory" or "compute": which floor binds the problem, from the record's roofline.
  std::string bound() const;
  // The diagnosed cause of a configuration's kernel, from a sweep made with --profile ("" when the
  // configuration was not profiled or no bottleneck stood out), and whether the record has any.
  std::string cause(const Config& config) const;
  bool profiled() const { return !causes_.empty(); }

 private:
  nlohmann::json raw_;
  KnobSpace space_;
  std::vector<Config> order_;
  std::map<std::string, Measurement> by_config_;
  int slots_ = 1;
  std::map<std::string, std::string> causes_;
};

}  // namespace kernelagent
