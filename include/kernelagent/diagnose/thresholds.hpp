#pragma once
// The figures the diagnosis rules compare a kernel's metrics with, each by name with what it separates.
// The built-in values were set by hand from kernels designed to show one cause each; the rules read them
// through KernelFacts::limit, so a table fitted to labelled profiles (threshold_fit.hpp) can stand in for
// them: that is how the leave-one-family-out accuracy is measured.

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace kernelagent {

struct ThresholdSpec {
  std::string name;
  double value = 0;
  std::string meaning;  // what a kernel on either side of the value looks like
};

class DiagnosisThresholds {
 public:
  static const DiagnosisThresholds& built_in();

  // The value of a threshold; an unknown name is a programming error and throws std::out_of_range.
  double operator[](std::string_view name) const;
  void set(std::string_view name, double value);
  const std::vector<ThresholdSpec>& specs() const { return specs_; }

 private:
  explicit DiagnosisThresholds(std::vector<ThresholdSpec> specs) : specs_(std::move(specs)) {}
  std::size_t index_of(std::string_view name) const;  // throws std::out_of_range for an unknown name
  std::vector<ThresholdSpec> specs_;
};

}  // namespace kernelagent
