#include "kernelagent/core/template.hpp"

#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "kernelagent/core/error.hpp"

namespace kernelagent {

std::string read_text_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + path.string());
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

void write_text_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw UserError(ExitCode::bad_input, "cannot write " + path.string());
  out << text;
}

std::string fill_template(const std::string& text, const std::map<std::string, std::string>& values) {
  std::string out;
  std::set<std::string> used;
  std::size_t pos = 0;
  while (true) {
    std::size_t open = text.find("{{", pos);
    if (open == std::string::npos) {
      out.append(text, pos, std::string::npos);
      break;
    }
    std::size_t close = text.find("}}", open);
    if (close == std::string::npos) throw std::runtime_error("template: '{{' without '}}'");
    out.append(text, pos, open - pos);
    std::string name = text.substr(open + 2, close - open - 2);
    auto it = values.find(name);
    if (it == values.end()) throw std::runtime_error("template: no value for placeholder {{" + name + "}}");
    out += it->second;
    used.insert(name);
    pos = close + 2;
  }
  for (const auto& [name, _] : values)
    if (!used.contains(name)) throw std::runtime_error("template: value for {{" + name + "}} is not used");
  return out;
}

}  // namespace kernelagent
