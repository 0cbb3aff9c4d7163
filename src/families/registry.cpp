#include "kernelagent/families/registry.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include <fmt/format.h>

namespace kernelagent {

namespace {

// Function-local so that registrations from any translation unit's static initialisation find it built.
std::map<std::string, Family::Recogniser>& registrations() {
  static std::map<std::string, Family::Recogniser> r;
  return r;
}

}  // namespace

bool register_family(const char* folder, Family::Recogniser recognise) {
  registrations()[folder] = recognise;
  return true;
}

std::vector<std::unique_ptr<Family>> load_families(const std::filesystem::path& families_dir) {
  std::vector<std::unique_ptr<Family>> out;
  for (const auto& [folder, recognise] : registrations()) {
    const auto dir = families_dir / folder;
    std::error_code ec;
    if (!std::filesystem::is_directory(dir, ec))
      throw std::runtime_error(fmt::format("kernel family {}: its folder {} is missing", folder, dir.string()));
    out.push_back(std::make_unique<Family>(FamilyFiles::read(dir, family_code_hash()), recognise));
  }
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
    return a->manifest().value("order", 100) < b->manifest().value("order", 100);
  });
  return out;
}

const Family* find_family(const std::vector<std::unique_ptr<Family>>& families, std::string_view name) {
  for (const auto& f : families)
    if (f->name() == name) return f.get();
  return nullptr;
}

}  // namespace kernelagent
