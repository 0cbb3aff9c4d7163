#pragma once
// Text into HTML and SVG: every string the report takes from a result (a problem's name, a failure's
// message, a kernel's source) goes through escape() before it is written, so the page shows it as it is
// and nothing in it can become markup.

#include <string>
#include <string_view>

namespace kernelagent::report {

// &, <, >, " and ' as character references: safe in element content and in quoted attribute values.
std::string escape(std::string_view text);

// An id for an anchor (`<section id=...>`, `href="#..."`): letters, digits, '-' and '_' kept, anything
// else as '-', prefixed so it never starts with a digit. "23_Softmax" -> "p-23_Softmax".
std::string anchor_id(std::string_view name);

// <tag class="cls">escaped text</tag>; `cls` empty: no class attribute.
std::string element(std::string_view tag, std::string_view text, std::string_view cls = "");

}  // namespace kernelagent::report
