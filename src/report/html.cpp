#include "kernelagent/report/html.hpp"

#include <fmt/format.h>

namespace kernelagent::report {

std::string escape(std::string_view text) {
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string anchor_id(std::string_view name) {
  std::string id = "p-";
  for (const char c : name) {
    const bool keep =
        (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
    id += keep ? c : '-';
  }
  return id;
}

std::string element(std::string_view tag, std::string_view text, std::string_view cls) {
  if (cls.empty()) return fmt::format("<{0}>{1}</{0}>", tag, escape(text));
  return fmt::format("<{0} class=\"{2}\">{1}</{0}>", tag, escape(text), escape(cls));
}

}  // namespace kernelagent::report
