#pragma once
// Families register themselves: each recogniser's file ends with
//
//   KA_REGISTER_FAMILY(reduction, recognise_reduction);
//
// naming its folder under families/ and its recogniser. load_families() pairs every registration with
// its folder and orders the families by their manifests' "order" (lower first: a problem goes to the
// first family that implements it, so a specialised family comes before a general one). The engine
// knows no family by name.

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kernelagent/families/family.hpp"

namespace kernelagent {

// Called by KA_REGISTER_FAMILY during static initialisation; returns true.
bool register_family(const char* folder, Family::Recogniser recognise);

// Every registered family whose folder is under `families_dir`, in the manifests' order. Throws
// std::runtime_error naming the file when a family's folder is missing or broken.
std::vector<std::unique_ptr<Family>> load_families(const std::filesystem::path& families_dir);

// The family named `name`, or null.
const Family* find_family(const std::vector<std::unique_ptr<Family>>& families, std::string_view name);

// A hash of the C++ code of the families (src/families, include/kernelagent/families), computed when the
// binary was built: a change to a recogniser or an emitter changes every family's source hash.
const char* family_code_hash();

}  // namespace kernelagent

#define KA_REGISTER_FAMILY(folder, recogniser) \
  [[maybe_unused]] static const bool ka_family_registered_##folder = ::kernelagent::register_family(#folder, recogniser)
