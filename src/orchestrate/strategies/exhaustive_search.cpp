// Every valid configuration in the knob space's order, default first: what the search is measured against.

#include "kernelagent/orchestrate/search_strategy.hpp"

namespace kernelagent {

namespace {
class ExhaustiveSearch : public SearchStrategy {
 public:
  std::string name() const override { return "exhaustive"; }
  std::optional<std::pair<Config, std::string>> next(const SearchContext& ctx) override {
    for (const auto& c : ctx.valid)
      if (!ctx.measured(c)) return std::make_pair(c, std::string("next in the knob space's order"));
    return std::nullopt;
  }
};
}  // namespace

std::unique_ptr<SearchStrategy> make_exhaustive_search() { return std::make_unique<ExhaustiveSearch>(); }

}  // namespace kernelagent
