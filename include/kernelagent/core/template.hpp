#pragma once
// Fills `{{NAME}}` placeholders in a kernel family's template file. Every placeholder in the template
// must be given and every value given must be used, so a template and its emitter cannot drift apart.

#include <filesystem>
#include <map>
#include <string>

namespace kernelagent {

std::string read_text_file(const std::filesystem::path& path);
// Replaces the file's contents; throws UserError(bad_input) naming the path when it cannot be written.
void write_text_file(const std::filesystem::path& path, const std::string& text);

// Throws std::runtime_error naming the placeholder that is missing or unused.
std::string fill_template(const std::string& text, const std::map<std::string, std::string>& values);

}  // namespace kernelagent
